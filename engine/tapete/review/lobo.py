"""Lobo's judge: the odds of the move made against the best move's, in percentage points.

Glossary:

odds          ``tapete.lobo.analyse``: every legal move's chance of winning, exact (expectimax
              over every order of the unseen cards) or estimated from seeded shuffles, from
              what the player sees; the Hint's figures, with more shuffles where sampled
measure       the chance of winning the game when the search reaches the end of the game for
              every move, else the chance of winning the round (``MoveOdds.rank``: the Hint's
              own order)
loss          the best move's chance minus the chance of the move made, in percentage points;
              moves that differ only in suits have the same odds (no loss)
unrated       a choice between rounds whose game odds are out of the search's reach: the Hint
              follows a rule there and the review gives no verdict

Units and grades (percentage points of the chance to win): a loss under 2 points is *good*
(sampled odds are estimated from ``SAMPLES`` seeded shuffles, within about 0.3 points of
far longer runs); 2 to 10 an *inaccuracy*; 10 or more a *mistake*.
"""

from __future__ import annotations

from typing import Any

from ..lobo.game import LoboGame
from ..lobo.odds import MoveOdds, analyse, best
from ..lobo.rules import LoboState, Move
from .verdict import Grading, Verdict

GRADING = Grading("percent", inaccuracy=2.0, mistake=10.0)
SAMPLES = 1_024  # shuffles for sampled odds (the Hint takes 256): errors under 0.3 points
ANALYSE_COST = 150  # work units: the analysis is bounded by its node budget (p95 ~40 ms)


def cost(game: LoboGame, state: LoboState, seat: int) -> int:
    return ANALYSE_COST


def judge(game: LoboGame, state: LoboState, seat: int, move: Move) -> Verdict | None:
    odds = analyse(state, samples=SAMPLES)
    if len(odds) <= 1:
        return None
    top = best(odds)
    game_odds = top.p_game is not None and all(item.p_game is not None for item in odds)
    if not game_odds and top.p_win is None:
        return None  # a choice between rounds out of the search's reach: unrated
    mine = next(item for item in odds if item.move == move)

    def chance(item: MoveOdds) -> float:
        value = item.p_game if game_odds else item.p_win
        return 100.0 * (value or 0.0)

    loss = max(0.0, chance(top) - chance(mine))
    played = game.move_to_json(move)
    facts: dict[str, Any] = {
        "measure": "game" if game_odds else "round",
        "samples": 0 if mine.exact else mine.samples,
        "moves": len(odds),
    }
    return Verdict(
        move.kind,
        played,
        game.move_to_json(top.move) if round(loss, 1) > 0 else played,
        loss,
        round(chance(mine), 1),
        round(chance(top), 1),
        exact=mine.exact and top.exact,
        context={"round": state.round},
        facts=facts,
    )
