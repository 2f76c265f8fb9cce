"""The Wizard AI: card play by ISMCTS, bids and trump by simulation (issue 6).

Every decision starts from what the seat may see: ``game.view(state, seat)`` and worlds drawn
by ``game.sample_world(state, seat, rng)`` (other hands re-dealt, shown voids respected; a
search uses its :class:`WorldSampler`, which does the work common to all worlds once). A
world is then copied into a :class:`Round`, a fast simulator on plain lists of card numbers,
which plays the rest of the round many times over (its playouts, :func:`play_out`, hold each
hand as the bits of an int: :class:`Layout`). The simulator implements the rules of
``trick_winner`` and ``legal_cards`` incrementally; ``tests/test_ismcts.py`` proves that it
agrees with the engine's ``apply`` on random games. Speed work must not change a decision:
``tests/test_wizard_ai_golden.py`` replays recorded games.

Glossary:

card number   the index of a card in ``DECK`` (0..51 suit cards, 52..55 Wizards, 56..59
              Jesters); ``SUIT`` and ``RANK`` tables replace string parsing
led           the suit to follow in the current trick: NO_LED before any non-Jester card,
              FREE after a leading Wizard, else 0..3
best          the card that wins the trick so far (-1 for an empty trick)
need          a seat's bid minus the tricks it has won
policy        how every seat plays in a simulation: the simple bot's rules (win cheaply while
              you need tricks, dump your highest loser once you have enough), with a little noise
tendency      how far a seat has landed below its bids in this game (the score sheet): the
              search lowers that seat's aim by it (:func:`tendencies`, ``Round.shift``)
own excess    how many tricks more than its bids the seat itself has taken in this game (its
              rows of the score sheet): the bid simulation moves its own tricks by it,
              upward only in the levels (:func:`own_excess`, ``Level.own``, ``Level.own_up``)
ducker        a seat that ducks every trick it can: the other model of a seat in the mixture
              of :func:`duck_odds`, in card play once the score sheet favours duckers
              (``Level.duck``, ``Level.duck_gate``)
choices read  a seat's choices on the score sheet (``RoundRecord.chances``, ``ducked``: how
              often it ducked a trick it could have won while it needed tricks) read as
              evidence that it ducks, seat by seat (:func:`choices_ratio`, ``Level.read_gate``)
always high   a seat that plays its dearest legal card every time (``GRABBED``; read by the
              style reading)
style read    a seat's cards of this round read as those of an always-high player (or a
              ducker): as likely as they and the finished rounds make it, a world of the card
              search plays it so and deals it none of the cards that style would have played
              instead of its own (:func:`style_events`, :meth:`WizardDomain.style_world`,
              ``Level.high_read``, ``Level.duck_read``)
level         easy (the simple bot with noise), normal and hard (search budgets)

Budgets are counted in simulated games (iterations), never in seconds, so a move reproduces
from its seed on any machine. The environment variable ``TAPETE_BOT_BUDGET`` (a factor such
as ``0.1``) shrinks every budget, for quick test runs; the levels themselves never change.
"""

from __future__ import annotations

import bisect
import math
import os
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from ..bots.ismcts import CURRENT_PROGRESS, Progress, reporting_progress, search
from ..rng import Rng
from .bots import simple_bot, trick_estimate
from .cards import DECK, DECK_NUMBER, SUITS
from .game import (
    Move,
    RoundRecord,
    Wizard,
    WizardState,
    WorldSampler,
    deal_respecting_voids,
    round_points,
)

# -- cards as numbers ----------------------------------------------------------------------------

WIZ = 4
JES = 5
NO_LED = -1
FREE = 4
CARD_NUMBER = DECK_NUMBER
SUIT: tuple[int, ...] = tuple(
    WIZ if code[0] == "Z" else JES if code[0] == "N" else SUITS.index(code[0]) for code in DECK
)
RANK: tuple[int, ...] = tuple(
    14 if code[0] == "Z" else 0 if code[0] == "N" else int(code[1:]) for code in DECK
)
# the simple bot breaks ties in power by the card's text code
CODE_ORDER: tuple[int, ...] = tuple(sorted(DECK).index(code) for code in DECK)


def trump_number(trump: str | None) -> int:
    return -1 if trump is None else SUITS.index(trump)


def beats(card: int, best: int, trump: int) -> bool:
    """Whether ``card`` would win a trick whose winning card so far is ``best`` (-1: empty)."""
    if best < 0:
        return True
    best_suit = SUIT[best]
    if best_suit == WIZ:
        return False
    suit = SUIT[card]
    if suit == WIZ:
        return True
    if suit == JES:
        return False
    if best_suit == JES:  # only Jesters so far
        return True
    if suit == trump:
        return best_suit != trump or RANK[card] > RANK[best]
    return suit == best_suit and RANK[card] > RANK[best]


CARDS = len(DECK)


@lru_cache(maxsize=8)
def beats_table(trump: int) -> tuple[bool, ...]:
    """``beats(card, best, trump)`` for every pair, at index ``(best + 1) * CARDS + card``."""
    return tuple(beats(card, best, trump) for best in range(-1, CARDS) for card in range(CARDS))


# -- the fast simulator ----------------------------------------------------------------------------


class Round:
    """The play of one Wizard round on plain lists; ``play`` changes it in place."""

    __slots__ = (
        "n",
        "trump",
        "beats",
        "hands",
        "bids",
        "shift",
        "won",
        "leader",
        "trick",
        "led",
        "best",
        "turn",
    )

    def __init__(
        self, trump: int, hands: list[list[int]], bids: list[int], won: list[int], leader: int
    ) -> None:
        self.n = len(hands)
        self.trump = trump
        self.beats = beats_table(trump)
        self.hands = hands
        self.bids = bids
        self.shift: list[float] | None = None  # how the policy's seats aim off their bids
        self.won = won
        self.leader = leader
        self.trick: list[int] = []
        self.led = NO_LED
        self.best = -1
        self.turn = leader if hands[leader] else -1

    def copy(self) -> Round:
        return self.with_hands([list(hand) for hand in self.hands], list(self.bids))

    def with_hands(self, hands: list[list[int]], bids: list[int]) -> Round:
        """A copy of this round whose hands and bids are ``hands`` and ``bids`` (not copied)."""
        other = Round.__new__(Round)
        other.n = self.n
        other.trump = self.trump
        other.beats = self.beats
        other.hands = hands
        other.bids = bids
        other.shift = self.shift
        other.won = list(self.won)
        other.leader = self.leader
        other.trick = list(self.trick)
        other.led = self.led
        other.best = self.best
        other.turn = self.turn
        return other

    def winner_so_far(self) -> int:
        """The seat whose card wins the current trick so far."""
        return (self.leader + self.trick.index(self.best)) % self.n

    def legal(self) -> list[int]:
        """The cards the seat to move may play (``legal_cards``)."""
        hand = self.hands[self.turn]
        led = self.led
        if led == NO_LED or led == FREE:
            return list(hand)
        follow = [c for c in hand if SUIT[c] == led]
        if not follow:
            return list(hand)
        return follow + [c for c in hand if SUIT[c] >= WIZ]

    def play(self, card: int) -> None:
        """The seat to move plays ``card``; a full trick goes to its winner (``trick_winner``)."""
        turn = self.turn
        self.hands[turn].remove(card)
        if self.led == NO_LED:
            suit = SUIT[card]
            if suit == WIZ:
                self.led = FREE
            elif suit != JES:
                self.led = suit
        if self.beats[(self.best + 1) * CARDS + card]:
            self.best = card
        trick = self.trick
        trick.append(card)
        n = self.n
        if len(trick) < n:
            self.turn = (turn + 1) % n
            return
        winner = (self.leader + trick.index(self.best)) % n  # winner_so_far()
        self.won[winner] += 1
        self.leader = winner
        self.trick = []
        self.led = NO_LED
        self.best = -1
        self.turn = winner if self.hands[winner] else -1

    def points(self) -> list[int]:
        return [round_points(b, k) for b, k in zip(self.bids, self.won, strict=True)]


def round_from_state(state: WizardState) -> Round:
    """The play phase of ``state`` as a :class:`Round` (hidden bids as the state has them)."""
    hands = [[CARD_NUMBER[c] for c in hand] for hand in state.hands]
    bids = [int(b or 0) for b in state.bids]
    trick = [CARD_NUMBER[c] for _, c in state.trick]
    for seat, code in state.trick:  # put the trick's cards back, then replay them
        hands[seat].append(CARD_NUMBER[code])
    sim = Round(trump_number(state.trump), hands, bids, list(state.tricks), state.leader)
    for card in trick:
        sim.play(card)
    return sim


# -- the play policy (the simple bot's knowledge, on numbers) ---------------------------------

GRAB_AIM = 500.0  # a seat aiming this high (``GRABBED``) plays its dearest legal card always


@lru_cache(maxsize=2048)
def strong_cards(trump: int, players: int, cards: int) -> tuple[bool, ...]:
    """Per card number: does the simple bot expect it to take a trick (estimate > 0.5)?"""
    suit = None if trump < 0 else SUITS[trump]
    return tuple(trick_estimate(code, suit, players, cards) > 0.5 for code in DECK)


def led_after(led: int, card: int) -> int:
    """The suit to follow once ``card`` is played to a trick whose suit to follow was ``led``:
    the first card that is not a Jester sets it (a Wizard: FREE)."""
    if led != NO_LED:
        return led
    suit = SUIT[card]
    return FREE if suit == WIZ else NO_LED if suit == JES else suit


@lru_cache(maxsize=64)
def power_keys(trump: int, led: int) -> tuple[int, ...]:
    """Per card number: the simple bot's ``power``, tie-broken by text code as it sorts."""
    keys = []
    for card in range(len(DECK)):
        suit = SUIT[card]
        if suit == WIZ:
            power = 100
        elif suit == JES:
            power = -1
        else:
            power = RANK[card] + (50 if suit == trump else 20 if suit == led else 0)
        keys.append(power * 64 + CODE_ORDER[card])
    return tuple(keys)


def heuristic_card(sim: Round, legal: Sequence[int], grab: bool = False) -> int:
    """The card the simple bot (``choose_card``) would play for the seat to move; with
    ``grab``, a seat that still needs tricks takes one with its cheapest winning card whenever
    it can, strong or not (a *grabber*: ``Level.bid_grab``)."""
    seat = sim.turn
    trump = sim.trump
    key = power_keys(trump, NO_LED if sim.led == FREE else sim.led).__getitem__
    best = sim.best
    losing: list[int]
    if best < 0:
        winning, losing = list(legal), []  # leading: every card wins for now
    else:
        row, start = sim.beats, (best + 1) * CARDS  # beats(card, best, trump) = row[start + card]
        winning = [c for c in legal if row[start + c]]
        losing = [c for c in legal if not row[start + c]]
    aim = sim.bids[seat] + (sim.shift[seat] if sim.shift is not None else 0.0)
    if aim <= sim.won[seat]:  # enough tricks: duck
        return max(losing, key=key) if losing else min(winning, key=key)
    if aim >= GRAB_AIM:  # a seat modelled as always playing high
        return max(legal, key=key)
    if not winning:
        return min(legal, key=key)
    if grab or len(sim.trick) == sim.n - 1:
        return min(winning, key=key)
    hand_size = len(sim.hands[seat])
    strong_table = strong_cards(trump, sim.n, hand_size)
    strong = [c for c in winning if strong_table[c]]
    if strong:
        return min(strong, key=key)
    if aim - sim.won[seat] >= hand_size:
        return max(winning, key=key)
    return min(losing, key=key) if losing else min(winning, key=key)


Noise = float | Sequence[float]  # the chance of a random card: for every seat, or per seat


def policy_card(sim: Round, chance: random.Random, noise: Noise, grab: int = 0) -> int:
    """The playout policy: the heuristic card, or with chance ``noise`` (the seat's, if given
    per seat) a random legal one; ``grab``: the seats played as grabbers, as bits (seat ``s``:
    ``1 << s``)."""
    legal = sim.legal()
    if len(legal) == 1:
        return legal[0]
    if not isinstance(noise, float | int):
        noise = noise[sim.turn]
    if noise > 0.0 and chance.random() < noise:
        return legal[int(chance.random() * len(legal))]
    return heuristic_card(sim, legal, bool(grab >> sim.turn & 1))


# -- the playout on bits ---------------------------------------------------------------------------


