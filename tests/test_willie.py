"""Willie (SPEC.md section 1): cards, melds and the 1.3 vectors, the turn, closing, the empty
stock, scoring with every tie case of 1.4, options, JSON, views and golden deals."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from tapete.api import handle
from tapete.errors import BadOptionError, BadStateError, IllegalMoveError, InvalidMoveError
from tapete.rng import Rng
from tapete.willie import (
    DECK,
    GAME,
    Move,
    WillieState,
    end_bonuses,
    is_meld,
    meld_problem,
    parse_move,
    score_round,
)

DEFAULTS = GAME.parse_options(None)


def opts(**changes: Any) -> dict[str, Any]:
    return {**DEFAULTS, **changes}


def position(
    hands: list[list[str]],
    table: list[list[str]] | None = None,
    stock: list[str] | None = None,
    **changes: Any,
) -> WillieState:
    """A state of a fresh game with the given hands and table; the stock holds the rest of
    the deck unless given (tests that give it put the rest in a hand themselves)."""
    state = GAME.new_game("POS", changes.pop("options", None), len(hands))
    table = table or []
    used = Counter(c for h in hands for c in h) + Counter(t.split(":")[0] for m in table for t in m)
    rest = list((Counter(DECK) - used).elements())
    if stock is None:
        stock = rest
    return replace(
        state,
        hands=tuple(tuple(h) for h in hands),
        table=tuple(tuple(m) for m in table),
        stock=tuple(stock),
        **changes,
    )


def meld(table: list[list[str]], played: list[str]) -> Move:
    return Move("meld", tuple(tuple(m) for m in table), tuple(played))


def reason(state: WillieState, seat: int, move: Move) -> str | None:
    with pytest.raises(IllegalMoveError) as info:
        GAME.check(state, seat, move)
    return info.value.reason


# -- cards and melds ------------------------------------------------------------------------


def test_deck_is_the_haggis_deck() -> None:
    counts = Counter(DECK)
    assert len(DECK) == 54 and len([c for c in counts if c not in "JQK"]) == 45
    assert counts["J"] == counts["Q"] == counts["K"] == 3
    points = {"J": 2, "Q": 3, "K": 5}
    assert sum(points.get(c, 1) for c in DECK) == 75


# SPEC 1.3 meld vectors, S1..S5 written R O Y G B (section 7)
VALID = [
    ["R8", "Y8", "B8"],  # 8S1 8S3 8S5
    ["Y7", "K:Y8", "Y9"],  # 7S3 W(8S3) 9S3
    ["J", "Q", "K"],
    ["K:O10", "O8", "O9"],  # W(10S2) 8S2 9S2
]
INVALID = [
    (["R8", "O9", "R10"], "mixed_suits"),  # 8S1 9S2 10S1
    (["Y7", "K:Y8", "Q:Y9"], "two_wilds"),  # 7S3 W W
    (["J", "J", "J"], "bad_willie"),
    (["R9", "R10", "J"], "figure_needs_declaration"),  # 9S1 10S1 J
    (["J", "Q", "K", "R10"], "willie_extended"),  # J Q K 10S1
    (["R8", "Y8", "K:Y8"], "duplicate_card"),  # 8S1 8S3 W(8S3)
]


@pytest.mark.parametrize("cards", VALID)
def test_spec_valid_melds(cards: list[str]) -> None:
    assert is_meld(cards)


@pytest.mark.parametrize(("cards", "why"), INVALID)
def test_spec_invalid_melds(cards: list[str], why: str) -> None:
    assert not is_meld(cards)
    problem = meld_problem(cards)
    assert problem is not None and problem[0] == why


@pytest.mark.parametrize(
    ("cards", "why"),
    [
        (["R2", "R3"], "meld_too_short"),
        (["R2", "O2", "Y2", "G2", "B2"], "group_too_large"),
        (["R9", "R10", "K:R2"], "not_consecutive"),  # no wrap-around
        (["R2", "R3", "R5"], "not_consecutive"),
        (["R2", "O2", "O3"], "mixed_ranks"),
        (["J", "Q", "K", "K"], "willie_extended"),
        (["J", "Q"], "bad_willie"),
        (["J", "Q", "K:R5"], "figure_needs_declaration"),
    ],
)
def test_more_invalid_melds(cards: list[str], why: str) -> None:
    problem = meld_problem(cards)
    assert problem is not None and problem[0] == why, problem


def test_meld_options_and_bad_codes() -> None:
    five = ["R2", "O2", "Y2", "G2", "K:B2"]
    assert not is_meld(five) and is_meld(five, {"max_group_size": 5})
    assert not is_meld(["J", "Q", "K"], {"willie_enabled": False})
    assert is_meld(["R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "K:R10"])
    assert not is_meld(["X9", "R2", "R3"]) and not is_meld(["K:K", "R2", "R3"])
    assert is_meld(("B10", "Q:B9", "B8"))  # any order


# -- setup and deals ------------------------------------------------------------------------


def test_deal_sizes_and_rotation() -> None:
    two = GAME.new_game("DEAL", None, 2)
    three = GAME.new_game("DEAL", None, 3)
    assert [len(h) for h in two.hands] == [12, 12] and len(two.stock) == 30
    assert [len(h) for h in three.hands] == [10, 10, 10] and len(three.stock) == 24
    small = GAME.new_game("DEAL", {"hand_size": 8}, 3)
    assert [len(h) for h in small.hands] == [8, 8, 8] and len(small.stock) == 30
    assert two.turn == (two.dealer + 1) % 2 and three.turn == (three.dealer + 1) % 3
    dealers = {GAME.new_game(f"F{i}", None, 3).first_dealer for i in range(20)}
    assert dealers == {0, 1, 2}  # random from the seed
    nxt = GAME.deal_round(three, 2)
    assert nxt.dealer == (three.dealer + 1) % 3 and nxt.turn == (nxt.dealer + 1) % 3


def test_deals_depend_on_seed_and_round_only() -> None:
    state = GAME.new_game("ONLY", None, 2)
    other = replace(state, scores=(20, 3), table=(), hands=((), ()))
    a, b = GAME.deal_round(state, 4), GAME.deal_round(other, 4)
    assert a.hands == b.hands and a.stock == b.stock
    deck = Rng.derive("willie", "ONLY", "round", 4).shuffled(DECK)
    assert set(a.hands[(a.dealer + 1) % 2]) <= set(deck[0::2][:12])


def test_golden_first_deals() -> None:
    def digest(seed: str, players: int) -> str:
        text = json.dumps(
            GAME.to_json(GAME.new_game(seed, None, players)), sort_keys=True, separators=(",", ":")
        )
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    assert digest("K7QX2M", 2) == "62714c4999709087"
    assert digest("A", 3) == "445de3223eed7fd9"
    state = GAME.new_game("WILLIE", None, 2)
    assert state.first_dealer == 1 and state.hands[0][:5] == ("Q", "R8", "G2", "R9", "B4")


# -- options --------------------------------------------------------------------------------


def test_every_knob_is_an_option() -> None:
    names = {spec.name for spec in GAME.options_spec}
    assert names == {
        "hand_size",
        "max_group_size",
        "close_threshold",
        "target_score",
        "two_player_multiplier",
        "undercut_mode",
        "undercut_points",
        "go_out_bonus",
        "end_bonus",
        "round_win_bonus",
        "points_number",
        "points_jack",
        "points_queen",
        "points_king",
        "willie_enabled",
        "freed_wild_must_change_meld",
    }
    assert DEFAULTS["undercut_mode"] == "LITERAL_WINNER_MINUS_5" and DEFAULTS["hand_size"] == 0
    for bad in ({"hand_size": 9}, {"max_group_size": 6}, {"undercut_mode": "X"}, {"nope": 1}):
        with pytest.raises(BadOptionError):
            GAME.new_game("OPT", bad, 2)
    with pytest.raises(BadOptionError):
        GAME.new_game("OPT", None, 4)
    linked = GAME.new_game("OPT", {"close_threshold": "5", "willie_enabled": "false"}, 2)
    assert linked.option["close_threshold"] == 5 and linked.option["willie_enabled"] is False


# -- the turn -------------------------------------------------------------------------------


def test_three_draws_then_the_turn_passes() -> None:
    state = GAME.new_game("TURN", None, 2)
    seat = state.turn
    assert GAME.legal_moves(state, seat) == [Move("draw")]
    size = len(state.hands[seat])
    for draw in (1, 2, 3):
        state = GAME.apply(state, seat, Move("draw"))
        assert len(state.hands[seat]) == size + draw
        if draw < 3:
            assert state.phase == "meld" and state.draws == draw and state.turn == seat
            assert Move("pass") in GAME.legal_moves(state, seat)
            state = GAME.apply(state, seat, Move("pass"))
            assert state.phase == "draw"
    assert state.turn == 1 - seat and state.phase == "draw" and state.draws == 0


def test_wrong_moves_for_the_phase() -> None:
    state = GAME.new_game("WRONG", None, 2)
    seat = state.turn
    assert reason(state, seat, Move("pass")) == "must_draw"
    assert reason(state, seat, Move("close")) == "must_draw"
    state = GAME.apply(state, seat, Move("draw"))
    assert reason(state, seat, Move("draw")) == "no_draw_now"
    assert reason(state, seat, Move("close")) == "cannot_close"
    with pytest.raises(Exception) as info:
        GAME.check(state, 1 - seat, Move("pass"))
    assert getattr(info.value, "code", None) == "not_your_turn"


def test_meld_ends_the_turn() -> None:
    state = position(
        [["R2", "R3", "R4", "B9", "G9", "Y5", "Y7"], ["O2", "O3"]], turn=0, phase="meld", draws=1
    )
    state = GAME.apply(state, 0, meld([["R2", "R3", "R4"]], ["R2", "R3", "R4"]))
    assert state.table == (("R2", "R3", "R4"),) and state.turn == 1 and state.phase == "draw"


def test_close_decision_and_round_end() -> None:
    hands = [["R2", "R3", "R4", "B9", "G9"], ["O2", "O3", "O5", "O7", "Y9", "K"]]
    state = position(hands, turn=0, phase="meld", draws=1)
    state = GAME.apply(state, 0, meld([["R2", "R3", "R4"]], ["R2", "R3", "R4"]))
    assert state.phase == "end_turn" and state.turn == 0
    assert GAME.legal_moves(state, 0) == [Move("close"), Move("continue")]
    assert GAME.view(state, 0)["can_close"] and not GAME.view(state, 1)["can_close"]
    assert reason(state, 0, Move("pass")) == "must_decide_close"
    assert GAME.apply(state, 0, Move("continue")).turn == 1
    closed = GAME.apply(state, 0, Move("close"))
    row = closed.history[-1]
    assert row.end == "close" and row.closer == 0 and row.points == (2, 10)
    assert closed.scores == (16, 0) and closed.round == 2  # 2 x (10 - 2)


def test_above_threshold_no_choice_and_threshold_option() -> None:
    hands = [["R2", "R3", "R4", "B9", "G9", "Y5", "Y7"], ["O2", "O3"]]
    state = position(hands, turn=0, phase="meld", draws=1)
    move = meld([["R2", "R3", "R4"]], ["R2", "R3", "R4"])
    assert GAME.apply(state, 0, move).turn == 1  # 4 points left: no choice
    loose = position(hands, turn=0, phase="meld", draws=1, options={"close_threshold": 4})
    assert GAME.apply(loose, 0, move).phase == "end_turn"


def test_empty_hand_closes_automatically() -> None:
    state = position([["R2", "R3", "R4"], ["O2", "O3", "O7"]], turn=0, phase="meld", draws=1)
    state = GAME.apply(state, 0, meld([["R2", "R3", "R4"]], ["R2", "R3", "R4"]))
    row = state.history[-1]
    assert row.end == "out" and row.closer == 0 and row.went_out == 0
    assert row.score.gains == (2 * 3 + 5, 0)  # difference x 2, go-out bonus


def test_stock_runs_out_then_final_turns() -> None:
    hands = [["R2", "R5", "B9", "G7"], ["O2", "O4", "Y9"], ["B2", "B6", "Y4"]]
    used = {c for h in hands for c in h}
    rest = [c for c in Counter(DECK).elements() if c not in used]
    state = position(hands, stock=rest[:1], turn=1, phase="draw", options={"target_score": 1000})
    # seat 0 holds the rest of the deck, so that all 54 cards stay accounted for
    state = replace(state, hands=(tuple(hands[0] + rest[1:]), *state.hands[1:]))
    state = GAME.apply(state, 1, Move("draw"))
    assert state.stock == () and state.stock_out_by == 1 and state.phase == "meld"
    state = GAME.apply(state, 1, Move("pass"))  # the 2nd draw is due from an empty stock
    assert state.phase == "final" and state.turn == 2 and state.final_left == 3
    assert reason(state, 2, Move("draw")) == "no_draw_now"
    for seat in (2, 0, 1):
        assert state.turn == seat and Move("pass") in GAME.legal_moves(state, seat)
        state = GAME.apply(state, seat, Move("pass"))
    row = state.history[-1]
    assert row.end == "stock" and row.closer is None and state.round == 2


def test_going_out_in_a_final_turn_ends_the_round() -> None:
    hands = [["R2", "R3", "R4"], ["O2", "O4", "Y9"]]
    used = {c for h in hands for c in h}
    rest = [c for c in Counter(DECK).elements() if c not in used]
    state = position(hands, stock=[], turn=0, phase="final", stock_out_by=1, final_left=2)
    state = replace(state, hands=(state.hands[0], tuple(hands[1] + rest)))
    state = GAME.apply(state, 0, meld([["R2", "R3", "R4"]], ["R2", "R3", "R4"]))
    row = state.history[-1]
    assert row.end == "out" and row.went_out == 0 and row.closer is None
    assert row.score.out_bonus == (5, 0)


def test_closing_allowed_after_the_turn_that_empties_the_stock() -> None:
    hands = [["R2", "R3", "R4", "Y9", "O6"], ["O2", "O4", "Y8"]]
    used = {c for h in hands for c in h}
    rest = [c for c in Counter(DECK).elements() if c not in used and c != "B7"]
    state = position(hands, stock=["B7"], turn=0, phase="draw")
    state = replace(state, hands=(state.hands[0], tuple(hands[1] + rest)))
    state = GAME.apply(state, 0, Move("draw"))
    state = GAME.apply(state, 0, meld([["R2", "R3", "R4"]], ["R2", "R3", "R4"]))
    assert state.phase == "end_turn"
    state = GAME.apply(state, 0, Move("continue"))
    assert state.phase == "final" and state.turn == 1 and state.final_left == 2


# -- meld checks ----------------------------------------------------------------------------

TABLE = [["R7", "K:R8", "R9"], ["O5", "Y5", "G5"]]


def meld_state(hand: list[str], table: list[list[str]] | None = None, **o: Any) -> WillieState:
    return position(
        [hand, ["B2"]],
        table=TABLE if table is None else table,
        turn=0,
        phase="meld",
        draws=1,
        options=o or None,
    )


@pytest.mark.parametrize(
    ("new", "played", "why"),
    [
        ([["R7", "K:R8", "R9"], ["O5", "Y5", "G5"]], [], "no_card_from_hand"),
        ([["R7", "K:R8", "R9", "R10"], ["O5", "Y5", "G5"]], ["R10"], "card_not_in_hand"),
        ([["R7", "K:R8", "R9", "B5"]], ["B5"], "table_card_missing"),
        ([["R7", "K:R8", "R9"], ["O5", "Y5", "G5"]], ["B5"], "played_card_missing"),
        ([["R7", "K:R8", "R9"], ["O5", "Y5", "G5", "B5", "R5"]], ["B5"], "unaccounted_card"),
        ([["R6", "R7", "K:R8", "R9", "Q:R10"], ["O5", "Y5", "G5"]], ["R6", "Q"], "two_wilds"),
        (
            [["R7", "K:R8", "R9"], ["O5", "Y5", "G5", "B5"], ["B6", "R6"]],
            ["B5", "B6", "R6"],
            "meld_too_short",
        ),
        ([["R7", "K:B8", "R9"], ["O5", "Y5", "G5", "B5"]], ["B5"], "mixed_suits"),
        ([["R7", "J:R8", "R9"], ["O5", "Y5", "G5", "B5"]], ["B5"], "table_card_missing"),
    ],
)
def test_meld_reasons(new: list[list[str]], played: list[str], why: str) -> None:
    state = meld_state(["B5", "B6", "R6", "Q", "J"])
    assert reason(state, 0, meld(new, played)) == why


def test_bad_meld_names_the_meld() -> None:
    state = meld_state(["B5", "B6", "R6", "Q"])
    move = meld([["R7", "K:R8", "R9"], ["O5", "Y5", "G5", "B6"]], ["B6"])
    with pytest.raises(IllegalMoveError) as info:
        GAME.check(state, 0, move)
    error = info.value.to_json()
    assert error["reason"] == "mixed_ranks" and error["meld"] == 1
    assert error["cards"] == ["O5", "Y5", "G5", "B6"] and "meld 2" in error["message"]


def test_wild_keeps_its_declaration_when_moved() -> None:
    group = meld_state(["B5", "B9"], [["O5", "Y5", "K:G5"]])
    changed = meld([["O5", "Y5", "B5", "K:R5"]], ["B5"])  # the K may not become R5 ...
    assert reason(group, 0, changed) == "wild_changed"
    kept = meld([["O5", "Y5", "B5", "K:G5"]], ["B5"])  # ... it keeps standing for G5
    assert GAME.apply(group, 0, kept).table == (("O5", "Y5", "K:G5", "B5"),)
    table = [["R7", "K:R8", "R9", "R10"], ["O5", "Y5", "G5"]]
    state = meld_state(["R6", "B8", "G8", "Y2"], table)
    hole = meld(
        [["R9", "R10", "R7", "R6"], ["O5", "Y5", "G5"], ["K:R8", "B8", "G8"]], ["R6", "B8", "G8"]
    )
    assert reason(state, 0, hole) == "not_consecutive"  # the wild left a hole
    moved = meld(
        [["R7", "R9", "R10", "K:R8"], ["O5", "Y5", "G5"], ["B8", "G8", "R6"]], ["R6", "B8", "G8"]
    )
    assert reason(state, 0, moved) == "mixed_ranks"
    state = meld_state(["R8", "B8", "G8", "Y2"], table)
    swapped = meld(
        [["R7", "R8", "R9", "R10"], ["O5", "Y5", "G5"], ["K:Y8", "B8", "G8"]], ["R8", "B8", "G8"]
    )
    after = GAME.apply(state, 0, swapped)  # R8 frees the K, which gets a new declaration
    assert ("K:Y8", "G8", "B8") in after.table and after.hands[0] == ("Y2",)
    keep = meld_state(["O2", "O3", "O4", "Y2"], [["R7", "K:R8", "R9"]])
    moved_along = meld([["O2", "O3", "O4"], ["R9", "K:R8", "R7"]], ["O2", "O3", "O4"])
    assert GAME.apply(keep, 0, moved_along).table[1] == ("R7", "K:R8", "R9")


def test_freed_wild_rules() -> None:
    table = [["R7", "K:R8", "R9"], ["O5", "Y5", "G5"]]
    state = meld_state(["R8", "R10", "B3", "B4"], table)
    # the real R8 frees the K, which must be placed again in the same phase
    unplaced = meld([["R7", "R8", "R9"], ["O5", "Y5", "G5"]], ["R8"])
    assert reason(state, 0, unplaced) == "freed_wild_unplaced"
    same_meld = meld([["R7", "R8", "R9", "K:R10"], ["O5", "Y5", "G5"]], ["R8"])
    GAME.check(state, 0, same_meld)  # W-8: "otro" read loosely by default
    strict = meld_state(["R8", "R10", "B3", "B4"], table, freed_wild_must_change_meld=True)
    assert reason(strict, 0, same_meld) == "freed_wild_same_meld"
    elsewhere = meld(
        [["R7", "R8", "R9"], ["O5", "Y5", "G5"], ["B3", "B4", "K:B5"]], ["R8", "B3", "B4"]
    )
    GAME.check(strict, 0, elsewhere)
    # without the real card, a wild may not join a Willie (W-5)
    willie = meld_state(["J", "J", "Q", "B3"], [["R7", "K:R8", "R9"]])
    stolen = meld([["R7", "J:R8", "R9"], ["K", "Q", "J"]], ["J", "J", "Q"])
    assert reason(willie, 0, stolen) == "wild_not_freed"


def test_breaking_a_willie_frees_its_figures() -> None:
    state = meld_state(["R2", "R3", "O2", "O3", "Y2", "Y3", "B9"], [["J", "Q", "K"]])
    move = meld(
        [["R2", "R3", "J:R4"], ["O2", "O3", "Q:O4"], ["Y2", "Y3", "K:Y4"]],
        ["R2", "R3", "O2", "O3", "Y2", "Y3"],
    )
    after = GAME.apply(state, 0, move)
    assert len(after.table) == 3 and after.hands[0] == ("B9",)


def test_meld_move_json() -> None:
    data = {"play": {"table": [["R7", "K:R8", "R9"]], "from_hand": ["K"]}}
    move = parse_move(data)
    assert move == meld([["R7", "K:R8", "R9"]], ["K"]) and move.to_json() == data
    assert parse_move("pass_meld") == Move("pass") and parse_move("close") == Move("close")
    declared = {"play": {"table": [["R7", "K:R8", "R9"]], "from_hand": ["K:R8"]}}
    assert parse_move(declared) == move  # a declaration in from_hand names the figure
    for bad in (
        "jump",
        3,
        {"kind": "meld", "table": [["R7", "K:R8", "R9"]], "from_hand": ["K"]},
        {"play": {"table": [["R7", "X"]], "from_hand": []}},
        {"play": {"table": "R7", "from_hand": []}},
        {"play": {"table": [], "from_hand": ["K:X7"]}},
        {"play": {"table": [], "from_hand": ["R7:K"]}},
        {"play": {"table": [], "from_hand": [], "extra": 1}},
        {"play": {"from_hand": ["R7"]}},
        {"play": [], "draw": True},
        {"draw": True},
    ):
        with pytest.raises(InvalidMoveError):
            parse_move(bad)


def test_from_hand_may_be_left_out() -> None:
    """Without ``from_hand`` the played cards are the new table's cards beyond the old one's."""
    state = meld_state(["R5", "K", "B9"], [["R2", "R3", "R4"]])
    data = {"play": {"table": [["R2", "R3", "R4", "R5", "K:R6"]]}}
    move = parse_move(data)
    assert move.from_hand is None and move.to_json() == data
    after = GAME.apply(state, 0, move)
    assert after.hands[0] == ("B9",) and after.table == (("R2", "R3", "R4", "R5", "K:R6"),)
    with pytest.raises(IllegalMoveError) as caught:  # a card taken off the table is refused
        GAME.apply(state, 0, parse_move({"play": {"table": [["R2", "R3", "R5", "K:R4"]]}}))
    assert caught.value.reason == "table_card_missing"


# -- scoring (SPEC 1.3 examples; rulings W-15..W-21) ----------------------------------------


def gains(points: list[int], closer: int | None, **o: Any) -> tuple[int, ...]:
    empty = [p == 0 for p in points]
    return score_round(points, closer, empty, opts(**o)).gains


def test_spec_worked_examples() -> None:
    assert gains([3, 9], 0) == (12, 0)
    assert gains([3, 2], 0) == (0, -3)
    assert gains([3, 2], 0, undercut_mode="WINNER_PLUS_5") == (0, 7)
    assert gains([3, 2], 0, undercut_mode="CLOSER_MINUS_5") == (-5, 2)
    assert gains([0, 6, 4], 0) == (15, 0, 0)


def test_tie_cases() -> None:
    # W-17: the closer ties one player: the other player wins, with the adjustment
    tie = score_round([3, 3], 0, [False, False], opts())
    assert tie.winners == (1,) and tie.undercut and tie.gains == (0, -5)
    # W-17: the closer ties several: all of them win; co-winners differ by 0
    several = score_round([2, 2, 2], 1, [False] * 3, opts())
    assert several.winners == (0, 2) and several.gains == (-5, 0, -5)
    mixed = score_round([2, 2, 7], 0, [False] * 3, opts())
    assert mixed.winners == (1,) and mixed.gains == (0, 5 - 5, 0)
    three_way = score_round([2, 2, 7], 2, [False] * 3, opts())
    assert three_way.winners == (0, 1) and three_way.gains == (5 - 5, 5 - 5, 0)
    # W-18: no closer (the stock ran out): tied players all win, no adjustment
    stock = score_round([4, 4, 9], None, [False] * 3, opts())
    assert stock.winners == (0, 1) and not stock.undercut and stock.gains == (5, 5, 0)
    assert score_round([5, 5], None, [False] * 2, opts()).gains == (0, 0)
    # W-15: an empty hand always wins alone and gets the go-out bonus
    assert gains([0, 1, 1], 0) == (2 + 5, 0, 0)
    # W-21: losers score 0; the literal undercut can make a winner lose points
    assert gains([3, 1], 0) == (0, 4 - 5)
    assert gains([3, 1], 0, undercut_points=0) == (0, 4)
    assert gains([3, 1], 0, two_player_multiplier=3) == (0, 6 - 5)
    assert gains([1, 9, 9], 0, go_out_bonus=9) == (16, 0, 0)


def test_end_of_game_bonuses() -> None:
    assert end_bonuses([24, 20], [3, 2], opts()) is None
    assert end_bonuses([25, 20], [3, 2], opts()) == (10, 10)
    assert end_bonuses([30, 26, 4], [2, 2, 1], opts()) == (10, 10, 5)
    assert end_bonuses([12, 0], [1, 0], opts(target_score=10, end_bonus=3)) == (3, 0)


def test_game_end_and_draw() -> None:
    state = position(
        [["R2", "R3", "R4"], ["O2", "O3", "O7"]],
        turn=0,
        phase="meld",
        draws=1,
        scores=(20, 18),
        rounds_won=(2, 3),
    )
    state = replace(state, history=tuple(), round=1)
    state = GAME.apply(state, 0, meld([["R2", "R3", "R4"]], ["R2", "R3", "R4"]))
    assert state.phase == "over" and GAME.to_move(state) is None
    assert state.scores == (31, 18) and state.bonuses == (10, 15)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.scores == (41.0, 33.0) and outcome.winners == (0,)
    tied = replace(state, scores=(26, 21), bonuses=(10, 15))
    assert GAME.outcome(tied).winners == (0, 1)  # type: ignore[union-attr]


# -- views, worlds, JSON --------------------------------------------------------------------


def test_view_hides_other_hand_and_stock() -> None:
    state = GAME.new_game("VIEW", None, 2)
    view = GAME.view(state, 0)
    assert view["hand"] == list(state.hands[0]) and view["hand_sizes"] == [12, 12]
    assert view["stock_size"] == 30 and "stock" not in view
    assert GAME.view(state, None)["hand"] == []
    assert len(GAME.seat_cards(state)) == 54
    assert Counter(GAME.hidden_cards(state, 0)) == Counter(state.hands[1]) + Counter(state.stock)
    world = GAME.sample_world(state, 0, Rng(5))
    assert GAME.view(world, 0) == view and world.hands[1] != state.hands[1]
    assert Counter(GAME.seat_cards(world)) == Counter(DECK)


@pytest.mark.parametrize("level", ["random", "easy", "normal"])
def test_many_seeds_keep_every_card(level: str) -> None:
    from tapete.bots import choose_move

    for i in range(14):
        state = GAME.new_game(f"M{i}", {"hand_size": (0, 8, 10, 12)[i % 4]}, 2 + i % 2)
        steps = 0
        while (seat := GAME.to_move(state)) is not None:
            assert Counter(GAME.seat_cards(state)) == Counter(DECK)
            if steps % 3 == 0:
                assert GAME.from_json(json.loads(json.dumps(GAME.to_json(state)))) == state
            state = GAME.apply(state, seat, choose_move(GAME, state, seat, level, (i, steps)))
            steps += 1
        assert GAME.outcome(state) is not None and Counter(GAME.seat_cards(state)) == Counter(DECK)


def test_json_roundtrip_and_bad_states() -> None:
    state = GAME.new_game("JSON", {"max_group_size": 5}, 3)
    data = GAME.to_json(state)
    assert GAME.from_json(json.loads(json.dumps(data))) == state

    def path_of(change: Any) -> str:
        broken = json.loads(json.dumps(data))
        change(broken)
        with pytest.raises(BadStateError) as info:
            GAME.from_json(broken)
        return str(info.value.details["path"])

    assert path_of(lambda d: d["hands"][0].pop()) == "$"
    assert path_of(lambda d: d.update(phase="dance")) == "$.phase"
    assert path_of(lambda d: d["stock"].__setitem__(0, "Z9")) == "$.stock[0]"
    assert path_of(lambda d: d.update(draws=7)) == "$.draws"
    assert path_of(lambda d: d["options"].update(hand_size=9)) == "$.options"
    assert path_of(lambda d: d.update(v=2)) == "$.v"

    def bad_meld(d: dict[str, Any]) -> None:
        cards = [d["stock"].pop(), d["stock"].pop(), d["stock"].pop()]
        d["table"].append(cards)

    assert path_of(bad_meld).startswith("$.table[0]") or path_of(bad_meld) == "$"


def test_api_round_trip_with_a_meld() -> None:
    def call(**request: Any) -> Any:
        answer = json.loads(handle(json.dumps(request)))
        assert answer["ok"], answer
        return answer["result"]

    snap = call(op="new_game", game="willie", seed="APIW", players=2, view_seat=0)
    seat = snap["to_move"]
    snap = call(
        op="apply", game="willie", state=snap["state"], seat=seat, move="draw", view_seat=seat
    )
    assert snap["view"]["draws"] == 1 and "pass" in snap["legal_moves"]
    melds = [m for m in snap["legal_moves"] if isinstance(m, dict)]
    if melds:
        after = call(op="apply", game="willie", state=snap["state"], seat=seat, move=melds[0])
        assert after["to_move"] != seat or after["state"]["phase"] in ("end_turn", "draw")
    hint = call(op="hint", game="willie", state=snap["state"], seat=seat)
    assert "move" in hint
    bad = json.loads(
        handle(
            json.dumps(
                {
                    "op": "apply",
                    "game": "willie",
                    "state": snap["state"],
                    "seat": seat,
                    "move": {"play": {"table": [["R2", "R3"]], "from_hand": []}},
                }
            )
        )
    )
    assert not bad["ok"] and bad["error"]["code"] == "illegal_move"
