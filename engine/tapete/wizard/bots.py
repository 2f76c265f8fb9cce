"""The simple Wizard rules: the search's playout policy and the easy level's base.

``simple_bot`` bids its expected number of tricks, estimated card by card from rank, trump
and the number of players, and then plays to make that bid exactly: it wins tricks cheaply
while it still needs them and ducks (dumps its highest losing card) once it has enough. It was
the ``heuristic`` level until issue 19 (that level is now :mod:`.counting`, which counts the
cards); the search (:mod:`.ai`) still plays its playouts and guesses bids by these rules.

Glossary: *need* is the bid minus the tricks won so far; a card *wins now* when it would take
the trick as it stands; *power* orders cards for choosing among winners and losers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..rng import Rng
from .cards import (
    SUITS,
    is_jester,
    is_wizard,
    led_suit,
    legal_cards,
    rank_of,
    suit_of,
    trick_winner,
)
from .game import Move


def trick_estimate(card: str, trump: str | None, players: int, cards: int) -> float:
    """The rough chance that ``card`` takes a trick."""
    if is_wizard(card):
        return 0.95
    if is_jester(card):
        return 0.0
    rank = rank_of(card)
    crowd = 0.88 ** (players - 3)
    if suit_of(card) == trump:
        return min(0.95, (0.3 + 0.05 * rank) * crowd)
    offsuit = {13: 0.7, 12: 0.45, 11: 0.25, 10: 0.12}.get(rank, 0.02)
    if trump is not None:
        offsuit *= max(0.35, 1.0 - cards / 22)
    return offsuit * crowd


def choose_bid(view: dict[str, Any], legal: Sequence[int]) -> int:
    hand = view["hand"]
    expected = sum(trick_estimate(c, view["trump"], view["players"], len(hand)) for c in hand)
    return min(legal, key=lambda b: (abs(b - expected), b))


def choose_trump(hand: Sequence[str]) -> str:
    def strength(suit: str) -> float:
        return sum(1 + rank_of(c) / 13 for c in hand if suit_of(c) == suit)

    return max(SUITS, key=lambda suit: (strength(suit), -SUITS.index(suit)))


def power(card: str, trump: str | None, led: str | None) -> int:
    if is_wizard(card):
        return 100
    if is_jester(card):
        return -1
    suit = suit_of(card)
    return rank_of(card) + (50 if suit == trump else 20 if suit == led else 0)


def choose_card(view: dict[str, Any]) -> str:
    hand: list[str] = view["hand"]
    trump = view["trump"]
    seat = view["seat"]
    trick = [p["card"] for p in view["trick"]]
    legal = legal_cards(hand, trick)
    led = led_suit(trick)
    need = (view["bids"][seat] or 0) - view["tricks_won"][seat]
    last = len(trick) == view["players"] - 1
    winning = [c for c in legal if trick_winner([*trick, c], trump) == len(trick)]
    losing = [c for c in legal if c not in winning]

    def by_power(cards: Sequence[str]) -> list[str]:
        return sorted(cards, key=lambda c: (power(c, trump, led), c))

    if need > 0:
        if not winning:
            return by_power(legal)[0]
        if last:
            return by_power(winning)[0]
        strong = [c for c in winning if trick_estimate(c, trump, view["players"], len(hand)) > 0.5]
        if strong:
            return by_power(strong)[0]
        if need >= len(hand):  # must win everything anyway
            return by_power(winning)[-1]
        return by_power(losing)[0] if losing else by_power(winning)[0]
    if losing:
        return by_power(losing)[-1]
    return by_power(winning)[0]


def simple_bot(game: Any, state: Any, seat: int, rng: Rng) -> Move:
    """Reads ``game.view(state, seat)`` only: fair by construction."""
    view = game.view(state, seat)
    if view["phase"] == "trump":
        return Move("trump", choose_trump(view["hand"]))
    if view["phase"] == "bid":
        legal = [int(m.value) for m in game.legal_moves(state, seat)]
        return Move("bid", choose_bid(view, legal))
    return Move("play", choose_card(view))
