"""Willie's bots and hint: strength sanity, the closing estimate, the hint's content."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from fractions import Fraction
from itertools import combinations

from tapete.bots import choose_move
from tapete.errors import IllegalMoveError
from tapete.willie import DECK, GAME, Move, solve
from tapete.willie.bots import chance_at_most, undercut_risk


def test_normal_beats_easy() -> None:
    """A sanity check of strength (the real measurement is bench/bench_willie.py)."""
    totals = [0.0, 0.0]
    for i in range(16):
        state = GAME.new_game(f"DUEL{i}", None, 2)
        steps = 0
        while (seat := GAME.to_move(state)) is not None:
            level = "normal" if seat % 2 == i % 2 else "easy"
            state = GAME.apply(state, seat, choose_move(GAME, state, seat, level, (i, steps)))
            steps += 1
        outcome = GAME.outcome(state)
        assert outcome is not None
        for seat, score in enumerate(outcome.scores):
            totals[0 if seat % 2 == i % 2 else 1] += score
    assert totals[0] > totals[1] + 50


def test_easy_never_touches_the_table() -> None:
    state = GAME.new_game("EASY", None, 2)
    steps = 0
    while (seat := GAME.to_move(state)) is not None and steps < 400:
        move = choose_move(GAME, state, seat, "easy", steps)
        if move.kind == "meld":
            assert move.table[: len(state.table)] == state.table
        state = GAME.apply(state, seat, move)
        steps += 1


def test_chance_at_most_is_exact() -> None:
    cards = [1, 1, 1, 1, 2, 3, 5, 5]
    kinds = Counter(cards)
    for size in range(0, 5):
        for limit in range(0, 12):
            hands = list(combinations(range(len(cards)), size))
            good = sum(sum(cards[i] for i in hand) <= limit for hand in hands)
            expected = Fraction(good, len(hands))
            got = chance_at_most(kinds, len(cards), size, limit)
            assert abs(got - float(expected)) < 1e-12, (size, limit)


def test_closing_estimate_and_hint() -> None:
    hand = ["R2", "R3", "R4", "B9", "G9"]
    other = ["O2", "O3", "O5"]
    rest = list((Counter(DECK) - Counter(hand) - Counter(other)).elements())
    state = GAME.new_game("HINT", None, 2)
    state = replace(
        state, hands=(tuple(hand), tuple(other)), stock=tuple(rest), turn=0, phase="meld", draws=1
    )
    hint = GAME.hint(state, 0)
    best = solve([], hand)
    assert best is not None and hint["move"] == best.move.to_json()
    assert hint["points"] == 3 and hint["changes"] == 0 and hint["hand_after"] == 2
    state = GAME.apply(state, 0, best.move)
    assert state.phase == "end_turn"
    view = GAME.view(state, 0)
    assert undercut_risk(view, 2) == 0.0  # three cards are worth 3 points at least
    assert 0 < undercut_risk(view, 3) < 1
    hint = GAME.hint(state, 0)
    assert hint["move"] in ("close", "continue") and 0 <= hint["undercut_risk"] <= 1
    assert choose_move(GAME, state, 0, "normal") == Move("close")
    risky = replace(state, hands=(state.hands[0], ("O2", "O3")))  # 2 cards may hold 2 points
    assert undercut_risk(GAME.view(risky, 0), 2) > 0.5
    assert choose_move(GAME, risky, 0, "normal") == Move("continue")
    assert choose_move(GAME, risky, 0, "easy") == Move("close")


def test_a_bot_closes_only_when_the_rules_allow() -> None:
    """SPEC.md 1.3 and W-14: a close comes at the end of a regular turn (after its draw), with
    the threshold's points or fewer, never in the final turns; at every other moment the engine
    refuses one. Bots often close on their first turn (the lab's numbers on the rules page):
    that is the rules' doing, not an early close."""
    closes = 0
    for i in range(6):
        threshold = (3, 1)[i % 2]
        state = GAME.new_game(f"CLOSE{i}", {"close_threshold": threshold}, 2 + i % 2)
        steps = 0
        while (seat := GAME.to_move(state)) is not None:
            if state.phase != "end_turn":
                try:
                    GAME.check(state, seat, Move("close"))
                except IllegalMoveError:
                    pass
                else:
                    raise AssertionError(f"a close allowed in phase {state.phase}")
            move = choose_move(GAME, state, seat, "normal", (i, steps))
            if move.kind == "close":
                closes += 1
                assert state.phase == "end_turn" and state.draws >= 1
                assert GAME.points(state, seat) <= threshold and state.hands[seat]
            state = GAME.apply(state, seat, move)
            steps += 1
    assert closes >= 6
