"""Lobo: The Vanguard as a :class:`tapete.core.Game` (one seat; the Wolf never acts).

Glossary (the rules' own words are in :mod:`tapete.lobo.rules`):

seat       always 0; ``to_move`` is 0 while the game runs and None when it is over
view       everything but the order of the pile below its top card: both hands, the
           reserve, the members, the discard pile, the pile's top card and its size
unseen     the cards of the pile below its top: what :meth:`LoboGame.sample_world` re-deals
outcome    Vanguard: the final score (``scores = (score,)``, winners ``(0,)``) when the game is
           won, ``scores = (0,)`` and no winners when the Wolf wins. Classic Lobo: the player's
           points; winners ``(0,)`` when the player reached the target first

The fifth suit of option ``suits = 5`` is written ``V`` (``7V``).

The view (``view(state, 0)``; a spectator's is the same with ``seat: null``)::

    {game: "lobo", seat, mode, round, phase: "play"|"choice"|"over", to_move, final,
     hand: [codes], wolf: [codes], reserve: [codes],
     members: [{card: "JS"|"QS"|"KS", active}] ([] in Classic Lobo),
     pile_top: code|null, pile_size, discard: [codes, in the order discarded],
     forced_fold: bool (no capture is left: ``fold`` is the only move),
     history: [{round, won, wolf_left, members_lost, points}], result: null|"won"|"lost",
     options: {...}, score?: {hand, members, reserve, score} (a won Vanguard game),
     scores?: {player, wolf}, target? (Classic Lobo)}

``hint`` answers ``{move, odds, p_win, p_game, exact, samples?, reason, explanation,
moves: [{move, p_win, exact, samples?, p_game}]}`` (:func:`tapete.lobo.odds.hint`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ..core import (
    Game,
    JsonDict,
    OptionSpec,
    Outcome,
    card_list,
    get_field,
    parse_options,
    require,
)
from ..errors import BadOptionError, BadStateError, InvalidMoveError, describe
from ..rng import Rng, is_valid_seed
from . import rules as R
from .cards import MEMBERS, sorted_cards
from .rules import LoboState, Move, Rules

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("mode", R.VANGUARD, choices=(R.VANGUARD, R.CLASSIC)),
    OptionSpec("difficulty", "STANDARD", choices=("EASY", "STANDARD", "HARD")),
    OptionSpec("suits", 4, minimum=4, maximum=5, applies_when=("mode", (R.CLASSIC,))),
    OptionSpec("final_trigger", R.BEFORE_DEAL, choices=(R.BEFORE_DEAL, R.AFTER_DEAL)),
    OptionSpec("short_deal_order", R.WOLF_FIRST, choices=(R.WOLF_FIRST, R.PLAYER_FIRST)),
    OptionSpec("reserve_is_wild_in_final", False),
    OptionSpec("score_includes_reserve", False),
    OptionSpec("classic_target", 100, minimum=1, maximum=1000, applies_when=("mode", (R.CLASSIC,))),
)

MAX_ROUND = 100_000
MAX_POINTS = 10**6


def rules_from(options: Mapping[str, Any]) -> Rules:
    return Rules(**{spec.name: options[spec.name] for spec in OPTIONS})


def check_options(options: Mapping[str, Any]) -> None:
    """SPEC.md 4.5: five suits (the Postas/Vines deck) are for Classic Lobo; the Vanguard's
    pile is one standard deck's A-8, A-9 or A-10 (``bad_option``)."""
    if options["mode"] != R.CLASSIC and options["suits"] != 4:
        raise BadOptionError(
            "five suits are for Classic Lobo; the Vanguard plays four", option="suits"
        )


