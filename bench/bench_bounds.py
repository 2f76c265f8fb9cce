"""The dearest requests the bounded ops allow, each timed and weighed in a process of its own.

    python3 bench/bench_bounds.py [--repeat 3] [--only lab,lobo_deal]

For every case: the CPU seconds of the request (``time.process_time``, median of ``--repeat``
runs) and the peak memory it added (``ru_maxrss`` of a fresh process after the request, minus
the same process's mark after importing the engine and building the request). The cases are
the worst settings of each op that searches or simulates: the lab's longest Willie games, the
lobo_deal search at its most positions in both modes (also going on from a ``resume``), hints
and top bots on the largest states a game can reach. Targets (issue 14): every one under 2 s
of CPU and 300 MB.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import resource
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "engine"))

from tapete import get_game  # noqa: E402
from tapete.api import handle  # noqa: E402
from tapete.bots import choose_move  # noqa: E402


def lab(players: int, level: str, options: dict[str, Any]) -> dict[str, Any]:
    config = {
        "game": "willie",
        "players": [players],
        "games": 100_000,
        "seed": "BOUND",
        "options": options,
        "levels": [level],
    }
    return {"op": "lab", "config": config, "start": 0, "count": 1000}


def lobo_deal(options: dict[str, Any], resume_after: int = 0) -> dict[str, Any]:
    request: dict[str, Any] = {
        "op": "lobo_deal",
        "seed": "BOUND3",
        "options": options,
        "budget": 60_000,
        "policy": True,
    }
    for _ in range(resume_after):  # the request after that many: going on from a resume
        result = json.loads(handle(json.dumps(request)))["result"]
        if result["resume"] is None:
            break
        request = dict(request, resume=result["resume"], policy=False)
    return request


def lobo_crowded(op: str) -> dict[str, Any]:
    """The Vanguard's largest reachable position: a 20-card Wolf against a hand of 4 and a
    reserve of 2 (two rounds won, 14 cards discarded), the pile spent."""
    game = get_game("lobo")
    state = game.to_json(game.new_game("Z9", {"difficulty": "HARD"}))
    pool = state["pile"] + state["wolf"] + state["hand"]
    state.update(
        hand=pool[:4], reserve=pool[4:6], wolf=pool[6:26], pile=[], discard=pool[26:], final=True
    )
    extra = {"level": "best"} if op == "bot_move" else {}
    return {"op": op, "game": "lobo", "state": state, "seat": 0, **extra}


def late_state(game_id: str, players: int, moves: int, seed: str) -> tuple[Any, Any, int]:
    """A state ``moves`` moves into a game of random bots (the hands grow as they draw),
    stopped early rather than past the end: someone is always to move."""
    game = get_game(game_id)
    state = game.new_game(seed, None, players)
    for step in range(moves):
        seat = game.to_move(state)
        assert seat is not None
        after = game.apply(state, seat, choose_move(game, state, seat, "random", (seed, step)))
        if game.to_move(after) is None:
            break
        state = after
    seat = game.to_move(state)
    assert seat is not None
    return game, state, seat


def dearest_hint(game_id: str, players: int, op: str, level: str = "") -> dict[str, Any]:
    game, state, seat = late_state(game_id, players, 160 if game_id == "rummikub" else 60, "B1")
    extra = {"level": level} if level else {}
    return {"op": op, "game": game_id, "state": game.to_json(state), "seat": seat, **extra}


def stuffed_rummikub(op: str, melded: bool, rack: int = 0) -> dict[str, Any]:
    """A 2-player game whose pool went to seat 0's rack (its first ``rack`` tiles if given)."""
    game = get_game("rummikub")
    data = game.to_json(game.new_game("STUFFED", None, 2))
    tiles = data["racks"][0] + data["pool"]
    cut = rack or len(tiles)
    data.update(racks=[tiles[:cut], data["racks"][1]], pool=tiles[cut:], current=0)
    data["melded"] = [melded, False]
    extra = {"level": "hard"} if op == "bot_move" else {}
    return {"op": op, "game": "rummikub", "state": data, "seat": 0, **extra}


