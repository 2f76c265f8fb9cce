"""A pool of Wizard opponents whose styles differ on purpose, for the bots' report card.

Written from the rules (SPEC.md section 2), not from the project's bots: the card order, who
takes a trick and the trick estimate below are this module's own. Every player is a bot
``(game, state, seat, rng) -> Move`` that reads ``game.view(state, seat)`` and the seat's legal
moves only, as the project's bots do; the pool is for benchmarks and is not a game level.

Glossary:

estimate   a hand's expected tricks: each card's rough chance of taking a trick, from how many
           unseen cards beat it and how many of them the other hands hold (:func:`estimate`)
need       the seat's bid minus the tricks it has taken this round
winner     a card that would take the trick as it stands (later cards may still beat it)
safe       a winner no card the seat has not seen can beat (:class:`Table`, which counts the
           cards played this round): it takes the trick unless someone ahead beats it already
base play  :func:`sensible_card`: win cheaply while the bid needs tricks, else duck with the
           dearest loser; most styles play it and differ in their bids

Styles (``STYLES``):

overbid    bids its estimate plus 1.5 (rounded), then plays the base play
underbid   bids its estimate minus 1.5 (at least 0), then plays the base play
high       bids its estimate and always plays its strongest legal card
duck       bids its estimate and always ducks: the dearest card that loses the trick as it
           stands, else its weakest card; it leads its weakest card
noisy      bids its estimate plus Gaussian noise (sd 1); half of its cards are random legal ones
softmax    samples its bid around the estimate and every card from a softmax over card
           strength (strong cards while it needs tricks, weak ones once it has enough)
ruled      the strongest: bids by an estimate that counts its own cards and trump length, and
           plays with the cards of the round counted (safe winners, all-or-nothing endings,
           ducking under a trick already taken by someone else)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from tapete.rng import Rng
from tapete.wizard import DECK, Move

SUITS = "RBGY"
Bot = Callable[[Any, Any, int, Rng], Move]


# -- the rules, written again ----------------------------------------------------------------


def suit(card: str) -> str | None:
    return card[0] if card[0] in SUITS else None


def rank(card: str) -> int:
    """1..13 for suit cards, 14 for a Wizard, 0 for a Jester."""
    return 14 if card[0] == "Z" else 0 if card[0] == "N" else int(card[1:])


def follow_suit(trick: Sequence[str]) -> str | None:
    """The suit to follow: that of the first card that is not a Jester, unless a Wizard."""
    for card in trick:
        if card[0] != "N":
            return suit(card)
    return None


def taker(trick: Sequence[str], trump: str | None) -> int:
    """The index of the card that takes ``trick`` (SPEC 2.2, 'Trick winner')."""
    for i, card in enumerate(trick):
        if card[0] == "Z":
            return i
    led = follow_suit(trick)
    if led is None:
        return 0
    for wanted in (trump, led):
        best = -1
        for i, card in enumerate(trick):
            if wanted is not None and suit(card) == wanted:
                if best < 0 or rank(card) > rank(trick[best]):
                    best = i
        if best >= 0:
            return best
    return 0


def strength(card: str, trump: str | None, led: str | None) -> int:
    """How hard a card is to beat in a trick with ``led`` to follow: the pool's card order."""
    if card[0] == "Z":
        return 100
    if card[0] == "N":
        return 0
    s, r = suit(card), rank(card)
    return r + (60 if s == trump else 30 if s == led else 0)


def wins_now(trick: Sequence[str], card: str, trump: str | None) -> bool:
    return taker([*trick, card], trump) == len(trick)


# -- estimates ---------------------------------------------------------------------------------


def card_chance(card: str, trump: str | None, hand_size: int) -> float:
    """The share of the tricks it is played to that a card takes in 4-player games: measured
    in 400 games (every hand size 1..15) among the pool's base players (``overbid`` and
    ``underbid`` seats alternating, bidding by a first draft of this estimate), then smoothed
    by hand to a line in the rank for trumps and a square for the other suits. Wizards lose
    only to an earlier Wizard, Jesters take nothing."""
    h = hand_size
    if card[0] == "Z":
        return max(0.7, 0.93 - 0.0135 * h)
    if card[0] == "N":
        return 0.0
    r = rank(card)
    if suit(card) == trump:
        low = 0.34 - 0.013 * h
        return low + (0.49 * (r - 1) / 12.0)
    top = 0.5 if trump is None else min(0.45, 0.27 + 0.035 * h)
    return top * (r / 13.0) ** 2


