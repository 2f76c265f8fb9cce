"""Wizard's judge: the hint's search names the best bid, trump or card; a paired simulation
measures what the move played gave away against it, in expected round points.

Glossary:

hint          ``tapete.wizard.ai.hint``: what the Hint button says at that moment (the normal
              level's search, seeded by the seat and the round), from the seat's view alone
paired worlds the two moves compared (the hint's and the one played) are simulated on the same
              worlds (``sample_world``'s draws of the hidden hands) with the same random
              choices afterwards, so their difference is measured with little noise: a bid by
              ``bid_values`` over ``BID_WORLDS`` worlds, a card by playing it and the rest of
              the round with the bots' play policy over ``CARD_WORLDS`` worlds, a trump suit
              by ``choose_trump`` with ``TRUMP_SIMS`` simulated rounds
loss          expected round points of the hint's move minus those of the move played, never
              negative; a move the paired worlds rate at least as high is no loss

Units and grades: Wizard scores 20 + 10 per trick for a bid made and -10 per trick off, so
turning a made bid into one missed by a trick costs at least 30 points. A loss under 3 points
(about a tenth of that) is within the noise of the estimate: *good*; 3 to 10 an *inaccuracy*;
10 or more (a third of a made bid, or worse) a *mistake*.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from ..rng import Rng
from ..wizard import ai
from ..wizard.cards import DECK_NUMBER
from ..wizard.game import Move, Wizard, WizardState, round_points
from .verdict import Grading, Verdict, rounded

GRADING = Grading("points", inaccuracy=3.0, mistake=10.0)
BID_WORLDS = 200
CARD_WORLDS = 150
TRUMP_SIMS = 800
PLAYS_PER_UNIT = 300  # simulated card plays per work unit (about 1 ms of CPython)


def cost(game: Wizard, state: WizardState, seat: int) -> int:
    if len(game.legal_moves(state, seat)) <= 1:
        return 1
    level = ai.LEVELS[ai.HINT_LEVEL]
    round_plays = state.round * state.players
    if state.phase == "trump":
        plays = (level.bid_sims + TRUMP_SIMS) * round_plays * 2
    elif state.phase == "bid":
        plays = (level.bid_sims + 2 * BID_WORLDS) * round_plays
    else:
        left = sum(len(hand) for hand in state.hands)
        plays = level.max_plays + 2 * CARD_WORLDS * left
    return 1 + plays // PLAYS_PER_UNIT


def judge(game: Wizard, state: WizardState, seat: int, move: Move) -> Verdict | None:
    if len(game.legal_moves(state, seat)) <= 1:
        return None
    hint = ai.hint(game, state, seat)
    best = game.parse_move(hint["move"])
    kind = "card" if move.kind == "play" else move.kind
    context: dict[str, Any] = {"round": state.round}
    if state.phase == "play":
        context["trick"] = len(state.played) + 1
    facts: dict[str, Any] = {"hint": hint["move"]}
    if "expected_tricks" in hint:
        facts["expected_tricks"] = hint["expected_tricks"]
    played = game.move_to_json(move)
    if best == move:
        value = hint.get("expected_points")
        return Verdict(kind, played, played, 0.0, value, value, context=context, facts=facts)
    rng = Rng.derive("review", game.id, seat, state.round, state.phase, plays_so_far(state))
    if state.phase == "bid":
        values = paired_bids(game, state, seat, [int(best.value), int(move.value)], rng)
    elif state.phase == "trump":
        level = replace(ai.LEVELS[ai.HINT_LEVEL], bid_sims=TRUMP_SIMS)
        by_suit = ai.choose_trump(game, state, seat, rng, level)[1]
        values = [by_suit[str(best.value)], by_suit[str(move.value)]]
    else:
        values = paired_cards(game, state, seat, [str(best.value), str(move.value)], rng)
    loss = max(0.0, values[0] - values[1])
    better = game.move_to_json(best) if round(loss, 1) > 0 else played
    return Verdict(
        kind,
        played,
        better,
        loss,
        rounded(values[1]),
        rounded(values[0]),
        context=context,
        facts=facts,
    )


def plays_so_far(state: WizardState) -> int:
    """Cards played in this round (what the seat sees of the round's progress)."""
    return len(state.played) * state.players + len(state.trick)


def paired_bids(
    game: Wizard, state: WizardState, seat: int, bids: list[int], rng: Rng
) -> list[float]:
    """The expected round points of each bid, over the same ``BID_WORLDS`` worlds."""
    noise = ai.LEVELS[ai.HINT_LEVEL].noise
    values = ai.bid_values(game, state, seat, rng, BID_WORLDS * len(bids), bids, noise)
    return [values[bid] for bid in bids]


def paired_cards(
    game: Wizard, state: WizardState, seat: int, cards: list[str], rng: Rng
) -> list[float]:
    """The expected round points of playing each card, then the rest of the round with the
    play policy, over the same ``CARD_WORLDS`` worlds and random choices."""
    level = ai.LEVELS[ai.HINT_LEVEL]
    domain = ai.WizardDomain(game, state, seat, level, random.Random(0))
    totals = [0.0] * len(cards)
    for _ in range(CARD_WORLDS):
        world = domain.determinize(rng)
        playout_seed = rng.next_u64()
        for i, card in enumerate(cards):
            sim = world.copy()
            sim.play(DECK_NUMBER[card])
            ai.play_out(sim, random.Random(playout_seed), level.noise)
            totals[i] += round_points(sim.bids[seat], sim.won[seat])
    return [total / CARD_WORLDS for total in totals]
