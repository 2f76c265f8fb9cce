"""Willie's moves and their JSON form.

Glossary:

draw       take the top card of the stock (each of the up to three draws of a turn is a move)
pass       do not meld now: go on to the next draw (after the 1st or 2nd draw), or let a final
           turn go by
meld       one meld phase: the whole new table plus the cards played from the hand
close      end the round after a regular turn, holding ``close_threshold`` points or fewer
continue   do not close (only offered when closing is allowed)

JSON: ``"draw"``, ``"pass"``, ``"close"`` and ``"continue"`` are plain strings (``"pass_meld"``
and ``{"kind": "draw"}`` etc. are accepted too); a meld is an object::

    {"kind": "meld",
     "table": [["R7", "R8", "K:R9"], ["J", "Q", "K"], ["B2", "O2", "G2"]],
     "from_hand": ["G2", "J", "Q"]}

``table`` lists every meld of the table after the phase, each a list of codes, a wild written
with its declaration (``K:R9``); ``from_hand`` lists the cards that left the hand (a figure as
``K``, without declaration). Order inside a meld does not matter: the engine stores melds in a
canonical order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import InvalidMoveError, describe
from .cards import parse_card
from .melds import parse_token

SIMPLE = ("draw", "pass", "close", "continue")
ALIASES = {"pass_meld": "pass"}
MAX_MELDS = 60
MAX_TOKENS = 80

Table = tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Move:
    """A Willie move: ``kind`` is one of draw, pass, meld, close, continue."""

    kind: str
    table: Table = ()
    from_hand: tuple[str, ...] = ()

    def to_json(self) -> Any:
        if self.kind != "meld":
            return self.kind
        return {
            "kind": "meld",
            "table": [list(meld) for meld in self.table],
            "from_hand": list(self.from_hand),
        }

    def __str__(self) -> str:
        if self.kind != "meld":
            return self.kind
        melds = " | ".join(" ".join(meld) for meld in self.table)
        return f"meld [{melds}] from hand {' '.join(self.from_hand)}"


def parse_move(data: Any) -> Move:
    """The move ``data`` names, or ``invalid_move`` quoting what is wrong."""
    if isinstance(data, str):
        kind = ALIASES.get(data, data)
        if kind in SIMPLE:
            return Move(kind)
        raise InvalidMoveError(
            f"a Willie move is draw, pass, close, continue or a meld object; got {describe(data)}"
        )
    if not isinstance(data, dict):
        raise InvalidMoveError(f"a Willie move is text or an object; got {describe(data)}")
    named = data.get("kind")
    if isinstance(named, str) and ALIASES.get(named, named) in SIMPLE:
        if set(data) != {"kind"}:
            raise InvalidMoveError(f"a {named} move has no other fields; got {describe(data)}")
        return Move(ALIASES.get(named, named))
    if named != "meld":
        raise InvalidMoveError(f"unknown move kind {describe(named)}")
    extra = set(data) - {"kind", "table", "from_hand"}
    if extra:
        raise InvalidMoveError(f"unknown field(s) in a meld move: {describe(sorted(extra))}")
    return Move("meld", parse_table(data.get("table")), parse_hand_cards(data.get("from_hand")))


def parse_table(data: Any) -> Table:
    if not isinstance(data, list) or len(data) > MAX_MELDS:
        raise InvalidMoveError(f"a meld move's table is a list of melds; got {describe(data)}")
    melds: list[tuple[str, ...]] = []
    total = 0
    for meld in data:
        if not isinstance(meld, list):
            raise InvalidMoveError(f"a meld is a list of card codes; got {describe(meld)}")
        total += len(meld)
        if total > MAX_TOKENS:
            raise InvalidMoveError("too many cards on the table")
        for token in meld:
            parse_token(token)
        melds.append(tuple(meld))
    return tuple(melds)


def parse_hand_cards(data: Any) -> tuple[str, ...]:
    if not isinstance(data, list) or len(data) > MAX_TOKENS:
        raise InvalidMoveError(f"from_hand is a list of card codes; got {describe(data)}")
    return tuple(parse_card(code) for code in data)
