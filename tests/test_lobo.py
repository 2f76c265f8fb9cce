"""Lobo: The Vanguard: the test vectors of SPEC.md 4.3, the rulings of 4.4, the options of 4.5,
move text, checks with reasons, and saved states."""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace

import pytest

from tapete.errors import (
    BadOptionError,
    BadStateError,
    GameOverError,
    IllegalMoveError,
    InvalidMoveError,
)
from tapete.lobo import GAME, Rules, make_position, parse_move
from tapete.lobo import rules as R
from tapete.lobo.cards import MEMBERS, deck

CHOICE_STATE = R.CHOICE


def play(state: R.LoboState, text: str) -> R.LoboState:
    return GAME.apply(state, 0, parse_move(text))


def reason(state: R.LoboState, text: str) -> str | None:
    with pytest.raises(IllegalMoveError) as caught:
        GAME.check(state, 0, parse_move(text))
    return caught.value.reason


def between_rounds(pile: list[str], rules: Rules | None = None, **kw: object) -> R.LoboState:
    """A won round waiting for the choice: ``skip`` deals the next round from ``pile``."""
    return make_position(hand=["2H"], wolf=[], pile=pile, rules=rules, phase=R.CHOICE, **kw)  # type: ignore[arg-type]


FILLER = [c for c in deck(9, 4) if c not in ("2H",)]


# -- SPEC 4.3 test vectors -------------------------------------------------------------------


def test_over_7_on_6_gives_the_wolf_one_card() -> None:
    state = make_position(hand=["7H", "2C"], wolf=["6C", "9D"], pile=["AS", "3D", "4D"])
    after = play(state, "over 7H>6C")
    assert after.wolf == ("AS", "9D")
    assert after.pile == ("3D", "4D")
    assert after.hand == ("2C",)
    assert set(after.discard) >= {"7H", "6C"}


def test_split_9_takes_6_2_ace_and_the_wolf_draws_one() -> None:
    state = make_position(hand=["9H", "3C"], wolf=["6S", "2D", "AC", "8D"], pile=["5S", "4D"])
    after = play(state, "split 9H>6S+2D+AC")
    assert after.wolf == ("5S", "8D")
    assert after.pile == ("4D",)
    assert after.hand == ("3C",)


def test_sum_4_plus_2_takes_a_6_and_the_player_draws() -> None:
    state = make_position(hand=["4H", "2C", "9S"], wolf=["6D", "8S"], pile=["7C", "5D"])
    after = play(state, "sum 4H+2C>6D")
    assert after.hand == ("7C", "9S")
    assert after.wolf == ("8S",)
    assert after.pile == ("5D",)


def test_losing_with_two_wolf_cards_turns_j_and_q_face_down() -> None:
    state = make_position(hand=["2C"], wolf=["9D", "8S"], pile=FILLER[:20])
    after = play(state, "fold")
    assert after.members == (False, False, True)
    assert after.history[-1].members_lost == 2 and not after.history[-1].won
    assert after.round == 2 and after.phase == R.PLAY


def test_final_round_rejects_over_and_split() -> None:
    state = make_position(hand=["9H", "7H"], wolf=["6S", "3D", "6C"], pile=[], final=True)
    assert reason(state, "over 7H>6S") == "final_round_forbidden"
    assert reason(state, "split 9H>6S+3D") == "final_round_forbidden"
    kinds = {m.kind for m in GAME.legal_moves(state, 0)}
    assert "over" not in kinds and "split" not in kinds


def test_final_win_with_3_and_5_and_two_members_scores_28() -> None:
    state = make_position(
        hand=["3C", "5D", "7H"], wolf=["7S"], pile=[], members=(False, True, True), final=True
    )
    after = play(state, "perfect 7H>7S")
    assert after.phase == R.OVER and after.result == "won"
    outcome = GAME.outcome(after)
    assert outcome is not None
    assert outcome.scores == (28.0,) and outcome.winners == (0,)
    assert outcome.detail["score_parts"] == {"hand": 8, "members": 20, "reserve": 0, "score": 28}


# -- rulings of SPEC 4.4 ---------------------------------------------------------------------


