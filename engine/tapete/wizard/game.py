"""Wizard ("Mago"): the rules of SPEC.md section 2 as a :class:`tapete.core.Game`.

Glossary:

round      round r deals r cards to each player; a game has 60/N rounds (20, 15, 12, 10)
dealer     deals round r; the deal passes left each round. The first dealer is the high card
           of a one-card draw (ties redraw) or random, by the ``first_dealer`` option
trump card the card turned up after the deal: a suit card sets trump, a Jester means no trump,
           a Wizard lets the dealer choose a suit; the last round has no card and no trump
bid        the number of tricks a player says they will take, 0..r, made clockwise from the
           dealer's left (the dealer bids last)
trick      one card from each player, clockwise from the leader; the winner leads the next one
phase      "trump" (the dealer chooses a suit), "bid", "play" or "over"
history    one row per finished round: bids, tricks, points and running totals (the score sheet)
choice     a card a seat followed with (not led) while it held both a legal card that would win
           the trick as it stood and one that would not. Every hand of a round is public once
           the round is over: the score sheet counts each seat's choices while it needed tricks
           (``chances``) and how many it ducked (``ducked``), those of them it had as the
           trick's last card, when it knew what its card would do (``last_chances``,
           ``last_ducked``), and its choices once it had its bid (``spares``) and how many it
           took all the same (``took``; :func:`choices`); and each seat's cards, in the
           order played (``cards``)

Moves have a text form, which is also their JSON: ``bid 2``, ``play R13``, ``trump B``.
Every deal derives from the seed and the round number alone (``Rng.derive``), so the same link
deals the same cards in every round whatever happened before.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from ..bots import BotFn
from ..core import (
    Game,
    OptionSpec,
    Outcome,
    card_list,
    card_lists,
    get_field,
    int_field,
    int_list,
    read_state_header,
    require,
    state_header,
)
from ..errors import BadOptionError, IllegalMoveError, InvalidMoveError, describe
from ..numbers import whole_text
from ..rng import Rng
from .cards import (
    DECK,
    DECK_NUMBER,
    DECK_SET,
    SUITS,
    is_jester,
    is_wizard,
    legal_cards,
    rank_of,
    suit_of,
    trick_winner,
)

PHASES = ("trump", "bid", "play", "over")

BIDDING_MODES = ("OPEN_SEQUENTIAL", "HIDDEN_SIMULTANEOUS", "DELAYED_REVEAL")
EVEN_BID_RULES = ("NONE", "LEADER_DEALER_ONLY", "ALWAYS_DEALER", "DEALER_IF_TRICKS_GE_4")

OPTIONS = (
    OptionSpec("bidding_mode", "OPEN_SEQUENTIAL", choices=BIDDING_MODES),
    OptionSpec(
        "even_bid_restriction",
        "NONE",
        choices=EVEN_BID_RULES,
        applies_when=("bidding_mode", ("OPEN_SEQUENTIAL",)),
    ),
    OptionSpec("first_dealer", "HIGH_CARD", choices=("HIGH_CARD", "RANDOM")),
    OptionSpec("tiebreak", "NONE", choices=("NONE", "SUM_OF_BIDS")),
)

Play = tuple[int, str]  # (seat, card)
HintFn = Callable[[Any, Any, int], dict[str, Any]]  # (game, state, seat) -> hint
T = TypeVar("T")  # a card, as its text code or as a number


@dataclass(frozen=True)
class Move:
    """``bid 2``, ``play R13`` or ``trump B``."""

    kind: str
    value: int | str

    def text(self) -> str:
        return f"{self.kind} {self.value}"

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True)
class RoundRecord:
    """One row of the score sheet."""

    round: int
    dealer: int
    trump: str | None
    trump_card: str | None
    bids: tuple[int, ...]
    tricks: tuple[int, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]
    # per seat: its choices (glossary) while it still needed tricks for its bid, and how many
    # of those it ducked (:func:`choices`); rows saved before these were counted read as
    # zeros (no chances: no evidence)
    chances: tuple[int, ...] = ()
    ducked: tuple[int, ...] = ()
    # per seat: its choices once it had its bid's tricks (or bid 0), and how many of those it
    # took all the same, playing a card that won the trick as it stood (:func:`choices`)
    spares: tuple[int, ...] = ()
    took: tuple[int, ...] = ()
    # per seat: of its ``chances``, those it had as the trick's last card, and how many of
    # those it ducked (:func:`choices`)
    last_chances: tuple[int, ...] = ()
    last_ducked: tuple[int, ...] = ()
    # per seat: the cards it played in the round, in order (its hand as dealt, public once the
    # round is over); rows saved before they were kept: ()
    cards: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True)
class WizardState:
    seed: str
    players: int
    options: tuple[tuple[str, Any], ...]
    first_dealer: int
    first_dealer_draws: tuple[tuple[Play, ...], ...]
    round: int
    dealer: int
    phase: str
    hands: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...]
    trump_card: str | None
    trump: str | None
    bids: tuple[int | None, ...]
    tricks: tuple[int, ...]
    leader: int
    trick: tuple[Play, ...]
    played: tuple[tuple[Play, ...], ...]
    last_trick: tuple[Play, ...]
    last_winner: int | None
    scores: tuple[int, ...]
    history: tuple[RoundRecord, ...]

    @property
    def option(self) -> dict[str, Any]:
        return dict(self.options)

    @property
    def rounds(self) -> int:
        return len(DECK) // self.players


def round_points(bid: int, won: int) -> int:
    """20 + 10 per trick for an exact bid, else -10 per trick off."""
    return 20 + 10 * won if bid == won else -10 * abs(won - bid)


Counts = tuple[int, ...]  # one count per seat


def choices(
    tricks: Sequence[Sequence[Play]], bids: Sequence[int], trump: str | None, players: int
) -> tuple[Counts, Counts, Counts, Counts, Counts, Counts]:
    """A finished round's ``chances``, ``ducked``, ``spares``, ``took``, ``last_chances`` and
    ``last_ducked`` per seat (:class:`RoundRecord`), in that order: its choices (glossary)
    while it still needed tricks for its bid, and how many of those it ducked, playing a card
    that did not win the trick as it stood; its choices once it had the tricks it bid, and how
    many of those it took all the same; and of the first, those it had as the trick's last
    card, and how many of those it ducked.

    ``tricks`` are every trick of the round in order, so each seat's hand at each of its turns
    is the cards it played from then on: public once the round is over, whatever the bidding
    mode (the bids too are shown by then).
    """
    hands = [list(hand) for hand in round_cards(tricks, players)]
    chances, ducked, won = [0] * players, [0] * players, [0] * players
    spares, took = [0] * players, [0] * players
    last_chances, last_ducked = [0] * players, [0] * players
    for trick in tricks:
        cards: list[str] = []
        for seat, card in trick:
            if cards:
                wins = [
                    trick_winner([*cards, c], trump) == len(cards)
                    for c in legal_cards(hands[seat], cards)
                ]
                if any(wins) and not all(wins):
                    taken = trick_winner([*cards, card], trump) == len(cards)
                    if won[seat] < bids[seat]:
                        chances[seat] += 1
                        ducked[seat] += not taken
                        if len(cards) == players - 1:
                            last_chances[seat] += 1
                            last_ducked[seat] += not taken
                    else:
                        spares[seat] += 1
                        took[seat] += taken
            hands[seat].remove(card)
            cards.append(card)
        won[trick[trick_winner(cards, trump)][0]] += 1
    return (
        tuple(chances),
        tuple(ducked),
        tuple(spares),
        tuple(took),
        tuple(last_chances),
        tuple(last_ducked),
    )


def round_cards(tricks: Sequence[Sequence[Play]], players: int) -> tuple[tuple[str, ...], ...]:
    """Each seat's cards in a finished round's ``tricks``, in the order it played them."""
    hands: list[list[str]] = [[] for _ in range(players)]
    for trick in tricks:
        for seat, card in trick:
            hands[seat].append(card)
    return tuple(map(tuple, hands))


def draw_first_dealer(seed: str, players: int) -> tuple[int, tuple[tuple[Play, ...], ...]]:
    """The high card deals: W > 13 > ... > 1 > Jester; the seats tied for highest redraw."""
    contenders = list(range(players))
    draws: list[tuple[Play, ...]] = []
    attempt = 0
    while True:
        deck = Rng.derive("wizard", seed, "first_dealer", attempt).shuffled(DECK)
        draw = tuple((seat, deck[i]) for i, seat in enumerate(contenders))
        draws.append(draw)
        best = max(rank_of(card) for _, card in draw)
        contenders = [seat for seat, card in draw if rank_of(card) == best]
        if len(contenders) == 1:
            return contenders[0], tuple(draws)
        attempt += 1


def first_dealer_of(
    seed: str, options: Mapping[str, Any], players: int
) -> tuple[int, tuple[tuple[Play, ...], ...]]:
    """The first dealer and the draws that chose them: both follow from the seed."""
    if options["first_dealer"] == "RANDOM":
        return Rng.derive("wizard", seed, "first_dealer").below(players), ()
    return draw_first_dealer(seed, players)


class Wizard(Game[WizardState, Move]):
    id = "wizard"
    min_players = 3
    max_players = 6
    default_players = 4
    options_spec = OPTIONS
    # weakest first, as the new-game screen lists them: "easy" wins 12% of its games against
    # three "heuristic" bots (shown as "basic"; BENCHMARKS.md, Wizard bots)
    bot_levels = ("random", "easy", "heuristic", "normal", "hard")
    cards_total = len(DECK)
    past_view_keys = ("history", "first_dealer_draws", "last_trick")  # may be last round's

    def __init__(
        self, bots: Mapping[str, BotFn] | None = None, hinter: HintFn | None = None
    ) -> None:
        """The rules; ``bots`` (level -> bot) and ``hinter`` are given by the caller: the bots
        import this module, so it imports none of them (``levels.GAME`` is the served game)."""
        self.bots = dict(bots or {})
        self.hinter = hinter

    # -- options and setup -------------------------------------------------------------------

    def validate_options(self, options: Mapping[str, Any]) -> None:
        if (
            options["bidding_mode"] != "OPEN_SEQUENTIAL"
            and options["even_bid_restriction"] != "NONE"
        ):
            raise BadOptionError(
                "the even-bid restriction needs open bids: with "
                f"{options['bidding_mode']} the dealer cannot know the others' total",
                option="even_bid_restriction",
            )

    def setup(self, seed: str, options: dict[str, Any], players: int) -> WizardState:
        first, draws = first_dealer_of(seed, options, players)
        empty = WizardState(
            seed=seed,
            players=players,
            options=tuple(sorted(options.items())),
            first_dealer=first,
            first_dealer_draws=draws,
            round=0,
            dealer=first,
            phase="bid",
            hands=(),
            stock=(),
            trump_card=None,
            trump=None,
            bids=(),
            tricks=(),
            leader=0,
            trick=(),
            played=(),
            last_trick=(),
            last_winner=None,
            scores=(0,) * players,
            history=(),
        )
        return self.deal_round(empty, 1)

    def deal_round(self, state: WizardState, number: int) -> WizardState:
        """Round ``number``: shuffle from the seed, deal from the dealer's left, turn trump."""
        n = state.players
        dealer = (state.first_dealer + number - 1) % n
        deck = Rng.derive("wizard", state.seed, "round", number).shuffled(DECK)
        hands: list[list[str]] = [[] for _ in range(n)]
        for i in range(number * n):
            hands[(dealer + 1 + i) % n].append(deck[i])
        rest = deck[number * n :]
        trump_card = rest[0] if rest else None
        trump = suit_of(trump_card) if trump_card is not None else None
        phase = "trump" if trump_card is not None and is_wizard(trump_card) else "bid"
        return replace(
            state,
            round=number,
            dealer=dealer,
            phase=phase,
            hands=tuple(tuple(hand) for hand in hands),
            stock=tuple(rest[1:]),
            trump_card=trump_card,
            trump=trump,
            bids=(None,) * n,
            tricks=(0,) * n,
            leader=(dealer + 1) % n,
            trick=(),
            played=(),
        )

    # -- turn structure ----------------------------------------------------------------------

    def players(self, state: WizardState) -> int:
        return state.players

    def to_move(self, state: WizardState) -> int | None:
        n = state.players
        if state.phase == "over":
            return None
        if state.phase == "trump":
            return state.dealer
        if state.phase == "bid":
            made = sum(bid is not None for bid in state.bids)
            return (state.dealer + 1 + made) % n
        return (state.leader + len(state.trick)) % n

    def forbidden_bid(self, state: WizardState, seat: int) -> int | None:
        """The bid the even-bid restriction forbids ``seat`` now, if any."""
        rule = state.option["even_bid_restriction"]
        if rule == "NONE" or seat != state.dealer:
            return None
        if rule == "LEADER_DEALER_ONLY":
            others = [score for s, score in enumerate(state.scores) if s != seat]
            if not all(state.scores[seat] > score for score in others):
                return None
        if rule == "DEALER_IF_TRICKS_GE_4" and state.round < 4:
            return None
        forbidden = state.round - sum(bid for bid in state.bids if bid is not None)
        return forbidden if 0 <= forbidden <= state.round else None

    def moves(self, state: WizardState, seat: int) -> list[Move]:
        if state.phase == "trump":
            return [Move("trump", suit) for suit in SUITS]
        if state.phase == "bid":
            forbidden = self.forbidden_bid(state, seat)
            return [Move("bid", b) for b in range(state.round + 1) if b != forbidden]
        trick = [card for _, card in state.trick]
        return [Move("play", card) for card in legal_cards(state.hands[seat], trick)]

    def check_move(self, state: WizardState, seat: int, move: Move) -> None:
        if move.kind == "trump":
            if state.phase != "trump":
                raise IllegalMoveError(
                    "not_choosing_trump", "trump is chosen only after a Wizard is turned up"
                )
            return
        if state.phase == "trump":
            raise IllegalMoveError(
                "must_choose_trump", "a Wizard was turned up: the dealer must choose trump first"
            )
        if move.kind == "bid":
            self.check_bid(state, seat, move)
        else:
            self.check_play(state, seat, move)

    def check_bid(self, state: WizardState, seat: int, move: Move) -> None:
        if state.phase != "bid":
            raise IllegalMoveError("not_bidding", "bidding is over for this round")
        bid = int(move.value)
        if not 0 <= bid <= state.round:
            raise IllegalMoveError(
                "bad_bid",
                f"a bid in round {state.round} is 0 to {state.round}; got {bid}",
                max=state.round,
            )
        forbidden = self.forbidden_bid(state, seat)
        if bid == forbidden:
            raise IllegalMoveError(
                "even_bid",
                f"the dealer may not bid {bid}: the bids would add up to the {state.round} "
                "tricks of the round",
                forbidden=bid,
            )

    def check_play(self, state: WizardState, seat: int, move: Move) -> None:
        if state.phase != "play":
            raise IllegalMoveError("not_playing", "cards are played after the bids")
        card = str(move.value)
        hand = state.hands[seat]
        if card not in hand:
            raise IllegalMoveError("not_in_hand", f"{card} is not in your hand", card=card)
        trick = [c for _, c in state.trick]
        if card not in legal_cards(hand, trick):
            led = next(suit_of(c) for c in trick if not is_jester(c))
            raise IllegalMoveError(
                "must_follow_suit",
                f"you hold {led}: you must follow suit (or play a Wizard or a Jester), not {card}",
                suit=led,
                card=card,
            )

    def play(self, state: WizardState, seat: int, move: Move) -> WizardState:
        if move.kind == "trump":
            return replace(state, trump=str(move.value), phase="bid")
        if move.kind == "bid":
            bids = list(state.bids)
            bids[seat] = int(move.value)
            phase = "play" if all(bid is not None for bid in bids) else "bid"
            return replace(state, bids=tuple(bids), phase=phase)
        return self.play_card(state, seat, str(move.value))

    def play_card(self, state: WizardState, seat: int, card: str) -> WizardState:
        hands = list(state.hands)
        hands[seat] = tuple(c for c in hands[seat] if c != card)
        trick = state.trick + ((seat, card),)
        state = replace(state, hands=tuple(hands), trick=trick)
        if len(trick) < state.players:
            return state
        winner = trick[trick_winner([c for _, c in trick], state.trump)][0]
        tricks = list(state.tricks)
        tricks[winner] += 1
        state = replace(
            state,
            tricks=tuple(tricks),
            trick=(),
            played=state.played + (trick,),
            last_trick=trick,
            last_winner=winner,
            leader=winner,
        )
        if any(state.hands):
            return state
        return self.finish_round(state)

    def finish_round(self, state: WizardState) -> WizardState:
        bids = tuple(int(bid or 0) for bid in state.bids)
        points = tuple(round_points(b, k) for b, k in zip(bids, state.tricks, strict=True))
        totals = tuple(s + p for s, p in zip(state.scores, points, strict=True))
        record = RoundRecord(
            state.round,
            state.dealer,
            state.trump,
            state.trump_card,
            bids,
            state.tricks,
            points,
            totals,
            *choices(state.played, bids, state.trump, state.players),
            cards=round_cards(state.played, state.players),
        )
        state = replace(state, scores=totals, history=state.history + (record,))
        if state.round == state.rounds:
            return replace(state, phase="over")
        return self.deal_round(state, state.round + 1)

    # -- results -----------------------------------------------------------------------------

    def outcome(self, state: WizardState) -> Outcome | None:
        if state.phase != "over":
            return None
        best = max(state.scores)
        winners = [seat for seat, score in enumerate(state.scores) if score == best]
        bid_sums = [sum(row.bids[seat] for row in state.history) for seat in range(state.players)]
        if state.option["tiebreak"] == "SUM_OF_BIDS" and len(winners) > 1:
            most = max(bid_sums[seat] for seat in winners)
            winners = [seat for seat in winners if bid_sums[seat] == most]
        return Outcome(
            scores=tuple(float(s) for s in state.scores),
            winners=tuple(winners),
            detail={"bid_sums": bid_sums},
        )

    # -- views -------------------------------------------------------------------------------

    def bids_visible_to(self, state: WizardState, seat: int | None) -> list[int | None]:
        mode = state.option["bidding_mode"]
        hidden = (mode == "HIDDEN_SIMULTANEOUS" and state.phase == "bid") or (
            mode == "DELAYED_REVEAL" and state.phase != "over"
        )
        if not hidden:
            return list(state.bids)
        return [bid if s == seat else None for s, bid in enumerate(state.bids)]

    def view(self, state: WizardState, seat: int | None) -> dict[str, Any]:
        def plays(trick: Sequence[Play]) -> list[dict[str, Any]]:
            return [{"seat": s, "card": c} for s, c in trick]

        return {
            "game": self.id,
            "players": state.players,
            "seat": seat,
            "round": state.round,
            "rounds": state.rounds,
            "dealer": state.dealer,
            "phase": state.phase,
            "to_move": self.to_move(state),
            "trump_card": state.trump_card,
            "trump": state.trump,
            "hand": list(state.hands[seat]) if seat is not None else [],
            "hand_sizes": [len(hand) for hand in state.hands],
            "bids": self.bids_visible_to(state, seat),
            "has_bid": [bid is not None for bid in state.bids],
            "tricks_won": list(state.tricks),
            "leader": state.leader,
            "trick": plays(state.trick),
            "played": [plays(trick) for trick in state.played],
            "last_trick": (
                {"cards": plays(state.last_trick), "winner": state.last_winner}
                if state.last_trick
                else None
            ),
            "scores": list(state.scores),
            "history": [record_to_json(row) for row in state.history],
            "first_dealer": state.first_dealer,
            "first_dealer_draws": [plays(draw) for draw in state.first_dealer_draws],
            "options": state.option,
        }

    def hint(self, state: WizardState, seat: int) -> dict[str, Any]:
        """The ``hinter``'s answer (``levels.GAME``: the normal bot's move with its expected
        points, and tricks for a bid); without one, the base class's hint."""
        if self.hinter is None:
            return super().hint(state, seat)
        self.check_turn(state, seat)
        return self.hinter(self, state, seat)

    def hidden_cards(self, state: WizardState, seat: int | None) -> list[str]:
        others = [c for s, hand in enumerate(state.hands) if s != seat for c in hand]
        return others + list(state.stock)

    def seat_cards(self, state: WizardState) -> list[str]:
        cards = [c for hand in state.hands for c in hand] + list(state.stock)
        cards += [c for trick in state.played for _, c in trick] + [c for _, c in state.trick]
        if state.trump_card is not None:
            cards.append(state.trump_card)
        return cards

    # -- determinization ---------------------------------------------------------------------

    def voids(self, state: WizardState) -> list[set[str]]:
        """Suits each seat has shown it lacks this round (it did not follow them)."""
        out: list[set[str]] = [set() for _ in range(state.players)]
        for trick in (*state.played, state.trick):
            cards: list[str] = []
            for seat, card in trick:
                led = next((suit_of(c) for c in cards if not is_jester(c)), None)
                if led is not None and suit_of(card) not in (led, None):
                    out[seat].add(led)
                cards.append(card)
        return out

    def sample_world(self, state: WizardState, seat: int, rng: Rng) -> WizardState:
        """Re-deal the cards ``seat`` cannot see, respecting shown voids; hidden bids guessed."""
        if state.phase == "over":
            return state
        return WorldSampler(self, state, seat).world(rng)

    # -- JSON --------------------------------------------------------------------------------

    def parse_move(self, data: Any) -> Move:
        if not isinstance(data, str) or len(data) > 20:
            raise InvalidMoveError(f"a Wizard move is text like 'bid 2'; got {describe(data)}")
        parts = data.split()
        if len(parts) != 2 or parts[0] not in ("bid", "play", "trump"):
            raise InvalidMoveError(
                f"a Wizard move is 'bid N', 'play CARD' or 'trump SUIT'; got {describe(data)}"
            )
        kind, value = parts
        if kind == "bid":
            bid = whole_text(value, 0, len(DECK))
            if bid is None or value.startswith("-"):
                raise InvalidMoveError(f"a bid is a whole number; got {describe(value)}")
            return Move("bid", bid)
        if kind == "play":
            if value not in DECK_SET:
                raise InvalidMoveError(f"not a Wizard card: {describe(value)}", card=value[:12])
            return Move("play", value)
        if value not in SUITS:
            raise InvalidMoveError(f"trump is a suit R, B, G or Y; got {describe(value)}")
        return Move("trump", value)

    def move_to_json(self, move: Move) -> str:
        return move.text()

    def to_json(self, state: WizardState) -> dict[str, Any]:
        return {
            **state_header(state.seed, state.players, state.option),
            "first_dealer": state.first_dealer,
            "first_dealer_draws": [[list(p) for p in draw] for draw in state.first_dealer_draws],
            "round": state.round,
            "dealer": state.dealer,
            "phase": state.phase,
            "hands": [list(hand) for hand in state.hands],
            "stock": list(state.stock),
            "trump_card": state.trump_card,
            "trump": state.trump,
            "bids": list(state.bids),
            "tricks": list(state.tricks),
            "leader": state.leader,
            "trick": [list(p) for p in state.trick],
            "played": [[list(p) for p in trick] for trick in state.played],
            "last_trick": [list(p) for p in state.last_trick],
            "last_winner": state.last_winner,
            "scores": list(state.scores),
            "history": [record_to_json(row) for row in state.history],
        }

    def from_json(self, data: Any) -> WizardState:
        return StateReader(self, data).read()


