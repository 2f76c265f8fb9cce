"""Willie's cards: the 54-card Haggis deck and its text codes (SPEC.md sections 1.3 and 7).

Glossary:

number card  one of the 45 unique cards: a suit letter R (red), O (orange), Y (yellow),
             G (green), B (blue) then a rank 2..10: ``R2``, ``B10``
figure       ``J``, ``Q`` or ``K``; three copies of each share one code; figures have no suit
wild         a figure inside a group or a sequence; on the table it is written with the card it
             stands for after a colon, its *declaration*: ``K:B7``
token        one card as written on the table: a number card, a plain figure (only inside a
             Willie) or a wild ``K:B7``
identity     what a table card counts as in its meld: a number card itself, a wild its
             declaration; stored as an index 0..44 (``suit * 9 + rank - 2``)
points       what a card left in hand costs at the end of a round: number card 1, J 2, Q 3,
             K 5 by default (the ``points_*`` options)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..errors import InvalidMoveError, describe

SUITS = ("R", "O", "Y", "G", "B")
RANKS = tuple(range(2, 11))
FIGURES = ("J", "Q", "K")
COPIES = 3

NUMBERS: tuple[str, ...] = tuple(f"{suit}{rank}" for suit in SUITS for rank in RANKS)
DECK: tuple[str, ...] = NUMBERS + tuple(fig for fig in FIGURES for _ in range(COPIES))
NUMBER_INDEX: dict[str, int] = {code: i for i, code in enumerate(NUMBERS)}
CARD_SET = frozenset(DECK)
CARD_ORDER: dict[str, int] = {code: i for i, code in enumerate(NUMBERS + FIGURES)}

DEFAULT_POINTS: dict[str, int] = {"N": 1, "J": 2, "Q": 3, "K": 5}
POINT_OPTIONS = {"N": "points_number", "J": "points_jack", "Q": "points_queen", "K": "points_king"}


def is_figure(code: str) -> bool:
    return code in FIGURES


def is_number(code: str) -> bool:
    return code in NUMBER_INDEX


def index_of(code: str) -> int:
    """The identity index 0..44 of a number card."""
    return NUMBER_INDEX[code]


def code_of(index: int) -> str:
    return NUMBERS[index]


def suit_index(index: int) -> int:
    return index // 9


def rank_of_index(index: int) -> int:
    return index % 9 + 2


def make_index(suit: int, rank: int) -> int:
    return suit * 9 + rank - 2


def parse_card(code: object) -> str:
    """``code`` if it is a card of the deck (a number card or a figure), else ``invalid_move``."""
    if isinstance(code, str) and code in CARD_SET:
        return code
    raise InvalidMoveError(f"not a Willie card: {describe(code)}", card=str(code)[:12])


def point_table(options: Mapping[str, Any] | None = None) -> dict[str, int]:
    """Points per kind of card ("N", "J", "Q", "K") under ``options`` (defaults if None)."""
    if options is None:
        return dict(DEFAULT_POINTS)
    return {
        kind: int(options.get(name, DEFAULT_POINTS[kind])) for kind, name in POINT_OPTIONS.items()
    }


def card_points(code: str, table: Mapping[str, int]) -> int:
    return table[code] if code in FIGURES else table["N"]


def hand_points(cards: Iterable[str], table: Mapping[str, int]) -> int:
    return sum(card_points(code, table) for code in cards)


def sort_cards(cards: Iterable[str]) -> list[str]:
    """Number cards by suit then rank, then J, Q, K (the deck order)."""
    return sorted(cards, key=lambda code: CARD_ORDER[code])
