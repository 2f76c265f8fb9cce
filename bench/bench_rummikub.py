"""Benchmark of the Rummikub solver on positions from seeded real games.

    python3 bench/bench_rummikub.py                 # 40 games, the solver alone
    python3 bench/bench_rummikub.py --games 80 --compare
    python3 bench/bench_rummikub.py --tournament 50 # duels hard/normal/easy, seats swapped
    python3 bench/bench_rummikub.py --tournament 40 --players 4 --pairs hard/normal

Tournaments: seeded duplicate games (deal ``prefix + number``); each deal is played once with
the first level at every seat and the second level at the other seats. Every finished game is
appended to a JSON-lines file under bench/results/ named by the prefix, the player count and a
fingerprint of bots.py, so an interrupted run resumes and a changed bot starts afresh. The
report: the first level's win share (a shared win counts its part) with a 95% Wilson interval,
its mean points per game and the CPU seconds per game.

Positions: every turn of a player who has made the initial meld, in games between the bots
(levels rotate over the seats), kept when the table has at most 60 tiles and the rack at most
20 (the issue's "realistic mid-game positions"). Each position is solved with the solver's
answer cache emptied first; times are wall-clock (``perf_counter``) and CPU (``process_time``).

``--compare`` also times the ``rummikub-solver`` package from PyPI (an integer program in
cvxpy, HiGHS by default; ``pip install rummikub-solver``, the ``bench`` extra) on the same
positions with its total-value mode, and checks that both find the same value where that
package's model agrees with ours (no jokers in play: it never lays a joker that no set needs).

``--pyodide`` also solves the same positions with the freshly built wheel in the pinned Pyodide
runtime under Node (as bench_engine.py does), after the CPython run, and checks that every value
is the same.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import benchlib

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "engine"))

from tapete.bots import choose_move  # noqa: E402
from tapete.rummikub import GAME, solve  # noqa: E402
from tapete.rummikub import solver as solver_module  # noqa: E402

LEVELS = ("normal", "hard", "easy", "random")


def positions(games: int, prefix: str = "BENCH") -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for game_no in range(games):
        players = 2 + game_no % 3
        state = GAME.new_game(f"{prefix}{game_no}", None, players)
        steps = 0
        while (seat := GAME.to_move(state)) is not None and steps < 400:
            tiles = sum(len(m.tiles) for m in state.table)
            if state.melded[seat] and tiles <= 60 and len(state.racks[seat]) <= 20:
                out.append(
                    {
                        "table": [m.to_json() for m in state.table],
                        "rack": list(state.racks[seat]),
                        "jokers": sum(t == "*" for m in state.table for t in m.tiles)
                        + state.racks[seat].count("*"),
                    }
                )
            level = LEVELS[(seat + game_no) % len(LEVELS)]
            move = choose_move(GAME, state, seat, level, steps)
            state = GAME.apply(state, seat, move)
            steps += 1
    return out


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def summary(name: str, times: list[float]) -> str:
    return (
        f"| {name} | {len(times)} | {statistics.median(times) * 1000:.2f} | "
        f"{percentile(times, 0.95) * 1000:.1f} | {max(times) * 1000:.0f} | "
        f"{statistics.fmean(times) * 1000:.2f} |"
    )


def time_ours(items: list[dict[str, Any]]) -> tuple[list[float], list[float], list[int]]:
    wall, cpu, values = [], [], []
    for item in items:
        solver_module._SOLVED.clear()
        start, start_cpu = time.perf_counter(), time.process_time()
        solution = solve(item["table"], item["rack"])
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        values.append(solution.value)
    return wall, cpu, values


# Runs inside Pyodide; bench_source-style: ITEMS is put before it, the last line is the result.
PYODIDE_SOURCE = r"""
import json, time
from tapete.rummikub import solve
from tapete.rummikub import solver as solver_module

def timed(items):
    out = []
    for item in items:
        solver_module._SOLVED.clear()
        start = time.perf_counter()
        solution = solve(item["table"], item["rack"])
        out.append([time.perf_counter() - start, solution.value])
    return out

