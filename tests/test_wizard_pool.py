"""The bench's pool of Wizard opponents (bench/wizard_pool.py): legal, fair, and each style
plays the way its name says, so a report card against it measures what it claims to."""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import helpers
from tapete.rng import Rng
from tapete.wizard import GAME, WizardState

bench = helpers.load_bench("bench_wizard_ai")
pool = bench.wizard_pool


def games(line_up: list[str], seeds: list[str]) -> Iterator[tuple[WizardState, int, str]]:
    """(state, seat, style) for every decision of 4-player games among ``line_up``."""
    for seed in seeds:
        state = GAME.new_game(seed, None, 4)
        step = 0
        while (seat := GAME.to_move(state)) is not None:
            yield state, seat, line_up[seat]
            state = GAME.apply(state, seat, bench.decide(line_up[seat], state, seat, step))
            step += 1


def finished(line_up: list[str], seeds: list[str]) -> list[WizardState]:
    out = []
    for seed in seeds:
        state = GAME.new_game(seed, None, 4)
        step = 0
        while (seat := GAME.to_move(state)) is not None:
            state = GAME.apply(state, seat, bench.decide(line_up[seat], state, seat, step))
            step += 1
        out.append(state)
    return out


STYLES = sorted(pool.STYLES)


def test_every_style_is_legal_and_decides_from_its_view_only() -> None:
    line_up = ["ruled", "noisy", "softmax", "duck"]
    checked: set[str] = set()
    for i, (state, seat, _style) in enumerate(games(line_up, ["POOL1"])):
        if i % 7:
            continue
        for style in STYLES:
            bot = pool.STYLES[style]
            move = bot(GAME, state, seat, Rng(i))
            GAME.check(state, seat, move)
            world = GAME.sample_world(state, seat, Rng.derive("pool fair", i))
            assert GAME.view(world, seat) == GAME.view(state, seat)
            assert bot(GAME, world, seat, Rng(i)) == move, (style, i)
            checked.add(style)
    assert checked == set(STYLES)


def rounds(states: list[WizardState], seat: int) -> list[tuple[int, int]]:
    return [(row.bids[seat], row.tricks[seat]) for s in states for row in s.history]


def test_the_styles_differ_as_their_names_say() -> None:
    seeds = ["POOL2", "POOL3"]
    bias: dict[str, float] = {}
    for style in ["overbid", "underbid", "ruled"]:
        states = finished([style, "ruled", "ruled", "ruled"], seeds)
        bias[style] = statistics.fmean(b - t for b, t in rounds(states, 0))
    assert abs(bias["ruled"]) < 0.5  # its bids come out right on average
    assert bias["overbid"] > bias["ruled"] + 0.5 and bias["underbid"] < bias["ruled"] - 0.3
    # always high: its card is the strongest it may play; always duck: never a winner when a
    # loser would do
    for state, seat, style in games(["high", "duck", "ruled", "ruled"], ["POOL4"]):
        if state.phase != "play" or style == "ruled":
            continue
        legal = [str(m.value) for m in GAME.legal_moves(state, seat)]
        table = pool.Table(GAME.view(state, seat), legal)
        card = pool.STYLES[style](GAME, state, seat, Rng(0)).value
        if style == "high":
            assert card == table.order(table.legal)[-1]
        elif table.trick and table.losers:
            assert card in table.losers


def test_the_estimate_adds_up_to_the_tricks_of_a_round() -> None:
    """Over many hands the four estimates add up to about the round's tricks."""
    sums: dict[int, list[float]] = {}
    for k in range(40):
        state = GAME.new_game(f"EST{k}", None, 4)
        hand_size = 1 + k % 15
        state = GAME.deal_round(state, hand_size)
        if state.phase != "bid":
            continue
        total = sum(pool.estimate(GAME.view(state, s)) for s in range(4))
        sums.setdefault(hand_size > 7, []).append(total / hand_size)
    for ratios in sums.values():
        assert 0.75 < statistics.fmean(ratios) < 1.25


def test_a_mixed_table_rotates_through_every_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert bench.line_up("normal", "duck+high+noisy", 2) == ["high", "noisy", "normal", "duck"]
    assert bench.line_up("easy", "ruled", 0) == ["easy", "ruled", "ruled", "ruled"]
    out = tmp_path / "games.jsonl"
    args = argparse.Namespace(
        levels="heuristic",
        opponents="duck+high+noisy",
        deals=1,
        first_deal=0,
        jobs=1,
        rounds=3,
        out=str(out),
        tune="",
    )
    bench.tournament(args)
    rows: list[dict[str, Any]] = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["seat"] for r in rows) == [0, 1, 2, 3]
    assert all(r["rounds"] == 3 for r in rows)
    assert "| heuristic, 3 rounds | duck+high+noisy | 4 (1) |" in capsys.readouterr().out