def test_v4_the_capture_that_empties_the_wolf_still_draws() -> None:
    state = make_position(hand=["7H", "2C"], wolf=["7S"], pile=["5D", "9C", "AH"])
    after = play(state, "perfect 7H>7S")
    assert after.phase == R.CHOICE
    assert after.hand == ("2C", "5D")
    assert "reserve 5D" in [m.text() for m in GAME.legal_moves(after, 0)]


def test_v4_drawing_the_last_card_makes_the_winning_round_final() -> None:
    state = make_position(hand=["7H", "2C"], wolf=["7S"], pile=["5D"])
    after = play(state, "perfect 7H>7S")
    assert after.phase == R.OVER and after.result == "won"
    assert GAME.outcome(after).scores == (37.0,)  # 2 + 5 + 3 members


def test_v5_split_and_over_need_enough_cards_in_the_pile() -> None:
    state = make_position(hand=["9H", "8C"], wolf=["6S", "3D", "5C"], pile=["AS", "2S"])
    assert reason(state, "over 8C>5C") == "not_enough_cards"  # needs 3, 2 left
    with pytest.raises(IllegalMoveError) as caught:
        GAME.check(state, 0, parse_move("over 9H>6S"))
    assert caught.value.details == {"needed": 3, "left": 2}
    assert "3 cards but the pile has 2" in caught.value.message
    play(state, "over 8C>6S")  # 2 is fine
    play(state, "split 9H>6S+3D")


def test_v5_in_classic_too_and_an_empty_pile_draws_nothing() -> None:
    rules = Rules(mode=R.CLASSIC)
    state = make_position(hand=["9H", "4C"], wolf=["6S", "3D", "4D"], pile=[], rules=rules)
    assert reason(state, "split 9H>6S+3D") == "not_enough_cards"
    assert reason(state, "over 9H>6S") == "not_enough_cards"
    after = play(state, "perfect 4C>4D")
    assert after.hand == ("9H",) and after.pile == () and not after.final


def test_v9_choice_offers_reserve_only_with_cards_and_revive_only_when_one_is_down() -> None:
    state = make_position(hand=["7H", "2C"], wolf=["7S"], pile=FILLER[:15])
    won = play(state, "perfect 7H>7S")
    texts = [m.text() for m in GAME.legal_moves(won, 0)]
    assert not any(t.startswith("revive") for t in texts)
    assert texts[-1] == "skip" and sum(t.startswith("reserve") for t in texts) == len(won.hand)
    down = replace(won, members=(True, False, False))
    texts = [m.text() for m in GAME.legal_moves(down, 0)]
    assert "revive QS" in texts and "revive KS" in texts and "revive JS" not in texts
    assert reason(down, "revive JS") == "member_already_active"
    empty = replace(down, hand=(), discard=down.discard + down.hand)
    assert [m.text() for m in GAME.legal_moves(empty, 0)] == ["revive QS", "revive KS", "skip"]


def test_v9_choices_take_effect_and_deal_the_next_round() -> None:
    state = between_rounds(FILLER[:20], members=(True, False, True))
    banked = play(state, "reserve 2H")
    assert banked.reserve == ("2H",) and banked.round == 2 and len(banked.hand) == 4
    revived = play(state, "revive QS")
    assert revived.members == (True, True, True) and "2H" in revived.discard
    skipped = play(state, "skip")
    assert skipped.members == (True, False, True) and skipped.reserve == ()


def test_v12_before_deal_a_round_starting_with_8_cards_is_final() -> None:
    at_eight = play(between_rounds(FILLER[:8]), "skip")
    assert at_eight.final and at_eight.pile == ()
    at_nine = play(between_rounds(FILLER[:9]), "skip")
    assert not at_nine.final and len(at_nine.pile) == 1


