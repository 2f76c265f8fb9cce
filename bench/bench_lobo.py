"""Lobo: The Vanguard: hint latency, and the win rates of the hint policy against a random
policy, a greedy policy and the clairvoyant bound.

    python3 bench/bench_lobo.py latency --latency-games 6 [--pyodide]
    python3 bench/bench_lobo.py winrate --games 200 --difficulties EASY,STANDARD,HARD --jobs 2
    python3 bench/bench_lobo.py report
    python3 build.py bench lobo           (latency and win rates with the small defaults)

**Latency.** The hint (``GAME.hint``: odds of every legal move, then the best) on every
position of ``--latency-games`` games per difficulty played by the hint itself (seeds ``L0``,
``L1``, ...): the typical positions a player asks about. Per difficulty: positions, the share whose
odds were all exact, p50/p95/max in CPU time and wall time, and with ``--pyodide`` the same
games in the pinned Pyodide runtime under Node (the browser's engine) with the ratio to CPython
(wall time: Pyodide has no CPU clock, so measure on a quiet machine).

**Win rates.** ``--games`` seeded games per difficulty (seeds ``W0``, ``W1``, ...; the same
deals for every policy): ``best`` (the hint), ``greedy``, ``random``, and ``clairvoyant``, the
share of those deals a player who saw the whole pile could win (:mod:`tapete.lobo.clairvoyant`;
a search that runs out of budget counts as unknown and is left out of that share). Wins with a
95% Wilson interval, and the mean final score of the won games. Every finished game is
appended as a JSON line to ``--out`` (default ``bench/results/lobo.jsonl``); a rerun skips the
games already there (so a long run can be resumed) and ``report`` prints the table of
everything recorded.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import platform
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import benchlib

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "engine"))

from tapete.bots import choose_move  # noqa: E402
from tapete.lobo import GAME, clairvoyant  # noqa: E402

DEFAULT_OUT = ROOT / "bench" / "results" / "lobo.jsonl"
LEVELS = ("best", "greedy", "random", "clairvoyant")

# Runs unchanged in CPython and in Pyodide; CONFIG is put before it.
LATENCY = r"""
import json, time
from tapete import get_game

def latency(config):
    game = get_game("lobo")
    out = {}
    for difficulty in config["difficulties"]:
        rows = []
        for g in range(config["games"]):
            state = game.new_game(f"L{g}", {"difficulty": difficulty})
            while game.to_move(state) is not None:
                wall, cpu = time.perf_counter(), time.process_time()
                hint = game.hint(state, 0)
                rows.append({
                    "wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu,
                    "exact": all(m["exact"] for m in hint["moves"]),
                    "phase": state.phase,
                })
                state = game.apply(state, 0, game.parse_move(hint["move"]))
        out[difficulty] = rows
    return out

