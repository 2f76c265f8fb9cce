"""Rummikub: the tile rummy of SPEC.md section 3, with an exact solver."""

from .game import GAME, Move, Rummikub, RummikubState
from .melds import Meld, read_meld
from .solver import Solution, solve
from .tiles import FULL_SET

__all__ = [
    "FULL_SET",
    "GAME",
    "Meld",
    "Move",
    "Rummikub",
    "RummikubState",
    "Solution",
    "read_meld",
    "solve",
]
