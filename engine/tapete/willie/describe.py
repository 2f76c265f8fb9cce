"""How each meld of a table a player is building reads (live feedback for the page).

Glossary:

proposed table  the melds a player has arranged so far, in the move's JSON form (lists of codes,
                a wild written ``K:B7``); it may hold half-built melds
kind            ``group``, ``sequence`` or ``willie`` for a valid meld
value           the points its cards would cost in a hand (what playing them sheds)
changed         false for a meld that stands on the old table exactly as it is now
loose figure    a figure written without a declaration (``K``) in a meld that is not a Willie:
                the page must ask what it stands for
wild_choices    for a meld with one figure (declared or loose) and otherwise number cards: every
                card the figure may be declared as so that the meld is valid, or, for a meld of
                fewer than three cards, can still become valid by adding cards (a picker offers
                exactly these); empty when no declaration helps
wild_fixed      the figure is a wild of the old table whose real card is not on the proposed
                table: its declaration cannot change (SPEC.md 1.3, W-9)

A meld is described, never raised: an unreadable meld is ``{valid: false, reason: "bad_card"}``.
Whether the whole phase is legal is :func:`tapete.willie.phase.check_phase`'s answer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import InvalidMoveError, describe
from .cards import FIGURES, NUMBERS, card_points, point_table, rank_of_index, suit_index
from .melds import meld_problem, normalize_meld, options_of, parse_token, token_card
from .moves import MAX_MELDS, MAX_TOKENS, Table


def describe_table(old: Table, table: Any, options: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One entry per meld of ``table``; ``invalid_move`` only when it is not a list at all."""
    if not isinstance(table, list) or len(table) > MAX_MELDS:
        raise InvalidMoveError(f"the table is a list of melds; got {describe(table)}")
    unchanged = Counter(normalize_meld(meld) for meld in old)
    naturals = {t for meld in table if isinstance(meld, list) for t in meld if t in NUMBERS}
    old_wilds = {t for meld in old for t in meld if ":" in t}
    out: list[dict[str, Any]] = []
    for meld in table:
        tokens = readable(meld)
        if tokens is None:
            out.append(
                {
                    "valid": False,
                    "reason": "bad_card",
                    "message": f"not a meld of Willie cards: {describe(meld)}",
                    "changed": True,
                }
            )
            continue
        entry = describe_meld(tokens, options)
        key = normalize_meld(tokens)
        entry["changed"] = unchanged[key] == 0
        if unchanged[key] > 0:
            unchanged[key] -= 1
        figure = lone_figure(tokens)
        if figure is not None:
            token = tokens[figure]
            fixed = token in old_wilds and token.partition(":")[2] not in naturals
            entry["wild"] = figure
            entry["wild_fixed"] = fixed
            entry["wild_choices"] = (
                [token.partition(":")[2]] if fixed else wild_choices(tokens, figure, options)
            )
        out.append(entry)
    return out


def readable(meld: Any) -> list[str] | None:
    """The meld's tokens if every one parses, else None."""
    if not isinstance(meld, list) or len(meld) > MAX_TOKENS:
        return None
    try:
        for token in meld:
            parse_token(token)
    except InvalidMoveError:
        return None
    return list(meld)


def describe_meld(tokens: Sequence[str], options: Mapping[str, Any]) -> dict[str, Any]:
    points = point_table(options)
    value = sum(card_points(token_card(t), points) for t in tokens)
    problem = meld_problem(tokens, **options_of(options))
    if problem is not None:
        return {"valid": False, "reason": problem[0], "message": problem[1], "value": value}
    return {"valid": True, "kind": kind_of(tokens), "value": value}


def kind_of(tokens: Sequence[str]) -> str:
    """The kind of a valid meld."""
    identities = [identity for _, identity in map(parse_token, tokens) if identity is not None]
    if not identities:
        return "willie"
    return "group" if len({rank_of_index(i) for i in identities}) == 1 else "sequence"


def lone_figure(tokens: Sequence[str]) -> int | None:
    """The position of the only figure of a meld whose other cards are number cards."""
    figures = [i for i, t in enumerate(tokens) if token_card(t) in FIGURES]
    if len(figures) != 1 or len(tokens) < 2:
        return None
    return figures[0]


def wild_choices(tokens: Sequence[str], figure: int, options: Mapping[str, Any]) -> list[str]:
    """Every declaration of ``tokens[figure]`` that makes the meld valid (or still completable
    when it has fewer than three cards), in deck order."""
    card = token_card(tokens[figure])
    rules = options_of(options)
    others = [t for i, t in enumerate(tokens) if i != figure]
    choices: list[str] = []
    for code in NUMBERS:
        trial = [*others, f"{card}:{code}"]
        if len(trial) >= 3:
            if meld_problem(trial, **rules) is None:
                choices.append(code)
        elif completable([parse_token(t)[1] for t in trial], rules["max_group_size"]):
            choices.append(code)
    return choices


def completable(identities: Sequence[int | None], max_group: int) -> bool:
    """Whether two distinct cards can still grow into a group or a sequence."""
    known = [i for i in identities if i is not None]
    if len(set(known)) < len(known):
        return False
    ranks = {rank_of_index(i) for i in known}
    suits = {suit_index(i) for i in known}
    return (len(ranks) == 1 and len(known) <= max_group) or len(suits) == 1