def slow_rummikub(op: str, extra: tuple[str, ...] = ()) -> dict[str, Any]:
    """The tests' slowest real position (tests/test_rummikub_solver.py SLOW_TABLE, SLOW_RACK)
    as a 2-player state: the other tiles split between the other rack and the pool; ``extra``
    tiles go to the rack too."""
    sys.path.insert(0, str(ROOT / "tests"))
    from test_rummikub_solver import SLOW_RACK, SLOW_TABLE

    rack = [*SLOW_RACK, *extra]

    game = get_game("rummikub")
    data = game.to_json(game.new_game("SLOW", None, 2))
    left = Counter(data["pool"] + data["racks"][0] + data["racks"][1])
    left -= Counter(rack) + Counter(t for meld in SLOW_TABLE for t in meld)
    rest = sorted(left.elements())
    data.update(racks=[rack, rest[:14]], pool=rest[14:], current=0, melded=[True, True])
    from tapete.rummikub.melds import Meld, read_meld

    data["table"] = [Meld(read_meld(m).kind, tuple(m)).to_json() for m in SLOW_TABLE]
    return {"op": op, "game": "rummikub", "state": data, "seat": 0}


CASES: dict[str, Callable[[], dict[str, Any]]] = {
    "lab willie normal 3p target 1000 close 0": lambda: lab(
        3, "normal", {"target_score": 1000, "close_threshold": 0}
    ),
    "lab willie random 2p target 1000 close 0": lambda: lab(
        2, "random", {"target_score": 1000, "close_threshold": 0}
    ),
    "lab willie easy 3p hand 12": lambda: lab(3, "easy", {"hand_size": 12}),
    "lobo_deal classic 5 suits hard target 1000": lambda: lobo_deal(
        {"mode": "CLASSIC_LOBO", "suits": 5, "difficulty": "HARD", "classic_target": 1000}
    ),
    "lobo_deal classic default, 3rd request": lambda: lobo_deal({"mode": "CLASSIC_LOBO"}, 2),
    "lobo_deal vanguard hard, policy": lambda: lobo_deal({"difficulty": "HARD"}),
    "lobo hint, 20-card Wolf": lambda: lobo_crowded("hint"),
    "lobo bot_move best, 20-card Wolf": lambda: lobo_crowded("bot_move"),
    "rummikub hint, 4 players after 160 random moves": lambda: dearest_hint("rummikub", 4, "hint"),
    "rummikub bot_move hard, after 160 random moves": lambda: dearest_hint(
        "rummikub", 4, "bot_move", "hard"
    ),
    "willie hint, 3 players after 60 moves": lambda: dearest_hint("willie", 3, "hint"),
    "wizard bot_move hard": lambda: dearest_hint("wizard", 6, "bot_move", "hard"),
    "rummikub legal_moves, a 92-tile rack before its first meld": lambda: stuffed_rummikub(
        "legal_moves", False
    ),
    "rummikub hint, a 92-tile rack, melded, empty table": lambda: stuffed_rummikub("hint", True),
    "rummikub hint, the slowest real position (SLOW_TABLE)": lambda: slow_rummikub("hint"),
    "rummikub bot_move hard, a 40-tile rack": lambda: stuffed_rummikub("bot_move", True, 40),
}


def _measure(name: str, out: Any) -> None:
    text = json.dumps(CASES[name]())
    handle('{"op": "games"}')
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    began = time.process_time()
    answer = json.loads(handle(text))
    cpu = time.process_time() - began
    grew = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    code = "ok" if answer["ok"] else answer["error"]["code"]
    out.put((cpu, grew, code, len(text)))


def measure(name: str) -> tuple[float, float, str, int]:
    queue: Any = mp.Queue()
    process = mp.Process(target=_measure, args=(name, queue))
    process.start()
    result = queue.get()
    process.join()
    return result  # type: ignore[no-any-return]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", default="", help="cases whose name has one of these words")
    args = parser.parse_args(argv)
    words = [w for w in args.only.split(",") if w]
    print("| request | answer | CPU s (median, max) | peak memory MB | request KB |")
    print("|---|---|---:|---:|---:|")
    for name in CASES:
        if words and not any(w in name for w in words):
            continue
        runs = [measure(name) for _ in range(args.repeat)]
        cpus = [r[0] for r in runs]
        print(
            f"| {name} | {runs[0][2]} | {statistics.median(cpus):.2f}, {max(cpus):.2f} | "
            f"{max(r[1] for r in runs):.0f} | {runs[0][3] / 1024:.0f} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