def test_v12_after_deal_counts_what_is_left_after_dealing() -> None:
    rules = Rules(final_trigger=R.AFTER_DEAL)
    at_sixteen = play(between_rounds(FILLER[:16], rules), "skip")
    assert at_sixteen.final and len(at_sixteen.pile) == 8
    at_seventeen = play(between_rounds(FILLER[:17], rules), "skip")
    assert not at_seventeen.final and len(at_seventeen.pile) == 9
    # in that final round the 8 cards left are never drawn
    perfects = [m for m in GAME.legal_moves(at_sixteen, 0) if m.kind in ("perfect", "sum")]
    for move in perfects:
        assert GAME.apply(at_sixteen, 0, move).pile == at_sixteen.pile
    at_eight = play(between_rounds(FILLER[:8], rules), "skip")  # short deal: nothing left
    assert at_eight.final and at_eight.pile == ()


def test_v12_a_pile_running_out_mid_round_makes_the_round_final() -> None:
    state = make_position(hand=["9H", "8C", "4D"], wolf=["6S", "3D", "5C"], pile=["AS", "2S", "7C"])
    assert not state.final
    after = play(state, "over 9H>6S")  # the Wolf draws all three
    assert after.final and after.pile == ()
    assert reason(after, "split 8C>5C+3D") == "final_round_forbidden"
    assert "sacrifice JS>7C" in [m.text() for m in GAME.legal_moves(after, 0)]


def test_v13_short_deal_alternates_wolf_first() -> None:
    pile = ["AS", "2S", "3S", "4S", "5S"]
    state = play(between_rounds(pile), "skip")
    assert state.wolf == ("AS", "3S", "5S") and state.hand == ("2S", "4S") and state.final
    other = play(between_rounds(pile, Rules(short_deal_order=R.PLAYER_FIRST)), "skip")
    assert other.hand == ("AS", "3S", "5S") and other.wolf == ("2S", "4S")


def test_v13_player_first_with_one_card_left_wins_at_once() -> None:
    state = play(between_rounds(["AS"], Rules(short_deal_order=R.PLAYER_FIRST)), "skip")
    assert state.phase == R.OVER and state.result == "won"
    assert GAME.outcome(state).scores == (31.0,)


def test_v15_reserve_cards_do_not_score_unless_the_option_says_so() -> None:
    for counted, expected in ((False, 33.0), (True, 42.0)):
        rules = Rules(score_includes_reserve=counted)
        state = make_position(
            hand=["3C", "7H"], wolf=["7S"], pile=[], reserve=["9D"], final=True, rules=rules
        )
        assert GAME.outcome(play(state, "perfect 7H>7S")).scores == (expected,)


def test_v16_a_fold_in_the_final_round_loses_the_game() -> None:
    state = make_position(hand=["3C"], wolf=["7S"], pile=[], final=True)
    after = play(state, "fold")
    assert after.phase == R.OVER and after.result == "lost"
    outcome = GAME.outcome(after)
    assert outcome.winners == () and outcome.scores == (0.0,)
    with pytest.raises(GameOverError):
        GAME.check(after, 0, parse_move("fold"))


def test_losing_the_last_member_loses_the_game() -> None:
    state = make_position(hand=["2C"], wolf=["9D"], pile=FILLER[:20], members=(False, False, True))
    after = play(state, "fold")
    assert after.result == "lost" and after.members == (False, False, False)


# -- the final round: sacrifice and wild reserve cards --------------------------------------


def test_sacrifice_needs_two_active_members_and_turns_one_down() -> None:
    state = make_position(hand=["2C"], wolf=["9D", "8S"], pile=[], final=True)
    after = play(state, "sacrifice QS>9D")
    assert after.members == (True, False, True) and after.wolf == ("8S",)
    assert "9D" in after.discard and "QS" not in after.discard
    assert reason(after, "sacrifice QS>8S") == "member_not_active"
    last = play(after, "sacrifice JS>8S")
    assert last.result == "won" and GAME.outcome(last).scores == (12.0,)
    one = replace(after, members=(False, False, True))
    assert reason(one, "sacrifice KS>8S") == "must_keep_a_member"
    assert not any(m.kind == "sacrifice" for m in GAME.legal_moves(one, 0))


def test_sacrifice_only_in_the_final_round() -> None:
    state = make_position(hand=["2C"], wolf=["9D"], pile=FILLER[:5])
    assert reason(state, "sacrifice JS>9D") == "not_final_round"