def estimate(view: dict[str, Any]) -> float:
    """The hand's expected tricks: the sum of :func:`card_chance` over its cards."""
    hand: list[str] = view["hand"]
    return sum(card_chance(c, view["trump"], len(hand)) for c in hand)


def counted_estimate(view: dict[str, Any]) -> float:
    """:func:`estimate` with the hand's shape counted: the trumps above every unseen trump take
    their tricks, long trumps take more than their ranks say, and a void lets a spare low trump
    ruff."""
    hand: list[str] = view["hand"]
    trump = view["trump"]
    h = len(hand)
    total = 0.0
    gone = {view["trump_card"]} if view["trump_card"] else set()
    trumps = {rank(c) for c in hand if suit(c) == trump}
    boss: set[int] = set()  # my trumps from the top with no unseen trump above them
    for r in range(13, 0, -1) if trump is not None else ():
        if r in trumps:
            boss.add(r)
        elif f"{trump}{r}" not in gone:
            break
    for c in hand:
        chance = card_chance(c, trump, h)
        if suit(c) == trump and rank(c) in boss:
            chance = max(chance, 0.88)
        total += chance
    if trump is not None and h >= 5:
        total += 0.15 * max(0, len(trumps) - 3)
        voids = sum(1 for s in SUITS if s != trump and not any(suit(c) == s for c in hand))
        spare = max(0, len(trumps) - len(boss) - 1)
        total += 0.2 * min(voids, spare)
    return total


def clip_bid(value: float, legal: Sequence[int]) -> int:
    return min(legal, key=lambda b: (abs(b - value), b))


# -- the base play -----------------------------------------------------------------------------


class Table:
    """What the seat has seen of the round, for its play: the trick, the cards gone, its need."""

    def __init__(self, view: dict[str, Any], legal: Sequence[str]) -> None:
        self.view = view
        self.legal = list(legal)
        self.trump: str | None = view["trump"]
        self.trick = [p["card"] for p in view["trick"]]
        self.led = follow_suit(self.trick)
        seat = view["seat"]
        self.need = (view["bids"][seat] or 0) - view["tricks_won"][seat]
        self.left = len(view["hand"])  # tricks still to play, this one included
        self.last = len(self.trick) == view["players"] - 1
        self.own = set(view["hand"])
        self.gone = {p["card"] for t in view["played"] for p in t} | set(self.trick)
        if view["trump_card"]:
            self.gone.add(view["trump_card"])
        self.unseen = [c for c in DECK if c not in self.own and c not in self.gone]
        self.voids: list[set[str]] = [set() for _ in range(view["players"])]
        for t in [*view["played"], view["trick"]]:  # a seat that did not follow has none left
            cards = [p["card"] for p in t]
            for i, p in enumerate(t):
                must = follow_suit(cards[:i])
                if must is not None and suit(p["card"]) not in (must, None):
                    self.voids[p["seat"]].add(must)
        self.winners = [c for c in self.legal if wins_now(self.trick, c, self.trump)]
        self.losers = [c for c in self.legal if c not in self.winners]

    def order(self, cards: Sequence[str]) -> list[str]:
        """Weakest first."""
        return sorted(cards, key=lambda c: (strength(c, self.trump, self.led), c))

    def hold_chance(self, card: str) -> float:
        """The chance that ``card``, winning now, still wins once the seats after it have played.

        Each later seat beats it if it holds a card that does and wants to play it: a Wizard or
        a higher card of the suit to follow, or a trump if it has none of that suit (shown, or
        as likely as a hand of its size missing every unseen card of the suit); a seat whose
        bid is made wants to only a third of the time.
        """
        if self.last:
            return 1.0
        trick = [*self.trick, card]
        at = len(self.trick)
        led = follow_suit(trick)
        unseen = self.unseen
        total = max(1, len(unseen))
        beating = [c for c in unseen if taker([*trick, c], self.trump) != at]
        free = sum(1 for c in beating if c[0] == "Z" or suit(c) == led)
        ruffs = len(beating) - free
        of_led = sum(1 for c in unseen if led is not None and suit(c) == led)
        view, n = self.view, self.view["players"]
        chance = 1.0
        for k in range(1, n - at):
            seat = (view["seat"] + k) % n
            size: int = view["hand_sizes"][seat]
            if led is None or led in self.voids[seat]:
                void = 1.0
            else:
                void = (1.0 - of_led / total) ** size
            has = 1.0 - (1.0 - size / total) ** (free + void * ruffs)
            bid = view["bids"][seat]
            wants = 1.0 if bid is None or bid > view["tricks_won"][seat] else 0.35
            chance *= 1.0 - wants * has
        return chance

    def sure(self, card: str) -> bool:
        """``card`` takes a trick it leads: no unseen card beats it."""
        return card[0] != "N" and all(taker([card, c], self.trump) == 0 for c in self.unseen)

    def safe(self, card: str) -> bool:
        """No unseen card can beat ``card`` in this trick (it wins if it wins now)."""
        if card[0] == "Z":
            return not any(c[0] == "Z" for c in self.trick)
        if self.last:
            return True
        trick = [*self.trick, card]
        return all(taker([*trick, c], self.trump) == len(self.trick) for c in self.unseen)


