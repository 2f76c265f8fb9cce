"""Wizard: the trick-taking game of bids (SPEC.md section 2)."""

from .cards import DECK, legal_cards, trick_winner
from .game import Move, Wizard, WizardState, round_points
from .levels import GAME

__all__ = [
    "DECK",
    "GAME",
    "Move",
    "Wizard",
    "WizardState",
    "legal_cards",
    "round_points",
    "trick_winner",
]