def test_reserve_cards_play_as_hand_cards_and_are_wild_only_with_the_option() -> None:
    state = make_position(hand=["2C"], wolf=["9D", "6H"], pile=FILLER[:9], reserve=["4S"])
    after = play(state, "sum 4S+2C>6H")
    assert after.reserve == () and len(after.hand) == 1
    final = make_position(hand=["2C"], wolf=["9D"], pile=[], reserve=["4S"], final=True)
    assert reason(final, "wild 4S>9D") == "reserve_not_wild"
    wild = replace(final, rules=Rules(reserve_is_wild_in_final=True))
    assert "wild 4S>9D" in [m.text() for m in GAME.legal_moves(wild, 0)]
    done = play(wild, "wild 4S>9D")
    assert done.result == "won" and "4S" in done.discard
    assert reason(wild, "wild 2C>9D") == "card_not_available"


# -- checks: reasons and messages ------------------------------------------------------------


def test_check_explains_arithmetic() -> None:
    state = make_position(hand=["4H", "3C", "9S", "6D"], wolf=["8D", "7S", "2S"], pile=FILLER[:10])
    with pytest.raises(IllegalMoveError) as caught:
        GAME.check(state, 0, parse_move("sum 4H+3C>8D"))
    assert caught.value.reason == "sum_mismatch"
    assert caught.value.message == "4 + 3 is 7, not 8"
    assert caught.value.details == {"total": 7, "target": 8, "sum": "4 + 3", "values": [4, 3]}
    assert reason(state, "perfect 9S>8D") == "rank_mismatch"
    assert reason(state, "over 4H>8D") == "not_over"
    with pytest.raises(IllegalMoveError) as split:
        GAME.check(state, 0, parse_move("split 9S>7S+8D"))
    assert split.value.reason == "split_mismatch" and split.value.message == "8 + 7 is 15, not 9"
    assert split.value.details == {"total": 15, "target": 9, "sum": "8 + 7", "values": [8, 7]}
    # through the API too: the page builds "4 + 3 is 7, not 8" from these fields
    assert caught.value.to_json()["sum"] == "4 + 3" and caught.value.to_json()["total"] == 7
    assert reason(state, "sum 9S>8D") == "wrong_card_count"
    assert reason(state, "perfect 4H+3C>7S") == "wrong_card_count"
    assert reason(state, "split 9S>7S") == "wrong_card_count"
    assert reason(state, "perfect 5H>5S") == "card_not_available"
    assert reason(state, "reserve 4H") == "no_choice_now"


def test_card_not_available_says_where() -> None:
    state = make_position(hand=["4H"], wolf=["4D"], pile=FILLER[:10])
    with pytest.raises(IllegalMoveError) as caught:
        GAME.check(state, 0, parse_move("perfect 4H>4C"))
    assert caught.value.details == {"card": "4C", "where": "wolf"}
    with pytest.raises(IllegalMoveError) as caught:
        GAME.check(state, 0, parse_move("perfect 4S>4D"))
    assert caught.value.details == {"card": "4S", "where": "hand"}


def test_a_capture_during_the_choice_is_refused() -> None:
    state = between_rounds(FILLER[:20])
    assert reason(state, "fold") == "choice_pending"
    assert reason(state, "perfect 2H>2C") == "choice_pending"
    assert reason(state, "reserve 9S") == "card_not_available"


def test_classic_has_no_party_and_no_choices() -> None:
    state = GAME.new_game("CLASSIC", {"mode": "CLASSIC_LOBO"})
    assert state.members == ()
    assert reason(state, "revive QS") == "not_in_classic"
    assert reason(state, "sacrifice JS>" + state.wolf[0]) == "not_in_classic"


# -- move text --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "perfect 7H>7S",
        "sum 4H+2C>6D",
        "split 9H>6S+2D+AC",
        "over 7H>6C",
        "fold",
        "sacrifice JS>8D",
        "wild 5H>8D",
        "reserve 5H",
        "revive QS",
        "skip",
        "perfect 10H>10V",
    ],
)
def test_move_text_round_trips(text: str) -> None:
    move = parse_move(text)
    assert GAME.move_to_json(move) == text
    assert parse_move(GAME.move_to_json(move)) == move


