"""Benchmark of the Rummikub solver on positions from seeded real games and late, crowded ones.

    python3 bench/bench_rummikub.py                 # 40 games, the solver alone
    python3 bench/bench_rummikub.py --games 24 --late 300 --compare --pyodide
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
20 (the issue's "realistic mid-game positions"); ``--late N`` adds N positions of
bench/rummikub_late.py (whole-set tables of 60-80 tiles, racks of 10-40, 0-2 jokers on each
side). Each position is solved for both objectives, the solver's answer cache emptied first;
the tables give CPU time (``process_time``: the machine is shared).

``--compare`` also times the ``rummikub-solver`` package from PyPI (an integer program in
cvxpy; the ``bench`` extra, ``pip install 'rummikub-solver[highs]'``) on both of its MILP
backends, HiGHS and SciPy's milp, interleaved with ours: per position and objective the three
run one after the other, the order rotating. Its TILE_COUNT mode is the like-for-like figure,
against our tiles objective: its TOTAL_VALUE mode maximises a sum over an outer product, which
ranks plays by their tile count, and it scores a joker 0, so it is not our value objective.
Its model also differs: a table joker is always free (our default, RACK_ONLY, pins it), and
its sets have no joker in a group of four nor at the end of a run of four or five. So answers
are compared only without jokers on the table, where ours must never be lower.

``--ilp`` checks every answer of ours (both objectives, table jokers and all) against the
integer program of tests/rummikub_ilp.py, which shares no code with the solver.

``--pyodide`` also solves the same positions with the freshly built wheel in the pinned Pyodide
runtime under Node (as bench_engine.py does), after the CPython run, and checks that every
answer is the same.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import benchlib

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "engine"))

from rummikub_late import late_positions  # noqa: E402
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


def table_tiles(item: dict[str, Any]) -> list[str]:
    return [t for m in item["table"] for t in (m if isinstance(m, list) else m["group"])]


def describe(items: list[dict[str, Any]]) -> str:
    tiles = [len(table_tiles(p)) for p in items]
    racks = [len(p["rack"]) for p in items]
    return (
        f"{len(items)} positions; table median {statistics.median(tiles)} max {max(tiles)} "
        f"tiles; rack median {statistics.median(racks)} max {max(racks)}"
    )


@dataclass
class Timed:
    """One solver on one position and objective: CPU and wall seconds, the objective found."""

    cpu: float
    wall: float
    found: int


Solver = Callable[[dict[str, Any], str], int]


INEXACT: list[tuple[dict[str, Any], str]] = []  # our solves that ran over the budget


def ours(item: dict[str, Any], objective: str) -> int:
    solver_module._SOLVED.clear()
    solution = solve(item["table"], item["rack"], objective=objective)
    if not solution.exact:
        INEXACT.append((item, objective))
    return solution.value if objective == "value" else solution.tiles


def theirs(backend: str) -> Solver | None:
    """``rummikub-solver`` on one MILP backend (``HIGHS`` or ``SCIPY``), None when it or the
    backend is not installed. Its TILE_COUNT mode is timed for our tiles objective, its
    TOTAL_VALUE mode for our value objective; it answers the tiles or the value placed (a joker
    30, as ours)."""
    try:  # imported by name: a benchmark-only extra, typed Any whether installed or not
        module: Any = importlib.import_module("rummikub_solver")
    except ImportError:
        return None
    if module.MILPSolver[backend] not in module.MILPSolver.supported():
        return None
    ruleset = module.RuleSet(solver_backend=module.MILPSolver[backend])
    tiles = ruleset.tiles
    offset = {"K": 0, "B": 13, "Y": 26, "R": 39}  # their colours: black, blue, orange, red
    modes = {"tiles": module.SolverMode.TILE_COUNT, "value": module.SolverMode.TOTAL_VALUE}

    def tile(code: str) -> Any:
        return tiles[-1] if code == "*" else tiles[offset[code[0]] + int(code[1:]) - 1]

    def run(item: dict[str, Any], objective: str) -> int:
        game = ruleset.new_game()
        game.add_table(*[tile(t) for t in table_tiles(item)])
        game.add_rack(*[tile(t) for t in item["rack"]])
        game.initial = False
        solution = ruleset.solve(game, mode=modes[objective])
        placed = [] if solution is None else list(solution.tiles)
        if objective == "tiles":
            return len(placed)
        return sum(30 if t is tiles[-1] else t.value for t in placed)

    run({"table": [["K1", "K2", "K3"]], "rack": ["K4"]}, "tiles")  # cvxpy builds its problems
    return run


def interleaved(
    items: list[dict[str, Any]], solvers: dict[str, Solver], objectives: tuple[str, ...]
) -> dict[tuple[str, str], list[Timed]]:
    """Every solver on every position and objective, one after the other per position, the
    order rotating from one position to the next (so that no solver always runs first, or
    always after the same one). By (solver, objective), in the order of ``items``."""
    names = list(solvers)
    out: dict[tuple[str, str], list[Timed]] = {(n, o): [] for n in names for o in objectives}
    for index, item in enumerate(items):
        for objective in objectives:
            shift = (index * len(objectives) + objectives.index(objective)) % len(names)
            for name in names[shift:] + names[:shift]:
                start, start_cpu = time.perf_counter(), time.process_time()
                found = solvers[name](item, objective)
                cpu = time.process_time() - start_cpu
                out[(name, objective)].append(Timed(cpu, time.perf_counter() - start, found))
    return out


def report(
    title: str, items: list[dict[str, Any]], runs: dict[tuple[str, str], list[Timed]]
) -> list[str]:
    """Markdown: CPU ms per solver and objective, the ratios to ours, and how the answers
    compare where the peer's model is ours (no joker on the table)."""
    names = list(dict.fromkeys(n for n, _ in runs))
    objectives = list(dict.fromkeys(o for _, o in runs))
    lines = [f"**{title}** ({describe(items)})", ""]
    lines += ["| CPU ms | objective | median | p95 | max | mean |", "|---|---|---:|---:|---:|---:|"]
    for objective in objectives:
        for name in names:
            cpu = [t.cpu for t in runs[(name, objective)]]
            lines.append(
                f"| {name} | {objective} | {statistics.median(cpu) * 1000:.1f} | "
                f"{percentile(cpu, 0.95) * 1000:.1f} | {max(cpu) * 1000:.0f} | "
                f"{statistics.fmean(cpu) * 1000:.1f} |"
            )
    lines.append("")
    for objective in objectives:
        mine = [t.cpu for t in runs[("tapete", objective)]]
        for name in names[1:]:
            other = [t.cpu for t in runs[(name, objective)]]
            ratios = [
                statistics.median(other) / statistics.median(mine),
                percentile(other, 0.95) / percentile(mine, 0.95),
                max(other) / max(mine),
            ]
            plain = [t == 0 for t in map(len, (table_jokers(p) for p in items))]
            pairs = [
                (a.found, b.found)
                for a, b, no_joker in zip(
                    runs[("tapete", objective)], runs[(name, objective)], plain, strict=True
                )
                if no_joker
            ]
            same = sum(a == b for a, b in pairs)
            higher = sum(a > b for a, b in pairs)
            lines.append(
                f"- {objective}: {name} / tapete, median {ratios[0]:.2f}x, p95 {ratios[1]:.2f}x, "
                f"max {ratios[2]:.2f}x; without table jokers the same answer on {same} of "
                f"{len(pairs)}, ours higher on {higher}, lower on {len(pairs) - same - higher}"
            )
    return lines


