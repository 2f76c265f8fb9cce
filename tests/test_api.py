"""tapete.api.handle: every op, and bad input of every kind answered with a coded error."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tapete import GAMES, __version__
from tapete.api import handle
from tapete.errors import error_codes

CODES = {
    "invalid_move",
    "illegal_move",
    "not_your_turn",
    "game_over",
    "bad_state",
    "bad_option",
    "unknown_game",
    "bad_request",
}


def call(**request: Any) -> dict[str, Any]:
    answer = json.loads(handle(json.dumps(request)))
    return answer


def ok(**request: Any) -> Any:
    answer = call(**request)
    assert answer["ok"], answer
    return answer["result"]


def error(**request: Any) -> dict[str, Any]:
    answer = call(**request)
    assert not answer["ok"], answer
    assert answer["error"]["code"] in CODES, answer["error"]
    assert answer["error"]["message"]
    return answer["error"]


def new_wizard(seed: str = "API", players: int = 3, **extra: Any) -> dict[str, Any]:
    return ok(op="new_game", game="wizard", seed=seed, players=players, view_seat=0, **extra)


def test_the_error_classes_are_the_documented_codes() -> None:
    assert error_codes() == CODES


def test_games_lists_every_game() -> None:
    result = ok(op="games")
    assert result["engine_version"] == __version__
    assert [g["id"] for g in result["games"]] == sorted(GAMES)


def test_new_game_apply_view_and_bot_move() -> None:
    snap = new_wizard()
    assert snap["view"]["seat"] == 0 and snap["outcome"] is None
    seat = snap["to_move"]
    view = ok(op="view", game="wizard", state=snap["state"], seat=seat)
    assert view["legal_moves"]
    after = ok(
        op="apply",
        game="wizard",
        state=snap["state"],
        seat=seat,
        move=view["legal_moves"][0],
        view_seat=seat,
    )
    assert after["to_move"] != seat or after["state"] != snap["state"]
    bot = ok(
        op="bot_move",
        game="wizard",
        state=after["state"],
        seat=after["to_move"],
        level="heuristic",
        bot_seed=3,
    )
    assert bot["move"].split()[0] in ("bid", "play", "trump")
    again = ok(
        op="bot_move",
        game="wizard",
        state=after["state"],
        seat=after["to_move"],
        level="heuristic",
        bot_seed=3,
    )
    assert again == bot
    moves = ok(op="legal_moves", game="wizard", state=after["state"], seat=after["to_move"])
    assert moves["moves"]
    hint = ok(op="hint", game="wizard", state=after["state"], seat=after["to_move"])
    assert hint["move"] in moves["moves"]


def test_replay_rebuilds_a_record() -> None:
    snap = new_wizard("REC")
    record = {"game": "wizard", "seed": "REC", "players": 3, "options": {}, "moves": []}
    state = snap["state"]
    for i in range(8):
        seat = call(op="view", game="wizard", state=state)["result"]["to_move"]
        bot = ok(op="bot_move", game="wizard", state=state, seat=seat, level="random", bot_seed=i)
        record["moves"].append({"seat": seat, "move": bot["move"]})
        state = bot["state"]
    assert ok(op="replay", record=record)["state"] == state
    broken = dict(record, moves=record["moves"][:3] + [{"seat": 0, "move": "play R99"}])
    assert error(op="replay", record=broken)["code"] == "bad_state"
    assert error(op="replay", record=broken)["path"] == "$.moves[3]"
    for bad in (
        {},
        {"game": "chess"},
        {"game": "wizard", "seed": "!!"},
        {"game": "wizard", "seed": "A", "moves": "x"},
        {"game": "wizard", "seed": "A", "players": 3, "moves": [5]},
    ):
        assert error(op="replay", record=bad)["code"] in ("bad_state", "unknown_game")


@pytest.mark.parametrize("text", ["", "nope", "[]", "5", "null", '"games"', "{", "\x00", "[{}]"])
def test_garbage_is_bad_request(text: str) -> None:
    answer = json.loads(handle(text))
    assert answer["ok"] is False and answer["error"]["code"] == "bad_request"


def test_not_a_string() -> None:
    assert json.loads(handle(b"{}"))["error"]["code"] == "bad_request"  # type: ignore[arg-type]


def test_deep_nesting() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    assert json.loads(handle(deep))["error"]["code"] == "bad_request"


def test_request_id_is_echoed() -> None:
    assert call(id=41, op="games")["id"] == 41
    assert call(id="x", op="bogus")["id"] == "x"


@pytest.mark.parametrize(
    ("request_", "code"),
    [
        ({"op": "explode"}, "bad_request"),
        ({"op": 3}, "bad_request"),
        ({}, "bad_request"),
        ({"op": "new_game", "game": "chess", "seed": "A"}, "unknown_game"),
        ({"op": "new_game", "game": ["wizard"], "seed": "A"}, "bad_request"),
        ({"op": "new_game", "game": "wizard"}, "bad_request"),
        ({"op": "new_game", "game": "wizard", "seed": "bad seed"}, "bad_option"),
        ({"op": "new_game", "game": "wizard", "seed": "x" * 5000}, "bad_option"),
        ({"op": "new_game", "game": "wizard", "seed": "A", "players": 99}, "bad_option"),
        ({"op": "new_game", "game": "wizard", "seed": "A", "players": "4"}, "bad_request"),
        ({"op": "new_game", "game": "wizard", "seed": "A", "players": True}, "bad_request"),
        ({"op": "new_game", "game": "wizard", "seed": "A", "options": {"x": 1}}, "bad_option"),
        ({"op": "new_game", "game": "wizard", "seed": "A", "options": "x"}, "bad_request"),
        (
            {
                "op": "new_game",
                "game": "wizard",
                "seed": "A",
                "options": {
                    "bidding_mode": "DELAYED_REVEAL",
                    "even_bid_restriction": "ALWAYS_DEALER",
                },
            },
            "bad_option",
        ),
        ({"op": "new_game", "game": "wizard", "seed": "A", "view_seat": 9}, "bad_request"),
        ({"op": "view", "game": "wizard", "state": {"v": 1}}, "bad_state"),
        ({"op": "view", "game": "wizard", "state": "x"}, "bad_request"),
    ],
)
def test_bad_requests(request_: dict[str, Any], code: str) -> None:
    assert error(**request_)["code"] == code


def test_moves_errors_leave_the_state_as_it_was() -> None:
    snap = new_wizard("ERR")
    state, seat = snap["state"], snap["to_move"]
    frozen = json.dumps(state)
    other = (seat + 1) % 3
    cases = [
        ({"seat": seat, "move": "bid 9"}, "illegal_move"),
        ({"seat": seat, "move": "play R1"}, "illegal_move"),
        ({"seat": seat, "move": "bid"}, "invalid_move"),
        ({"seat": seat, "move": {"bid": 1}}, "invalid_move"),
        ({"seat": seat, "move": None}, "invalid_move"),
        ({"seat": seat}, "bad_request"),
        ({"seat": other, "move": "bid 0"}, "not_your_turn"),
        ({"seat": -1, "move": "bid 0"}, "bad_request"),
        ({"seat": "0", "move": "bid 0"}, "bad_request"),
    ]
    for extra, code in cases:
        assert error(op="apply", game="wizard", state=state, **extra)["code"] == code
    assert json.dumps(state) == frozen
    assert (
        error(op="bot_move", game="wizard", state=state, seat=other, level="random")["code"]
        == "not_your_turn"
    )
    assert (
        error(op="bot_move", game="wizard", state=state, seat=seat, level="god")["code"]
        == "bad_option"
    )


def test_illegal_move_error_carries_reason_and_details() -> None:
    state = new_wizard("REASON", 3)["state"]
    for _ in range(200):
        snap = ok(op="view", game="wizard", state=state, seat=0)
        if snap["to_move"] is None:
            break
        seat = snap["to_move"]
        view = ok(op="view", game="wizard", state=state, seat=seat)
        legal = view["legal_moves"]
        illegal = [f"play {c}" for c in view["view"]["hand"] if f"play {c}" not in legal]
        if view["view"]["phase"] == "play" and illegal:
            err = error(op="apply", game="wizard", state=state, seat=seat, move=illegal[0])
            assert err["reason"] == "must_follow_suit" and err["suit"] in "RBGY"
            return
        state = ok(op="bot_move", game="wizard", state=state, seat=seat, level="random")["state"]
    pytest.fail("no follow-suit case met")


def test_game_over_answers() -> None:
    state = new_wizard("OVER", 6)["state"]
    while True:
        snap = ok(op="view", game="wizard", state=state)
        if snap["to_move"] is None:
            break
        state = ok(op="bot_move", game="wizard", state=state, seat=snap["to_move"], level="random")[
            "state"
        ]
    assert snap["outcome"]["winners"]
    assert (
        error(op="apply", game="wizard", state=state, seat=0, move="bid 0")["code"] == "game_over"
    )
    assert error(op="hint", game="wizard", state=state, seat=0)["code"] == "game_over"


# -- fuzzing: no request, however hostile, gets `internal` ------------------------------------

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**12), 10**12)
    | st.floats(allow_nan=False)
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
BASE_STATE = new_wizard("FUZZ", 4)["state"]


def mutate(state: Any, path: list[Any], value: Any) -> Any:
    """A copy of ``state`` with the item at a pseudo-random path replaced by ``value``."""
    copy = json.loads(json.dumps(state))
    node = copy
    for step in path:
        if isinstance(node, dict) and node:
            key = sorted(node)[step % len(node)]
            if not isinstance(node[key], (dict, list)) or not node[key]:
                node[key] = value
                return copy
            node = node[key]
        elif isinstance(node, list) and node:
            index = step % len(node)
            if not isinstance(node[index], (dict, list)) or not node[index]:
                node[index] = value
                return copy
            node = node[index]
    return copy


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.integers(0, 1000), min_size=1, max_size=5),
    json_values,
    st.sampled_from(["view", "apply", "bot_move", "legal_moves", "hint", "inspect", "arrange"]),
    st.sampled_from(["bid 0", "bid 1", "play R1", "trump B"]),
)
def test_mutated_states_never_crash(path: list[int], value: Any, op: str, move: str) -> None:
    state = mutate(BASE_STATE, path, value)
    answer = call(
        op=op, game="wizard", state=state, seat=0, move=move, level="heuristic", view_seat=1
    )
    assert answer["ok"] or answer["error"]["code"] in CODES, answer["error"]


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(
            [
                "op",
                "game",
                "seed",
                "players",
                "options",
                "state",
                "seat",
                "move",
                "level",
                "record",
                "view_seat",
                "bot_seed",
                "tiles",
            ]
        ),
        json_values,
        max_size=8,
    )
)
def test_random_requests_never_crash(request_: dict[str, Any]) -> None:
    request_.setdefault("op", "new_game")
    answer = call(**request_)
    assert answer["ok"] or answer["error"]["code"] in CODES, answer["error"]


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(
        [
            "games",
            "new_game",
            "apply",
            "view",
            "legal_moves",
            "bot_move",
            "hint",
            "replay",
            "inspect",
            "arrange",
        ]
    ),
    st.dictionaries(
        st.sampled_from(
            [
                "game",
                "seed",
                "players",
                "options",
                "state",
                "seat",
                "move",
                "level",
                "record",
                "view_seat",
                "bot_seed",
                "tiles",
            ]
        ),
        json_values,
        max_size=8,
    ),
    st.booleans(),
)
def test_real_ops_with_random_fields_never_crash(
    op: str, fields: dict[str, Any], real_game: bool
) -> None:
    if real_game:
        fields["game"] = "wizard"
    answer = call(op=op, **fields)
    assert answer["ok"] or answer["error"]["code"] in CODES, answer["error"]


def test_searching_bots_report_progress() -> None:
    snap = new_wizard("PROG", 4)
    state, seat = snap["state"], snap["to_move"]
    seen: list[tuple[int, int]] = []
    answer = json.loads(
        handle(
            json.dumps(
                {
                    "op": "bot_move",
                    "game": "wizard",
                    "state": state,
                    "seat": seat,
                    "level": "normal",
                }
            ),
            lambda done, total: seen.append((done, total)),
        )
    )
    assert answer["ok"], answer
    assert seen and all(0 <= done <= total for done, total in seen)


def rummikub_after_initial_meld() -> tuple[dict[str, Any], int]:
    """A Rummikub state in which the seat to move has melded and the table holds a run."""
    from dataclasses import replace

    from tapete.rummikub import GAME
    from tapete.rummikub.melds import Meld

    state = GAME.new_game("INSPECT", players=2)
    seat = state.current
    table = (Meld("run", ("R3", "R4", "R5")),)
    everything = [t for r in state.racks for t in r] + list(state.pool)
    for tile in table[0].tiles:
        everything.remove(tile)
    mine = ["B7", "K7", "Y7", "R6"]
    for tile in mine:
        everything.remove(tile)
    racks = [tuple(mine + everything[:10]), tuple(everything[10:24])]
    if seat == 1:
        racks.reverse()
    state = replace(
        state, racks=tuple(racks), pool=tuple(everything[24:]), table=table, melded=(True, True)
    )
    return GAME.to_json(state), seat


def test_inspect_describes_every_meld_and_changes_nothing() -> None:
    state, seat = rummikub_after_initial_meld()
    before = json.dumps(state, sort_keys=True)
    table = [["R3", "R4", "R5", "R6"], ["B7", "K7", "Y7"]]
    good = {"play": {"table": table, "from_hand": ["R6", "B7", "K7", "Y7"]}}
    result = ok(op="inspect", game="rummikub", state=state, seat=seat, move=good)
    assert result["legal"] is True
    assert [m["valid"] for m in result["melds"]] == [True, True]
    assert result["melds"][0] == {
        "valid": True,
        "kind": "run",
        "value": 18,
        "jokers": [],
        "changed": True,
    }
    assert result["melds"][1]["kind"] == "group" and result["melds"][1]["value"] == 21
    bad = {"play": {"table": [["R3", "R4", "R5"], ["B7", "K7"], ["Q1"]], "from_hand": ["B7"]}}
    result = ok(op="inspect", game="rummikub", state=state, seat=seat, move=bad)
    assert result["legal"] is False
    assert result["error"]["code"] == "invalid_move"  # Q1 is not a tile
    assert result["melds"][0]["changed"] is False and result["melds"][0]["valid"]
    assert result["melds"][1] == {
        "valid": False,
        "reason": "too_short",
        "message": result["melds"][1]["message"],
        "changed": True,
    }
    assert result["melds"][2]["reason"] == "bad_tile"
    short = {"play": {"table": [["R3", "R4", "R5"], ["B7", "K7"]], "from_hand": ["B7", "K7"]}}
    result = ok(op="inspect", game="rummikub", state=state, seat=seat, move=short)
    assert result["error"]["reason"] == "meld_invalid" and result["error"]["index"] == 1
    assert json.dumps(state, sort_keys=True) == before


def test_inspect_of_other_moves_and_games() -> None:
    state, seat = rummikub_after_initial_meld()
    assert ok(op="inspect", game="rummikub", state=state, seat=seat, move="draw") == {"legal": True}
    other = ok(op="inspect", game="rummikub", state=state, seat=1 - seat, move="draw")
    assert other["legal"] is False and other["error"]["code"] == "not_your_turn"
    garbled = ok(op="inspect", game="rummikub", state=state, seat=seat, move={"play": {"table": 7}})
    assert garbled["legal"] is False and "melds" not in garbled
    assert error(op="inspect", game="rummikub", state=state, seat=seat)["code"] == "bad_request"
    snap = new_wizard()
    assert "melds" not in ok(
        op="inspect", game="wizard", state=snap["state"], seat=snap["to_move"], move="bid 9"
    )
    table_play = {"play": {"table": [["R1"]]}}
    answer = error(
        op="inspect", game="wizard", state=snap["state"], seat=snap["to_move"], move=table_play
    )
    assert answer["code"] == "bad_request" and "no table of melds" in answer["message"]


def test_arrange_op() -> None:
    state, seat = rummikub_after_initial_meld()
    answer = ok(op="arrange", game="rummikub", state=state, seat=seat, tiles=["R6", "B7"])
    assert answer["complete"] is False and answer["from_hand"] == ["R6"]
    assert answer["table"] == [["R3", "R4", "R5", "R6"]]
    assert error(op="arrange", game="rummikub", state=state, seat=seat, tiles="R6")["code"] == (
        "bad_request"
    )
    assert error(op="arrange", game="rummikub", state=state, seat=seat, tiles=[1])["code"] == (
        "invalid_move"
    )
    other = error(op="arrange", game="rummikub", state=state, seat=1 - seat, tiles=["R6"])
    assert other["code"] == "not_your_turn"
    snap = new_wizard()
    assert (
        error(op="arrange", game="wizard", state=snap["state"], seat=snap["to_move"], tiles=[])[
            "code"
        ]
        == "bad_request"
    )


def test_inspect_marks_a_tile_with_two_jokers_as_ambiguous() -> None:
    """R5 * * is a run (R5 R6 R7 or around) and a group (three fives); R12 * * is only a group."""
    state, seat = rummikub_after_initial_meld()
    tables = [[["R5", "*", "*"]], [{"group": ["R5", "*", "*"]}], [["R12", "*", "*"]]]
    answers = [
        ok(op="inspect", game="rummikub", state=state, seat=seat, move={"play": {"table": t}})
        for t in tables
    ]
    as_run, as_group, only_group = (answer["melds"][0] for answer in answers)
    assert as_run["valid"] and as_run["kind"] == "run" and as_run["ambiguous"] is True
    assert as_group["valid"] and as_group["kind"] == "group" and as_group["ambiguous"] is True
    assert only_group["valid"] and "ambiguous" not in only_group
    assert only_group["kind"] == "group"


def test_view_public_is_the_view_of_no_seat() -> None:
    """A table screen asks for ``view_public``: the view of no seat, no legal moves, no hand."""
    request = {"op": "new_game", "game": "wizard", "seed": "PUBLIC", "players": 3}
    snap = json.loads(handle(json.dumps({**request, "view_public": True})))["result"]
    state = GAMES["wizard"].from_json(snap["state"])
    assert snap["view"] == GAMES["wizard"].view(state, None)
    assert snap["view"]["hand"] == [] and snap["legal_moves"] == []
    assert "view" not in json.loads(handle(json.dumps(request)))["result"]
    seated = json.loads(handle(json.dumps({**request, "view_seat": 1, "view_public": True})))
    assert seated["result"]["view"]["seat"] == 1
    bad = json.loads(handle(json.dumps({**request, "view_public": "yes"})))
    assert bad["error"]["code"] == "bad_request"
    # the view op too: no seat and view_public, the view of no seat; a seat wins over it
    asked = {"op": "view", "game": "wizard", "state": snap["state"]}
    public = json.loads(handle(json.dumps({**asked, "view_public": True})))["result"]
    assert public["view"] == snap["view"] and public["legal_moves"] == []
    assert "view" not in json.loads(handle(json.dumps(asked)))["result"]
    mine = json.loads(handle(json.dumps({**asked, "seat": 2, "view_public": True})))["result"]
    assert mine["view"]["seat"] == 2 and mine["view"]["hand"]
