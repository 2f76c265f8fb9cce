"""The ``replay_steps`` op: windows of a record's positions, every bad field a coded error."""

from __future__ import annotations

import functools
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import all_games, playout
from tapete import get_game
from tapete.api import handle
from tapete.replay_steps import MAX_COUNT

CODES = {"bad_state", "bad_request", "unknown_game", "bad_option"}
PLAYERS = {"wizard": 3, "rummikub": 3, "willie": 3, "lobo": 1}


def call(**request: Any) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(handle(json.dumps(request)))
    return answer


def record_of(game_id: str, seed: str = "STEPS", limit: int | None = None) -> dict[str, Any]:
    """A record of a game played by random bots (all of it, or its first ``limit`` moves)."""
    record: dict[str, Any] = json.loads(recorded(game_id, seed, limit))
    return record


@functools.cache
def recorded(game_id: str, seed: str, limit: int | None) -> str:
    game = get_game(game_id)
    players = PLAYERS[game_id]
    moves: list[dict[str, Any]] = []
    for _state, seat, move in playout(game, game.new_game(seed, None, players), seed=seed):
        if seat is None or (limit is not None and len(moves) == limit):
            break
        moves.append({"seat": seat, "move": game.move_to_json(move)})
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * (players - 1)
    return json.dumps(
        {
            "game": game_id,
            "seed": seed,
            "options": {},
            "players": players,
            "seats": seats,
            "moves": moves,
        }
    )


@pytest.mark.parametrize("game_id", all_games())
def test_every_window_is_the_replay_of_that_prefix(game_id: str) -> None:
    record = record_of(game_id)
    total = len(record["moves"])
    seen = []
    for start in range(0, total + 1, MAX_COUNT):
        answer = call(op="replay_steps", record=record, view_seat=0, start=start, count=MAX_COUNT)
        assert answer["ok"], answer
        result = answer["result"]
        assert result["total"] == total and result["start"] == start
        seen += result["steps"]
    assert [step["step"] for step in seen] == list(range(total + 1))
    for step in {0, total // 2, total}:
        prefix = {**record, "moves": record["moves"][:step]}
        snap = json.loads(handle(json.dumps({"op": "replay", "record": prefix, "view_seat": 0})))
        assert seen[step]["view"] == snap["result"]["view"]
        assert seen[step]["to_move"] == snap["result"]["to_move"]
    final = call(op="replay", record=record)["result"]
    assert (
        call(op="replay_steps", record=record, start=0, count=1)["result"]["outcome"]
        == (final["outcome"])
    )


@pytest.mark.parametrize("game_id", all_games())
def test_reveal_shows_every_hand_of_a_finished_game_only(game_id: str) -> None:
    record = record_of(game_id)
    total = len(record["moves"])
    answer = call(op="replay_steps", record=record, start=total, count=1, reveal=True)
    assert answer["ok"], answer
    game = get_game(game_id)
    prefix = {**record, "moves": record["moves"][: total // 2]}
    refused = call(op="replay_steps", record=prefix, start=0, count=1, reveal=True)
    assert refused["error"]["code"] == "bad_request" and refused["error"]["field"] == "reveal"
    # the hands are what each seat's own view shows, step by step
    start = max(0, total - 3)
    steps = call(op="replay_steps", record=record, start=start, count=4, reveal=True)["result"]
    middle = {**record, "moves": record["moves"][:start]}
    seats = PLAYERS[game_id]
    for seat in range(seats):
        view = call(op="replay", record=middle, view_seat=seat)["result"]["view"]
        own = view.get("hand", view.get("rack", []))
        assert steps["steps"][0]["hands"][seat] == own
    assert game.id == game_id


def test_an_unfinished_game_shows_a_public_view_without_hands() -> None:
    record = record_of("wizard", limit=12)
    steps = call(op="replay_steps", record=record, view_seat=None, start=0, count=MAX_COUNT)
    result = steps["result"]
    assert len(result["steps"]) == 13 and result["outcome"] is None
    assert all("hands" not in step for step in result["steps"])
    assert all(step["view"].get("hand") in (None, []) for step in result["steps"])
    mine = call(op="replay_steps", record=record, view_seat=0, start=12, count=1)["result"]
    assert mine["steps"][0]["view"]["hand"]


def test_a_bad_move_is_bad_state_naming_the_path() -> None:
    record = record_of("wizard", limit=10)
    record["moves"][6] = {"seat": record["moves"][6]["seat"], "move": "play Z99"}
    error = call(op="replay_steps", record=record, start=0, count=4)["error"]
    assert error["code"] == "bad_state" and error["path"] == "$.moves[6]"


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"record": None}, "record"),
        ({"record": []}, "record"),
        ({"start": -1}, "start"),
        ({"start": 11}, "start"),
        ({"start": 1.0}, "start"),
        ({"start": "0"}, "start"),
        ({"start": True}, "start"),
        ({"start": None}, "start"),
        ({"count": 0}, "count"),
        ({"count": MAX_COUNT + 1}, "count"),
        ({"count": 2**53 - 1}, "count"),  # 10**30 is refused before, by the strict reader
        ({"view_seat": 3}, "view_seat"),
        ({"view_seat": -1}, "view_seat"),
        ({"view_seat": "0"}, "view_seat"),
        ({"view_seat": False}, "view_seat"),
        ({"reveal": "yes"}, "reveal"),
        ({"reveal": 1}, "reveal"),
    ],
)
def test_every_bad_field_is_a_coded_error(fields: dict[str, Any], field: str) -> None:
    request = {"record": record_of("wizard", limit=10), "start": 0, "count": 4, "view_seat": 0}
    answer = call(op="replay_steps", **{**request, **fields})
    assert answer["error"]["code"] == "bad_request", answer
    assert answer["error"]["field"] == field


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=100, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["record", "view_seat", "start", "count", "reveal", "game", "seed"]),
        json_values,
        max_size=6,
    ),
    st.booleans(),
)
def test_random_fields_never_crash(fields: dict[str, Any], real_record: bool) -> None:
    if real_record:
        fields["record"] = record_of("rummikub", limit=6)
    answer = call(op="replay_steps", **fields)
    assert answer["ok"] or answer["error"]["code"] in CODES, answer["error"]
