"""The ``heuristic`` level: rules of thumb with the round's cards counted (issue 19).

The first opponent people meet, so it should play soundly without searching: it bids what its
hand should take, counting its trump length and its top trumps, and plays to make that bid
exactly, knowing which cards are gone. It reads ``game.view(state, seat)`` and the seat's legal
moves only: fair by construction, and deterministic (it draws nothing).

Glossary:

unseen     the cards the seat has not seen: not in its hand, not played this round, not the
           turned trump card (some are in other hands, the rest were not dealt)
top trumps the seat's trumps from the highest down with no unseen trump between them
safe       a card that wins the trick as it stands and that no unseen card could beat in the
           seats still to play (always, for the last seat)
strong     a card the simple rules expect to take a trick (:func:`.bots.trick_estimate` > 0.5)
need       the seat's bid minus the tricks it has taken this round
cost       how dearly a card is given up: :func:`.bots.power` (Wizards highest, Jesters lowest,
           trumps above the suit led, above the other suits)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..rng import Rng
from .bots import choose_trump, power, trick_estimate
from .cards import DECK, is_wizard, led_suit, rank_of, suit_of, trick_winner
from .game import Move


def bid_estimate(view: dict[str, Any]) -> float:
    """Expected tricks: each card's :func:`.bots.trick_estimate`, with the hand's shape counted.

    Top trumps take their tricks nearly always; a long trump suit takes more than its ranks
    say (the others run out of trumps, then each low trump ruffs); a void in a plain suit lets
    a spare low trump ruff.
    """
    hand: list[str] = view["hand"]
    trump: str | None = view["trump"]
    n: int = view["players"]
    size = len(hand)
    gone = {view["trump_card"]} if view["trump_card"] else set()
    trumps = [rank_of(c) for c in hand if suit_of(c) == trump]
    top: set[int] = set()  # my trumps from the top with no unseen trump above them
    for r in range(13, 0, -1) if trump is not None else ():
        if r in trumps:
            top.add(r)
        elif f"{trump}{r}" not in gone:
            break
    total = 0.0
    for card in hand:
        chance = trick_estimate(card, trump, n, size)
        if suit_of(card) == trump and rank_of(card) in top:
            chance = max(chance, 0.9)
        total += chance
    if trump is not None and size >= 4:
        plain = [s for s in "RBGY" if s != trump]
        voids = sum(1 for s in plain if not any(suit_of(c) == s for c in hand))
        spare = max(0, len(trumps) - len(top) - 1)  # low trumps that the estimate values little
        total += 0.25 * max(0, len(trumps) - 3) + 0.3 * min(voids, spare)
    return total


def choose_bid(view: dict[str, Any], legal: Sequence[int]) -> int:
    """The bid nearest the estimate; the last to bid rounds toward the tricks left over."""
    expected = bid_estimate(view)
    seat = view["seat"]
    others = [b for s, b in enumerate(view["bids"]) if s != seat]
    if all(b is not None for b in others):  # the last bidder sees every other bid
        room = view["round"] - sum(b for b in others if b is not None)
        if room >= expected + 1:  # tricks nobody bid for will fall to someone
            expected += 0.35
        elif room <= expected - 1:  # the table wants more tricks than there are
            expected -= 0.35
    return min(legal, key=lambda b: (abs(b - expected), b))


class Counted:
    """The seat's picture of the trick to play: the cards it has not seen, its need."""

    def __init__(self, view: dict[str, Any], legal: Sequence[str]) -> None:
        self.view = view
        self.legal = list(legal)
        self.trump: str | None = view["trump"]
        self.trick = [p["card"] for p in view["trick"]]
        self.led = led_suit(self.trick)
        seat: int = view["seat"]
        self.need = (view["bids"][seat] or 0) - view["tricks_won"][seat]
        self.left = len(view["hand"])  # tricks still to play, this one included
        self.last = len(self.trick) == view["players"] - 1
        seen = set(view["hand"]) | set(self.trick)
        seen |= {p["card"] for trick in view["played"] for p in trick}
        if view["trump_card"]:
            seen.add(view["trump_card"])
        self.unseen = [c for c in DECK if c not in seen]
        self.winners = [c for c in self.legal if self.wins_now(c)]
        self.losers = [c for c in self.legal if c not in self.winners]

    def wins_now(self, card: str) -> bool:
        return trick_winner([*self.trick, card], self.trump) == len(self.trick)

    def cheapest(self, cards: Sequence[str]) -> str:
        return min(cards, key=lambda c: (power(c, self.trump, self.led), c))

    def dearest(self, cards: Sequence[str]) -> str:
        return max(cards, key=lambda c: (power(c, self.trump, self.led), c))

    def safe(self, card: str) -> bool:
        """Wins as the trick stands, and no unseen card could beat it after."""
        if not self.wins_now(card):
            return False
        if self.last or is_wizard(card):
            return True
        trick = [*self.trick, card]
        at = len(self.trick)
        return all(trick_winner([*trick, c], self.trump) == at for c in self.unseen)

    def strong(self, card: str) -> bool:
        """A card the simple rules expect to take a trick (:func:`.bots.trick_estimate`)."""
        n, size = self.view["players"], len(self.view["hand"])
        return trick_estimate(card, self.trump, n, size) > 0.5


def choose_card(view: dict[str, Any], legal: Sequence[str]) -> str:
    """Make the bid exactly: take the tricks it needs with sure or strong cheap cards, duck
    the rest with its dearest losers, and shed the dearest card of a trick it must take."""
    t = Counted(view, legal)
    if len(t.legal) == 1:
        return t.legal[0]
    if t.need <= 0:  # made (or over): lose every trick, the dearest card that loses first
        if t.losers:
            return t.dearest(t.losers)
        if t.last:
            return t.dearest(t.legal)  # it takes this trick whatever it plays: shed the best
        return t.cheapest(t.legal)
    if not t.winners:
        return t.cheapest(t.legal)
    if t.last:
        return t.cheapest(t.winners)
    if t.need >= t.left:  # every trick is needed
        return t.dearest(t.winners)
    strong = [c for c in t.winners if t.safe(c) or t.strong(c)]
    if strong:
        return t.cheapest(strong)
    return t.cheapest(t.losers or t.winners)


def counting_bot(game: Any, state: Any, seat: int, rng: Rng) -> Move:
    """The ``heuristic`` level: reads ``game.view(state, seat)`` and the legal moves only."""
    view = game.view(state, seat)
    if view["phase"] == "trump":
        return Move("trump", choose_trump(view["hand"]))
    legal = game.legal_moves(state, seat)
    if view["phase"] == "bid":
        return Move("bid", choose_bid(view, [int(m.value) for m in legal]))
    return Move("play", choose_card(view, [str(m.value) for m in legal]))
