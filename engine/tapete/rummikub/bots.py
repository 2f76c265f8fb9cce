"""Rummikub bots. They decide from ``game.view(state, seat)`` alone: their rack, the table, who
has melded, the rack sizes and the pool size.

Glossary:

easy     lays down the sets it can make from its rack alone (and its initial meld), never
         touching the table; otherwise draws
normal   the solver's play of the most rack value, every turn, rearranging as needed
hard     the solver's play of the most tiles, every turn, rearranging as needed

Why hard plays for tiles: a game is a race to empty the rack, and about 60% of all turns in
bot games are draws (nothing fits), so a turn that leaves fewer tiles behind should be worth
more than one that removes more points. Measured honestly it is only a small edge, if any:
55% of 420 duplicate duels against normal on the deals used to choose it, 49.5% of 400 on
fresh deals (BENCHMARKS.md). Strategies that sounded stronger measured worse or no better
and were dropped: keeping playable tiles back while the opponents are far from going out
(one tile or set a turn: 41% of 120; the play less one tile or set kept for the next turn, so
as not to draw: 44-45% of 300), drawing instead of a play of one or two tiles (49-51%),
keeping jokers back, a tiles objective for the initial meld, choosing between the tiles
and the value play by how promising the tiles left on the rack are (52-55%, within noise),
and the most tiles with ties broken by the most value (49.8% of 600; the plain tiles play
50.3% on the same deals). On 2,000 fresh duplicate duels hard wins 50.1% [47.9, 52.3]
against normal: the two are equally strong, and a stronger hard needs planning over turns.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..rng import Rng
from .game import Move
from .melds import Meld
from .solver import Solution, solve

BotFn = Callable[[Any, Any, int, Rng], Move]


def table_of(view: dict[str, Any]) -> tuple[Meld, ...]:
    return tuple(Meld(entry["kind"], tuple(entry["tiles"])) for entry in view["table"])


def idle(view: dict[str, Any]) -> Move:
    return Move("draw") if view["pool_size"] else Move("pass")


def as_move(view: dict[str, Any], solution: Solution, melded: bool) -> Move:
    if not solution.placed:
        return idle(view)
    table = solution.table if melded else table_of(view) + solution.table
    return Move.play(table, solution.placed)


def initial_meld(view: dict[str, Any]) -> Move:
    solution = solve([], view["rack"], initial=True, options=view["options"])
    return as_move(view, solution, melded=False)


def easy_bot(game: Any, state: Any, seat: int, rng: Rng) -> Move:
    view = game.view(state, seat)
    if not view["melded"][seat]:
        return initial_meld(view)
    own = solve([], view["rack"], options=view["options"])
    if not own.placed:
        return idle(view)
    return Move.play(table_of(view) + own.table, own.placed)


def normal_bot(game: Any, state: Any, seat: int, rng: Rng) -> Move:
    view = game.view(state, seat)
    if not view["melded"][seat]:
        return initial_meld(view)
    solution = solve(table_of(view), view["rack"], options=view["options"])
    return as_move(view, solution, melded=True)


def hard_bot(game: Any, state: Any, seat: int, rng: Rng) -> Move:
    """The solver's play of the most tiles (see the module docstring for why)."""
    view = game.view(state, seat)
    if not view["melded"][seat]:
        return initial_meld(view)
    solution = solve(table_of(view), view["rack"], objective="tiles", options=view["options"])
    return as_move(view, solution, melded=True)


BOTS: dict[str, BotFn] = {"easy": easy_bot, "normal": normal_bot, "hard": hard_bot}
