"""The exact Rummikub solver: the best play from a rack onto a table, rearranging freely.

``solve(table, rack, *, objective="value", initial=False, options=None)`` returns a
:class:`Solution`: the tiles to play from the rack (``placed``) and the complete new arrangement
(``melds``, with ``kinds``). It maximises the rack value removed (``"value"``: a tile its number,
a joker ``joker_rack_penalty``, 30 by default) or the number of tiles placed (``"tiles"``). The
answer is exact, and it is a move that the rules (``rules.validate_play``) accept under
``options``: with ``RACK_ONLY`` a table joker changes what it stands for only when that tile
comes from the rack. With ``initial=True`` it is the best initial meld from the rack alone
(worth at least the threshold; a joker counts 0 or what it stands for), and ``melds`` are only
the new melds. Among equal optima it prefers the arrangement that keeps the existing table: it
breaks as few neighbour links of the table's runs and moves as few tiles out of the table's
groups as it can (a penalty folded into the program's score), then lays the melds out in the
table's order. Pure Python, no dependencies; the arguments are never changed; recent answers
are cached (a Solution is immutable).

Glossary:

quick play   a play that rearranges nothing (``arrange.simple_play``); it gives the last floor
floor        the least score a try of the program must reach (``program.Program``), in score
             units: the objective times ``SCALE`` less the tie-break penalty
loss         how far a floor is below the best imaginable score (the whole rack, the table kept
             as it was)
tries        floors from the top down, the loss allowed doubling a step (0, 1, 3, 7, ...; 8x
             when a try cost hardly more than the one before, straight to the last floor
             when that try was a big one), then just better than the
             quick play: the first try that finds a play has found the
             best one (iterative deepening of the bound). Late in a game the best play mostly
             places the whole rack and breaks a few of the table's links, so the loss of the
             answer is small, and a try whose floor allows little loss explores a small part of
             the states that a floor allowing any penalty (the old whole-rack try) explores
scenario     RACK_ONLY: one decision of every pinned table joker (``pins``); a try runs the
             program once per scenario, each with the best so far as its floor
ceiling      the most a scenario can still score, from its last failed run (the best score a
             state that the floor dropped could have reached): a try skips the scenarios whose
             ceiling is below its floor, and the next floor is at most the highest ceiling
             (no try repeats the states of the one before)

How it works: ``program`` holds the dynamic program over numbers 1..13 with per-colour lane
states (van Rijn, Takes and Vis, 2015) extended with jokers and the initial meld;
``pins`` decides the pinned jokers before it runs; ``arrange`` turns its path into melds. The
cycle collector is paused while the program runs (its millions of small tuples hold no
cycles; scanning them cost a fifth of the time).
"""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import InvalidMoveError, describe
from .arrange import (
    Builder,
    Built,
    counts,
    general_problem,
    layout,
    place_free_jokers,
    quick_play,
    simple_play,
    weights,
)
from .melds import Meld, MeldError, Reading, parse_meld, read_meld
from .pins import Scenario, pin_scenarios
from .program import NEG, SCALE, OverBudget, Problem, Program
from .tiles import JOKER, number_of, parse_code, sorted_tiles

OBJECTIVES = ("value", "tiles")
# program states per solve (issue 14): about 2 s of CPython, 5 s in the browser's worker, at
# worst. Late crowded positions take up to 85,000 (BENCHMARKS.md); the slowest real position
# known (the tests' SLOW_TABLE) takes 155,000 (1.9 million once). An initial meld's
# state costs about three times a general one's; a real rack before its first meld seldom
# takes 10,000
BUDGET = 600_000
INITIAL_BUDGET = 200_000

DEFAULTS: dict[str, Any] = {
    "initial_meld_threshold": 30,
    "initial_meld_joker_value": "ZERO",
    "allow_manipulation_on_initial_turn": False,
    "joker_replacement_source": "RACK_ONLY",
    "joker_rack_penalty": 30,
}


# -- the public function ----------------------------------------------------------------------


