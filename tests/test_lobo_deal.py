"""Lobo's "was this deal winnable?": the clairvoyant answer on request (``lobo_deal``), its
winning line replayed in the real game, the hint policy's result, budgets and bad input."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tapete.api import handle
from tapete.lobo import GAME
from tapete.lobo import rules as R
from tapete.lobo.cards import RANK_OF
from tapete.lobo.clairvoyant import clairvoyant
from tapete.lobo.deal import MAX_BUDGET, deal_report, play_policy, share
from tapete.lobo.odds import best_move

OPTION_SETS: list[dict[str, Any]] = [
    {"difficulty": "EASY"},
    {"difficulty": "STANDARD"},
    {"difficulty": "HARD"},
    {"reserve_is_wild_in_final": True, "score_includes_reserve": True},
    {"final_trigger": "AFTER_DEAL", "short_deal_order": "PLAYER_FIRST"},
]


def values(cards: Any) -> list[int]:
    return sorted((RANK_OF[c] for c in cards), reverse=True)


def matching_move(state: R.LoboState, step: dict[str, Any]) -> R.Move:
    """The legal move with the step's kind and card values (hand and reserve as the step)."""
    for move in R.legal_moves(state):
        if move.kind != step["kind"] or values(move.take) != step["take"]:
            continue
        if move.kind == "sacrifice":
            return move
        from_reserve = [c for c in move.give if c in state.reserve]
        if values(move.give) == step["give"] and values(from_reserve) == step["from_reserve"]:
            return move
    raise AssertionError(f"no legal move matches {step}")


def replay_line(seed: str, options: dict[str, Any], line: list[dict[str, Any]]) -> R.LoboState:
    """Play the line in the real game (suits never matter: any move of the same values)."""
    state = GAME.new_game(seed, options)
    for row in line:
        if row["wolf"]:  # else the deal gave the Wolf nothing: the round is won already
            assert state.phase == R.PLAY and state.final == row["final"]
            assert values(state.hand) == row["hand"] and values(state.wolf) == row["wolf"]
            assert values(state.reserve) == row["reserve"] and len(state.pile) == row["pile"]
        for step in row["moves"]:
            state = GAME.apply(state, 0, matching_move(state, step))
        if not row["won"]:
            active = state.active
            state = GAME.apply(state, 0, R.Move("fold"))
            assert active - state.active == row["lost_members"]
        elif "choice" in row:
            choice = row["choice"]
            if choice["kind"] == "reserve":
                card = next(c for c in state.hand if RANK_OF[c] == choice["give"][0])
                move = R.Move("reserve", (card,))
            elif choice["kind"] == "revive":
                move = next(m for m in R.legal_moves(state) if m.kind == "revive")
            else:
                move = R.Move("skip")
            state = GAME.apply(state, 0, move)
    return state


@pytest.mark.parametrize("options", OPTION_SETS)
def test_winning_line_wins_the_real_game(options: dict[str, Any]) -> None:
    checked = 0
    for i in range(8):
        seed = f"D{i}"
        report = deal_report(seed, options, policy=False)
        assert report["policy"] is None
        if not report["winnable"]:
            assert report["line"] is None
            continue
        assert report["exact"]
        line = report["line"]
        state = replay_line(seed, options, line)
        outcome = GAME.outcome(state)
        assert outcome is not None and tuple(outcome.winners) == (0,), "the line must win"
        assert outcome.scores[0] == line[-1]["score"]
        checked += 1
    assert checked >= 4


def test_the_answer_agrees_with_the_bound() -> None:
    for i in range(6):
        report = deal_report(f"W{i}", {"difficulty": "HARD"}, policy=False, budget=3_000_000)
        bound = clairvoyant(f"W{i}", {"difficulty": "HARD"}, best_score=False)
        assert (report["winnable"], report["exact"]) == (bound.winnable, bound.exact)
    # W1 at Hard (the bench's first seeds): no player could have won it
    report = deal_report("W1", {"difficulty": "HARD"}, policy=False)
    assert report["winnable"] is False and report["exact"] and report["line"] is None


def test_a_small_budget_says_unknown() -> None:
    report = deal_report("W1", {"difficulty": "HARD"}, budget=50, policy=False)
    assert report["winnable"] is None and not report["exact"] and report["line"] is None
    assert report["budget"] == 50 and report["nodes"] > share(50, "vanguard")  # past its share
    classic = deal_report("W1", {"mode": "CLASSIC_LOBO"}, budget=50)
    assert classic["winnable"] is None and classic["policy"] is None


def test_policy_is_the_hint_game() -> None:
    for i in range(3):
        seed = f"W{i}"
        state = GAME.new_game(seed, {"difficulty": "STANDARD"})
        moves = 0
        while GAME.to_move(state) is not None:
            state = GAME.apply(state, 0, best_move(state))
            moves += 1
        outcome = GAME.outcome(state)
        assert outcome is not None
        mine = play_policy(seed, GAME.parse_options({"difficulty": "STANDARD"}))
        assert mine["moves"] == moves and mine["won"] == bool(outcome.winners)
        assert mine["score"] == (round(outcome.scores[0]) if outcome.winners else None)


def ask(**request: Any) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(handle(json.dumps({"op": "lobo_deal", **request})))
    return answer


