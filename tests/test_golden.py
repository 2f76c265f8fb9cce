"""Golden deals: a shared link must deal the same cards forever (and in Pyodide, see
tests/pyodide). If one of these fails, every saved link would deal differently: do not update
the expected values unless you mean to break old links, and say so in the changelog."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tapete import GAMES


def deal_digest(game_id: str, seed: str, players: int | None) -> str:
    game = GAMES[game_id]
    state = game.to_json(game.new_game(seed, None, players))
    text = json.dumps(state, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def wizard_round(seed: str, players: int, number: int) -> tuple[int, list[list[str]], str | None]:
    game = GAMES["wizard"]
    state = game.new_game(seed, None, players)
    state = game.deal_round(state, number)
    return state.dealer, [list(h) for h in state.hands], state.trump_card


def test_wizard_first_deals_are_pinned() -> None:
    assert wizard_round("K7QX2M", 4, 1) == GOLDEN_WIZARD["K7QX2M/4/1"]
    assert wizard_round("K7QX2M", 4, 3) == GOLDEN_WIZARD["K7QX2M/4/3"]
    assert wizard_round("A", 3, 2) == GOLDEN_WIZARD["A/3/2"]
    assert wizard_round("zz-9_", 6, 10) == GOLDEN_WIZARD["zz-9_/6/10"]


@pytest.mark.parametrize(
    ("game_id", "seed", "players"),
    [
        (game_id, seed, players)
        for (game_id, seed, players) in [
            ("wizard", "K7QX2M", 4),
            ("wizard", "A", 3),
            ("wizard", "HELLO", 5),
            ("wizard", "Z", 6),
        ]
    ],
)
def test_first_states_are_pinned(game_id: str, seed: str, players: int) -> None:
    assert deal_digest(game_id, seed, players) == GOLDEN_DIGESTS[(game_id, seed, players)]


GOLDEN_WIZARD: dict[str, tuple[int, list[list[str]], str | None]] = {
    "K7QX2M/4/1": (0, [["Y3"], ["Y6"], ["R13"], ["G12"]], "Y7"),
    "K7QX2M/4/3": (
        2,
        [["Y4", "B4", "R3"], ["G3", "B9", "R6"], ["Z3", "R7", "B12"], ["Y12", "Y13", "Y11"]],
        "R12",
    ),
    "A/3/2": (0, [["N3", "Z1"], ["Y10", "R6"], ["R7", "Z2"]], "B10"),
    "zz-9_/6/10": (
        5,
        [
            ["G2", "N2", "Y7", "G9", "G5", "Z1", "Y6", "B4", "R13", "R5"],
            ["R2", "Y5", "Z2", "G12", "B9", "R6", "N1", "B8", "G10", "Z3"],
            ["R11", "Z4", "Y4", "B7", "B3", "B10", "G8", "B12", "B11", "R8"],
            ["B2", "Y3", "G7", "Y1", "N3", "R7", "G3", "Y11", "Y13", "R3"],
            ["Y9", "G1", "G6", "R12", "R4", "G11", "B5", "Y10", "B13", "R1"],
            ["G13", "B6", "Y2", "Y12", "R9", "B1", "Y8", "G4", "R10", "N4"],
        ],
        None,
    ),
}
GOLDEN_DIGESTS: dict[tuple[str, str, int], str] = {
    ("wizard", "K7QX2M", 4): "cfddb1e1bb78dadf",
    ("wizard", "A", 3): "64749a20cedd81b6",
    ("wizard", "HELLO", 5): "3661711fc46e65f6",
    ("wizard", "Z", 6): "24c149ea01618be1",
}


HASH_SEED_SCRIPT = """
import hashlib, json, sys
from tapete import GAMES
from tapete.bots import choose_move

game = GAMES[sys.argv[1]]
level = sys.argv[2]
state = game.new_game("HASH7", None, None)
moves = []
for ply in range(int(sys.argv[3])):
    seat = game.to_move(state)
    if seat is None:
        break
    move = choose_move(game, state, seat, level, ply)
    moves.append(game.move_to_json(move))
    state = game.apply(state, seat, move)
text = json.dumps([moves, game.to_json(state)], sort_keys=True)
print(hashlib.sha256(text.encode()).hexdigest())
"""

HASH_SEED_LEVELS = {"wizard": "heuristic", "rummikub": "normal", "willie": "normal", "lobo": "best"}


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_hash_seed_never_decides(game_id: str) -> None:
    """Deals and bot moves are the same under different str hash seeds (set/dict order of
    strings must never leak into a deal, a move list or a bot's choice)."""
    engine = Path(__file__).resolve().parent.parent / "engine"
    level = HASH_SEED_LEVELS[game_id]
    digests = set()
    for hash_seed in ("0", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(engine)}
        run = subprocess.run(
            [sys.executable, "-c", HASH_SEED_SCRIPT, game_id, level, "60"],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert run.returncode == 0, run.stderr
        digests.add(run.stdout.strip())
    assert len(digests) == 1, f"{game_id}: different play under different hash seeds"
