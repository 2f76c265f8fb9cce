"""Rummikub: the rules of SPEC.md section 3 as a :class:`tapete.core.Game`.

Glossary:

pool        the face-down tiles (bolsa); its order is fixed when the game is set up, and a draw
            takes the first tile
rack        a player's tiles (soporte); only its owner sees them, the others see a count
table       the melds laid down, in the order the players left them
melded      whether a player has made the initial meld
starter     the player who begins: the highest tile of a one-tile draw (a joker counts 30, or
            is redrawn with ``first_player_joker_rule = REDRAW``); players tied for highest draw
            again. ``first_draws`` records every draw
passes      turns in a row without a tile played once the pool is empty; the game ends when
            every player has passed in turn (or, with ``pool_empty_final_turn_each``, after one
            more turn each once the pool runs out)
timeout     the move the page sends when the turn timer (``turn_timer_s`` > 0) runs out: the
            table stays as it was and the player draws ``failed_move_penalty`` tiles
match       with ``match_mode``, N games for N players; the standings are games won, then points

Moves (JSON, and the text form used in logs):

* ``"draw"`` (or ``{"draw": true}``): take the first tile of the pool; allowed while it has tiles.
* ``"pass"`` (or ``{"pass": true}``): only when the pool is empty.
* ``"timeout"`` (or ``{"timeout": true}``): the turn timer ran out (only with a timer).
* ``{"play": {"table": [meld, ...], "from_hand": [codes]}}``: the whole new table. A meld is a
  list of codes with each joker ``*`` at the position it takes (runs ascending), or, for a
  meld of one tile and two jokers that is meant as a group, ``{"group": ["R5", "*", "*"]}``.
  ``from_hand`` lists the tiles taken from the rack; when it is left out it is what the new
  table has more than the old one. Text form: ``play R1 R2 R3 | group: R5 * * ; hand R3 * *``.

``check`` validates a play atomically against the table at the start of the turn
(``rules.validate_play``): the reasons are ``not_on_rack``, ``nothing_played``,
``meld_invalid`` (with ``index`` and ``why``), ``table_tile_missing``, ``played_tile_missing``,
``tile_not_accounted``, ``table_changed_on_initial_meld``, ``initial_meld_too_low`` (with
``value`` and ``threshold``), ``joker_not_replaced``, ``joker_retrieval_before_meld``; and for
the other moves ``pool_empty`` (draw), ``pool_not_empty`` (pass), ``no_timer`` (timeout).

``legal_moves`` is NOT complete for this game: the plays of a turn are far too many to list.
It gives the draw (or the pass), the timeout when a timer is on, and a cheap play of new melds
from the rack alone (``rack_play``; the page asks for legal moves after every move, and the
full search costs up to a few hundred ms in Pyodide); the solver's best play is ``hint``'s
answer. ``check`` is the authority on every other play.

For the page: ``describe_melds`` reads each meld of a table being built (the ``inspect`` op),
``arrange`` finds a table for tiles the player chose (auto-arrange), ``hint`` the best play.

Scores: the winner of a game gets the sum of the others' racks, the others minus their rack
(a joker counts ``joker_rack_penalty``). When the pool runs out and nobody can play, the lowest
racks win and share the differences equally; shares are exact fractions, written as text
("10/3") in JSON and as floats in :class:`Outcome`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from ..core import (
    Game,
    OptionSpec,
    Outcome,
    card_list,
    get_field,
    int_field,
    read_state_header,
    require,
    state_header,
)
from ..errors import IllegalMoveError, InvalidMoveError, describe
from ..numbers import fraction
from ..rng import Rng
from .melds import (
    MAX_MELD,
    Meld,
    MeldError,
    describe_jokers,
    parse_meld,
    parse_meld_text,
    read_meld,
)
from .rules import RawMeld, check_rack, validate_play
from .tiles import FULL_SET, JOKER, number_of, parse_code, rack_value, sorted_tiles

RACK_SIZE = 14
MAX_MELDS = 60
MAX_TILES = 120

OPTIONS = (
    OptionSpec("initial_meld_threshold", 30, minimum=0, maximum=100),
    OptionSpec("initial_meld_joker_value", "ZERO", choices=("ZERO", "REPRESENTED")),
    OptionSpec("allow_manipulation_on_initial_turn", False),
    OptionSpec("duplicate_exchange_on_deal", True),
    OptionSpec("first_player_joker_rule", "VALUE_30", choices=("VALUE_30", "REDRAW")),
    OptionSpec("joker_replacement_source", "RACK_ONLY", choices=("RACK_ONLY", "RACK_OR_TABLE")),
    OptionSpec("joker_rack_penalty", 30, minimum=0, maximum=100),
    OptionSpec("turn_timer_s", 0, minimum=0, maximum=600),
    OptionSpec("failed_move_penalty", 1, minimum=0, maximum=5),
    OptionSpec("pool_empty_final_turn_each", False),
    OptionSpec("match_mode", False),
)

Draw = tuple[int, tuple[str, ...]]  # (seat, the tiles it drew; more than one after jokers)


def inferred_kind(tiles: Sequence[str]) -> str | None:
    """The kind a plain list of tiles reads as (None: not a meld at all)."""
    try:
        return read_meld(tiles).kind
    except MeldError:
        return None


@dataclass(frozen=True)
class Move:
    """``draw``, ``pass``, ``timeout`` or ``play`` (the new table and the tiles played).

    ``declared`` holds, per meld, the kind the player wrote when it differs from the kind the
    plain list reads as (None otherwise); it is empty when no meld declares anything.
    """

    kind: str
    table: tuple[Meld, ...] = ()
    from_hand: tuple[str, ...] | None = None
    declared: tuple[str | None, ...] = ()

    @classmethod
    def play(cls, table: Sequence[Meld], from_hand: Sequence[str] | None) -> Move:
        """A play of these melds, declaring the kind where a plain list would misread it."""
        raw = [(m.tiles, m.kind) for m in table]
        rack = None if from_hand is None else tuple(from_hand)
        return make_play(raw, rack)

    def text(self) -> str:
        if self.kind != "play":
            return self.kind
        melds = " | ".join(
            f"{k}: {' '.join(m.tiles)}" if k else " ".join(m.tiles)
            for m, k in zip(self.table, self.kinds(), strict=True)
        )
        hand = "" if self.from_hand is None else " ; hand " + " ".join(self.from_hand)
        return f"play {melds}{hand}"

    def __str__(self) -> str:
        return self.text()

    def kinds(self) -> tuple[str | None, ...]:
        return self.declared or tuple(None for _ in self.table)

    def raw(self) -> list[RawMeld]:
        """The melds as the rules read them: the declared kind, else the one a list reads as."""
        return [(m.tiles, k) for m, k in zip(self.table, self.kinds(), strict=True)]

    def table_json(self) -> list[Any]:
        return [
            {k: list(m.tiles)} if k else list(m.tiles)
            for m, k in zip(self.table, self.kinds(), strict=True)
        ]


def make_play(raw: Sequence[RawMeld], from_hand: tuple[str, ...] | None) -> Move:
    """A play from melds as written (tiles, declared kind or None)."""
    if sum(len(tiles) for tiles, _ in raw) > MAX_TILES or len(raw) > MAX_MELDS:
        raise InvalidMoveError("the table has more tiles than the game")
    melds = []
    declared: list[str | None] = []
    for tiles, kind in raw:
        inferred = inferred_kind(tiles)
        if kind == inferred:
            kind = None
        melds.append(Meld(kind or inferred or "run", tuple(tiles)))
        declared.append(kind)
    return Move("play", tuple(melds), from_hand, tuple(declared) if any(declared) else ())


@dataclass(frozen=True)
class GameResult:
    """One finished game of a match (or the only game)."""

    points: tuple[Fraction, ...]
    winners: tuple[int, ...]
    racks: tuple[int, ...]  # what each rack was worth
    ending: str  # "out" (a player emptied the rack) or "blocked" (pool empty, all passed)


@dataclass(frozen=True)
class RummikubState:
    seed: str
    players: int
    options: tuple[tuple[str, Any], ...]
    game_no: int
    first_draws: tuple[tuple[Draw, ...], ...]
    starter: int
    pool: tuple[str, ...]
    racks: tuple[tuple[str, ...], ...]
    table: tuple[Meld, ...]
    melded: tuple[bool, ...]
    current: int
    passes: int
    final_turns: int  # turns left once the pool ran out (pool_empty_final_turn_each), else -1
    turn: int
    last: tuple[int, str, int] | None  # (seat, "draw" | "play" | "pass" | "timeout", tiles)
    over: bool
    results: tuple[GameResult, ...]

    @property
    def option(self) -> dict[str, Any]:
        return dict(self.options)


def draw_starter(
    seed: str, game_no: int, players: int, redraw_jokers: bool
) -> tuple[int, tuple[tuple[Draw, ...], ...]]:
    """Each contender draws one tile; the highest number starts, ties draw again."""
    contenders = list(range(players))
    rounds: list[tuple[Draw, ...]] = []
    attempt = 0
    while True:
        tiles = Rng.derive("rummikub", seed, "first", game_no, attempt).shuffled(FULL_SET)
        draws: list[Draw] = []
        position = 0
        for seat in contenders:
            drawn = [tiles[position]]
            position += 1
            while redraw_jokers and drawn[-1] == JOKER:
                drawn.append(tiles[position])
                position += 1
            draws.append((seat, tuple(drawn)))
        rounds.append(tuple(draws))

        def worth(tile: str) -> int:
            return 30 if tile == JOKER else number_of(tile)

        best = max(worth(d[-1]) for _, d in draws)
        contenders = [seat for seat, d in draws if worth(d[-1]) == best]
        if len(contenders) == 1:
            return contenders[0], tuple(rounds)
        attempt += 1


def deal(
    seed: str, game_no: int, players: int, exchange: bool
) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """The racks and the pool: 14 tiles each in seat order, then the duplicate exchange."""
    rng = Rng.derive("rummikub", seed, "deal", game_no)
    pool = rng.shuffled(FULL_SET)
    racks = [pool[RACK_SIZE * s : RACK_SIZE * (s + 1)] for s in range(players)]
    pool = pool[RACK_SIZE * players :]
    if exchange:
        for rack in racks:
            for _ in range(10_000):  # ends with probability 1; the bound is a safety net
                counts = Counter(t for t in rack if t != JOKER)
                double = next((t for t in rack if counts[t] > 1), None)
                if double is None:
                    break
                rack.remove(double)
                pool.append(double)
                rng.shuffle(pool)
                rack.append(pool.pop(0))
    return tuple(pool), tuple(tuple(rack) for rack in racks)


def points_out(racks: Sequence[int], winner: int) -> tuple[Fraction, ...]:
    """A player went out: they get the sum of the other racks, the others lose their rack."""
    total = sum(v for s, v in enumerate(racks) if s != winner)
    return tuple(Fraction(total if s == winner else -v) for s, v in enumerate(racks))


def points_blocked(racks: Sequence[int]) -> tuple[tuple[Fraction, ...], tuple[int, ...]]:
    """Nobody can play: the lowest racks win and share the differences (the zero-sum way)."""
    low = min(racks)
    winners = tuple(s for s, v in enumerate(racks) if v == low)
    pot = Fraction(sum(v - low for v in racks), len(winners))
    points = tuple(pot if s in winners else Fraction(low - v) for s, v in enumerate(racks))
    return points, winners


def fraction_text(value: Fraction) -> str | int:
    return int(value) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


MAX_RACK_VALUE = 2_000  # more than a rack holding every tile with both jokers at 30 counts


def parse_fraction(value: Any, path: str) -> Fraction:
    """A point total as a saved result writes it (a whole number or ``"a/b"``), within what a
    game of racks worth at most ``MAX_RACK_VALUE`` can score."""
    bound = MAX_RACK_VALUE * 4
    result = fraction(value, -bound, bound)
    require(result is not None, "expected a whole number or a fraction 'a/b'", path)
    assert result is not None
    return result


class Rummikub(Game[RummikubState, Move]):
    id = "rummikub"
    min_players = 2
    max_players = 4
    default_players = 4
    options_spec = OPTIONS
    bot_levels = ("random", "easy", "normal", "hard")
    cards_total = len(FULL_SET)
    past_view_keys = ("first_draws",)

    def __init__(self) -> None:
        # level -> bot; the package fills GAME's (``__init__``): the rules import no bot
        self.bots: dict[str, Callable[[Any, Any, int, Rng], Move]] = {}

    # -- setup -------------------------------------------------------------------------------

    def setup(self, seed: str, options: dict[str, Any], players: int) -> RummikubState:
        empty = RummikubState(
            seed=seed,
            players=players,
            options=tuple(sorted(options.items())),
            game_no=0,
            first_draws=(),
            starter=0,
            pool=(),
            racks=(),
            table=(),
            melded=(),
            current=0,
            passes=0,
            final_turns=-1,
            turn=0,
            last=None,
            over=False,
            results=(),
        )
        return self.start_game(empty, 1)

    def start_game(self, state: RummikubState, game_no: int) -> RummikubState:
        opts = state.option
        starter, draws = draw_starter(
            state.seed, game_no, state.players, opts["first_player_joker_rule"] == "REDRAW"
        )
        pool, racks = deal(state.seed, game_no, state.players, opts["duplicate_exchange_on_deal"])
        return replace(
            state,
            game_no=game_no,
            first_draws=draws,
            starter=starter,
            pool=pool,
            racks=racks,
            table=(),
            melded=(False,) * state.players,
            current=starter,
            passes=0,
            final_turns=-1,
            turn=0,
            last=None,
            over=False,
        )

    # -- turns -------------------------------------------------------------------------------

    def players(self, state: RummikubState) -> int:
        return state.players

    def to_move(self, state: RummikubState) -> int | None:
        return None if state.over else state.current

    def moves(self, state: RummikubState, seat: int) -> list[Move]:
        out = [Move("draw") if state.pool else Move("pass")]
        if state.option["turn_timer_s"]:
            out.append(Move("timeout"))
        play = self.rack_play(state, seat)
        if play is not None:
            out.insert(0, play)
        return out

    def rack_play(self, state: RummikubState, seat: int) -> Move | None:
        """A cheap play for ``legal_moves``: new melds from the rack alone (the initial meld if
        the seat has not melded), the table left as it is. The page asks for legal moves after
        every move, so the full search (``best_play``) is left to ``hint`` and the bots."""
        from .solver import solve

        melded = state.melded[seat]
        solution = solve((), state.racks[seat], initial=not melded, options=state.option)
        if not solution.placed:
            return None
        return Move.play(state.table + solution.table, solution.placed)

    def best_play(self, state: RummikubState, seat: int, objective: str = "value") -> Move | None:
        """The solver's best play for ``seat`` (an initial meld if it has not melded)."""
        from .solver import solve

        rack = state.racks[seat]
        melded = state.melded[seat]
        solution = solve(
            state.table, rack, objective=objective, initial=not melded, options=state.option
        )
        if not solution.placed:
            return None
        table = solution.table if melded else state.table + solution.table
        return Move.play(table, solution.placed)

    def check_move(self, state: RummikubState, seat: int, move: Move) -> None:
        if move.kind == "draw":
            if not state.pool:
                raise IllegalMoveError("pool_empty", "the pool is empty: pass instead")
            return
        if move.kind == "pass":
            if state.pool:
                raise IllegalMoveError(
                    "pool_not_empty", "you may pass only when the pool is empty: draw a tile"
                )
            return
        if move.kind == "timeout":
            if not state.option["turn_timer_s"]:
                raise IllegalMoveError("no_timer", "this game has no turn timer")
            return
        validate_play(
            state.table,
            state.racks[seat],
            move.raw(),
            move.from_hand,
            melded=state.melded[seat],
            options=state.option,
        )

    def play(self, state: RummikubState, seat: int, move: Move) -> RummikubState:
        if move.kind == "draw":
            return self.end_turn(self.draw(state, seat, 1), seat, "draw", 1, played=False)
        if move.kind == "pass":
            return self.end_turn(state, seat, "pass", 0, played=False)
        if move.kind == "timeout":
            count = min(int(state.option["failed_move_penalty"]), len(state.pool))
            return self.end_turn(self.draw(state, seat, count), seat, "timeout", count, False)
        table, played = validate_play(
            state.table,
            state.racks[seat],
            move.raw(),
            move.from_hand,
            melded=state.melded[seat],
            options=state.option,
        )
        rack = list(state.racks[seat])
        for tile in played:
            rack.remove(tile)
        racks = list(state.racks)
        racks[seat] = tuple(rack)
        melded = list(state.melded)
        melded[seat] = True
        state = replace(state, table=table, racks=tuple(racks), melded=tuple(melded))
        return self.end_turn(state, seat, "play", len(played), played=True)

    def draw(self, state: RummikubState, seat: int, count: int) -> RummikubState:
        racks = list(state.racks)
        racks[seat] = state.racks[seat] + state.pool[:count]
        state = replace(state, racks=tuple(racks), pool=state.pool[count:])
        if count and not state.pool and state.option["pool_empty_final_turn_each"]:
            state = replace(state, final_turns=state.players + 1)  # this turn, then one each
        return state

    def end_turn(
        self, state: RummikubState, seat: int, action: str, tiles: int, played: bool
    ) -> RummikubState:
        idle = action == "pass" or (action == "timeout" and tiles == 0)
        passes = state.passes + 1 if idle else 0
        final = state.final_turns - 1 if state.final_turns > 0 else state.final_turns
        state = replace(
            state,
            passes=passes,
            final_turns=final,
            turn=state.turn + 1,
            last=(seat, action, tiles),
            current=(seat + 1) % state.players,
        )
        if played and not state.racks[seat]:
            return self.finish(state, "out", seat)
        if not state.pool and (passes >= state.players or final == 0):
            return self.finish(state, "blocked", None)
        return state

    def finish(self, state: RummikubState, ending: str, winner: int | None) -> RummikubState:
        penalty = int(state.option["joker_rack_penalty"])
        values = tuple(rack_value(rack, penalty) for rack in state.racks)
        if winner is not None:
            result = GameResult(points_out(values, winner), (winner,), values, ending)
        else:
            points, winners = points_blocked(values)
            result = GameResult(points, winners, values, ending)
        state = replace(state, results=state.results + (result,), over=True)
        if state.option["match_mode"] and state.game_no < state.players:
            return self.start_game(state, state.game_no + 1)
        return state

    # -- results -----------------------------------------------------------------------------

    def standings(self, state: RummikubState) -> tuple[list[Fraction], list[Fraction]]:
        """Per seat: games won (a shared win counts a share) and total points."""
        wins = [Fraction(0)] * state.players
        totals = [Fraction(0)] * state.players
        for result in state.results:
            for seat in result.winners:
                wins[seat] += Fraction(1, len(result.winners))
            for seat, points in enumerate(result.points):
                totals[seat] += points
        return wins, totals

    def outcome(self, state: RummikubState) -> Outcome | None:
        if not state.over:
            return None
        wins, totals = self.standings(state)
        if state.option["match_mode"]:
            best = max(zip(wins, totals, strict=True))
            winners = [s for s in range(state.players) if (wins[s], totals[s]) == best]
        else:
            winners = list(state.results[-1].winners)
        return Outcome(
            scores=tuple(float(t) for t in totals),
            winners=tuple(winners),
            detail={
                "points": [fraction_text(t) for t in totals],
                "games_won": [fraction_text(w) for w in wins],
                "racks": list(state.results[-1].racks),
                "ending": state.results[-1].ending,
            },
        )

    # -- views -------------------------------------------------------------------------------

    def view(self, state: RummikubState, seat: int | None) -> dict[str, Any]:
        penalty = int(state.option["joker_rack_penalty"])
        rack = sorted_tiles(state.racks[seat]) if seat is not None else []
        return {
            "game": self.id,
            "players": state.players,
            "seat": seat,
            "to_move": self.to_move(state),
            "phase": "over" if state.over else "play",
            "rack": rack,
            "rack_value": rack_value(rack, penalty) if seat is not None else None,
            "rack_sizes": [len(r) for r in state.racks],
            "table": [table_entry(meld) for meld in state.table],
            "pool_size": len(state.pool),
            "melded": list(state.melded),
            "passes": state.passes,
            "final_turns": state.final_turns,
            "turn": state.turn,
            "last": (
                {"seat": state.last[0], "action": state.last[1], "tiles": state.last[2]}
                if state.last
                else None
            ),
            "starter": state.starter,
            "first_draws": [draws_json(d) for d in state.first_draws],
            "game_no": state.game_no,
            "games": state.players if state.option["match_mode"] else 1,
            "results": [result_json(r) for r in state.results],
            "options": state.option,
        }

    def hidden_cards(self, state: RummikubState, seat: int | None) -> list[str]:
        others = [t for s, rack in enumerate(state.racks) if s != seat for t in rack]
        return others + list(state.pool)

    def seat_cards(self, state: RummikubState) -> list[str]:
        tiles = [t for rack in state.racks for t in rack] + list(state.pool)
        return tiles + [t for meld in state.table for t in meld.tiles]

    def sample_world(self, state: RummikubState, seat: int, rng: Rng) -> RummikubState:
        """Re-deal the tiles ``seat`` cannot see (the other racks and the pool). They are sorted
        first, so the deal depends on what the seat sees alone, not on their hidden order (the
        hard bot samples with it)."""
        if state.over:
            return state
        unseen = rng.shuffled(sorted(self.hidden_cards(state, seat)))
        racks = list(state.racks)
        for other in range(state.players):
            if other != seat:
                size = len(state.racks[other])
                racks[other], unseen = tuple(unseen[:size]), unseen[size:]
        return replace(state, racks=tuple(racks), pool=tuple(unseen))

    def hint(self, state: RummikubState, seat: int) -> dict[str, Any]:
        """The solver's best play, with what changes on the table."""
        from .solver import solve

        melded = state.melded[seat]
        solution = solve(state.table, state.racks[seat], initial=not melded, options=state.option)
        if not solution.placed:
            move = Move("draw") if state.pool else Move("pass")
            none = {"move": self.move_to_json(move), "placed": [], "value": 0, "melds": []}
            return {**none, "exact": solution.exact}
        table = solution.table if melded else state.table + solution.table
        offset = 0 if melded else len(state.table)
        changed = [i + offset for i in solution.changed]
        move = Move.play(table, solution.placed)
        out = {
            "move": self.move_to_json(move),
            "placed": list(solution.placed),
            "value": solution.value,
            "tiles": solution.tiles,
            "exact": solution.exact,
            "changed": changed,
            "melds": [table_entry(meld) for meld in table],
        }
        if not melded:
            # what the initial meld counts (a joker 0 or what it stands for, by the options),
            # the number the page's meld counter shows; ``value`` is the rack value shed
            joker_counts = state.option["initial_meld_joker_value"] == "REPRESENTED"
            out["initial_value"] = sum(
                read_meld(meld.tiles, meld.kind).value(meld.tiles, joker_counts)
                for meld in solution.table
            )
        return out

    def describe_melds(self, state: RummikubState, seat: int, table: Any) -> list[dict[str, Any]]:
        """Each meld of a proposed table: ``{valid, kind, value, jokers, changed}`` when it is a
        meld, ``{valid: false, reason, message, changed}`` when not (``reason`` is a meld's
        ``why`` or ``bad_tile``). ``value`` counts a joker as the initial meld does under the
        options; ``changed`` is false for a meld that stands on the table as it is now.
        ``ambiguous: true`` marks a valid meld whose tiles make both a run and a group (one tile
        and two jokers): a plain list reads as the run; ``{"group": [...]}`` asks for the group."""
        if not isinstance(table, list) or len(table) > MAX_MELDS:
            raise InvalidMoveError(f"the table is a list of melds; got {describe(table)}")
        joker_counts = state.option["initial_meld_joker_value"] == "REPRESENTED"
        unchanged = Counter(meld.canonical() for meld in state.table)
        out: list[dict[str, Any]] = []
        for index, item in enumerate(table):
            try:
                tiles, kind = parse_meld(item, f"meld {index + 1}")
            except InvalidMoveError as error:
                entry = {"valid": False, "reason": "bad_tile", "message": error.message}
                out.append({**entry, "changed": True})
                continue
            try:
                reading = read_meld(tiles, kind)
            except MeldError as error:
                entry = {"valid": False, "reason": error.why, "message": error.message}
                out.append({**entry, "changed": True})
                continue
            meld = Meld(reading.kind, tiles)
            kept = unchanged[meld.canonical()] > 0
            if kept:
                unchanged[meld.canonical()] -= 1
            entry = {
                "valid": True,
                "kind": reading.kind,
                "value": reading.value(tiles, joker_counts),
                "jokers": describe_jokers(meld),
                "changed": not kept,
            }
            try:  # a run and a group both (one tile and two jokers, e.g. R5 * *)
                read_meld(tiles, "run")
                read_meld(tiles, "group")
                entry["ambiguous"] = True
            except MeldError:
                pass
            out.append(entry)
        return out

    def arrange(self, state: RummikubState, seat: int, tiles: Any) -> dict[str, Any]:
        """Auto-arrange: the table that lays the most of ``tiles`` (rack tiles the player chose)
        onto the table, rearranging it freely (an initial meld from them alone when the seat has
        not melded). ``complete`` says whether every one of them found a place."""
        from .solver import solve

        if not isinstance(tiles, list) or len(tiles) > MAX_TILES:
            raise InvalidMoveError(f"tiles is a list of codes; got {describe(tiles)}")
        chosen = [parse_code(t, "tiles") for t in tiles]
        check_rack(state.racks[seat], chosen)
        melded = state.melded[seat]
        solution = solve(
            state.table, chosen, objective="tiles", initial=not melded, options=state.option
        )
        if not solution.placed:
            return {"table": None, "from_hand": [], "complete": False}
        table = solution.table if melded else state.table + solution.table
        move = Move.play(table, solution.placed)
        return {
            "table": move.table_json(),
            "from_hand": list(solution.placed),
            "complete": len(solution.placed) == len(chosen),
        }

    # -- JSON --------------------------------------------------------------------------------

    def parse_move(self, data: Any) -> Move:
        if isinstance(data, str):
            return self.parse_move_text(data)
        if isinstance(data, dict) and len(data) == 1:
            key, value = next(iter(data.items()))
            if key in ("draw", "pass", "timeout") and value is True:
                return Move(key)
            if key == "play":
                return self.parse_play(value)
        raise InvalidMoveError(
            'a Rummikub move is "draw", "pass", "timeout" or '
            f'{{"play": {{"table": [...], "from_hand": [...]}}}}; got {describe(data)}'
        )

    def parse_move_text(self, text: str) -> Move:
        if text in ("draw", "pass", "timeout"):
            return Move(text)
        if not text.startswith("play ") or len(text) > 2000:
            raise InvalidMoveError(
                f"a Rummikub move is 'draw', 'pass', 'timeout' or 'play ...'; got {describe(text)}"
            )
        body, _, hand_text = text[5:].partition(";")
        from_hand: tuple[str, ...] | None = None
        if hand_text:
            words = hand_text.split()
            if not words or words[0] != "hand":
                raise InvalidMoveError(
                    f"after ';' comes 'hand' and the tiles; got {describe(text)}"
                )
            from_hand = tuple(parse_code(t, "from_hand") for t in words[1:])
        raw = [parse_meld_text(part, f"meld {i + 1}") for i, part in enumerate(body.split("|"))]
        return make_play(raw, from_hand)

    def parse_play(self, data: Any) -> Move:
        if (
            not isinstance(data, dict)
            or not set(data) <= {"table", "from_hand"}
            or ("table" not in data)
        ):
            raise InvalidMoveError(
                f'a play is {{"table": [melds], "from_hand": [tiles]}}; got {describe(data)}'
            )
        table = data["table"]
        if not isinstance(table, list) or len(table) > MAX_MELDS:
            raise InvalidMoveError(f"the table is a list of melds; got {describe(table)}")
        raw = [parse_meld(meld, f"meld {i + 1}") for i, meld in enumerate(table)]
        from_hand: tuple[str, ...] | None = None
        if data.get("from_hand") is not None:
            tiles = data["from_hand"]
            if not isinstance(tiles, list) or len(tiles) > MAX_TILES:
                raise InvalidMoveError(f"from_hand is a list of tiles; got {describe(tiles)}")
            from_hand = tuple(parse_code(t, "from_hand") for t in tiles)
        return make_play(raw, from_hand)

    def move_to_json(self, move: Move) -> Any:
        if move.kind != "play":
            return move.kind
        out: dict[str, Any] = {"table": move.table_json()}
        if move.from_hand is not None:
            out["from_hand"] = list(move.from_hand)
        return {"play": out}

    def to_json(self, state: RummikubState) -> dict[str, Any]:
        return {
            **state_header(state.seed, state.players, state.option),
            "game_no": state.game_no,
            "first_draws": [draws_json(d) for d in state.first_draws],
            "starter": state.starter,
            "pool": list(state.pool),
            "racks": [list(r) for r in state.racks],
            "table": [meld.to_json() for meld in state.table],
            "melded": list(state.melded),
            "current": state.current,
            "passes": state.passes,
            "final_turns": state.final_turns,
            "turn": state.turn,
            "last": list(state.last) if state.last else None,
            "over": state.over,
            "results": [result_json(r) for r in state.results],
        }

    def from_json(self, data: Any) -> RummikubState:
        return StateReader(self, data).read()