class Layout:
    """The cards as the bits of an int, for one trump: how :func:`play_out` holds a hand.

    A hand is the int with bit ``pos[card]`` set for each card in it. Positions follow the
    simple bot's power order with no suit led (``power_keys(trump, NO_LED)``: Jesters,
    the other suits by rank, trumps, Wizards), so its cheapest or dearest card is the lowest
    or highest bit. With a suit other than trump led, that suit rises above the other suits:
    ``groups[led + 1]`` is then (low, led, high), the cards below the led suit, the led suit's
    and those above it, each in power order, and the cheapest card of a set ``cards`` is the
    lowest bit of ``cards & low or cards & led or cards`` (the dearest: the highest bit of
    ``cards & high or cards & led or cards``). Where the order stays the same, the groups are
    (all, 0, all), which leaves ``cards`` as it is.
    """

    __slots__ = ("pos", "bit", "suit", "beaten_by", "follow", "wild", "every", "groups")

    def __init__(self, trump: int) -> None:
        card_at = sorted(range(CARDS), key=power_keys(trump, NO_LED).__getitem__)
        pos = [0] * CARDS
        for p, card in enumerate(card_at):
            pos[card] = p
        self.pos = tuple(pos)  # card number -> position
        self.bit = tuple(1 << p for p in pos)  # card number -> its bit
        self.suit = tuple(SUIT[card] for card in card_at)  # position -> SUIT

        def bits(cards: Sequence[int] | range) -> int:
            return sum(1 << pos[card] for card in cards)

        self.every = bits(range(CARDS))
        # position of the best card so far -> the cards that beat it (beats_table as bits)
        self.beaten_by = tuple(
            bits([card for card in range(CARDS) if beats(card, best, trump)]) for best in card_at
        )
        self.follow = tuple(
            bits([card for card in range(CARDS) if SUIT[card] == suit]) for suit in range(4)
        )
        self.wild = bits([card for card in range(CARDS) if SUIT[card] >= WIZ])
        high = bits([card for card in range(CARDS) if SUIT[card] in (WIZ, trump)])
        groups: list[tuple[int, int, int]] = []
        for led in range(NO_LED, FREE + 1):
            if led in (NO_LED, FREE, trump):  # power_keys(trump, NO_LED) applies
                groups.append((self.every, 0, self.every))
            else:  # Jesters and the other suits < the led suit < trumps and Wizards
                suit = self.follow[led]
                groups.append((self.every & ~suit & ~high, suit, high))
        self.groups = tuple(groups)


@lru_cache(maxsize=8)
def layout(trump: int) -> Layout:
    return Layout(trump)