class LoboGame(Game[LoboState, Move]):
    id = "lobo"
    min_players = 1
    max_players = 1
    default_players = 1
    options_spec = OPTIONS
    bot_levels = ("random", "greedy", "best")
    cards_total = 0  # it depends on the options

    def __init__(self) -> None:
        from .bots import BOTS

        self.bots = dict(BOTS)

    def validate_options(self, options: Mapping[str, Any]) -> None:
        check_options(options)

    # -- setup and turns ---------------------------------------------------------------------

    def setup(self, seed: str, options: dict[str, Any], players: int) -> LoboState:
        return R.new_state(seed, rules_from(options))

    def players(self, state: LoboState) -> int:
        return 1

    def to_move(self, state: LoboState) -> int | None:
        return None if state.phase == R.OVER else 0

    def moves(self, state: LoboState, seat: int) -> list[Move]:
        return R.legal_moves(state)

    def check_move(self, state: LoboState, seat: int, move: Move) -> None:
        if not isinstance(move, Move):
            raise InvalidMoveError(f"not a Lobo move: {describe(move)}")
        R.check_move(state, move)

    def play(self, state: LoboState, seat: int, move: Move) -> LoboState:
        return R.play(state, move)

    def outcome(self, state: LoboState) -> Outcome | None:
        if state.phase != R.OVER:
            return None
        won = state.result == "won"
        if state.rules.classic:
            return Outcome(
                scores=(float(state.scores[0]),),
                winners=(0,) if won else (),
                detail={"result": state.result, "wolf_score": state.scores[1]},
            )
        parts = R.final_score(state) if won else {"hand": 0, "members": 0, "reserve": 0, "score": 0}
        return Outcome(
            scores=(float(parts["score"]),),
            winners=(0,) if won else (),
            detail={"result": state.result, "score_parts": parts},
        )

    # -- moves as JSON -----------------------------------------------------------------------

    def parse_move(self, data: Any) -> Move:
        return R.parse_move(data)

    def move_to_json(self, move: Move) -> str:
        return move.text()

    # -- views -------------------------------------------------------------------------------

    def view(self, state: LoboState, seat: int | None) -> JsonDict:
        rules = state.rules
        out: JsonDict = {
            "game": self.id,
            "seat": seat,
            "mode": rules.mode,
            "round": state.round,
            "phase": state.phase,
            "to_move": self.to_move(state),
            "final": state.final,
            "hand": list(state.hand),
            "wolf": list(state.wolf),
            "reserve": list(state.reserve),
            "members": [{"card": MEMBERS[i], "active": up} for i, up in enumerate(state.members)],
            "pile_top": state.pile[0] if state.pile else None,
            "pile_size": len(state.pile),
            "discard": list(state.discard),
            "forced_fold": state.phase == R.PLAY and not R.capture_moves(state),
            "history": [end.to_json() for end in state.history],
            "result": state.result,
            "options": rules.to_json(),
        }
        if rules.classic:
            out["scores"] = {"player": state.scores[0], "wolf": state.scores[1]}
            out["target"] = rules.classic_target
        elif state.result == "won":
            out["score"] = R.final_score(state)
        return out

    def hidden_cards(self, state: LoboState, seat: int | None) -> Sequence[str]:
        return state.pile[1:]

    def sample_world(self, state: LoboState, seat: int, rng: Rng) -> LoboState:
        """The same state with the pile below its top card shuffled again."""
        if len(state.pile) < 3:
            return state
        from dataclasses import replace

        return replace(state, pile=(state.pile[0], *rng.shuffled(state.pile[1:])))

    def seat_cards(self, state: LoboState) -> Sequence[str]:
        return R.all_cards(state)

    # -- hints -------------------------------------------------------------------------------

    def hint(self, state: LoboState, seat: int) -> JsonDict:
        from .odds import hint

        self.check_turn(state, seat)
        return hint(state)

    # -- saving ------------------------------------------------------------------------------

    def to_json(self, state: LoboState) -> JsonDict:
        return {
            "seed": state.seed,
            "options": state.rules.to_json(),
            "round": state.round,
            "phase": state.phase,
            "pile": list(state.pile),
            "hand": list(state.hand),
            "wolf": list(state.wolf),
            "reserve": list(state.reserve),
            "discard": list(state.discard),
            "members": list(state.members),
            "final": state.final,
            "scores": list(state.scores),
            "history": [end.to_json() for end in state.history],
            "result": state.result,
        }

    def from_json(self, data: Any) -> LoboState:
        """A state from :meth:`to_json`'s form; ``bad_state`` naming the path if it is not one."""
        return _StateReader(data).read()