def test_move_sides_are_put_in_canonical_order() -> None:
    assert parse_move("sum 2C+4H>6D").text() == "sum 4H+2C>6D"
    assert parse_move("split 9H>AC+2D+6S").text() == "split 9H>6S+2D+AC"
    assert parse_move("  SUM 2C + 4H > 6D ").text() == "sum 4H+2C>6D"


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "   ",
        "perfect",
        "perfect 7H",
        "perfect 7H>",
        "perfect >7H",
        "hop 7H>7S",
        "7H+2C>7S+AS",
        ">",
        "7H>",
        ">7S",
        "JS>QS",
        "7H 7S",
        "perfect 7X>7S",
        "perfect 1H>AS",
        "perfect 11H>AS",
        "perfect 7h>7S",
        "perfect JS>7S",
        "sum 4H+4H>8D",
        "sacrifice 7H>7S",
        "sacrifice JS+QS>7S",
        "revive 5H",
        "reserve JS",
        "fold now",
        "skip 5H",
        "reserve",
        "reserve 5H 6H",
        "sum 4H++2C>6D",
        "x" * 500,
        None,
        3,
        ["perfect 7H>7S"],
        {"move": "fold"},
    ],
)
def test_malformed_moves_are_invalid(bad: object) -> None:
    with pytest.raises(InvalidMoveError) as caught:
        parse_move(bad)
    assert caught.value.code == "invalid_move"


def test_a_selection_without_a_name_is_read_as_its_capture() -> None:
    assert parse_move("7H>7S").text() == "perfect 7H>7S"
    assert parse_move("2C+4H>6D").text() == "sum 4H+2C>6D"
    assert parse_move("9H>AC+2D+6S").text() == "split 9H>6S+2D+AC"
    assert parse_move("7H>6C").text() == "over 7H>6C"
    assert parse_move("QS>8D").text() == "sacrifice QS>8D"
    state = make_position(hand=["3H"], wolf=["7S"], pile=FILLER[:10])
    assert reason(state, "3H>7S") == "not_over"


def test_invalid_move_quotes_the_text() -> None:
    with pytest.raises(InvalidMoveError) as caught:
        parse_move("perfect 7X>7S")
    assert "7X" in caught.value.message


# -- options ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "difficulty", "suits", "size", "pile"),
    [
        ("VANGUARD", "EASY", 4, 32, 24),
        ("VANGUARD", "STANDARD", 4, 36, 28),
        ("VANGUARD", "HARD", 4, 40, 32),
        ("CLASSIC_LOBO", "HARD", 5, 50, 42),
    ],
)
def test_difficulty_and_suits_make_the_deck(
    mode: str, difficulty: str, suits: int, size: int, pile: int
) -> None:
    state = GAME.new_game("DECK", {"mode": mode, "difficulty": difficulty, "suits": suits})
    assert len(state.rules.deck) == size
    assert len(state.pile) == pile and len(state.hand) == 4 and len(state.wolf) == 4
    cards = GAME.seat_cards(state)
    members = [] if mode == "CLASSIC_LOBO" else list(MEMBERS)
    assert sorted(cards) == sorted([*state.rules.deck, *members])
    if suits == 5:
        assert "10V" in cards


def test_five_suits_are_for_classic_lobo_only() -> None:
    """SPEC.md 4.5: the Postas/Vines deck is for Classic Lobo; the Vanguard refuses it, as an
    option and in a saved state."""
    with pytest.raises(BadOptionError) as refused:
        GAME.new_game("DECK", {"suits": 5})
    assert refused.value.details["option"] == "suits"
    data = GAME.to_json(GAME.new_game("DECK", {"mode": "CLASSIC_LOBO", "suits": 5}))
    data["options"]["mode"] = "VANGUARD"
    with pytest.raises(BadStateError):
        GAME.from_json(data)


