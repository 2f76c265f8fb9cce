"""Benchmark of the Rummikub solver on positions from seeded real games.

    python3 bench/bench_rummikub.py                 # 40 games, the solver alone
    python3 bench/bench_rummikub.py --games 80 --compare
    python3 bench/bench_rummikub.py --tournament 50 # duels hard/normal/easy, seats swapped

Positions: every turn of a player who has made the initial meld, in games between the bots
(levels rotate over the seats), kept when the table has at most 60 tiles and the rack at most
20 (the issue's "realistic mid-game positions"). Each position is solved with the solver's
answer cache emptied first; times are wall-clock (``perf_counter``) and CPU (``process_time``).

``--compare`` also times the ``rummikub-solver`` package from PyPI (an integer program in
cvxpy, HiGHS by default; ``pip install rummikub-solver``, the ``bench`` extra) on the same
positions with its total-value mode, and checks that both find the same value where that
package's model agrees with ours (no jokers in play: it never lays a joker that no set needs).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

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


def time_theirs(items: list[dict[str, Any]]) -> tuple[list[float], list[int | None]] | None:
    try:
        from rummikub_solver import RuleSet, SolverMode  # type: ignore[import-not-found]
    except ImportError:
        print("rummikub-solver is not installed (pip install rummikub-solver): skipped")
        return None
    ruleset = RuleSet()
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
        solution = ruleset.solve(game, mode=SolverMode.TOTAL_VALUE)
        wall.append(time.perf_counter() - start)
        placed = [] if solution is None else list(solution.tiles)
        values.append(sum(30 if t is tiles[-1] else t.value for t in placed))
    return wall, values


def duel(first: str, second: str, deals: int) -> tuple[float, float]:
    """Seeded duplicate 2-player games: each deal twice, seats swapped. Returns the share of
    games ``first`` wins (a shared win counts half) and its mean points per game."""
    wins = points = 0.0
    for deal_no in range(deals):
        for swap in (False, True):
            levels = (second, first) if swap else (first, second)
            state = GAME.new_game(f"DUEL{deal_no}", None, 2)
            steps = 0
            while (seat := GAME.to_move(state)) is not None:
                move = choose_move(GAME, state, seat, levels[seat], steps)
                state = GAME.apply(state, seat, move)
                steps += 1
            outcome = GAME.outcome(state)
            assert outcome is not None
            mine = 1 if swap else 0
            if mine in outcome.winners:
                wins += 1 / len(outcome.winners)
            points += outcome.scores[mine]
    games = 2 * deals
    return wins / games, points / games


def tournament(deals: int) -> None:
    print("| duel | games | win share | 95% interval | mean points |")
    print("|---|---|---|---|---|")
    for first, second in (("hard", "normal"), ("hard", "easy"), ("normal", "easy")):
        share, points = duel(first, second, deals)
        games = 2 * deals
        half = 1.96 * (share * (1 - share) / games) ** 0.5
        print(
            f"| {first} vs {second} | {games} | {share:.3f} | "
            f"{max(0.0, share - half):.3f}-{min(1.0, share + half):.3f} | {points:+.1f} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--compare", action="store_true")
    parser.add_argument("--tournament", type=int, default=0)
    parser.add_argument("--save", type=Path, help="write the positions to this JSON file")
    parser.add_argument("--load", type=Path, help="read the positions from this JSON file")
    args = parser.parse_args()
    if args.tournament:
        tournament(args.tournament)
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
    if args.compare:
        theirs = time_theirs(items)
        if theirs is not None:
            their_wall, their_values = theirs
            print(summary("rummikub-solver (wall)", their_wall))
            ratio = statistics.median(their_wall) / statistics.median(wall)
            print(f"median ratio rummikub-solver / tapete: {ratio:.1f}")
            same = [
                a == b for a, b, p in zip(ours, their_values, items, strict=True) if not p["jokers"]
            ]
            print(f"same value on {sum(same)} of {len(same)} positions without jokers")


if __name__ == "__main__":
    main()