@dataclass(frozen=True)
class Solution:
    """The solver's answer: the tiles to play and the table after the play.

    ``melds`` is the complete new table (with ``initial=True``: only the new melds), each meld a
    tuple of codes, ``kinds`` says run or group for each; ``changed`` lists the indices of the
    melds that are new or differ from the old table. ``value`` and ``tiles`` measure ``placed``.
    """

    placed: tuple[str, ...]
    melds: tuple[tuple[str, ...], ...]
    kinds: tuple[str, ...]
    value: int
    tiles: int
    changed: tuple[int, ...] = ()
    exact: bool = True  # False: the search ran over its budget; this is the quick play
    explored: int = 0  # the program's states it took (the same from the cache)

    @property
    def table(self) -> tuple[Meld, ...]:
        return tuple(Meld(k, m) for k, m in zip(self.kinds, self.melds, strict=True))

    def table_json(self) -> list[Any]:
        return [meld.to_json() for meld in self.table]


def solve(
    table: Iterable[Any],
    rack: Iterable[Any],
    *,
    objective: str = "value",
    initial: bool = False,
    options: Mapping[str, Any] | None = None,
    budget: int | None = BUDGET,
) -> Solution:
    """The best play of ``rack`` onto ``table`` (see the module docstring).

    ``table`` is a list of melds (lists of codes, ``{"group": [...]}`` or :class:`Meld`),
    ``rack`` a list of codes, ``options`` the game's options (defaults when None). Bad input
    raises ``invalid_move``. ``budget`` bounds the program's states (None: no bound); past it
    the answer is the quick play (``exact`` False), so that no rack, however stuffed, holds a
    request for long.
    """
    if objective not in OBJECTIVES:
        raise InvalidMoveError(f"objective must be 'value' or 'tiles'; got {describe(objective)}")
    opts = dict(DEFAULTS)
    if options:
        opts.update({k: v for k, v in options.items() if k in DEFAULTS})
    old = read_input_table(table)
    hand = [parse_code(t, "rack") for t in rack]
    check_counts([t for m, _ in old for t in m.tiles] + hand)
    key = (
        tuple((m.tiles, m.kind) for m, _ in old),
        tuple(sorted(hand)),
        objective,
        initial,
        tuple(sorted(opts.items())),
        budget,
    )
    found = _SOLVED.get(key)
    if found is None:
        # the program makes up to millions of small acyclic tuples, which reference counting
        # frees; the cycle collector would only scan them over and over (20% of the time)
        collecting = gc.isenabled()
        gc.disable()
        try:
            if initial:
                bound = None if budget is None else min(budget, INITIAL_BUDGET)
                found = solve_initial(sorted(hand), objective, opts, bound)
            else:
                found = solve_general(old, sorted(hand), objective, opts, budget)
        finally:
            if collecting:
                gc.enable()
        if len(_SOLVED) >= 256:
            _SOLVED.pop(next(iter(_SOLVED)))
        _SOLVED[key] = found
    return found


_SOLVED: dict[tuple[Any, ...], Solution] = {}  # recent answers (a Solution is immutable)


def read_input_table(table: Iterable[Any]) -> list[tuple[Meld, Reading]]:
    out = []
    for index, item in enumerate(table):
        kind: str | None
        if isinstance(item, Meld):
            tiles, kind = item.tiles, item.kind
        else:
            data = list(item) if isinstance(item, tuple) else item
            tiles, kind = parse_meld(data, f"table meld {index + 1}")
        try:
            reading = read_meld(tiles, kind)
        except MeldError as error:
            raise InvalidMoveError(
                f"table meld {index + 1} ({' '.join(tiles)}) is not valid: {error.message}"
            ) from None
        out.append((Meld(reading.kind, tuple(tiles)), reading))
    return out


def check_counts(tiles: list[str]) -> None:
    """No tile more often than the set has it (two of each, two jokers)."""
    for tile, count in Counter(tiles).items():
        if count > 2:
            raise InvalidMoveError(f"there are only two {tile} tiles; got {count}", tile=tile)


