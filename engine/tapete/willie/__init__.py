"""Willie: Carousel rummy on the 54-card Haggis deck (SPEC.md section 1).

``is_meld(cards)`` says whether codes form one meld (a wild written ``K:B7``);
``solve(table, hand, options=None)`` finds the best meld phase as a move ``check`` accepts.
"""

from .cards import DECK
from .game import GAME, RoundRecord, Willie, WillieState
from .melds import is_meld, meld_problem
from .moves import Move, parse_move
from .phase import check_phase
from .scoring import RoundScore, end_bonuses, score_round
from .solver import Solution, solve

__all__ = [
    "DECK",
    "GAME",
    "Move",
    "RoundRecord",
    "RoundScore",
    "Solution",
    "Willie",
    "WillieState",
    "check_phase",
    "end_bonuses",
    "is_meld",
    "meld_problem",
    "parse_move",
    "score_round",
    "solve",
]
