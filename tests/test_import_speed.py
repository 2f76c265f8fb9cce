"""The engine starts fast: ``import tapete.api`` (what the web worker waits for before ``ready``)
imports no game, and a game's package, with its solvers, only when that game is first used.
Solver tables are made on their first use, not at import. Checked by what is imported (in a
fresh interpreter), never by timing; bench/bench_import.py measures the time.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tapete import GAMES, get_game
from tapete.errors import UnknownGameError

ENGINE = Path(__file__).resolve().parent.parent / "engine"
GAME_IDS = ["lobo", "rummikub", "willie", "wizard"]
# Imported by some game, never by the API alone: the games and their heaviest modules.
HEAVY = [
    *(f"tapete.{game_id}" for game_id in GAME_IDS),
    "tapete.core",
    "tapete.rng",
    "tapete.bots.ismcts",
    "tapete.rummikub.program",
    "tapete.rummikub.solver",
    "tapete.willie.solver",
    "tapete.lobo.solver",
    "tapete.wizard.ai",
    "fractions",
]


def run_python(source: str) -> object:
    """Run ``source`` in a fresh interpreter with the engine on its path; it prints JSON."""
    env = {**os.environ, "PYTHONPATH": str(ENGINE)}
    done = subprocess.run(
        [sys.executable, "-c", source], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


pytestmark = pytest.mark.skipif(sys.platform == "emscripten", reason="runs subprocesses")

# Which of ``names`` a fresh interpreter has imported after the API answered ``request``.
LOADED = """
import json, sys
import tapete.api
for request in {requests!r}:
    assert json.loads(tapete.api.handle(request))["ok"], request
print(json.dumps(sorted(name for name in {names!r} if name in sys.modules)))
"""


def test_importing_the_api_imports_no_game() -> None:
    assert run_python(LOADED.format(requests=[], names=HEAVY)) == []


def test_listing_the_games_imports_none() -> None:
    source = """
import json, sys
from tapete import GAMES
ids = [list(GAMES), len(GAMES), "wizard" in GAMES, "chess" in GAMES, GAMES.get("chess")]
print(json.dumps([ids, [name for name in sys.modules if name.startswith("tapete.")]]))
"""
    ids = [["wizard", "willie", "lobo", "rummikub"], 4, True, False, None]
    assert run_python(source) == [ids, ["tapete.errors"]]


def test_a_game_imports_only_its_own_package() -> None:
    deal = json.dumps({"op": "new_game", "game": "wizard", "seed": "LAZY"})
    packages = [f"tapete.{game_id}" for game_id in GAME_IDS]
    assert run_python(LOADED.format(requests=[deal], names=packages)) == ["tapete.wizard"]


def test_the_catalogue_imports_every_game() -> None:
    packages = [f"tapete.{game_id}" for game_id in GAME_IDS]
    assert run_python(LOADED.format(requests=['{"op": "games"}'], names=packages)) == packages


def test_rummikub_tables_are_made_on_first_use() -> None:
    source = """
import json
from tapete.rummikub import program
from tapete.rummikub.solver import solve
before = program.dominators.cache_info().currsize
solve(table=[], rack=["R1", "R2", "R3", "B7", "K7", "Y7"])
print(json.dumps([before, program.dominators.cache_info().currsize]))
"""
    assert run_python(source) == [0, 1]


def test_games_is_a_mapping_of_game_objects() -> None:
    assert sorted(GAMES) == GAME_IDS
    assert len(GAMES) == len(GAME_IDS)
    for game_id in GAMES:
        assert GAMES[game_id] is get_game(game_id)
        assert GAMES[game_id].id == game_id
    assert GAMES.get("chess") is None
    with pytest.raises(UnknownGameError, match="games: lobo, rummikub, willie, wizard"):
        get_game("chess")


def test_dominance_table() -> None:
    """Spot checks of the table made on first use: a lane of three beats every other lane kind,
    no lane tuple dominates itself, and the masks are the table read the other way round."""
    from tapete.rummikub.program import LANE_INDEX, LANES, dominated_masks, dominators

    above = dominators()
    three = LANE_INDEX[(0, 0, 1, 0)]
    for lanes in [(1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 0, 1), (0, 0, 0, 0)]:
        assert three in above[LANE_INDEX[lanes]]
    assert all(i not in above[i] for i in range(len(LANES)))
    masks = dominated_masks()
    for i in range(len(LANES)):
        for j in range(len(LANES)):
            assert bool(masks[i] >> j & 1) == (i in above[j])


def local_imports(path: Path) -> set[str]:
    """The sibling modules that ``path`` imports (``from .x import``), at any depth of the file."""
    import ast

    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            found.add(node.module or "__init__")
    return found


@pytest.mark.parametrize("game_id", ["rummikub", "willie"])
def test_a_game_package_has_no_import_circle(game_id: str) -> None:
    """Within a game's package no module imports one that imports it back (the rules import no
    bot: the package hands its bots to the game), and the bots are registered all the same."""
    folder = ENGINE / "tapete" / game_id
    graph = {
        p.stem: local_imports(p) & {q.stem for q in folder.glob("*.py")}
        for p in folder.glob("*.py")
    }
    graph.pop("__init__")

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for step in graph.get(start, set()) - seen:
            if step == goal or reaches(step, goal, seen | {step}):
                return True
        return False

    assert [m for m in sorted(graph) if reaches(m, m, set())] == []
    assert set(get_game(game_id).bots) >= {"easy", "normal"}