def sensible_card(table: Table) -> str:
    """Win cheaply while tricks are needed, duck with the dearest loser once the bid is made."""
    order = table.order
    if table.need > 0:
        if table.winners:
            if table.last:
                return order(table.winners)[0]
            strong = [c for c in table.winners if c[0] == "Z" or rank(c) >= 12]
            if strong:
                return order(strong)[0]
            if table.need >= table.left:
                return order(table.winners)[-1]
        return order(table.losers or table.legal)[0]
    if table.losers:
        return order(table.losers)[-1]
    return order(table.legal)[0 if not table.last else -1]


HOLD = 0.3  # how likely a card must be to hold for ``ruled`` to take a trick with it
KEEP_SURE = True  # whether ``ruled`` ducks what its sure cards do not need


def counted_card(table: Table) -> str:
    """The ``ruled`` play: the cards of the round counted, sure tricks kept for the bid.

    A *sure* card takes a trick whenever it is led (a Wizard; a trump above every unseen card).
    While the sure cards cover what the bid still needs, every other trick is ducked and a sure
    card is played only where it wins; beyond them, the extra tricks are taken with the
    cheapest other card likely to hold (from the unseen cards the later seats may have).
    """
    order = table.order
    if table.need >= table.left and table.winners:  # every trick is needed: take it dearly
        return order(table.winners)[-1] if not table.last else order(table.winners)[0]
    if table.need <= 0:  # the bid is made (or over): lose every trick, dangerous cards first
        if table.losers:
            return order(table.losers)[-1]
        if table.last:
            return order(table.legal)[-1]  # it takes this trick whatever it plays: shed the best
        unsafe = [c for c in table.legal if not table.safe(c)]
        return order(unsafe or table.legal)[0]
    hand = table.view["hand"]
    sure = [c for c in hand if table.sure(c)]
    others = [c for c in table.legal if c not in sure]
    if KEEP_SURE and len(sure) >= table.need:  # the sure cards make the bid: duck the rest
        winning_sure = [c for c in table.winners if c in sure and table.safe(c)]
        if winning_sure and (not table.trick or not table.losers):
            return order(winning_sure)[0]
        if table.losers:
            return order(table.losers)[-1]
        return order(others or table.legal)[0]
    # more tricks are needed than the sure cards give: win with the others where they hold
    if table.trick:
        candidates = [c for c in table.winners if c not in sure]
        holding = [c for c in candidates if table.hold_chance(c) >= HOLD]
        if holding:
            return order(holding)[0]
        if table.last and table.winners:
            return order(table.winners)[0]
        return order(table.losers or table.legal)[0]
    holding = [c for c in others if table.hold_chance(c) >= HOLD]
    if holding:
        return order(holding)[0]
    if sure:  # lead a sure trick and keep the lead
        return order(sure)[0]
    plain = [c for c in table.legal if suit(c) not in (None, table.trump)]
    return order(plain or table.legal)[0]


# -- the styles ------------------------------------------------------------------------------


def view_of(game: Any, state: Any, seat: int) -> tuple[dict[str, Any], list[Move]]:
    return game.view(state, seat), game.legal_moves(state, seat)


