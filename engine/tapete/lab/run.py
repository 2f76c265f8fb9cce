"""The playtest lab: seeded bot-vs-bot games for a setting of a game's knobs, and the numbers
a designer asks about (written for Willie, whose designer is still tuning it).

Glossary:

setting    a game's options (knobs) plus the player counts and bot levels to use
run        ``games`` games of one setting; game ``i`` is dealt from the seed ``"{seed}-{i}"``
           and the bots of game ``i`` draw from streams named by ``i``, so a run is fully
           reproducible from (game, setting, seed, games): that is what a shared link holds
record     what one finished game leaves behind (:mod:`tapete.lab.records`)
summary    the numbers of a run (:mod:`tapete.lab.stats`): rounds per game, turns per round,
           how rounds end (closing, going out, empty stock), how often the closer wins or is
           undercut, the spread of the scores, the games per player count; with histograms

Use from Python::

    a = run(LabConfig.make(games=200, seed="S", options={"hand_size": 10}))
    b = run(LabConfig.make(games=200, seed="S", options={"hand_size": 10, "close_threshold": 5}))
    print(markdown([a, b]))

or from the command line (the same table, :mod:`tapete.lab.__main__`)::

    python -m tapete.lab willie --players 2 --games 200 --seed S --set hand_size=10 \\
        --vs close_threshold=5

``--vs`` describes the second setting as changes to the first. ``run`` takes a ``progress``
callback ``(done, total)`` and a ``should_stop`` callable, polled between moves: a stopped run
keeps the games finished so far. The page runs a lab in chunks through the worker
(:mod:`tapete.lab.ops`), so it can show progress and stop between chunks.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import get_game
from ..bots import choose_move
from ..errors import BadOptionError, BadRequestError, describe
from .records import GameRecord, RoundRow
from .stats import markdown as table_lines
from .stats import summarize, table_cells

LAB_GAMES = ("willie",)  # the numbers are a closing rummy's: how rounds end, who closed
MAX_GAMES = 100_000
MAX_MOVES = 20_000  # per game: a safety net, never reached in practice
Progress = Callable[[int, int], None]
ShouldStop = Callable[[], bool]


CONFIG_FIELDS = ("game", "players", "games", "seed", "options", "levels")


def _short_list(value: Any) -> tuple[Any, ...]:
    """The items of a list of 1 to 6 (an empty tuple for anything else)."""
    ok = isinstance(value, (list, tuple)) and 1 <= len(value) <= 6
    return tuple(value) if ok else ()


@dataclass(frozen=True)
class LabConfig:
    """One setting and its run: everything a shared link needs to recompute the numbers."""

    game: str = "willie"
    players: tuple[int, ...] = (2,)
    games: int = 100
    seed: str = "LAB"
    options: tuple[tuple[str, Any], ...] = ()
    levels: tuple[str, ...] = ("normal",)

    @classmethod
    def make(
        cls,
        game: str = "willie",
        players: Sequence[int] | int = (2,),
        games: int = 100,
        seed: str = "LAB",
        options: Mapping[str, Any] | None = None,
        levels: Sequence[str] | str = ("normal",),
    ) -> LabConfig:
        """A checked configuration (``bad_option`` for anything a game would refuse)."""
        engine = get_game(game)
        if game not in LAB_GAMES:
            raise BadOptionError(
                f"the lab plays {', '.join(LAB_GAMES)}; it has no numbers for {game}",
                option="game",
            )
        counts = (players,) if isinstance(players, int) else _short_list(players)
        if not counts:
            raise BadOptionError(
                f"players must name 1 to 6 player counts; got {describe(players)}", option="players"
            )
        for count in counts:
            engine.check_players(count)
        if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
            raise BadOptionError(f"games must be 1 to {MAX_GAMES}; got {describe(games)}")
        if not isinstance(seed, str) or len(seed) > 24:
            raise BadOptionError(f"a lab seed is at most 24 characters; got {describe(seed)}")
        engine.check_seed(seed)
        parsed = engine.parse_options(options)
        defaults = engine.parse_options(None)
        changed = tuple(sorted((k, v) for k, v in parsed.items() if defaults[k] != v))
        names = (levels,) if isinstance(levels, str) else _short_list(levels)
        if not names:
            raise BadOptionError(
                f"levels must name 1 to 6 bot levels; got {describe(levels)}", option="levels"
            )
        for level in names:
            if level not in engine.bot_levels:
                raise BadOptionError(f"{game} has no bot level {level!r}", option="levels")
        return cls(game, counts, games, seed, changed, names)

    @property
    def option(self) -> dict[str, Any]:
        return dict(self.options)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": list(self.players),
            "games": self.games,
            "seed": self.seed,
            "options": self.option,
            "levels": list(self.levels),
        }

    def key(self) -> str:
        """A short fingerprint of the whole setting (game, players, games, seed, options,
        levels): a tally carries it, so games of two settings are never counted together."""
        text = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:32]

    @classmethod
    def from_json(cls, data: Any) -> LabConfig:
        if not isinstance(data, dict):
            raise BadRequestError(f"a lab configuration is an object; got {describe(data)}")
        unknown = sorted(str(k) for k in data if k not in CONFIG_FIELDS)
        if unknown:
            raise BadRequestError(f"a lab configuration has no field {unknown[0]!r}")
        return cls.make(
            game=data.get("game", "willie"),
            players=data.get("players", [2]),
            games=data.get("games", 100),
            seed=data.get("seed", "LAB"),
            options=data.get("options"),
            levels=data.get("levels", ["normal"]),
        )

    def label(self) -> str:
        knobs = ", ".join(f"{k}={v}" for k, v in self.options) or "defaults"
        return knobs


@dataclass
class LabResult:
    config: LabConfig
    records: list[GameRecord] = field(default_factory=list)
    stopped: bool = False
    seconds: float = 0.0
    paused: Paused | None = None

    def summary(self) -> dict[str, Any]:
        return summarize(self.records)


@dataclass(frozen=True)
class Paused:
    """A game of the run stopped between two moves when a chunk's budget ran out: the next chunk
    goes on from ``state`` after ``moves`` moves (the bots' choices are seeded by the index and
    the move number, so the game ends exactly as if it had never stopped)."""

    index: int
    moves: int
    state: Any

    def to_json(self, engine: Any) -> dict[str, Any]:
        return {"index": self.index, "moves": self.moves, "state": engine.to_json(self.state)}


def play_game(
    config: LabConfig,
    index: int,
    over_budget: ShouldStop | None = None,
    paused: Paused | None = None,
) -> GameRecord | Paused:
    """Game ``index`` of the run: dealt from ``{seed}-{index}``, bots seeded by the index; from
    ``paused`` when it is given. When ``over_budget`` answers True after a move, the game stops
    there and is answered as :class:`Paused` (so every call plays at least one move)."""
    engine = get_game(config.game)
    players = config.players[index % len(config.players)]
    if paused is None:
        state, moves = engine.new_game(f"{config.seed}-{index}", config.option, players), 0
    else:
        state, moves = paused.state, paused.moves
    while (seat := engine.to_move(state)) is not None and moves < MAX_MOVES:
        level = config.levels[seat % len(config.levels)]
        state = engine.apply(state, seat, choose_move(engine, state, seat, level, (index, moves)))
        moves += 1
        if over_budget is not None and engine.to_move(state) is not None and over_budget():
            return Paused(index, moves, state)
    outcome = engine.outcome(state)
    rows = tuple(round_row(row) for row in state.history)
    if outcome is None:
        return GameRecord(index, players, rows, (), (), False)
    scores = tuple(float(s) for s in outcome.scores)
    return GameRecord(index, players, rows, scores, tuple(outcome.winners), True)


def round_row(row: Any) -> RoundRow:
    """A finished round of the game's score sheet (Willie's ``RoundRecord``) as a lab row."""
    closed = row.end == "close"
    closer_won = (row.closer in row.score.winners) if closed else None
    gains = tuple(float(g) for g in row.score.gains)
    return RoundRow(row.end, row.turns, closer_won, bool(row.score.undercut), gains)


def run(
    config: LabConfig,
    progress: Progress | None = None,
    should_stop: ShouldStop | None = None,
    start: int = 0,
    count: int | None = None,
    paused: Paused | None = None,
) -> LabResult:
    """Play games ``start`` .. ``start + count - 1`` of the run (all of them by default), the
    first one from ``paused`` when given. ``should_stop`` is polled between moves: a stopped
    run keeps the games finished so far, and the game it stopped in as ``result.paused``."""
    began = time.perf_counter()
    total = config.games - start if count is None else min(count, config.games - start)
    result = LabResult(config)
    for done in range(total):
        outcome = play_game(config, start + done, should_stop, paused if done == 0 else None)
        if isinstance(outcome, Paused):
            result.stopped, result.paused = True, outcome
            break
        result.records.append(outcome)
        if progress is not None:
            progress(done + 1, total)
    result.seconds = time.perf_counter() - began
    return result


def as_json(result: LabResult) -> dict[str, Any]:
    summary = result.summary()
    return {
        "config": result.config.to_json(),
        "summary": summary,
        "cells": table_cells(summary),
        "seconds": round(result.seconds, 2),
        "stopped": result.stopped,
    }


def markdown(results: Sequence[LabResult]) -> str:
    """The side-by-side table of one or more runs, with a line per run saying what it was."""
    heads = [f"{chr(65 + i)}: {r.config.label()}" for i, r in enumerate(results)]
    lines = table_lines(heads, [r.summary() for r in results])
    lines.append("")
    for i, result in enumerate(results):
        config = result.config
        lines.append(
            f"{chr(65 + i)}: {config.game}, seed {config.seed}, {config.games} games, players "
            f"{','.join(map(str, config.players))}, bots {','.join(config.levels)}, "
            f"{result.seconds:.1f} s" + ("; stopped early" if result.stopped else "")
        )
    return "\n".join(lines)