def record_to_json(row: RoundRecord) -> dict[str, Any]:
    return {
        "round": row.round,
        "dealer": row.dealer,
        "trump": row.trump,
        "trump_card": row.trump_card,
        "bids": list(row.bids),
        "tricks": list(row.tricks),
        "points": list(row.points),
        "totals": list(row.totals),
        "chances": list(row.chances or (0,) * len(row.bids)),
        "ducked": list(row.ducked or (0,) * len(row.bids)),
        "spares": list(row.spares or (0,) * len(row.bids)),
        "took": list(row.took or (0,) * len(row.bids)),
        "last_chances": list(row.last_chances or (0,) * len(row.bids)),
        "last_ducked": list(row.last_ducked or (0,) * len(row.bids)),
        **({"cards": [list(hand) for hand in row.cards]} if row.cards else {}),
    }


class WorldSampler:
    """``sample_world`` for one state and seat, with the work no draw changes done once.

    A search draws hundreds of worlds from one information set: the cards the seat has not
    seen, the cards each other seat cannot hold (its shown voids) and the seats whose bids it
    cannot see are the same in every one. :meth:`world` is ``sample_world``; :meth:`draw` makes
    exactly the same draws but returns only the other seats' hands and the bids, for a caller
    that has no use for a whole state (the AI's simulator).
    """

    def __init__(self, game: Wizard, state: WizardState, seat: int) -> None:
        self.state = state
        seen = set(state.hands[seat]) | {c for trick in state.played for _, c in trick}
        seen |= {c for _, c in state.trick}
        if state.trump_card is not None:
            seen.add(state.trump_card)
        self.unseen = [c for c in DECK if c not in seen]
        self.others = [s for s in range(state.players) if s != seat]
        self.sizes = {s: len(state.hands[s]) for s in self.others}
        voids = game.voids(state)
        self.order = sorted(self.others, key=lambda s: -len(voids[s]))  # most voids first
        self.blocked = {
            s: frozenset(c for c in self.unseen if suit_of(c) in voids[s]) for s in self.others
        }
        # the same as card numbers (indices in DECK), for draw_numbers
        self.unseen_numbers = [i for i, c in enumerate(DECK) if c not in seen]
        self.blocked_numbers = {
            s: frozenset(DECK_NUMBER[c] for c in cards) for s, cards in self.blocked.items()
        }
        visible = game.bids_visible_to(state, seat)
        self.guessed = [
            s for s, bid in enumerate(state.bids) if visible[s] is None and bid is not None
        ]
        self.bid_choices = state.round + 1

    def draw(self, rng: Rng) -> tuple[dict[int, list[str]], tuple[int | None, ...]]:
        """The other seats' hands and every seat's bid in a world, drawn as :meth:`world` does.

        The world's stock is a shuffle of the unseen cards; nobody here needs its order, but
        its draws are made all the same so that the stream goes on exactly as in ``world``.
        """
        hands = deal_respecting_voids(self.unseen, self.order, self.sizes, self.blocked, rng)
        rng.skip_shuffle(len(self.unseen))
        return hands, self.bids(rng)

    def draw_numbers(self, rng: Rng) -> tuple[dict[int, list[int]], tuple[int | None, ...]]:
        """:meth:`draw` with every card as its index in ``DECK`` (the same draws, the same deal).

        The deal reads only the order of the unseen cards and which ones each seat may hold,
        and the numbers keep both.
        """
        hands = deal_respecting_voids(
            self.unseen_numbers, self.order, self.sizes, self.blocked_numbers, rng
        )
        rng.skip_shuffle(len(self.unseen_numbers))
        return hands, self.bids(rng)

    def world(self, rng: Rng, *, shuffle_stock: bool = True) -> WizardState:
        """A world, as ``sample_world`` draws it.

        With ``shuffle_stock=False`` the stock's cards are left in deck order (its shuffle's
        draws are made all the same), for a caller that never looks at the stock's order.
        """
        hands = deal_respecting_voids(self.unseen, self.order, self.sizes, self.blocked, rng)
        new_hands = list(self.state.hands)
        dealt: set[str] = set()
        for s in self.others:
            new_hands[s] = tuple(hands[s])
            dealt.update(hands[s])
        if shuffle_stock:
            stock = tuple(c for c in rng.shuffled(self.unseen) if c not in dealt)
        else:
            rng.skip_shuffle(len(self.unseen))
            stock = tuple(c for c in self.unseen if c not in dealt)
        return replace(self.state, hands=tuple(new_hands), stock=stock, bids=self.bids(rng))

    def bids(self, rng: Rng) -> tuple[int | None, ...]:
        """The bids, those ``seat`` cannot see drawn uniformly (in seat order)."""
        bids = list(self.state.bids)
        for s in self.guessed:
            bids[s] = rng.below(self.bid_choices)
        return tuple(bids)


