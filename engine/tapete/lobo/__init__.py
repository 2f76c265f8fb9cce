"""Lobo: The Vanguard (solo), with Classic Lobo as a mode (SPEC.md section 4).

Modules: :mod:`~tapete.lobo.cards` (codes; the fifth suit of ``suits = 5`` is ``V``),
:mod:`~tapete.lobo.rules` (states, moves, checks), :mod:`~tapete.lobo.game` (the Game class),
:mod:`~tapete.lobo.solver` (the rank-level search), :mod:`~tapete.lobo.odds` (odds and hints),
:mod:`~tapete.lobo.clairvoyant` (could this deal be won seeing every card?) and
:mod:`~tapete.lobo.bots`.
"""

from __future__ import annotations

from .clairvoyant import ClairvoyantResult, clairvoyant, clairvoyant_winnable
from .game import GAME, LoboGame
from .odds import MoveOdds, analyse, hint
from .rules import LoboState, Move, Rules, make_position, parse_move

__all__ = [
    "GAME",
    "ClairvoyantResult",
    "LoboGame",
    "LoboState",
    "Move",
    "MoveOdds",
    "Rules",
    "analyse",
    "clairvoyant",
    "clairvoyant_winnable",
    "hint",
    "make_position",
    "parse_move",
]