def table_entry(meld: Meld) -> dict[str, Any]:
    """A meld as the page draws it: kind, tiles, and what each joker stands for."""
    return {"kind": meld.kind, "tiles": list(meld.tiles), "jokers": describe_jokers(meld)}


def draws_json(draws: Sequence[Draw]) -> list[dict[str, Any]]:
    return [{"seat": seat, "tiles": list(tiles)} for seat, tiles in draws]


def result_json(result: GameResult) -> dict[str, Any]:
    return {
        "points": [fraction_text(p) for p in result.points],
        "winners": list(result.winners),
        "racks": list(result.racks),
        "ending": result.ending,
    }


# every tile code, for reading states
TILE_CODES: frozenset[str] = frozenset(FULL_SET)


class StateReader:
    """Reads a state from JSON, checking every field; faults are ``bad_state`` with a path."""

    def __init__(self, game: Rummikub, data: Any) -> None:
        self.game = game
        self.data = data

    def read(self) -> RummikubState:
        d = self.data
        seed, n, options = read_state_header(self.game, d, "Rummikub")
        games = n if options["match_mode"] else 1
        game_no = int_field(d, "game_no", 1, games)
        starter = int_field(d, "starter", 0, n - 1)
        first_draws = self.first_draws(get_field(d, "first_draws", list, "$"), n)
        pool = self.tiles(get_field(d, "pool", list, "$"), "$.pool")
        racks_raw = get_field(d, "racks", list, "$")
        require(len(racks_raw) == n, f"expected {n} racks", "$.racks")
        racks = tuple(self.tiles(r, f"$.racks[{i}]") for i, r in enumerate(racks_raw))
        table = self.table(get_field(d, "table", list, "$"))
        melded_raw = get_field(d, "melded", list, "$")
        require(
            len(melded_raw) == n and all(isinstance(x, bool) for x in melded_raw),
            f"expected {n} true/false values",
            "$.melded",
        )
        current = int_field(d, "current", 0, n - 1)
        passes = int_field(d, "passes", 0, n)
        final_turns = int_field(d, "final_turns", -1, n + 1)
        turn = int_field(d, "turn", 0, 100_000)
        over = get_field(d, "over", bool, "$")
        last = self.last(d.get("last"), n)
        results_raw = get_field(d, "results", list, "$")
        require(len(results_raw) <= games, f"at most {games} results", "$.results")
        results = tuple(self.result(r, f"$.results[{i}]", n) for i, r in enumerate(results_raw))
        state = RummikubState(
            seed=seed,
            players=n,
            options=tuple(sorted(options.items())),
            game_no=game_no,
            first_draws=first_draws,
            starter=starter,
            pool=pool,
            racks=racks,
            table=table,
            melded=tuple(melded_raw),
            current=current,
            passes=passes,
            final_turns=final_turns,
            turn=turn,
            last=last,
            over=over,
            results=results,
        )
        self.check_consistency(state)
        return state

    def tiles(self, items: Any, path: str) -> tuple[str, ...]:
        require(isinstance(items, list) and len(items) <= len(FULL_SET), "expected tiles", path)
        return card_list(items, path, TILE_CODES)

    def table(self, items: list[Any]) -> tuple[Meld, ...]:
        require(len(items) <= MAX_MELDS, "too many melds", "$.table")
        out = []
        for i, item in enumerate(items):
            path = f"$.table[{i}]"
            require(isinstance(item, (list, dict)), "a meld is a list or an object", path)
            try:
                tiles, kind = parse_meld(item, path)
                reading = read_meld(tiles, kind)
            except (InvalidMoveError, MeldError) as error:
                require(False, f"not a valid meld: {error}", path)
            require(len(tiles) <= MAX_MELD, "meld too long", path)
            out.append(Meld(reading.kind, tiles))
        return tuple(out)

    def first_draws(self, items: list[Any], n: int) -> tuple[tuple[Draw, ...], ...]:
        require(1 <= len(items) <= 50, "expected the first-player draws", "$.first_draws")
        out = []
        for i, draw in enumerate(items):
            path = f"$.first_draws[{i}]"
            require(isinstance(draw, list) and 1 <= len(draw) <= n, "expected draws", path)
            row = []
            for j, entry in enumerate(draw):
                p = f"{path}[{j}]"
                seat = get_field(entry, "seat", int, p)
                require(0 <= seat < n, "not a seat", f"{p}.seat")
                tiles = self.tiles(get_field(entry, "tiles", list, p), f"{p}.tiles")
                require(1 <= len(tiles) <= 3, "expected one to three tiles", f"{p}.tiles")
                row.append((seat, tiles))
            out.append(tuple(row))
        return tuple(out)

    def last(self, value: Any, n: int) -> tuple[int, str, int] | None:
        if value is None:
            return None
        ok = (
            isinstance(value, list)
            and len(value) == 3
            and isinstance(value[0], int)
            and not isinstance(value[0], bool)
            and 0 <= value[0] < n
            and value[1] in ("draw", "play", "pass", "timeout")
            and isinstance(value[2], int)
            and not isinstance(value[2], bool)
            and 0 <= value[2] <= len(FULL_SET)
        )
        require(ok, "last is [seat, action, tiles] or null", "$.last")
        return (value[0], value[1], value[2])

    def result(self, r: Any, path: str, n: int) -> GameResult:
        require(isinstance(r, dict), "a result is an object", path)
        points = get_field(r, "points", list, path)
        require(len(points) == n, f"expected {n} points", f"{path}.points")
        winners = get_field(r, "winners", list, path)
        require(
            1 <= len(winners) <= n
            and all(isinstance(w, int) and not isinstance(w, bool) and 0 <= w < n for w in winners),
            "expected winning seats",
            f"{path}.winners",
        )
        racks = get_field(r, "racks", list, path)
        require(
            len(racks) == n
            and all(
                isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_RACK_VALUE
                for v in racks
            ),
            "expected rack values",
            f"{path}.racks",
        )
        ending = get_field(r, "ending", str, path)
        require(ending in ("out", "blocked"), "ending is 'out' or 'blocked'", f"{path}.ending")
        read = tuple(parse_fraction(p, f"{path}.points[{i}]") for i, p in enumerate(points))
        if ending == "out":
            require(len(winners) == 1, "a game won by going out has one winner", f"{path}.winners")
            expected = points_out(racks, winners[0]), tuple(winners)
        else:
            expected = points_blocked(racks)
        require(expected[1] == tuple(winners), "the winners do not match the racks", path)
        require(expected[0] == read, "the points do not match the racks", f"{path}.points")
        return GameResult(read, tuple(winners), tuple(racks), ending)

    def check_consistency(self, s: RummikubState) -> None:
        everything = Counter(self.game.seat_cards(s))
        require(everything == Counter(FULL_SET), "the tiles do not make one set", "$")
        finished = len(s.results)
        if s.over:
            require(finished == s.game_no, "a finished game has its result", "$.results")
        else:
            require(finished == s.game_no - 1, "results do not match the game number", "$.results")
            require(all(s.racks), "a rack is empty but the game goes on", "$.racks")
        require(not s.table or any(s.melded), "tiles on the table but nobody has melded", "$.table")
        require(s.passes == 0 or not s.pool, "passes only once the pool is empty", "$.passes")
        require(
            s.final_turns == -1 or not s.pool,
            "final turns only once the pool is empty",
            "$.final_turns",
        )


GAME = Rummikub()
