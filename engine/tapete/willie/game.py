"""Willie: Carousel rummy on the Haggis deck (SPEC.md section 1) as a :class:`tapete.core.Game`.

Glossary:

round        one deal: 12 cards each with 2 players, 10 with 3 (``hand_size``), the rest is the
             stock; the table starts empty; the deal passes left every round
dealer       deals the round; the first dealer is drawn at random from the seed
turn         a regular turn: ``draw`` (1st draw), then ``meld`` or ``pass``; after a pass a 2nd
             ``draw``, then ``meld`` or ``pass``; after a pass a 3rd ``draw`` and no meld
draws        the draws taken in the current turn (1, 2, 3): the page shows it
phase        ``draw`` (a draw is due), ``meld`` (meld or pass), ``end_turn`` (close or continue),
             ``final`` (an extra turn after the stock ran out: meld or pass), ``over``
close        ending the round after a regular turn with ``close_threshold`` (3) points or fewer
             in hand; a turn that empties the hand closes at once ("going out")
stock out    a draw took the last card: after that turn (unless it closed) every player has one
             extra *final turn*, starting left of that player and ending with them; a required
             draw from the empty stock ends the turn
round end    ``close`` (a player closed), ``out`` (a hand was emptied) or ``stock`` (the final
             turns ended); see :mod:`tapete.willie.scoring`
history      one record per finished round: the hands, the points, and the score step by step

Moves and their JSON are described in :mod:`tapete.willie.moves`; a meld is checked as one end
state by :mod:`tapete.willie.phase`. ``legal_moves`` lists the simple moves and, where a meld is
possible, the solver's best meld phase (the move space of melds is far too big to list; ``check``
is the authority on any other meld). Every deal derives from the seed and the round number
alone: ``Rng.derive("willie", seed, "round", n)``.

Options (every knob of SPEC.md 1.5): ``hand_size`` 0 means "by players" (12 for 2, 10 for 3),
else 8, 10 or 12; ``max_group_size`` 4 or 5; ``close_threshold``; ``target_score``;
``two_player_multiplier``; ``undercut_mode`` and ``undercut_points`` (the "5" of the modes);
``go_out_bonus``; ``end_bonus``; ``round_win_bonus``; ``points_number``/``jack``/``queen``/
``king`` (the card points); ``willie_enabled``; ``freed_wild_must_change_meld``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

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
from ..errors import BadOptionError, IllegalMoveError, InvalidMoveError
from ..rng import Rng
from .cards import CARD_SET, DECK, NUMBER_INDEX, hand_points, point_table
from .melds import meld_problem, normalize_meld, options_of, parse_token, token_card
from .moves import Move, Table, parse_move, played_cards
from .phase import check_phase
from .scoring import UNDERCUT_MODES, RoundScore, end_bonuses, score_round

PHASES = ("draw", "meld", "end_turn", "final", "over")
ENDS = ("close", "out", "stock")
HAND_SIZES = (0, 8, 10, 12)
DEFAULT_HAND = {2: 12, 3: 10}

OPTIONS = (
    OptionSpec("hand_size", 0, minimum=0, maximum=12),
    OptionSpec("max_group_size", 4, minimum=4, maximum=5),
    OptionSpec("close_threshold", 3, minimum=0, maximum=75),
    OptionSpec("target_score", 25, minimum=1, maximum=1000),
    OptionSpec("two_player_multiplier", 2, minimum=1, maximum=10),
    OptionSpec("undercut_mode", UNDERCUT_MODES[0], choices=UNDERCUT_MODES),
    OptionSpec("undercut_points", 5, minimum=0, maximum=50),
    OptionSpec("go_out_bonus", 5, minimum=0, maximum=50),
    OptionSpec("end_bonus", 10, minimum=0, maximum=100),
    OptionSpec("round_win_bonus", 5, minimum=0, maximum=50),
    OptionSpec("points_number", 1, minimum=1, maximum=25),
    OptionSpec("points_jack", 2, minimum=1, maximum=25),
    OptionSpec("points_queen", 3, minimum=1, maximum=25),
    OptionSpec("points_king", 5, minimum=1, maximum=25),
    OptionSpec("willie_enabled", True),
    OptionSpec("freed_wild_must_change_meld", False),
)


@dataclass(frozen=True)
class RoundRecord:
    """One row of the score sheet: how the round ended and how it scored."""

    round: int
    dealer: int
    end: str
    closer: int | None
    went_out: int | None
    turns: int
    hands: tuple[tuple[str, ...], ...]
    points: tuple[int, ...]
    score: RoundScore
    totals: tuple[int, ...]


@dataclass(frozen=True)
class WillieState:
    seed: str
    players: int
    options: tuple[tuple[str, Any], ...]
    first_dealer: int
    round: int
    dealer: int
    phase: str
    turn: int
    draws: int
    turns: int
    hands: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...]
    table: Table
    stock_out_by: int | None
    final_left: int
    scores: tuple[int, ...]
    rounds_won: tuple[int, ...]
    history: tuple[RoundRecord, ...]
    bonuses: tuple[int, ...]

    @property
    def option(self) -> dict[str, Any]:
        return dict(self.options)

    @property
    def hand_size(self) -> int:
        return int(self.option["hand_size"]) or DEFAULT_HAND[self.players]


def remove_cards(hand: Sequence[str], cards: Sequence[str]) -> tuple[str, ...]:
    """``hand`` without one copy of each of ``cards`` (which it holds)."""
    left = Counter(cards)
    out: list[str] = []
    for card in hand:
        if left[card] > 0:
            left[card] -= 1
        else:
            out.append(card)
    return tuple(out)


class Willie(Game[WillieState, Move]):
    id = "willie"
    min_players = 2
    max_players = 3
    default_players = 2
    options_spec = OPTIONS
    bot_levels = ("random", "easy", "normal")
    cards_total = len(DECK)
    past_view_keys = ("history",)  # the hands shown there are earlier deals'

    def __init__(self) -> None:
        from .bots import easy_bot, normal_bot

        self.bots = {"easy": easy_bot, "normal": normal_bot}

    # -- options and setup -------------------------------------------------------------------

    def validate_options(self, options: Mapping[str, Any]) -> None:
        if options["hand_size"] not in HAND_SIZES:
            raise BadOptionError(
                "option 'hand_size' must be 0 (12 with two players, 10 with three), 8, 10 or 12; "
                f"got {options['hand_size']}",
                option="hand_size",
            )

    def setup(self, seed: str, options: dict[str, Any], players: int) -> WillieState:
        first = Rng.derive("willie", seed, "first_dealer").below(players)
        empty = WillieState(
            seed=seed,
            players=players,
            options=tuple(sorted(options.items())),
            first_dealer=first,
            round=0,
            dealer=first,
            phase="draw",
            turn=0,
            draws=0,
            turns=0,
            hands=(),
            stock=(),
            table=(),
            stock_out_by=None,
            final_left=0,
            scores=(0,) * players,
            rounds_won=(0,) * players,
            history=(),
            bonuses=(0,) * players,
        )
        return self.deal_round(empty, 1)

    def deal_round(self, state: WillieState, number: int) -> WillieState:
        """Round ``number``: shuffle from the seed, deal one at a time from the dealer's left."""
        n = state.players
        dealer = (state.first_dealer + number - 1) % n
        deck = Rng.derive("willie", state.seed, "round", number).shuffled(DECK)
        size = state.hand_size
        hands: list[list[str]] = [[] for _ in range(n)]
        for i in range(size * n):
            hands[(dealer + 1 + i) % n].append(deck[i])
        return replace(
            state,
            round=number,
            dealer=dealer,
            phase="draw",
            turn=(dealer + 1) % n,
            draws=0,
            turns=1,
            hands=tuple(tuple(hand) for hand in hands),
            stock=tuple(deck[size * n :]),
            table=(),
            stock_out_by=None,
            final_left=0,
        )

    # -- turn structure ----------------------------------------------------------------------

    def players(self, state: WillieState) -> int:
        return state.players

    def to_move(self, state: WillieState) -> int | None:
        return None if state.phase == "over" else state.turn

    def points(self, state: WillieState, seat: int) -> int:
        return hand_points(state.hands[seat], point_table(state.option))

    def may_close(self, state: WillieState, seat: int) -> bool:
        return state.phase == "end_turn" and state.turn == seat

    def moves(self, state: WillieState, seat: int) -> list[Move]:
        if state.phase == "draw":
            return [Move("draw")]
        if state.phase == "end_turn":
            return [Move("close"), Move("continue")]
        best = self.best_meld(state, seat)
        return [Move("pass")] + ([best] if best is not None else [])

    def best_meld(self, state: WillieState, seat: int) -> Move | None:
        from .solver import solve

        solution = solve(state.table, state.hands[seat], options=state.option)
        return solution.move if solution is not None else None

    def check_move(self, state: WillieState, seat: int, move: Move) -> None:
        phase = state.phase
        if phase == "end_turn" and move.kind not in ("close", "continue"):
            raise IllegalMoveError(
                "must_decide_close", "your turn is over: choose to close or to continue"
            )
        if move.kind == "draw" and phase != "draw":
            raise IllegalMoveError("no_draw_now", self.why_no_draw(state))
        if move.kind != "draw" and phase == "draw":
            raise IllegalMoveError(
                "must_draw", f"draw first: this is draw {state.draws + 1} of your turn"
            )
        if move.kind in ("close", "continue") and phase != "end_turn":
            raise IllegalMoveError("cannot_close", "you may close only at the end of a turn")
        if move.kind == "meld":
            played = played_cards(state.table, move)
            check_phase(state.table, state.hands[seat], move.table, played, state.option)

    def why_no_draw(self, state: WillieState) -> str:
        if state.phase == "final":
            return "the stock is empty: this extra turn is a meld or a pass, with no draw"
        return f"you drew {state.draws} card(s) this turn: meld or pass first"

    # -- applying moves ----------------------------------------------------------------------

    def play(self, state: WillieState, seat: int, move: Move) -> WillieState:
        if move.kind == "draw":
            return self.draw(state, seat)
        if move.kind == "close":
            return self.end_round(state, "close", closer=seat)
        if move.kind == "continue":
            return self.next_turn(state, seat)
        if move.kind == "meld":
            hands = list(state.hands)
            hands[seat] = remove_cards(hands[seat], played_cards(state.table, move))
            table = tuple(normalize_meld(meld) for meld in move.table)
            state = replace(state, hands=tuple(hands), table=table)
            if state.phase == "final":
                return self.after_final_turn(state, seat)
            return self.end_turn(state, seat)
        # pass
        if state.phase == "final":
            return self.after_final_turn(state, seat)
        if not state.stock:  # the next draw is due from an empty stock: the turn ends
            return self.end_turn(state, seat)
        return replace(state, phase="draw")

    def draw(self, state: WillieState, seat: int) -> WillieState:
        hands = list(state.hands)
        hands[seat] = hands[seat] + (state.stock[0],)
        stock = state.stock[1:]
        state = replace(
            state,
            hands=tuple(hands),
            stock=stock,
            draws=state.draws + 1,
            stock_out_by=seat if not stock else state.stock_out_by,
            phase="meld",
        )
        if state.draws == 3:
            return self.end_turn(state, seat)
        return state

    def end_turn(self, state: WillieState, seat: int) -> WillieState:
        if not state.hands[seat]:
            return self.end_round(state, "out", closer=seat)
        if self.points(state, seat) <= int(state.option["close_threshold"]):
            return replace(state, phase="end_turn")
        return self.next_turn(state, seat)

    def next_turn(self, state: WillieState, seat: int) -> WillieState:
        n = state.players
        if state.stock_out_by is not None:
            return replace(
                state, phase="final", turn=(state.stock_out_by + 1) % n, final_left=n, draws=0
            )
        return replace(state, phase="draw", turn=(seat + 1) % n, draws=0, turns=state.turns + 1)

    def after_final_turn(self, state: WillieState, seat: int) -> WillieState:
        if not state.hands[seat]:
            return self.end_round(state, "out", closer=None, went_out=seat)
        left = state.final_left - 1
        if left == 0:
            return self.end_round(state, "stock", closer=None)
        return replace(state, final_left=left, turn=(seat + 1) % state.players)

    def end_round(
        self, state: WillieState, end: str, closer: int | None, went_out: int | None = None
    ) -> WillieState:
        if end == "out" and went_out is None:
            went_out = closer
        points = tuple(self.points(state, s) for s in range(state.players))
        score = score_round(points, closer, [not h for h in state.hands], state.option)
        totals = tuple(s + g for s, g in zip(state.scores, score.gains, strict=True))
        won = tuple(w + (s in score.winners) for s, w in enumerate(state.rounds_won))
        record = RoundRecord(
            round=state.round,
            dealer=state.dealer,
            end=end,
            closer=closer,
            went_out=went_out,
            turns=state.turns,
            hands=state.hands,
            points=points,
            score=score,
            totals=totals,
        )
        state = replace(state, scores=totals, rounds_won=won, history=state.history + (record,))
        bonuses = end_bonuses(totals, won, state.option)
        if bonuses is not None:
            return replace(state, phase="over", bonuses=bonuses)
        return self.deal_round(state, state.round + 1)

    # -- results -----------------------------------------------------------------------------

    def final_scores(self, state: WillieState) -> tuple[int, ...]:
        return tuple(s + b for s, b in zip(state.scores, state.bonuses, strict=True))

    def outcome(self, state: WillieState) -> Outcome | None:
        if state.phase != "over":
            return None
        finals = self.final_scores(state)
        best = max(finals)
        return Outcome(
            scores=tuple(float(s) for s in finals),
            winners=tuple(s for s, total in enumerate(finals) if total == best),
            detail={
                "bonuses": list(state.bonuses),
                "rounds_won": list(state.rounds_won),
                "rounds": state.round,
            },
        )

    # -- views -------------------------------------------------------------------------------

    def view(self, state: WillieState, seat: int | None) -> dict[str, Any]:
        mine = seat is not None and state.phase != "over"
        return {
            "game": self.id,
            "players": state.players,
            "seat": seat,
            "round": state.round,
            "dealer": state.dealer,
            "phase": state.phase,
            "to_move": self.to_move(state),
            "turn": state.turn,
            "draws": state.draws,
            "turns": state.turns,
            "hand": list(state.hands[seat]) if seat is not None else [],
            "hand_points": self.points(state, seat) if seat is not None else None,
            "hand_sizes": [len(hand) for hand in state.hands],
            "stock_size": len(state.stock),
            "table": [list(meld) for meld in state.table],
            "stock_out_by": state.stock_out_by,
            "final_left": state.final_left,
            "can_close": mine and seat is not None and self.may_close(state, seat),
            "close_threshold": int(state.option["close_threshold"]),
            "scores": list(state.scores),
            "rounds_won": list(state.rounds_won),
            "bonuses": list(state.bonuses),
            "final_scores": list(self.final_scores(state)),
            "history": [record_to_json(row) for row in state.history],
            "first_dealer": state.first_dealer,
            "options": state.option,
        }

    def hidden_cards(self, state: WillieState, seat: int | None) -> list[str]:
        others = [c for s, hand in enumerate(state.hands) if s != seat for c in hand]
        return others + list(state.stock)

    def seat_cards(self, state: WillieState) -> list[str]:
        cards = [c for hand in state.hands for c in hand] + list(state.stock)
        return cards + [token_card(t) for meld in state.table for t in meld]

    def sample_world(self, state: WillieState, seat: int, rng: Rng) -> WillieState:
        """Re-deal the other hands and the stock uniformly (nothing public constrains them)."""
        if state.phase == "over":
            return state
        unseen = rng.shuffled(self.hidden_cards(state, seat))
        hands = list(state.hands)
        at = 0
        for s in range(state.players):
            if s != seat:
                size = len(hands[s])
                hands[s] = tuple(unseen[at : at + size])
                at += size
        return replace(state, hands=tuple(hands), stock=tuple(unseen[at:]))

    def hint(self, state: WillieState, seat: int) -> dict[str, Any]:
        from .bots import hint

        return hint(self, state, seat)

    def describe_melds(self, state: WillieState, seat: int, table: Any) -> list[dict[str, Any]]:
        """Each meld of a proposed table: ``{valid, kind?, value, reason?, message?, changed}``,
        plus ``wild`` (the position of its lone figure), ``wild_choices`` (the declarations the
        figure may take there) and ``wild_fixed`` for a meld with one figure; see
        :mod:`tapete.willie.describe`."""
        from .describe import describe_table

        return describe_table(state.table, table, state.option)

    # -- JSON --------------------------------------------------------------------------------

    def parse_move(self, data: Any) -> Move:
        return parse_move(data)

    def move_to_json(self, move: Move) -> Any:
        return move.to_json()

    def to_json(self, state: WillieState) -> dict[str, Any]:
        return {
            **state_header(state.seed, state.players, state.option),
            "first_dealer": state.first_dealer,
            "round": state.round,
            "dealer": state.dealer,
            "phase": state.phase,
            "turn": state.turn,
            "draws": state.draws,
            "turns": state.turns,
            "hands": [list(hand) for hand in state.hands],
            "stock": list(state.stock),
            "table": [list(meld) for meld in state.table],
            "stock_out_by": state.stock_out_by,
            "final_left": state.final_left,
            "scores": list(state.scores),
            "rounds_won": list(state.rounds_won),
            "history": [record_to_json(row) for row in state.history],
            "bonuses": list(state.bonuses),
        }

    def from_json(self, data: Any) -> WillieState:
        return StateReader(self, data).read()


