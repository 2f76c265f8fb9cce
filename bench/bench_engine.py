"""Whole Wizard games per second, bots against bots, in CPython and in Pyodide under Node.

    python3 bench/bench_engine.py [--players 4] [--games 5] [--repeats 5] [--level random]
    python3 build.py bench engine

The same Python source (BENCH below) runs in both: in this interpreter, and in the pinned
Pyodide runtime (booted by tests/pyodide/run.mjs with the freshly built wheel). Two ways are
timed: ``engine`` calls the game objects directly (new_game, choose_move, apply), ``api`` plays
the way the page does, one ``tapete.api.handle`` JSON round trip per bot move with the whole
state sent each time. Each repeat plays ``--games`` games with their own seeds; the table shows
the median repeat. Prints a markdown table and the command that made it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

import benchlib

ROOT = Path(__file__).resolve().parents[1]
RUNNER = ROOT / "tests" / "pyodide" / "run.mjs"

# Runs unchanged in CPython and in Pyodide; bench_source puts ``CONFIG`` before it.
BENCH = r"""
import json, time
from tapete import get_game
from tapete.api import handle
from tapete.bots import choose_move

def play_engine(game, seed, players, level):
    state = game.new_game(seed, None, players)
    moves = 0
    while (seat := game.to_move(state)) is not None:
        state = game.apply(state, seat, choose_move(game, state, seat, level, moves))
        moves += 1
    return moves

def play_api(game, seed, players, level):
    answer = json.loads(handle(json.dumps(
        {"op": "new_game", "game": game.id, "seed": seed, "players": players})))
    moves = 0
    while answer["result"]["to_move"] is not None:
        answer = json.loads(handle(json.dumps(
            {"op": "bot_move", "game": game.id, "state": answer["result"]["state"],
             "seat": answer["result"]["to_move"], "level": level, "bot_seed": moves})))
        assert answer["ok"], answer
        moves += 1
    return moves

def timed(play, config):
    game = get_game(config["game"])
    play(game, "WARMUP", config["players"], config["level"])
    repeats = []
    for r in range(config["repeats"]):
        started, moves = time.perf_counter(), 0
        for i in range(config["games"]):
            moves += play(game, f"BENCH{r}X{i}", config["players"], config["level"])
        repeats.append({"seconds": time.perf_counter() - started, "moves": moves})
    return repeats

json.dumps({"engine": timed(play_engine, CONFIG), "api": timed(play_api, CONFIG)})
"""


load_build = benchlib.load_build


def bench_source(config: dict[str, Any]) -> str:
    """BENCH with its CONFIG; the last line is an expression giving the result as JSON."""
    return f"import json\nCONFIG = json.loads({json.dumps(json.dumps(config))})\n{BENCH}"


def run_cpython(source: str) -> dict[str, Any]:
    sys.path.insert(0, str(ROOT / "engine"))
    namespace: dict[str, Any] = {}
    *body, last = source.rstrip().splitlines()
    exec("\n".join(body), namespace)
    result: dict[str, Any] = json.loads(eval(last, namespace))
    return result


def run_pyodide(source: str, tool: ModuleType, work: Path) -> tuple[dict[str, Any], str]:
    node = shutil.which("node")
    if node is None:
        raise SystemExit("node not found: install Node.js 18+ to benchmark Pyodide")
    wheel = tool.build_wheel(work / "wheel")
    config = {
        "mode": "loadPackage",
        "pyodide": str(tool.ensure_pyodide()),
        "wheel": str(wheel),
        "python": source,
    }
    (work / "config.json").write_text(json.dumps(config), encoding="utf-8")
    subprocess.run(
        [node, RUNNER, work / "config.json", work / "out.json"],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    out = json.loads((work / "out.json").read_text(encoding="utf-8"))
    name = f"Pyodide {out['pyodide_version']} (Python {out['python_version']})"
    return json.loads(out["python"]), name


def median_rates(repeats: list[dict[str, float]], games: int) -> tuple[float, float, float]:
    """(games/s, moves/s, ms per move) of the median repeat."""
    seconds = statistics.median(r["seconds"] for r in repeats)
    moves = statistics.median(r["moves"] for r in repeats)
    return games / seconds, moves / seconds, 1000 * seconds / moves


def table(rows: list[tuple[str, dict[str, Any]]], games: int) -> str:
    lines = ["| runtime | way | games/s | moves/s | ms/move |", "|---|---|---:|---:|---:|"]
    for name, result in rows:
        for way in ("engine", "api"):
            rate, moves, per_move = median_rates(result[way], games)
            lines.append(f"| {name} | {way} | {rate:.2f} | {moves:,.0f} | {per_move:.3f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="wizard")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=5, help="games per repeat")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--level", default="random", help="bot level of every seat")
    args = parser.parse_args()
    config = {
        "game": args.game,
        "players": args.players,
        "games": args.games,
        "repeats": args.repeats,
        "level": args.level,
    }
    source = bench_source(config)
    cpython = run_cpython(source)
    with tempfile.TemporaryDirectory() as temp:
        pyodide, pyodide_name = run_pyodide(source, load_build(), Path(temp))
    node = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    command = "python3 bench/bench_engine.py " + " ".join(
        f"--{key} {value}" for key, value in config.items()
    )
    print(
        f"{args.game}, {args.players} players, {args.level} bots: {args.games} games per "
        f"repeat, median of {args.repeats} repeats\n"
    )
    print(
        table(
            [
                (f"CPython {platform.python_version()}", cpython),
                (f"{pyodide_name}, Node {node}", pyodide),
            ],
            args.games,
        )
    )
    print(
        f"\n{os.cpu_count()} cores, {platform.machine()}, {platform.system()}; command: `{command}`"
    )


if __name__ == "__main__":
    main()
