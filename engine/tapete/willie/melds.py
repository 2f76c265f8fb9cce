"""What makes a Willie meld (SPEC.md 1.3, rulings W-1..W-9).

Glossary:

meld       three or more table cards that belong together: a group, a sequence or a Willie
group      3..``max_group_size`` cards of one rank (2..10) with distinct suits
sequence   3 or more cards of one suit with consecutive ranks inside 2..10 (no wrap)
Willie     exactly J, Q and K as themselves (no declarations); never extended (W-5)
wild       a figure in a group or sequence, written ``K:B7``; at most one per meld, and its
           declaration may not repeat a card of the same meld
token      a card as written on the table (see :mod:`tapete.willie.cards`)
identity   the number card a token counts as (itself, or a wild's declaration)

``meld_problem`` returns ``None`` for a valid meld or ``(reason, message)``; the reasons are
stable keys the page translates: ``meld_too_short``, ``two_wilds``, ``duplicate_card``,
``group_too_large``, ``mixed_suits``, ``mixed_ranks``, ``not_consecutive``,
``figure_needs_declaration``, ``willie_extended``, ``bad_willie``, ``willie_disabled``.
Melds are stored in a canonical order: sequences by rank, groups by suit, a Willie as J Q K.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import InvalidMoveError, describe
from .cards import FIGURES, NUMBER_INDEX, rank_of_index, suit_index

Token = tuple[str, int | None]  # (card code, identity index or None for a plain figure)
FIGURE_ORDER = {fig: 100 + i for i, fig in enumerate(FIGURES)}


def parse_token(text: object) -> Token:
    """``R7`` -> (``R7``, identity); ``K`` -> (``K``, None); ``K:B7`` -> (``K``, identity)."""
    if isinstance(text, str) and len(text) <= 8:
        if text in NUMBER_INDEX:
            return text, NUMBER_INDEX[text]
        if text in FIGURES:
            return text, None
        figure, colon, declared = text.partition(":")
        if colon and figure in FIGURES and declared in NUMBER_INDEX:
            return figure, NUMBER_INDEX[declared]
    raise InvalidMoveError(
        f"not a Willie table card: {describe(text)} (write R7, J, or a wild as K:B7)",
        card=str(text)[:12],
    )


def token_card(text: str) -> str:
    """The physical card of a token: ``K:B7`` -> ``K``."""
    return text.partition(":")[0]


def is_wild(text: str) -> bool:
    return ":" in text


def sort_key(text: str) -> int:
    card, identity = parse_token(text)
    return identity if identity is not None else FIGURE_ORDER[card]


def normalize_meld(tokens: Sequence[str]) -> tuple[str, ...]:
    """The canonical order: by identity (sequences by rank, groups by suit), figures J Q K last."""
    return tuple(sorted(tokens, key=sort_key))


def meld_problem(
    tokens: Sequence[str], *, max_group_size: int = 4, willie_enabled: bool = True
) -> tuple[str, str] | None:
    """None if ``tokens`` (already parseable) form a valid meld, else (reason, message)."""
    parsed = [parse_token(t) for t in tokens]
    plain = [card for card, identity in parsed if identity is None]
    if plain:
        return willie_problem(tokens, plain, willie_enabled)
    if len(parsed) < 3:
        return "meld_too_short", f"a meld needs at least 3 cards; got {len(parsed)}"
    wilds = [t for t in tokens if is_wild(t)]
    if len(wilds) > 1:
        return "two_wilds", f"a meld holds at most one wild; got {', '.join(wilds)}"
    identities = [identity for _, identity in parsed if identity is not None]
    if len(set(identities)) < len(identities):
        return "duplicate_card", "a card appears twice in the meld (a wild may not repeat one)"
    ranks = {rank_of_index(i) for i in identities}
    suits = {suit_index(i) for i in identities}
    if len(ranks) == 1:
        if len(parsed) > max_group_size:
            return "group_too_large", f"a group holds at most {max_group_size} cards"
        return None
    if len(suits) == 1:
        if max(ranks) - min(ranks) != len(ranks) - 1:
            return "not_consecutive", "the ranks of a sequence must follow each other"
        return None
    if len(ranks) == len(identities):
        return "mixed_suits", "a sequence is all of one suit"
    return "mixed_ranks", "a group is all of one rank (and a sequence all of one suit)"


def willie_problem(
    tokens: Sequence[str], plain: Sequence[str], willie_enabled: bool
) -> tuple[str, str] | None:
    if len(plain) != len(tokens):
        if set(plain) == set(FIGURES):
            return "willie_extended", "a Willie is exactly J, Q and K: it cannot be extended"
        return (
            "figure_needs_declaration",
            "a figure in a group or sequence is a wild: write the card it stands for (K:B7)",
        )
    if sorted(plain) == sorted(FIGURES):
        if not willie_enabled:
            return "willie_disabled", "the Willie meld (J Q K) is switched off in this game"
        return None
    if set(plain) == set(FIGURES):
        return "willie_extended", "a Willie is exactly J, Q and K: it cannot be extended"
    return "bad_willie", "figures alone form only a Willie: one J, one Q and one K"


def options_of(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The meld rules' options (defaults when None)."""
    options = options or {}
    return {
        "max_group_size": int(options.get("max_group_size", 4)),
        "willie_enabled": bool(options.get("willie_enabled", True)),
    }


def is_meld(cards: Sequence[str], options: Mapping[str, Any] | None = None) -> bool:
    """True if the codes form one valid meld; wilds are written ``K:B7``.

    >>> is_meld(["R8", "O8", "B8"]), is_meld(["Y7", "K:Y8", "Y9"]), is_meld(["J", "J", "J"])
    (True, True, False)
    """
    try:
        return meld_problem(list(cards), **options_of(options)) is None
    except InvalidMoveError:
        return False
