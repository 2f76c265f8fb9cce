"""Bots are fair (the same view gives the same move) and reproducible (same seed, same move)."""

from __future__ import annotations

from typing import Any

import pytest

from helpers import playout
from tapete import GAMES
from tapete.bots import bot_for, choose_move
from tapete.errors import BadOptionError
from tapete.rng import Rng


@pytest.fixture(autouse=True)
def small_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    """The searching bots' real code path at 5% of their budgets (test_ismcts runs them full)."""
    monkeypatch.setenv("TAPETE_BOT_BUDGET", "0.05")


LEVELS = [(game_id, level) for game_id in sorted(GAMES) for level in GAMES[game_id].bot_levels]


def sample_positions(game: Any, seed: str, every: int = 5) -> list[Any]:
    states = []
    for i, (state, seat, _move) in enumerate(playout(game, game.new_game(seed), "random", seed)):
        if seat is not None and i % every == 0:
            states.append(state)
    return states[:40]


@pytest.mark.parametrize(("game_id", "level"), LEVELS)
def test_bot_decides_from_its_view_only(game_id: str, level: str) -> None:
    game = GAMES[game_id]
    for state in sample_positions(game, "FAIR"):
        seat = game.to_move(state)
        for k in range(2):
            world = game.sample_world(state, seat, Rng.derive("fair", k))
            assert game.view(world, seat) == game.view(state, seat)
            assert choose_move(game, world, seat, level, 7) == choose_move(
                game, state, seat, level, 7
            ), "the bot's move depends on cards it cannot see"


@pytest.mark.parametrize(("game_id", "level"), LEVELS)
def test_bot_is_reproducible_and_legal(game_id: str, level: str) -> None:
    game = GAMES[game_id]
    for state in sample_positions(game, "REPRO", every=9):
        seat = game.to_move(state)
        move = choose_move(game, state, seat, level, "s")
        assert move == choose_move(game, state, seat, level, "s")
        game.check(state, seat, move)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_unknown_level(game_id: str) -> None:
    with pytest.raises(BadOptionError):
        bot_for(GAMES[game_id], "godlike")


def test_wizard_heuristic_beats_random() -> None:
    """A sanity check of strength (the real measurement is in bench/)."""
    game = GAMES["wizard"]
    totals = [0.0, 0.0]
    for i in range(6):
        state = game.new_game(f"H{i}", None, 4)
        while (seat := game.to_move(state)) is not None:
            level = "heuristic" if seat % 2 == i % 2 else "random"
            state = game.apply(state, seat, choose_move(game, state, seat, level, seat))
        for seat, score in enumerate(game.outcome(state).scores):
            totals[0 if seat % 2 == i % 2 else 1] += score
    assert totals[0] > totals[1] + 200