json.dumps(timed(ITEMS))
"""


def time_pyodide(items: list[dict[str, Any]]) -> tuple[list[float], list[int], str]:
    """Wall times and values of the same positions in Pyodide under Node, and its name."""
    engine_bench = benchlib.load_bench("bench_engine")
    source = f"import json\nITEMS = json.loads({json.dumps(json.dumps(items))})\n{PYODIDE_SOURCE}"
    with tempfile.TemporaryDirectory() as temp:
        result, name = engine_bench.run_pyodide(source, benchlib.load_build(), Path(temp))
    return [t for t, _ in result], [v for _, v in result], name


def time_theirs(items: list[dict[str, Any]]) -> tuple[list[float], list[int | None]] | None:
    try:  # imported by name: a benchmark-only extra, typed Any whether installed or not
        theirs: Any = importlib.import_module("rummikub_solver")
    except ImportError:
        print("rummikub-solver is not installed (pip install rummikub-solver): skipped")
        return None
    ruleset = theirs.RuleSet()
    tiles = ruleset.tiles
    offset = {"K": 0, "B": 13, "Y": 26, "R": 39}  # their colours: black, blue, orange, red

    def tile(code: str) -> Any:
        return tiles[-1] if code == "*" else tiles[offset[code[0]] + int(code[1:]) - 1]

    wall: list[float] = []
    values: list[int | None] = []
    for item in items:
        table = [t for m in item["table"] for t in (m if isinstance(m, list) else m["group"])]
        game = ruleset.new_game()
        game.add_table(*[tile(t) for t in table])
        game.add_rack(*[tile(t) for t in item["rack"]])
        game.initial = False
        start = time.perf_counter()
        solution = ruleset.solve(game, mode=theirs.SolverMode.TOTAL_VALUE)
        wall.append(time.perf_counter() - start)
        placed = [] if solution is None else list(solution.tiles)
        values.append(sum(30 if t is tiles[-1] else t.value for t in placed))
    return wall, values


# -- tournaments -------------------------------------------------------------------------------

DUELS = (("hard", "normal"), ("hard", "easy"), ("normal", "easy"))
RESULTS = Path(__file__).resolve().parent / "results"
BOTS_SOURCE = Path(__file__).resolve().parent.parent / "engine/tapete/rummikub/bots.py"


def bots_version() -> str:
    """A fingerprint of the bots' source: results of other bot versions live in other files."""
    return hashlib.sha256(BOTS_SOURCE.read_bytes()).hexdigest()[:8]


def play_game(task: tuple[str, int, tuple[str, ...]]) -> dict[str, Any]:
    """One seeded game: deal ``prefix + deal_no``, ``levels[seat]`` at each seat. Returns the
    record the results file keeps (winners, points per seat, ending, turns, CPU seconds)."""
    prefix, deal_no, levels = task
    start = time.process_time()
    state = GAME.new_game(f"{prefix}{deal_no}", None, len(levels))
    steps = 0
    while (seat := GAME.to_move(state)) is not None:
        state = GAME.apply(state, seat, choose_move(GAME, state, seat, levels[seat], steps))
        steps += 1
    outcome = GAME.outcome(state)
    assert outcome is not None
    return {
        "prefix": prefix,
        "deal": deal_no,
        "levels": list(levels),
        "winners": list(outcome.winners),
        "scores": list(outcome.scores),
        "ending": outcome.detail["ending"],
        "turns": steps,
        "cpu_s": round(time.process_time() - start, 3),
    }


def schedule(first: str, second: str, players: int) -> list[tuple[str, ...]]:
    """Seat layouts per deal: ``first`` once at every seat, the other seats ``second`` (for two
    players: the duel and its swap)."""
    layouts = []
    for seat in range(players):
        levels = [second] * players
        levels[seat] = first
        layouts.append(tuple(levels))
    return layouts


def game_key(record: dict[str, Any]) -> tuple[str, int, tuple[str, ...]]:
    return record["prefix"], int(record["deal"]), tuple(record["levels"])


def load_records(path: Path) -> dict[tuple[str, int, tuple[str, ...]], dict[str, Any]]:
    if not path.exists():
        return {}
    records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return {game_key(r): r for r in records}