json.dumps(latency(CONFIG))
"""


# -- latency ------------------------------------------------------------------------------------


def run_source(config: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    source = f"import json\nCONFIG = json.loads({json.dumps(json.dumps(config))})\n{LATENCY}"
    namespace: dict[str, Any] = {}
    *body, last = source.rstrip().splitlines()
    exec("\n".join(body), namespace)
    return source, json.loads(eval(last, namespace))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def latency_rows(name: str, result: dict[str, Any], clock: str) -> list[str]:
    lines = []
    for difficulty, rows in result.items():
        rows = [r for r in rows if r["phase"] == "play"]
        times = [1000 * r[clock] for r in rows]
        exact = sum(r["exact"] for r in rows) / len(rows)
        lines.append(
            f"| {name} | {difficulty} | {len(rows)} | {100 * exact:.0f}% | "
            f"{statistics.median(times):.1f} | {percentile(times, 0.95):.1f} | {max(times):.1f} |"
        )
    return lines


def median_of(rows: list[dict[str, Any]], clock: str) -> float:
    return float(statistics.median(r[clock] for r in rows if r["phase"] == "play"))


def latency(args: argparse.Namespace) -> None:
    config = {"games": args.latency_games, "difficulties": args.difficulties.split(",")}
    source, result = run_source(config)
    cpu = f"CPython {platform.python_version()}"
    print("| runtime | difficulty | positions | all exact | p50 ms | p95 ms | max ms |")
    print("|---|---|---:|---:|---:|---:|---:|")
    print("\n".join(latency_rows(f"{cpu}, CPU time", result, "cpu")))
    print("\n".join(latency_rows(f"{cpu}, wall time", result, "wall")))
    if args.pyodide:
        bench_engine = benchlib.load_bench("bench_engine")
        with tempfile.TemporaryDirectory() as temp:
            other, name = bench_engine.run_pyodide(source, bench_engine.load_build(), Path(temp))
        # Pyodide has no CPU clock (its process_time is wall time): compare wall with wall
        print("\n".join(latency_rows(f"{name}, Node, wall time", other, "wall")))
        print()
        for difficulty in result:
            mine = median_of(result[difficulty], "wall")
            theirs = median_of(other[difficulty], "wall")
            print(f"Pyodide / CPython, median wall time, {difficulty}: {theirs / mine:.2f}x")
    print(
        f"\nPositions of {args.latency_games} games per difficulty played by the hint "
        f"(play phase only). {machine()}."
    )


# -- win rates ----------------------------------------------------------------------------------


def play_game(job: tuple[str, str, int, int]) -> dict[str, Any]:
    difficulty, level, index, budget = job
    seed = f"W{index}"
    options = {"difficulty": difficulty}
    started = time.perf_counter()
    record: dict[str, Any] = {"difficulty": difficulty, "level": level, "seed": seed}
    if level == "clairvoyant":
        bound = clairvoyant(seed, options, budget=budget, best_score=False)
        record.update(won=bound.winnable, score=None, nodes=bound.nodes)
    else:
        state = GAME.new_game(seed, options)
        moves = 0
        while GAME.to_move(state) is not None:
            state = GAME.apply(state, 0, choose_move(GAME, state, 0, level, (seed, moves)))
            moves += 1
        outcome = GAME.outcome(state)
        assert outcome is not None
        won = bool(outcome.winners)
        record.update(won=won, score=outcome.scores[0] if won else None, moves=moves)
    record["seconds"] = round(time.perf_counter() - started, 3)
    return record


def load(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def winrate(args: argparse.Namespace) -> None:
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    done = {(r["difficulty"], r["level"], r["seed"]) for r in load(out)}
    # seed by seed, every difficulty and policy of a seed together: a run stopped early (by
    # --max-seconds, or killed) has about as many games of each, on the same deals
    jobs = [
        (difficulty, level, i, args.clairvoyant_budget)
        for i in range(args.games)
        for difficulty in args.difficulties.split(",")
        for level in args.levels.split(",")
        if (difficulty, level, f"W{i}") not in done
    ]
    stop = time.monotonic() + args.max_seconds if args.max_seconds else math.inf
    with out.open("a", encoding="utf-8") as sink:
        if args.jobs > 1:
            with multiprocessing.Pool(args.jobs) as pool:
                for record in pool.imap_unordered(play_game, jobs):
                    sink.write(json.dumps(record) + "\n")
                    sink.flush()
                    if time.monotonic() > stop:
                        pool.terminate()
                        break
        else:
            for job in jobs:
                if time.monotonic() > stop:
                    break
                sink.write(json.dumps(play_game(job)) + "\n")
                sink.flush()
    report(args, games=args.games)


def wilson(wins: int, n: int) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def report(args: argparse.Namespace, games: int | None = None) -> None:
    records = load(Path(args.out))
    levels = args.levels.split(",")
    # per difficulty, only the deals every policy has played (the same deals for all)
    seeds: dict[tuple[str, str], set[str]] = defaultdict(set)
    for record in records:
        seeds[(record["difficulty"], record["level"])].add(record["seed"])
    common: dict[str, set[str]] = {}
    for (difficulty, level), found in seeds.items():
        if level in levels:
            common[difficulty] = common.get(difficulty, found) & found
    table: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        if record["level"] not in levels or record["seed"] not in common[record["difficulty"]]:
            continue
        if games is None or int(record["seed"][1:]) < games:
            table[(record["difficulty"], record["level"])].append(record)
    order = {"EASY": 0, "STANDARD": 1, "HARD": 2}
    print(
        "| difficulty | policy | games | wins | win rate | 95% interval | mean score of wins |"
        " s/game |"
    )
    print("|---|---|---:|---:|---:|---|---:|---:|")
    for (difficulty, level), rows in sorted(
        table.items(), key=lambda item: (order.get(item[0][0], 9), LEVELS.index(item[0][1]))
    ):
        known = [r for r in rows if r["won"] is not None]
        wins = sum(bool(r["won"]) for r in known)
        low, high = wilson(wins, len(known))
        scores = [r["score"] for r in known if r["won"] and r["score"] is not None]
        mean = f"{statistics.mean(scores):.1f}" if scores else "-"
        unknown = len(rows) - len(known)
        note = f" ({unknown} unknown)" if unknown else ""
        seconds = statistics.mean(r["seconds"] for r in rows)
        print(
            f"| {difficulty} | {level} | {len(known)}{note} | {wins} | "
            f"{100 * wins / max(len(known), 1):.1f}% | {100 * low:.1f}-{100 * high:.1f}% | "
            f"{mean} | {seconds:.2f} |"
        )
    print(
        f"\nSeeds W0.. per difficulty; only the deals every policy has played, so the same deals"
        f" for every policy. {machine()}."
    )


def machine() -> str:
    return (
        f"CPython {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cores, "
        f"load average {os.getloadavg()[0]:.1f}"
    )


# -- command line -------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "mode", nargs="?", default="all", choices=("all", "latency", "winrate", "report")
    )
    parser.add_argument("--games", type=int, default=20, help="win rates: games per difficulty")
    parser.add_argument(
        "--latency-games", type=int, default=3, help="latency: games per difficulty"
    )
    parser.add_argument("--difficulties", default="EASY,STANDARD,HARD")
    parser.add_argument("--levels", default=",".join(LEVELS))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--max-seconds", type=float, default=0, help="win rates: start no game after this"
    )
    parser.add_argument("--clairvoyant-budget", type=int, default=3_000_000)
    parser.add_argument("--out", default=str(DEFAULT_OUT))
    parser.add_argument("--pyodide", action="store_true", help="latency: also in Pyodide")
    args = parser.parse_args()
    command = " ".join(["python3", "bench/bench_lobo.py", *sys.argv[1:]])
    if args.mode in ("all", "latency"):
        latency(args)
        print()
    if args.mode in ("all", "winrate"):
        winrate(args)
        print()
    if args.mode == "report":
        report(args)
    print(f"Command: `{command}`")


if __name__ == "__main__":
    main()