def ilp_check(items: list[dict[str, Any]], answers: list[int]) -> list[tuple[int, str, int, int]]:
    """Our answers (tiles, then value, per position, as ``answers`` holds them) against the
    integer program of tests/rummikub_ilp.py (SciPy's milp; our model, table jokers and all):
    (position, objective, ours, the ILP's) where they differ."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    ilp: Any = importlib.import_module("rummikub_ilp")
    melds: Any = importlib.import_module("tapete.rummikub.melds")
    wrong = []
    for index, item in enumerate(items):
        table = []
        for entry in item["table"]:
            tiles, kind = (entry, None) if isinstance(entry, list) else (entry["group"], "group")
            table.append(melds.Meld(melds.read_meld(tiles, kind).kind, tuple(tiles)))
        for step, objective in enumerate(("tiles", "value")):
            best = ilp.ilp_best(table, item["rack"], objective)
            if best != answers[2 * index + step]:
                wrong.append((index, objective, answers[2 * index + step], best))
    return wrong


def table_jokers(item: dict[str, Any]) -> list[str]:
    return [t for t in table_tiles(item) if t == "*"]


# Runs inside Pyodide; bench_source-style: ITEMS is put before it, the last line is the result.
PYODIDE_SOURCE = r"""
import json, time
from tapete.rummikub import solve
from tapete.rummikub import solver as solver_module

