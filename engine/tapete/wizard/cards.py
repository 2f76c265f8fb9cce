"""Wizard's cards and the two rules every trick depends on.

Glossary:

card       a text code (SPEC.md section 7): a suit letter R, B, G or Y then a rank 1..13
           (13 highest), a Wizard ``Z1``..``Z4`` or a Jester ``N1``..``N4`` (the digit only tells
           the four copies apart)
suit       R (red), B (blue), G (green), Y (yellow); Wizards and Jesters have none
trump      the trump suit of the round, or None
trick      the cards played so far to the current trick, in playing order
led suit   the suit of the first card of a trick that is not a Jester, unless that card is a
           Wizard, in which case there is no suit to follow ("free" trick)
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import InvalidMoveError, describe

SUITS = ("R", "B", "G", "Y")
RANKS = tuple(range(1, 14))
WIZARDS = ("Z1", "Z2", "Z3", "Z4")
JESTERS = ("N1", "N2", "N3", "N4")
DECK: tuple[str, ...] = (
    tuple(f"{suit}{rank}" for suit in SUITS for rank in RANKS) + WIZARDS + JESTERS
)
DECK_SET = frozenset(DECK)
DECK_NUMBER: dict[str, int] = {code: i for i, code in enumerate(DECK)}  # a card's index in DECK


def parse_card(code: object) -> str:
    """``code`` itself if it names a card of the deck, else ``invalid_move`` quoting it."""
    if isinstance(code, str) and code in DECK_SET:
        return code
    raise InvalidMoveError(f"not a Wizard card: {describe(code)}", card=str(code)[:12])


def is_wizard(card: str) -> bool:
    return card[0] == "Z"


def is_jester(card: str) -> bool:
    return card[0] == "N"


def suit_of(card: str) -> str | None:
    """The suit of a numbered card; None for Wizards and Jesters."""
    return None if card[0] in "ZN" else card[0]


def rank_of(card: str) -> int:
    """1..13 for numbered cards; 14 for a Wizard and 0 for a Jester (the high-card order)."""
    if card[0] == "Z":
        return 14
    if card[0] == "N":
        return 0
    return int(card[1:])


def led_suit(trick: Sequence[str]) -> str | None:
    """The suit players must follow, or None (empty, only Jesters, or a Wizard came first)."""
    for card in trick:
        if is_jester(card):
            continue
        return suit_of(card)  # None for a Wizard
    return None


def legal_cards(hand: Sequence[str], trick: Sequence[str]) -> list[str]:
    """The cards of ``hand`` that may be played to ``trick``, in hand order.

    Wizards and Jesters are always playable; otherwise a player holding a numbered card of the
    led suit must play one.
    """
    hand = [parse_card(card) for card in hand]
    trick = [parse_card(card) for card in trick]
    suit = led_suit(trick)
    if suit is None or not any(suit_of(card) == suit for card in hand):
        return list(hand)
    return [card for card in hand if suit_of(card) in (suit, None)]


def trick_winner(cards: Sequence[str], trump: str | None) -> int:
    """The index in ``cards`` of the card that wins the trick.

    The first Wizard; else the first card if all are Jesters; else the highest trump; else the
    highest card of the led suit.
    """
    cards = [parse_card(card) for card in cards]
    if not cards:
        raise InvalidMoveError("an empty trick has no winner")
    if trump is not None and trump not in SUITS:
        raise InvalidMoveError(f"not a suit: {describe(trump)}")
    for index, card in enumerate(cards):
        if is_wizard(card):
            return index
    suit = led_suit(cards)
    if suit is None:  # only Jesters
        return 0
    best = -1
    for wanted in (trump, suit):
        if wanted is None:
            continue
        for index, card in enumerate(cards):
            if suit_of(card) == wanted and (best < 0 or rank_of(card) > rank_of(cards[best])):
                best = index
        if best >= 0:
            return best
    raise AssertionError("unreachable: the led suit is in the trick")
