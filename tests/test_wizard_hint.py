"""Wizard's hint for the human: the normal level's bid, card or trump, with its figures, fair.

The page shows it when the player turns hints on (issue 6); the engine answers the ``hint`` op.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from tapete.api import handle
from tapete.bots import choose_move
from tapete.rng import Rng
from tapete.wizard import GAME, WizardState, ai


@pytest.fixture(autouse=True)
def real_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    """The page has no budget factor: test at the real normal budget (it is quick)."""
    monkeypatch.setenv("TAPETE_BOT_BUDGET", "1")


def play_to(state: WizardState, done: Callable[[WizardState], bool]) -> WizardState:
    step = 0
    while not done(state):
        seat = GAME.to_move(state)
        assert seat is not None, "the game ended first"
        state = GAME.apply(state, seat, choose_move(GAME, state, seat, "heuristic", step))
        step += 1
    return state


def bid_state() -> WizardState:
    return play_to(GAME.new_game("HINT", None, 4), lambda s: s.round == 5 and s.phase == "bid")


def card_state() -> WizardState:
    """Round 5, mid-trick: the seat to move has a real choice of cards."""
    state = play_to(bid_state(), lambda s: s.phase == "play" and len(s.trick) == 1)
    seat = GAME.to_move(state)
    assert seat is not None and len(GAME.legal_moves(state, seat)) > 1
    return state


def hint_of(state: WizardState) -> dict[str, Any]:
    seat = GAME.to_move(state)
    assert seat is not None
    return GAME.hint(state, seat)


def test_a_bid_hint_is_the_normal_bots_bid_with_its_figures() -> None:
    state = bid_state()
    seat = GAME.to_move(state)
    assert seat is not None
    result = hint_of(state)
    assert result["level"] == "normal"
    assert result["move"].startswith("bid ")
    assert GAME.parse_move(result["move"]) in GAME.legal_moves(state, seat)
    expected = ai.estimate_tricks(state.hands[seat], state.trump, state.players)
    assert result["expected_tricks"] == round(expected, 1)
    # the same decision the normal level makes with the hint's seed
    rng = Rng.derive("hint", "wizard", seat, state.round)
    move, values = ai.choose_bid(GAME, state, seat, rng, ai.LEVELS["normal"])
    assert result["move"] == f"bid {move.value}"
    assert result["expected_points"] == round(values[int(move.value)], 1)
    assert -10 * state.round <= result["expected_points"] <= 20 + 10 * state.round


def test_a_card_hint_is_a_legal_card_with_its_expected_points() -> None:
    state = card_state()
    seat = GAME.to_move(state)
    assert seat is not None
    result = hint_of(state)
    assert result["move"].startswith("play ")
    assert GAME.parse_move(result["move"]) in GAME.legal_moves(state, seat)
    assert "expected_tricks" not in result and "only_move" not in result
    assert -10 * state.round <= result["expected_points"] <= 20 + 10 * state.round
    rng = Rng.derive("hint", "wizard", seat, state.round)
    move, _stats = ai.card_values(GAME, state, seat, rng, ai.LEVELS["normal"])
    assert result["move"] == f"play {move.value}"


@pytest.mark.parametrize("make", [bid_state, card_state], ids=["bid", "card"])
def test_same_view_same_hint(make: Callable[[], WizardState]) -> None:
    """Fair: a state that differs only in what the seat cannot see gets the very same hint."""
    state = make()
    seat = GAME.to_move(state)
    assert seat is not None
    for k in range(3):
        world = GAME.sample_world(state, seat, Rng.derive("elsewhere", k))
        assert world.hands != state.hands
        assert GAME.view(world, seat) == GAME.view(state, seat)
        assert GAME.hint(world, seat) == hint_of(state)


def test_an_only_card_is_hinted_without_a_search() -> None:
    state = play_to(GAME.new_game("HINT", None, 4), lambda s: s.phase == "play")
    seat = GAME.to_move(state)
    assert seat is not None and state.round == 1
    (only,) = GAME.legal_moves(state, seat)
    assert hint_of(state) == {"level": "normal", "move": str(only), "only_move": True}


def test_the_dealer_gets_a_trump_hint() -> None:
    state = play_to(GAME.new_game("TRUMP", None, 4), lambda s: s.phase == "trump")
    result = hint_of(state)
    assert result["move"] in {f"trump {suit}" for suit in "RBGY"}
    assert isinstance(result["expected_points"], float)


# -- through the api, as the worker calls it ---------------------------------------------------


def call(progress: Any = None, **request: Any) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(handle(json.dumps(request), progress))
    return answer


def test_the_hint_op_reports_progress_and_answers_the_normal_move() -> None:
    state = bid_state()
    seat = GAME.to_move(state)
    seen: list[tuple[int, int]] = []
    answer = call(
        lambda done, total: seen.append((done, total)),
        op="hint",
        game="wizard",
        state=GAME.to_json(state),
        seat=seat,
    )
    assert answer["ok"], answer
    assert answer["result"] == hint_of(state)
    assert seen and seen[-1][0] == seen[-1][1]
    moves = call(op="legal_moves", game="wizard", state=GAME.to_json(state), seat=seat)
    assert answer["result"]["move"] in moves["result"]["moves"]


def test_a_hint_for_a_seat_not_to_move_is_refused() -> None:
    state = card_state()
    seat = GAME.to_move(state)
    assert seat is not None
    other = (seat + 1) % state.players
    answer = call(op="hint", game="wizard", state=GAME.to_json(state), seat=other)
    assert not answer["ok"] and answer["error"]["code"] == "not_your_turn"