def deal_respecting_voids(
    unseen: Sequence[T],
    seats: Sequence[int],
    sizes: Mapping[int, int],
    blocked: Mapping[int, AbstractSet[T]],
    rng: Rng,
) -> dict[int, list[T]]:
    """Hands for ``seats`` of the given sizes from ``unseen``; no seat gets a ``blocked`` card.

    ``blocked[s]`` are the cards of the suits seat ``s`` has shown it lacks. Random greedy deals
    first, in the order of ``seats`` (the most constrained first), which is close to uniform;
    if those keep failing, an augmenting-path matching finds a valid deal whenever one exists.
    """
    for _ in range(30):
        pool = rng.shuffled(unseen)
        hands: dict[int, list[T]] = {}
        for s in seats:
            size, block = sizes[s], blocked[s]
            allowed = [c for c in pool if c not in block] if block else pool
            if len(allowed) < size:
                break
            hands[s] = allowed[:size]
            if block:
                taken = set(hands[s])
                pool = [c for c in pool if c not in taken]
            else:  # the common case: the hand is the first cards of the pool
                pool = pool[size:]
        else:
            return hands
    return match_deal(rng.shuffled(unseen), seats, sizes, blocked)


def match_deal(
    cards: Sequence[T],
    seats: Sequence[int],
    sizes: Mapping[int, int],
    blocked: Mapping[int, AbstractSet[T]],
) -> dict[int, list[T]]:
    slots = [s for s in seats for _ in range(sizes[s])]
    owner: dict[T, int] = {}  # card -> slot index

    def assign(slot: int, visited: set[T]) -> bool:
        for card in cards:
            if card in visited or card in blocked[slots[slot]]:
                continue
            visited.add(card)
            if card not in owner or assign(owner[card], visited):
                owner[card] = slot
                return True
        return False

    for slot in range(len(slots)):
        if not assign(slot, set()):
            raise AssertionError("no deal respects the shown voids: the state is inconsistent")
    hands: dict[int, list[T]] = {s: [] for s in seats}
    for card, slot in owner.items():
        hands[slots[slot]].append(card)
    return hands