def test_paired_reads_the_base_from_its_own_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two versions of the code, each with its results file: the per-deal differences."""

    def rows(made: list[int]) -> str:
        """Deals 0 and 1, the level in every seat, making ``made[deal]`` of 5 bids and winning."""
        return "".join(
            json.dumps(
                {
                    "level": "normal",
                    "opponent": "random",
                    "deal": deal,
                    "seat": seat,
                    "scores": [100 if s == seat else 0 for s in range(4)],
                    "winners": [seat],
                    "made": [made[deal] if s == seat else 1 for s in range(4)],
                    "rounds": 5,
                    "seconds": 1.0,
                }
            )
            + "\n"
            for deal in (0, 1)
            for seat in range(4)
        )

    after, before = tmp_path / "after.jsonl", tmp_path / "before.jsonl"
    after.write_text(rows([4, 5]))
    before.write_text(rows([3, 3]))
    args = argparse.Namespace(
        out=str(after), base_file=[str(before)], variant="normal:", base="normal:", rounds=0
    )
    bench.paired(args)
    # bids made +20 and +40 points on the two deals: +30 on average; the rest level
    out = capsys.readouterr().out
    assert "| random | 2 | +0.0 [+0.0, +0.0] | +0.0 [+0.0, +0.0] | +30.0 [" in out
    # the base split over two files, and a game of the variant written twice (two runs of one
    # tournament into one file): the same differences, the game counted once
    lines = rows([3, 3]).splitlines(keepends=True)
    first, second = tmp_path / "deal0.jsonl", tmp_path / "deal1.jsonl"
    first.write_text("".join(lines[:4]))
    second.write_text("".join(lines[4:]))
    with after.open("a") as sink:
        sink.write(rows([0, 5]).splitlines(keepends=True)[0])  # differs: the first copy counts
    args.base_file = [str(first), str(second)]
    bench.paired(args)
    assert "| random | 2 | +0.0 [+0.0, +0.0] | +0.0 [+0.0, +0.0] | +30.0 [" in (
        capsys.readouterr().out
    )
    args.base_file = []  # one file: the variant against itself
    bench.paired(args)
    assert "| random | 2 | +0.0 [+0.0, +0.0] | +0.0 [+0.0, +0.0] | +0.0 [+0.0, +0.0] |" in (
        capsys.readouterr().out
    )


def test_a_short_game_spreads_its_rounds_over_the_game() -> None:
    assert bench.round_set(5) == [3, 6, 9, 12, 15]
    assert bench.round_set(0) == list(range(1, 16)) == bench.round_set(15)
    assert bench.round_set(1) == [15]
    row = bench.play_game(("heuristic", "duck", 0, 1, "", 2))
    assert row["rounds"] == 2 and len(row["scores"]) == 4
    assert max(row["scores"]) == row["scores"][row["winners"][0]]


def test_tuning_values_keep_their_types() -> None:
    """``--tune own_up=False`` turns the knob off (it was the text "False", which is truthy)."""
    assert bench.tuning_value("False") is False and bench.tuning_value("True") is True
    assert bench.tuning_value("0.5") == 0.5 and isinstance(bench.tuning_value("0.5"), float)
    assert bench.tuning_value("3") == 3 and bench.tuning_value("-2") == -2
    assert bench.tuning_value("eager") == "eager"


def test_every_style_is_deterministic_for_its_seed() -> None:
    """The same seed gives the same game, move by move; another seed another game."""
    for style in STYLES:
        line_up = [style, "ruled", style, "noisy"]
        first = [str(m) for m in moves(line_up, "POOL5")]
        assert first == [str(m) for m in moves(line_up, "POOL5")], style
        assert first != [str(m) for m in moves(line_up, "POOL6")], style


def moves(line_up: list[str], seed: str) -> Iterator[object]:
    """Every move of rounds 4-6 of a game among ``line_up`` (enough to tell games apart)."""
    state = GAME.new_game(seed, None, 4)
    for number in (4, 5, 6):
        state = GAME.deal_round(state, number)
        while state.round == number:
            seat = GAME.to_move(state)
            assert seat is not None
            move = bench.decide(line_up[seat], state, seat, len(state.played))
            yield move
            state = GAME.apply(state, seat, move)