def best_trump(hand: Sequence[str]) -> str:
    def weight(s: str) -> float:
        return sum(1.0 + rank(c) / 13.0 for c in hand if suit(c) == s)

    return max(SUITS, key=lambda s: (weight(s), -SUITS.index(s)))


def gaussian(rng: Rng) -> float:
    """A standard normal draw (Box-Muller) from the bot's own stream."""
    u = max(rng.random(), 1e-12)
    return math.sqrt(-2.0 * math.log(u)) * math.cos(2.0 * math.pi * rng.random())


def softmax_pick(options: Sequence[Any], scores: Sequence[float], rng: Rng) -> Any:
    top = max(scores)
    weights = [math.exp(s - top) for s in scores]
    x = rng.random() * sum(weights)
    for option, w in zip(options, weights, strict=True):
        x -= w
        if x <= 0:
            return option
    return options[-1]


def style_bot(
    bid: Callable[[dict[str, Any], list[int], Rng], int],
    card: Callable[[Table, Rng], str],
) -> Bot:
    """A bot that bids with ``bid`` and plays with ``card``, from the seat's view only."""

    def bot(game: Any, state: Any, seat: int, rng: Rng) -> Move:
        view, legal = view_of(game, state, seat)
        if view["phase"] == "trump":
            return Move("trump", best_trump(view["hand"]))
        if view["phase"] == "bid":
            return Move("bid", bid(view, [int(m.value) for m in legal], rng))
        return Move("play", card(Table(view, [str(m.value) for m in legal]), rng))

    return bot


def shifted_bid(shift: float) -> Callable[[dict[str, Any], list[int], Rng], int]:
    def bid(view: dict[str, Any], legal: list[int], rng: Rng) -> int:
        return clip_bid(estimate(view) + shift, legal)

    return bid


def noisy_bid(view: dict[str, Any], legal: list[int], rng: Rng) -> int:
    return clip_bid(estimate(view) + gaussian(rng), legal)


def softmax_bid(view: dict[str, Any], legal: list[int], rng: Rng) -> int:
    expected = estimate(view)
    return int(softmax_pick(legal, [-abs(b - expected) / 0.6 for b in legal], rng))


def ruled_bid(view: dict[str, Any], legal: list[int], rng: Rng) -> int:
    """The counted estimate; the dealer, who sees every other bid, leans away from a total
    that leaves tricks nobody wants (a made round for everyone is rare when the bids add up)."""
    expected = counted_estimate(view)
    seat, dealer = view["seat"], view["dealer"]
    bids = [b for s, b in enumerate(view["bids"]) if s != seat and b is not None]
    if seat == dealer and len(bids) == view["players"] - 1:
        room = view["round"] - sum(bids)  # tricks the others have not bid for
        if room > expected + 0.5:  # spare tricks will fall to someone: take one more
            expected += 0.4
        elif room < expected - 0.5:
            expected -= 0.4
    return clip_bid(expected, legal)


def high_card(table: Table, rng: Rng) -> str:
    return table.order(table.legal)[-1]


def duck_card(table: Table, rng: Rng) -> str:
    if table.trick and table.losers:
        return table.order(table.losers)[-1]
    return table.order(table.legal)[0]


def noisy_card(table: Table, rng: Rng) -> str:
    if rng.random() < 0.5:
        return table.legal[rng.below(len(table.legal))]
    return sensible_card(table)


def softmax_card(table: Table, rng: Rng, temperature: float = 0.12) -> str:
    """Strong cards while tricks are needed, weak ones after: strength scaled to 0..1."""
    sign = 1.0 if table.need > 0 else -1.0
    scores = [sign * strength(c, table.trump, table.led) / 100.0 / temperature for c in table.legal]
    return str(softmax_pick(table.legal, scores, rng))


STYLES: dict[str, Bot] = {
    "overbid": style_bot(shifted_bid(1.5), lambda table, rng: sensible_card(table)),
    "underbid": style_bot(shifted_bid(-1.5), lambda table, rng: sensible_card(table)),
    "high": style_bot(shifted_bid(0.0), high_card),
    "duck": style_bot(shifted_bid(0.0), duck_card),
    "noisy": style_bot(noisy_bid, noisy_card),
    "softmax": style_bot(softmax_bid, softmax_card),
    "ruled": style_bot(ruled_bid, lambda table, rng: counted_card(table)),
}
