"""Rummikub: the tile rummy of SPEC.md section 3, with an exact solver.

The package is also the registry of the bot levels: the rules (``game``) import no bot, the
bots (``bots``) import the rules, and this module hands the bots to ``GAME``.
"""

from .bots import BOTS
from .game import GAME, Move, Rummikub, RummikubState
from .melds import Meld, read_meld
from .solver import Solution, solve
from .tiles import FULL_SET

GAME.bots.update(BOTS)

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
