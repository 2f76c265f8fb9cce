"""The wheel inside real Pyodide (under Node, offline) answers exactly as CPython does.

tests/pyodide/run.mjs boots the pinned Pyodide runtime from the npm package (cached in .cache/
by build.py), installs the freshly built wheel, and calls ``tapete.api.handle`` with JSON
strings the way web/worker.js does. Here CPython answers the same requests and plays the same
bot games; every answer and every move must be identical, byte for byte.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tapete import GAMES
from tapete.api import handle

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "tests" / "pyodide" / "run.mjs"
NODE = shutil.which("node")

pytestmark = [
    pytest.mark.skipif(sys.platform == "emscripten", reason="already inside Pyodide"),
    pytest.mark.skipif(NODE is None, reason="node not found: install Node.js 18+ to run these"),
]

REQUESTS: list[dict[str, Any]] = [
    {"op": "games"},
    {"op": "new_game", "game": "wizard", "seed": "K7QX2M", "players": 4},
    {"op": "new_game", "game": "wizard", "seed": "PYODIDE", "players": 3, "view_seat": 0},
    {
        "op": "new_game",
        "game": "wizard",
        "seed": "K7QX2M",
        "players": 6,
        "options": {"even_bid_restriction": "LEADER_DEALER_ONLY"},
        "view_seat": 5,
    },
    {"op": "new_game", "game": "wizard", "seed": "K7QX2M", "players": 2},
    {"op": "new_game", "game": "wizard", "seed": "K7QX2M", "options": {"nope": 1}},
    {"op": "new_game", "game": "chess", "seed": "K7QX2M"},
    {"op": "bot_move", "game": "wizard", "state": {"v": 1}, "seat": 0, "level": "random"},
]
RAW_REQUESTS = ["not json", "[1, 2]", '{"op": "fly"}']
# Every registered game deals the same first state in both (Wizard plays whole games below).
EVERY_GAME = [
    {"op": "new_game", "game": name, "seed": "PYODIDE", "view_seat": 0} for name in sorted(GAMES)
]

# Whole Wizard games played by bots, the way the page drives them (bot_seed = moves so far).
PLAYOUTS: list[dict[str, Any]] = [
    {"game": "wizard", "seed": "PYRANDOM3", "players": 3, "levels": ["random"]},
    {"game": "wizard", "seed": "PYHEUR4", "players": 4, "levels": ["heuristic"]},
    {
        "game": "wizard",
        "seed": "PYMIXED5",
        "players": 5,
        "levels": ["heuristic", "random"],
        "options": {"bidding_mode": "HIDDEN_SIMULTANEOUS"},
    },
]


def review_request(game: str, seed: str, players: int, level: str, moves: int) -> dict[str, Any]:
    """A ``review`` of the first ``moves`` moves of a bot game whose seat 0 is called human."""
    from tapete.bots import choose_move

    engine = GAMES[game]
    state = engine.new_game(seed, None, players)
    record: list[dict[str, Any]] = []
    while (seat := engine.to_move(state)) is not None and len(record) < moves:
        move = choose_move(engine, state, seat, level, len(record))
        record.append({"seat": seat, "move": engine.move_to_json(move)})
        state = engine.apply(state, seat, move)
    seats = [{"kind": "human"}] + [{"kind": "bot"}] * (players - 1)
    return {
        "op": "review",
        "record": {"game": game, "seed": seed, "players": players, "seats": seats, "moves": record},
        "budget": 1_500,
    }


# The review's seeded searches give the same verdicts in both (a chunk of each game).
REVIEWS = [
    review_request("wizard", "PYREVIEW", 3, "heuristic", 40),
    review_request("rummikub", "PYREVIEW", 3, "easy", 90),
    review_request("willie", "PYREVIEW", 3, "easy", 30),
    review_request("lobo", "PYREVIEW", 1, "greedy", 12),
]


def load_build() -> ModuleType:
    """build.py by path: its module name clashes with PyPI's ``build``."""
    spec = importlib.util.spec_from_file_location("tapete_build", ROOT / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def all_requests() -> list[str]:
    fixed = [json.dumps(request) for request in REQUESTS] + RAW_REQUESTS
    return fixed + [json.dumps(request) for request in EVERY_GAME + REVIEWS]


def cpython_playout(spec: dict[str, Any]) -> dict[str, Any]:
    """The loop of run.mjs's ``playout``, in CPython."""

    def call(request: dict[str, Any]) -> dict[str, Any]:
        answer: dict[str, Any] = json.loads(handle(json.dumps(request)))
        return answer

    moves: list[dict[str, Any]] = []
    answer = call(
        {
            "op": "new_game",
            "game": spec["game"],
            "seed": spec["seed"],
            "players": spec.get("players"),
            "options": spec.get("options"),
        }
    )
    while answer["ok"] and answer["result"]["to_move"] is not None and len(moves) < 20_000:
        seat = answer["result"]["to_move"]
        answer = call(
            {
                "op": "bot_move",
                "game": spec["game"],
                "state": answer["result"]["state"],
                "seat": seat,
                "level": spec["levels"][seat % len(spec["levels"])],
                "bot_seed": len(moves),
            }
        )
        if answer["ok"]:
            moves.append({"seat": seat, "move": answer["result"]["move"]})
    return {"moves": moves, "final": answer}


def run_in_pyodide(tmp: Path, config: dict[str, Any]) -> dict[str, Any]:
    config_path, out_path = tmp / "config.json", tmp / "out.json"
    config_path.write_text(json.dumps(config), encoding="utf-8")
    assert NODE is not None
    completed = subprocess.run(
        [NODE, SCRIPT, config_path, out_path],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert completed.returncode == 0, f"node failed:\n{completed.stdout}\n{completed.stderr}"
    result: dict[str, Any] = json.loads(out_path.read_text(encoding="utf-8"))
    return result


@pytest.fixture(scope="module")
def build_module() -> ModuleType:
    return load_build()


@pytest.fixture(scope="module")
def wheel(build_module: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path: Path = build_module.build_wheel(tmp_path_factory.mktemp("wheel"))
    return path


@pytest.fixture(scope="module")
def runtime(build_module: ModuleType) -> Path:
    path: Path = build_module.ensure_pyodide()
    return path


@pytest.fixture(scope="module")
def loaded(
    build_module: ModuleType, runtime: Path, wheel: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    """One Pyodide run with the standard library the app ships (precompiled, trimmed to what
    it imports): the wheel by ``loadPackage``, every request, every playout."""
    config = {
        "mode": "loadPackage",
        "pyodide": str(runtime),
        "stdlib": str(build_module.ensure_stdlib_trimmed(runtime)),
        "metadata": False,
        "wheel": str(wheel),
        "requests": all_requests(),
        "playouts": PLAYOUTS,
    }
    return run_in_pyodide(tmp_path_factory.mktemp("loaded"), config)


@pytest.fixture(scope="module")
def via_micropip(
    build_module: ModuleType, runtime: Path, wheel: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    """A fresh Pyodide that installs the wheel with micropip (loaded from its cached wheel)."""
    config = {
        "mode": "micropip",
        "pyodide": str(runtime),
        "wheel": str(wheel),
        "micropip": str(build_module.ensure_micropip()),
        "requests": all_requests()[:2],
    }
    return run_in_pyodide(tmp_path_factory.mktemp("micropip"), config)


def test_runs_the_pinned_pyodide(loaded: dict[str, Any], build_module: ModuleType) -> None:
    assert loaded["pyodide_version"] == build_module.PYODIDE_VERSION
    assert loaded["platform"] == "emscripten"
    assert loaded["python_version"].startswith("3.14.")
    assert loaded["tapete_file"].startswith("/lib/python3.14/site-packages/tapete/")
    assert loaded["network"] == []


def test_answers_match_cpython(loaded: dict[str, Any]) -> None:
    expected = [handle(request) for request in all_requests()]
    for request, got, want in zip(all_requests(), loaded["responses"], expected, strict=True):
        assert json.loads(got) == json.loads(want), request
        assert got == want, request
    codes = [json.loads(answer).get("error", {}).get("code") for answer in expected]
    assert codes[:4] == [None] * 4, "the first four requests must succeed"
    tail = len(EVERY_GAME) + len(REVIEWS)
    assert codes[-tail:] == [None] * tail, "every game must deal, every review answer"
    assert codes[4:-tail] == [
        "bad_option",
        "bad_option",
        "unknown_game",
        "bad_state",
        "bad_request",
        "bad_request",
        "bad_request",
    ]


def test_games_catalogue_matches(loaded: dict[str, Any]) -> None:
    games = json.loads(loaded["responses"][0])["result"]["games"]
    assert games == [GAMES[name].catalogue() for name in sorted(GAMES)]
    assert "wizard" in [game["id"] for game in games]


@pytest.mark.parametrize(
    "index",
    range(len(PLAYOUTS)),
    ids=[f"{p['players']}p-{'+'.join(p['levels'])}" for p in PLAYOUTS],
)
def test_whole_bot_game_matches_cpython(loaded: dict[str, Any], index: int) -> None:
    spec = PLAYOUTS[index]
    levels = GAMES[spec["game"]].catalogue()["bot_levels"]
    missing = [level for level in spec["levels"] if level not in levels]
    assert not missing, f"{spec['game']} has no bot level {missing}"
    got = loaded["playouts"][index]
    want = cpython_playout(spec)
    final = json.loads(got["final"])
    assert final["ok"], final
    assert final["result"]["to_move"] is None, "the game did not end"
    assert final["result"]["outcome"] is not None
    assert len(got["moves"]) > 50
    assert got["moves"] == want["moves"]
    assert final == want["final"]


def test_micropip_installs_the_wheel(via_micropip: dict[str, Any]) -> None:
    assert via_micropip["installer"] == "micropip"
    assert via_micropip["tapete_file"].startswith("/lib/python3.14/site-packages/tapete/")
    assert via_micropip["network"] == []
    games = json.loads(via_micropip["responses"][0])
    assert games["ok"] and games["result"]["engine_version"] == via_micropip["installed_version"]
    assert via_micropip["responses"][1] == handle(all_requests()[1])
