"""Rummikub bots. They decide from ``game.view(state, seat)`` alone: their rack, the table, who
has melded, the rack sizes and the pool size.

Glossary:

easy      lays down the sets it can make from its rack alone (and its initial meld), never
          touching the table; otherwise draws
normal    the solver's play of the most rack value, every turn, rearranging as needed
hard      looks ahead: it weighs the solver's most-tiles play, its most-value play (when it
          lays other tiles) and a draw by sampling
sampling  the tiles the bot cannot see (the full set less its rack and the table, in a fixed
          order: ``game.sample_world``) dealt afresh to the other racks and the pool, SAMPLES
          times; every candidate is played in each deal and rolled out HORIZON rounds with
          normal bots
rollout   scores the opponents' mean rack size less the bot's own, or +/-50 when the game
          ended; the candidate with the best total wins (the candidates share each deal and
          each rollout's seed, so their comparison is not blurred by luck)
budget    the solver's states a decision may take (LOOKAHEAD_BUDGET, its two plays' solves
          and all its rollouts, counted from the solutions, so the same view always spends
          the same): no new deal starts past it, and a rollout's solves past it take the quick
          play. In 4-player games about a fifth of the decisions reach it and weigh fewer deals;
          no request takes more than about 2 s of CPython (issue 14)

Why: the two greedy objectives lay the same tiles nearly every turn, and on 2,000 duplicate
duels the most-tiles play won 50.1% [47.9, 52.3] against normal. Fixed rules for holding tiles
back or drawing measured worse (41-51%; BENCHMARKS.md lists them). Sampling lets the bot hold
back, or draw, only when the rollouts say that the play would help the opponents more than
itself: it draws at about a quarter of its decisions. In duplicate tournaments it won 55.8%
[52.7, 58.9] of 1,000 duels against normal, 31.2% [28.4, 34.3] of 960 four-player games
against three normal bots (parity 25%) and all 200 against easy (BENCHMARKS.md). Most turns
need no decision (nothing fits, the initial meld, or the bot goes out); in the browser its
turns took 11 ms at the median, 0.31 s at the 95th percentile and 0.5 s at most.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..rng import Rng
from .game import Move, RummikubState
from .melds import Meld
from .solver import BUDGET, Solution, solve

SAMPLES = 6  # deals of the unseen tiles per decision
HORIZON = 2  # rounds of each rollout
LOOKAHEAD_BUDGET = 250_000  # solver states per decision (about 1.2 s of CPython), rollouts too
ROLLOUT_BUDGET = 200_000  # a rollout solve's budget (past it: the quick play)
SPENT_BUDGET = 1_000  # a rollout solve's budget once LOOKAHEAD_BUDGET is spent

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


def initial_meld(view: dict[str, Any], budget: int = BUDGET) -> Move:
    return as_move(view, initial_solution(view, budget), melded=False)


def initial_solution(view: dict[str, Any], budget: int = BUDGET) -> Solution:
    return solve([], view["rack"], initial=True, options=view["options"], budget=budget)


def easy_bot(game: Any, state: Any, seat: int, rng: Rng) -> Move:
    view = game.view(state, seat)
    if not view["melded"][seat]:
        return initial_meld(view)
    own = solve([], view["rack"], options=view["options"])
    if not own.placed:
        return idle(view)
    return Move.play(table_of(view) + own.table, own.placed)


def normal_bot(game: Any, state: Any, seat: int, rng: Rng) -> Move:
    return normal_play(game.view(state, seat), seat, BUDGET)[0]


def normal_play(view: dict[str, Any], seat: int, budget: int) -> tuple[Move, int]:
    """Normal's move from ``view`` and the solver states it took."""
    melded = view["melded"][seat]
    if melded:
        solution = solve(table_of(view), view["rack"], options=view["options"], budget=budget)
    else:
        solution = initial_solution(view, budget)
    return as_move(view, solution, melded=melded), solution.explored


def hard_bot(game: Any, state: RummikubState, seat: int, rng: Rng) -> Move:
    """The best of the most-tiles play, the most-value play and a draw, by sampled rollouts
    (see the module docstring)."""
    view = game.view(state, seat)
    if not view["melded"][seat]:
        return initial_meld(view)
    table = table_of(view)
    most_tiles = solve(table, view["rack"], objective="tiles", options=view["options"])
    if not most_tiles.placed or len(most_tiles.placed) == len(view["rack"]):
        return as_move(view, most_tiles, melded=True)
    candidates = [as_move(view, most_tiles, melded=True)]
    most_value = solve(
        table,
        view["rack"],
        objective="value",
        options=view["options"],
        budget=max(SPENT_BUDGET, BUDGET - most_tiles.explored),  # the two share one budget
    )
    if sorted(most_value.placed) != sorted(most_tiles.placed):
        candidates.append(as_move(view, most_value, melded=True))
    if view["pool_size"]:
        candidates.append(Move("draw"))
    totals = [0.0] * len(candidates)
    spent = [most_tiles.explored + most_value.explored]
    for sample in range(SAMPLES):
        if spent[0] > LOOKAHEAD_BUDGET:
            break
        world = game.sample_world(state, seat, Rng.derive("lookahead", rng.below(1 << 30), sample))
        for index, move in enumerate(candidates):
            after = game.apply(world, seat, move)
            totals[index] += rollout(game, after, seat, Rng.derive("rollout", sample), spent)
    return candidates[max(range(len(candidates)), key=lambda i: (totals[i], -i))]


def rollout(
    game: Any, state: RummikubState, seat: int, rng: Rng, spent: list[int] | None = None
) -> float:
    """Play HORIZON rounds with normal bots, then score ``seat``'s position; ``spent`` counts
    the solver's states against LOOKAHEAD_BUDGET."""
    spent = [0] if spent is None else spent
    for _ in range(HORIZON * state.players):
        mover = game.to_move(state)
        if mover is None:
            break
        budget = ROLLOUT_BUDGET if spent[0] <= LOOKAHEAD_BUDGET else SPENT_BUDGET
        move, explored = normal_play(game.view(state, mover), mover, budget)
        spent[0] += explored
        state = game.apply(state, mover, move)
    outcome = game.outcome(state)
    if outcome is not None:
        return 50.0 if seat in outcome.winners else -50.0
    others = [len(rack) for other, rack in enumerate(state.racks) if other != seat]
    return sum(others) / len(others) - len(state.racks[seat])


BOTS: dict[str, BotFn] = {"easy": easy_bot, "normal": normal_bot, "hard": hard_bot}
