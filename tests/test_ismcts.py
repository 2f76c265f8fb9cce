"""ISMCTS (tapete.bots.ismcts) and the Wizard AI (tapete.wizard.ai): correct, fair, reproducible.

Fairness has three parts: the determinizer never deals a card the seat has seen and respects
the voids it has seen; the AI decides the same whatever the hidden cards are (at the real
budgets of the registered levels); and the fast simulator the AI plays out on agrees with the
engine. The long strength measurements are benchmarks (bench/bench_wizard_ai.py), not tests;
the tournament runner itself is tested here on a tiny run.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import helpers
from helpers import TWO_CARD_ROUND
from tapete.bots import choose_move
from tapete.bots.ismcts import GameDomain, reporting_progress, search
from tapete.rng import Rng
from tapete.wizard import DECK, GAME, Move, WizardState, ai, round_points
from tapete.wizard.bots import choose_card, simple_bot
from tapete.wizard.cards import suit_of


@pytest.fixture(autouse=True)
def real_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    """The registered levels' real budgets, even when the run scales them down for speed."""
    monkeypatch.setenv("TAPETE_BOT_BUDGET", "1")


# -- generic ISMCTS on toy domains ----------------------------------------------------------


class Toy:
    """Seat 0 picks a row, seat 1 (who sees it) picks a column; seat 0 earns the payoff.

    Flat Monte Carlo against a random opponent prefers row 1 (mean 0.55); a search that lets
    the opponent answer well prefers row 0 (worst case 0.5). Worlds carry a hidden coin that
    decides whether column 2 is available, to exercise availability counts.
    """

    PAYOFF = ((0.5, 0.5, 0.5), (1.0, 0.1, 0.1), (0.6, 0.4, 0.4))

    def determinize(self, rng: Rng) -> list[int]:
        return [rng.below(2)]  # [coin, row?, column?]

    def to_move(self, world: list[int]) -> int | None:
        return 0 if len(world) == 1 else 1 if len(world) == 2 else None

    def legal_moves(self, world: list[int]) -> Sequence[int]:
        if len(world) == 1:
            return (0, 1, 2)
        return (0, 1, 2) if world[0] else (0, 1)

    def apply(self, world: list[int], move: int) -> list[int]:
        world.append(move)
        return world

    def returns(self, world: list[int]) -> Sequence[float]:
        value = self.PAYOFF[world[1]][world[2]]
        return (value, 1.0 - value)


def test_search_models_the_opponent() -> None:
    toy = Toy()
    result = search(toy, (0, 1, 2), 2000, Rng(1), exploration=0.5)
    assert result.move == 0
    assert sum(s.visits for s in result.stats) == 2000 == result.iterations
    assert [s.visits for s in result.stats] == sorted(
        (s.visits for s in result.stats), reverse=True
    )


def test_search_is_reproducible_and_reports_progress() -> None:
    seen: list[tuple[int, int]] = []
    first = search(Toy(), (0, 1, 2), 300, Rng(5), progress=lambda d, t: seen.append((d, t)))
    again = search(Toy(), (0, 1, 2), 300, Rng(5))
    assert first == again
    assert seen[-1] == (300, 300) and all(t == 300 for _, t in seen)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen) and len(seen) == 20
    calls: list[tuple[int, int]] = []
    with reporting_progress(lambda d, t: calls.append((d, t))):
        search(Toy(), (0, 1, 2), 40, Rng(5))
    assert calls[-1] == (40, 40)
    search(Toy(), (0, 1, 2), 40, Rng(5))  # outside the block: nobody listens
    assert calls[-1] == (40, 40) and len(calls) == 20


def test_a_single_move_needs_no_search() -> None:
    result = search(Toy(), (2,), 1000, Rng(1))
    assert result.move == 2 and result.iterations == 0
    with pytest.raises(ValueError):
        search(Toy(), (), 10, Rng(1))


def test_injected_playout_and_order_are_used() -> None:
    orders: list[Sequence[int]] = []

    def order(world: list[int], moves: Sequence[int], rng: Rng) -> Sequence[int]:
        orders.append(moves)
        return sorted(moves, reverse=True)

    def playout(world: list[int], rng: Rng) -> int:
        return 0  # the opponent always answers column 0

    result = search(Toy(), (0, 1, 2), 3, Rng(2), playout=playout, order=order)
    assert orders == [[0, 1, 2], [0, 1], [0]]  # each iteration expands one root move
    assert {s.move: s.mean for s in result.stats} == {0: 0.5, 1: 1.0, 2: 0.6}


def test_an_erratic_move_is_followed_in_the_tree_instead_of_the_best() -> None:
    def erratic(world: list[int], seat: int, moves: Sequence[int], rng: Rng) -> int | None:
        return 0 if seat == 1 else None  # the opponent answers column 0, whatever it costs it

    # against an opponent that answers well, row 0; against this one, row 1 pays 1.0
    assert search(Toy(), (0, 1, 2), 500, Rng(3), exploration=0.5).move == 0
    led = search(Toy(), (0, 1, 2), 500, Rng(3), exploration=0.5, erratic=erratic)
    assert led.move == 1
    assert {s.move: s.mean for s in led.stats}[1] > 0.99  # but its first, played out at random
    # a hook that never names a move changes nothing, draw for draw
    quiet = search(Toy(), (0, 1, 2), 300, Rng(5), erratic=lambda w, s, m, r: None)
    assert quiet == search(Toy(), (0, 1, 2), 300, Rng(5))


def round_horizon(number: int) -> Any:
    return lambda state: state.round != number or state.phase != "play"


def round_points_evaluation(number: int) -> Any:
    def evaluate(game: Any, state: WizardState) -> list[float]:
        if state.round == number:  # the round is not over
            return [0.0] * state.players
        row = state.history[number - 1]
        return [p / 50 for p in row.points]

    return evaluate


def test_game_domain_searches_any_game_through_its_protocol() -> None:
    state = play_to(GAME.new_game("GD", None, 4), lambda s: s.round == 3 and s.phase == "play")
    seat = GAME.to_move(state)
    moves = GAME.legal_moves(state, seat)

    def run(start: WizardState) -> Any:
        domain = GameDomain(
            GAME,
            start,
            seat,
            horizon=round_horizon(3),
            evaluate=round_points_evaluation(3),
        )
        return search(domain, moves, 40, Rng(3)).move

    move = run(state)
    assert move in moves and run(state) == move
    world = GAME.sample_world(state, seat, Rng(99))
    assert run(world) == move  # it never saw the hidden cards


# -- helpers to reach and build Wizard positions -------------------------------------------


def play_to(state: WizardState, done: Any, level: str = "heuristic") -> WizardState:
    step = 0
    while not done(state):
        seat = GAME.to_move(state)
        assert seat is not None, "the game ended first"
        state = GAME.apply(state, seat, choose_move(GAME, state, seat, level, step))
        step += 1
    return state


def random_states(seed: str, players: int) -> Iterator[WizardState]:
    """Every state of a game between random bots."""
    state = GAME.new_game(seed, None, players)
    step = 0
    while (seat := GAME.to_move(state)) is not None:
        yield state
        state = GAME.apply(state, seat, choose_move(GAME, state, seat, "random", step))
        step += 1


def give(state: WizardState, seat: int, cards: Sequence[str]) -> WizardState:
    """``state`` with ``cards`` swapped into ``seat``'s hand, before any card is played."""
    hand = list(state.hands[seat])
    spare = [c for c in hand if c not in cards]
    hands = [list(h) for h in state.hands]
    stock = list(state.stock)
    for card in cards:
        if card in hand:
            continue
        out = spare.pop()
        for pile in [*hands, stock]:
            if card in pile:
                pile[pile.index(card)] = out
        hands[seat][hands[seat].index(out)] = card
    swapped = replace(state, hands=tuple(tuple(h) for h in hands), stock=tuple(stock))
    assert swapped.trump_card is None or swapped.trump_card not in cards
    return GAME.from_json(json.loads(json.dumps(GAME.to_json(swapped))))  # still consistent


# -- the fast simulator agrees with the engine ---------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_fast_round_agrees_with_the_engine(players: int) -> None:
    plays = 0
    for seed in ("F1", "F2"):
        for state in random_states(f"{seed}-{players}", players):
            if state.phase != "play":
                continue
            seat = GAME.to_move(state)
            sim = ai.round_from_state(state)
            assert sim.turn == seat and sim.won == list(state.tricks)
            legal = [str(m.value) for m in GAME.legal_moves(state, seat)]
            assert sorted(DECK[c] for c in sim.legal()) == sorted(legal)
            card = legal[plays % len(legal)]
            after = GAME.apply(state, seat, Move("play", card))
            sim.play(ai.CARD_NUMBER[card])
            plays += 1
            if after.history != state.history:  # the engine scored the round
                assert sim.turn == -1
                row = after.history[-1]
                assert tuple(sim.won) == row.tricks and tuple(sim.points()) == row.points
            else:
                assert sim.won == list(after.tricks) and sim.turn == GAME.to_move(after)
                assert sim.leader == after.leader
    assert plays > 200


def test_policy_plays_like_the_simple_bot() -> None:
    checked = 0
    for players in (3, 4, 6):
        for state in random_states(f"P{players}", players):
            if state.phase != "play":
                continue
            seat = GAME.to_move(state)
            sim = ai.round_from_state(state)
            expected = choose_card(GAME.view(state, seat))
            assert DECK[ai.heuristic_card(sim, sim.legal())] == expected
            checked += 1
    assert checked > 300