def solve_initial(
    hand: list[str], objective: str, opts: Mapping[str, Any], budget: int | None = None
) -> Solution:
    """The best initial meld: new melds from the rack alone, worth at least the threshold.
    Over ``budget``: the quick play's new melds when their tiles without the jokers reach the
    threshold (a joker adds 0 or more, so the meld is good under either joker rule), else
    none."""
    weight, joker_weight = weights(objective, opts)
    problem = Problem(
        table=[0] * 52,
        rack=counts(hand),
        weight=weight,
        joker_weight=joker_weight,
        links=[0] * 52,
        in_groups=[0] * 52,
        free_table_jokers=0,
        rack_jokers=hand.count(JOKER),
        pins=[],
        threshold=min(int(opts["initial_meld_threshold"]), 127),
        joker_value=opts["initial_meld_joker_value"] == "REPRESENTED",
    )
    program = Program(problem, exact=True, budget=budget)
    try:
        path = program.run()
    except OverBudget:
        melds, _ = simple_play([], hand, problem)
        plain = sum(p.number for b in melds for p in b.pieces if not p.joker)
        if not melds or plain < (problem.threshold or 0):
            return Solution((), (), (), 0, 0, exact=False, explored=program.explored)
        return _solution([], melds, opts, exact=False, explored=program.explored)
    if path is None or path.score <= 0:
        return Solution((), (), (), 0, 0, explored=program.explored)
    melds = Builder(problem, path, True, []).build()
    return _solution([], melds, opts, explored=program.explored)


def solve_general(
    old: list[tuple[Meld, Reading]],
    hand: list[str],
    objective: str,
    opts: Mapping[str, Any],
    budget: int | None = None,
) -> Solution:
    """Branch and bound: a quick play without rearranging gives the lowest floor; if it places
    the whole rack it is the answer, else the program runs with descending floors, from the
    whole rack with the table kept as it was down to just better than the quick play, each
    floor no higher than the ceilings of the try before. The tries share ``budget``; past it,
    the quick play (not exact)."""
    problem = general_problem(old, hand, objective, opts)
    best_value = sum(w * c for w, c in zip(problem.weight, problem.rack, strict=True))
    best_value += problem.rack_jokers * problem.joker_weight
    top = best_value * SCALE
    scenarios = pin_scenarios(problem)
    ceilings = [top] * len(scenarios)
    # the quick play, first within a small budget: when it places the whole rack it is the
    # answer (the table as it was); else it is made again in full once the floors leave the
    # whole rack, where it gives the last floor
    melds, value, complete = quick_play(old, hand, problem, QUICK_BUDGET)
    if value == best_value:
        return _solution(old, melds, opts)
    quick: tuple[list[Built], int] | None = (melds, value) if complete else None
    low = NEG if quick is None else (quick[1] + 1) * SCALE - (SCALE - 1)
    explored = 0
    loss = 0
    last = 0  # the states of the try before
    saturated = 0  # tries in a row that cost hardly more than the one before
    while True:
        floor = top - loss
        if quick is None and floor < top - (SCALE - 1):
            quick = simple_play(old, hand, problem)
            low = (quick[1] + 1) * SCALE - (SCALE - 1)
        if floor < low:
            if max(ceilings) < low:  # nothing beats the quick play
                assert quick is not None
                return _solution(old, quick[0], opts, explored=explored)
            floor = low
        left = None if budget is None else budget - explored
        found = Try(problem, old, floor, left, scenarios, ceilings)
        explored += found.explored
        if found.over_budget:
            if quick is None:
                quick = simple_play(old, hand, problem)
            return _solution(old, quick[0], opts, exact=False, explored=explored)
        if found.melds is not None:
            return _solution(old, found.melds, opts, explored=explored)
        if floor == low:
            assert quick is not None
            return _solution(old, quick[0], opts, explored=explored)
        saturated = saturated + 1 if found.explored < SATURATED * last else 0
        growth = FAST_GROWTH if saturated else FLOOR_GROWTH
        last = found.explored
        loss = max(growth * loss + growth - 1, top - max(ceilings))
        if saturated and found.explored >= JUMP_STATES:
            loss = top - NEG  # the lowest floor next


# the quick play's melds from the rack alone, before the tries (states; over it, greedy ones,
# and the full quick play only once the tries need its floor)
QUICK_BUDGET = 2_000
FLOOR_GROWTH = 2  # the loss a try allows grows this much a step
# ... and this much when the try cost less than SATURATED times the one before (a lower floor
# hardly costs more: the floor prunes little there)
FAST_GROWTH = 8
SATURATED = 1.5
# ... and such a try of at least this many states goes straight to the lowest floor: the next
# tries would repeat its states (SLOW_TABLE: 2 of 3 tries of 25,000 states before 130 was found;
# 3% fewer states on the bench's games, the same on its late positions)
JUMP_STATES = 10_000


