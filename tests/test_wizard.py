"""Wizard: every test vector of SPEC.md 2.2 and the rulings of 2.3, plus the options of 2.4."""

from __future__ import annotations

import ast
import copy
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tapete.bots import choose_move
from tapete.errors import (
    BadOptionError,
    BadStateError,
    IllegalMoveError,
    InvalidMoveError,
    NotYourTurnError,
)
from tapete.wizard import DECK, GAME, Move, WizardState, legal_cards, round_points, trick_winner
from tapete.wizard.cards import is_jester, is_wizard, suit_of
from tapete.wizard.game import choices

# -- trick vectors (SPEC 2.2) ---------------------------------------------------------------


def test_jester_then_wizard_wins_and_frees_the_third_player() -> None:
    assert trick_winner(["N1", "Z1", "R5"], None) == 1
    # the third player holds hearts-like red and still may play anything after the Wizard
    assert legal_cards(["R5", "B2", "N2"], ["N1", "Z1"]) == ["R5", "B2", "N2"]


def test_all_jesters_first_wins() -> None:
    assert trick_winner(["N1", "N2", "N3"], "R") == 0


def test_after_a_jester_lead_the_next_card_sets_the_suit() -> None:
    assert legal_cards(["G3", "B9", "Z2", "N4"], ["N1", "G7"]) == ["G3", "Z2", "N4"]
    assert legal_cards(["B3", "B9"], ["N1", "G7"]) == ["B3", "B9"]  # void in green: anything


def test_low_trump_beats_high_led_suit() -> None:
    assert trick_winner(["G9", "Y2"], "Y") == 1
    assert trick_winner(["G9", "Y2"], None) == 0


def test_first_of_two_wizards_wins() -> None:
    assert trick_winner(["Z3", "Z1"], "R") == 0
    assert trick_winner(["R13", "Z3", "Z1"], "R") == 1


def test_wizard_never_forced_by_trump_lead() -> None:
    # M-8: a Wizard neither satisfies nor is forced by the obligation
    assert legal_cards(["Z1", "R4", "B4"], ["R9"]) == ["Z1", "R4"]
    assert legal_cards(["Z1", "B4"], ["R9"]) == ["Z1", "B4"]


def test_highest_of_led_suit_wins_without_trump() -> None:
    assert trick_winner(["B4", "B12", "R13", "B7"], "G") == 1


def test_bad_codes_are_rejected_with_the_code_quoted() -> None:
    with pytest.raises(InvalidMoveError, match="X9"):
        trick_winner(["X9"], None)
    with pytest.raises(InvalidMoveError, match="R14"):
        legal_cards(["R14"], [])
    with pytest.raises(InvalidMoveError):
        trick_winner([], None)


# property tests against a second, independent reading of the rules


def reference_winner(cards: list[str], trump: str | None) -> int:
    wizards = [i for i, c in enumerate(cards) if c[0] == "Z"]
    if wizards:
        return wizards[0]
    plain = [i for i, c in enumerate(cards) if c[0] != "N"]
    if not plain:
        return 0
    trumps = [i for i in plain if cards[i][0] == trump]
    pool = trumps or [i for i in plain if cards[i][0] == cards[plain[0]][0]]
    return max(pool, key=lambda i: int(cards[i][1:]))


tricks = st.lists(st.sampled_from(DECK), min_size=1, max_size=6, unique=True)


@given(tricks, st.sampled_from(["R", "B", "G", "Y", None]))
def test_trick_winner_matches_reference(cards: list[str], trump: str | None) -> None:
    assert trick_winner(cards, trump) == reference_winner(cards, trump)


