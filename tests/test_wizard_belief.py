"""The bench's measure of what the Wizard card search believes of the hidden hands
(bench/bench_wizard_belief.py): the score of a pool, the policy mixture's reading of finished
rounds, and a small real run."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

import helpers
from helpers import TWO_CARD_ROUND
from tapete.wizard import GAME, WizardState, ai

belief = helpers.load_bench("bench_wizard_belief")


def test_finished_rounds_read_as_choices_of_five_simple_players() -> None:
    """(needing; the simple bot's card, the dearest, the cheapest, a ducker's; legal cards)."""
    assert belief.finished_choices(TWO_CARD_ROUND) == (
        (((0, 1, 0, 1, 1, 2),), ()),  # leads its cheaper card: simple, cheapest, ducker
        ((), ((1, 0, 0, 1, 1, 2),)),  # G2 under G5 with a Wizard in hand: cheapest, ducker
        (((0, 0, 1, 0, 0, 2),), ()),  # G9 over G5 with its bid made: only the dearest
        ((), ((1, 1, 0, 1, 0, 2),)),  # B1: no winner, the simple bot's cheapest
    )
    assert belief.finished_choices(replace(TWO_CARD_ROUND, cards=())) == (((), ()),) * 4


def test_the_mixture_follows_what_a_seat_shows() -> None:
    assert belief.mixture([]) == belief.PRIOR
    dearest = [(1, 0, 1, 0, 0, 3)] * 40
    mix = belief.mixture(dearest)
    assert sum(mix) == pytest.approx(1.0)
    assert mix[1] > 0.8 and mix[1] == max(mix)
    every = [(1, 1, 1, 1, 1, 3)] * 40  # the four simple players agree: they keep their ratios
    mix = belief.mixture(every)
    assert mix[0] / mix[1] == pytest.approx(belief.PRIOR[0] / belief.PRIOR[1])
    assert mix[4] < belief.PRIOR[4]  # any card alike explains them worse


def a_position() -> tuple[WizardState, int]:
    state = GAME.new_game("BELIEF", None, 4)
    while state.round < 4 or state.phase != "play" or len(state.played) < 1:
        seat = GAME.to_move(state)
        assert seat is not None
        state = GAME.apply(state, seat, GAME.legal_moves(state, seat)[0])
    seat = GAME.to_move(state)
    assert seat is not None
    return state, seat


def test_a_pool_is_scored_against_the_real_hands() -> None:
    state, seat = a_position()
    truth = {
        s: [ai.CARD_NUMBER[c] for c in state.hands[s]]
        for s in range(4)
        if s != seat and state.hands[s]
    }
    exact = belief.scored(state, seat, [truth], [1.0])
    assert (exact.mean_p, exact.mean_log, exact.effective) == (1.0, 0.0, 1.0)
    a, b = sorted(truth)[:2]
    swapped = {**truth, a: truth[b], b: truth[a]}
    half = belief.scored(state, seat, [truth, swapped], [1.0, 1.0])
    cards = sum(len(hand) for hand in truth.values())
    moved = len(truth[a]) + len(truth[b])
    assert half.mean_p == pytest.approx((cards - moved / 2) / cards)
    assert half.effective == pytest.approx(2.0)
    wrong = belief.scored(state, seat, [swapped], [1.0])
    assert wrong.mean_log < math.log(0.5)


def test_a_small_run_scores_every_variant_on_the_same_decisions() -> None:
    base = ai.LEVELS["hard"]
    variants = [
        belief.parse_variant("plain=rank_spread=0.0,read_pool=32", base),
        belief.parse_variant("both=read_pool=32,policy=0.3,bids=0.7", base),
    ]
    assert variants[1].policy == 0.3 and variants[1].bids == 0.7
    assert variants[1].level.read_pool == 32 and variants[0].level.rank_spread == 0.0
    scores = belief.measure("simple", "simple", [0], variants)
    plain, both = scores["plain"], scores["both"]
    assert len(plain) == len(both) > 10
    for s in plain + both:
        assert 0.0 <= s.mean_p <= 1.0 and s.mean_log <= 0.0 and 1.0 <= s.effective <= 32.0 + 1e-9
    assert all(s.effective == pytest.approx(32.0) for s in plain)  # nothing read: all alike
    assert any(s.effective < 31.0 for s in both)
    assert sum(s.mean_p for s in plain) > 0.0