def test_round_points_of_the_simulator() -> None:
    sim = ai.Round(-1, [[], [], []], [1, 0, 2], [1, 1, 1], 0)
    assert sim.turn == -1
    assert sim.points() == [round_points(1, 1), round_points(0, 1), round_points(2, 1)]


# -- the determinizer -----------------------------------------------------------------------


def seen_cards(state: WizardState, seat: int) -> set[str]:
    seen = set(state.hands[seat]) | {c for t in state.played for _, c in t}
    seen |= {c for _, c in state.trick}
    if state.trump_card is not None:
        seen.add(state.trump_card)
    return seen


def check_world(state: WizardState, world: WizardState, seat: int) -> None:
    assert world.hands[seat] == state.hands[seat]
    assert Counter(GAME.seat_cards(world)) == Counter(DECK)
    assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
    assert GAME.view(world, seat) == GAME.view(state, seat)
    seen = seen_cards(state, seat)
    for other, hand in enumerate(world.hands):
        if other != seat:
            assert not seen & set(hand), "a card the seat has seen was dealt to another"
    for other, suits in enumerate(GAME.voids(state)):
        assert not {suit_of(c) for c in world.hands[other]} & suits, "a shown void was ignored"


def test_sample_world_never_deals_a_seen_card_and_respects_voids() -> None:
    worlds = voids = 0
    for step, state in enumerate(random_states("SW", 4)):
        if step % 7 or state.phase != "play":
            continue
        seat = GAME.to_move(state)
        for k in range(3):
            check_world(state, GAME.sample_world(state, seat, Rng.derive("sw", step, k)), seat)
            worlds += 1
        voids += sum(map(len, GAME.voids(state)))
    assert worlds > 100 and voids > 20


def test_sample_world_in_the_last_round_deals_exactly_the_unseen_cards() -> None:
    """3 players, round 20: no stock, so the two other hands must split the unseen cards
    exactly, around every shown void (the tightest situation there is)."""
    state = play_to(GAME.new_game("LAST", None, 3), lambda s: s.round == 20, "random")
    checked = 0
    for step, later in enumerate(random_states_from(state)):
        if later.phase != "play" or not any(GAME.voids(later)):
            continue
        seat = GAME.to_move(later)
        for k in range(4):
            world = GAME.sample_world(later, seat, Rng.derive("last", step, k))
            check_world(later, world, seat)
            unseen = set(DECK) - seen_cards(later, seat)
            dealt = {c for s, h in enumerate(world.hands) if s != seat for c in h}
            assert dealt == unseen and not world.stock
            checked += 1
    assert checked > 40


def random_states_from(state: WizardState) -> Iterator[WizardState]:
    number, step = state.round, 0
    while (seat := GAME.to_move(state)) is not None and state.round == number:
        yield state
        state = GAME.apply(state, seat, choose_move(GAME, state, seat, "random", step))
        step += 1


def test_a_constructed_void_is_respected() -> None:
    """Round 3, 4 players: seat 1 discarded on a red lead, so it holds no red in any world."""
    start = play_to(GAME.new_game("VOID", None, 4), lambda s: s.round == 3 and s.phase == "play")
    leader = start.leader
    void_seat = (leader + 1) % 4
    red = next(c for c in DECK if suit_of(c) == "R" and c != start.trump_card)
    blues = [c for c in DECK if suit_of(c) == "B" and c != start.trump_card][:3]
    state = give(give(start, leader, [red]), void_seat, blues)
    state = GAME.apply(state, leader, Move("play", red))
    state = GAME.apply(state, void_seat, Move("play", blues[0]))
    assert GAME.voids(state)[void_seat] == {"R"}
    third = (leader + 2) % 4
    state = GAME.apply(state, third, GAME.legal_moves(state, third)[0])
    seat = GAME.to_move(state)
    for k in range(50):
        world = GAME.sample_world(state, seat, Rng.derive("void", k))
        check_world(state, world, seat)
        assert not any(suit_of(c) == "R" for c in world.hands[void_seat])


# -- hidden bids -------------------------------------------------------------------------------


def test_hidden_bids_are_guessed_from_the_world_not_read() -> None:
    options = {"bidding_mode": "HIDDEN_SIMULTANEOUS"}
    state = GAME.new_game("HB", options, 4)
    state = play_to(state, lambda s: s.round == 5 and sum(b is not None for b in s.bids) == 2)
    seat = GAME.to_move(state)
    hidden = ai.hidden_bidders(GAME, state, seat)
    assert hidden == {s for s, b in enumerate(state.bids) if b is not None}
    assert ai.hidden_bidders(GAME, GAME.new_game("HB", None, 4), 1) == frozenset()
    world = GAME.sample_world(state, seat, Rng(4))
    bids = ai.guess_bids(world, hidden)
    for other in hidden:
        expected = ai.estimate_tricks(world.hands[other], world.trump, 4)
        assert bids[other] == ai.nearest_bid(expected, range(6))
    twin = replace(state, bids=tuple(None if b is None else 5 - b for b in state.bids))
    assert GAME.view(twin, seat) == GAME.view(state, seat)
    assert choose_move(GAME, twin, seat, "normal", 1) == choose_move(GAME, state, seat, "normal", 1)


# -- fairness and reproducibility at the real budgets ----------------------------------------


def ten_card_positions() -> list[WizardState]:
    """A 10-card bid, the first card of round 10, and a card in the middle of a later trick."""
    start = GAME.new_game("TEN", None, 4)
    bid = play_to(start, lambda s: s.round == 10 and s.phase == "bid")
    first = play_to(bid, lambda s: s.phase == "play")
    middle = play_to(first, lambda s: len(s.played) == 4 and len(s.trick) == 2)
    return [bid, first, middle]


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_levels_decide_from_the_view_only(level: str) -> None:
    assert ai.budget_scale() == 1.0, "fairness is tested at the real budgets"
    for state in ten_card_positions():
        seat = GAME.to_move(state)
        world = GAME.sample_world(state, seat, Rng.derive("other", level))
        assert world.hands != state.hands
        move = choose_move(GAME, state, seat, level, 11)
        assert choose_move(GAME, world, seat, level, 11) == move
        GAME.check(state, seat, move)


def test_same_state_and_seed_same_move() -> None:
    state = ten_card_positions()[1]
    seat = GAME.to_move(state)
    moves = {choose_move(GAME, state, seat, "hard", "again") for _ in range(2)}
    assert len(moves) == 1


def test_registered_levels() -> None:
    # weakest first: the new-game screen lists them in this order
    assert GAME.bot_levels == ("random", "easy", "heuristic", "normal", "hard")
    assert {"heuristic", "easy", "normal", "hard"} <= set(GAME.bots)


def test_budget_scale_shrinks_every_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    state = ten_card_positions()[1]
    full = ai.card_iterations(ai.LEVELS["hard"], state, 8)
    monkeypatch.setenv("TAPETE_BOT_BUDGET", "0.1")
    assert ai.budget_scale() == 0.1
    assert ai.card_iterations(ai.LEVELS["hard"], state, 8) == round(full * 0.1)
    monkeypatch.setenv("TAPETE_BOT_BUDGET", "junk")
    assert ai.budget_scale() == 1.0


def test_long_rounds_get_fewer_iterations() -> None:
    level = ai.LEVELS["hard"]
    short = play_to(GAME.new_game("IT", None, 4), lambda s: s.round == 4 and s.phase == "play")
    long = play_to(short, lambda s: s.round == 15 and s.phase == "play")
    assert ai.card_iterations(level, short, 2) == 2 * level.per_card
    assert ai.card_iterations(level, long, 15) == level.max_plays // 60 < level.iterations


# -- bids and trump by simulation ------------------------------------------------------------


@pytest.fixture
def small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAPETE_BOT_BUDGET", "0.25")


def bidding_state(seed: str, number: int, options: dict[str, str] | None = None) -> WizardState:
    start = GAME.new_game(seed, options, 4)
    return play_to(start, lambda s: s.round == number and s.phase == "bid")


@pytest.mark.usefixtures("small_budget")
def test_bids_follow_the_hand() -> None:
    state = bidding_state("BID", 4)
    seat = GAME.to_move(state)
    strong = give(state, seat, ["Z1", "Z2", "Z3", "Z4"])
    weak = give(state, seat, ["N1", "N2", "N3", "N4"])
    assert ai.choose_bid(GAME, strong, seat, Rng(1), ai.LEVELS["hard"])[0] == Move("bid", 4)
    move, values = ai.choose_bid(GAME, weak, seat, Rng(1), ai.LEVELS["hard"])
    assert move == Move("bid", 0) and values[0] == 20.0


@pytest.mark.usefixtures("small_budget")
def test_the_dealer_never_makes_a_forbidden_bid() -> None:
    state = bidding_state("EVEN", 6, {"even_bid_restriction": "ALWAYS_DEALER"})
    state = play_to(state, lambda s: GAME.to_move(s) == s.dealer)
    forbidden = GAME.forbidden_bid(state, state.dealer)
    assert forbidden is not None
    for k in range(6):
        move = choose_move(GAME, state, state.dealer, "hard", k)
        assert move.value != forbidden
        GAME.check(state, state.dealer, move)