@given(st.lists(st.sampled_from(DECK), min_size=1, max_size=20, unique=True), tricks)
def test_legal_cards_properties(hand: list[str], trick: list[str]) -> None:
    trick = [c for c in trick if c not in hand][:5]
    legal = legal_cards(hand, trick)
    assert legal and set(legal) <= set(hand)
    assert all(c in legal for c in hand if is_wizard(c) or is_jester(c))
    first = next((c for c in trick if not is_jester(c)), None)
    if first is None or is_wizard(first) or not any(suit_of(c) == suit_of(first) for c in hand):
        assert legal == hand
    else:
        assert all(suit_of(c) in (suit_of(first), None) for c in legal)


# -- scoring (SPEC 2.2 worked example) ------------------------------------------------------


@pytest.mark.parametrize(
    ("bid", "won", "points"),
    [(0, 0, 20), (1, 0, -10), (1, 1, 30), (2, 1, -10), (0, 1, -10), (3, 0, -30), (2, 2, 40)],
)
def test_round_points(bid: int, won: int, points: int) -> None:
    assert round_points(bid, won) == points


# -- the game --------------------------------------------------------------------------------


def test_rounds_and_deal_sizes() -> None:
    for players, rounds in [(3, 20), (4, 15), (5, 12), (6, 10)]:
        state = GAME.new_game("R", None, players)
        assert state.rounds == rounds
        assert [len(h) for h in state.hands] == [1] * players


@pytest.mark.parametrize("players", [0, 2, 7, -1, True, "4", 4.0])
def test_player_count_is_checked(players: object) -> None:
    with pytest.raises(BadOptionError):
        GAME.new_game("R", None, players)  # type: ignore[arg-type]


def test_first_dealer_by_high_card_with_redraws() -> None:
    for seed in ("A", "B", "C", "D", "E", "F", "G", "H"):
        state = GAME.new_game(seed, None, 5)
        last = state.first_dealer_draws[-1]
        top = max(card_rank(c) for _, c in last)
        assert [s for s, c in last if card_rank(c) == top] == [state.first_dealer]
        for earlier, later in zip(
            state.first_dealer_draws, state.first_dealer_draws[1:], strict=False
        ):
            best = max(card_rank(c) for _, c in earlier)
            assert [s for s, _ in later] == [s for s, c in earlier if card_rank(c) == best]
        assert state.dealer == state.first_dealer
        assert GAME.to_move(state) == (state.dealer + 1) % 5 or state.phase == "trump"


def card_rank(card: str) -> int:
    return 14 if card[0] == "Z" else 0 if card[0] == "N" else int(card[1:])


def test_some_seed_needs_a_redraw() -> None:
    assert any(len(GAME.new_game(f"T{i}", None, 6).first_dealer_draws) > 1 for i in range(40))


def test_random_first_dealer_option() -> None:
    dealers = {
        GAME.new_game(f"S{i}", {"first_dealer": "RANDOM"}, 4).first_dealer for i in range(40)
    }
    assert dealers == {0, 1, 2, 3}


def find_state(pred, players: int = 4, options=None):  # type: ignore[no-untyped-def]
    for i in range(2000):
        state = GAME.new_game(f"F{i}", options, players)
        for _ in range(5):
            if pred(state):
                return state
            state = advance_round(state)
    raise AssertionError("no seed found")


def advance_round(state):  # type: ignore[no-untyped-def]
    """Play the current round to its end with bots."""
    from tapete.bots import choose_move

    number = state.round
    while GAME.to_move(state) is not None and state.round == number:
        seat = GAME.to_move(state)
        state = GAME.apply(state, seat, choose_move(GAME, state, seat, "random", state.round))
    return state


def test_jester_turned_up_means_no_trump() -> None:
    state = find_state(lambda s: s.trump_card is not None and is_jester(s.trump_card))
    assert state.trump is None and state.phase == "bid"


