"""The playtest lab: seeded bot-vs-bot games for a setting of a game's knobs, and the numbers
a designer asks about (written for Willie, whose designer is still tuning it).

Glossary:

setting    a game's options (knobs) plus the player counts and bot levels to use
run        ``games`` games of one setting; game ``i`` is dealt from the seed ``"{seed}-{i}"``
           and the bots of game ``i`` draw from streams named by ``i``, so a run is fully
           reproducible from (game, setting, seed, games): that is what a shared link holds
record     what one finished game leaves behind: its rounds (how each ended, its turns, who
           closed and who won) and the final scores
summary    the numbers of a run: rounds per game, turns per round, how rounds end (closing,
           going out, empty stock), how often the closer wins or is undercut, the spread of
           the final scores, and the games per player count; with histograms for charts

Use from Python::

    a = run(LabConfig(games=200, seed="S", options={"hand_size": 10}))
    b = run(LabConfig(games=200, seed="S", options={"hand_size": 10, "close_threshold": 5}))
    print(markdown([a, b]))

or from the command line (the same table)::

    python -m tapete.lab willie --players 2 --games 200 --seed S --set hand_size=10 \\
        --vs close_threshold=5

``--vs`` describes the second setting as changes to the first. ``run`` takes a ``progress``
callback ``(done, total)`` and a ``should_stop`` callable, polled between games: a stopped run
keeps the games finished so far. The web worker runs a lab in chunks with ``lab_request``
({config, start, count} -> {records, summary}) so the page can show progress and stop it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import get_game
from .bots import choose_move
from .errors import BadOptionError, describe

MAX_GAMES = 100_000
MAX_MOVES = 20_000  # per game: a safety net, never reached in practice
Progress = Callable[[int, int], None]
ShouldStop = Callable[[], bool]


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
        counts = (players,) if isinstance(players, int) else tuple(players)
        if not counts:
            raise BadOptionError("players must name at least one player count", option="players")
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
        names = (levels,) if isinstance(levels, str) else tuple(levels)
        for level in names:
            if level not in engine.bot_levels:
                raise BadOptionError(f"{game} has no bot level {level!r}", option="levels")
        return cls(game, counts, games, seed, changed, names or ("normal",))

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

    @classmethod
    def from_json(cls, data: Any) -> LabConfig:
        if not isinstance(data, dict):
            raise BadOptionError(f"a lab configuration is an object; got {describe(data)}")
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


@dataclass(frozen=True)
class RoundRow:
    end: str
    turns: int
    closer_won: bool | None  # None when nobody chose to close
    undercut: bool


@dataclass(frozen=True)
class GameRecord:
    index: int
    players: int
    rounds: tuple[RoundRow, ...]
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    finished: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "players": self.players,
            "rounds": [[r.end, r.turns, r.closer_won, r.undercut] for r in self.rounds],
            "scores": list(self.scores),
            "winners": list(self.winners),
            "finished": self.finished,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameRecord:
        return cls(
            index=int(data["index"]),
            players=int(data["players"]),
            rounds=tuple(RoundRow(str(e), int(t), c, bool(u)) for e, t, c, u in data["rounds"]),
            scores=tuple(float(s) for s in data["scores"]),
            winners=tuple(int(w) for w in data["winners"]),
            finished=bool(data["finished"]),
        )


@dataclass
class LabResult:
    config: LabConfig
    records: list[GameRecord] = field(default_factory=list)
    stopped: bool = False
    seconds: float = 0.0

    def summary(self) -> dict[str, Any]:
        return summarize(self.records, self.seconds)


def play_game(config: LabConfig, index: int) -> GameRecord:
    """Game ``index`` of the run: dealt from ``{seed}-{index}``, bots seeded by the index."""
    engine = get_game(config.game)
    players = config.players[index % len(config.players)]
    state = engine.new_game(f"{config.seed}-{index}", config.option, players)
    moves = 0
    while (seat := engine.to_move(state)) is not None and moves < MAX_MOVES:
        level = config.levels[seat % len(config.levels)]
        state = engine.apply(state, seat, choose_move(engine, state, seat, level, (index, moves)))
        moves += 1
    outcome = engine.outcome(state)
    rows = tuple(round_row(row) for row in getattr(state, "history", ()))
    if outcome is None:
        return GameRecord(index, players, rows, (), (), False)
    return GameRecord(index, players, rows, outcome.scores, outcome.winners, True)


def round_row(row: Any) -> RoundRow:
    closed = row.end == "close"
    closer_won = (row.closer in row.score.winners) if closed else None
    return RoundRow(row.end, row.turns, closer_won, bool(row.score.undercut))


def run(
    config: LabConfig,
    progress: Progress | None = None,
    should_stop: ShouldStop | None = None,
    start: int = 0,
    count: int | None = None,
) -> LabResult:
    """Play games ``start`` .. ``start + count - 1`` of the run (all of them by default)."""
    began = time.perf_counter()
    total = config.games if count is None else min(count, config.games - start)
    result = LabResult(config)
    for done in range(total):
        if should_stop is not None and should_stop():
            result.stopped = True
            break
        result.records.append(play_game(config, start + done))
        if progress is not None:
            progress(done + 1, total)
    result.seconds = time.perf_counter() - began
    return result


# -- the numbers --------------------------------------------------------------------------------


def share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def mean(values: Sequence[float]) -> float | None:
    return statistics.fmean(values) if values else None


def histogram(values: Sequence[float], width: float = 1.0) -> dict[str, int]:
    counts = Counter(int(v // width) * width for v in values)
    return {f"{k:g}": counts[k] for k in sorted(counts)}


def summarize(records: Sequence[GameRecord], seconds: float = 0.0) -> dict[str, Any]:
    done = [r for r in records if r.finished]
    rounds = [row for r in done for row in r.rounds]
    ends = Counter(row.end for row in rounds)
    closes = [row for row in rounds if row.end == "close"]
    finals = [s for r in done for s in r.scores]
    best = [max(r.scores) for r in done]
    worst = [min(r.scores) for r in done]
    gaps = [max(r.scores) - min(r.scores) for r in done]
    per_game = [len(r.rounds) for r in done]
    turns = [row.turns for row in rounds]
    return {
        "games": len(records),
        "finished": len(done),
        "games_by_players": {
            str(k): v for k, v in sorted(Counter(r.players for r in done).items())
        },
        "rounds": len(rounds),
        "rounds_per_game": mean(per_game),
        "rounds_per_game_min": min(per_game, default=None),
        "rounds_per_game_max": max(per_game, default=None),
        "turns_per_round": mean(turns),
        "end_close": share(ends["close"], len(rounds)),
        "end_out": share(ends["out"], len(rounds)),
        "end_stock": share(ends["stock"], len(rounds)),
        "closer_wins": share(sum(bool(row.closer_won) for row in closes), len(closes)),
        "undercut": share(sum(row.undercut for row in closes), len(closes)),
        "winner_score": mean(best),
        "loser_score": mean(worst),
        "score_gap": mean(gaps),
        "score_sd": statistics.pstdev(finals) if len(finals) > 1 else None,
        "drawn_games": share(sum(len(r.winners) > 1 for r in done), len(done)),
        "seconds": round(seconds, 2),
        "histograms": {
            "rounds_per_game": histogram(per_game),
            "turns_per_round": histogram(turns),
            "score_gap": histogram(gaps, 5.0),
        },
    }


ROWS: tuple[tuple[str, str, str], ...] = (
    ("games", "games played", "int"),
    ("games_by_players", "games per player count", "players"),
    ("rounds_per_game", "rounds per game (mean)", "num"),
    ("rounds_range", "rounds per game (min-max)", "range"),
    ("turns_per_round", "turns per round (mean)", "num"),
    ("end_close", "rounds ended by closing", "pct"),
    ("end_out", "rounds ended by going out", "pct"),
    ("end_stock", "rounds ended by an empty stock", "pct"),
    ("closer_wins", "closer wins the round (of closes)", "pct"),
    ("undercut", "closer undercut (of closes)", "pct"),
    ("winner_score", "winner's final score (mean)", "num"),
    ("loser_score", "last player's final score (mean)", "num"),
    ("score_gap", "gap first-last (mean)", "num"),
    ("score_sd", "spread of final scores (sd)", "num"),
    ("drawn_games", "drawn games", "pct"),
    ("seconds", "seconds", "num"),
)


def cell(summary: Mapping[str, Any], key: str, kind: str) -> str:
    if kind == "range":
        low, high = summary["rounds_per_game_min"], summary["rounds_per_game_max"]
        return "-" if low is None else f"{low}-{high}"
    value = summary.get(key)
    if value is None:
        return "-"
    if kind == "players":
        return ", ".join(f"{n}p: {c}" for n, c in value.items()) or "-"
    if kind == "pct":
        return f"{100 * value:.1f}%"
    if kind == "num":
        return f"{value:.2f}"
    return str(value)


def markdown(results: Sequence[LabResult]) -> str:
    """The side-by-side table of one or more runs."""
    summaries = [r.summary() for r in results]
    heads = [f"{chr(65 + i)}: {r.config.label()}" for i, r in enumerate(results)]
    lines = ["| | " + " | ".join(heads) + " |", "|---" * (len(results) + 1) + "|"]
    for key, title, kind in ROWS:
        lines.append(f"| {title} | " + " | ".join(cell(s, key, kind) for s in summaries) + " |")
    lines.append("")
    for i, result in enumerate(results):
        config = result.config
        lines.append(
            f"{chr(65 + i)}: {config.game}, seed {config.seed}, {config.games} games, players "
            f"{','.join(map(str, config.players))}, bots {','.join(config.levels)}"
            + ("; stopped early" if result.stopped else "")
        )
    return "\n".join(lines)


def lab_request(request: Mapping[str, Any], progress: Progress | None = None) -> dict[str, Any]:
    """For the web worker: {config, start?, count?} -> {config, records, summary}, one chunk;
    the page merges the chunks' records with ``summarize_records``."""
    config = LabConfig.from_json(request.get("config"))
    start = request.get("start", 0)
    count = request.get("count", config.games)
    if not isinstance(start, int) or not isinstance(count, int) or start < 0 or count < 0:
        raise BadOptionError("start and count are whole numbers")
    result = run(config, progress, start=start, count=count)
    return {
        "config": config.to_json(),
        "records": [r.to_json() for r in result.records],
        "summary": result.summary(),
    }