def timed(items):
    out = []
    for item in items:
        for objective in ("tiles", "value"):
            solver_module._SOLVED.clear()
            start = time.perf_counter()
            solution = solve(item["table"], item["rack"], objective=objective)
            found = solution.value if objective == "value" else solution.tiles
            out.append([time.perf_counter() - start, found])
    return out

json.dumps(timed(ITEMS))
"""


def time_pyodide(items: list[dict[str, Any]]) -> tuple[list[float], list[int], str]:
    """Wall times and answers (tiles, then value, per position) in Pyodide under Node."""
    engine_bench = benchlib.load_bench("bench_engine")
    source = f"import json\nITEMS = json.loads({json.dumps(json.dumps(items))})\n{PYODIDE_SOURCE}"
    with tempfile.TemporaryDirectory() as temp:
        result, name = engine_bench.run_pyodide(source, benchlib.load_build(), Path(temp))
    return [t for t, _ in result], [v for _, v in result], name


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
    parser.add_argument("--compare", action="store_true", help="also rummikub-solver, interleaved")
    parser.add_argument("--late", type=int, default=0, help="late, crowded positions to add")
    parser.add_argument("--late-label", default="LATE", help="their seed label")
    parser.add_argument("--pyodide", action="store_true", help="also in Pyodide under Node")
    parser.add_argument("--tournament", type=int, default=0, help="deals per pair")
    parser.add_argument("--prefix", default="DUEL", help="seed prefix of the tournament deals")
    parser.add_argument("--players", type=int, default=2, help="2: duels; 3-4: one vs the rest")
    parser.add_argument(
        "--pairs", default="hard/normal,hard/easy,normal/easy", help="first/second,..."
    )
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--out", type=Path, help="results file (JSON lines; default: results/)")
    parser.add_argument("--save", type=Path, help="write the game positions to this JSON file")
    parser.add_argument("--load", type=Path, help="read the game positions from this JSON file")
    parser.add_argument(
        "--dump", type=Path, help="write every timed solve (position, solver, objective) as JSON"
    )
    parser.add_argument(
        "--ilp", action="store_true", help="check our answers against tests/rummikub_ilp.py"
    )
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
    games = json.loads(args.load.read_text()) if args.load else positions(args.games)
    late = late_positions(args.late, args.late_label) if args.late else []
    if args.save:
        args.save.write_text(json.dumps(games))
    solvers: dict[str, Solver] = {"tapete": ours}
    if args.compare:
        for backend in ("HIGHS", "SCIPY"):
            peer = theirs(backend)
            if peer is None:
                print(f"rummikub-solver with {backend} is not installed (the bench extra): skipped")
            else:
                solvers[f"rummikub-solver ({backend})"] = peer
    objectives = ("tiles", "value")
    print(f"python3 bench/bench_rummikub.py {' '.join(sys.argv[1:])}")
    print(f"{platform.python_implementation()} {platform.python_version()}, {platform.machine()}")
    print(f"load average at the start: {' / '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print()
    everything: list[dict[str, Any]] = []
    answers: list[int] = []
    dumped: list[dict[str, Any]] = []
    for title, items in (("Positions of bot games", games), ("Late, crowded positions", late)):
        if not items:
            continue
        runs = interleaved(items, solvers, objectives)
        print("\n".join(report(title, items, runs)))
        print()
        dumped += [
            {"set": title, "index": i, "solver": n, "objective": o, "cpu": t.cpu, "found": t.found}
            for (n, o), timed in runs.items()
            for i, t in enumerate(timed)
        ]
        everything += items
        for index in range(len(items)):
            answers += [runs[("tapete", o)][index].found for o in objectives]
    print(f"our solves over the budget (not exact): {len(INEXACT)}")
    if args.ilp:
        wrong = ilp_check(everything, answers)
        print(f"tests/rummikub_ilp.py disagrees on {len(wrong)} of our {len(answers)} solves")
        for index, objective, ours_found, best in wrong:
            print(f"- position {index} ({objective}): ours {ours_found}, the ILP {best}")
    print(f"load average at the end: {' / '.join(f'{x:.1f}' for x in os.getloadavg())}")
    if args.dump:
        args.dump.write_text(json.dumps({"games": games, "late": late, "solves": dumped}))
    if args.pyodide:
        pyodide_wall, pyodide_answers, name = time_pyodide(everything)
        print(summary(f"tapete in {name} (wall, both objectives)", pyodide_wall))
        agree = sum(a == b for a, b in zip(answers, pyodide_answers, strict=True))
        print(f"the same answer in Pyodide on {agree} of {len(answers)} solves")


if __name__ == "__main__":
    main()