def test_wizard_turned_up_dealer_chooses_after_seeing_hand() -> None:
    state = find_state(lambda s: s.trump_card is not None and is_wizard(s.trump_card))
    assert state.phase == "trump" and GAME.to_move(state) == state.dealer
    assert len(state.hands[state.dealer]) == state.round  # the hand is dealt first
    moves = GAME.legal_moves(state, state.dealer)
    assert [m.text() for m in moves] == ["trump R", "trump B", "trump G", "trump Y"]
    with pytest.raises(IllegalMoveError) as err:
        GAME.apply(state, state.dealer, Move("bid", 0))
    assert err.value.reason == "must_choose_trump"
    after = GAME.apply(state, state.dealer, Move("trump", "G"))
    assert after.trump == "G" and after.phase == "bid"
    assert GAME.to_move(after) == (state.dealer + 1) % 4


def test_suit_card_sets_trump() -> None:
    state = find_state(lambda s: s.trump_card is not None and suit_of(s.trump_card) is not None)
    assert state.trump == suit_of(state.trump_card)


def test_last_round_has_no_trump_and_is_scored() -> None:
    state = GAME.new_game("LAST", None, 6)
    while state.round < 10:
        state = advance_round(state)
    assert state.round == 10 and state.trump_card is None and state.trump is None
    assert not state.stock
    final = advance_round(state)
    assert final.phase == "over" and len(final.history) == 10
    assert GAME.outcome(final) is not None


def test_bids_go_clockwise_from_dealers_left_and_dealer_bids_last() -> None:
    state = find_state(lambda s: s.phase == "bid" and s.round >= 2)
    order = []
    for _ in range(4):
        seat = GAME.to_move(state)
        order.append(seat)
        state = GAME.apply(state, seat, Move("bid", 0))
    assert order == [(state.dealer + k) % 4 for k in (1, 2, 3, 4)]
    assert state.phase == "play" and GAME.to_move(state) == (state.dealer + 1) % 4


def test_bid_range_and_turn() -> None:
    state = find_state(lambda s: s.phase == "bid" and s.round == 2)
    seat = GAME.to_move(state)
    with pytest.raises(IllegalMoveError) as err:
        GAME.apply(state, seat, Move("bid", 3))
    assert err.value.reason == "bad_bid"
    with pytest.raises(NotYourTurnError):
        GAME.apply(state, (seat + 1) % 4, Move("bid", 1))


def test_must_follow_suit_is_explained() -> None:
    def has_follow_case(state) -> bool:  # type: ignore[no-untyped-def]
        return state.phase == "bid" and state.round >= 3

    state = find_state(has_follow_case)
    while state.phase == "bid":
        state = GAME.apply(state, GAME.to_move(state), Move("bid", 1))
    for _ in range(200):
        seat = GAME.to_move(state)
        hand = state.hands[seat]
        legal = {m.value for m in GAME.legal_moves(state, seat)}
        illegal = [c for c in hand if c not in legal]
        if illegal:
            with pytest.raises(IllegalMoveError) as err:
                GAME.apply(state, seat, Move("play", illegal[0]))
            assert err.value.reason == "must_follow_suit"
            assert err.value.details["suit"] in "RBGY"
            return
        state = GAME.apply(state, seat, Move("play", sorted(legal)[0]))
        if state.phase != "play":
            state = find_state(has_follow_case)
    pytest.fail("no follow-suit situation found")


def test_card_not_in_hand() -> None:
    state = find_state(lambda s: s.phase == "bid")
    while state.phase == "bid":
        state = GAME.apply(state, GAME.to_move(state), Move("bid", 0))
    seat = GAME.to_move(state)
    other = state.hands[(seat + 1) % 4][0]
    with pytest.raises(IllegalMoveError) as err:
        GAME.apply(state, seat, Move("play", other))
    assert err.value.reason == "not_in_hand"


