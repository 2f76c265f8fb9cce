"""Lobo's bots. Each decides from the player's view alone (the pile below its top is never read).

Glossary:

random   a uniformly random legal move (folds included)
greedy   a rule of thumb: the capture that takes the most from the Wolf for the least, in this
         order: a perfect (highest rank), a sum (highest Wolf card, fewest cards), in a final
         round a sacrifice or wild card on the highest Wolf card, a split (most Wolf cards), an
         over giving the Wolf the fewest cards; fold only when nothing else is legal. Between
         rounds: the hint's rule (revive a member if one is down, else bank the lowest card)
best     the hint: the move with the best odds of winning the round (:mod:`tapete.lobo.odds`);
         its Monte Carlo parts use the hint's own seeded stream, so ``best`` plays the hint
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..bots import random_bot
from ..rng import Rng
from .cards import RANK_OF, total
from .rules import CHOICE, LoboState, Move, legal_moves

Bot = Callable[[Any, LoboState, int, Rng], Move]


def greedy_rank(move: Move) -> tuple[int, ...]:
    """Smaller is better."""
    taken = max(RANK_OF[c] for c in move.take) if move.take else 0
    if move.kind == "perfect":
        return (0, -taken)
    if move.kind == "sum":
        return (1, -taken, len(move.give))
    if move.kind in ("wild", "sacrifice"):
        return (2, 0 if move.kind == "wild" else 1, -taken)
    if move.kind == "split":
        return (3, -len(move.take))
    if move.kind == "over":
        return (4, total(move.give) - total(move.take), -taken)
    return (9,)


def greedy_choice(state: LoboState) -> Move:
    from .odds import choose_between_rounds

    return choose_between_rounds(state)[0]


def greedy_bot(game: Any, state: LoboState, seat: int, rng: Rng) -> Move:
    if state.phase == CHOICE:
        return greedy_choice(state)
    moves = legal_moves(state)
    return min(moves, key=lambda m: (greedy_rank(m), m.text()))


def best_bot(game: Any, state: LoboState, seat: int, rng: Rng) -> Move:
    from .odds import best_move

    return best_move(state)  # the hint's own seeded stream: ``best`` plays the hint


BOTS: dict[str, Bot] = {"random": random_bot, "greedy": greedy_bot, "best": best_bot}