def wilson(share: float, games: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a share observed over ``games`` games. Duplicate deals
    make the games of one deal negatively correlated (a lucky deal helps each bot once), so
    this binomial interval is a conservative one."""
    if not games:
        return 0.0, 1.0
    z = 1.96
    centre = (share + z * z / (2 * games)) / (1 + z * z / games)
    half = z * (share * (1 - share) / games + z * z / (4 * games * games)) ** 0.5
    half /= 1 + z * z / games
    return max(0.0, centre - half), min(1.0, centre + half)


def share_of(first: str, records: list[dict[str, Any]]) -> tuple[float, float, float]:
    """``first``'s win share (a shared win counts its part), mean points and CPU s per game.
    ``first`` sits at one seat of each game; its opponents are all of another level."""
    wins = points = cpu = 0.0
    for record in records:
        mine = record["levels"].index(first)
        if mine in record["winners"]:
            wins += 1 / len(record["winners"])
        points += record["scores"][mine]
        cpu += record["cpu_s"]
    games = len(records)
    return wins / games, points / games, cpu / games


def tournament(
    deals: int,
    *,
    prefix: str = "DUEL",
    players: int = 2,
    pairs: tuple[tuple[str, str], ...] = DUELS,
    jobs: int = 1,
    out: Path | None = None,
) -> list[str]:
    """Play the seeded duplicate games of each pair not yet in ``out`` (a JSON-lines file that
    grows as games finish, so an interrupted run resumes), then return the report's rows."""
    out = out or RESULTS / f"rummikub_{prefix}_{players}p_{bots_version()}.jsonl"
    out.parent.mkdir(parents=True, exist_ok=True)
    done = load_records(out)
    tasks = [
        (prefix, deal_no, levels)
        for first, second in pairs
        for deal_no in range(deals)
        for levels in schedule(first, second, players)
        if (prefix, deal_no, levels) not in done
    ]
    with out.open("a") as sink:
        if jobs > 1 and tasks:
            from multiprocessing import Pool

            with Pool(jobs) as pool:
                for record in pool.imap_unordered(play_game, tasks):
                    sink.write(json.dumps(record) + "\n")
                    sink.flush()
                    done[game_key(record)] = record
        else:
            for task in tasks:
                record = play_game(task)
                sink.write(json.dumps(record) + "\n")
                sink.flush()
                done[game_key(record)] = record
    rows = [
        f"| {players} players: first vs the others | games | win share | 95% interval "
        "| mean points | CPU s/game |",
        "|---|---|---|---|---|---|",
    ]
    for first, second in pairs:
        layouts = schedule(first, second, players)
        records = [done[(prefix, d, levels)] for d in range(deals) for levels in layouts]
        share, points, cpu = share_of(first, records)
        low, high = wilson(share, len(records))
        rival = second if players == 2 else f"{players - 1} {second}"
        rows.append(
            f"| {first} vs {rival} | {len(records)} | {share:.3f} | {low:.3f}-{high:.3f} "
            f"| {points:+.1f} | {cpu:.2f} |"
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--compare", action="store_true")
    parser.add_argument("--pyodide", action="store_true", help="also in Pyodide under Node")
    parser.add_argument("--tournament", type=int, default=0, help="deals per pair")
    parser.add_argument("--prefix", default="DUEL", help="seed prefix of the tournament deals")
    parser.add_argument("--players", type=int, default=2, help="2: duels; 3-4: one vs the rest")
    parser.add_argument(
        "--pairs", default="hard/normal,hard/easy,normal/easy", help="first/second,..."
    )
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--out", type=Path, help="results file (JSON lines; default: results/)")
    parser.add_argument("--save", type=Path, help="write the positions to this JSON file")
    parser.add_argument("--load", type=Path, help="read the positions from this JSON file")
    args = parser.parse_args()
    if args.tournament:
        pairs = tuple(tuple(p.split("/")) for p in args.pairs.split(","))
        rows = tournament(
            args.tournament,
            prefix=args.prefix,
            players=args.players,
            pairs=pairs,
            jobs=args.jobs,
            out=args.out,
        )
        print("\n".join(rows))
        return
    items = json.loads(args.load.read_text()) if args.load else positions(args.games)
    if args.save:
        args.save.write_text(json.dumps(items))
    tiles = [sum(len(m) if isinstance(m, list) else 3 for m in p["table"]) for p in items]
    print(
        f"{len(items)} positions; table median {statistics.median(tiles)} "
        f"max {max(tiles)} tiles; rack median {statistics.median(len(p['rack']) for p in items)} "
        f"max {max(len(p['rack']) for p in items)}"
    )
    wall, cpu, ours = time_ours(items)
    print("| solver | positions | median ms | p95 ms | max ms | mean ms |")
    print("|---|---|---|---|---|---|")
    print(summary("tapete (wall)", wall))
    print(summary("tapete (cpu)", cpu))
    with_jokers = [t for t, p in zip(wall, items, strict=True) if p["jokers"]]
    if with_jokers:
        print(summary("tapete, jokers in play (wall)", with_jokers))
    if args.pyodide:
        pyodide_wall, pyodide_values, name = time_pyodide(items)
        print(summary(f"tapete in {name} (wall)", pyodide_wall))
        ratio = statistics.median(pyodide_wall) / statistics.median(wall)
        print(f"median ratio Pyodide / CPython: {ratio:.1f}")
        agree = sum(a == b for a, b in zip(ours, pyodide_values, strict=True))
        print(f"same value in Pyodide on {agree} of {len(items)} positions")
    if args.compare:
        theirs = time_theirs(items)
        if theirs is not None:
            their_wall, their_values = theirs
            print(summary("rummikub-solver (wall)", their_wall))
            ratio = statistics.median(their_wall) / statistics.median(wall)
            print(f"median ratio rummikub-solver / tapete: {ratio:.1f}")
            checked = [
                (a, b) for a, b, p in zip(ours, their_values, items, strict=True) if not p["jokers"]
            ]
            same = sum(a == b for a, b in checked)
            higher = sum(b is not None and a > b for a, b in checked)
            print(
                f"same value on {same} of {len(checked)} positions without jokers; "
                f"ours higher on {higher}, lower on {len(checked) - same - higher}"
            )


if __name__ == "__main__":
    main()