def test_trick_winner_leads_next_and_round_is_scored() -> None:
    state = find_state(lambda s: s.phase == "bid" and s.round == 3, players=3)
    bids = [1, 0, 2]
    while state.phase == "bid":
        state = GAME.apply(state, GAME.to_move(state), Move("bid", bids[GAME.to_move(state)]))
    before = state.scores
    number = state.round
    while state.round == number:
        seat = GAME.to_move(state)
        state = GAME.apply(state, seat, GAME.legal_moves(state, seat)[0])
        if state.round == number and not state.trick and state.played:
            assert state.leader == state.last_winner
    row = state.history[-1]
    assert row.bids == (1, 0, 2) and sum(row.tricks) == 3
    assert row.points == tuple(
        round_points(b, k) for b, k in zip(row.bids, row.tricks, strict=False)
    )
    assert row.totals == tuple(a + p for a, p in zip(before, row.points, strict=False))


# -- options ---------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["HIDDEN_SIMULTANEOUS", "DELAYED_REVEAL"])
@pytest.mark.parametrize("rule", ["LEADER_DEALER_ONLY", "ALWAYS_DEALER", "DEALER_IF_TRICKS_GE_4"])
def test_even_bid_rule_with_hidden_bids_is_refused(mode: str, rule: str) -> None:
    with pytest.raises(BadOptionError, match="even-bid"):
        GAME.new_game("X", {"bidding_mode": mode, "even_bid_restriction": rule}, 4)


@pytest.mark.parametrize(
    "options",
    [{"bidding_mode": "LOUD"}, {"nope": 1}, {"tiebreak": 3}, {"first_dealer": None}, []],
)
def test_bad_options(options: object) -> None:
    with pytest.raises(BadOptionError):
        GAME.new_game("X", options, 4)  # type: ignore[arg-type]


def bid_round(state, bids):  # type: ignore[no-untyped-def]
    for _ in range(state.players - 1):
        seat = GAME.to_move(state)
        state = GAME.apply(state, seat, Move("bid", bids[seat]))
    return state


def test_always_dealer_forbids_the_even_total() -> None:
    state = find_state(
        lambda s: s.phase == "bid" and s.round == 3,
        options={"even_bid_restriction": "ALWAYS_DEALER"},
    )
    state = bid_round(state, [1, 1, 0, 0])
    dealer = GAME.to_move(state)
    assert dealer == state.dealer
    forbidden = 3 - sum(b for b in state.bids if b is not None)
    assert Move("bid", forbidden) not in GAME.legal_moves(state, dealer)
    with pytest.raises(IllegalMoveError) as err:
        GAME.apply(state, dealer, Move("bid", forbidden))
    assert err.value.reason == "even_bid" and err.value.details["forbidden"] == forbidden


def test_hardcore_applies_from_four_tricks() -> None:
    opts = {"even_bid_restriction": "DEALER_IF_TRICKS_GE_4"}
    early = bid_round(
        find_state(lambda s: s.phase == "bid" and s.round == 3, options=opts), [0, 0, 0, 0]
    )
    assert len(GAME.legal_moves(early, early.dealer)) == 4
    late = bid_round(
        find_state(lambda s: s.phase == "bid" and s.round == 4, options=opts), [0, 0, 0, 0]
    )
    assert Move("bid", 4) not in GAME.legal_moves(late, late.dealer)


def test_leader_dealer_only_applies_to_a_sole_leader() -> None:
    opts = {"even_bid_restriction": "LEADER_DEALER_ONLY"}
    state = find_state(lambda s: s.phase == "bid" and s.round == 2, options=opts)
    state = bid_round(state, [0, 1, 0, 1])
    # round 1 leaves... set the scores directly: dealer sole leader
    leader = replace(state, scores=tuple(50 if s == state.dealer else 10 for s in range(4)))
    assert len(GAME.legal_moves(leader, leader.dealer)) == 2
    tied = replace(
        state,
        scores=tuple(50 if s in (state.dealer, (state.dealer + 1) % 4) else 0 for s in range(4)),
    )
    assert len(GAME.legal_moves(tied, tied.dealer)) == 3
    fresh = bid_round(
        find_state(lambda s: s.phase == "bid" and s.round == 1, options=opts), [0, 0, 0, 0]
    )
    assert len(GAME.legal_moves(fresh, fresh.dealer)) == 2  # round 1: everyone on 0, no rule