def floors(top: int, low: int) -> list[int]:
    """The floors to try, in score units, from ``top`` (the whole rack, nothing of the table
    changed) down to ``low``: the loss allowed grows ``FLOOR_GROWTH``-fold a step. A try costs
    more the more loss it allows (its floor prunes less), so the failed tries cost about as
    much as the last one, which allows at most twice the answer's loss. (``solve_general``
    also lowers a floor to the ceiling of the try before.)"""
    out = []
    loss = 0
    while top - loss > low:
        out.append(top - loss)
        loss = FLOOR_GROWTH * loss + FLOOR_GROWTH - 1
    out.append(low)
    return out


class Try:
    """One try of the program for the best melds whose objective reaches ``target``:
    ``melds`` (None when there are none, or when it ran over ``budget``), ``explored`` (the
    states it went through) and ``over_budget``. ``ceilings`` (by scenario, updated here) are
    the most each scenario can score: a scenario whose ceiling is below the floor is not run;
    a run that fails lowers it to the program's ceiling."""

    def __init__(
        self,
        problem: Problem,
        old: list[tuple[Meld, Reading]],
        floor: int,
        budget: int | None = None,
        scenarios: list[Scenario] | None = None,
        ceilings: list[int] | None = None,
    ) -> None:
        self.explored = 0
        self.over_budget = False
        self.melds: list[Built] | None = None
        if scenarios is None:
            scenarios = pin_scenarios(problem)
        if ceilings is None:
            ceilings = [-NEG] * len(scenarios)
        try:
            self.melds = self.run(problem, old, floor, budget, scenarios, ceilings)
        except OverBudget:
            self.over_budget = True

    def run(
        self,
        problem: Problem,
        old: list[tuple[Meld, Reading]],
        floor: int,
        budget: int | None,
        scenarios: list[Scenario],
        ceilings: list[int],
    ) -> list[Built] | None:
        """Each decision of the pins in turn (branch and bound: a scenario must beat the best
        so far); in each, the fast mode first (jokers left to the builder), the exact mode when
        the builder cannot place the free jokers."""
        old_jokers = [i for i, (m, _) in enumerate(old) for t in m.tiles if t == JOKER]
        best: list[Built] | None = None
        for index, scenario in enumerate(scenarios):
            if ceilings[index] < floor:
                continue
            found, ceiling = self.scenario(scenario, problem, old, old_jokers, floor, budget)
            if found is not None:
                best, score = found
                floor = score + 1
            else:
                ceilings[index] = min(ceilings[index], ceiling)
        return best

    def scenario(
        self,
        scenario: Scenario,
        problem: Problem,
        old: list[tuple[Meld, Reading]],
        old_jokers: list[int],
        floor: int,
        budget: int | None,
    ) -> tuple[tuple[list[Built], int] | None, int]:
        """The best melds of one scenario that reach ``floor``, with their score, or None and
        the scenario's ceiling (no play of it scores more)."""
        decided = scenario.problem
        for exact in (False, True):
            left = None if budget is None else budget - self.explored
            program = Program(decided, exact, floor, left)
            try:
                path = program.run()
            finally:
                self.explored += program.explored
            if path is None:
                return None, program.ceiling
            for place, (choice, _) in path.slots.items():
                path.slots[place] = (choice, scenario.records.get(place, ()))
            melds = Builder(problem, path, exact, old).build()
            if exact:
                return (melds, path.score), -NEG
            free = decided.free_table_jokers + decided.rack_jokers - path.jokers_used
            if place_free_jokers(free, melds, old_jokers):
                return (melds, path.score), -NEG
        return None, -NEG


def _solution(
    old: Sequence[tuple[Meld, Reading]],
    melds: list[Built],
    opts: Mapping[str, Any],
    *,
    exact: bool = True,
    explored: int = 0,
) -> Solution:
    """Lay the melds out in the old table's order and describe the play."""
    laid, laid_kinds, changed = layout(old, melds)
    new_tiles = Counter(t for m in laid for t in m)
    old_tiles = Counter(t for m, _ in old for t in m.tiles)
    placed = tuple(sorted_tiles((new_tiles - old_tiles).elements()))
    kinds = tuple(laid_kinds)
    tiles = tuple(laid)
    penalty = int(opts["joker_rack_penalty"])
    value = sum(penalty if t == JOKER else number_of(t) for t in placed)
    return Solution(placed, tiles, kinds, value, len(placed), changed, exact, explored)
