"""Willie's judge: the solver's best meld phase against the one made, and the closes.

Glossary:

best meld     the Hint's answer in a meld phase: ``tapete.willie.solve`` on the table and the
              seat's hand (any rearrangement), the most hand points shed
meld loss     the hand points the best meld sheds minus those the move shed (a pass sheds none):
              points kept in hand, each of which counts against the seat in the round's
              differences
going out     a best meld that empties the hand ends the round with the going-out bonus:
              missing it is a mistake whatever the points
close         at the end of a turn with few points: close now or continue; both are measured
              in expected round points over the same worlds (:mod:`.willie_close`), and the
              loss is what the choice made gives away against the better one

Units and grades (points): a loss under 2 points is *good*; 2 to 5 (a Queen or two number
cards kept back) an *inaccuracy*; 5 or more (a King, a whole meld) a *mistake*. Meld figures
are exact (the solver proves them, except in huge positions: ``exact`` says so); close figures
are estimates over seeded worlds.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..willie.cards import hand_points, point_table, sort_cards
from ..willie.game import Willie, WillieState
from ..willie.melds import token_card
from ..willie.moves import Move, played_cards
from . import willie_close
from .verdict import Grading, Verdict, rounded

GRADING = Grading("points", inaccuracy=2.0, mistake=5.0)
MELD_BASE = 15  # work units of the solver on a meld phase, plus one per card
MELD_PHASES = ("meld", "final")


def cost(game: Willie, state: WillieState, seat: int) -> int:
    if state.phase in MELD_PHASES:
        cards = len(state.hands[seat]) + sum(len(meld) for meld in state.table)
        return MELD_BASE + cards
    if state.phase == "end_turn":
        return willie_close.cost(state)
    return 1  # a draw: the only move


def judge(game: Willie, state: WillieState, seat: int, move: Move) -> Verdict | None:
    if state.phase == "end_turn":
        return judge_close(game, state, seat, move)
    if state.phase not in MELD_PHASES:
        return None
    hint = game.hint(state, seat)
    if hint.get("reason") == "no_meld" and move.kind == "pass":
        return None  # nothing could be melded
    points = point_table(state.option)
    hand = state.hands[seat]
    laid = played_cards(state.table, move) if move.kind == "meld" else ()
    shed = hand_points(laid, points)
    best = int(hint.get("points", 0))
    loss = max(0, best - shed)
    hand_total = hand_points(hand, points)
    could_go_out = hint.get("hand_after") == 0 and hint["move"] != "pass"
    went_out = move.kind == "meld" and len(laid) == len(hand)
    missed_out = could_go_out and not went_out
    played = game.move_to_json(move)
    best_move = hint["move"]
    facts: dict[str, Any] = {
        "laid": cards_of(laid),
        "best_laid": cards_of(best_move["play"]["from_hand"]) if best_move != "pass" else [],
        "hand_points": hand_total,
        "left_points": hand_total - shed,
        "best_left_points": hand_total - best,
        "could_go_out": could_go_out,
        "draws": state.draws,
        "final": state.phase == "final",
    }
    return Verdict(
        "meld" if move.kind == "meld" else "pass",
        played,
        best_move if loss > 0 or missed_out else played,
        float(loss),
        float(shed),
        float(best),
        exact=bool(hint.get("proven", True)),
        at_least="mistake" if missed_out else None,
        context={"round": state.round, "turn": state.turns + 1},
        facts=facts,
    )


def cards_of(tokens: Iterable[str]) -> list[str]:
    """Cards in deck order, a declared wild as its figure."""
    return sort_cards(token_card(token) for token in tokens)


def judge_close(game: Willie, state: WillieState, seat: int, move: Move) -> Verdict:
    values = willie_close.close_values(game, state, seat)
    other = "continue" if move.kind == "close" else "close"
    loss = max(0.0, values[other] - values[move.kind])
    better = other if round(loss, 1) > 0 else move.kind
    return Verdict(
        move.kind,
        move.kind,
        better,
        loss,
        rounded(values[move.kind]),
        rounded(values[better]),
        context={"round": state.round, "turn": state.turns + 1},
        facts={
            "hand_points": hand_points(state.hands[seat], point_table(state.option)),
            "undercut_risk": values["undercut_risk"],
            "close_value": rounded(values["close"]),
            "continue_value": rounded(values["continue"]),
            "worlds": values["worlds"],
        },
    )
