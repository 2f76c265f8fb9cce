"""Rummikub bots: the hard bot on hand-made positions and along a game, and its fairness (its
move depends on its view alone, never on the tiles it cannot see)."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import helpers
from tapete.rng import Rng
from tapete.rummikub import GAME, Meld, Move, solve
from tapete.rummikub.game import RummikubState
from tapete.rummikub.melds import read_meld
from tapete.rummikub.tiles import FULL_SET


def meld(*tiles: str) -> Meld:
    return Meld(read_meld(tiles).kind, tuple(tiles))


def position(
    table: list[list[str]], racks: list[list[str]], options: dict[str, Any] | None = None
) -> RummikubState:
    """Both seats melded, seat 0 to move, the tiles nobody holds in the pool."""
    state = GAME.new_game("BOTPOS", options, len(racks))
    melds = tuple(meld(*m) for m in table)
    used = Counter(t for m in melds for t in m.tiles) + Counter(t for r in racks for t in r)
    return replace(
        state,
        table=melds,
        racks=tuple(tuple(r) for r in racks),
        melded=(True,) * len(racks),
        pool=tuple((Counter(FULL_SET) - used).elements()),
        current=0,
    )


def hard(state: RummikubState, seat: int = 0, seed: object = 0) -> Move:
    move = GAME.bots["hard"](GAME, state, seat, Rng.derive("test", seed))
    GAME.check(state, seat, move)
    return move


def candidates(state: RummikubState, seat: int = 0) -> list[Move]:
    """What hard weighs: the most-tiles play, the most-value play and a draw."""
    rack, table = state.racks[seat], state.table
    plays = [solve(table, rack, objective=o, options=state.option) for o in ("tiles", "value")]
    return [Move.play(p.table, p.placed) for p in plays if p.placed] + [Move("draw")]


FAR = ["K1", "K5", "B9", "Y2", "R11", "R4", "B13", "Y7", "K12", "B3"]  # ten loose tiles
TABLE = [["R1", "R2", "R3"], ["B5", "B6", "B7"], ["K9", "B9", "Y9"]]


def test_hard_goes_out_whenever_it_can() -> None:
    state = position(TABLE, [["R4", "B8", "R9", "B4"], FAR])
    move = hard(state)
    assert move.kind == "play" and sorted(move.from_hand or ()) == ["B4", "B8", "R4", "R9"]


def test_hard_weighs_the_tiles_play_the_value_play_and_a_draw() -> None:
    # one joker: K1 K2 * K4 lays four tiles (37), R13 Y13 * three but is worth more (56)
    state = position(TABLE, [["K1", "K2", "K4", "R13", "Y13", "*"], FAR])
    options = candidates(state)
    assert len(options) == 3 and options[0] != options[1]
    assert {hard(state, seed=k) for k in range(3)} <= set(options)


def test_hard_draws_when_nothing_fits() -> None:
    state = position(TABLE, [["K2", "K7", "Y13"], FAR])
    assert hard(state) == Move("draw")


def test_hard_along_a_game_is_fair_and_weighs_its_candidates() -> None:
    """Along a hard-vs-normal game: hard's move is one of its candidates, and two worlds that
    differ only in the tiles it cannot see (the opponent's rack and the pool, dealt in another
    order) give it the same view and the same move. It draws at times where it could play."""
    state = GAME.new_game("HIDDEN", None, 2)
    steps = checked = held = 0
    while (seat := GAME.to_move(state)) is not None and steps < 150:
        if seat == 0:
            move = hard(state, 0, steps)
        else:
            move = GAME.bots["normal"](GAME, state, seat, Rng.derive("normal", steps))
        if seat == 0 and state.melded[0]:
            assert move in candidates(state)
            world = GAME.sample_world(state, 0, Rng.derive("hidden", steps))
            assert world.racks[1] != state.racks[1] or world.pool != state.pool
            assert GAME.view(world, 0) == GAME.view(state, 0)
            assert hard(world, 0, steps) == move
            could_play = bool(solve(state.table, state.racks[0], options=state.option).placed)
            held += move == Move("draw") and could_play
            checked += 1
        state = GAME.apply(state, seat, move)
        steps += 1
    assert checked >= 10
    assert held >= 1


# -- the tournament runner (bench/bench_rummikub.py), on a tiny run ----------------------------


def test_tournament_runner_plays_duplicates_and_resumes(tmp_path: Path) -> None:
    bench = helpers.load_bench("bench_rummikub")
    out = tmp_path / "games.jsonl"
    rows = bench.tournament(1, prefix="TINY", pairs=(("normal", "easy"),), out=out)
    games = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(tuple(g["levels"]) for g in games) == [("easy", "normal"), ("normal", "easy")]
    assert all(g["deal"] == 0 and g["prefix"] == "TINY" for g in games)
    assert rows[-1].startswith("| normal vs easy | 2 |")
    assert bench.tournament(1, prefix="TINY", pairs=(("normal", "easy"),), out=out) == rows
    assert len(out.read_text().splitlines()) == 2  # resumed: nothing played twice
    assert bench.wilson(0.5, 100) == pytest.approx((0.404, 0.596), abs=0.001)
    assert bench.wilson(1.0, 10)[1] == 1.0 and bench.wilson(1.0, 10)[0] < 0.75