def record_to_json(row: RoundRecord) -> dict[str, Any]:
    score = row.score
    return {
        "round": row.round,
        "dealer": row.dealer,
        "end": row.end,
        "closer": row.closer,
        "went_out": row.went_out,
        "turns": row.turns,
        "hands": [list(hand) for hand in row.hands],
        "points": list(row.points),
        "winners": list(score.winners),
        "undercut": score.undercut,
        "multiplier": score.multiplier,
        "differences": list(score.differences),
        "adjustments": list(score.adjustments),
        "out_bonus": list(score.out_bonus),
        "gains": list(score.gains),
        "totals": list(row.totals),
    }


class StateReader:
    """Reads a state from JSON, checking every field; faults are ``bad_state`` with a path."""

    def __init__(self, game: Willie, data: Any) -> None:
        self.game = game
        self.data = data

    def read(self) -> WillieState:
        d = self.data
        seed, n, options = read_state_header(self.game, d, "Willie")
        phase = get_field(d, "phase", str, "$")
        require(phase in PHASES, "unknown phase", "$.phase")
        number = int_field(d, "round", 1, 10**6)
        first = int_field(d, "first_dealer", 0, n - 1)
        dealer = int_field(d, "dealer", 0, n - 1)
        require(dealer == (first + number - 1) % n, "dealer does not match the round", "$.dealer")
        rows = get_field(d, "history", list, "$")
        require(len(rows) <= number, "more rows than rounds", "$.history")  # before reading them
        history = tuple(self.record(r, f"$.history[{i}]", n) for i, r in enumerate(rows))
        stock_out = d.get("stock_out_by")
        require(stock_out is None or self.is_seat(stock_out, n), "a seat or null", "$.stock_out_by")
        state = WillieState(
            seed=seed,
            players=n,
            options=tuple(sorted(options.items())),
            first_dealer=first,
            round=number,
            dealer=dealer,
            phase=phase,
            turn=int_field(d, "turn", 0, n - 1),
            draws=int_field(d, "draws", 0, 3),
            turns=int_field(d, "turns", 0, 10**6),
            hands=card_lists(get_field(d, "hands", list, "$"), "$.hands", n, CARD_SET),
            stock=card_list(get_field(d, "stock", list, "$"), "$.stock", CARD_SET),
            table=self.table(get_field(d, "table", list, "$"), options),
            stock_out_by=stock_out,
            final_left=int_field(d, "final_left", 0, n),
            scores=self.ints(get_field(d, "scores", list, "$"), "$.scores", n),
            rounds_won=self.ints(get_field(d, "rounds_won", list, "$"), "$.rounds_won", n, 0),
            history=history,
            bonuses=self.ints(get_field(d, "bonuses", list, "$"), "$.bonuses", n, 0),
        )
        self.check_consistency(state)
        return state

    # field readers

    @staticmethod
    def is_seat(value: Any, n: int) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < n

    def table(self, items: list[Any], options: Mapping[str, Any]) -> Table:
        # a meld holds three cards or more: a table of more melds cannot be one deck
        require(len(items) <= len(DECK) // 3, "too many melds", "$.table")
        melds: list[tuple[str, ...]] = []
        for i, meld in enumerate(items):
            path = f"$.table[{i}]"
            require(isinstance(meld, list), "a meld is a list of cards", path)
            for j, token in enumerate(meld):
                try:
                    parse_token(token)
                except InvalidMoveError:
                    require(False, "not a table card", f"{path}[{j}]")
            problem = meld_problem(meld, **options_of(options))
            require(problem is None, f"not a valid meld: {problem and problem[1]}", path)
            require(tuple(meld) == normalize_meld(meld), "meld not in canonical order", path)
            melds.append(tuple(meld))
        return tuple(melds)

    @staticmethod
    def ints(items: list[Any], path: str, n: int, low: int = -(10**6)) -> tuple[int, ...]:
        return int_list(items, path, n, low, 10**6)

    def optional_seat(self, r: dict[str, Any], key: str, path: str, n: int) -> int | None:
        value = r.get(key)
        require(value is None or self.is_seat(value, n), "a seat or null", f"{path}.{key}")
        return value

    def record(self, r: Any, path: str, n: int) -> RoundRecord:
        require(isinstance(r, dict), "a score-sheet row is an object", path)
        end = get_field(r, "end", str, path)
        require(end in ENDS, "end is close, out or stock", f"{path}.end")
        winners = get_field(r, "winners", list, path)
        require(
            0 < len(winners) <= n and all(self.is_seat(w, n) for w in winners),
            "winners are seats",
            f"{path}.winners",
        )
        score = RoundScore(
            winners=tuple(winners),
            undercut=get_field(r, "undercut", bool, path),
            multiplier=int_field(r, "multiplier", 1, 10, path),
            differences=self.ints(
                get_field(r, "differences", list, path), f"{path}.differences", n
            ),
            adjustments=self.ints(
                get_field(r, "adjustments", list, path), f"{path}.adjustments", n
            ),
            out_bonus=self.ints(get_field(r, "out_bonus", list, path), f"{path}.out_bonus", n),
        )
        gains = self.ints(get_field(r, "gains", list, path), f"{path}.gains", n)
        require(gains == score.gains, "gains do not add up", f"{path}.gains")
        return RoundRecord(
            round=int_field(r, "round", 1, 10**6, path),
            dealer=int_field(r, "dealer", 0, n - 1, path),
            end=end,
            closer=self.optional_seat(r, "closer", path, n),
            went_out=self.optional_seat(r, "went_out", path, n),
            turns=int_field(r, "turns", 0, 10**6, path),
            hands=card_lists(get_field(r, "hands", list, path), f"{path}.hands", n, CARD_SET),
            points=self.ints(get_field(r, "points", list, path), f"{path}.points", n, 0),
            score=score,
            totals=self.ints(get_field(r, "totals", list, path), f"{path}.totals", n),
        )

    # whole-state invariants: what the rest of the engine relies on

    def check_consistency(self, s: WillieState) -> None:
        cards = Counter(c for h in s.hands for c in h) + Counter(s.stock)
        cards += Counter(token_card(t) for m in s.table for t in m)
        require(cards == Counter(DECK), "the cards do not make one Haggis deck", "$")
        over = s.phase == "over"
        require(
            len(s.history) == s.round - (0 if over else 1), "history/round mismatch", "$.history"
        )
        for i, row in enumerate(s.history):
            require(row.round == i + 1, "rounds out of order", f"$.history[{i}].round")
        totals = s.history[-1].totals if s.history else (0,) * s.players
        require(s.scores == totals, "scores do not match the score sheet", "$.scores")
        won = tuple(
            sum(seat in row.score.winners for row in s.history) for seat in range(s.players)
        )
        require(s.rounds_won == won, "rounds_won does not match the score sheet", "$.rounds_won")
        expected = end_bonuses(s.scores, s.rounds_won, s.option)
        if over:
            require(
                expected is not None and s.bonuses == expected, "wrong end bonuses", "$.bonuses"
            )
            return
        require(expected is None, "a total reached the target: the game is over", "$.phase")
        require(not any(s.bonuses), "bonuses come at the end", "$.bonuses")
        require(all(self.is_numbers_unique(h) for h in s.hands), "duplicate card", "$.hands")
        self.check_turn(s)

    @staticmethod
    def is_numbers_unique(hand: Sequence[str]) -> bool:
        numbers = [c for c in hand if c in NUMBER_INDEX]
        return len(numbers) == len(set(numbers))

    def check_turn(self, s: WillieState) -> None:
        out = s.stock_out_by
        require((out is not None) == (not s.stock), "stock_out_by must name who emptied it", "$")
        if s.phase == "final":
            require(out is not None and 1 <= s.final_left <= s.players, "bad final turns", "$")
            expected = ((out or 0) + 1 + s.players - s.final_left) % s.players
            require(s.turn == expected, "final turns out of order", "$.turn")
            require(s.draws == 0, "no draws in a final turn", "$.draws")
            return
        require(s.final_left == 0, "final turns only in the final phase", "$.final_left")
        if out is not None:
            require(s.turn == out, "only the player who emptied the stock may be playing", "$.turn")
        if s.phase == "draw":
            require(s.draws < 3 and bool(s.stock), "no draw is due", "$.draws")
        if s.phase == "meld":
            require(s.draws in (1, 2), "a meld phase follows the 1st or 2nd draw", "$.draws")
        if s.phase == "end_turn":
            points = hand_points(s.hands[s.turn], point_table(s.option))
            require(
                bool(s.hands[s.turn]) and points <= int(s.option["close_threshold"]),
                "closing is not allowed here",
                "$.phase",
            )


GAME = Willie()
