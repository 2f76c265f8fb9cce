"""Helpers shared by the engine tests (`from helpers import ...`; tests/ is on sys.path)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from tapete import GAMES
from tapete.bots import choose_move
from tapete.wizard.game import RoundRecord


def roundtrip(game: Any, state: Any) -> Any:
    """State -> JSON text -> state, as the page stores and sends it."""
    return game.from_json(json.loads(json.dumps(game.to_json(state))))


def playout(game: Any, state: Any, level: str = "random", seed: object = 0, limit: int = 20_000):
    """Yield (state, seat, move) until the game ends, moves chosen by the bot of ``level``."""
    steps = 0
    while (seat := game.to_move(state)) is not None:
        move = choose_move(game, state, seat, level, (seed, steps))
        yield state, seat, move
        state = game.apply(state, seat, move)
        steps += 1
        assert steps < limit, "the game does not end"
    yield state, None, None


def all_games() -> list[str]:
    return sorted(GAMES)


BENCH = Path(__file__).resolve().parent.parent / "bench"


def load_bench(name: str) -> ModuleType:
    """A bench script (``bench/<name>.py``) imported as module ``name``: tests run its tournament
    runner on tiny runs. The scripts import bench/benchlib.py, so bench/ goes on sys.path."""
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    import benchlib

    return benchlib.load_bench(name)


# A finished Wizard round of 2 cards (a score sheet's row), no trump, seat 0 leads G5. Seat 1
# (bid 1) follows with G2 although it holds a Wizard, then takes the next trick with it; seat 2
# (bid 0) takes the first with G9 although G3 would have lost; seat 0 (bid 0) follows the
# second with its only card, a loser; seat 3 never holds a winner.
TWO_CARD_ROUND = RoundRecord(
    round=2,
    dealer=3,
    trump=None,
    trump_card=None,
    bids=(0, 1, 0, 1),
    tricks=(0, 1, 1, 0),
    points=(20, 30, -10, -10),
    totals=(20, 30, -10, -10),
    cards=(("G5", "R7"), ("G2", "Z1"), ("G9", "G3"), ("B1", "B2")),
)