@lru_cache(maxsize=64)
def strong_bits(trump: int, players: int) -> tuple[int, ...]:
    """``strong_cards(trump, players, size)`` as bits of :func:`layout`, for every hand size."""
    bit = layout(trump).bit
    return tuple(
        sum(bit[card] for card, strong in enumerate(strong_cards(trump, players, size)) if strong)
        for size in range(CARDS // players + 1)
    )


def random_card(
    order: list[int], bit: tuple[int, ...], legal: int, follows: int, draw: Callable[[], float]
) -> int:
    """``legal[int(draw() * len(legal))]``, the legal cards listed as ``Round.legal`` does.

    ``order`` is the hand as a list (with the cards played since it was made: only those in
    ``legal``, as bits, count); ``follows`` the cards of the led suit when they must be followed.
    """
    if not follows:
        cards = [card for card in order if legal & bit[card]]
    else:  # the led suit first, then Wizards and Jesters, each in hand order
        wild = legal ^ follows
        cards = [card for card in order if follows & bit[card]]
        cards += [card for card in order if wild & bit[card]]
    return cards[int(draw() * len(cards))]


def play_out(sim: Round, chance: random.Random, noise: Noise, grab: int = 0) -> Round:
    """Play the round to its end with the policy; returns ``sim``, changed (hands emptied).

    The same moves and draws as ``while sim.turn >= 0: sim.play(policy_card(sim, chance,
    noise, grab))``, written out in one loop over local variables (the search spends most of its
    time here) and on hands as bits (:class:`Layout`): the legal cards, the winning ones, the
    cheapest or dearest are a few operations on ints instead of lists. Only a random card
    needs the hand's order (``Round.legal`` lists it): ``sim.hands`` keep it, untouched
    until the end. ``tests/test_wizard_ai_golden.py`` checks the two agree.
    """
    if sim.turn < 0:
        return sim
    n, won, lists = sim.n, sim.won, sim.hands
    bids: Sequence[float] = sim.bids  # what each seat plays for: its bid, moved by its tendency
    if sim.shift is not None:
        bids = [bid + shift for bid, shift in zip(sim.bids, sim.shift, strict=True)]
    lay = layout(sim.trump)
    pos, bit, suit_at, beaten_by, follow, wild, groups = (
        lay.pos,
        lay.bit,
        lay.suit,
        lay.beaten_by,
        lay.follow,
        lay.wild,
        lay.groups,
    )
    strong_by_size = strong_bits(sim.trump, n)
    noises = [float(noise)] * n if isinstance(noise, float | int) else noise
    hands = [sum(map(bit.__getitem__, hand)) for hand in lists]  # distinct bits: sum is "or"
    led, leader, turn, played = sim.led, sim.leader, sim.turn, len(sim.trick)
    # The trick so far, kept up to date as cards are played: the cards that beat its best card
    # (all of them before the first), the seat of that card, the cards of the led suit if one
    # must be followed, and the groups of Layout for the led suit.
    beating, best_seat, led_cards = lay.every, -1, 0
    low, middle, high = groups[led + 1]
    if played:
        beating = beaten_by[pos[sim.best]]
        best_seat = (leader + sim.trick.index(sim.best)) % n
        led_cards = follow[led] if led != NO_LED and led != FREE else 0
    draw = chance.random
    while turn >= 0:
        hand = hands[turn]
        # the legal cards (Round.legal)
        legal = hand
        if follows := hand & led_cards:
            legal = follows | (hand & wild)
        # the policy (policy_card, heuristic_card): the card, or the cards to take the
        # cheapest of (or the dearest, if dear)
        if not legal & (legal - 1):  # a single card
            card = legal.bit_length() - 1
        elif (chance_of := noises[turn]) > 0.0 and draw() < chance_of:
            card = pos[random_card(lists[turn], bit, legal, follows, draw)]
        else:
            dear = False
            if bids[turn] <= won[turn]:  # duck: the dearest loser, else the cheapest card
                if cards := legal & ~beating:
                    dear = True
                else:
                    cards = legal
            elif bids[turn] >= GRAB_AIM:  # always high: the dearest legal card
                cards, dear = legal, True
            elif not (winning := legal & beating):
                cards = legal
            elif played == n - 1 or grab >> turn & 1:
                cards = winning
            else:
                size = hand.bit_count()
                if not (cards := winning & strong_by_size[size]):  # else: the cheapest strong
                    if bids[turn] - won[turn] >= size:
                        cards, dear = winning, True
                    else:
                        cards = (legal & ~beating) or winning
            if dear:
                cards = cards & high or cards & middle or cards
                card = cards.bit_length() - 1
            else:
                cards = cards & low or cards & middle or cards
                card = (cards & -cards).bit_length() - 1  # the lowest set bit
        # the move (Round.play)
        card_bit = 1 << card
        hands[turn] = hand ^ card_bit
        if led == NO_LED:
            suit = suit_at[card]
            if suit == WIZ:
                led = FREE
            elif suit != JES:
                led, led_cards = suit, follow[suit]
                low, middle, high = groups[led + 1]
        if beating & card_bit:
            beating, best_seat = beaten_by[card], turn
        played += 1
        if played < n:
            turn = (turn + 1) % n
            continue
        won[best_seat] += 1
        leader, played, led, led_cards, beating = best_seat, 0, NO_LED, 0, lay.every
        low, middle, high = groups[0]
        turn = best_seat if hands[best_seat] else -1
    for hand_list in lists:
        hand_list.clear()
    sim.trick, sim.led, sim.best, sim.turn, sim.leader = [], NO_LED, -1, -1, leader
    return sim


def fast_chance(rng: Rng) -> random.Random:
    """A quick generator for playout noise, seeded from the bot's stream.

    Only ``random()`` is used: Python promises it gives the same sequence for the same integer
    seed in every version, so moves still reproduce from their seed (CPython and Pyodide).
    """
    return random.Random(rng.next_u64())


# -- guessing bids the seat cannot see -----------------------------------------------------------


def estimate_tricks(hand: Sequence[str], trump: str | None, players: int) -> float:
    """The simple bot's expected tricks for a hand (the same sum, card by card, in order)."""
    table = estimate_table(trump, players, len(hand))
    return sum(table[c] for c in hand)


@lru_cache(maxsize=256)
def estimate_table(trump: str | None, players: int, cards: int) -> dict[str, float]:
    """``trick_estimate`` of every card for a hand of ``cards`` cards."""
    return {code: trick_estimate(code, trump, players, cards) for code in DECK}


@lru_cache(maxsize=256)
def estimate_row(trump: str | None, players: int, cards: int) -> tuple[float, ...]:
    """``estimate_table`` by card number."""
    table = estimate_table(trump, players, cards)
    return tuple(table[code] for code in DECK)


def nearest_bid(expected: float, legal: Sequence[int]) -> int:
    return min(legal, key=lambda b: (abs(b - expected), b))


def round_hand(state: WizardState, seat: int) -> list[str]:
    """The cards ``seat`` held when the round began (its hand plus what it has played)."""
    played = [c for trick in (*state.played, state.trick) for s, c in trick if s == seat]
    return list(state.hands[seat]) + played


def hidden_bidders(game: Wizard, state: WizardState, seat: int) -> frozenset[int]:
    """The seats that have bid where ``seat`` cannot see the bid (hidden or delayed bids)."""
    view = game.view(state, seat)
    return frozenset(
        s for s, made in enumerate(view["has_bid"]) if made and view["bids"][s] is None
    )


def guess_bids(world: WizardState, hidden: frozenset[int]) -> list[int]:
    """The world's bids, those of the ``hidden`` seats guessed from their hands in the world.

    ``sample_world`` draws hidden bids uniformly; the simple bot's estimate from the hand
    the world gives that seat is a far better guess, and uses nothing the seat cannot see.
    """
    out = [int(bid or 0) for bid in world.bids]
    for seat in hidden:
        expected = estimate_tricks(round_hand(world, seat), world.trump, world.players)
        out[seat] = nearest_bid(expected, range(world.round + 1))
    return out


# -- reading the other players from this game ----------------------------------------------------


def tendencies(
    state: WizardState,
    seat: int,
    prior: float,
    hand_ref: bool = False,
    lean: float = 0.0,
    cap: float = 0.0,
) -> list[float] | None:
    """How far each other seat's play is likely to land off its bid this round, from this game.

    A seat's *tendency* is the tricks it took minus its bid, summed over the rounds played so
    far (the score sheet: public in every bidding mode), per card dealt, shrunk toward 0 as if
    ``prior`` more cards had shown no bias; times this round's hand size, it lowers the aim of
    that seat in the simulations (``Round.shift``): a seat that ducks its tricks away or bids
    more than it takes plays for fewer than it bid. Only downward: a seat that takes more
    than it bid was mostly given tricks it could not duck (measured: reading those as aiming
    higher lost 19 points of win share against under-bidders). ``seat`` plays its bid.
    ``prior`` 0 reads nothing (None: every seat plays its bid). ``hand_ref``: a round is read
    against the lower of the bid and the simple estimate of the hand the seat held (public once
    the round is over; the bid where the row kept no cards), so a seat that bids over its hand
    and then plays for tricks all round (it took what its hand was worth) is not read as one
    that aims low. ``lean`` > 0: each seat's bids are first read for a steady lean, its bids
    less the simple estimates of its hands, averaged over its rounds as if ``lean`` more rounds
    had shown none, and the rounds are read against the bids less that lean: a seat that always
    bids over its hand by the same margin is read for how its tricks land against its hands,
    while one whose bids stray both ways is read against its bids, as without it. ``cap`` > 0:
    no seat is read further off its bid than ``cap`` per card of the round.
    """
    if prior <= 0.0 or not state.history:
        return None
    dealt = sum(row.round for row in state.history) + prior
    out = []
    for other in range(state.players):
        if other == seat:
            out.append(0.0)
            continue
        if hand_ref:
            excess = sum(
                row.tricks[other] - min(row.bids[other], hand_estimates(row)[other])
                for row in state.history
            )
        else:
            excess = sum(row.tricks[other] - row.bids[other] for row in state.history)
        if lean > 0.0:
            leans = [row.bids[other] - hand_estimates(row)[other] for row in state.history]
            excess += len(leans) * sum(leans) / (len(leans) + lean)
        shift = min(0.0, excess / dealt * state.round)
        out.append(max(shift, -cap * state.round) if cap > 0.0 else shift)
    return out


@lru_cache(maxsize=256)
def hand_estimates(row: RoundRecord) -> tuple[float, ...]:
    """Per seat, the simple estimate of the hand it held in a finished round (its bid where the
    row kept no cards: rows saved before they were)."""
    if not row.cards:
        return tuple(float(bid) for bid in row.bids)
    players = len(row.bids)
    return tuple(estimate_tricks(cards, row.trump, players) for cards in row.cards)


def own_excess(state: WizardState, seat: int, prior: float, upward: bool = False) -> float:
    """How many tricks more than its simulations expected ``seat`` itself takes per card, here.

    Read from the score sheet's rows of ``seat`` (public, and its own): in each round it took
    ``tricks`` for a bid made with its simulated tricks already moved by ``shift`` (this
    function on the rows before, times the hand size), so the simulations' own expectation
    was about ``bid - shift`` and the round says ``tricks - bid + shift`` more. Summed over the
    rounds played, per card dealt, shrunk toward 0 as if ``prior`` more cards had landed on the
    expectation. A table that leaves it tricks it did not bid for (players who duck) makes it
    positive; one that takes more than the simulations expect (players who always play high)
    makes it negative. :func:`bid_values` moves the seat's simulated tricks by it times the
    hand size: whatever the cause, the bids follow what this table has done. ``prior`` 0 reads
    nothing (0.0). ``upward``: a correction below 0 is applied as 0 (only a table that leaves
    the seat tricks moves its bids), in the rounds read as in the result.
    """
    if prior <= 0.0 or not state.history:
        return 0.0
    total, dealt = 0.0, prior
    for row in state.history:
        shift = total / dealt * row.round
        if upward:
            shift = max(0.0, shift)
        total += row.tricks[seat] - row.bids[seat] + shift
        dealt += row.round
    return max(0.0, total / dealt) if upward else total / dealt


def shifted_points(bid: int, won: int, shift: float, cards: int) -> float:
    """The round points of ``bid`` when ``won`` tricks move by ``shift`` (between 0 and ``cards``).

    A fractional shift is the mean of its two neighbouring whole shifts, weighted by how near
    each is: no random draw, the same for every candidate bid.
    """
    if shift == 0.0:
        return float(round_points(bid, won))
    low = math.floor(shift)
    part = shift - low
    total = 0.0
    for step, weight in ((low, 1.0 - part), (low + 1, part)):
        if weight > 0.0:
            total += weight * round_points(bid, min(cards, max(0, won + step)))
    return total


# How a round ends against ``seat``'s own bid (under, made, over) when the others play for
# their bids, and when they all duck (they leave it tricks it did not bid); read off the
# opponent pool's tables, rounded. (A seat's own rows do not tell a ducker from an always-high
# player: both land under, on and over their bids about as often; BENCHMARKS.md.)
OWN_AMONG_BIDDERS = (0.15, 0.7, 0.15)
OWN_AMONG_DUCKERS = (0.1, 0.35, 0.55)
DUCKED = -1000.0  # a shift that makes a seat duck every trick it can
GRABBED = 1000.0  # a shift that makes a seat play its dearest legal card every time


def outcome(bid: int, tricks: int) -> int:
    """0, 1 or 2: the round ended under, on or over the bid."""
    return 0 if tricks < bid else 1 if tricks == bid else 2


# How often a seat ducks a choice (``RoundRecord.chances``) while it still needs tricks: a
# ducker always (0.95, for play that is not quite pure), a seat playing for its bid seldom
# (the pool's bid players duck 12-42% of them; BENCHMARKS.md, fifth pass)
DUCKER_DUCKS = 0.95
BIDDER_DUCKS = 0.3


def choices_ratio(state: WizardState, other: int) -> float:
    """The likelihood ratio (ducker over bid player) of ``other``'s choices on the score sheet:
    every choice it ducked while it needed tricks, and every one it took (public)."""
    ducked = sum(row.ducked[other] for row in state.history if row.ducked)
    took = sum(row.chances[other] for row in state.history if row.chances) - ducked
    return (DUCKER_DUCKS / BIDDER_DUCKS) ** ducked * (
        (1.0 - DUCKER_DUCKS) / (1.0 - BIDDER_DUCKS)
    ) ** took


def duck_odds(
    state: WizardState,
    seat: int,
    prior: float,
    gate: float = 0.0,
    read_gate: float = 0.0,
    table: bool = True,
) -> list[float] | None:
    """How likely each other seat is to be a ducker (it ducks every trick it can), this game.

    Two models of a seat: it plays for its bid, or it always ducks. Starting from ``prior``
    (the share of duckers believed in before any evidence), every finished round of the score
    sheet (public in every bidding mode) weighs them by how ``seat`` itself landed against its
    bid (``OWN_AMONG_DUCKERS`` against ``OWN_AMONG_BIDDERS``, the evidence shared among the
    others). In card play each world weighs them again by the round's cards, read against the
    hand it gives the seat (:func:`duck_evidence`; nothing of bidders whose bid is hidden). The
    simulations let a seat duck everything in a share of their worlds equal to its odds
    (:func:`mixed_shift`). ``seat`` itself: 0. ``prior`` 0 reads nothing (None). With a
    ``gate``, nobody is believed to duck (None) until the score sheet favours duckers by more
    than that likelihood ratio: no prior before any evidence.

    ``read_gate`` (0: off): each seat is also read from its own choices on the score sheet
    (:func:`choices_ratio`), seat by seat; once they favour ducking by more than ``read_gate``
    its odds are ``prior`` weighed by them, if that is more than the table's reading gives.
    ``table`` False leaves the table's reading (the seat's own rows) out: only the seats'
    choices speak. None when nobody is believed to duck.
    """
    if prior <= 0.0:
        return None
    n = state.players
    odds: list[float] | None = None
    if table:
        own = 1.0
        for row in state.history:
            k = outcome(row.bids[seat], row.tricks[seat])
            own *= OWN_AMONG_DUCKERS[k] / OWN_AMONG_BIDDERS[k]
        if gate <= 0.0 or own > gate:
            ratio = prior / (1.0 - prior) * own ** (1.0 / (n - 1))
            p = ratio / (1.0 + ratio)
            odds = [0.0 if other == seat else p for other in range(n)]
    if read_gate <= 0.0:
        return odds
    out = odds if odds is not None else [0.0] * n
    for other in range(n):
        ratio = choices_ratio(state, other) if other != seat else 0.0
        if ratio > read_gate:
            ratio *= prior / (1.0 - prior)
            out[other] = max(out[other], ratio / (1.0 + ratio))
    return out if any(out) else None


# How much likelier a ducker is than a seat playing for its bid to have made a play, in a world
# where its hand at the time is known: taking the lead although it held a losing card, and
# losing although it needed tricks and held a winner the simple bot counts as strong
TOOK_WITH_LOSER = 0.03
LOST_WITH_STRONG = 4.0


def cards_from_here_on(state: WizardState, n: int) -> list[int]:
    """For each card played this round, in order: the bits of the cards its player played from
    that one on (it included), the round's public plays read backwards."""
    plays: list[tuple[int, int]] = []  # (seat, card) in order, the whole round
    for trick in (*state.played, state.trick):
        plays += [(s, CARD_NUMBER[c]) for s, c in trick]
    later = [0] * n
    later_at = [0] * len(plays)
    for i in range(len(plays) - 1, -1, -1):
        s, card = plays[i]
        later[s] |= 1 << card
        later_at[i] = later[s]
    return later_at


def duck_evidence(state: WizardState, hidden: frozenset[int]) -> list[list[tuple[int, ...]]]:
    """Per seat, what each card it followed with in this round, while it needed tricks, says.

    One tuple per such card: (the cards it played from then on, as bits ``1 << card``; the
    cards of the led suit, if one was led; the cards that would have lost; those that would
    have won and that the simple bot counts as strong; whether the card played won). With a
    world's hand of that seat, :func:`world_duck_ratio` reads it. Public: the round's cards and
    the open bids only (nothing for the ``hidden`` bidders).
    """
    return follow_evidence(state, hidden)[0]


def follow_evidence(
    state: WizardState, hidden: frozenset[int]
) -> tuple[list[list[tuple[int, ...]]], list[list[tuple[int, ...]]]]:
    """Per seat, what each card it followed with in this round says: while it needed tricks,
    :func:`duck_evidence`'s tuples; once its bid was made, one for each trick it took the lead
    of as it stood (the cards it played from then on, as bits; the led suit's cards; the cards
    that would have lost), which :meth:`WizardDomain.card_likelihood` reads. Public: the
    round's cards and the open bids only (nothing for the ``hidden`` bidders)."""
    n = state.players
    needing: list[list[tuple[int, ...]]] = [[] for _ in range(n)]
    spare: list[list[tuple[int, ...]]] = [[] for _ in range(n)]
    trump = trump_number(state.trump)
    row = beats_table(trump)
    won = [0] * n
    later_at = cards_from_here_on(state, n)
    index = 0
    for trick in (*state.played, state.trick):
        best, best_seat, led = -1, -1, NO_LED
        for position, (other, code) in enumerate(trick):
            card = CARD_NUMBER[code]
            wins = row[(best + 1) * CARDS + card]
            needs = won[other] < int(state.bids[other] or 0)
            if position > 0 and other not in hidden and (needs or wins):
                start = (best + 1) * CARDS
                losers = sum(1 << c for c in range(CARDS) if not row[start + c])
                suit_bits = (
                    sum(1 << c for c in range(CARDS) if SUIT[c] == led) if 0 <= led < 4 else 0
                )
                if needs:
                    strong = strong_cards(
                        trump, n, bin(later_at[index]).count("1") + len(state.hands[other])
                    )
                    winners = sum(1 << c for c in range(CARDS) if row[start + c] and strong[c])
                    needing[other].append((later_at[index], suit_bits, losers, winners, int(wins)))
                else:
                    spare[other].append((later_at[index], suit_bits, losers))
            led = led_after(led, card)
            if wins:
                best, best_seat = card, other
            index += 1
        if len(trick) == n:
            won[best_seat] += 1
    return needing, spare


def world_duck_ratio(events: Sequence[tuple[int, ...]], hand: Sequence[int]) -> float:
    """The likelihood ratio (ducker over bid player) of a seat's ``events`` if it holds ``hand``."""
    return needing_factor(events, sum(1 << c for c in hand), TOOK_WITH_LOSER, LOST_WITH_STRONG)


def needing_factor(events: Sequence[tuple[int, ...]], now: int, took: float, lost: float) -> float:
    """The product, over a seat's :func:`duck_evidence` events, of ``took`` for each trick it
    took while it held a loser and ``lost`` for each it lost while it held a strong winner, if
    its hand now is ``now`` (bits)."""
    factor = 1.0
    for later, suit_bits, losers, winners, wins in events:
        legal = legal_then(now | later, suit_bits)
        if wins:
            if legal & losers:
                factor *= took
        elif legal & winners:
            factor *= lost
    return factor


def legal_then(held: int, suit_bits: int) -> int:
    """The cards of ``held`` (bits) a seat could play where the led suit's cards are
    ``suit_bits``: that suit and the Wizards and Jesters if it held the suit, else all."""
    return held & (suit_bits | WILD_BITS) if held & suit_bits else held


WILD_BITS = sum(1 << c for c in range(CARDS) if SUIT[c] >= WIZ)
SUIT_BITS: tuple[int, ...] = tuple(
    sum(1 << c for c in range(CARDS) if SUIT[c] == suit) for suit in range(4)
)


def rank_plays(state: WizardState, hidden: frozenset[int]) -> list[list[tuple[int, ...]]]:
    """Per seat, each card it played in this round, led or followed: (the cards it played
    from then on, as bits; the led suit's cards if it had to follow them, else 0; the suit led
    before it; the card; 1 while it needed tricks, else 0). :func:`rank_factor` reads them
    with a world's hand. Public: the round's cards and the open bids (nothing for the
    ``hidden`` bidders)."""
    n = state.players
    out: list[list[tuple[int, ...]]] = [[] for _ in range(n)]
    row = beats_table(trump_number(state.trump))
    won = [0] * n
    later_at = cards_from_here_on(state, n)
    index = 0
    for trick in (*state.played, state.trick):
        best, best_seat, led = -1, -1, NO_LED
        for other, code in trick:
            card = CARD_NUMBER[code]
            if other not in hidden:
                needs = int(won[other] < int(state.bids[other] or 0))
                suit_bits = SUIT_BITS[led] if 0 <= led < 4 else 0
                out[other].append((later_at[index], suit_bits, led, card, needs))
            led = led_after(led, card)
            if row[(best + 1) * CARDS + card]:
                best, best_seat = card, other
            index += 1
        if len(trick) == n:
            won[best_seat] += 1
    return out


@lru_cache(maxsize=4096)
def power_weights(beta: float, trump: int, led: int) -> tuple[float, ...]:
    """Per card: ``exp(beta * power)``, its power the simple bot's with ``led`` led."""
    keys = power_keys(trump, NO_LED if led == FREE else led)
    return tuple(math.exp(beta * (key >> 6)) for key in keys)


def rank_factor(
    events: Sequence[tuple[int, ...]], now: int, trump: int, betas: tuple[float, float]
) -> float:
    """How likely a seat's :func:`rank_plays` are if it holds ``now`` (bits), for a player who
    plays each legal card with weight ``exp(beta * power)`` (the simple bot's power: rank,
    +20 in the led suit, +50 in trumps, Wizards 100): ``betas[1]`` while it needs tricks,
    ``betas[0]`` after."""
    factor = 1.0
    for later, suit_bits, led, card, needs in events:
        beta = betas[needs]
        if beta:
            legal = legal_then(now | later, suit_bits)
            if legal & (legal - 1):
                weights = power_weights(beta, trump, led)
                total = 0.0
                while legal:
                    low = legal & -legal
                    total += weights[low.bit_length() - 1]
                    legal ^= low
                factor *= weights[card] / total
    return factor


def replayed(row: RoundRecord) -> Iterator[tuple[int, int, list[int], int, int, int, list[int]]]:
    """Each card of a finished round, replayed in order from the score sheet's cards: (its
    place in the trick, its seat, the seat's hand then with the card still in it, the card, the
    suit to follow before it, the best card before it or -1, the tricks each seat has won so
    far). The lists are the replay's own: read them, never keep or change them. Nothing
    without the cards."""
    n = len(row.bids)
    if not row.cards or any(len(hand) != row.round for hand in row.cards):
        return
    hands = [[CARD_NUMBER[c] for c in hand] for hand in row.cards]
    table = beats_table(trump_number(row.trump))
    won = [0] * n
    leader = (row.dealer + 1) % n
    for _ in range(row.round):
        best, best_seat, led = -1, leader, NO_LED
        for k in range(n):
            seat = (leader + k) % n
            hand = hands[seat]
            card = hand[0]
            yield k, seat, hand, card, led, best, won
            led = led_after(led, card)
            if table[(best + 1) * CARDS + card]:
                best, best_seat = card, seat
            hand.pop(0)
        won[best_seat] += 1
        leader = best_seat


def replayed_legal(hand: list[int], led: int) -> list[int]:
    """The cards ``hand`` could play to a trick whose suit to follow is ``led`` (as
    :func:`replayed` gives them): the led suit and the Wizards and Jesters, or the whole hand."""
    follow = [c for c in hand if SUIT[c] == led] if 0 <= led < 4 else []
    return follow + [c for c in hand if SUIT[c] >= WIZ] if follow else hand


@lru_cache(maxsize=256)
def rank_counts(row: RoundRecord) -> tuple[tuple[tuple[int, int, tuple[int, ...]], ...], ...]:
    """Per seat, its plays in a finished round with more than one legal card (the round
    :func:`replayed`), as (1 if it needed tricks else 0, the power of the card played, the
    powers of its legal cards). Nothing without the cards."""
    counts: list[list[tuple[int, int, tuple[int, ...]]]] = [[] for _ in row.bids]
    trump = trump_number(row.trump)
    for _k, seat, hand, card, led, _best, won in replayed(row):
        legal = legal_then(sum(1 << c for c in hand), SUIT_BITS[led] if 0 <= led < 4 else 0)
        if legal & (legal - 1):
            keys = power_keys(trump, NO_LED if led == FREE else led)
            powers = tuple(keys[c] >> 6 for c in bits_of(legal))
            counts[seat].append((int(won[seat] < row.bids[seat]), keys[card] >> 6, powers))
    return tuple(tuple(c) for c in counts)


BETAS = tuple(x / 80.0 for x in range(-12, 13))  # the reading's grid, per point of power


@lru_cache(maxsize=256)
def rank_log_likelihoods(row: RoundRecord) -> tuple[tuple[tuple[float, ...], ...], ...]:
    """Per seat, after its bid was made and while it needed tricks: the log of how likely its
    plays of a finished round (:func:`rank_counts`) are at each ``beta`` of ``BETAS``."""
    out = []
    for plays in rank_counts(row):
        phases = []
        for needs in (0, 1):
            mine = [(p, ps) for k, p, ps in plays if k == needs]
            phases.append(
                tuple(
                    sum(beta * p - math.log(sum(math.exp(beta * x) for x in ps)) for p, ps in mine)
                    for beta in BETAS
                )
            )
        out.append(tuple(phases))
    return tuple(out)


def rank_reading(state: WizardState, spread: float) -> list[tuple[float, float]]:
    """Per seat, the ``betas`` of :func:`rank_factor` that best explain its finished rounds
    (:func:`rank_log_likelihoods`), after its bid was made and while it needed tricks, each on
    the grid ``BETAS`` with a normal prior of sd ``spread`` around 0 (no preference: it reads
    nothing)."""
    rows = [rank_log_likelihoods(row) for row in state.history]
    out = []
    for other in range(state.players):
        betas = []
        for needs in (0, 1):
            scores = [-beta * beta / (2.0 * spread * spread) for beta in BETAS]
            for r in rows:
                scores = [a + b for a, b in zip(scores, r[other][needs], strict=True)]
            best = max(range(len(BETAS)), key=lambda i: (scores[i], -abs(BETAS[i])))
            betas.append(BETAS[best])
        out.append((betas[0], betas[1]))
    return out


def mixed_shift(
    shift: list[float] | None, odds: list[float] | None, rng: Rng
) -> list[float] | None:
    """One world's ``Round.shift``: each seat ducks everything with chance ``odds[seat]``,
    else aims as ``shift`` says (its tendency). One draw per seat, whatever the odds."""
    if odds is None:
        return shift
    base = shift if shift is not None else [0.0] * len(odds)
    return [DUCKED if rng.random() < p else x for x, p in zip(base, odds, strict=True)]


# How much likelier an always-high player is than a seat playing for its bid to have played a
# card, in a world where its hand at the time is known: its dearest legal card, or another one
DEAREST = 2.5
NOT_DEAREST = 0.02


# The reading of always-high players and duckers from the round's cards (``Level.high_read``,
# ``Level.duck_read``): how many worlds estimate a seat's likelihood ratio, and the chance under
# which a seat is not read so
STYLE_READ_WORLDS = 32
STYLE_READ_FLOOR = 0.05


SUIT_BITS = tuple(sum(1 << c for c in range(CARDS) if SUIT[c] == suit) for suit in range(4))
ALL_BITS = (1 << CARDS) - 1


def bits_of(bits: int) -> list[int]:
    """The card numbers of a set of cards as bits."""
    return [c for c in range(CARDS) if bits >> c & 1]


Style = tuple[int, int, int, int, int]  # later, suit, bad if it followed, bad if void, block


def style_events(state: WizardState, seat: int, style: float) -> list[list[Style]]:
    """Per other seat, what each card it played this round says of a player who always plays
    its dearest legal card (``style`` ``GRABBED``) or always ducks (``DUCKED``: the dearest
    card that loses the trick as it stands, else its weakest; it leads its weakest).

    One tuple per card: (the cards it played from then on, as bits ``1 << card``; the cards of
    the suit it had to follow, if any; the cards that, held, show it did not play so, had it
    held that suit and had it not; the cards it cannot hold now if it did, whatever it held).
    :func:`style_ratio` reads the first four against a world's hand. Public: the round's cards.
    """
    n = state.players
    out: list[list[Style]] = [[] for _ in range(n)]
    trump = trump_number(state.trump)
    table = beats_table(trump)
    later_at = cards_from_here_on(state, n)
    index = 0
    for trick in (*state.played, state.trick):
        led, best = NO_LED, -1
        for other, code in trick:
            card = CARD_NUMBER[code]
            if other != seat:
                key = power_keys(trump, NO_LED if led == FREE else led)
                dearer = sum(1 << c for c in range(CARDS) if key[c] > key[card])
                cheaper = ALL_BITS & ~dearer & ~(1 << card)
                if style == GRABBED:
                    bad = dearer
                elif best < 0:  # a ducker leads its weakest card
                    bad = cheaper
                else:
                    row = (best + 1) * CARDS
                    losers = sum(1 << c for c in range(CARDS) if not table[row + c])
                    bad = (losers | cheaper) if table[row + card] else (losers & dearer)
                suit_bits = SUIT_BITS[led] if 0 <= led < 4 else 0
                followed = bad & (suit_bits | WILD_BITS)
                if not suit_bits or SUIT[card] not in (led, WIZ, JES):
                    block = bad  # it led, or showed it had none of the suit: any card was legal
                elif SUIT[card] == led:
                    block = followed
                elif suit_bits & ~followed:  # a Wizard or Jester: it may have held the suit
                    block = followed & bad
                else:  # had it held the suit, it would have played one: it had none
                    block = bad
                out[other].append((later_at[index], suit_bits, followed, bad, block))
            if best < 0 or table[(best + 1) * CARDS + card]:
                best = card
            led = led_after(led, card)
            index += 1
    return out


def style_ratio(events: Sequence[Style], hand: Sequence[int]) -> float:
    """The likelihood ratio (the style over a bid player) of a seat's ``events`` with
    ``hand``: each choice it had counts ``DEAREST`` if the style would have made it, else
    ``NOT_DEAREST``."""
    ratio = 1.0
    now = sum(1 << c for c in hand)
    for later, suit_bits, followed, bad, _block in events:
        held = now | later
        if held & suit_bits:
            legal, wrong = held & (suit_bits | WILD_BITS), followed
        else:
            legal, wrong = held, bad
        if legal & (legal - 1):  # a choice
            ratio *= NOT_DEAREST if legal & wrong else DEAREST
    return ratio


def style_blocks(events: Sequence[Style]) -> int | None:
    """The cards a seat cannot hold now if it played the style all round, as bits; None if a
    card it played later shows it did not."""
    blocks = 0
    for later, _suit, _followed, _bad, block in events:
        if block & later:
            return None
        blocks |= block
    return blocks


# How a seat uses the choices whose outcome it knew or could afford (the score sheet, public
# once a round is over): how often it takes a trick it could have let go once it has the
# tricks it bid (``took`` over ``spares``), and how often it lets a trick go as the trick's
# last card while it needs tricks (``last_ducked`` over ``last_chances``). A wild player (it
# plays random cards, or strong ones whatever it needs) does both often; a seat that plays for
# its bid almost never (the opponent pool, full games: took 0.51 / 0.15 / 0.15 for random,
# softmax and noisy, 0.00 for heuristic, ruled, duck and the under-bidder; last ducked 0.59 /
# 0.20 / 0.28 for random, softmax and noisy, 0.00-0.10 for the others but duck, 1.00 for duck;
# BENCHMARKS.md, tenth pass). A ducker (``DUCKER_DUCKS``) is the third model, so that ducking
# alone does not read as wild.
WILD_TAKES = 0.35
SENSIBLE_TAKES = 0.02
WILD_DUCKS_LAST = 0.5
BIDDER_DUCKS_LAST = 0.05
DUCKERS_AMONG_OTHERS = 0.1


# How a seat bids, read from the hands on the score sheet (``RoundRecord.cards``): a seat that
# plays for its bid bids near the simple estimate of its hand, give or take a steady lean (the
# over- and under-bidders), and now and then anywhere (``BID_STRAYS``); a wild one anywhere
# from 0 to the round's cards.
BID_SPREAD = 0.6
BID_LEANS = (-1.5, 0.0, 1.5)
BID_STRAYS = 0.1


def bids_log_likelihoods(state: WizardState, other: int) -> tuple[float, float]:
    """The logs of how likely ``other``'s bids on the score sheet are for a seat that bids
    from its hand (one lean of ``BID_LEANS`` for the whole game, each as likely) and for one
    that bids at random; (0, 0) with no row that kept its cards."""
    rows = [row for row in state.history if row.cards]
    wild = -sum(math.log(row.round + 1) for row in rows)
    estimates = [estimate_tricks(row.cards[other], row.trump, state.players) for row in rows]
    leans = []
    for lean in BID_LEANS:
        total = 0.0
        for row, estimate in zip(rows, estimates, strict=True):
            centre = estimate + lean
            bids = range(row.round + 1)
            near = [math.exp(-0.5 * ((b - centre) / BID_SPREAD) ** 2) for b in bids]
            chance = (1.0 - BID_STRAYS) * near[row.bids[other]] / sum(near)
            total += math.log(chance + BID_STRAYS / len(bids))
        leans.append(total)
    return logsumexp(leans) - math.log(len(leans)), wild


def logsumexp(values: Sequence[float]) -> float:
    top = max(values)
    return top + math.log(sum(math.exp(x - top) for x in values))


def wild_odds(state: WizardState, seat: int, prior: float, bids: float = 0.0) -> list[float] | None:
    """How likely each other seat is to play wild, read from its choices on the score sheet.

    Three models of a seat: it plays for its bid (it lets a trick go as the last card while it
    needs tricks with chance ``BIDDER_DUCKS_LAST`` and takes one it could let go once it has
    its bid with chance ``SENSIBLE_TAKES``), it ducks everything (``DUCKER_DUCKS``,
    ``SENSIBLE_TAKES``), or it plays wild (``WILD_DUCKS_LAST``, ``WILD_TAKES``). From ``prior``,
    the share of wild players believed in before any evidence (and ``DUCKERS_AMONG_OTHERS`` of
    duckers), every such choice it has had in this game (``RoundRecord.last_chances`` and
    ``spares``) weighs them, and with ``bids`` > 0 its bids against its hands
    (:func:`bids_log_likelihoods`, their logs times ``bids``; a ducker bids from its hand).
    ``seat`` itself: 0. ``prior`` 0 reads nothing (None).
    """
    if prior <= 0.0:
        return None
    rows = [row for row in state.history if row.last_chances and row.spares]
    from_hands = bids > 0.0 and any(row.cards for row in state.history)
    out = []
    for other in range(state.players):
        if other == seat:
            out.append(0.0)
            continue
        counts = (
            sum(row.last_chances[other] for row in rows),
            sum(row.last_ducked[other] for row in rows),
            sum(row.spares[other] for row in rows),
            sum(row.took[other] for row in rows),
        )
        if not any(counts) and not from_hands:  # no evidence: the prior, exactly
            out.append(prior)
            continue
        sensible_bids, wild_bids = bids_log_likelihoods(state, other) if from_hands else (0.0, 0.0)
        wild = math.log(prior) + choices_log_likelihood(counts, WILD_DUCKS_LAST, WILD_TAKES)
        ducker = math.log(DUCKERS_AMONG_OTHERS) + choices_log_likelihood(
            counts, DUCKER_DUCKS, SENSIBLE_TAKES
        )
        bidder = math.log(1.0 - prior - DUCKERS_AMONG_OTHERS) + choices_log_likelihood(
            counts, BIDDER_DUCKS_LAST, SENSIBLE_TAKES
        )
        wild += bids * wild_bids
        ducker += bids * sensible_bids
        bidder += bids * sensible_bids
        # in logs: over a long game a model's likelihood can fall under the smallest float
        out.append(math.exp(wild - logsumexp((wild, ducker, bidder))))
    return out


@lru_cache(maxsize=256)
def dearest_counts(row: RoundRecord) -> tuple[tuple[int, int], ...]:
    """Per seat, of its choices in a finished round (more than one legal card), how many times
    it played its dearest legal card and how many times another one: the round
    :func:`replayed` from the score sheet's cards (``RoundRecord.cards``, every seat's cards in
    the order played, public once the round is over). Nothing without them (rows saved before
    they were kept)."""
    counts = [[0, 0] for _ in row.bids]
    trump = trump_number(row.trump)
    for _k, seat, hand, card, led, _best, _won in replayed(row):
        legal = legal_then(sum(1 << c for c in hand), SUIT_BITS[led] if 0 <= led < 4 else 0)
        if legal & (legal - 1):
            key = power_keys(trump, NO_LED if led == FREE else led)
            dearest = max(bits_of(legal), key=key.__getitem__)
            counts[seat][0 if card == dearest else 1] += 1
    return tuple((a, b) for a, b in counts)


@lru_cache(maxsize=256)
def follow_counts(row: RoundRecord) -> tuple[tuple[int, int, int, int], ...]:
    """Per seat, how its followed cards in a finished round read (the round replayed from the
    score sheet's cards, :func:`replayed`): (the times it needed tricks and held
    a strong winner, the times it lost all the same; the times its bid was made and it held a
    loser, the times it took the trick all the same). Zeros without the cards."""
    n = len(row.bids)
    counts = [[0, 0, 0, 0] for _ in range(n)]
    trump = trump_number(row.trump)
    table = beats_table(trump)
    for k, seat, hand, card, led, best, won in replayed(row):
        start = (best + 1) * CARDS
        wins = table[start + card]
        if k > 0:
            legal = replayed_legal(hand, led)
            if won[seat] < row.bids[seat]:
                strong = strong_cards(trump, n, len(hand))
                if any(table[start + c] and strong[c] for c in legal):
                    counts[seat][0] += 1
                    counts[seat][1] += not wins
            elif any(not table[start + c] for c in legal):
                counts[seat][2] += 1
                counts[seat][3] += wins
    return tuple((a, b, c, d) for a, b, c, d in counts)


@lru_cache(maxsize=256)
def grab_counts(row: RoundRecord) -> tuple[tuple[int, int], ...]:
    """Per seat, how it followed in a finished round when it still needed tricks, was not last
    to play, and could win the trick only with cards the playout policy does not count as strong
    or lose it (:func:`replayed`): (the times, the times it took the trick). Zeros without the
    cards."""
    n = len(row.bids)
    counts = [[0, 0] for _ in range(n)]
    trump = trump_number(row.trump)
    table = beats_table(trump)
    for k, seat, hand, card, led, best, won in replayed(row):
        if k == 0 or k == n - 1 or won[seat] >= row.bids[seat]:
            continue
        start = (best + 1) * CARDS
        legal = replayed_legal(hand, led)
        winning = [c for c in legal if table[start + c]]
        strong = strong_cards(trump, n, len(hand))
        if winning and len(winning) < len(legal) and not any(strong[c] for c in winning):
            counts[seat][0] += 1
            counts[seat][1] += table[start + card]
    return tuple((a, b) for a, b in counts)


def grab_seats(state: WizardState, seat: int, gate: float) -> int:
    """The other seats whose finished rounds show them taking, more often than ``gate``, the
    tricks they could win only with middling cards while they needed tricks (a prior of one
    take and one duck): as bits, for :func:`play_out`'s ``grab``."""
    mask = 0
    for other in range(state.players):
        if other == seat:
            continue
        cases = takes = 0
        for row in state.history:
            a, b = grab_counts(row)[other]
            cases, takes = cases + a, takes + b
        if (takes + 1) / (cases + 2) > gate:
            mask |= 1 << other
    return mask


def card_reading(state: WizardState, level: Level) -> list[tuple[float, float]]:
    """Per seat, the two factors of :meth:`WizardDomain.card_likelihood` for a seat that plays
    for its bid: how often it lost while it needed tricks and held a strong winner, and how
    often it took a trick once its bid was made while it held a loser, each from its finished
    rounds (:func:`follow_counts`) after ``read_weight`` cases at ``lost_strong`` and
    ``took_spare``. A player who takes its tricks when it can shows low rates; one who keeps
    its sure cards for later, or ducks, high ones, and its cards then say little."""
    rows = [follow_counts(row) for row in state.history]
    k = level.read_weight
    out = []
    for other in range(state.players):
        held = sum(r[other][0] for r in rows)
        lost = sum(r[other][1] for r in rows)
        spare = sum(r[other][2] for r in rows)
        took = sum(r[other][3] for r in rows)
        out.append(
            (
                (k * level.lost_strong + lost) / (k + held),
                (k * level.took_spare + took) / (k + spare),
            )
        )
    return out


def high_priors(state: WizardState, seat: int, prior: float) -> list[float]:
    """Each other seat's chance to play its dearest legal card always, before this round's
    cards are read (:meth:`WizardDomain.read_styles`): ``prior``, the share of such players,
    weighed by its choices in the finished rounds (:func:`dearest_counts`), each
    ``DEAREST`` times likelier of such a player if it played its dearest card, else
    ``NOT_DEAREST``. A seat not seen choosing yet is not believed to be one (0), nor ``seat``."""
    out = [0.0] * state.players
    rows = [dearest_counts(row) for row in state.history]
    for other in range(state.players):
        if other == seat:
            continue
        dearest = sum(counts[other][0] for counts in rows)
        others = sum(counts[other][1] for counts in rows)
        if not dearest + others:
            continue
        ratio = math.exp(dearest * math.log(DEAREST) + others * math.log(NOT_DEAREST))
        out[other] = prior * ratio / (prior * ratio + 1.0 - prior)
    return out


def choices_log_likelihood(counts: tuple[int, int, int, int], ducks: float, takes: float) -> float:
    """The log of how likely a seat's ``counts`` (last chances, last ducked, spares, took) are
    for a player who ducks a last chance with chance ``ducks`` and takes a spare choice with
    chance ``takes``."""
    chances, ducked, spares, took = counts
    return (
        ducked * math.log(ducks)
        + (chances - ducked) * math.log(1.0 - ducks)
        + took * math.log(takes)
        + (spares - took) * math.log(1.0 - takes)
    )


def tree_noise(noise: Noise, level: Level) -> list[float] | None:
    """Each seat's chance of a random card in the search tree itself (:meth:`WizardDomain.
    erratic`): ``Level.wild_tree`` of what the wild reading added to its playouts' noise
    (:func:`seat_noise`); None when that is nothing for every seat."""
    if isinstance(noise, float | int) or level.wild_tree <= 0.0:
        return None
    extra = [max(0.0, x - level.noise) * level.wild_tree for x in noise]
    return extra if any(extra) else None


# A weight under this is taken as 0: a sensible player's first round or two can read a hair
# wilder than the prior (weights up to 0.01-0.06), which changed nothing on average but changed
# the games' random draws from there on (BENCHMARKS.md, Wizard pool, eleventh pass)
WILD_WEIGHT_FLOOR = 0.1

Weights = list[float] | None  # per seat, from :func:`wild_weights` (None: the reading is off)


def wild_weights(state: WizardState, seat: int, level: Level) -> Weights:
    """How far each seat's choices moved it from the prior share of wild players
    (``Level.wild``) toward certainly wild (:func:`wild_odds`): 0 for a seat read as no wilder
    than the prior (or not read yet, or less than ``WILD_WEIGHT_FLOOR`` of the way), 1 for one
    read as wild for sure; None when off. It reads only the score sheet: once per decision
    serves the bid, the trump choice's every suit and the card search alike."""
    odds = wild_odds(state, seat, level.wild, level.wild_bids)
    if odds is None:
        return None
    prior = level.wild
    weights = [max(0.0, (p - prior) / (1.0 - prior)) for p in odds]
    return [weight if weight >= WILD_WEIGHT_FLOOR else 0.0 for weight in weights]


def seat_noise(level: Level, weights: Weights) -> Noise:
    """The playouts' chance of a random card for each seat: ``Level.noise``, and for a seat
    whose choices make it likelier to play wild than the prior (``weights``, from
    :func:`wild_weights`) up to ``Level.wild_noise``, in proportion to how far they moved it
    toward certain. A seat read as no wilder than the prior, or not read yet, keeps
    ``Level.noise``: the reading changes nothing at a table where nobody has shown wild play.
    One number for every seat when the reading is off (``weights`` None)."""
    if weights is None:
        return level.noise
    gap = level.wild_noise - level.noise
    return [level.noise + weight * gap for weight in weights]


def own_weight(level: Level, seat: int, weights: Weights) -> float:
    """How much of its own excess (:func:`own_excess`) ``seat`` lets move its bids: all of it,
    less ``Level.wild_own`` times the mean weight of the others read as wild (``weights``,
    from :func:`wild_weights`). The own excess stands for what the simulations miss about the
    table; once the wild seats play at random in them too, it would count that twice."""
    if weights is None or level.wild_own <= 0.0:
        return 1.0
    others = [weight for other, weight in enumerate(weights) if other != seat]
    return 1.0 - level.wild_own * sum(others) / len(others)


# -- card play by ISMCTS -------------------------------------------------------------------------


class WizardDomain:
    """The play phase of one round, from ``seat``'s information set, on :class:`Round`.

    Rewards are each seat's round points, less ``spite`` times the mean of the others' points,
    divided by 10 * (round + 2), so they stay near [-1, 1] in every round.
    """

    def __init__(
        self, game: Wizard, state: WizardState, seat: int, level: Level, chance: random.Random
    ) -> None:
        self.game = game
        self.state = state
        self.seat = seat
        self.hidden = hidden_bidders(game, state, seat)
        self.spite = level.spite
        self.noise = seat_noise(level, wild_weights(state, seat, level))
        self.tree_noise = tree_noise(self.noise, level)
        self.chance = chance
        self.scale = 10.0 * (state.round + 2)
        tricks = range(state.round + 1)
        self.rewards = [[round_points(bid, won) / self.scale for won in tricks] for bid in tricks]
        # Once per decision, not per world: what sample_world needs, the trick so far as a
        # Round, and each hidden bidder's played cards (``guess_bids`` adds them to its hand).
        self.sampler = WorldSampler(game, state, seat)
        self.start = round_from_state(state)
        self.start.shift = tendencies(state, seat, level.prior, level.tend_hand, level.tend_lean)
        self.odds = duck_odds(state, seat, level.duck, level.duck_gate, level.read_gate)
        self.evidence = duck_evidence(state, self.hidden) if self.odds is not None else []
        # per hidden seat: (its shift, the chance it plays so, the cards it then cannot hold)
        self.styles: dict[int, list[tuple[float, float, frozenset[int]]]] = {}
        self.style_ducks: set[int] = set()  # seats whose ducking the style reading weighs
        self.style_blocked: dict[
            tuple[tuple[int, float], ...], dict[int, frozenset[int]] | None
        ] = {}
        priors: dict[float, list[float]] = {}
        if level.high_read > 0.0:
            priors[GRABBED] = high_priors(state, seat, level.high_read)
        if level.duck_read > 0.0 and self.odds is not None:
            priors[DUCKED] = [level.duck_read * p for p in self.odds]
        if priors and (state.played or state.trick):
            self.read_styles(priors)
        self.tree_styled = self.styled_in_tree(level.style_tree)
        # the card reading (``Level.lost_strong``, ``took_spare``): worlds from a weighed pool
        self.needing: list[list[tuple[int, ...]]] = [[] for _ in range(state.players)]
        self.spare: list[list[tuple[int, ...]]] = [[] for _ in range(state.players)]
        if level.lost_strong < 1.0 or level.took_spare < 1.0:
            self.needing, self.spare = follow_evidence(state, self.hidden)
        self.ranks: list[list[tuple[int, ...]]] = [[] for _ in range(state.players)]
        self.betas = [(0.0, 0.0)] * state.players
        if level.rank_spread > 0.0 and (state.played or state.trick):
            self.betas = [
                (level.rank_spent * spent, needing)
                for spent, needing in rank_reading(state, level.rank_spread)
            ]
            self.ranks = [
                d if any(self.betas[s]) and s != seat else []
                for s, d in enumerate(rank_plays(state, self.hidden))
            ]
        self.reads_cards = any(self.needing) or any(self.spare) or any(self.ranks)
        self.reading = [(level.lost_strong, level.took_spare)] * state.players
        if self.reads_cards and level.read_weight > 0:  # (the finished rounds replayed only then)
            self.reading = card_reading(state, level)
        self.pool_size = level.read_pool
        self.pool: list[tuple[dict[int, list[int]], tuple[int | None, ...], dict[int, float]]] = []
        self.pool_weights: list[float] = []  # cumulative
        self.played = {
            s: [CARD_NUMBER[c] for c in round_hand(state, s)[len(state.hands[s]) :]]
            for s in self.hidden
        }

    def read_styles(self, priors: dict[float, list[float]]) -> None:
        """Each other seat's chance to be always high or a ducker this round (``priors``: per
        style, by its shift, each seat's chance before the round's cards), from the round's
        cards: the likelihood ratio of its plays (:func:`style_ratio`) averaged over worlds
        drawn as the search draws them; and the cards it then cannot hold
        (:func:`style_blocks`). A seat with no card played yet keeps its prior of ducking (and
        may hold anything); one with no card played is not read as always high."""
        sampler = self.sampler
        seats = [s for s in sampler.others if sampler.sizes[s] > 0]
        events = {style: style_events(self.state, self.seat, style) for style in priors}
        read: list[tuple[int, float, int]] = []  # (seat, style, its blocks)
        # a bid player's share (both readings on may believe more than all of a seat: none left)
        likely = {s: max(0.0, 1.0 - sum(p[s] for p in priors.values())) for s in seats}
        for style, prior in priors.items():
            for s in seats:
                if prior[s] <= 0.0:
                    continue
                if not events[style][s]:
                    likely[s] += prior[s]  # its cards say nothing yet
                    if style == DUCKED:
                        read.append((s, style, 0))
                elif (blocks := style_blocks(events[style][s])) is not None:
                    read.append((s, style, blocks))
        measured = [i for i, (s, style, _b) in enumerate(read) if events[style][s]]
        ratios = [1.0] * len(read)
        if measured:
            # a stream of its own, from public facts: the search's own draws stay as they were
            played = sum(len(t) for t in self.state.played) + len(self.state.trick)
            draws = Rng.derive("wizard", "style read", self.state.round, self.seat, played)
            totals = dict.fromkeys(measured, 0.0)
            for _ in range(STYLE_READ_WORLDS):
                dealt, _bids = sampler.draw_numbers(draws)
                for i in measured:
                    s, style, _blocks = read[i]
                    totals[i] += style_ratio(events[style][s], dealt[s])
            for i in measured:
                ratios[i] = totals[i] / STYLE_READ_WORLDS
                s, style, _blocks = read[i]
                likely[s] += priors[style][s] * ratios[i]
        for i, (s, style, blocks) in enumerate(read):
            odds = priors[style][s] * ratios[i] / likely[s] if likely[s] > 0.0 else 0.0
            if odds >= STYLE_READ_FLOOR:
                self.styles.setdefault(s, []).append((style, odds, frozenset(bits_of(blocks))))
                if style == DUCKED:  # this reading replaces the mixture of mixed_shift for it
                    self.style_ducks.add(s)

    def styled_in_tree(self, threshold: float) -> frozenset[int]:
        """The seats read as always high or ducking with odds of at least ``threshold``
        (``Level.style_tree``; 0: none), which play so in the search's tree too: this round's
        cards (:meth:`read_styles`) or the score sheet's ducker odds (:func:`duck_odds`)."""
        if threshold <= 0.0:
            return frozenset()
        seats = {
            s for s, options in self.styles.items() if max(o for _st, o, _b in options) >= threshold
        }
        if self.odds is not None:
            seats |= {s for s, p in enumerate(self.odds) if p >= threshold and s != self.seat}
        return frozenset(seats)

    def style_world(
        self, rng: Rng
    ) -> tuple[dict[int, list[int]], tuple[int | None, ...], dict[int, float]]:
        """A world's hidden hands and bids with some seats drawn always high or ducking (each as
        likely as ``styles`` says), holding none of the cards that style would have played
        instead; and their shifts. If no deal fits (a reading is wrong somewhere), the world of
        the plain sampler."""
        drawn: dict[int, tuple[float, frozenset[int]]] = {}
        for s, options in self.styles.items():
            u = rng.random()
            for style, odds, blocks in options:
                if u < odds:
                    drawn[s] = (style, blocks)
                    break
                u -= odds
        sampler = self.sampler
        key = tuple((s, style) for s, (style, _blocks) in drawn.items())
        if drawn and key not in self.style_blocked:
            self.style_blocked[key] = {
                s: cards | drawn[s][1] if s in drawn else cards
                for s, cards in sampler.blocked_numbers.items()
            }
        blocked = self.style_blocked.get(key) if drawn else None
        if blocked is not None:
            try:
                hands = deal_respecting_voids(
                    sampler.unseen_numbers, sampler.order, sampler.sizes, blocked, rng
                )
            except AssertionError:  # no deal fits every reading at once: never again
                self.style_blocked[key] = None
            else:
                rng.skip_shuffle(len(sampler.unseen_numbers))
                return hands, sampler.bids(rng), {s: style for s, (style, _b) in drawn.items()}
        dealt, bids = sampler.draw_numbers(rng)
        return dealt, bids, {}

    def pooled_world(
        self, rng: Rng
    ) -> tuple[dict[int, list[int]], tuple[int | None, ...], dict[int, float]]:
        """A world drawn from a pool of ``Level.read_pool`` worlds, made at the first draw of a
        decision (as :meth:`style_world` or the plain sampler draws them), each as likely as its
        hands explain the round's cards (:meth:`card_likelihood`)."""
        if not self.pool:
            total = 0.0
            for _ in range(self.pool_size):
                if self.styles:
                    world = self.style_world(rng)
                else:
                    dealt, bids = self.sampler.draw_numbers(rng)
                    world = (dealt, bids, {})
                weight = 1.0
                for s, hand in sorted(world[0].items()):
                    if self.needing[s] or self.spare[s]:
                        weight *= self.card_likelihood(s, hand)
                    if self.ranks[s]:
                        now = sum(1 << c for c in hand)
                        weight *= rank_factor(self.ranks[s], now, self.start.trump, self.betas[s])
                total += weight
                self.pool.append(world)
                self.pool_weights.append(total)
            if total <= 0.0:  # no world explains the cards (factors of 0): read nothing
                self.pool_weights = [float(i + 1) for i in range(len(self.pool))]
        x = rng.random() * self.pool_weights[-1]
        index = min(bisect.bisect_right(self.pool_weights, x), len(self.pool) - 1)
        dealt, bids, styled = self.pool[index]
        return {s: list(hand) for s, hand in dealt.items()}, bids, styled

    def card_likelihood(self, seat: int, hand: Sequence[int]) -> float:
        """How likely ``seat``'s cards of this round are if it holds ``hand`` now (up to a
        factor all worlds share): as a player who plays for its bid, a card that lost while it
        needed tricks and held a strong winner counts ``lost_strong``, a trick taken once its bid
        was made while it held a loser ``took_spare``; as a ducker (at the odds of
        :func:`duck_odds`), a trick taken while it held a loser ``TOOK_WITH_LOSER``."""
        now = sum(1 << c for c in hand)
        lost_strong, took_spare = self.reading[seat]
        ducker = needing_factor(self.needing[seat], now, TOOK_WITH_LOSER, 1.0)
        bidder = needing_factor(self.needing[seat], now, 1.0, lost_strong)
        for later, suit_bits, losers in self.spare[seat]:
            if legal_then(now | later, suit_bits) & losers:
                bidder *= took_spare
        p = self.odds[seat] if self.odds is not None else 0.0
        return (1.0 - p) * bidder + p * ducker

    def determinize(self, rng: Rng) -> Round:
        """``round_from_state(sample_world(...))`` with ``guess_bids``, made without the state.

        Seats read as possibly always high or ducking (``Level.high_read``, ``duck_read``) are
        drawn so, as likely as the round's cards make it, and then hold none of the cards such
        a player would have played instead of its own (:meth:`style_world`), and play so.
        """
        styled: dict[int, float] = {}
        if self.reads_cards:
            dealt, world_bids, styled = self.pooled_world(rng)
        elif self.styles:
            dealt, world_bids, styled = self.style_world(rng)
        else:
            dealt, world_bids = self.sampler.draw_numbers(rng)  # new lists, the Round's
        hands = [dealt[s] if s in dealt else list(hand) for s, hand in enumerate(self.start.hands)]
        bids = [int(bid or 0) for bid in world_bids]
        state = self.state
        for s in self.hidden:
            expected = number_estimate(dealt[s] + self.played[s], state.trump, state.players)
            bids[s] = nearest_bid(expected, range(state.round + 1))
        sim = self.start.with_hands(hands, bids)
        odds = self.odds
        if odds is not None and self.style_ducks:
            odds = [0.0 if s in self.style_ducks else p for s, p in enumerate(odds)]
        if odds is not None and any(self.evidence):
            odds = list(odds)
            for s, events in enumerate(self.evidence):
                if events and 0.0 < odds[s] < 1.0:
                    ratio = odds[s] / (1.0 - odds[s]) * world_duck_ratio(events, hands[s])
                    odds[s] = ratio / (1.0 + ratio)
        sim.shift = mixed_shift(sim.shift, odds, rng)
        if styled:
            shift = list(sim.shift) if sim.shift is not None else [0.0] * sim.n
            for s, style in styled.items():
                shift[s] = style
            sim.shift = shift
        return sim

    def to_move(self, sim: Round) -> int | None:
        return sim.turn if sim.turn >= 0 else None

    def legal_moves(self, sim: Round) -> list[int]:
        return sim.legal()

    def apply(self, sim: Round, move: int) -> Round:
        sim.play(move)
        return sim

    def returns(self, sim: Round) -> list[float]:
        if not self.spite:  # the formula below, looked up: (p - 0.0 * ...) / scale is p / scale
            return [self.rewards[bid][won] for bid, won in zip(sim.bids, sim.won, strict=True)]
        points = sim.points()
        total = sum(points)
        others = sim.n - 1
        return [(p - self.spite * (total - p) / others) / self.scale for p in points]

    def policy(self, sim: Round, rng: Rng) -> int:
        return policy_card(sim, self.chance, self.noise)

    def rollout(self, sim: Round, rng: Rng) -> Round:
        """The playout loop with ``policy`` in one call (the same moves, fewer calls)."""
        return play_out(sim, self.chance, self.noise)

    def order(self, sim: Round, moves: Sequence[int], rng: Rng) -> Sequence[int]:
        """Expand the heuristic's card first."""
        return [heuristic_card(sim, moves)]

    def erratic(self, sim: Round, seat: int, moves: Sequence[int], rng: Rng) -> int | None:
        """In the tree, with the chance ``tree_noise`` gives the seat, a random legal card
        (the search follows it instead of the seat's best); else, for a seat read always high
        or ducking (``tree_styled``) and drawn so in this world, its style's card; else None."""
        chance_of = self.tree_noise[seat] if self.tree_noise is not None else 0.0
        if chance_of > 0.0 and len(moves) > 1 and self.chance.random() < chance_of:
            return moves[int(self.chance.random() * len(moves))]
        if seat in self.tree_styled and sim.shift is not None and abs(sim.shift[seat]) >= GRAB_AIM:
            return heuristic_card(sim, moves)  # read and drawn always high or ducking: it plays so
        return None


# -- levels ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Level:
    """A search budget and the knobs of the search.

    A card gets ``iterations`` ISMCTS iterations, but no more than ``per_card`` per legal card
    (a choice between two cards needs fewer) and no more than ``max_plays`` simulated card plays
    in all (a long round gets fewer iterations, so a move's time stays bounded). A bid gets
    ``bid_sims`` simulated rounds, shared among the candidate bids; the dealer's trump choice
    shares as many among the four suits. ``exploration`` is the UCB1 constant, ``spite`` how
    much the others' points count against a seat's own, ``noise`` the chance of a random card
    in playouts, ``prior`` how many cards of no bias :func:`tendencies` assumes before it
    believes what the other seats have shown (0: it reads nothing; ``tend_hand``: each round
    read against the lower of the bid and the hand's estimate; ``tend_lean``: against the bid
    less the seat's steady lean over its hands; ``tend_bids``: read in the bid simulations too,
    not only in card play; ``tend_cap``: in the bid simulations, no seat read further off its bid
    than this per card, 0 for no cap), ``duck`` the share of players believed to duck every
    trick before any evidence, in card play (:func:`duck_odds`; 0: every seat plays for its bid),
    ``duck_bid`` the same in the bid simulations (measured: gated by the table's reading it cost
    bids against players who take their tricks, gated by each seat's choices it pays;
    BENCHMARKS.md, Wizard pool), ``duck_gate`` the likelihood ratio the score sheet must show
    for duckers before ``duck`` or ``duck_bid`` applies (0: always), ``read_gate`` the
    likelihood ratio a seat's own choices on the score sheet must show (:func:`choices_ratio`;
    0: not read) before that seat is believed to duck on their evidence: in card play on top of
    the duck gate, in the bids (``duck_bid``, ``bid_up``) instead of it, ``own`` how many cards
    of no bias :func:`own_excess` assumes before it believes how the seat's own rounds have
    landed against its bids (0: it reads nothing),
    ``own_up`` whether that correction only raises the bids,
    ``wild`` the share of players believed to play wild (:func:`wild_odds`; 0: off), whose
    playouts then use ``wild_noise`` instead of ``noise``, as likely as they are wild, and
    ``wild_tree`` how much of that extra noise also holds in the search tree (:func:`tree_noise`;
    0: the tree lets every seat choose its best); ``wild_bids`` how much the reading weighs
    each seat's bids against the hands it had (:func:`bids_log_likelihoods`; 0: not at all),
    ``wild_own`` how much a table read as wild takes off the seat's own-excess correction
    (:func:`own_weight`; 0: nothing); ``high_read`` the share of players believed to play
    their dearest legal card always, weighed by each seat's choices in the finished rounds
    (:func:`high_priors`) and then by its cards of this round in the card search, which deals
    a seat so read only the hands that fit (:meth:`WizardDomain.read_styles`; 0: off);
    ``duck_read`` the same for duckers, from the score sheet's ducker odds (:func:`duck_odds`)
    times ``duck_read`` (0: off; measured, not kept: twelfth pass).
    The bids simulated are those within ``bid_width`` of the simple estimate, the window
    stretched toward the own excess by ``bid_reach`` of it (:func:`bid_candidates`; 0: not at
    all) and, once the duck gate is open (the read gate, if set, for ``bid_up_seats`` seats
    or more) and the own excess per card above ``bid_up_gate``, ``bid_up`` further up (0: not
    at all). ``style_tree``: the odds from which a seat read as always high or ducking plays
    so in the card search's tree as well as in its playouts, in the worlds that draw it so
    (:meth:`WizardDomain.styled_in_tree`; 0: never, the tree choosing its best card for it).
    ``lost_strong`` and ``took_spare``: how much less likely the card search deems a world that
    gave a seat a strong winner where it lost a trick it needed, or a loser where it took one
    once its bid was made (:meth:`WizardDomain.card_likelihood`; 1: not at all), believed of
    each seat after ``read_weight`` such cases and then as often as its finished rounds show it
    doing so (:func:`card_reading`; 0: not read from them); the worlds come from a pool of
    ``read_pool`` drawn once per decision. ``rank_spread``: the power reading (0: off), each
    seat read as one that plays a legal card with weight ``exp(beta * power)``, ``beta`` fitted
    to its finished rounds with a prior of this spread around 0 (:func:`rank_reading`), and
    this round's cards weighing the pool's worlds so (:func:`rank_factor`); ``rank_spent``
    scales the ``beta`` read for the cards played once the bid was made (0: those not read).
    ``bid_grab``: the bid simulations play every other seat as a grabber, one that takes a trick
    with its cheapest winning card whenever it still needs one (:func:`heuristic_card`; the
    playout policy otherwise ducks with a card it does not count as strong); with
    ``bid_grab_gate``, only the seats whose finished rounds show them doing so more often than
    that (:func:`grab_seats`). Not on yet: twenty-eighth pass.
    """

    iterations: int
    per_card: int
    max_plays: int
    bid_sims: int
    exploration: float = 0.4
    spite: float = 0.0
    noise: float = 0.1
    prior: float = 0.0
    tend_hand: bool = False
    tend_lean: float = 0.0
    tend_bids: bool = True
    tend_cap: float = 0.0
    duck: float = 0.0
    duck_bid: float = 0.0
    duck_gate: float = 0.0
    read_gate: float = 0.0
    high_read: float = 0.0
    duck_read: float = 0.0
    own: float = 0.0
    own_up: bool = False
    wild: float = 0.0
    wild_noise: float = 0.6
    wild_tree: float = 0.0
    wild_bids: float = 0.0
    wild_own: float = 0.0
    bid_reach: float = 0.0
    bid_width: float = 2.0
    bid_up: float = 0.0
    bid_up_gate: float = 0.0
    bid_up_seats: int = 1
    style_tree: float = 0.0
    lost_strong: float = 1.0
    took_spare: float = 1.0
    read_pool: int = 256
    read_weight: float = 0.0
    rank_spread: float = 0.0
    rank_spent: float = 1.0
    bid_grab: bool = False
    bid_grab_gate: float = 0.0


# What the other players have shown in this game (issue 19; BENCHMARKS.md, Wizard pool): their
# tendencies (``prior``), the seat's own excess over its bids, read upward only (``own``,
# ``own_up``), and, once the score sheet favours a table of duckers, the chance that a seat
# ducks every trick (``duck``, ``duck_gate``) weighed by its cards in each world of the card
# search; and seat by seat, once a seat's own choices on the score sheet show it ducking
# (``read_gate``): the same chance in card play, the ducker in the bid simulation
# (``duck_bid``) and, once two seats show it, bids up to ``bid_up`` above the usual window
# (``bid_up_seats``). And the seats that play at random (issue 19, tenth and eleventh passes),
# read from their choices and from their bids against the hands they had (``wild``,
# ``wild_bids``): their playouts at random as far as they are read wild (``wild_noise``), half
# of that in the search tree (``wild_tree``), and the seat's own excess taken off as far as the
# table is read wild (``wild_own``): against three random players, bids made from 64% to 72.4%
# (normal) and 73.9% (hard) in full games (BENCHMARKS.md, Wizard pool, eleventh pass). And
# the seats whose finished rounds show them playing their dearest legal card at every choice:
# read from this round's cards as always high, and dealt only the hands that fit
# (``high_read``; BENCHMARKS.md, twelfth pass: against three always-high players, more bids made).
# The own excess is believed as if 32 cards of no bias came before the seat's own rounds (8 until
# the fourteenth pass, 16 until the twenty-fifth for hard and the twenty-sixth for normal: at the
# mixed table of a ducker, an always-high player and a noisy one, the seat's rounds swing from
# over its bid to under it and back, and a reading as fast as 16 cards let it chased the swings;
# 32 made 0.9 (hard) and 1.1 (normal) bids in a hundred more there, over 48 deals, the other
# tables within their intervals; normal reads them more slowly still, ``NORMAL_OWN``). A seat
# read always high or ducking at odds of 0.5 or more plays so in the card search's tree too, not
# only in its playouts (``style_tree``; fifteenth pass: against three duckers, bids made +7 to
# +10 in a hundred; lower odds cost win share against sensible players). The bid simulations
# read no seat further below its bid than 0.1 of a trick per card (``tend_cap``; card play reads
# the whole tendency): over-bidders take a trick or two fewer than they bid every round, yet
# they play for tricks all round; read whole, the simulations let them aim low and the bids
# counted on tricks they took (twenty-first pass: normal's bids made +4.7 in a hundred against
# them; twenty-second pass: hard's 69.2% -> 75.3%; every other table of the pool moved within
# its intervals, for both levels).
READING: dict[str, Any] = {
    "prior": 10.0,
    "tend_cap": 0.1,
    "own": 32.0,
    "own_up": True,
    "duck": 0.3,
    "duck_gate": 1.0,
    "read_gate": 10.0,
    "duck_bid": 0.3,
    "bid_up": 3.0,
    "bid_up_seats": 2,
    "wild": 0.1,
    "wild_noise": 1.0,
    "wild_tree": 0.5,
    "wild_bids": 1.0,
    "wild_own": 1.0,
    "high_read": 0.1,
    "style_tree": 0.5,
}

# Normal's card search has four times the budget it had before issue 19's sixth pass: against
# card counters it lost points to its search, not to its bids (4x the bid simulations: no gain;
# 4x the card iterations: +11 points of win share; BENCHMARKS.md, Wizard pool, sixth pass)
# Normal also reads this round's cards as a player who plays for its bid would have played
# them (``lost_strong``, ``took_spare``, ``read_weight``; seventeenth pass): a card that lost a
# trick its player needed while it held a strong winner, or took one it no longer needed while
# it held a loser, makes the worlds that give it such cards less likely, each seat as far as its
# finished rounds show it taking its tricks when it can. Against players who choose by card
# strength: bids made +3.3 in a hundred, win share +7; neutral at the other tables measured.
# Hard measured no gain from it (bids made -0.4 to -0.7 there, with pools of 256 and 1,024).
CARD_READING: dict[str, Any] = {"lost_strong": 0.3, "took_spare": 0.3, "read_weight": 4.0}

# Both read how dearly each seat plays while it still needs tricks (``rank_spread``; eighteenth
# pass): the power of the cards it chose among its legal ones in its finished rounds gives it a
# softmax ``beta``, and this round's cards, so read, weigh the worlds. Against players who
# choose by card strength: bids made +2.6 (normal) and +2.8 (hard) in a hundred; neutral at the
# other tables. Read after the bid was made as well, it cost normal win share against them
# (-7.3 in a hundred): only the cards played while needing are read.
POWER_READING: dict[str, Any] = {"rank_spread": 0.05, "rank_spent": 0.0}

# Normal believes its own rounds as if 64 cards of no bias came first (twenty-seventh pass: bids
# made up at every table of the card, +0.8 in a hundred over them all, +2.1 against duckers;
# no win share moved beyond its interval; 128 lost 1.8 games in a hundred at the two tables
# that bind, and no reading at all 52 points a game against duckers). Hard stays at 32: at 64
# it won 2.3 games in a hundred fewer against three ``heuristic`` players over 96 deals, and
# scored 19 points a game less against duckers.
NORMAL_OWN: dict[str, Any] = {"own": 64.0}

LEVELS: dict[str, Level] = {
    "normal": Level(
        iterations=800,
        per_card=200,
        max_plays=24_000,
        bid_sims=200,
        **(READING | NORMAL_OWN),
        **CARD_READING,
        **POWER_READING,
    ),
    "hard": Level(
        iterations=1_500,
        per_card=250,
        max_plays=40_000,
        bid_sims=1_200,
        **READING,
        **POWER_READING,
    ),
}


def budget_scale() -> float:
    """The factor applied to every budget: 1.0 unless ``TAPETE_BOT_BUDGET`` sets another."""
    try:
        return max(0.0, float(os.environ.get("TAPETE_BOT_BUDGET", "1")))
    except ValueError:
        return 1.0


def scaled(count: int) -> int:
    return max(1, round(count * budget_scale()))


def card_iterations(level: Level, state: WizardState, choices: int) -> int:
    """ISMCTS iterations for a card among ``choices`` legal ones (see :class:`Level`)."""
    plays = max(1, sum(len(hand) for hand in state.hands))
    count = min(level.iterations, level.per_card * choices, level.max_plays // plays)
    return scaled(max(1, count))


def card_values(
    game: Wizard, state: WizardState, seat: int, rng: Rng, level: Level
) -> tuple[Move, list[tuple[str, int, float]]]:
    """The card ISMCTS prefers, and (card, visits, mean reward) for every legal card."""
    moves = [CARD_NUMBER[str(m.value)] for m in game.legal_moves(state, seat)]
    domain = WizardDomain(game, state, seat, level, fast_chance(rng))
    result = search(
        domain,
        moves,
        card_iterations(level, state, len(moves)),
        rng,
        exploration=level.exploration,
        playout=domain.policy,
        order=domain.order,
        rollout=domain.rollout,
        erratic=domain.erratic if domain.tree_noise is not None or domain.tree_styled else None,
    )
    stats = [(DECK[s.move], s.visits, s.mean) for s in result.stats]
    return Move("play", DECK[result.move]), stats


# -- bids and trump by simulation -------------------------------------------------------------


def heuristic_bids(game: Wizard, world: WizardState, until: int | None = None) -> WizardState:
    """The world after the seats to bid, up to ``until``'s turn, bid as the simple bot does.

    Only legal bids: the even-bid restriction applies to the dealer as in a real game.
    """
    while world.phase == "bid" and (mover := game.to_move(world)) != until:
        assert mover is not None
        legal = [int(m.value) for m in game.legal_moves(world, mover)]
        expected = estimate_tricks(world.hands[mover], world.trump, world.players)
        world = game.play(world, mover, Move("bid", nearest_bid(expected, legal)))
    return world


def bid_candidates(
    expected: float, legal: Sequence[int], reach: float = 0.0, width: float = 2.0, up: float = 0.0
) -> list[int]:
    """The legal bids worth simulating: within ``width`` of the heuristic estimate, and of
    every point between it and ``expected + reach`` (the seat's own excess, in tricks); with
    ``up``, the window starts 1 below the estimate and reaches ``up`` further above."""
    low, high = expected + min(0.0, reach) - width, expected + max(0.0, reach) + width
    if up > 0.0:
        low, high = max(low, expected - 1.0), high + up
    near = [b for b in legal if low <= b <= high]
    return near or [nearest_bid(expected, legal)]


def bid_values(
    game: Wizard,
    state: WizardState,
    seat: int,
    rng: Rng,
    sims: int,
    candidates: Sequence[int],
    noise: Noise,
    prior: float = 0.0,
    duck: float = 0.0,
    own: float = 0.0,
    gate: float = 0.0,
    upward: bool = False,
    read_gate: float = 0.0,
    own_weight: float = 1.0,
    hand_ref: bool = False,
    lean: float = 0.0,
    cap: float = 0.0,
    grab: bool = False,
    grab_gate: float = 0.0,
) -> dict[int, float]:
    """The mean round points of each candidate bid of ``seat``, over the same worlds.

    ``state`` is in the bidding phase. In each world (from ``sample_world``) the seats before
    ``seat`` bid as the simple bot would, then ``seat`` bids each candidate in turn (a
    candidate the even-bid rule forbids in that world is replaced by its neighbour), the
    seats after it bid, and the round is played out with the play policy, with the same random
    choices for every candidate. ``seat``'s simulated tricks then move by its own excess in this
    game (:func:`own_excess`, ``own`` its prior in cards, ``upward`` as there) times the
    round's hand size and ``own_weight`` (:func:`own_weight`). ``duck``, ``gate`` and
    ``read_gate``: the ducker mixture of :func:`duck_odds`; with a ``read_gate``, only the
    seats' own choices open it (not the seat's own rows). ``hand_ref`` and ``lean``: as in
    :func:`tendencies`. ``grab``: every other seat is played as a grabber (:func:`heuristic_card`);
    with a ``grab_gate``, only those :func:`grab_seats` reads so.
    """
    totals = dict.fromkeys(candidates, 0.0)
    worlds = max(1, sims // len(candidates))
    progress = CURRENT_PROGRESS.get()
    source = BidWorlds(game, state, seat, tendencies(state, seat, prior, hand_ref, lean, cap))
    odds = duck_odds(state, seat, duck, gate, read_gate, table=read_gate <= 0.0)
    n = state.players
    shift = own_excess(state, seat, own, upward) * own_weight * state.round
    grabbers = 0
    if grab:
        everyone = ((1 << n) - 1) & ~(1 << seat)
        grabbers = grab_seats(state, seat, grab_gate) if grab_gate > 0.0 else everyone
    for done in range(1, worlds + 1):
        base, legal, world = source.world(rng)
        base.shift = mixed_shift(base.shift, odds, rng)
        playout_seed = rng.next_u64()
        expected = [number_estimate(hand, state.trump, n) for hand in base.hands]
        free = {  # each later seat's bid if nothing is forbidden to it: one for all candidates
            s: nearest_bid(expected[s], range(state.round + 1))
            for s, made in enumerate(world.bids)
            if made is None and s != seat
        }
        for bid in candidates:
            sim = base.copy()
            made = bid if bid in legal else min(legal, key=lambda b: (abs(b - bid), -b))
            sim.bids = later_bids(game, world, seat, made, base.bids, expected, free)
            play_out(sim, random.Random(playout_seed), noise, grabbers)
            totals[bid] += shifted_points(sim.bids[seat], sim.won[seat], shift, state.round)
        if progress is not None and (done % 10 == 0 or done == worlds):
            progress(done, worlds)
    return {bid: total / worlds for bid, total in totals.items()}


def number_estimate(hand: Sequence[int], trump: str | None, players: int) -> float:
    """``estimate_tricks`` of a hand of card numbers (the same sum, card by card, in order)."""
    row = estimate_row(trump, players, len(hand))
    return sum(row[card] for card in hand)


class BidWorlds:
    """The worlds of :func:`bid_values` for ``seat``, whose bid comes next in every one.

    :meth:`world` gives a world as a :class:`Round` (with ``guess_bids``), the legal bids of
    ``seat`` in it and a state with the world's bids for :func:`later_bids`. When ``seat`` is
    to bid in ``state`` (a bid), nobody bids before it in a world: the worlds differ from
    ``state`` only in the hands and the hidden bids, so only those are drawn
    (``draw_numbers``, with the draws of ``sample_world``), and ``state`` serves
    ``later_bids``, which reads of it only what the seat sees (who has bid; the bids
    themselves only under the even-bid rule, which needs open bids). Before a trump choice,
    the seats before the dealer bid as the simple bot in each world, on whole states.
    """

    def __init__(
        self, game: Wizard, state: WizardState, seat: int, shift: list[float] | None = None
    ) -> None:
        self.game = game
        self.shift = shift  # the other seats' tendencies (``Round.shift``)
        self.state = state
        self.seat = seat
        self.hidden = hidden_bidders(game, state, seat)
        self.sampler = WorldSampler(game, state, seat)  # sample_world, its fixed part once
        self.ahead = game.to_move(state) != seat  # seats to bid before ``seat``
        self.legal = [int(m.value) for m in game.legal_moves(state, seat)]
        self.own = [CARD_NUMBER[c] for c in state.hands[seat]]  # (never changed: Round copies)

    def world(self, rng: Rng) -> tuple[Round, list[int], WizardState]:
        """The next world: its Round, the legal bids of ``seat``, a state for later_bids."""
        game, state, seat = self.game, self.state, self.seat
        if self.ahead:
            # (nothing here reads the order of the world's stock)
            world = heuristic_bids(game, self.sampler.world(rng, shuffle_stock=False), seat)
            legal = [int(m.value) for m in game.legal_moves(world, seat)]
            base = round_from_state(world)
            base.bids = guess_bids(world, self.hidden)
            base.shift = self.shift
            return base, legal, world
        dealt, world_bids = self.sampler.draw_numbers(rng)
        hands = [self.own if s == seat else dealt[s] for s in range(state.players)]
        bids = [int(bid or 0) for bid in world_bids]  # guess_bids, on numbers
        for s in self.hidden:  # (no card is played yet: the hand is the round's)
            expected = number_estimate(dealt[s], state.trump, state.players)
            bids[s] = nearest_bid(expected, range(state.round + 1))
        base = Round(trump_number(state.trump), hands, bids, list(state.tricks), state.leader)
        base.shift = self.shift
        return base, self.legal, state


def later_bids(
    game: Wizard,
    world: WizardState,
    seat: int,
    bid: int,
    bids: Sequence[int],
    expected: Sequence[float] | None = None,
    free: dict[int, int] | None = None,
) -> list[int]:
    """All bids once ``seat`` bids ``bid`` and the seats after it bid as the simple bot.

    Only the dealer (the last to bid) can be restricted by the even-bid rule; the engine's
    ``forbidden_bid`` says which bid it may not make. ``expected`` may give every seat's
    ``estimate_tricks`` in ``world``, and ``free`` the later seats' bids when nothing is
    forbidden (``nearest_bid`` of the estimate among all bids), when the caller has them
    already: neither depends on ``bid``.
    """
    out = list(bids)
    out[seat] = bid
    n = world.players
    made: list[int | None] = list(world.bids)
    made[seat] = bid
    restricted = world.option["even_bid_restriction"] != "NONE"  # else nothing is forbidden
    for k in range(1, n):
        other = (seat + k) % n
        if made[other] is not None:
            break
        estimate = (
            expected[other]
            if expected is not None
            else estimate_tricks(world.hands[other], world.trump, n)
        )
        choices: Sequence[int] = range(world.round + 1)
        if other == world.dealer and restricted:
            forbidden = game.forbidden_bid(replace(world, bids=tuple(made)), other)
            choices = [b for b in choices if b != forbidden]
        elif free is not None:
            out[other] = made[other] = free[other]
            continue
        out[other] = made[other] = nearest_bid(estimate, choices)
    return out


def level_candidates(
    level: Level,
    state: WizardState,
    seat: int,
    expected: float,
    legal: Sequence[int],
    weights: Weights,
) -> list[int]:
    """:func:`bid_candidates` for ``level``: reaching toward the seat's own excess (less what
    the wild ``weights`` take off: :func:`own_weight`) by ``Level.bid_reach`` of it,
    ``Level.bid_width`` either side, and ``Level.bid_up`` higher once the score sheet favours
    duckers (:func:`duck_odds` with the gate: with a read gate, at least
    ``Level.bid_up_seats`` seats' own choices) and the own excess per card is above
    ``Level.bid_up_gate``."""
    excess = own_excess(state, seat, level.own, level.own_up) * own_weight(level, seat, weights)
    reach = level.bid_reach * excess * state.round
    up = 0.0
    if level.bid_up and excess > level.bid_up_gate:
        odds = duck_odds(
            state, seat, level.duck, level.duck_gate, level.read_gate, level.read_gate <= 0.0
        )
        if odds is not None and sum(p > 0.0 for p in odds) >= level.bid_up_seats:
            up = level.bid_up
    return bid_candidates(expected, legal, reach, level.bid_width, up)


def level_bid_values(
    level: Level,
    game: Wizard,
    state: WizardState,
    seat: int,
    rng: Rng,
    sims: int,
    candidates: Sequence[int],
    weights: Weights,
) -> dict[int, float]:
    """:func:`bid_values` with ``level``'s knobs and the seats' wild ``weights``."""
    return bid_values(
        game,
        state,
        seat,
        rng,
        sims,
        candidates,
        seat_noise(level, weights),
        level.prior if level.tend_bids else 0.0,
        level.duck_bid,
        level.own,
        level.duck_gate,
        level.own_up,
        level.read_gate,
        own_weight(level, seat, weights),
        level.tend_hand,
        level.tend_lean,
        level.tend_cap,
        level.bid_grab,
        level.bid_grab_gate,
    )


def choose_bid(
    game: Wizard, state: WizardState, seat: int, rng: Rng, level: Level
) -> tuple[Move, dict[int, float]]:
    """The legal bid with the best expected points, and the value of every candidate."""
    legal = [int(m.value) for m in game.legal_moves(state, seat)]
    expected = estimate_tricks(state.hands[seat], state.trump, state.players)
    weights = wild_weights(state, seat, level)
    candidates = level_candidates(level, state, seat, expected, legal, weights)
    if len(candidates) == 1:
        return Move("bid", candidates[0]), {candidates[0]: 0.0}
    sims = scaled(level.bid_sims)
    values = level_bid_values(level, game, state, seat, rng, sims, candidates, weights)
    best = max(candidates, key=lambda b: (values[b], -abs(b - expected), -b))
    return Move("bid", best), values


def choose_trump(
    game: Wizard, state: WizardState, seat: int, rng: Rng, level: Level
) -> tuple[Move, dict[str, float]]:
    """The suit whose best bid promises the dealer the most points, and every suit's value.

    Every suit is tried on the same worlds (common random numbers), so the comparison is fair.
    """
    values: dict[str, float] = {}
    sims = max(1, scaled(level.bid_sims) // len(SUITS))
    seed = rng.next_u64()
    outer = CURRENT_PROGRESS.get()
    weights = wild_weights(state, seat, level)  # the score sheet's: the same for every suit
    for i, suit in enumerate(SUITS):
        chosen = game.play(state, seat, Move("trump", suit))
        expected = estimate_tricks(state.hands[seat], suit, state.players)
        bids = range(state.round + 1)
        candidates = level_candidates(level, state, seat, expected, bids, weights)
        with reporting_progress(suit_progress(outer, i)):
            by_bid = level_bid_values(
                level, game, chosen, seat, Rng(seed), sims, candidates, weights
            )
        values[suit] = max(by_bid.values())
    best = max(SUITS, key=lambda s: (values[s], -SUITS.index(s)))
    return Move("trump", best), values


def suit_progress(outer: Progress | None, index: int) -> Progress | None:
    """Progress of the ``index``-th suit's simulations as a part of the whole trump choice."""
    if outer is None:
        return None
    report = outer

    def progress(done: int, total: int) -> None:
        report(index * total + done, len(SUITS) * total)

    return progress


# -- the bots ---------------------------------------------------------------------------------


def search_bot(level: Level) -> Any:
    """A bot ``(game, state, seat, rng) -> Move`` for a search level."""

    def bot(game: Wizard, state: WizardState, seat: int, rng: Rng) -> Move:
        return decide(game, state, seat, rng, level)[0]

    return bot


def decide(
    game: Wizard, state: WizardState, seat: int, rng: Rng, level: Level
) -> tuple[Move, dict[str, float]]:
    """The move of a search level and what it thought of each option (for hints)."""
    if state.phase == "trump":
        return choose_trump(game, state, seat, rng, level)
    if state.phase == "bid":
        move, by_bid = choose_bid(game, state, seat, rng, level)
        return move, {f"bid {b}": v for b, v in by_bid.items()}
    moves = game.legal_moves(state, seat)
    if len(moves) == 1:
        return moves[0], {}
    move, stats = card_values(game, state, seat, rng, level)
    return move, {f"play {card}": mean for card, _visits, mean in stats}


def easy_bot(game: Wizard, state: WizardState, seat: int, rng: Rng) -> Move:
    """The simple bot with noise: a bid one off a third of the time, a random card a fifth."""
    move = simple_bot(game, state, seat, rng)
    legal = game.legal_moves(state, seat)
    if move.kind == "bid" and rng.random() < 0.33:
        shifted = int(move.value) + (1 if rng.random() < 0.5 else -1)
        if Move("bid", shifted) in legal:
            return Move("bid", shifted)
    if move.kind == "play" and rng.random() < 0.2:
        return rng.choice(legal)
    return move


normal_bot = search_bot(LEVELS["normal"])
hard_bot = search_bot(LEVELS["hard"])


# -- the human's hint --------------------------------------------------------------------------

HINT_LEVEL = "normal"


def hint(game: Wizard, state: WizardState, seat: int) -> dict[str, Any]:
    """The normal level's move for ``seat``, with the figures behind it, for the page to show.

    ``{move, level, expected_points?, expected_tricks?, only_move?}``: ``expected_points`` is
    the mean round points of the move in the search's simulations (a bid's or a trump suit's
    simulated rounds, a card's ISMCTS mean; left out when there was nothing to compare),
    ``expected_tricks`` the hand's trick estimate (bids only), ``only_move`` says the move was
    the only legal one. It decides exactly as the normal bot does, from the seat's view, with a
    seed fixed by the seat and the round: the same view always gets the same hint.
    """
    level = LEVELS[HINT_LEVEL]
    rng = Rng.derive("hint", game.id, seat, state.round)
    legal = game.legal_moves(state, seat)
    out: dict[str, Any] = {"level": HINT_LEVEL}
    if state.phase == "bid":
        out["expected_tricks"] = round(
            estimate_tricks(state.hands[seat], state.trump, state.players), 1
        )
    if len(legal) == 1:
        out.update(move=game.move_to_json(legal[0]), only_move=True)
        return out
    if state.phase == "trump":
        move, by_suit = choose_trump(game, state, seat, rng, level)
        out["expected_points"] = round(by_suit[str(move.value)], 1)
    elif state.phase == "bid":
        move, by_bid = choose_bid(game, state, seat, rng, level)
        if len(by_bid) > 1:  # a single candidate is not simulated
            out["expected_points"] = round(by_bid[int(move.value)], 1)
    else:
        move, stats = card_values(game, state, seat, rng, level)
        mean = next(m for card, _visits, m in stats if card == move.value)
        # WizardDomain's reward is round points / (10 * (round + 2)): the normal level has no spite
        out["expected_points"] = round(mean * 10.0 * (state.round + 2), 1)
    out["move"] = game.move_to_json(move)
    return out