def test_hidden_simultaneous_bids_are_revealed_before_play() -> None:
    state = find_state(
        lambda s: s.phase == "bid" and s.round == 2, options={"bidding_mode": "HIDDEN_SIMULTANEOUS"}
    )
    first = GAME.to_move(state)
    state = GAME.apply(state, first, Move("bid", 2))
    watcher = (first + 1) % 4
    assert GAME.view(state, watcher)["bids"][first] is None
    assert GAME.view(state, watcher)["has_bid"][first] is True
    assert GAME.view(state, first)["bids"][first] == 2
    while state.phase == "bid":
        state = GAME.apply(state, GAME.to_move(state), Move("bid", 0))
    assert GAME.view(state, watcher)["bids"][first] == 2


def test_delayed_reveal_hides_bids_until_the_round_ends() -> None:
    state = find_state(
        lambda s: s.phase == "bid" and s.round == 2, options={"bidding_mode": "DELAYED_REVEAL"}
    )
    first = GAME.to_move(state)
    while state.phase == "bid":
        state = GAME.apply(state, GAME.to_move(state), Move("bid", 1))
    watcher = (first + 1) % 4
    view = GAME.view(state, watcher)
    assert view["bids"] == [1 if s == watcher else None for s in range(4)]
    after = advance_round(state)
    assert GAME.view(after, watcher)["history"][-1]["bids"] == [1, 1, 1, 1]


def test_tiebreak_by_sum_of_bids() -> None:
    state = GAME.new_game("TIE", {"tiebreak": "SUM_OF_BIDS"}, 3)
    while state.phase != "over":
        state = advance_round(state)
    rows = state.history
    from tapete.wizard.game import RoundRecord

    fake = RoundRecord(99, 0, None, None, (1, 3, 0), (0, 0, 0), (0, 0, 0), (100, 100, 50))
    tied = replace(state, history=rows + (fake,), scores=(100, 100, 50))
    outcome = GAME.outcome(tied)
    assert outcome is not None
    sums = outcome.detail["bid_sums"]
    expect = [s for s in (0, 1) if sums[s] == max(sums[0], sums[1])]
    assert list(outcome.winners) == expect
    plain = replace(
        tied, options=tuple((k, "NONE" if k == "tiebreak" else v) for k, v in tied.options)
    )
    assert GAME.outcome(plain).winners == (0, 1)  # type: ignore[union-attr]


# -- moves as text ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "bid",
        "bid -1",
        "bid x",
        "play",
        "play R14",
        "trump Q",
        "pass",
        "",
        5,
        None,
        {"bid": 1},
        "bid 1 2",
        "play Z5",
        "bid 100",
    ],
)
def test_malformed_moves(text: object) -> None:
    with pytest.raises(InvalidMoveError):
        GAME.parse_move(text)


@pytest.mark.parametrize("text", ["bid 0", "bid 12", "play R13", "play Z1", "play N4", "trump Y"])
def test_moves_round_trip(text: str) -> None:
    assert GAME.move_to_json(GAME.parse_move(text)) == text


# -- modules -------------------------------------------------------------------------------------


def wizard_imports() -> dict[str, set[str]]:
    """Module -> the modules of ``tapete.wizard`` it imports (anywhere, functions included)."""
    package = Path(__file__).resolve().parent.parent / "engine" / "tapete" / "wizard"
    graph: dict[str, set[str]] = {}
    for path in package.glob("*.py"):
        found = graph.setdefault(path.stem, set())
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                if node.module is not None:
                    found.add(node.module.split(".")[0])
                else:  # from . import x
                    found.update(alias.name for alias in node.names)
    return graph