def summarize_records(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    return summarize([GameRecord.from_json(r) for r in records])


# -- command line -------------------------------------------------------------------------------


def parse_knobs(pairs: Sequence[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        name, eq, value = pair.partition("=")
        if not eq or not name:
            raise BadOptionError(f"a knob is name=value; got {describe(pair)}")
        out[name] = value
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tapete.lab", description="Seeded bot-vs-bot games and their numbers."
    )
    parser.add_argument("game", nargs="?", default="willie")
    parser.add_argument("--players", default="2", help="a count, or several: 2,3")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", default="LAB")
    parser.add_argument("--set", action="append", default=[], metavar="KNOB=VALUE")
    parser.add_argument(
        "--vs",
        action="append",
        default=[],
        metavar="KNOB=VALUE",
        help="a second setting: the first one with these changes",
    )
    parser.add_argument("--levels", default="normal", help="bot level per seat: normal,easy")
    parser.add_argument("--json", action="store_true", help="print the summaries as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args(argv)
    try:
        players = [int(p) for p in args.players.split(",")]
        base = parse_knobs(args.set)
        configs = [
            LabConfig.make(args.game, players, args.games, args.seed, base, args.levels.split(","))
        ]
        if args.vs:
            other = {**base, **parse_knobs(args.vs)}
            configs.append(
                LabConfig.make(
                    args.game, players, args.games, args.seed, other, args.levels.split(",")
                )
            )
    except (BadOptionError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    results = []
    for letter, config in zip("AB", configs, strict=False):  # progress names the setting

        def report(done: int, total: int, letter: str = letter) -> None:
            if not args.quiet and (done == total or done % max(1, total // 20) == 0):
                print(f"\r{letter}: {done}/{total} games", end="", file=sys.stderr, flush=True)

        results.append(run(config, report))
        if not args.quiet:
            print(file=sys.stderr)
    if args.json:
        print(
            json.dumps(
                [{"config": r.config.to_json(), "summary": r.summary()} for r in results], indent=2
            )
        )
    else:
        print(markdown(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