class StateReader:
    """Reads a state from JSON, checking every field; faults are ``bad_state`` with a path."""

    def __init__(self, game: Wizard, data: Any) -> None:
        self.game = game
        self.data = data

    def read(self) -> WizardState:
        d = self.data
        seed, players, options = read_state_header(self.game, d, "Wizard")
        n = players
        rounds = len(DECK) // n
        number = int_field(d, "round", 1, rounds)
        phase = get_field(d, "phase", str, "$")
        require(phase in PHASES, "unknown phase", "$.phase")
        first = int_field(d, "first_dealer", 0, n - 1)
        dealer = int_field(d, "dealer", 0, n - 1)
        require(dealer == (first + number - 1) % n, "dealer does not match the round", "$.dealer")
        hands = card_lists(get_field(d, "hands", list, "$"), "$.hands", n, DECK_SET)
        stock = card_list(get_field(d, "stock", list, "$"), "$.stock", DECK_SET)
        trump_card = self.optional_card(d, "trump_card")
        trump = d.get("trump")
        require(trump is None or trump in SUITS, "trump must be a suit or null", "$.trump")
        bids = self.optional_ints(get_field(d, "bids", list, "$"), "$.bids", n, number)
        tricks = int_list(get_field(d, "tricks", list, "$"), "$.tricks", n, 0, number)
        leader = int_field(d, "leader", 0, n - 1)
        trick = self.plays(get_field(d, "trick", list, "$"), "$.trick", n)
        tricks_played = get_field(d, "played", list, "$")
        require(len(tricks_played) <= number, "more tricks than cards in a hand", "$.played")
        played = tuple(self.plays(t, f"$.played[{i}]", n) for i, t in enumerate(tricks_played))
        last_trick = self.plays(get_field(d, "last_trick", list, "$"), "$.last_trick", n)
        last_winner = d.get("last_winner")
        require(
            last_winner is None
            or (
                isinstance(last_winner, int)
                and not isinstance(last_winner, bool)
                and 0 <= last_winner < n
            ),
            "last_winner must be a seat or null",
            "$.last_winner",
        )
        scores = int_list(get_field(d, "scores", list, "$"), "$.scores", n, -(10**6), 10**6)
        rows = get_field(d, "history", list, "$")
        require(len(rows) <= number, "more rows than rounds", "$.history")  # before reading them
        history = tuple(self.record(r, f"$.history[{i}]", n) for i, r in enumerate(rows))
        dealt_first, drawn = first_dealer_of(seed, options, n)
        require(first == dealt_first, "the seed chose another first dealer", "$.first_dealer")
        redraws = get_field(d, "first_dealer_draws", list, "$")
        where = "$.first_dealer_draws"
        require(len(redraws) == len(drawn), "not the seed's first-dealer draws", where)
        draws = tuple(self.plays(t, f"$.first_dealer_draws[{i}]", n) for i, t in enumerate(redraws))
        require(draws == drawn, "not the seed's first-dealer draws", where)
        state = WizardState(
            seed=seed,
            players=n,
            options=tuple(sorted(options.items())),
            first_dealer=first,
            first_dealer_draws=draws,
            round=number,
            dealer=dealer,
            phase=phase,
            hands=hands,
            stock=stock,
            trump_card=trump_card,
            trump=trump,
            bids=bids,
            tricks=tricks,
            leader=leader,
            trick=trick,
            played=played,
            last_trick=last_trick,
            last_winner=last_winner,
            scores=scores,
            history=history,
        )
        self.check_consistency(state)
        return state

    # field readers

    def optional_card(self, d: dict[str, Any], key: str) -> str | None:
        value = d.get(key)
        require(
            value is None or (isinstance(value, str) and value in DECK_SET),
            "must be a card or null",
            f"$.{key}",
        )
        return value

    def optional_ints(
        self, items: list[Any], path: str, n: int, high: int
    ) -> tuple[int | None, ...]:
        require(len(items) == n, f"expected {n} entries", path)
        for i, x in enumerate(items):
            require(
                x is None or (isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= high),
                f"expected a bid 0 to {high} or null",
                f"{path}[{i}]",
            )
        return tuple(items)

    def plays(self, items: Any, path: str, n: int) -> tuple[Play, ...]:
        require(isinstance(items, list) and len(items) <= n, "expected a list of plays", path)
        out: list[Play] = []
        for i, p in enumerate(items):
            ok = (
                isinstance(p, list)
                and len(p) == 2
                and isinstance(p[0], int)
                and not isinstance(p[0], bool)
                and 0 <= p[0] < n
                and isinstance(p[1], str)
                and p[1] in DECK_SET
            )
            require(ok, "a play is [seat, card]", f"{path}[{i}]")
            out.append((p[0], p[1]))
        return tuple(out)

    def record(self, r: Any, path: str, n: int) -> RoundRecord:
        require(isinstance(r, dict), "a score-sheet row is an object", path)
        number = int_field(r, "round", 1, len(DECK), path)
        trump = r.get("trump")
        require(trump is None or trump in SUITS, "trump must be a suit or null", f"{path}.trump")
        trump_card = r.get("trump_card")
        require(
            trump_card is None or (isinstance(trump_card, str) and trump_card in DECK_SET),
            "must be a card or null",
            f"{path}.trump_card",
        )
        return RoundRecord(
            round=number,
            dealer=int_field(r, "dealer", 0, n - 1, path),
            trump=trump,
            trump_card=trump_card,
            bids=int_list(get_field(r, "bids", list, path), f"{path}.bids", n, 0, 20),
            tricks=int_list(get_field(r, "tricks", list, path), f"{path}.tricks", n, 0, 20),
            points=int_list(get_field(r, "points", list, path), f"{path}.points", n, -400, 400),
            totals=int_list(
                get_field(r, "totals", list, path), f"{path}.totals", n, -(10**6), 10**6
            ),
            chances=self.counts(r, "chances", path, n, number),
            ducked=self.counts(r, "ducked", path, n, number),
            spares=self.counts(r, "spares", path, n, number),
            took=self.counts(r, "took", path, n, number),
            last_chances=self.counts(r, "last_chances", path, n, number),
            last_ducked=self.counts(r, "last_ducked", path, n, number),
            cards=self.round_cards(r, path, n, number),
        )

    def round_cards(
        self, r: dict[str, Any], path: str, n: int, number: int
    ) -> tuple[tuple[str, ...], ...]:
        """A row's ``cards``: ``n`` hands of the round's size, no card twice; absent: ()."""
        if "cards" not in r:
            return ()
        where = f"{path}.cards"
        hands = card_lists(get_field(r, "cards", list, path), where, n, DECK_SET)
        for seat, hand in enumerate(hands):
            require(len(hand) == number, f"expected {number} cards", f"{where}[{seat}]")
        every = [c for hand in hands for c in hand] + [r.get("trump_card")]
        require(len(set(every)) == len(every), "a card dealt twice", where)
        return hands

    def counts(
        self, r: dict[str, Any], key: str, path: str, n: int, number: int
    ) -> tuple[int, ...]:
        """A row's per-seat count 0..its round; absent (a game saved before it was counted):
        zeros."""
        if key not in r:
            return (0,) * n
        return int_list(get_field(r, key, list, path), f"{path}.{key}", n, 0, number)

    # whole-state invariants: what the rest of the engine relies on

    def check_consistency(self, s: WizardState) -> None:
        n = s.players
        all_cards = [c for h in s.hands for c in h] + list(s.stock)
        all_cards += [c for t in s.played for _, c in t] + [c for _, c in s.trick]
        if s.trump_card is not None:
            all_cards.append(s.trump_card)
        require(Counter(all_cards) == Counter(DECK), "the cards do not make one deck", "$")
        require(
            len(s.history) == s.round - (0 if s.phase == "over" else 1),
            "the score sheet does not match the round",
            "$.history",
        )
        for i, row in enumerate(s.history):
            require(row.round == i + 1, "rounds out of order", f"$.history[{i}].round")
            for seat in range(n):
                where = f"$.history[{i}]"
                require(
                    row.chances[seat] == 0 or row.bids[seat] > 0,
                    "a seat that bid 0 never needed a trick",
                    f"{where}.chances[{seat}]",
                )
                require(
                    row.ducked[seat] <= min(row.chances[seat], row.round - row.tricks[seat]),
                    "more tricks ducked than chances to duck or tricks lost",
                    f"{where}.ducked[{seat}]",
                )
                require(
                    row.spares[seat] == 0 or row.tricks[seat] >= row.bids[seat],
                    "a seat short of its bid never had its tricks",
                    f"{where}.spares[{seat}]",
                )
                require(
                    row.took[seat] <= row.spares[seat],
                    "more tricks taken than chances to take",
                    f"{where}.took[{seat}]",
                )
                require(
                    row.last_chances[seat] <= row.chances[seat],
                    "more chances as the last card than chances",
                    f"{where}.last_chances[{seat}]",
                )
                require(
                    row.last_ducked[seat] <= min(row.last_chances[seat], row.ducked[seat]),
                    "more ducked as the last card than chances there or tricks ducked",
                    f"{where}.last_ducked[{seat}]",
                )
        require(
            s.scores == (s.history[-1].totals if s.history else (0,) * n),
            "scores do not match the score sheet",
            "$.scores",
        )
        if s.phase == "over":
            require(
                s.round == s.rounds and not any(s.hands) and not s.trick,
                "a finished game has no cards in play",
                "$",
            )
            return
        require(
            len(s.played) == sum(s.tricks) and len(s.played) <= s.round,
            "tricks won do not match the tricks played",
            "$.tricks",
        )
        for i, trick in enumerate(s.played):
            require(len(trick) == n, "a finished trick has a card from everyone", f"$.played[{i}]")
        trick_seats = [seat for seat, _ in s.trick]
        require(
            trick_seats == [(s.leader + k) % n for k in range(len(s.trick))] and len(s.trick) < n,
            "the trick is not in turn order",
            "$.trick",
        )
        for seat in range(n):
            expected = s.round - len(s.played) - (1 if seat in trick_seats else 0)
            require(len(s.hands[seat]) == expected, "wrong number of cards", f"$.hands[{seat}]")
        cards_in_play = s.round * n + (1 if s.trump_card is not None else 0)
        require(len(s.stock) == len(DECK) - cards_in_play, "wrong stock size", "$.stock")
        require(
            (s.trump_card is None) == (s.round * n == len(DECK)),
            "a trump card is turned up unless every card is dealt",
            "$.trump_card",
        )
        if s.trump_card is not None and not is_wizard(s.trump_card):
            require(
                s.trump == suit_of(s.trump_card), "trump does not match the trump card", "$.trump"
            )
        if s.trump_card is None:
            require(s.trump is None, "no trump card means no trump", "$.trump")
        made = [bid is not None for bid in s.bids]
        if s.phase == "trump":
            require(
                s.trump_card is not None and is_wizard(s.trump_card) and s.trump is None,
                "the dealer chooses trump only after a Wizard",
                "$.phase",
            )
        if s.phase in ("trump", "bid"):
            count = sum(made)
            order = [(s.dealer + 1 + k) % n for k in range(n)]
            require(
                all(made[seat] == (k < count) for k, seat in enumerate(order))
                and count < n
                and not s.played
                and not s.trick,
                "bids out of turn order",
                "$.bids",
            )
            require(s.phase == "bid" or count == 0, "no bids before trump is chosen", "$.bids")
            require(s.leader == (s.dealer + 1) % n, "the dealer's left leads", "$.leader")
        else:
            require(all(made), "every bid is made before play", "$.bids")
            if s.trump_card is not None and is_wizard(s.trump_card):
                require(s.trump is not None, "the dealer must have chosen trump", "$.trump")