def test_the_wizard_modules_import_no_circle() -> None:
    """The rules know no bot: the bots import the rules, ``levels`` puts the two together."""
    graph = wizard_imports()
    assert not graph["game"] & {"ai", "bots", "counting", "levels"}

    def reaches(start: str, target: str, seen: set[str]) -> bool:
        return any(
            nxt == target or (nxt not in seen and reaches(nxt, target, seen | {nxt}))
            for nxt in graph.get(start, set())
        )

    assert [m for m in graph if m != "__init__" and reaches(m, m, {m})] == []


def test_the_served_game_has_every_level_and_the_bare_rules_none() -> None:
    from tapete.wizard import levels
    from tapete.wizard.game import Wizard

    assert GAME is levels.GAME
    assert set(GAME.bot_levels) == set(GAME.bots) | {"random"}
    bare = Wizard()
    assert bare.bots == {} and bare.hinter is None
    state = bare.new_game("RULES", None, 4)
    seat = bare.to_move(state)
    assert seat is not None
    assert choose_move(bare, state, seat, "random") in bare.legal_moves(state, seat)
    with pytest.raises(BadOptionError):  # no level but the generic one
        choose_move(bare, state, seat, "normal")


# -- the score sheet's choices (issue 19: a public reading of each seat across rounds) -----------


def played_round(plays: list[tuple[int, str]]) -> tuple[WizardState, WizardState]:
    """Round 2 of a 3-player game with hands and bids set by hand (trump red, bids 0, 1, 1),
    before and after ``plays``."""
    state = GAME.deal_round(GAME.new_game("CHOICES", None, 3), 2)
    hands = (("B5", "Y7"), ("B9", "B2"), ("R3", "G4"))
    state = replace(state, hands=hands, trump="R", phase="play", bids=(0, 1, 1), leader=0, dealer=2)
    before = state
    for seat, card in plays:
        state = GAME.apply(state, seat, Move("play", card))
    return before, state


def test_the_score_sheet_counts_a_duck_with_a_winner_in_hand() -> None:
    """Seat 1 needs a trick and holds B9, which would win the blue lead, but plays B2: a chance
    ducked. Seat 2, void in blue, trumps in with R3 although it held G4: a chance taken. The
    second trick offers nobody a choice, and seat 0 bid 0 (it never needs a trick)."""
    plays = [(0, "B5"), (1, "B2"), (2, "R3"), (2, "G4"), (0, "Y7"), (1, "B9")]
    _, state = played_round(plays)
    row = state.history[-1]
    assert (row.bids, row.tricks) == ((0, 1, 1), (0, 0, 2))
    assert row.chances == (0, 1, 1) and row.ducked == (0, 1, 0)
    assert row.cards == (("B5", "Y7"), ("B2", "B9"), ("R3", "G4"))  # as played
    tricks = [plays[0:3], plays[3:6]]
    zeros = (0, 0, 0)
    # seat 2's R3 was the blue trick's last card: a last chance, taken
    assert choices(tricks, (0, 1, 1), "R", 3) == (
        (0, 1, 1),
        (0, 1, 0),
        zeros,
        zeros,
        (0, 0, 1),
        zeros,
    )
    # the same hands when seat 1 plays B9 first: a chance, not ducked
    took = [[(0, "B5"), (1, "B9"), (2, "R3")], [(2, "G4"), (0, "Y7"), (1, "B2")]]
    assert choices(took, (0, 1, 1), "R", 3) == ((0, 1, 1), zeros, zeros, zeros, (0, 0, 1), zeros)
    # had seat 1 bid 0, its B9 was a trick it could have let go (B2) and took all the same:
    # a spare choice, taken; the same B2 first would have been a spare choice let go
    spare = (0, 1, 0)
    assert choices(took, (0, 0, 1), "R", 3) == ((0, 0, 1), zeros, spare, spare, (0, 0, 1), zeros)
    assert choices(tricks, (0, 0, 1), "R", 3) == ((0, 0, 1), zeros, spare, zeros, (0, 0, 1), zeros)
    # had seat 2 thrown G4 as the last card of the blue trick instead: a last chance ducked
    let_go = [[(0, "B5"), (1, "B2"), (2, "G4")], [(0, "Y7"), (1, "B9"), (2, "R3")]]
    last = (0, 0, 1)
    assert choices(let_go, (0, 0, 1), "R", 3) == (last, last, spare, zeros, last, last)


