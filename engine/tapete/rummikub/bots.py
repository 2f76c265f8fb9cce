"""Rummikub bots. They decide from ``game.view(state, seat)`` alone: their rack, the table, who
has melded, the rack sizes and the pool size.

Glossary:

easy     lays down the sets it can make from its rack alone (and its initial meld), never
         touching the table; otherwise draws
normal   the solver's play of the most rack value, every turn, rearranging as needed
hard     the solver plus strategy: it plays for the most tiles while the others are far from
         going out and for the most value once someone is close (every point left on a rack
         then counts); it keeps a joker back when laying it would win little, unless someone
         is close; it always goes out when it can
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..rng import Rng
from .game import Move
from .melds import Meld
from .solver import Solution, solve
from .tiles import JOKER

BotFn = Callable[[Any, Any, int, Rng], Move]

CLOSE = 4  # a rack this small is close to going out
JOKER_KEEP_MARGIN = 12  # keep a joker when laying it gains less than this (besides itself)


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
    view = game.view(state, seat)
    if not view["melded"][seat]:
        return initial_meld(view)
    table = table_of(view)
    rack: list[str] = view["rack"]
    others = [n for s, n in enumerate(view["rack_sizes"]) if s != seat]
    pressure = min(others) <= CLOSE or not view["pool_size"]
    objective = "value" if pressure else "tiles"
    best = solve(table, rack, objective=objective, options=view["options"])
    if len(best.placed) == len(rack) or pressure or JOKER not in best.placed:
        return as_move(view, best, melded=True)
    plain = [t for t in rack if t != JOKER]
    held = solve(table, plain, objective=objective, options=view["options"])
    gain_without = sum(1 for t in best.placed if t != JOKER) - len(held.placed)
    if objective == "value":
        gain_without = best.value - int(view["options"]["joker_rack_penalty"]) - held.value
    if held.placed and gain_without < (JOKER_KEEP_MARGIN if objective == "value" else 2):
        return as_move(view, held, melded=True)
    return as_move(view, best, melded=True)


BOTS: dict[str, BotFn] = {"easy": easy_bot, "normal": normal_bot, "hard": hard_bot}