@pytest.mark.parametrize(
    "options",
    [
        {"mode": "LOBO"},
        {"difficulty": "EXPERT"},
        {"suits": 3},
        {"suits": 6},
        {"suits": "four"},
        {"final_trigger": "NEVER"},
        {"short_deal_order": "RANDOM"},
        {"reserve_is_wild_in_final": "maybe"},
        {"score_includes_reserve": 2},
        {"classic_target": 0},
        {"classic_target": 10**7},
        {"classic_target": True},
        {"jokers": True},
        "EASY",
        [1],
    ],
)
def test_bad_options(options: object) -> None:
    with pytest.raises(BadOptionError):
        GAME.new_game("OPT", options)  # type: ignore[arg-type]


def test_bad_seed_and_player_count() -> None:
    with pytest.raises(BadOptionError):
        GAME.new_game("bad seed!")
    with pytest.raises(BadOptionError):
        GAME.new_game("OK", None, 2)


def test_the_deck_is_fixed_by_the_seed_alone() -> None:
    a = GAME.new_game("SAME")
    assert GAME.to_json(a) == GAME.to_json(GAME.new_game("SAME"))
    assert a.pile != GAME.new_game("OTHER").pile
    # whatever is played, the cards come off the same deck order
    greedy = GAME.new_game("SAME")
    dealt = [*a.wolf, *a.hand, *a.pile]
    order = R.shuffled_deck("SAME", a.rules, 1)
    assert sorted(dealt) == sorted(order) and a.pile == order[8:]
    assert greedy.pile == order[8:]


def test_classic_reshuffles_each_round_from_the_seed_and_round() -> None:
    state = GAME.new_game("RACE", {"mode": "CLASSIC_LOBO"})
    assert state.pile == R.shuffled_deck("RACE", state.rules, 1)[8:]
    after = play(state, "fold")
    assert after.round == 2 and after.scores[1] > 0
    assert after.pile == R.shuffled_deck("RACE", state.rules, 2)[8:]
    assert after.discard == ()


def test_classic_race_to_the_target() -> None:
    state = GAME.new_game("RACE", {"mode": "CLASSIC_LOBO", "classic_target": 10})
    while state.phase != R.OVER:
        state = play(state, "fold")
    assert state.result == "lost" and state.scores[1] >= 10
    outcome = GAME.outcome(state)
    assert outcome.winners == () and outcome.detail["wolf_score"] == state.scores[1]
    rules = Rules(mode=R.CLASSIC, classic_target=10)
    won = make_position(hand=["7H", "9C"], wolf=["7S"], pile=["2D", "5C"], rules=rules)
    after = play(won, "perfect 7H>7S")
    assert after.result == "won" and after.scores == (11, 0)  # 9 + the 2 drawn
    assert GAME.outcome(after).winners == (0,)


def test_first_deals_are_pinned() -> None:
    """A shared link must deal the same cards forever (see tests/test_golden.py)."""
    state = GAME.new_game("K7QX2M")
    assert state.wolf == GOLDEN_K7QX2M["wolf"] and state.hand == GOLDEN_K7QX2M["hand"]
    assert state.pile[:4] == GOLDEN_K7QX2M["pile4"]
    for (seed, difficulty), digest in GOLDEN_DIGESTS.items():
        data = GAME.to_json(GAME.new_game(seed, {"difficulty": difficulty}))
        text = json.dumps(data, sort_keys=True, separators=(",", ":"))
        assert hashlib.sha256(text.encode()).hexdigest()[:16] == digest, (seed, difficulty)


GOLDEN_K7QX2M: dict[str, tuple[str, ...]] = {
    "wolf": ("AD", "2D", "2C", "9S"),
    "hand": ("3C", "4S", "7C", "9D"),
    "pile4": ("4H", "6C", "8S", "6S"),
}
GOLDEN_DIGESTS: dict[tuple[str, str], str] = {
    ("K7QX2M", "STANDARD"): "1bd13d9c6fccefbb",
    ("A", "EASY"): "e052ffe957834a81",
    ("zz-9_", "HARD"): "ff0df2c5f2c280b8",
    ("LINK", "STANDARD"): "81086da50740fc66",
}


def test_classic_first_deal_is_pinned() -> None:
    data = GAME.to_json(GAME.new_game("K7QX2M", {"mode": "CLASSIC_LOBO", "suits": 5}))
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    assert hashlib.sha256(text.encode()).hexdigest()[:16] == "e2947518e5c1ce09"
