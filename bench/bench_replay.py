"""Replay speed in the browser: how long the replay screen takes to show a position of a long
saved game, stepping move by move and jumping, against one ``replay`` op per step.

    python3 bench/bench_replay.py [--rounds 3]

Games, made in CPython by the engine's bots: Wizard with 3 players (20 rounds, 691 moves: the
longest Wizard game there is), Rummikub with 4 players and Willie with 3 (normal bots).

The app is built into a temporary folder and opened in headless Chromium as bench_browser.py
does (``app_in_browser``). Each game is stored as a finished saved game through the page's own
saves module, the replay screen is opened on it (``#/replay/<id>``), and the page times itself
with ``performance.now()`` around ``screen.goTo(step)`` (the engine's windows, the renderer, the
DOM), ``--rounds`` times per game, each round from an empty cache of positions:

- ``jump to end``: the last position, from nothing fetched (one ``replay_steps`` window);
- ``step``: every position from the first to the last, one move at a time (windows fetched ahead
  while the player looks at a position: most steps draw from memory);
- ``per-step replay``: what it would cost without windows, a ``replay`` op of the record cut at
  the step, timed at 16 steps spread over the game.

Prints p50 / p95 / max (nearest rank) per game and kind, the machine and the command.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

import benchlib

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "engine"))

GAMES = (("wizard", 3, "BENCH-R1"), ("rummikub", 4, "BENCH-R2"), ("willie", 3, "BENCH-R3"))

MEASURE = """async ([id, rounds]) => {
  const wait = async (ok) => { while (!ok()) await new Promise((r) => setTimeout(r, 20)); };
  const shown = () => window.tapete.app.replay;
  await wait(() => shown() && shown().entry.id === id && shown().drawn >= 0);
  const screen = shown();
  const engine = window.tapete.app.engine;
  const out = {jump: [], step: [], replay: []};
  for (let round = 0; round < rounds; round++) {
    screen.positions.windows.clear();
    let t0 = performance.now();
    await screen.goTo(screen.total);
    out.jump.push(performance.now() - t0);
    screen.positions.windows.clear();
    await screen.goTo(0);
    for (let step = 1; step <= screen.total; step++) {
      t0 = performance.now();
      await screen.goTo(step);
      out.step.push(performance.now() - t0);
    }
    for (let i = 1; i <= 16; i++) {
      const step = Math.round((i * screen.total) / 16);
      const record = {...screen.record, moves: screen.record.moves.slice(0, step)};
      t0 = performance.now();
      await engine.call("replay", {record, view_seat: 0});
      out.replay.push(performance.now() - t0);
    }
  }
  return out;
}"""


def record_of(game_id: str, players: int, seed: str) -> dict[str, Any]:
    from tapete import get_game
    from tapete.bots import choose_move

    game = get_game(game_id)
    state = game.new_game(seed, None, players)
    moves = []
    while (seat := game.to_move(state)) is not None:
        move = choose_move(game, state, seat, "normal", (seed, len(moves)))
        moves.append({"seat": seat, "move": game.move_to_json(move)})
        state = game.apply(state, seat, move)
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "normal"}] * (players - 1)
    return {
        "game": game_id,
        "engine_version": "bench",
        "seed": seed,
        "options": {},
        "players": players,
        "seats": seats,
        "moves": moves,
    }


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    browser = benchlib.load_bench("bench_browser")
    boot = benchlib.load_bench("bench_boot")
    tool = boot.load_build()
    records = [record_of(*game) for game in GAMES]
    rows = []
    with browser.app_in_browser(boot, tool) as (page, info):
        for record in records:
            game_id = page.evaluate(
                """async (record) => {
                  const saves = window.tapete.saves;
                  const entry = saves.makeEntry(record, {status: "finished"});
                  await saves.putGame(entry);
                  return entry.id;
                }""",
                record,
            )
            page.evaluate(f"location.hash = '#/replay/{game_id}'")
            result = page.evaluate(MEASURE, [game_id, args.rounds])
            kinds = (("jump", "jump to end"), ("step", "step"), ("replay", "per-step replay"))
            for kind, label in kinds:
                values = result[kind]
                rows.append(
                    (
                        record["game"],
                        len(record["moves"]),
                        label,
                        len(values),
                        quantile(values, 0.5),
                        quantile(values, 0.95),
                        max(values),
                    )
                )
    print("| game | moves | kind | samples | p50 ms | p95 ms | max ms |")
    print("|---|---:|---|---:|---:|---:|---:|")
    for game, moves, kind, n, p50, p95, top in rows:
        print(f"| {game} | {moves} | {kind} | {n} | {p50:.1f} | {p95:.1f} | {top:.1f} |")
    load = os.getloadavg()
    print(
        f"\nMachine: {platform.machine()}, {os.cpu_count()} cores, load average "
        f"{load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}; {info['browser']}, "
        f"Pyodide {info.get('pyodide_version')}"
    )
    print(f"Command: python3 bench/bench_replay.py --rounds {args.rounds}")
    print(json.dumps({"records": [len(r["moves"]) for r in records]}), file=sys.stderr)
    return 0


if __name__ == "__main__":
    started = time.perf_counter()
    status = main()
    print(f"(took {time.perf_counter() - started:.0f} s)")
    sys.exit(status)