@pytest.mark.usefixtures("small_budget")
def test_the_dealer_names_the_suit_of_a_strong_hand() -> None:
    start = GAME.new_game("TRUMP", None, 4)
    state = play_to(start, lambda s: s.phase == "trump" and s.round >= 5)
    dealer = state.dealer
    yellow = ["Y13", "Y12", "Y11", "Y10", "Y9"][: state.round]
    state = give(state, dealer, yellow)
    move, values = ai.choose_trump(GAME, state, dealer, Rng(2), ai.LEVELS["hard"])
    assert move == Move("trump", "Y") and set(values) == {"R", "B", "G", "Y"}
    assert choose_move(GAME, state, dealer, "normal", 0).kind == "trump"


def test_easy_is_the_simple_bot_with_noise() -> None:
    state = ten_card_positions()[1]
    seat = GAME.to_move(state)
    moves = {choose_move(GAME, state, seat, "easy", k) for k in range(40)}
    simple = simple_bot(GAME, state, seat, Rng(0))
    assert simple in moves and len(moves) > 1
    assert all(GAME.legal_moves(state, seat).count(m) == 1 for m in moves)


def test_decide_explains_the_choice() -> None:
    state = ten_card_positions()[2]
    seat = GAME.to_move(state)
    level = replace(ai.LEVELS["normal"], iterations=30)
    move, values = ai.decide(GAME, state, seat, Rng(1), level)
    assert f"{move.kind} {move.value}" in values


# -- the tournament runner, on a tiny run ------------------------------------------------------


def test_tournament_runner_on_a_tiny_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = helpers.load_bench("bench_wizard_ai")
    out = tmp_path / "games.jsonl"
    args = argparse.Namespace(
        levels="easy",
        opponents="random",
        deals=1,
        first_deal=0,
        jobs=2,
        rounds=0,
        out=str(out),
        tune="",
    )
    bench.tournament(args)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["seat"] for r in rows) == [0, 1, 2, 3]
    assert all(r["rounds"] == 15 and len(r["scores"]) == 4 for r in rows)
    assert len({r["deal"] for r in rows}) == 1
    bench.tournament(args)  # resumes: nothing left to play
    assert len(out.read_text().splitlines()) == 4
    report = capsys.readouterr().out
    assert "| easy | random | 4 (1) |" in report and "Parity is 25%" in report


# -- reading the other players (issue 19) -----------------------------------------------------


def test_tendencies_read_the_score_sheet_only() -> None:
    state = play_to(GAME.new_game("TEND", None, 4), lambda s: s.round == 6)
    history = state.history
    assert ai.tendencies(state, 0, 0.0) is None
    shift = ai.tendencies(state, 0, 10.0)
    assert shift is not None and shift[0] == 0.0
    dealt = sum(row.round for row in history)
    for other in (1, 2, 3):
        excess = sum(row.tricks[other] - row.bids[other] for row in history)
        assert shift[other] == pytest.approx(min(0.0, excess / (dealt + 10.0) * 6))
    # a seat that took two tricks too few in every round aims below its bid; never above
    ducked = tuple(replace(row, tricks=(row.tricks[0], 0, 0, 0)) for row in history)
    shy = ai.tendencies(replace(state, history=ducked), 0, 10.0)
    assert shy is not None and all(x < 0 for x in shy[1:])
    greedy = tuple(replace(row, tricks=(0, row.round, row.round, row.round)) for row in history)
    assert ai.tendencies(replace(state, history=greedy), 0, 10.0) == [0.0] * 4


def test_tendencies_can_read_the_rounds_against_the_hands_held() -> None:
    """An over-bidder (two over its hand's estimate, and it took what its hand was worth) is
    read as aiming low against its bids, and not against its hands (``hand_ref``) or once its
    steady lean is taken off its bids (``lean``); a seat that ducked is read low every way."""
    state = play_to(GAME.new_game("TEND", None, 4), lambda s: s.round == 6)
    rows = []
    for row in state.history:
        estimate = ai.hand_estimates(row)
        taken = [round(x) for x in estimate]
        bids = (row.bids[0], taken[1] + 2, row.bids[2], taken[3])
        tricks = (row.tricks[0], taken[1], row.tricks[2], 0)
        rows.append(replace(row, bids=bids, tricks=tricks))
    read = replace(state, history=tuple(rows))
    plain = ai.tendencies(read, 0, 10.0)
    by_hand = ai.tendencies(read, 0, 10.0, hand_ref=True)
    by_lean = ai.tendencies(read, 0, 10.0, lean=1.0)
    assert plain is not None and by_hand is not None and by_lean is not None
    assert plain[1] < -2.0 and by_hand[1] > -0.5
    assert by_lean[1] > plain[1] / 4  # the lean believed as if one more round had shown none
    assert sum(row.bids[3] for row in rows) > 0
    assert plain[3] < 0 and by_hand[3] < 0 and by_lean[3] < 0
    # rows kept without cards (saved before they were) read against the bids
    bare = replace(read, history=tuple(replace(row, cards=()) for row in rows))
    assert ai.tendencies(bare, 0, 10.0, hand_ref=True) == plain
    # a cap of 0.1 a card: no seat read more than 0.6 of a trick below its bid in round 6
    capped = ai.tendencies(read, 0, 10.0, cap=0.1)
    assert capped is not None and capped[1] == pytest.approx(-0.6)
    assert capped == pytest.approx([max(x, -0.1 * 6) for x in plain])


