"""Lobo's cards: codes, ranks and the decks of each difficulty.

Glossary:

card       a text code (SPEC.md section 7): a rank ``A``, ``2``..``10`` then a suit letter:
           ``AS``, ``10H``. Ace counts 1; suits never matter to the rules
suit       ``S`` ``H`` ``D`` ``C`` of the standard deck, and ``V`` for the fifth suit of the
           five-suited Postas/Vines deck (option ``suits = 5``; our letter, not SPEC.md's)
member     one of the party members ``JS``, ``QS``, ``KS`` (the Vanguard only); never in the
           draw pile, only ever face up (active) or face down
deck       every number card of a game: ranks 1..top rank (8 Easy, 9 Standard, 10 Hard) in
           each suit; its canonical order is suit by suit (S, H, D, C, V), ace up
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..errors import InvalidMoveError, describe

SUITS = ("S", "H", "D", "C", "V")
RANK_TEXT = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")
MEMBERS = ("JS", "QS", "KS")
DIFFICULTY_RANKS = {"EASY": 8, "STANDARD": 9, "HARD": 10}

RANK_OF: dict[str, int] = {
    f"{text}{suit}": rank for rank, text in enumerate(RANK_TEXT, start=1) for suit in SUITS
}
SUIT_ORDER = {suit: index for index, suit in enumerate(SUITS)}


def deck(max_rank: int, suits: int) -> tuple[str, ...]:
    """The number cards of a game, in canonical order."""
    return tuple(f"{RANK_TEXT[r - 1]}{s}" for s in SUITS[:suits] for r in range(1, max_rank + 1))


def rank(card: str) -> int:
    """1..10 for a number card."""
    return RANK_OF[card]


def suit(card: str) -> str:
    return card[-1]


def total(cards: Iterable[str]) -> int:
    """The sum of the ranks."""
    return sum(RANK_OF[card] for card in cards)


def sort_key(card: str) -> tuple[int, int]:
    """Ascending rank, then suit order: how hands are kept."""
    return (RANK_OF[card], SUIT_ORDER[card[-1]])


def sorted_cards(cards: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=sort_key))


def move_order(cards: Iterable[str]) -> tuple[str, ...]:
    """Descending rank, then suit order: how a side of a move is written (``6S+2D+AC``)."""
    return tuple(sorted(cards, key=lambda c: (-RANK_OF[c], SUIT_ORDER[c[-1]])))


def parse_card(code: object) -> str:
    """``code`` itself if it names a number card, else ``invalid_move`` quoting it."""
    if isinstance(code, str) and code in RANK_OF:
        return code
    if isinstance(code, str) and code in MEMBERS:
        raise InvalidMoveError(f"{code} is a party member, not a number card", card=code)
    raise InvalidMoveError(f"not a Lobo card: {describe(code)}", card=str(code)[:12])


def parse_member(code: object) -> str:
    if isinstance(code, str) and code in MEMBERS:
        return code
    raise InvalidMoveError(
        f"not a party member (JS, QS or KS): {describe(code)}", card=str(code)[:12]
    )


def counts(cards: Iterable[str], max_rank: int = 10) -> tuple[int, ...]:
    """How many cards of each rank: index r holds rank r (index 0 is unused)."""
    out = [0] * (max_rank + 1)
    for card in cards:
        out[RANK_OF[card]] += 1
    return tuple(out)


def spell_sum(cards: Sequence[str]) -> str:
    """``4 + 3`` (ranks in move order) for messages."""
    return " + ".join(str(RANK_OF[c]) for c in move_order(cards))