def test_the_choices_are_public_and_read_back_from_json() -> None:
    _, state = played_round([(0, "B5"), (1, "B2"), (2, "R3"), (2, "G4"), (0, "Y7"), (1, "B9")])
    row = GAME.view(state, 0)["history"][-1]
    assert (row["chances"], row["ducked"]) == ([0, 1, 1], [0, 1, 0])
    assert (row["spares"], row["took"]) == ([0, 0, 0], [0, 0, 0])
    assert (row["last_chances"], row["last_ducked"]) == ([0, 0, 1], [0, 0, 0])
    assert row["cards"] == [["B5", "Y7"], ["B2", "B9"], ["R3", "G4"]]
    state = GAME.new_game("CHOICES", None, 4)
    for step in range(120):
        seat = GAME.to_move(state)
        assert seat is not None
        state = GAME.apply(state, seat, choose_move(GAME, state, seat, "heuristic", step))
    data = GAME.to_json(state)
    assert data["history"] and all("ducked" in r and "took" in r for r in data["history"])
    assert GAME.to_json(GAME.from_json(data)) == data


def heuristic_game_json(moves: int = 60) -> dict[str, Any]:
    state = GAME.new_game("OLDROWS", None, 4)
    for step in range(moves):
        seat = GAME.to_move(state)
        assert seat is not None
        state = GAME.apply(state, seat, choose_move(GAME, state, seat, "heuristic", step))
    assert state.history
    return GAME.to_json(state)


def test_a_game_saved_before_the_choices_were_counted_still_loads() -> None:
    from tapete.wizard import ai

    data = heuristic_game_json()
    for row in data["history"]:
        for key in ("chances", "ducked", "spares", "took", "last_chances", "last_ducked"):
            del row[key]
        del row["cards"]
    state = GAME.from_json(data)
    assert all(r.chances == (0,) * 4 and r.ducked == (0,) * 4 for r in state.history)
    assert all(r.spares == (0,) * 4 and r.took == (0,) * 4 for r in state.history)
    assert all(r.last_chances == (0,) * 4 and r.last_ducked == (0,) * 4 for r in state.history)
    assert [ai.choices_ratio(state, s) for s in range(4)] == [1.0] * 4  # no evidence
    assert ai.wild_odds(state, 0, 0.1, 1.0) == [0.0, 0.1, 0.1, 0.1]  # the prior alone
    assert all(r.cards == () for r in state.history)
    assert "cards" not in GAME.to_json(state)["history"][0]
    assert GAME.to_json(state)["history"][0]["chances"] == [0, 0, 0, 0]


@pytest.mark.parametrize(
    ("key", "value", "path"),
    [
        ("chances", [0, "1", 0, 0], "$.history[0].chances[1]"),
        ("chances", [0, 0, 0], "$.history[0].chances"),
        ("ducked", [0, 0, True, 0], "$.history[0].ducked[2]"),
        ("ducked", [0, 0, 0, -1], "$.history[0].ducked[3]"),
        ("ducked", [0, 0, 0, 99], "$.history[0].ducked[3]"),
        ("chances", "none", "$.history[0].chances"),
        ("spares", [0, 0, 0, 2.5], "$.history[0].spares[3]"),
        ("took", [0, -1, 0, 0], "$.history[0].took[1]"),
        ("took", None, "$.history[0].took"),
        ("last_chances", [0, 0, 0, "x"], "$.history[0].last_chances[3]"),
        ("last_ducked", [0, 0, 0], "$.history[0].last_ducked"),
    ],
)
def test_a_malformed_choice_count_is_a_coded_error_with_its_path(
    key: str, value: Any, path: str
) -> None:
    data = heuristic_game_json()
    data["history"][0][key] = value
    kept = copy.deepcopy(data)
    with pytest.raises(BadStateError) as caught:
        GAME.from_json(data)
    assert caught.value.code == "bad_state" and caught.value.details["path"] == path
    assert data == kept


