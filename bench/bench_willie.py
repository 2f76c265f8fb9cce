"""Willie benchmarks: solver speed on positions from seeded games, oracle agreement, and lab
throughput. Run: ``python3 bench/bench_willie.py [--games N] [--oracle N]``; prints markdown.

Positions come from two sources: games between ``normal`` bots (the hands players really hold)
and games between ``random`` bots (which pass often, so hands grow to 20 cards and more: the
solver's hard cases). Everything is seeded, so two runs time the same positions.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "engine"), str(ROOT / "tests")]

from tapete.bots import choose_move  # noqa: E402
from tapete.lab import LabConfig, markdown, run  # noqa: E402
from tapete.willie import GAME, solve  # noqa: E402
from tapete.willie.solver import cached_solve  # noqa: E402


def positions(level: str, games: int, seed: str) -> list[tuple[Any, Any]]:
    out = []
    for i in range(games):
        state = GAME.new_game(f"{seed}{i}", None, 2 + i % 2)
        steps = 0
        while (seat := GAME.to_move(state)) is not None:
            if state.phase in ("meld", "final"):
                out.append((state.table, state.hands[seat]))
            state = GAME.apply(state, seat, choose_move(GAME, state, seat, level, (i, steps)))
            steps += 1
    return out


def timed(pos: list[tuple[Any, Any]], exact: bool) -> list[float]:
    times = []
    for table, hand in pos:
        cached_solve.cache_clear()
        began = time.perf_counter()
        solve(table, hand, exact=exact)
        times.append(1000 * (time.perf_counter() - began))
    return times


def row(name: str, times: list[float]) -> str:
    xs = sorted(times)
    return (
        f"| {name} | {len(xs)} | {statistics.fmean(xs):.1f} | {xs[len(xs) // 2]:.1f} | "
        f"{xs[int(len(xs) * 0.95)]:.1f} | {xs[-1]:.1f} |"
    )


def oracle_agreement(count: int) -> tuple[int, int, float]:
    from willie_oracle import oracle, random_position

    agree = 0
    began = time.perf_counter()
    for i in range(count):
        table, hand = random_position(random.Random(i))
        found = solve(table, hand)
        got = None if found is None else (found.points, found.changes)
        agree += got == oracle(table, hand)
    return agree, count, time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--oracle", type=int, default=0, help="positions to check (slow)")
    parser.add_argument("--lab", type=int, default=50, help="lab games per setting")
    args = parser.parse_args()
    print("## Willie solver (ms per call, cache cleared)\n")
    print("| positions | n | mean | median | p95 | max |\n|---|---|---|---|---|---|")
    for level in ("normal", "random"):
        pos = positions(level, args.games, "BENCH")
        print(row(f"{level}-bot games, points only (bots)", timed(pos, exact=False)))
        print(row(f"{level}-bot games, exact (hint)", timed(pos, exact=True)))
    if args.oracle:
        agree, count, seconds = oracle_agreement(args.oracle)
        print(f"\nOracle agreement: {agree}/{count} positions ({seconds:.0f} s)")
    print(f"\n## Lab, {args.lab} games per setting\n")
    a = run(LabConfig.make(games=args.lab, seed="BENCH"))
    b = run(LabConfig.make(games=args.lab, seed="BENCH", options={"hand_size": 8}))
    c = run(LabConfig.make(players=3, games=args.lab, seed="BENCH"))
    print(markdown([a, b, c]))


if __name__ == "__main__":
    main()
