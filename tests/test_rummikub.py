"""Rummikub rules: SPEC.md 3.2 test vectors, every option of 3.4, coded errors, JSON and views."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from tapete.errors import (
    BadOptionError,
    BadStateError,
    EngineError,
    IllegalMoveError,
    InvalidMoveError,
    NotYourTurnError,
)
from tapete.rng import Rng
from tapete.rummikub import GAME, Meld, Move
from tapete.rummikub.game import RummikubState, deal, draw_starter, points_blocked, points_out
from tapete.rummikub.melds import MeldError, read_meld
from tapete.rummikub.tiles import FULL_SET, JOKER, rack_value

# -- helpers ----------------------------------------------------------------------------------


def meld(*tiles: str, kind: str | None = None) -> Meld:
    return Meld(read_meld(tiles, kind).kind, tuple(tiles))


def position(
    table: list[list[str]] | None = None,
    racks: list[list[str]] | None = None,
    melded: list[bool] | None = None,
    options: dict[str, Any] | None = None,
    pool: list[str] | None = None,
    current: int = 0,
) -> RummikubState:
    """A consistent state with the given table and racks; the other tiles form the pool."""
    players = len(racks) if racks else 2
    state = GAME.new_game("POS", options, players)
    table_melds = tuple(meld(*m) for m in table or [])
    rack_tuples = tuple(tuple(r) for r in racks or [[], []])
    used = Counter(t for m in table_melds for t in m.tiles) + Counter(
        t for r in rack_tuples for t in r
    )
    rest = list((Counter(FULL_SET) - used).elements())
    if pool is not None:
        rest = list(pool)
    return replace(
        state,
        table=table_melds,
        racks=rack_tuples,
        melded=tuple(melded if melded is not None else [True] * players),
        pool=tuple(rest),
        current=current,
    )


def play(table: list[Any], from_hand: list[str] | None = None) -> Move:
    data: dict[str, Any] = {"table": table}
    if from_hand is not None:
        data["from_hand"] = from_hand
    return GAME.parse_move({"play": data})


def reason(state: RummikubState, move: Move, seat: int = 0) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError) as info:
        GAME.check(state, seat, move)
    return info.value


# -- SPEC 3.2 test vectors --------------------------------------------------------------------


def test_group_of_three_colours_is_valid() -> None:
    assert read_meld(["R9", "B9", "K9"]).kind == "group"


def test_repeated_colour_is_invalid() -> None:
    with pytest.raises(MeldError) as info:
        read_meld(["R9", "R9", "B9"])
    assert info.value.why == "repeated_colour"


def test_no_wrap_around() -> None:
    with pytest.raises(MeldError):
        read_meld(["Y12", "Y13", "Y1"])


def test_joker_below_a_run_is_valid_but_never_14() -> None:
    reading = read_meld(["*", "R12", "R13"])
    assert reading.kind == "run" and reading.joker_numbers() == [11]
    with pytest.raises(MeldError) as info:
        read_meld(["R12", "R13", "*"])
    assert info.value.why == "out_of_range"


def test_initial_meld_with_a_joker_counts_it_zero_by_default() -> None:
    state = position(racks=[["R10", "B10", JOKER, "K1"], ["K2"]], melded=[False, False])
    move = play([["R10", "B10", "*"]], ["R10", "B10", "*"])
    error = reason(state, move)
    assert error.reason == "initial_meld_too_low"
    assert error.details == {"value": 20, "threshold": 30}
    official = position(
        racks=[["R10", "B10", JOKER, "K1"], ["K2"]],
        melded=[False, False],
        options={"initial_meld_joker_value": "REPRESENTED"},
    )
    GAME.check(official, 0, move)


@pytest.mark.parametrize(("rule", "initial"), [("ZERO", 60), ("REPRESENTED", 72)])
def test_the_hint_counts_an_initial_meld_as_the_meld_counter_does(rule: str, initial: int) -> None:
    """One number, one rule: before the initial meld the hint's ``initial_value`` is what the
    meld counter shows (inspect's values), a joker 0 or what it stands for; ``value`` is the
    rack value shed (a joker 30)."""
    rack = ["R10", "R11", JOKER, "B13", "K13", "Y13", "K2"]
    options = {"initial_meld_joker_value": rule}
    state = position(racks=[rack, ["K3"]], melded=[False, False], options=options)
    hint = GAME.hint(state, 0)
    assert hint["value"] == 10 + 11 + 30 + 39 and hint["initial_value"] == initial
    shown = GAME.describe_melds(state, 0, [m["tiles"] for m in hint["melds"]])
    assert sum(m["value"] for m in shown) == initial
    melded = position(racks=[rack, ["K3"]], melded=[True, False], options=options)
    assert "initial_value" not in GAME.hint(melded, 0)


def test_initial_meld_may_combine_sets() -> None:
    state = position(
        racks=[["B3", "B4", "B5", "R9", "K9", "Y9", "K1"], ["K2"]], melded=[False, False]
    )
    move = play([["B3", "B4", "B5"], ["R9", "K9", "Y9"]])
    GAME.check(state, 0, move)
    after = GAME.apply(state, 0, move)
    assert after.melded == (True, False) and after.racks[0] == ("K1",)


def test_seed_scoring_example() -> None:
    assert points_out([0, 5, 10, 3], 0) == (18, -5, -10, -3)


def test_blocked_game_ties_share_exactly() -> None:
    points, winners = points_blocked([4, 4, 10, 11])
    assert winners == (0, 1)
    assert points == (Fraction(13, 2), Fraction(13, 2), -6, -7)
    points, winners = points_blocked([3, 3, 3, 5])
    assert winners == (0, 1, 2) and points[0] == Fraction(2, 3) and sum(points) == 0


# -- melds ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tiles", "why"),
    [
        (["R1", "R2"], "too_short"),
        (["R1", "B2", "K3"], "mixed_colours"),
        (["R1", "R2", "R4"], "not_consecutive"),
        (["R3", "R2", "R1"], "not_consecutive"),
        (["*", "R1", "R2"], "out_of_range"),
        (["K5", "R5", "B5", "Y5", "*"], "too_long"),
        (["K5", "K5", "*"], "repeated_colour"),
        (["*", "*", "*"], "too_many_jokers"),
    ],
)
def test_meld_reasons(tiles: list[str], why: str) -> None:
    with pytest.raises(MeldError) as info:
        read_meld(tiles)
    assert info.value.why == why


def test_ambiguous_meld_reads_as_run_unless_declared() -> None:
    assert read_meld(["R5", "*", "*"]).kind == "run"
    group = read_meld(["R5", "*", "*"], "group")
    assert group.kind == "group" and len(group.joker_options()) == 3
    assert meld("R5", "*", "*", kind="group").to_json() == {"group": ["R5", "*", "*"]}
    assert meld("K9", "R9", "*").to_json() == ["K9", "R9", "*"]


def test_joker_in_a_group_of_three_may_be_either_colour() -> None:
    reading = read_meld(["K9", "R9", "*"])
    assert sorted(reading.joker_options()) == [(2 * 13 + 8,), (3 * 13 + 8,)]


# -- setup ------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_deals_14_each_and_keeps_106_tiles(players: int) -> None:
    state = GAME.new_game("SETUP", None, players)
    assert all(len(rack) == 14 for rack in state.racks)
    assert len(state.pool) == 106 - 14 * players
    assert Counter(GAME.seat_cards(state)) == Counter(FULL_SET)
    assert state.current == state.starter


def test_duplicate_exchange_leaves_no_doubles_but_keeps_jokers() -> None:
    doubles_without = 0
    for i in range(40):
        state = GAME.new_game(f"DUP{i}", None, 4)
        for rack in state.racks:
            naturals = [t for t in rack if t != JOKER]
            assert len(naturals) == len(set(naturals))
        plain = GAME.new_game(f"DUP{i}", {"duplicate_exchange_on_deal": False}, 4)
        doubles_without += any(
            len([t for t in r if t != JOKER]) != len({t for t in r if t != JOKER})
            for r in plain.racks
        )
    assert doubles_without > 0


def test_starter_is_the_highest_draw_and_ties_redraw() -> None:
    for i in range(60):
        starter, rounds = draw_starter(f"S{i}", 1, 4, redraw_jokers=False)
        last = rounds[-1]

        def worth(tile: str) -> int:
            return 30 if tile == JOKER else int(tile[1:])

        best = max(worth(d[-1]) for _, d in last)
        assert [s for s, d in last if worth(d[-1]) == best] == [starter]
        for earlier in rounds[:-1]:
            top = max(worth(d[-1]) for _, d in earlier)
            assert sum(worth(d[-1]) == top for _, d in earlier) > 1


def test_redraw_rule_replaces_a_drawn_joker() -> None:
    found = False
    for i in range(300):
        _, rounds = draw_starter(f"J{i}", 1, 4, redraw_jokers=True)
        for draw in rounds:
            for _, tiles in draw:
                assert tiles[-1] != JOKER
                found |= len(tiles) > 1
    assert found


def test_deal_derives_from_the_seed_only() -> None:
    assert deal("ABC", 1, 4, True) == deal("ABC", 1, 4, True)
    assert deal("ABC", 1, 4, True) != deal("ABD", 1, 4, True)
    state = GAME.new_game("K7QX2M", None, 4)
    text = json.dumps(GAME.to_json(state), sort_keys=True, separators=(",", ":"))
    assert hashlib.sha256(text.encode()).hexdigest()[:16] == GOLDEN_K7QX2M


GOLDEN_K7QX2M = "ebb77ec2e5c938a2"


# -- turns ------------------------------------------------------------------------------------


def test_draw_takes_the_first_pool_tile_and_passes_the_turn() -> None:
    state = GAME.new_game("DRAW", None, 3)
    seat = state.current
    after = GAME.apply(state, seat, Move("draw"))
    assert after.racks[seat] == state.racks[seat] + state.pool[:1]
    assert after.pool == state.pool[1:] and after.current == (seat + 1) % 3


def test_pass_only_with_an_empty_pool_and_draw_only_with_tiles() -> None:
    state = position(racks=[["K1"], ["K2"]])
    assert reason(state, Move("pass")).reason == "pool_not_empty"
    empty = position(racks=[["K1"], ["K2"]], pool=[])
    assert reason(empty, Move("draw")).reason == "pool_empty"
    assert GAME.legal_moves(empty, 0) == [Move("pass")]


def test_not_your_turn() -> None:
    state = position(racks=[["K1"], ["K2"]])
    with pytest.raises(NotYourTurnError):
        GAME.check(state, 1, Move("draw"))


# -- plays and their errors -------------------------------------------------------------------

BASE = [["R1", "R2", "R3"], ["K9", "B9", "Y9"]]


def test_adding_to_the_table_after_the_meld() -> None:
    state = position(BASE, [["R4", "R9", "K5"], ["K2"]])
    move = play([["R1", "R2", "R3", "R4"], ["K9", "R9", "B9", "Y9"]], ["R4", "R9"])
    after = GAME.apply(state, 0, move)
    assert after.racks[0] == ("K5",)
    assert [m.tiles for m in after.table] == [("R1", "R2", "R3", "R4"), ("K9", "R9", "B9", "Y9")]


def test_from_hand_may_be_left_out() -> None:
    state = position(BASE, [["R4", "K5"], ["K2"]])
    after = GAME.apply(state, 0, play([["R1", "R2", "R3", "R4"], ["K9", "B9", "Y9"]]))
    assert after.racks[0] == ("K5",)


def test_invalid_meld_names_index_and_why() -> None:
    state = position(BASE, [["R4", "R9", "K5"], ["K2"]])
    error = reason(state, play([["R1", "R2", "R3"], ["K9", "B9", "Y9", "R4"]], ["R4"]))
    assert error.reason == "meld_invalid"
    assert error.details["index"] == 1 and error.details["why"] == "mixed_colours"
    error = reason(state, play([["R1", "R2", "R3"], ["K9", "B9"], ["Y9", "R9", "K5"]]))
    assert error.reason == "meld_invalid" and error.details["why"] == "too_short"


def test_a_table_tile_may_not_vanish() -> None:
    state = position(BASE, [["R4", "K5"], ["K2"]])
    error = reason(state, play([["R2", "R3", "R4"], ["K9", "B9", "Y9"]], ["R4"]))
    assert error.reason == "table_tile_missing" and error.details["tile"] == "R1"


def test_tiles_must_be_on_the_rack() -> None:
    state = position(BASE, [["R4", "K5"], ["K2"]])
    error = reason(state, play([["R1", "R2", "R3", "R4", "R5"], ["K9", "B9", "Y9"]]))
    assert error.reason == "not_on_rack" and error.details["tile"] == "R5"
    error = reason(state, play([["R1", "R2", "R3", "R4"], ["K9", "B9", "Y9"]], ["R4", "R4"]))
    assert error.reason == "not_on_rack"


def test_listed_tiles_must_all_be_laid_and_nothing_extra() -> None:
    state = position(BASE, [["R4", "K5"], ["K2"]])
    error = reason(state, play([["R1", "R2", "R3", "R4"], ["K9", "B9", "Y9"]], ["R4", "K5"]))
    assert error.reason == "played_tile_missing" and error.details["tile"] == "K5"
    error = reason(state, play([["R1", "R2", "R3", "R4"], ["K9", "B9", "Y9"], ["K9", "R9", "B9"]]))
    assert error.reason in ("not_on_rack", "tile_not_accounted")
    error = reason(state, play([["R1", "R2", "R3", "R4"], ["K9", "B9", "Y9", "R9"]], ["R4"]))
    assert error.reason == "tile_not_accounted" and error.details["tile"] == "R9"


def test_nothing_played() -> None:
    state = position(BASE, [["R4"], ["K2"]])
    assert reason(state, play(BASE, [])).reason == "nothing_played"


def test_long_run_split_in_the_middle() -> None:
    state = position([["B6", "B7", "B8", "B9", "B10"]], [["B8", "K1"], ["K2"]])
    GAME.check(state, 0, play([["B6", "B7", "B8"], ["B8", "B9", "B10"]], ["B8"]))


def test_initial_meld_may_not_touch_the_table() -> None:
    state = position(BASE, [["R4", "K10", "R10", "B10"], ["K2"]], melded=[False, True])
    error = reason(state, play([["R1", "R2", "R3", "R4"], ["K9", "B9", "Y9"]]))
    assert error.reason == "table_changed_on_initial_meld" and error.details["index"] == 0
    GAME.check(state, 0, play([*BASE, ["K10", "R10", "B10"]]))
    error = reason(state, play([*BASE, ["K10", "R10", "B10"]], ["K10", "R10", "B10", "R4"]))
    assert error.reason == "played_tile_missing"


def test_manipulation_on_the_initial_turn_when_allowed() -> None:
    rack = ["R4", "K10", "R10", "B10"]
    state = position(
        BASE,
        [rack, ["K2"]],
        melded=[False, True],
        options={"allow_manipulation_on_initial_turn": True},
    )
    GAME.check(state, 0, play([["R1", "R2", "R3", "R4"], BASE[1], ["K10", "R10", "B10"]]))
    error = reason(state, play([["R1", "R2", "R3", "R4"], BASE[1]]))
    assert error.reason == "initial_meld_too_low" and error.details["value"] == 0


def test_threshold_option() -> None:
    rack = ["K5", "R5", "B5", "K1"]
    state = position(racks=[rack, ["K2"]], melded=[False, False])
    assert reason(state, play([["K5", "R5", "B5"]])).details["value"] == 15
    low = position(
        racks=[rack, ["K2"]], melded=[False, False], options={"initial_meld_threshold": 15}
    )
    GAME.check(low, 0, play([["K5", "R5", "B5"]]))


# -- jokers -----------------------------------------------------------------------------------


def test_seed_joker_example_rack_only() -> None:
    """3 blue, 4 blue and a joker; a rack with 5 blue, 7 red, 7 yellow: the 5 frees the joker."""
    state = position([["B3", "B4", "*"]], [["B5", "R7", "Y7"], ["K2"]])
    GAME.check(state, 0, play([["B3", "B4", "B5"], ["R7", "Y7", "*"]]))
    no_b5 = position([["B3", "B4", "*"]], [["B6", "R7", "Y7"], ["K2"]])
    error = reason(no_b5, play([["B3", "B4", "B5"], ["R7", "Y7", "*"]]))
    assert error.reason in ("not_on_rack",)
    moved = reason(no_b5, play([["R7", "Y7", "*"], ["B3", "B4", "*"]]))
    assert moved.reason in ("tile_not_accounted", "not_on_rack")


def test_joker_taken_without_its_tile() -> None:
    table = [["R5", "*", "R7"], ["K10", "R10", "B10"]]
    state = position(table, [["Y10", "K1"], ["K2"]])
    move = play([["R5", "R6", "R7"], ["K10", "R10", "B10", "*"]])
    # R6 is not on the rack: the move is refused before the joker rule
    assert reason(state, move).reason == "not_on_rack"
    move = play([["K10", "R10", "B10", "Y10"], ["R5", "*", "R7"]], ["Y10"])
    GAME.check(state, 0, move)
    table = [["R4", "R5", "R6", "*"], ["K10", "R10", "B10"]]
    state = position(table, [["Y10", "K1"], ["K2"]])
    move = play([["*", "R4", "R5", "R6"], ["K10", "R10", "B10", "Y10"]], ["Y10"])
    error = reason(state, move)
    assert error.reason == "joker_not_replaced" and error.details["joker"] == "R7"
    official = position(
        table, [["Y10", "K1"], ["K2"]], options={"joker_replacement_source": "RACK_OR_TABLE"}
    )
    GAME.check(official, 0, move)


def test_group_joker_freed_by_either_missing_colour() -> None:
    table = [["K9", "R9", "*"], ["B1", "B2", "B3"]]
    for tile in ("B9", "Y9"):
        state = position(table, [[tile, "B4"], ["K2"]])
        GAME.check(state, 0, play([["K9", "R9", tile], ["B1", "B2", "B3", "*"]], [tile]))
    state = position(table, [["B4", "K1"], ["K2"]])
    GAME.check(state, 0, play([["K9", "R9", "*"], ["B1", "B2", "B3", "B4"]], ["B4"]))
    error = reason(state, play([["K9", "R9", "B4"], ["B1", "B2", "B3", "*"]], ["B4"]))
    assert error.reason == "meld_invalid"
    error = reason(state, play([["B1", "B2", "B3", "B4", "*"], ["K9", "R9", "*"]], ["B4"]))
    assert error.reason == "tile_not_accounted"


def test_adding_a_colour_to_a_group_with_a_joker_is_not_a_retrieval() -> None:
    state = position([["K9", "R9", "*"]], [["B9", "K1"], ["K2"]])
    GAME.check(state, 0, play([["K9", "R9", "*", "B9"]], ["B9"]))


def test_no_joker_retrieval_on_the_initial_turn() -> None:
    table = [["R4", "R5", "*"]]
    state = position(
        table,
        [["R6", "R7", "K10", "B10", "Y10"], ["K2"]],
        melded=[False, True],
        options={"allow_manipulation_on_initial_turn": True},
    )
    move = play([["R4", "R5", "*", "R7"], ["K10", "B10", "Y10"]])
    GAME.check(state, 0, move)
    state = replace(state, racks=(("R6", "K10", "B10", "Y10", "K11", "B11", "Y11"), ("K2",)))
    move = play([["R4", "R5", "R6"], ["K10", "B10", "Y10"], ["K11", "B11", "Y11", "*"]])
    assert reason(state, move).reason == "joker_retrieval_before_meld"


# -- the timer and the end ----------------------------------------------------------------------


def test_timeout_draws_the_penalty() -> None:
    state = position(racks=[["K1"], ["K2"]])
    assert reason(state, Move("timeout")).reason == "no_timer"
    timed = position(racks=[["K1"], ["K2"]], options={"turn_timer_s": 60, "failed_move_penalty": 3})
    assert Move("timeout") in GAME.legal_moves(timed, 0)
    after = GAME.apply(timed, 0, Move("timeout"))
    assert after.racks[0] == ("K1", *timed.pool[:3]) and after.current == 1


def test_going_out_ends_and_scores() -> None:
    state = position(BASE, [["R4"], ["K2", "K5", JOKER]])
    after = GAME.apply(state, 0, play([["R1", "R2", "R3", "R4"], BASE[1]]))
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == (0,)
    assert outcome.scores == (37.0, -37.0) and GAME.to_move(after) is None


def test_blocked_game_ends_after_everyone_passes() -> None:
    state = position(BASE, [["K5"], ["K2", "K4"], ["Y13"]], pool=[], current=0)
    for seat in (0, 1):
        state = GAME.apply(state, seat, Move("pass"))
        assert GAME.outcome(state) is None
    state = GAME.apply(state, 2, Move("pass"))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0,)
    assert outcome.scores == (9.0, -1.0, -8.0)


def test_a_play_resets_the_passes() -> None:
    state = position(BASE, [["R4", "K5"], ["K2"]], pool=[])
    state = GAME.apply(state, 0, play([["R1", "R2", "R3", "R4"], BASE[1]]))
    state = GAME.apply(state, 1, Move("pass"))
    assert state.passes == 1 and GAME.outcome(state) is None


def test_final_turn_each_once_the_pool_runs_out() -> None:
    state = position(
        BASE,
        [["K5"], ["K2"], ["K3"]],
        pool=["Y13"],
        options={"pool_empty_final_turn_each": True},
    )
    state = GAME.apply(state, 0, Move("draw"))
    for seat in (1, 2):
        state = GAME.apply(state, seat, Move("pass"))
        assert GAME.outcome(state) is None
    state = GAME.apply(state, 0, Move("pass"))
    assert GAME.outcome(state) is not None


def test_match_mode_plays_one_game_per_player() -> None:
    state = GAME.new_game("MATCH", {"match_mode": True}, 2)
    state = replace(state, racks=(("R4",), state.racks[1]), table=(meld("R1", "R2", "R3"),))
    state = replace(state, melded=(True, True), current=0, pool=state.pool)
    tiles = Counter(FULL_SET) - Counter(GAME.seat_cards(state))
    state = replace(state, pool=state.pool + tuple(tiles.elements()))
    extra = Counter(GAME.seat_cards(state)) - Counter(FULL_SET)
    pool = list(state.pool)
    for tile in extra.elements():
        pool.remove(tile)
    state = replace(state, pool=tuple(pool))
    state = GAME.apply(state, 0, play([["R1", "R2", "R3", "R4"]]))
    assert not state.over and state.game_no == 2 and len(state.results) == 1
    assert GAME.outcome(state) is None
    assert Counter(GAME.seat_cards(state)) == Counter(FULL_SET)


# -- JSON, views, worlds ----------------------------------------------------------------------


def test_moves_round_trip_through_json_and_text() -> None:
    moves = [
        Move("draw"),
        Move("pass"),
        Move("timeout"),
        play([["R1", "R2", "R3"], {"group": ["K5", "*", "*"]}], ["K5"]),
        play([["R1", "R2", "R3"]]),
    ]
    for move in moves:
        data = GAME.move_to_json(move)
        assert GAME.parse_move(json.loads(json.dumps(data))) == move
        assert GAME.parse_move(move.text()) == move
    assert GAME.parse_move({"draw": True}) == Move("draw")
    plain = play([["K9", "R9", "B9"], ["R1", "R2", "R3"]])
    assert play([{"group": ["K9", "R9", "B9"]}, {"run": ["R1", "R2", "R3"]}]) == plain
    wrong = play([{"run": ["K9", "R9", "B9"]}])
    assert GAME.parse_move(GAME.move_to_json(wrong)) == wrong
    assert GAME.parse_move(wrong.text()) == wrong
    assert moves[3].text() == "play R1 R2 R3 | group: K5 * * ; hand K5"


@pytest.mark.parametrize(
    "data",
    [
        None,
        3,
        "dance",
        "play",
        {"draw": False},
        {"play": []},
        {"play": {"table": "R1"}},
        {"play": {"table": [["R1", "R14", "R3"]]}},
        {"play": {"table": [["r1", "R2", "R3"]]}},
        {"play": {"table": [{"pair": ["R1"]}]}},
        {"play": {"table": [["R1"]], "from_hand": "R1"}},
        {"play": {"table": [["R1"]], "extra": 1}},
        {"play": {"table": [["R1"] * 30]}},
        {"play": {"table": [["R1"]] * 61}},
        "play R1 R2 X3",
        "play R1 R2 R3 ; rack R1",
    ],
)
def test_garbage_moves_are_invalid(data: Any) -> None:
    with pytest.raises(InvalidMoveError):
        GAME.parse_move(data)


def test_state_round_trips() -> None:
    state = GAME.new_game("JSON", {"match_mode": True, "turn_timer_s": 40}, 3)
    for _ in range(6):
        seat = GAME.to_move(state)
        assert seat is not None
        state = GAME.apply(state, seat, Move("draw"))
    again = GAME.from_json(json.loads(json.dumps(GAME.to_json(state))))
    assert again == state


def mutations(data: Any, rng: Rng, count: int) -> list[Any]:
    out = []
    values: list[Any] = [None, -1, 0, 7, 10**9, "", "R1", "*", "K14", [], {}, [1], True, 2.5, "1/0"]
    for _ in range(count):
        copy = json.loads(json.dumps(data))
        node = copy
        for _ in range(rng.below(4) + 1):
            if isinstance(node, dict) and node:
                key = sorted(node)[rng.below(len(node))]
                if rng.below(3) == 0 or not isinstance(node[key], (dict, list)) or not node[key]:
                    node[key] = rng.choice(values)
                    break
                node = node[key]
            elif isinstance(node, list) and node:
                index = rng.below(len(node))
                if (
                    rng.below(3) == 0
                    or not isinstance(node[index], (dict, list))
                    or not node[index]
                ):
                    node[index] = rng.choice(values)
                    break
                node = node[index]
        out.append(copy)
    return out


def test_garbage_states_raise_bad_state_only() -> None:
    state = GAME.new_game("GARBAGE", None, 4)
    seat = GAME.to_move(state)
    assert seat is not None
    state = GAME.apply(state, seat, Move("draw"))
    data = GAME.to_json(state)
    for bad in [None, 1, "x", [], {}, {"v": 2}, *mutations(data, Rng.derive("garbage"), 400)]:
        try:
            GAME.from_json(bad)
        except BadStateError:
            continue
        except EngineError as error:  # pragma: no cover - the assertion explains
            raise AssertionError(f"{type(error).__name__} for {bad!r}") from None


def test_view_hides_other_racks_and_the_pool() -> None:
    state = GAME.new_game("VIEW", None, 3)
    view = GAME.view(state, 1)
    assert view["rack"] == sorted(view["rack"], key=lambda t: ("KRBY*".index(t[0]), len(t), t))
    assert Counter(view["rack"]) == Counter(state.racks[1])
    assert view["rack_sizes"] == [14, 14, 14] and view["pool_size"] == 106 - 42
    text = json.dumps({k: v for k, v in view.items() if k != "first_draws"})
    assert "pool" not in json.dumps(list(view.keys())).replace("pool_size", "")
    assert GAME.view(state, None)["rack"] == []
    world = GAME.sample_world(state, 1, Rng.derive("w"))
    assert GAME.view(world, 1) == view
    assert Counter(GAME.seat_cards(world)) == Counter(FULL_SET)
    assert world.racks != state.racks or world.pool != state.pool
    del text


def test_view_describes_jokers_without_codes() -> None:
    state = position([["K9", "R9", "*"], ["B3", "*", "B5"]], [["K1"], ["K2"]])
    table = GAME.view(state, 0)["table"]
    assert table[0]["jokers"] == [{"number": 9, "colours": ["B", "Y"]}]
    assert table[1]["jokers"] == [{"number": 4, "colours": ["B"]}]


def test_options_are_checked() -> None:
    with pytest.raises(BadOptionError):
        GAME.new_game("X", {"joker_replacement_source": "ANYWHERE"}, 2)
    with pytest.raises(BadOptionError):
        GAME.new_game("X", None, 5)
    names = {spec.name for spec in GAME.options_spec}
    assert names == {
        "initial_meld_threshold",
        "initial_meld_joker_value",
        "allow_manipulation_on_initial_turn",
        "duplicate_exchange_on_deal",
        "first_player_joker_rule",
        "joker_replacement_source",
        "joker_rack_penalty",
        "turn_timer_s",
        "failed_move_penalty",
        "pool_empty_final_turn_each",
        "match_mode",
    }


def test_joker_rack_penalty_option() -> None:
    assert rack_value(["K5", JOKER], 30) == 35
    state = position(BASE, [["R4"], ["K2", JOKER]], options={"joker_rack_penalty": 50})
    after = GAME.apply(state, 0, play([["R1", "R2", "R3", "R4"], BASE[1]]))
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.scores == (52.0, -52.0)


def test_hint_shows_the_best_play() -> None:
    state = position([["B3", "B4", "*"]], [["B5", "R7", "Y7", "K1"], ["K2"]])
    hint = GAME.hint(state, 0)
    assert hint["placed"] == ["R7", "B5", "Y7"] and hint["value"] == 19
    GAME.check(state, 0, GAME.parse_move(hint["move"]))


# -- conformance: random playouts -----------------------------------------------------------

PLAYOUT_OPTIONS: list[dict[str, Any]] = [
    {},
    {"joker_replacement_source": "RACK_OR_TABLE", "initial_meld_joker_value": "REPRESENTED"},
    {"turn_timer_s": 30, "failed_move_penalty": 3, "pool_empty_final_turn_each": True},
    {"allow_manipulation_on_initial_turn": True, "initial_meld_threshold": 10},
    {"match_mode": True, "first_player_joker_rule": "REDRAW"},
    {"duplicate_exchange_on_deal": False, "joker_rack_penalty": 50},
]


def cheap_move(state: RummikubState, seat: int, rng: Rng) -> Move:
    """A quick random player: the easy bot (rack-only sets), the best play now and then, a
    draw, or a timeout when there is a timer."""
    roll = rng.below(10)
    if roll < 2:
        return Move("draw") if state.pool else Move("pass")
    if roll == 2 and state.option["turn_timer_s"]:
        return Move("timeout")
    if roll == 3:
        best = GAME.best_play(state, seat)
        if best is not None:
            return best
    return GAME.bots["easy"](GAME, state, seat, rng)


@pytest.mark.parametrize("case", range(12))
def test_random_playouts_keep_every_tile_and_secret(case: int) -> None:
    options = PLAYOUT_OPTIONS[case % len(PLAYOUT_OPTIONS)]
    players = 2 + case % 3
    state = GAME.new_game(f"PLAY{case}", options, players)
    rng = Rng.derive("playout", case)
    for step in range(2000):
        assert Counter(GAME.seat_cards(state)) == Counter(FULL_SET)
        assert GAME.from_json(json.loads(json.dumps(GAME.to_json(state)))) == state
        seat = GAME.to_move(state)
        if step % 5 == 0:
            for viewer in range(players):
                view = GAME.view(state, viewer)
                assert (
                    sum(view["rack_sizes"])
                    + view["pool_size"]
                    + sum(len(m["tiles"]) for m in view["table"])
                    == 106
                )
                assert "racks" not in view and "pool" not in view
                assert Counter(view["rack"]) == Counter(state.racks[viewer])
                if seat is not None:
                    world = GAME.sample_world(state, viewer, rng)
                    assert GAME.view(world, viewer) == view
        if seat is None:
            break
        if step % 10 == 0:
            for move in GAME.legal_moves(state, seat):
                GAME.check(state, seat, move)
        move = cheap_move(state, seat, rng)
        assert GAME.parse_move(json.loads(json.dumps(GAME.move_to_json(move)))) == move
        state = GAME.apply(state, seat, move)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners
    assert abs(sum(outcome.scores)) < 1e-9


# -- through the API ------------------------------------------------------------------------


def call(**request: Any) -> dict[str, Any]:
    from tapete.api import handle

    return json.loads(handle(json.dumps(request)))


def test_api_play_error_and_hint() -> None:
    state = position([["B3", "B4", "*"]], [["B5", "R7", "Y7", "K1"], ["K2", "K3"]])
    data = GAME.to_json(state)
    bad = call(
        op="apply",
        game="rummikub",
        state=data,
        seat=0,
        move={"play": {"table": [["B3", "B4", "*"], ["R7", "Y7"]], "from_hand": ["R7", "Y7"]}},
    )
    assert not bad["ok"] and bad["error"]["code"] == "illegal_move"
    assert bad["error"]["reason"] == "meld_invalid" and bad["error"]["index"] == 1
    assert bad["error"]["why"] == "too_short"
    hint = call(op="hint", game="rummikub", state=data, seat=0)
    assert hint["ok"] and hint["result"]["placed"] == ["R7", "B5", "Y7"]
    done = call(
        op="apply", game="rummikub", state=data, seat=0, move=hint["result"]["move"], view_seat=0
    )
    assert done["ok"] and done["result"]["view"]["rack"] == ["K1"]
    bot = call(op="bot_move", game="rummikub", state=data, seat=0, level="normal", view_seat=1)
    assert bot["ok"] and bot["result"]["view"]["rack_sizes"][0] == 1
    garbage = call(op="apply", game="rummikub", state=data, seat=0, move={"play": {"table": 5}})
    assert garbage["error"]["code"] == "invalid_move"
    broken = dict(data, table=[["B3", "B4"]])
    assert call(op="view", game="rummikub", state=broken, seat=0)["error"]["code"] == "bad_state"


# -- the page's helpers: describe_melds (inspect), arrange, the cheap legal play --------------


def test_describe_melds_reads_every_meld_and_never_raises_for_a_bad_one() -> None:
    state = position(table=[["R3", "R4", "R5"]], racks=[["R6", "K7", "B7", "Y7", "*"], ["K1"]])
    table: list[Any] = [
        ["R3", "R4", "R5"],
        ["R6"],
        ["K7", "B7", "*"],
        {"group": ["Y7", "*", "*"]},
        ["K7", "K7", "B7"],
        ["R1", "R2", "X"],
        ["*", "K12", "K13"],
    ]
    described = GAME.describe_melds(state, 0, table)
    assert [d["valid"] for d in described] == [True, False, True, True, False, False, True]
    assert described[0]["changed"] is False and described[2]["changed"] is True
    assert described[1]["reason"] == "too_short"
    assert described[2]["kind"] == "group" and described[2]["value"] == 14  # a joker counts 0
    assert described[2]["jokers"] == [{"number": 7, "colours": ["R", "Y"]}]
    assert described[4]["reason"] == "repeated_colour"
    assert described[5]["reason"] == "bad_tile"
    assert described[6]["kind"] == "run" and described[6]["jokers"][0]["number"] == 11
    official = position(options={"initial_meld_joker_value": "REPRESENTED"}, racks=[[], []])
    assert GAME.describe_melds(official, 0, [["K7", "B7", "*"]])[0]["value"] == 21
    with pytest.raises(InvalidMoveError):
        GAME.describe_melds(state, 0, "R1 R2 R3")


def test_arrange_finds_a_table_for_the_chosen_tiles() -> None:
    state = position(table=[["R3", "R4", "R5"]], racks=[["R6", "R2", "K9", "B1"], ["K1"]])
    answer = GAME.arrange(state, 0, ["R6", "R2"])
    assert answer["complete"] is True and sorted(answer["from_hand"]) == ["R2", "R6"]
    assert answer["table"] == [["R2", "R3", "R4", "R5", "R6"]]
    GAME.check(state, 0, play(answer["table"], answer["from_hand"]))
    partial = GAME.arrange(state, 0, ["R6", "K9"])
    assert partial["complete"] is False and partial["from_hand"] == ["R6"]
    assert GAME.arrange(state, 0, ["K9", "B1"]) == {
        "table": None,
        "from_hand": [],
        "complete": False,
    }
    with pytest.raises(IllegalMoveError):
        GAME.arrange(state, 0, ["K13"])  # not on the rack
    with pytest.raises(InvalidMoveError):
        GAME.arrange(state, 0, ["Q1"])
    # not melded yet: an initial meld from the chosen tiles alone
    fresh = position(racks=[["K10", "R10", "B10", "K1"], ["K1"]], melded=[False, False])
    assert GAME.arrange(fresh, 0, ["K10", "R10", "B10"])["table"] == [["K10", "R10", "B10"]]
    assert GAME.arrange(fresh, 0, ["K10", "R10", "K1"])["table"] is None


def test_legal_moves_give_a_cheap_rack_play() -> None:
    state = position(table=[["R3", "R4", "R5"]], racks=[["R6", "K9", "B9", "Y9"], ["K1"]])
    moves = GAME.legal_moves(state, 0)
    assert moves[-1] == Move("draw")
    (rack_play,) = moves[:-1]
    assert rack_play.table[0].tiles == ("R3", "R4", "R5")  # the table as it was
    assert sorted(rack_play.from_hand or ()) == ["B9", "K9", "Y9"]
    GAME.check(state, 0, rack_play)
    best = GAME.best_play(state, 0)
    assert best is not None and len(best.from_hand or ()) == 4  # hint's play adds R6 too