def test_the_api_op() -> None:
    answer = ask(seed="D2", options={"difficulty": "EASY"}, budget=MAX_BUDGET)
    assert answer["ok"], answer
    result = answer["result"]
    assert set(result) == {"winnable", "exact", "nodes", "budget", "line", "policy", "resume"}
    assert result["budget"] == MAX_BUDGET and isinstance(result["policy"]["won"], bool)
    assert result["exact"] and result["resume"] is None
    # the options of a saved state (every option spelled out) are accepted as they are
    state = GAME.to_json(GAME.new_game("D2", {"difficulty": "EASY"}))
    again = ask(seed=state["seed"], options=state["options"], budget=MAX_BUDGET)
    assert again["result"] == result


def search_in_chunks(seed: str, options: dict[str, Any], budget: int) -> tuple[Any, int, Any]:
    """Ask ``lobo_deal`` again with each answer's ``resume`` until the search is done:
    (winnable, requests, the last answer)."""
    resume, requests = None, 0
    while True:
        answer = ask(seed=seed, options=options, budget=budget, policy=False, resume=resume)
        assert answer["ok"], answer
        requests += 1
        result = answer["result"]
        assert result["nodes"] <= budget + 1  # every request stays within its budget
        if result["exact"] or result["winnable"] is not None or result["resume"] is None:
            return result["winnable"], requests, result
        resume = json.loads(json.dumps(result["resume"]))
        assert requests < 2_000


@pytest.mark.parametrize("options", [{"difficulty": "HARD"}, {"final_trigger": "AFTER_DEAL"}])
def test_a_search_in_small_requests_gives_the_same_answer(options: dict[str, Any]) -> None:
    """A search cut into requests of a few hundred positions, each going on from the last one's
    ``resume``, answers what one long search answers, and its winning line wins the game."""
    several = 0
    for i in range(5):
        seed = f"R{i}"
        whole = deal_report(seed, options, budget=3_000_000, policy=False)
        winnable, requests, last = search_in_chunks(seed, options, 400)
        assert winnable == whole["winnable"]
        several += requests > 1
        if winnable:
            state = replay_line(seed, options, last["line"])
            outcome = GAME.outcome(state)
            assert outcome is not None and tuple(outcome.winners) == (0,)
    assert several >= 3  # the searches really were cut


def test_a_classic_search_goes_on_round_by_round() -> None:
    """Classic Lobo goes on round by round: a round that does not fit in one request's budget
    ends the search (``resume`` null), one that does carries the scores it may stand at."""
    options = {"mode": "CLASSIC_LOBO", "difficulty": "EASY", "classic_target": 25}
    # C7's first round takes 30,529 positions: within a request's share of the budget (40,000),
    # beyond that of a request of 20,000 (13,333)
    whole = deal_report("C7", options, budget=3_000_000, policy=False)
    winnable, requests, _ = search_in_chunks("C7", options, MAX_BUDGET)
    assert whole["exact"] and winnable == whole["winnable"] and requests == 2
    stuck = ask(seed="C7", options=options, budget=20_000, policy=False)["result"]
    assert stuck["winnable"] is None and stuck["resume"] is None


@pytest.mark.parametrize(
    "resume",
    [
        [],
        {"kind": "classic", "path": []},
        {"kind": "vanguard", "path": [10**6]},
        {"kind": "vanguard", "path": [-1]},
        {"kind": "vanguard", "path": [1.5]},
        {"kind": "vanguard", "path": [0] * 20_000},
        {"kind": "vanguard", "path": [0], "more": 1},
        {"kind": "vanguard", "path": [9_999]},
        {"kind": "classic", "round": 1, "frontier": [[0, 0], [0, 1]]},
        {"kind": "classic", "round": 0, "frontier": [[0, 0]]},
        {"kind": "classic", "round": 2, "frontier": [[100, 0]]},
        {"kind": "classic", "round": 2, "frontier": []},
        {"kind": "classic", "round": 2, "frontier": [["1e5", 0]]},
    ],
)
def test_a_forged_resume_is_refused(resume: Any) -> None:
    classic = isinstance(resume, dict) and resume.get("kind") == "classic" and "round" in resume
    options = {"mode": "CLASSIC_LOBO"} if classic else {"difficulty": "HARD"}
    answer = ask(seed="W3", options=options, budget=1_000, policy=False, resume=resume)
    assert not answer["ok"] and answer["error"]["code"] == "bad_request", answer


@pytest.mark.parametrize(
    ("request_", "code", "where"),
    [
        ({}, "bad_request", "seed"),
        ({"seed": 7}, "bad_request", "seed"),
        ({"seed": "a b"}, "bad_option", "seed"),
        ({"seed": "D1", "options": []}, "bad_request", "options"),
        ({"seed": "D1", "options": {"difficulty": "NOPE"}}, "bad_option", "difficulty"),
        ({"seed": "D1", "budget": 0}, "bad_request", "budget"),
        ({"seed": "D1", "budget": True}, "bad_request", "budget"),
        ({"seed": "D1", "budget": 10**9}, "bad_request", "budget"),
        ({"seed": "D1", "policy": "yes"}, "bad_request", "policy"),
    ],
)
def test_bad_requests_get_coded_errors(request_: dict[str, Any], code: str, where: str) -> None:
    answer = ask(**request_)
    assert not answer["ok"]
    error = answer["error"]
    assert error["code"] == code
    assert error.get("field", error.get("option")) == where
