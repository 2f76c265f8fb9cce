"""Willie's moves and their JSON form.

Glossary:

draw       take the top card of the stock (each of the up to three draws of a turn is a move)
pass       do not meld now: go on to the next draw (after the 1st or 2nd draw), or let a final
           turn go by
meld       one meld phase: the whole new table plus the cards played from the hand
close      end the round after a regular turn, holding ``close_threshold`` points or fewer
continue   do not close (only offered when closing is allowed)

JSON (the same shape as Rummikub's table play): ``"draw"``, ``"pass"``, ``"close"`` and
``"continue"`` are plain strings (``"pass_meld"`` is accepted for ``"pass"``); a meld phase is
an object::

    {"play": {"table": [["R7", "R8", "K:R9"], ["J", "Q", "K"], ["B2", "O2", "G2"]],
              "from_hand": ["G2", "J", "Q"]}}

``table`` lists every meld of the table after the phase, each a list of codes, a wild written
with its declaration (``K:R9``); ``from_hand`` lists the cards that left the hand (a figure as
``K``; a declaration written there, ``K:R9``, is read as the figure ``K``). When ``from_hand``
is left out it is read from the tables: the cards of the new table that the old one does not
hold. Order inside a meld does not matter: the engine stores melds in a canonical order.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from ..errors import InvalidMoveError, describe
from .cards import parse_card, sort_cards
from .melds import parse_token, token_card

SIMPLE = ("draw", "pass", "close", "continue")
ALIASES = {"pass_meld": "pass"}
MAX_MELDS = 60
MAX_TOKENS = 80

Table = tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Move:
    """A Willie move: ``kind`` is one of draw, pass, meld, close, continue. A meld's
    ``from_hand`` is None until it is read from the tables (see :func:`played_cards`)."""

    kind: str
    table: Table = ()
    from_hand: tuple[str, ...] | None = ()

    def to_json(self) -> Any:
        if self.kind != "meld":
            return self.kind
        play: dict[str, Any] = {"table": [list(meld) for meld in self.table]}
        if self.from_hand is not None:
            play["from_hand"] = list(self.from_hand)
        return {"play": play}

    def __str__(self) -> str:
        if self.kind != "meld":
            return self.kind
        melds = " | ".join(" ".join(meld) for meld in self.table)
        hand = " ".join(self.from_hand) if self.from_hand is not None else "(from the tables)"
        return f"meld [{melds}] from hand {hand}"


def played_cards(old: Table, move: Move) -> tuple[str, ...]:
    """The cards a meld move plays: its ``from_hand``, or what the new table holds beyond the
    old one."""
    if move.from_hand is not None:
        return move.from_hand
    before = Counter(token_card(t) for meld in old for t in meld)
    after = Counter(token_card(t) for meld in move.table for t in meld)
    return tuple(sort_cards((after - before).elements()))


def parse_move(data: Any) -> Move:
    """The move ``data`` names, or ``invalid_move`` quoting what is wrong."""
    if isinstance(data, str):
        kind = ALIASES.get(data, data)
        if kind in SIMPLE:
            return Move(kind)
        raise InvalidMoveError(
            f"a Willie move is draw, pass, close, continue or a play object; got {describe(data)}"
        )
    if not isinstance(data, dict) or set(data) != {"play"}:
        raise InvalidMoveError(
            'a Willie meld is {"play": {"table": [...], "from_hand": [...]}}; '
            f"got {describe(data)}"
        )
    play = data["play"]
    if not isinstance(play, dict) or "table" not in play:
        raise InvalidMoveError(f"a play needs a table; got {describe(play)}")
    extra = set(play) - {"table", "from_hand"}
    if extra:
        raise InvalidMoveError(f"unknown field(s) in a play: {describe(sorted(extra))}")
    from_hand = parse_hand_cards(play["from_hand"]) if "from_hand" in play else None
    return Move("meld", parse_table(play["table"]), from_hand)


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
    cards: list[str] = []
    for code in data:
        if isinstance(code, str) and ":" in code:
            code = parse_token(code)[0]  # a wild as written on the table: its figure
        cards.append(parse_card(code))
    return tuple(cards)
