"""How long "Review my play" takes on long games, in CPython and in the browser's worker.

    python3 bench/bench_review.py [--games wizard,rummikub,willie,lobo] [--no-browser]

Records, made here with seeded bots (seat 0 stands for the human; its moves are a bot's):

- wizard: a whole 4-player game (15 rounds, 540 moves) between heuristic bots, seed ``BENCH``;
- rummikub: a 4-player match (``match_mode``: 4 games in a row) between easy bots, seed
  ``BENCH``, a long record with big tables;
- willie: a whole 3-player game between an easy bot (seat 0) and normal bots, the longest of
  seeds ``BENCH0`` .. ``BENCH9``;
- lobo: a whole Standard game played by the greedy bot, the longest of the same seeds.

Each record is reviewed whole, chunk after chunk as the page asks (default budget: 400 work
units a chunk; the state and summary of each answer sent with the next request), once by
``tapete.api.handle`` in this process (CPU and wall time per chunk) and once through the app's
own engine client in headless Chromium (bench_browser.py's build, server and page; time per
chunk taken with ``performance.now()`` in the page). Every browser answer must equal CPython's;
a difference is printed and the script exits with status 1.

Prints a markdown table per game: decisions judged, chunks, total and longest chunk in each
runtime, and the ratio of the totals (browser / CPython wall; CPython CPU beside it).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import benchlib

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "engine"))

from tapete import api, get_game  # noqa: E402
from tapete.bots import choose_move  # noqa: E402

GAMES = ("wizard", "rummikub", "willie", "lobo")
SETUPS: dict[str, tuple[int, dict[str, Any], str, str]] = {  # players, options, seat 0, others
    "wizard": (4, {}, "heuristic", "heuristic"),
    "rummikub": (4, {"match_mode": True}, "easy", "easy"),
    "willie": (3, {}, "easy", "normal"),
    "lobo": (1, {}, "greedy", "greedy"),
}


def longest_record(game_id: str, seeds: int = 10) -> dict[str, Any]:
    """Of the games from seeds ``BENCH0`` .. ``BENCH9``, the one with the most moves."""
    return max(
        (make_record(game_id, f"BENCH{i}") for i in range(seeds)),
        key=lambda record: len(record["moves"]),
    )


def make_record(game_id: str, seed: str = "BENCH") -> dict[str, Any]:
    players, options, human, bots = SETUPS[game_id]
    game = get_game(game_id)
    state = game.new_game(seed, options, players)
    moves: list[dict[str, Any]] = []
    while (seat := game.to_move(state)) is not None:
        move = choose_move(game, state, seat, human if seat == 0 else bots, len(moves))
        moves.append({"seat": seat, "move": game.move_to_json(move)})
        state = game.apply(state, seat, move)
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": bots}] * (players - 1)
    return {
        "game": game_id,
        "seed": seed,
        "options": options,
        "players": players,
        "seats": seats,
        "moves": moves,
    }


@dataclass
class Timing:
    chunks: list[float] = field(default_factory=list)  # ms per chunk
    cpu: list[float] = field(default_factory=list)  # CPython only
    answers: list[dict[str, Any]] = field(default_factory=list)


def review(
    ask: Callable[[dict[str, Any]], tuple[float, float, dict[str, Any]]], record: dict[str, Any]
) -> Timing:
    timing = Timing()
    request: dict[str, Any] = {"record": record}
    while True:
        ms, cpu, answer = ask(request)
        if not answer.get("ok"):
            raise SystemExit(f"review failed: {json.dumps(answer)[:500]}")
        timing.chunks.append(ms)
        timing.cpu.append(cpu)
        timing.answers.append(answer["result"])
        result = answer["result"]
        if result["next"] is None:
            return timing
        request = {
            **request,
            "start": result["next"],
            "state": result["state"],
            "summary": result["summary"],
        }


def ask_cpython(request: dict[str, Any]) -> tuple[float, float, dict[str, Any]]:
    text = json.dumps({"op": "review", **request})
    wall, cpu = time.perf_counter(), time.process_time()
    answer = api.handle(text)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return 1000 * wall, 1000 * cpu, json.loads(answer)


def browser_asker(
    page: Any, call: str
) -> Callable[[dict[str, Any]], tuple[float, float, dict[str, Any]]]:
    def ask(request: dict[str, Any]) -> tuple[float, float, dict[str, Any]]:
        answer = page.evaluate(call, ["review", request, 120_000])
        return float(answer["ms"]), 0.0, answer

    return ask


def row(game: str, record: dict[str, Any], cpython: Timing, browser: Timing | None) -> str:
    last = cpython.answers[-1]
    decisions = last["summary"]["decisions"]
    wall, cpu = sum(cpython.chunks) / 1000, sum(cpython.cpu) / 1000
    cells = [
        game,
        f"{len(record['moves'])} moves, {decisions} decisions",
        str(len(cpython.chunks)),
        f"{cpu:.1f} s CPU / {wall:.1f} s wall, longest chunk {max(cpython.cpu):.0f} ms CPU",
    ]
    if browser is not None:
        total = sum(browser.chunks) / 1000
        cells += [
            f"{total:.1f} s, longest chunk {max(browser.chunks):.0f} ms",
            f"{total / wall:.2f}x wall, {total / cpu:.2f}x CPU",
        ]
    return "| " + " | ".join(cells) + " |"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args()
    games = [g for g in args.games.split(",") if g]
    if any(g not in GAMES for g in games):
        raise SystemExit(f"unknown games in {games}")
    records = {
        g: make_record(g) if g in ("wizard", "rummikub") else longest_record(g) for g in games
    }
    print("records made", file=sys.stderr, flush=True)
    for g in games:  # warm the imports, untimed
        ask_cpython({"record": {**records[g], "moves": records[g]["moves"][:2]}})
    cpython = {g: review(ask_cpython, records[g]) for g in games}
    print("CPython done", file=sys.stderr, flush=True)
    browser: dict[str, Timing] = {}
    info: dict[str, Any] = {}
    if not args.no_browser:
        tool_browser = benchlib.load_bench("bench_browser")
        boot = benchlib.load_bench("bench_boot")
        tool = boot.load_build()
        with tool_browser.app_in_browser(boot, tool) as (page, info):
            ask = browser_asker(page, tool_browser.CALL)
            for g in games:
                ask({"record": {**records[g], "moves": records[g]["moves"][:2]}})
                browser[g] = review(ask, records[g])
                print(f"browser {g} done", file=sys.stderr, flush=True)
    header = "| game | record | chunks | CPython | browser | browser / CPython |"
    lines = [header, "|---|---|---:|---|---|---|" if browser else "|---|---|---:|---|"]
    if not browser:
        lines[0] = "| game | record | chunks | CPython |"
    for g in games:
        lines.append(row(g, records[g], cpython[g], browser.get(g)))
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    lines += [
        "",
        f"Load average {load} at the end, {os.cpu_count()} cores, CPython "
        f"{platform.python_version()}"
        + (f"; {info.get('browser')}, Pyodide {info.get('pyodide_version')}" if info else ""),
    ]
    status = 0
    for g in browser:
        same = [a == b for a, b in zip(browser[g].answers, cpython[g].answers, strict=True)]
        if not all(same) or len(browser[g].answers) != len(cpython[g].answers):
            lines.append(f"**{g}: the browser's review differs from CPython's**")
            status = 1
    if browser and status == 0:
        lines.append("Every browser answer equals CPython's.")
    print("\n".join(lines))
    return status


if __name__ == "__main__":
    sys.exit(main())