@pytest.mark.parametrize("name", ["normal", "hard"])
def test_both_levels_cap_the_tendencies_in_their_bid_simulations_only(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """Each level's bid simulations start from the capped reading; its card search, the whole."""
    level = ai.LEVELS[name]
    assert level.tend_cap > 0.0 and level.tend_bids
    state = play_to(GAME.new_game("TEND", None, 4), lambda s: s.round == 6)
    shy = tuple(replace(row, tricks=(row.tricks[0], 0, 0, 0)) for row in state.history)
    state = replace(state, history=shy)
    assert state.phase == "bid"
    seen: list[list[float] | None] = []
    real = ai.BidWorlds.__init__

    def spy(self: ai.BidWorlds, game: Any, state: Any, seat: int, shift: Any) -> None:
        seen.append(shift)
        real(self, game, state, seat, shift)

    monkeypatch.setattr(ai.BidWorlds, "__init__", spy)
    seat = GAME.to_move(state)
    assert seat is not None
    ai.level_bid_values(level, GAME, state, seat, Rng(1), 8, [0, 1], None)
    whole = ai.tendencies(state, seat, level.prior)
    assert whole is not None and min(whole) < -6 * level.tend_cap
    assert len(seen) == 1 and seen[0] == pytest.approx([max(x, -6 * level.tend_cap) for x in whole])
    # the card search of the same round reads the whole tendency
    playing = play_to(GAME.new_game("TEND", None, 4), lambda s: s.round == 6 and s.phase == "play")
    playing = replace(playing, history=shy)
    mover = GAME.to_move(playing)
    assert mover is not None
    domain = ai.WizardDomain(GAME, playing, mover, level, random.Random(3))
    shift = domain.start.shift
    assert shift is not None and shift == ai.tendencies(playing, mover, level.prior)
    assert min(shift) < -6 * level.tend_cap


def test_a_seat_aiming_below_its_bid_ducks_in_the_playout() -> None:
    """Seat 1 bid 1 and holds R13 and R4 (red trump) after R1 is led; seat 2 holds R5. Playing
    its bid it takes the trick with R13 (and the next with R4); aiming 1.5 below it, it ducks
    with R4 and takes only the trick its last card forces on it."""
    hands = [["R1", "G2"], ["R13", "R4"], ["R5", "G3"], ["R2", "G4"]]
    for shift, card, won in ((None, "R13", 2), ([0.0, -1.5, 0.0, 0.0], "R4", 1)):
        numbers = [[DECK.index(c) for c in hand] for hand in hands]
        sim = ai.Round(0, numbers, [0, 1, 0, 0], [0, 0, 0, 0], 0)
        sim.shift = shift
        sim.play(0)
        assert DECK[ai.heuristic_card(sim, sim.legal())] == card
        assert ai.play_out(sim.copy(), random.Random(1), 0.0).won[1] == won


def test_duck_odds_read_public_events_only() -> None:
    state = play_to(GAME.new_game("DUCK", None, 4), lambda s: s.round == 3 and len(s.played) == 2)
    assert ai.duck_odds(state, 0, 0.0) is None
    odds = ai.duck_odds(state, 0, 0.2)
    assert odds is not None and odds[0] == 0.0 and all(0.0 < p < 1.0 for p in odds[1:])
    # the seat's own rounds over its bid make a table of duckers likelier, made ones less
    over = tuple(replace(row, tricks=(row.bids[0] + 1, *row.tricks[1:])) for row in state.history)
    made = tuple(replace(row, tricks=(row.bids[0], *row.tricks[1:])) for row in state.history)
    more, less = (
        ai.duck_odds(replace(state, history=over), 0, 0.2),
        ai.duck_odds(replace(state, history=made), 0, 0.2),
    )
    assert (
        more is not None
        and less is not None
        and all(a > b for a, b in zip(more[1:], less[1:], strict=True))
    )
    # the evidence of the round's cards does not depend on the hands the seat cannot see
    swapped = replace(state, hands=(state.hands[0], state.hands[2], state.hands[1], state.hands[3]))
    assert ai.duck_evidence(state, frozenset()) == ai.duck_evidence(swapped, frozenset())


def test_a_world_weighs_the_ducker_by_the_hand_it_gives() -> None:
    jester, wizard, low = DECK.index("N1"), DECK.index("Z1"), 0
    losers, winners = 1 << jester | 1 << low, 1 << wizard
    took = [(1 << wizard, 0, losers, winners, 1)]  # it took the lead with a Wizard
    assert ai.world_duck_ratio(took, [jester]) == pytest.approx(ai.TOOK_WITH_LOSER)
    assert ai.world_duck_ratio(took, []) == 1.0  # it held no loser: forced
    lost = [(1 << jester, 0, losers, winners, 0)]  # it lost with a Jester
    assert ai.world_duck_ratio(lost, [wizard]) == pytest.approx(ai.LOST_WITH_STRONG)
    assert ai.world_duck_ratio(lost, [low]) == 1.0


def test_the_duck_mixture_decides_from_the_view_alone() -> None:
    level = ai.Level(iterations=40, per_card=20, max_plays=4_000, bid_sims=40, duck=0.3)
    state = play_to(GAME.new_game("MIXED", None, 4), lambda s: s.round == 3 and len(s.played) == 1)
    seat = GAME.to_move(state)
    assert seat is not None
    others = [s for s in range(4) if s != seat and len(state.hands[s]) == len(state.hands[seat])]
    a, b = others[:2]
    hands = list(state.hands)
    hands[a], hands[b] = hands[b], hands[a]
    swapped = replace(state, hands=tuple(hands))
    if GAME.view(swapped, seat) != GAME.view(state, seat):
        pytest.skip("the swap shows in the view (a void)")
    first = ai.decide(GAME, state, seat, Rng(7), level)
    second = ai.decide(GAME, swapped, seat, Rng(7), level)
    assert first == second


def test_own_excess_reads_the_seats_own_rows_only() -> None:
    state = play_to(GAME.new_game("OWNX", None, 4), lambda s: s.round == 6 and s.phase == "bid")
    assert ai.own_excess(state, 0, 0.0) == 0.0  # off
    assert ai.own_excess(replace(state, history=()), 0, 8.0) == 0.0  # nothing shown yet
    rows = state.history

    def with_tricks(extra: int) -> WizardState:
        return replace(
            state,
            history=tuple(replace(r, tricks=(r.bids[0] + extra, *r.tricks[1:])) for r in rows),
        )

    # a seat that landed on its bid every round reads 0; over it, more; under it, less
    assert ai.own_excess(with_tricks(0), 0, 8.0) == 0.0
    over, under = ai.own_excess(with_tricks(1), 0, 8.0), ai.own_excess(with_tricks(-1), 0, 8.0)
    assert over > 0.0 > under
    # the first row counts fully, later rows add back the shift their bid was made with
    first = rows[0]
    assert ai.own_excess(replace(with_tricks(1), history=(with_tricks(1).history[0],)), 0, 8.0) == (
        pytest.approx(1 / (first.round + 8.0))
    )
    # the other seats' rows say nothing about the seat's own excess
    others = tuple(replace(r, tricks=(r.tricks[0], 0, 0, 0)) for r in rows)
    assert ai.own_excess(replace(state, history=others), 0, 8.0) == ai.own_excess(state, 0, 8.0)


def test_shifted_points_move_the_tricks_between_two_whole_shifts() -> None:
    assert ai.shifted_points(2, 2, 0.0, 5) == round_points(2, 2)
    assert ai.shifted_points(2, 1, 1.0, 5) == round_points(2, 2)
    assert ai.shifted_points(2, 1, 0.5, 5) == pytest.approx(
        (round_points(2, 1) + round_points(2, 2)) / 2
    )
    assert ai.shifted_points(0, 0, -0.5, 5) == round_points(0, 0)  # never below 0 tricks
    assert ai.shifted_points(3, 3, 2.0, 3) == round_points(3, 3)  # nor above the hand


def test_a_seat_that_took_more_than_it_bid_bids_higher() -> None:
    """The same bid position with a score sheet where the seat took two tricks over its bid in
    every round: its own excess moves its simulated tricks up, and its bid follows."""
    level = ai.Level(iterations=40, per_card=20, max_plays=4_000, bid_sims=200, own=8.0)
    state = play_to(GAME.new_game("OWNB", None, 4), lambda s: s.round == 9 and s.phase == "bid")
    seat = GAME.to_move(state)
    assert seat is not None
    rows = state.history
    level_rows = tuple(
        replace(r, tricks=tuple(t if s != seat else r.bids[s] for s, t in enumerate(r.tricks)))
        for r in rows
    )
    over_rows = tuple(
        replace(r, tricks=tuple(t if s != seat else r.bids[s] + 2 for s, t in enumerate(r.tricks)))
        for r in rows
    )
    flat = ai.choose_bid(GAME, replace(state, history=level_rows), seat, Rng(3), level)[0]
    high = ai.choose_bid(GAME, replace(state, history=over_rows), seat, Rng(3), level)[0]
    assert int(high.value) > int(flat.value)


def assert_same_view_same_decision(state: WizardState, level: ai.Level) -> None:
    """The seat to move decides the same in ``state`` and in a world that differs only in the
    cards it cannot see."""
    seat = GAME.to_move(state)
    assert seat is not None
    world = GAME.sample_world(state, seat, Rng(5))
    assert world.hands != state.hands
    assert ai.decide(GAME, state, seat, Rng(7), level) == ai.decide(
        GAME, world, seat, Rng(7), level
    )


def test_the_own_excess_decides_from_the_view_alone() -> None:
    level = ai.Level(iterations=40, per_card=20, max_plays=4_000, bid_sims=60, own=8.0)
    state = play_to(GAME.new_game("OWNV", None, 4), lambda s: s.round == 4 and s.phase == "bid")
    assert_same_view_same_decision(state, level)


def test_the_grab_reading_counts_finished_rounds_and_decides_from_the_view_alone() -> None:
    """``grab_seats`` reads the finished rounds only (their cards are public), never the seat
    itself; at gate 0 it reads every other seat as a grabber."""
    state = play_to(GAME.new_game("GRABV", None, 4), lambda s: s.round == 7 and s.phase == "bid")
    for row in state.history:
        for cases, takes in ai.grab_counts(row):
            assert 0 <= takes <= cases
    seat = GAME.to_move(state)
    assert seat is not None
    assert not ai.grab_seats(state, seat, 0.3) >> seat & 1
    assert ai.grab_seats(state, seat, 0.0) == ((1 << 4) - 1) & ~(1 << seat)
    level = ai.Level(
        iterations=40, per_card=20, max_plays=4_000, bid_sims=60, bid_grab=True, bid_grab_gate=0.3
    )
    assert_same_view_same_decision(state, level)


def test_a_grabber_takes_a_trick_with_a_card_the_policy_would_not_count_on() -> None:
    """Seat 1 bid 1 and holds B9, B2 and G3 (red trump) after B4 is led: the policy ducks with
    B2, its B9 being no strong card in a 3-card hand; a grabber (``Level.bid_grab``) takes the
    trick with B9. In both the playout on bits agrees."""
    hands = [["B4", "G2", "Y3"], ["B9", "B2", "G3"], ["B5", "G4", "Y2"], ["B3", "G5", "Y5"]]
    numbers = [[DECK.index(c) for c in hand] for hand in hands]
    for grab, card in ((0, "B2"), (0b10, "B9")):
        sim = ai.Round(0, [list(h) for h in numbers], [0, 1, 0, 0], [0, 0, 0, 0], 0)
        sim.play(DECK.index("B4"))
        assert DECK[ai.policy_card(sim, random.Random(1), 0.0, grab)] == card
        fast = ai.play_out(sim.copy(), random.Random(1), 0.0, grab)
        slow, chance = sim.copy(), random.Random(1)
        while slow.turn >= 0:
            slow.play(ai.policy_card(slow, chance, 0.0, grab))
        assert fast.won == slow.won


def test_a_seat_modelled_as_always_high_plays_its_dearest_card() -> None:
    """Seat 1 holds R13, R4 and G9 (red trump) after R1 is led: playing its bid of 0 it ducks
    with R4; modelled as always high it plays R13, and leads its dearest card after."""
    hands = [["R1", "G2", "G3"], ["R13", "R4", "G9"], ["R5", "G4", "B2"], ["R2", "G5", "B3"]]
    numbers = [[DECK.index(c) for c in hand] for hand in hands]
    for shift, card in ((None, "R4"), ([0.0, ai.GRABBED, 0.0, 0.0], "R13")):
        sim = ai.Round(0, [list(h) for h in numbers], [0, 0, 0, 0], [0, 0, 0, 0], 0)
        sim.shift = shift
        sim.play(0)
        assert DECK[ai.heuristic_card(sim, sim.legal())] == card
    # the playout on bits agrees with the policy card by card, whatever the models
    rnd = random.Random(5)
    for _ in range(200):
        deck = list(range(len(DECK)))
        rnd.shuffle(deck)
        size = rnd.randint(1, 10)
        dealt = [sorted(deck[i * size : (i + 1) * size]) for i in range(4)]
        sim = ai.Round(
            rnd.randint(-1, 3),
            dealt,
            [rnd.randint(0, size) for _ in range(4)],
            [0] * 4,
            rnd.randrange(4),
        )
        sim.shift = [rnd.choice([0.0, ai.DUCKED, ai.GRABBED]) for _ in range(4)]
        grab = rnd.randrange(16)  # grabbers (Level.bid_grab), any of the four seats
        fast = ai.play_out(sim.copy(), random.Random(1), 0.0, grab)
        slow, chance = sim.copy(), random.Random(1)
        while slow.turn >= 0:
            slow.play(ai.policy_card(slow, chance, 0.0, grab))
        assert fast.won == slow.won


# both style readings on; the ducker's prior is the score sheet's reading (duck_odds): 0.3
STYLE_READING = ai.Level(
    iterations=40, per_card=20, max_plays=4_000, bid_sims=40, duck=0.3, high_read=0.3, duck_read=1.0
)


def high_round(hands: Sequence[Sequence[str]], plays: Sequence[str]) -> WizardState:
    """Round 3 with these hands (trump yellow, every bid 1, seat 0 leads), the plays made."""
    state = GAME.deal_round(GAME.new_game("HREAD", None, 4), 3)
    dealt = {c for hand in hands for c in hand}
    stock = tuple(c for c in DECK if c not in dealt and c != "Y1")
    state = replace(
        state,
        hands=tuple(tuple(hand) for hand in hands),
        stock=stock,
        trump_card="Y1",
        trump="Y",
        phase="play",
        bids=(1, 1, 1, 1),
        leader=0,
        dealer=3,
    )
    for card in plays:
        seat = GAME.to_move(state)
        assert seat is not None
        state = GAME.apply(state, seat, Move("play", card))
    return state


def cards(*codes: str) -> set[int]:
    return {DECK.index(c) for c in codes}


def test_a_seat_read_always_high_or_ducking_plays_so_in_the_tree(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With ``style_tree``, a seat read as always high or ducking with at least those odds (this
    round's cards, or the score sheet's ducker odds) plays its style's card in the search's
    tree, as a chance event, in the worlds that draw it so; a seat playing for its bid in a
    world, a seat read less surely, and every seat with the knob off are left to the tree."""
    hands = [["R1", "G2", "B5"], ["R13", "R4", "G9"], ["R5", "G4", "B2"], ["R2", "G5", "B3"]]
    state = high_round(hands, ["R1"])
    level = ai.Level(iterations=40, per_card=20, max_plays=4_000, bid_sims=40, style_tree=0.5)
    domain = ai.WizardDomain(GAME, state, 0, level, random.Random(3))
    assert domain.tree_styled == frozenset()  # nothing read
    domain.styles = {1: [(ai.GRABBED, 0.7, frozenset())], 2: [(ai.DUCKED, 0.3, frozenset())]}
    domain.odds = [0.9, 0.0, 0.2, 0.6]  # the seat's own odds never count
    assert domain.styled_in_tree(0.5) == {1, 3}
    assert domain.styled_in_tree(0.25) == {1, 2, 3}
    assert domain.styled_in_tree(0.8) == domain.styled_in_tree(0.0) == frozenset()
    domain.tree_styled = domain.styled_in_tree(0.5)
    sim = ai.round_from_state(state)
    moves = sim.legal()
    assert sorted(DECK[m] for m in moves) == ["R13", "R4"]
    for shift, card in ((ai.GRABBED, "R13"), (ai.DUCKED, "R4"), (0.0, None), (-0.5, None)):
        sim.shift = [0.0, shift, 0.0, 0.0]
        chosen = domain.erratic(sim, 1, moves, Rng(1))
        assert (DECK[chosen] if chosen is not None else None) == card, shift
    sim.shift = [0.0, ai.GRABBED, ai.GRABBED, 0.0]
    assert domain.erratic(sim, 2, moves, Rng(1)) is None  # read less surely: the tree's choice
    # the card search hands the hook to its tree when a seat is so read, even with no wild seat
    given = []

    def fake_search(*args: Any, erratic: Any = None, **kwargs: Any) -> Any:
        given.append(erratic)
        return search(*args, erratic=erratic, **kwargs)

    monkeypatch.setattr(ai, "search", fake_search)
    monkeypatch.setattr(
        ai.WizardDomain, "styled_in_tree", lambda self, t: frozenset({2} if t > 0 else ())
    )
    for lev in (level, replace(level, style_tree=0.0)):
        ai.card_values(GAME, state, 1, Rng(2), lev)
    assert given[0] is not None and given[1] is None
    assert ai.LEVELS["normal"].style_tree > 0.0 and ai.LEVELS["hard"].style_tree > 0.0


def test_high_blocks_are_the_cards_an_always_high_player_would_have_played() -> None:
    hands = [
        ["R1", "G2", "B5"],
        ["R9", "R12", "G7"],  # follows R1 with R9 although it holds R12: not always high
        ["G13", "B2", "B3"],  # void in red: G13, its dearest card? yellow is trump
        ["Y4", "Y5", "N2"],  # void in red, trumps with Y5
    ]
    state = high_round(hands, ["R1", "R9", "G13", "Y5"])
    events = ai.style_events(state, 0, ai.GRABBED)
    assert events[0] == []  # the seat's own cards say nothing
    blocks = [ai.style_blocks(e) for e in events]
    # seat 1 followed suit: no red card above R9 and no Wizard, whatever else it holds
    red_above = {f"R{r}" for r in range(10, 14)} | {"Z1", "Z2", "Z3", "Z4"}
    assert set(ai.bits_of(blocks[1] or 0)) == cards(*red_above)
    # seat 2 could play any card: none dearer than G13 (with red led), so no trump, no red
    two = set(ai.bits_of(blocks[2] or 0))
    assert cards("Y2", "Y13", "R2", "R13", "Z1") <= two
    assert not two & cards("G12", "B13", "N1")
    assert set(ai.bits_of(blocks[3] or 0)) == cards(
        *{f"Y{r}" for r in range(6, 14)}, "Z1", "Z2", "Z3", "Z4"
    )
    # public: the hands the seat cannot see do not change them
    swapped = replace(state, hands=(state.hands[0], state.hands[2], state.hands[1], state.hands[3]))
    assert ai.style_events(swapped, 0, ai.GRABBED) == events
    # once seat 1 plays the R12 it held, it did not play its dearest card: no reading
    later = high_round(hands, ["R1", "R9", "G13", "Y5", "Y4", "G2", "R12"])
    assert ai.style_blocks(ai.style_events(later, 0, ai.GRABBED)[1]) is None


def test_duck_blocks_are_the_cards_a_ducker_would_have_played() -> None:
    hands = [
        ["R8", "G2", "B5"],
        ["R9", "R3", "G7"],  # takes R8 with R9 although it holds R3, which would lose
        ["R2", "R7", "B3"],  # ducks under R9 with R7, its dearest loser
        ["B13", "Y2", "N2"],  # void in red (yellow is trump): B13 loses
    ]
    state = high_round(hands, ["R8", "R9", "R7", "B13"])
    events = ai.style_events(state, 0, ai.DUCKED)
    blocks = [ai.style_blocks(e) for e in events]
    reds = {f"R{r}" for r in range(1, 9)}
    jesters = {"N1", "N2", "N3", "N4"}
    # seat 1 took the trick: a ducker would have held no red loser, nor a cheaper card to follow
    assert set(ai.bits_of(blocks[1] or 0)) == cards(*reds, *jesters)
    # seat 2 lost with R7: no dearer loser of the suit (R8 and R9 count, both out already)
    assert set(ai.bits_of(blocks[2] or 0)) == cards("R8", "R9")
    # seat 3 could play anything: the cards dearer than B13 that lose are red, and G13 (the
    # same rank, after it in the order of the codes)
    assert set(ai.bits_of(blocks[3] or 0)) == cards(*reds, "R9", "G13")
    # the likelihood of a world: seat 2 with R2 had a choice a ducker makes so
    assert ai.style_ratio(events[2], cards("R2", "B3")) == pytest.approx(ai.DEAREST)
    # once seat 1 leads the R3 it held, it was no ducker
    later = high_round(hands, ["R8", "R9", "R7", "B13", "R3"])
    assert ai.style_blocks(ai.style_events(later, 0, ai.DUCKED)[1]) is None


def test_worlds_of_a_style_reading_hold_none_of_the_blocked_cards(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hands = [
        ["R1", "G2", "B5", "B6"],
        ["R9", "G7", "Y3", "Y8"],
        ["R5", "B2", "B3", "G4"],
        ["R6", "Y5", "N2", "G5"],
    ]
    state = high_round(hands, ["R1", "R9", "R5", "R6"])
    level = STYLE_READING
    # no score sheet yet: every other seat as likely to be always high as the prior says
    monkeypatch.setattr(
        ai,
        "high_priors",
        lambda state, seat, prior: [0.0 if s == seat else prior for s in range(4)],
    )
    domain = ai.WizardDomain(GAME, state, 1, level, random.Random(3))
    assert domain.style_ducks  # the style reading weighs those seats' ducking, not mixed_shift
    assert set(domain.styles) <= {0, 2, 3} and domain.styles
    rng, drawn = Rng(4), Counter()
    for _ in range(300):
        dealt, _bids, styled = domain.style_world(rng)
        for s, style in styled.items():
            drawn[style] += 1
            blocks = next(b for st, _odds, b in domain.styles[s] if st == style)
            assert not set(dealt[s]) & blocks
        sim = domain.determinize(rng)  # the seat's own hand, no card seen dealt again
        held = [c for hand in sim.hands for c in hand]
        assert sorted(sim.hands[1]) == sorted(cards("G7", "Y3", "Y8"))
        assert len(held) == len(set(held)) == 12
        assert not set(held) & cards("R1", "R9", "R5", "R6", "Y1")
    assert drawn[ai.GRABBED] and drawn[ai.DUCKED]  # worlds of both readings
    # a reading no deal can fit falls back to the plain worlds
    every = frozenset(range(len(DECK)))
    domain.styles = {s: [(ai.GRABBED, 1.0, every)] for s in domain.styles}
    domain.style_blocked = {}
    dealt, _bids, styled = domain.style_world(Rng(5))
    assert styled == {} and all(len(dealt[s]) == 3 for s in domain.styles)


def test_the_score_sheet_tells_an_always_high_player_from_the_others() -> None:
    """The finished rounds' cards (public) replayed: a seat that played its dearest legal card
    at every choice is believed always high, one that did not is not, and before any choice
    nobody is."""
    state = play_to(GAME.new_game("HPRI", None, 4), lambda s: s.round == 4 and s.phase == "bid")
    assert ai.high_priors(replace(state, history=()), 0, 0.1) == [0.0] * 4
    row = state.history[-1]  # round 3, the heuristic bots' cards
    counts = ai.dearest_counts(row)
    assert all(sum(c) <= row.round for c in counts) and any(c[1] for c in counts)
    # the same round with seat 1's cards replaced by what an always-high player would play
    high = high_row(row, 1)
    assert ai.dearest_counts(high)[1][1] == 0 and ai.dearest_counts(high)[1][0] > 0
    priors = ai.high_priors(replace(state, history=(high,)), 0, 0.1)
    k = ai.dearest_counts(high)[1][0]
    assert priors[0] == 0.0 and priors[1] > 0.1
    assert priors[1] == pytest.approx(0.1 * ai.DEAREST**k / (0.1 * ai.DEAREST**k + 0.9))
    assert all(priors[s] < 0.01 for s in (2, 3) if ai.dearest_counts(high)[s][1])


def high_row(row: Any, seat: int) -> Any:
    """``row`` with ``seat``'s cards replayed as an always-high player's, the others' as they
    were (each plays its next card if it is legal, else its first legal one)."""
    from tapete.wizard.cards import legal_cards, trick_winner

    n = len(row.bids)
    hands = [list(hand) for hand in row.cards]
    played: list[list[str]] = [[] for _ in range(n)]
    trump = ai.trump_number(row.trump)
    leader = (row.dealer + 1) % n
    for _ in range(row.round):
        trick: list[str] = []
        led = ai.NO_LED
        for k in range(n):
            s = (leader + k) % n
            legal = legal_cards(hands[s], trick)
            if s == seat:
                key = ai.power_keys(trump, ai.NO_LED if led == ai.FREE else led)
                card = max(legal, key=lambda c: key[DECK.index(c)])
            else:
                card = hands[s][0] if hands[s][0] in legal else legal[0]
            number = DECK.index(card)
            if led == ai.NO_LED:
                suit = ai.SUIT[number]
                led = ai.FREE if suit == ai.WIZ else led if suit == ai.JES else suit
            trick.append(card)
            hands[s].remove(card)
            played[s].append(card)
        leader = (leader + trick_winner(trick, row.trump)) % n
    return replace(row, cards=tuple(tuple(p) for p in played))


def test_the_style_reading_decides_from_the_view_alone() -> None:
    level = STYLE_READING
    state = play_to(GAME.new_game("HREADV", None, 4), lambda s: s.round == 5 and len(s.played) == 2)
    assert_same_view_same_decision(state, level)


def test_the_duck_gate_waits_for_the_score_sheet() -> None:
    state = play_to(GAME.new_game("GATE", None, 4), lambda s: s.round == 4 and s.phase == "bid")
    rows = state.history
    assert ai.duck_odds(replace(state, history=()), 0, 0.05, 1.0) is None  # no evidence yet
    assert ai.duck_odds(replace(state, history=()), 0, 0.05) is not None  # the plain prior
    made = tuple(replace(r, tricks=(r.bids[0], *r.tricks[1:])) for r in rows)
    over = tuple(replace(r, tricks=(r.bids[0] + 1, *r.tricks[1:])) for r in rows)
    assert ai.duck_odds(replace(state, history=made), 0, 0.05, 1.0) is None
    odds = ai.duck_odds(replace(state, history=over), 0, 0.05, 1.0)
    assert odds is not None and odds[0] == 0.0 and all(p > 0.05 for p in odds[1:])


def test_bid_candidates_reach_toward_the_own_excess() -> None:
    legal = range(11)
    assert ai.bid_candidates(3.2, legal) == [2, 3, 4, 5]  # within 2 of the estimate
    assert ai.bid_candidates(3.2, legal, 0.0, 1.0) == [3, 4]
    assert ai.bid_candidates(3.2, legal, 3.0) == [2, 3, 4, 5, 6, 7, 8]  # up to 6.2 + 2
    assert ai.bid_candidates(3.2, legal, -2.0) == [0, 1, 2, 3, 4, 5]
    assert ai.bid_candidates(9.5, range(3)) == [2]  # none within reach: the nearest legal bid
    # a table of duckers: from 1 below the estimate to ``up`` above the window
    assert ai.bid_candidates(3.2, legal, 1.0, 2.0, 3.0) == [3, 4, 5, 6, 7, 8, 9]


def with_own_rows(state: WizardState, seat: int, extra: int) -> WizardState:
    """``state`` with a score sheet where ``seat`` took ``extra`` tricks over its bid every
    round (the other seats' rows as they were)."""
    return replace(
        state,
        history=tuple(
            replace(
                r,
                tricks=tuple(r.bids[s] + extra if s == seat else t for s, t in enumerate(r.tricks)),
            )
            for r in state.history
        ),
    )


def test_the_own_excess_read_upward_only() -> None:
    state = play_to(GAME.new_game("OWNU", None, 4), lambda s: s.round == 6 and s.phase == "bid")
    assert ai.own_excess(with_own_rows(state, 0, -1), 0, 8.0, upward=True) == 0.0
    over = with_own_rows(state, 0, 1)  # every shift is above 0 already: the same reading
    assert ai.own_excess(over, 0, 8.0, upward=True) == ai.own_excess(over, 0, 8.0)


def wide_bids_level(own: float, duck_bid: float = 0.0) -> ai.Level:
    """A small level with every bid-window knob on."""
    return ai.Level(
        iterations=40,
        per_card=20,
        max_plays=4_000,
        bid_sims=60,
        own=own,
        own_up=True,
        bid_reach=1.0,
        bid_up=3.0,
        duck=0.3,
        duck_bid=duck_bid,
        duck_gate=1.0,
    )


def test_the_reaching_bids_decide_from_the_view_alone() -> None:
    level = wide_bids_level(2.0, duck_bid=0.3)
    state = play_to(GAME.new_game("REACH", None, 4), lambda s: s.round == 5 and s.phase == "bid")
    seat = GAME.to_move(state)
    assert seat is not None
    over = with_own_rows(state, seat, 3)  # 3 tricks over its bid every round: the gate opens
    assert ai.duck_odds(over, seat, 0.3, 1.0) is not None
    assert_same_view_same_decision(over, level)


def test_the_bid_window_widens_upward_once_the_table_looks_like_duckers() -> None:
    level = wide_bids_level(8.0)
    state = play_to(GAME.new_game("WIDE", None, 4), lambda s: s.round == 9 and s.phase == "bid")
    seat = GAME.to_move(state)
    assert seat is not None
    legal = list(range(10))
    expected = ai.estimate_tricks(state.hands[seat], state.trump, 4)
    made = with_own_rows(state, seat, 0)  # on its bid every round: the gate shut, plain window
    assert ai.level_candidates(level, made, seat, expected, legal, None) == ai.bid_candidates(
        expected, legal
    )
    over = with_own_rows(state, seat, 2)  # two over every round: up to the excess, 3 further
    shift = ai.own_excess(over, seat, 8.0, upward=True) * state.round
    wide = ai.level_candidates(level, over, seat, expected, legal, None)
    assert shift > 0.0
    assert wide == [b for b in legal if expected - 1.0 <= b <= expected + shift + 5.0]


def with_choices(state: WizardState, seat: int, chances: int, ducked: int) -> WizardState:
    """``state`` whose score sheet shows ``seat`` with ``chances`` choices while it needed
    tricks, ``ducked`` of them ducked, in its first round (every other count 0)."""
    return with_counts(state, seat, (chances, ducked, 0, 0, 0, 0))


COUNTS = ("chances", "ducked", "spares", "took", "last_chances", "last_ducked")


def with_counts(state: WizardState, seat: int, counts: tuple[int, ...]) -> WizardState:
    """``state`` whose score sheet shows ``seat`` with ``counts`` (``COUNTS``, in that order)
    in its first round, and every other count 0."""
    n = state.players
    zero = dict.fromkeys(COUNTS, (0,) * n)
    rows = [replace(r, **zero) for r in state.history]
    given = zip(COUNTS, counts, strict=True)
    first = {key: tuple(k if s == seat else 0 for s in range(n)) for key, k in given}
    rows[0] = replace(rows[0], **first)
    return replace(state, history=tuple(rows))


def test_the_choices_read_each_seat_apart() -> None:
    state = play_to(GAME.new_game("READ", None, 4), lambda s: s.round == 4 and s.phase == "bid")
    seat = GAME.to_move(state)
    assert seat is not None
    other = (seat + 1) % 4
    ducker = with_choices(state, other, 3, 3)
    assert ai.choices_ratio(ducker, other) == pytest.approx(
        (ai.DUCKER_DUCKS / ai.BIDDER_DUCKS) ** 3
    )
    odds = ai.duck_odds(ducker, seat, 0.3, 0.0, 10.0, table=False)
    assert odds is not None and odds[other] > 0.9  # three ducks in three chances
    assert [p for s, p in enumerate(odds) if s != other] == [0.0] * 3  # nothing read of others
    # a seat that took one of its chances is not believed to duck; no evidence, no belief
    took = with_choices(state, other, 3, 2)
    assert ai.duck_odds(took, seat, 0.3, 0.0, 10.0, table=False) is None
    assert ai.duck_odds(with_choices(state, other, 0, 0), seat, 0.3, 0.0, 1.0, table=False) is None
    # in card play on top of the table's reading (the seat's own rows): the larger of the two
    table = ai.duck_odds(took, seat, 0.3)
    assert table is not None and ai.duck_odds(took, seat, 0.3, 0.0, 10.0) == table
    both = ai.duck_odds(ducker, seat, 0.3, 0.0, 10.0)
    assert both is not None and both[other] == odds[other]
    assert all(both[s] == table[s] for s in range(4) if s != other)
    # rows saved before the choices were counted read as no evidence
    old = replace(state, history=tuple(replace(r, chances=(), ducked=()) for r in state.history))
    assert ai.choices_ratio(old, other) == 1.0


def test_a_seat_that_takes_spare_tricks_is_read_as_wild() -> None:
    state = play_to(GAME.new_game("WILD", None, 4), lambda s: s.round == 4 and s.phase == "bid")
    seat = GAME.to_move(state)
    assert seat is not None
    other = (seat + 2) % 4
    wild = with_counts(state, other, (6, 3, 3, 2, 4, 2))  # 2 of 3 spares taken, 2 of 4 let go
    odds = ai.wild_odds(wild, seat, 0.1)
    assert odds is not None and odds[seat] == 0.0
    assert odds[other] > 0.9
    assert all(odds[s] == pytest.approx(0.1) for s in range(4) if s not in (seat, other))
    for calm in ((10, 3, 5, 0, 4, 0), (8, 8, 2, 0, 6, 6)):  # playing for its bid; a ducker
        read = ai.wild_odds(with_counts(state, other, calm), seat, 0.1)
        assert read is not None and read[other] < 0.02, calm
    assert ai.wild_odds(wild, seat, 0.0) is None  # off
    # so much evidence that every model's likelihood is under the smallest float: read in logs
    flood = ai.wild_odds(with_counts(state, other, (600, 300, 600, 300, 600, 300)), seat, 0.1)
    assert flood is not None and flood[other] == pytest.approx(1.0)
    level = replace(ai.LEVELS["normal"], wild=0.1, wild_noise=0.7, wild_tree=0.0, wild_bids=0.0)
    noise = ai.seat_noise(level, ai.wild_weights(wild, seat, level))
    assert isinstance(noise, list) and noise[seat] == level.noise
    assert noise[other] == pytest.approx(
        level.noise + (odds[other] - 0.1) / 0.9 * (0.7 - level.noise)
    )
    assert all(noise[s] == level.noise for s in range(4) if s != other)  # no wilder than the prior
    assert (
        ai.seat_noise(level, ai.wild_weights(wild, seat, replace(level, wild=0.0))) == level.noise
    )  # off
    # in the tree: wild_tree of the extra noise, for the wild seat only; nothing when off
    tree = ai.tree_noise(noise, replace(level, wild_tree=0.5))
    assert tree is not None and tree[other] == pytest.approx((noise[other] - level.noise) / 2)
    assert [x for s, x in enumerate(tree) if s != other] == [0.0] * 3
    assert ai.tree_noise(noise, level) is None
    assert ai.tree_noise(level.noise, replace(level, wild_tree=0.5)) is None


def test_a_table_read_as_wild_takes_off_the_own_excess_correction() -> None:
    state = play_to(GAME.new_game("WOWN", None, 4), lambda s: s.round == 4 and s.phase == "bid")
    seat = GAME.to_move(state)
    assert seat is not None
    other = (seat + 2) % 4
    wild = with_counts(state, other, (6, 3, 3, 2, 4, 2))
    level = replace(ai.LEVELS["normal"], wild=0.1, wild_noise=0.7, wild_bids=0.0, wild_own=1.0)
    weights = ai.wild_weights(wild, seat, level)
    assert weights is not None and weights[seat] == 0.0 and weights[other] > 0.8
    assert ai.own_weight(level, seat, weights) == pytest.approx(1.0 - weights[other] / 3)
    assert ai.own_weight(replace(level, wild_own=0.5), seat, weights) == pytest.approx(
        1.0 - weights[other] / 6
    )
    # off, or nobody read as wilder than the prior: the whole correction
    assert ai.own_weight(replace(level, wild_own=0.0), seat, weights) == 1.0
    calm = with_counts(state, other, (10, 3, 5, 0, 4, 0))
    assert ai.own_weight(level, seat, ai.wild_weights(calm, seat, level)) == 1.0
    # a hair wilder than the prior (less than WILD_WEIGHT_FLOOR of the way): no weight at all
    hair = with_counts(state, other, (0, 0, 1, 0, 2, 2))
    odds = ai.wild_odds(hair, seat, 0.1)
    assert odds is not None and 0.0 < (odds[other] - 0.1) / 0.9 < ai.WILD_WEIGHT_FLOOR
    assert ai.wild_weights(hair, seat, level) == [0.0] * 4
    assert ai.seat_noise(level, ai.wild_weights(hair, seat, level)) == [level.noise] * 4
    assert ai.own_weight(level, seat, ai.wild_weights(hair, seat, level)) == 1.0
    assert ai.wild_weights(wild, seat, replace(level, wild=0.0)) is None


def test_a_seat_that_bids_at_random_is_read_as_wild_from_its_hands() -> None:
    game = play_to(GAME.new_game("BIDS", None, 4), lambda s: s.round == 7 and s.phase == "bid")
    seat = GAME.to_move(game)
    assert seat is not None
    other = (seat + 1) % 4
    state = with_counts(game, other, (0,) * 6)  # the bids alone

    def bidding(bid: Any) -> WizardState:
        """``state`` with ``other``'s bids ``bid(row, estimate of its hand)``."""
        rows = []
        for row in state.history:
            estimate = ai.estimate_tricks(row.cards[other], row.trump, 4)
            bids = list(row.bids)
            bids[other] = max(0, min(row.round, bid(row, estimate)))
            rows.append(replace(row, bids=tuple(bids)))
        return replace(state, history=tuple(rows))

    def read(bids: WizardState, weight: float = 1.0) -> float:
        odds = ai.wild_odds(bids, seat, 0.1, weight)
        assert odds is not None and odds[seat] == 0.0
        return odds[other]

    at_estimate = bidding(lambda row, e: round(e))
    assert read(at_estimate) < 0.05
    assert read(bidding(lambda row, e: round(e + 1.5))) < 0.05  # a steady over-bidder
    far = bidding(lambda row, e: 0 if e > row.round / 2 else row.round)
    assert read(far) > 0.9
    assert read(far, 0.0) == 0.1  # bids not weighed: no evidence, the prior
    assert read(far, 2.0) > read(far)
    sensible, wild = ai.bids_log_likelihoods(far, other)
    assert wild == -sum(math.log(r + 1) for r in range(1, 7)) and sensible < wild
    old = replace(far, history=tuple(replace(r, cards=()) for r in far.history))
    assert ai.bids_log_likelihoods(old, other) == (0.0, 0.0)
    assert ai.wild_odds(old, seat, 0.1, 1.0) == [0.1 if s != seat else 0.0 for s in range(4)]


def test_the_wild_reading_decides_from_the_view_alone() -> None:
    level = replace(wide_bids_level(8.0), wild=0.1, wild_noise=0.7, wild_tree=1.0, wild_bids=1.0)
    state = play_to(GAME.new_game("WILDV", None, 4), lambda s: s.round == 5 and len(s.played) == 2)
    seat = GAME.to_move(state)
    assert seat is not None
    assert_same_view_same_decision(with_counts(state, (seat + 1) % 4, (6, 3, 3, 2, 4, 2)), level)
    bidding = play_to(GAME.new_game("WILDB", None, 4), lambda s: s.round == 5 and s.phase == "bid")
    bidder = GAME.to_move(bidding)
    assert bidder is not None
    assert_same_view_same_decision(
        with_counts(bidding, (bidder + 3) % 4, (6, 3, 3, 2, 4, 2)), level
    )


def test_the_choices_reading_decides_from_the_view_alone() -> None:
    level = replace(wide_bids_level(8.0, duck_bid=0.3), read_gate=10.0)
    state = play_to(GAME.new_game("READV", None, 4), lambda s: s.round == 5 and len(s.played) == 2)
    seat = GAME.to_move(state)
    assert seat is not None
    ducker = with_choices(state, (seat + 1) % 4, 4, 4)
    assert ai.duck_odds(ducker, seat, 0.3, 1.0, 10.0, table=False) is not None
    assert_same_view_same_decision(ducker, level)
    bidding = play_to(GAME.new_game("READB", None, 4), lambda s: s.round == 5 and s.phase == "bid")
    bidder = GAME.to_move(bidding)
    assert bidder is not None
    assert_same_view_same_decision(with_choices(bidding, (bidder + 2) % 4, 4, 4), level)


def test_the_wide_bid_window_waits_for_enough_seats_that_duck() -> None:
    level = replace(wide_bids_level(8.0), bid_reach=0.0, read_gate=10.0, bid_up_seats=2)
    state = play_to(GAME.new_game("SEATS", None, 4), lambda s: s.round == 9 and s.phase == "bid")
    seat = GAME.to_move(state)
    assert seat is not None
    over = with_own_rows(state, seat, 1)  # the seat's own excess is above 0
    legal = list(range(10))
    expected = ai.estimate_tricks(state.hands[seat], state.trump, 4)
    plain, wide = ai.bid_candidates(expected, legal), ai.bid_candidates(expected, legal, 0, 2, 3)
    assert plain != wide
    a, b = (seat + 1) % 4, (seat + 2) % 4
    one = with_choices(over, a, 4, 4)
    assert ai.level_candidates(level, one, seat, expected, legal, None) == plain
    assert (
        ai.level_candidates(replace(level, bid_up_seats=1), one, seat, expected, legal, None)
        == wide
    )
    first = one.history[0]
    two = replace(
        one,
        history=(
            replace(
                first,
                chances=tuple(4 if s in (a, b) else 0 for s in range(4)),
                ducked=tuple(4 if s in (a, b) else 0 for s in range(4)),
            ),
            *one.history[1:],
        ),
    )
    assert ai.level_candidates(level, two, seat, expected, legal, None) == wide


def test_finished_rounds_count_lost_strong_and_spare_tricks() -> None:
    """``TWO_CARD_ROUND``, read for the tricks lost while needing and taken once made."""
    row = TWO_CARD_ROUND
    assert ai.follow_counts(row) == ((0, 0, 1, 0), (2, 1, 0, 0), (0, 0, 1, 1), (0, 0, 0, 0))
    assert ai.follow_counts(replace(row, cards=())) == ((0, 0, 0, 0),) * 4  # older rows
    state = replace(GAME.new_game("READ", None, 4), history=(row,))
    level = replace(ai.LEVELS["normal"], lost_strong=0.3, took_spare=0.5, read_weight=4.0)
    reading = ai.card_reading(state, level)
    assert reading[1] == pytest.approx(((4 * 0.3 + 1) / 6, 0.5))
    assert reading[2] == pytest.approx((0.3, (4 * 0.5 + 1) / 5))


def test_a_world_weighs_the_cards_a_bid_player_would_not_have_kept() -> None:
    """Seat 1 lost a trick it needed while a Wizard would have won it; seat 2 took one with its
    bid made while a Jester would have lost it. Worlds that give them those cards weigh less."""
    state = play_to(GAME.new_game("READ", None, 4), lambda s: s.phase == "play")
    level = replace(ai.LEVELS["normal"], lost_strong=0.3, took_spare=0.5)
    domain = ai.WizardDomain(GAME, state, 0, level, random.Random(3))
    jester, wizard, low = DECK.index("N1"), DECK.index("Z1"), 0
    losers, winners = 1 << jester | 1 << low, 1 << wizard
    domain.needing = [[], [(1 << low, 0, losers, winners, 0)], [], []]
    domain.spare = [[], [], [(1 << wizard, 0, losers)], []]
    domain.odds = None
    assert domain.card_likelihood(1, [wizard]) == pytest.approx(0.3)
    assert domain.card_likelihood(1, [jester]) == 1.0
    assert domain.card_likelihood(2, [jester]) == pytest.approx(0.5)
    assert domain.card_likelihood(2, []) == 1.0  # it held no loser: forced
    domain.odds = [0.0, 0.5, 0.0, 0.0]  # a ducker would have lost with the Wizard's hand too
    assert domain.card_likelihood(1, [wizard]) == pytest.approx(0.5 * 0.3 + 0.5)


def test_worlds_a_bid_player_cannot_hold_are_never_drawn() -> None:
    """With ``lost_strong`` 0, no world gives a seat that lost a trick it needed a strong card
    that would have won it (on a real round, the reading from public cards only)."""
    level = replace(ai.LEVELS["normal"], lost_strong=0.0, took_spare=1.0, read_pool=64)
    for seed in range(40):
        state = GAME.new_game(f"R{seed}", None, 4)
        state = play_to(state, lambda s: s.round == 5 or GAME.to_move(s) is None)
        state = play_to(state, lambda s: s.phase == "play" and len(s.played) >= 2)
        seat = GAME.to_move(state)
        assert seat is not None
        needing, _spare = ai.follow_evidence(state, frozenset())
        lost = [(s, e) for s in range(4) if s != seat for e in needing[s] if not e[4] and e[3]]
        if not lost:
            continue
        domain = ai.WizardDomain(GAME, state, seat, level, random.Random(3))
        rng = Rng.derive("worlds", seed)
        for _ in range(20):
            sim = domain.determinize(rng)
            for s, (later, suit_bits, _losers, winners, _wins) in lost:
                held = sum(1 << c for c in sim.hands[s]) | later
                legal = held & (suit_bits | ai.WILD_BITS) if held & suit_bits else held
                assert not legal & winners
        return
    raise AssertionError("no seed showed a lost trick with a strong card unseen")


def test_finished_rounds_read_how_dearly_each_seat_plays() -> None:
    """``TWO_CARD_ROUND``, read for the power of the cards played: seat 0 (bid made)
    leads its cheaper card, seat 1 follows cheap while it needs a trick, seat 2 (bid made)
    follows dear, seat 3 (needing) throws its cheaper off-suit card; the second trick is
    forced."""
    row = TWO_CARD_ROUND
    # (needing, the power played, the legal cards' powers): green led is +20, a Wizard 100
    assert ai.rank_counts(row) == (
        ((0, 5, (7, 5)),),
        ((1, 22, (22, 100)),),
        ((0, 29, (23, 29)),),
        ((1, 1, (1, 2)),),
    )
    assert ai.rank_counts(replace(row, cards=())) == ((),) * 4
    flat = ai.BETAS.index(0.0)
    spent, needing = ai.rank_log_likelihoods(row)[1]
    assert needing[flat] == pytest.approx(-math.log(2))  # no preference: one in two
    assert spent == (0,) * len(ai.BETAS)  # it never played with its bid made
    state = replace(GAME.new_game("READ", None, 4), history=(row,))
    read = ai.rank_reading(state, 10.0)
    assert (read[0][0], read[2][0], read[3][1]) == (ai.BETAS[0], ai.BETAS[-1], ai.BETAS[0])
    assert read[1][1] < 0.0  # cheap while needing (a Wizard weighs little even at a small beta)
    assert (read[0][1], read[1][0], read[2][1], read[3][0]) == (0.0,) * 4  # nothing to read
    assert ai.rank_reading(state, 1e-3) == [(0.0, 0.0)] * 4  # the prior holds one round


def test_a_world_weighs_a_seat_by_how_dearly_it_played() -> None:
    """Seat 1 followed green with G3 while it needed a trick. A world that also gives it G9
    had it play the cheaper of two legal cards; a world with no other green card, its only
    one."""
    green = ai.SUIT[DECK.index("G3")]
    g3, g9, r5 = (DECK.index(c) for c in ("G3", "G9", "R5"))
    event = (1 << g3, ai.SUIT_BITS[green], green, g3, 1)
    trump = ai.trump_number(None)
    beta = 0.1
    cheap = math.exp(beta * 23) / (math.exp(beta * 23) + math.exp(beta * 29))
    assert ai.rank_factor([event], 1 << g9, trump, (0.0, beta)) == pytest.approx(cheap)
    assert ai.rank_factor([event], 1 << r5, trump, (0.0, beta)) == 1.0  # forced
    assert ai.rank_factor([event], 1 << g9, trump, (beta, 0.0)) == 1.0  # read only after made
    dear = (1 << g9, ai.SUIT_BITS[green], green, g9, 0)
    assert ai.rank_factor([dear], 1 << g3, trump, (beta, 0.0)) == pytest.approx(1 - cheap)


def test_the_power_reading_reads_this_rounds_public_cards_only() -> None:
    """Each seat's events are the cards it played this round, in order, with whether it still
    needed tricks then; the hidden bidders' plays are left out."""
    state = GAME.new_game("POWER", None, 4)
    state = play_to(state, lambda s: s.round == 6 and s.phase == "play")
    state = play_to(state, lambda s: len(s.played) == 3 and len(s.trick) == 2)
    plays = ai.rank_plays(state, frozenset({2}))
    assert plays[2] == []
    for seat in (0, 1, 3):
        mine = [ai.CARD_NUMBER[c] for t in (*state.played, state.trick) for s, c in t if s == seat]
        assert [e[3] for e in plays[seat]] == mine
        later = 0
        for event, card in zip(reversed(plays[seat]), reversed(mine), strict=True):
            later |= 1 << card
            assert event[0] == later
    needs = [e[4] for e in plays[0]]
    assert needs == sorted(needs, reverse=True)  # once made, a bid stays made