class _StateReader:
    """Checks a saved state field by field: types, the deck, and the phase's invariants."""

    def __init__(self, data: Any) -> None:
        self.data = data

    def read(self) -> LoboState:
        data = self.data
        require(isinstance(data, dict), "a Lobo state is an object", "$")
        seed = get_field(data, "seed", str, "$")
        require(is_valid_seed(seed), "not a valid seed", "$.seed")
        rules = self.rules(get_field(data, "options", dict, "$"))
        cards = {
            name: self.cards(name, rules) for name in ("pile", "hand", "wolf", "reserve", "discard")
        }
        every = [card for name in cards for card in cards[name]]
        require(
            Counter(every) == Counter(rules.deck),
            "the cards are not exactly the deck of these options",
            "$",
        )
        phase = get_field(data, "phase", str, "$")
        require(phase in (R.PLAY, R.CHOICE, R.OVER), "unknown phase", "$.phase")
        state = LoboState(
            seed=seed,
            rules=rules,
            round=self.number("round", 1, MAX_ROUND),
            phase=phase,
            pile=tuple(cards["pile"]),
            hand=sorted_cards(cards["hand"]),
            wolf=sorted_cards(cards["wolf"]),
            reserve=sorted_cards(cards["reserve"]),
            discard=tuple(cards["discard"]),
            members=self.members(rules),
            final=get_field(data, "final", bool, "$"),
            scores=self.scores(),
            history=self.history(),
            result=self.result(),
        )
        self.invariants(state)
        return state

    def rules(self, raw: dict[str, Any]) -> Rules:
        try:
            options = parse_options(OPTIONS, raw)
            check_options(options)
            return rules_from(options)
        except BadOptionError as error:
            raise BadStateError(error.message, path="$.options") from None

    def cards(self, name: str, rules: Rules) -> list[str]:
        return list(card_list(get_field(self.data, name, list, "$"), f"$.{name}", set(rules.deck)))

    def number(self, name: str, low: int, high: int, data: Any = None, path: str = "$") -> int:
        value = get_field(self.data if data is None else data, name, int, path)
        require(low <= value <= high, f"{name} out of range", f"{path}.{name}")
        return int(value)

    def members(self, rules: Rules) -> tuple[bool, ...]:
        value = get_field(self.data, "members", list, "$")
        size = 0 if rules.classic else 3
        require(len(value) == size, f"expected {size} members", "$.members")
        for i, up in enumerate(value):
            require(isinstance(up, bool), "a member is true (face up) or false", f"$.members[{i}]")
        return tuple(value)

    def scores(self) -> tuple[int, int]:
        value = get_field(self.data, "scores", list, "$")
        require(len(value) == 2, "scores are [player, wolf]", "$.scores")
        for i, points in enumerate(value):
            ok = isinstance(points, int) and not isinstance(points, bool)
            require(ok and 0 <= points <= MAX_POINTS, "a score is a whole number", f"$.scores[{i}]")
        return (int(value[0]), int(value[1]))

    def history(self) -> tuple[R.RoundEnd, ...]:
        value = get_field(self.data, "history", list, "$")
        require(len(value) <= MAX_ROUND, "history too long", "$.history")
        out = []
        for i, entry in enumerate(value):
            path = f"$.history[{i}]"
            out.append(
                R.RoundEnd(
                    round=self.number("round", 1, MAX_ROUND, entry, path),
                    won=get_field(entry, "won", bool, path),
                    wolf_left=self.number("wolf_left", 0, 100, entry, path),
                    members_lost=self.number("members_lost", 0, 3, entry, path),
                    points=self.number("points", 0, MAX_POINTS, entry, path),
                )
            )
        return tuple(out)

    def result(self) -> str | None:
        require("result" in self.data, "missing field 'result'", "$")
        value = self.data["result"]
        require(value in (None, "won", "lost"), "result is null, 'won' or 'lost'", "$.result")
        return value  # type: ignore[no-any-return]

    @staticmethod
    def invariants(state: LoboState) -> None:
        rules = state.rules
        over = state.phase == R.OVER
        require(
            over == (state.result is not None),
            "a result is set exactly when it is over",
            "$.result",
        )
        # The player's cards (hand and reserve) never grow inside a round: a PERFECT or a SUM
        # draws one card for at least one given, SPLIT and OVER draw none. A round starts with
        # at most HAND_SIZE cards in hand, and the reserve gains at most one card per round
        # won. Every card of a finished round is in the discard or the reserve, and a round
        # that is not the last deals 2 * HAND_SIZE cards: that bounds the rounds played.
        rounds_done = (len(state.discard) + len(state.reserve)) // (2 * R.HAND_SIZE)
        most = R.HAND_SIZE + (0 if rules.classic else rounds_done)
        require(
            len(state.hand) + len(state.reserve) <= most,
            f"the hand and the reserve hold at most {most} cards here",
            "$.hand",
        )
        if rules.classic:
            require(not state.reserve, "Classic Lobo has no reserve", "$.reserve")
            require(not state.final, "Classic Lobo has no final round", "$.final")
        if state.phase == R.PLAY:
            require(bool(state.wolf), "the Wolf has no cards but the round goes on", "$.wolf")
            if not rules.classic:
                require(state.active >= 1, "no member is face up but the game goes on", "$.members")
                require(
                    state.final or bool(state.pile),
                    "the pile is empty: the round is final",
                    "$.final",
                )
        if state.phase == R.CHOICE:
            require(not rules.classic, "Classic Lobo has no choice between rounds", "$.phase")
            require(not state.wolf and not state.final, "no choice is due here", "$.phase")
            require(bool(state.pile), "the pile is empty: the round was final", "$.pile")
            require(state.active >= 1, "no member is face up but the game goes on", "$.members")


GAME = LoboGame()