@pytest.mark.parametrize(
    ("cards", "path"),
    [
        ("none", "$.history[0].cards"),
        ([["R1"], ["R2"], ["R3"]], "$.history[0].cards"),
        ([["R1"], ["R2", "R4"], ["R3"], ["R5"]], "$.history[0].cards[1]"),
        ([["R1"], ["R2"], ["X9"], ["R5"]], "$.history[0].cards[2][0]"),
        ([["R1"], ["R2"], [7], ["R5"]], "$.history[0].cards[2][0]"),
        ([["R1"], ["R2"], ["R1"], ["R5"]], "$.history[0].cards"),
    ],
)
def test_malformed_round_cards_are_a_coded_error_with_their_path(cards: Any, path: str) -> None:
    data = heuristic_game_json()
    data["history"][0]["cards"] = cards
    data["history"][0]["trump_card"] = None
    kept = copy.deepcopy(data)
    with pytest.raises(BadStateError) as caught:
        GAME.from_json(data)
    assert caught.value.code == "bad_state" and caught.value.details["path"] == path
    assert data == kept


def test_the_choice_counts_must_agree_with_the_row() -> None:
    data = heuristic_game_json()
    row = data["history"][0]
    seat = row["bids"].index(0) if 0 in row["bids"] else None
    if seat is not None:  # a seat that bid 0 never needed a trick
        broken = copy.deepcopy(data)
        broken["history"][0]["chances"][seat] = 1
        with pytest.raises(BadStateError) as caught:
            GAME.from_json(broken)
        assert caught.value.details["path"] == f"$.history[0].chances[{seat}]"
    short = next((s for s in range(4) if row["tricks"][s] < row["bids"][s]), None)
    if short is not None:  # a seat short of its bid never had its tricks
        broken = copy.deepcopy(data)
        broken["history"][0]["spares"][short] = 1
        with pytest.raises(BadStateError) as caught:
            GAME.from_json(broken)
        assert caught.value.details["path"] == f"$.history[0].spares[{short}]"
    broken = copy.deepcopy(data)
    broken["history"][0]["spares"] = [0, 0, 0, 0]
    broken["history"][0]["took"] = [0, 0, 1, 0]  # more taken than chances
    with pytest.raises(BadStateError) as caught:
        GAME.from_json(broken)
    assert caught.value.details["path"] == "$.history[0].took[2]"
    broken = copy.deepcopy(data)
    broken["history"][0]["last_chances"] = [0, 0, 0, 0]
    broken["history"][0]["last_ducked"] = [0, 0, 0, 1]  # more ducked than last chances
    with pytest.raises(BadStateError) as caught:
        GAME.from_json(broken)
    assert caught.value.details["path"] == "$.history[0].last_ducked[3]"
    broken["history"][0]["chances"] = [0, 0, 0, 0]
    broken["history"][0]["ducked"] = [0, 0, 0, 0]
    broken["history"][0]["last_chances"] = [1, 0, 0, 0]  # a last chance is a chance
    with pytest.raises(BadStateError) as caught:
        GAME.from_json(broken)
    assert caught.value.details["path"] == "$.history[0].last_chances[0]"
    row["chances"] = [0, 0, 0, 0]
    row["last_chances"] = row["last_ducked"] = [0, 0, 0, 0]
    row["ducked"] = [0, 1, 0, 0]  # more ducked than chances
    with pytest.raises(BadStateError) as caught:
        GAME.from_json(data)
    assert caught.value.details["path"] == "$.history[0].ducked[1]"
