"""The dynamic program behind the Willie solver: which cards can go down, and how.

Glossary:

identity    a number card's place in the 5 x 9 grid, index ``suit * 9 + rank - 2``
status      per identity: ABSENT (no such card in play), REQUIRED (a table card: it must end in
            a meld) or OPTIONAL (a hand card: it may be played)
slot        a wild's place in a meld, with the identity it declares; *forced* slots are those
            old wilds need (their card is not on the table), *free* ones take free figures
run         a sequence being built, rank by rank; its code is ``(length - 1) * 2 + wild`` with
            the length counted up to 3 ("complete") and ``wild`` = it already holds its wild
runset      the runs of one suit open at the current rank: at most two (three runs of one
            suit would all hold that rank, two of them by a wild, and each such run needs a
            natural neighbour of that rank: there are only two)
plan        the naturals and wild slots sent to the groups of the current rank; a rank holds at
            most two groups (each needs two naturals of the five suits)
state       a packed integer: the runset of each suit (5 x 5 bits), the free slots used so far
            (4 bits) and the plan of the current rank (10 bits); its value is the number of
            optional naturals played
floor       a bound: drop a state whose value, plus every optional natural still to come, plus
            the best figure points its slot count allows, cannot reach the floor's points
beam        keep only the most promising states of each step (a quick heuristic); a program
            that never drops a state this way is exact

The program walks the identities rank by rank (2..10) and, within a rank, suit by suit; after
each rank the plan must form valid groups. It returns, per count of free slots, the most
optional naturals, and a way back to the melds (``replay``).
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import permutations, product
from typing import Any

from .cards import make_index

ABSENT, REQUIRED, OPTIONAL = 0, 1, 2
END, CONT_NAT, CONT_VIRT = 0, 1, 2
DEST_NONE, DEST_NEW, DEST_GROUP, DEST_UNUSED, DEST_RUN = 0, 1, 2, 3, 4
MAX_RUNS_PER_SUIT = 2
MAX_GROUP_SLOTS = 2

Runs = tuple[int, ...]
Desc = tuple[tuple[int, ...], int, int, int]  # (run actions, natural's destination, vstart, gv)
Witness = tuple[tuple[tuple[int, ...], int | None], ...]  # groups: (natural suits, slot suit)
Slot = tuple[int, bool]  # (identity, is a wild)
# a transition of one suit: (new runset index, optional used, plan step, free slots added, desc)
Transition = tuple[int, int, int, int, Desc]

RUNSETS: tuple[Runs, ...] = ((),) + tuple(
    runs
    for size in range(1, MAX_RUNS_PER_SUIT + 1)
    for runs in sorted(set(tuple(sorted(p)) for p in product(range(6), repeat=size)))
)
RUNSET_INDEX = {runs: i for i, runs in enumerate(RUNSETS)}
SLOTSETS: tuple[tuple[int, ...], ...] = ((),) + tuple(
    slots
    for size in range(1, MAX_GROUP_SLOTS + 1)
    for slots in sorted(set(tuple(sorted(p)) for p in product(range(5), repeat=size)))
)
SLOTSET_INDEX = {slots: i for i, slots in enumerate(SLOTSETS)}
PLANS = 32 * len(SLOTSETS)  # plan = group suits mask | slotset index << 5

U_SHIFT, PLAN_SHIFT = 25, 29
RUNS_MASK = (1 << U_SHIFT) - 1
U_MASK = 15
COMPLETE = frozenset(i for i, runs in enumerate(RUNSETS) if all(c >= 4 for c in runs))
INCOMPLETE = tuple(sum(3 - (c // 2 + 1) for c in runs) for runs in RUNSETS)


def run_code(length: int, wild: int) -> int:
    return (min(length, 3) - 1) * 2 + wild


def viable(code: int, x1: int, x2: int) -> bool:
    """Can a run open after this rank still reach 3 cards? ``x``: 0 no such rank, 1 a rank
    without an available natural, 2 a rank with one."""
    length, wild = code // 2 + 1, code & 1
    if length >= 3:
        return True
    ahead = (x1, x2)[: 3 - length]
    if 0 in ahead:
        return False
    return ahead.count(1) <= 1 - wild


def destinations(nat: int, taken_by_run: bool, group_nat: bool) -> list[int]:
    if taken_by_run:
        return [DEST_RUN]
    if nat == ABSENT:
        return [DEST_NONE]
    out = [DEST_NEW]
    if group_nat:
        out.append(DEST_GROUP)
    if nat == OPTIONAL:
        out.append(DEST_UNUSED)
    return out


@cache
def suit_transitions(
    runset: int, nat: int, forced: int, x1: int, x2: int, group_nat: bool, group_slots: int
) -> tuple[Transition, ...]:
    """Every way the open runs of one suit, its natural and its wild slots go on at a rank."""
    runs = RUNSETS[runset]
    found: dict[tuple[int, int, int, int], Desc] = {}
    choices = []
    for code in runs:
        length, wild = code // 2 + 1, code & 1
        acts = [END] if length == 3 else []
        if nat != ABSENT:
            acts.append(CONT_NAT)
        if not wild:
            acts.append(CONT_VIRT)
        choices.append(acts)
    for actions in product(*choices):
        if actions.count(CONT_NAT) > 1:
            continue
        cont = [
            run_code(code // 2 + 2, (code & 1) | (act == CONT_VIRT))
            for code, act in zip(runs, actions, strict=True)
            if act != END
        ]
        for dest in destinations(nat, CONT_NAT in actions, group_nat):
            for vstart, gv in product((0, 1), range(group_slots + 1)):
                slots = actions.count(CONT_VIRT) + vstart + gv
                new = cont + [run_code(1, 0)] * (dest == DEST_NEW) + [run_code(1, 1)] * vstart
                if slots < forced or len(new) > MAX_RUNS_PER_SUIT:
                    continue
                if not all(viable(code, x1, x2) for code in new):
                    continue
                used = int(nat == OPTIONAL and dest in (DEST_RUN, DEST_NEW, DEST_GROUP))
                step = (dest == DEST_GROUP) * 3 + gv
                key = (RUNSET_INDEX[tuple(sorted(new))], used, step, slots - forced)
                found.setdefault(key, (tuple(actions), dest, vstart, gv))
    return tuple((*key, desc) for key, desc in found.items())


def set_partitions(items: Sequence[int]) -> list[list[tuple[int, ...]]]:
    if not items:
        return [[]]
    first, rest = items[0], items[1:]
    out: list[list[tuple[int, ...]]] = []
    for partition in set_partitions(rest):
        out.append([(first,), *partition])
        for i in range(len(partition)):
            out.append([*partition[:i], (first, *partition[i]), *partition[i + 1 :]])
    return out


@cache
def group_witness(mask: int, slots: tuple[int, ...], gmax: int) -> Witness | None:
    """Groups for the naturals of suits ``mask`` and the wild slots of suits ``slots`` at one
    rank, or None when they cannot all be placed."""
    suits = [s for s in range(5) if mask >> s & 1]
    for partition in set_partitions(suits):
        if any(len(block) < 2 or len(block) > gmax for block in partition):
            continue
        for order in permutations(range(len(partition)), len(slots)):
            groups: list[int | None] = [None] * len(partition)
            for slot, block in zip(slots, order, strict=True):
                groups[block] = slot
            if all(
                (vs is None and len(b) >= 3)
                or (vs is not None and vs not in b and len(b) + 1 <= gmax)
                for b, vs in zip(partition, groups, strict=True)
            ):
                return tuple(zip(partition, groups, strict=True))
    return None


@cache
def plan_steps(avail: int, gmax: int) -> tuple[array[int], ...]:
    """Per suit s: the next plan after each (plan, step), -1 when the rank could no longer end
    with valid groups; ``avail`` is the rank's mask of suits with a natural in play."""
    finals = [
        (mask, slots)
        for mask in range(32)
        if mask & avail == mask
        for slots in SLOTSETS
        if group_witness(mask, slots, gmax) is not None
    ]
    out = []
    for s in range(5):
        keep = (2 << s) - 1
        prefixes = {(m & keep, tuple(x for x in sl if x <= s)) for m, sl in finals}
        table = array("h", [-1]) * (PLANS * 6)
        for plan in range(PLANS):
            mask, slots = plan & 31, SLOTSETS[plan >> 5]
            for step in range(6):
                nmask = mask | (1 << s) if step >= 3 else mask
                nslots = slots + (s,) * (step % 3)
                if len(nslots) <= MAX_GROUP_SLOTS and (nmask, nslots) in prefixes:
                    table[plan * 6 + step] = nmask | SLOTSET_INDEX[nslots] << 5
        out.append(table)
    return tuple(out)


@cache
def weaker(runset: int) -> tuple[int, ...]:
    """The runsets weaker than ``runset``: all they can still do, it can do too (a complete run
    may end at once; a longer run, or one without its wild yet, is freer)."""
    found: set[Runs] = set()
    todo = [RUNSETS[runset]]
    while todo:
        current = todo.pop()
        for i, code in enumerate(current):
            rest = current[:i] + current[i + 1 :]
            length, wild = code // 2 + 1, code & 1
            steps = [rest] if length == 3 else []
            if length > 1:
                steps.append(tuple(sorted((*rest, run_code(length - 1, wild)))))
            if not wild:
                steps.append(tuple(sorted((*rest, run_code(length, 1)))))
            for step in steps:
                if step not in found:
                    found.add(step)
                    todo.append(step)
    found.discard(RUNSETS[runset])
    return tuple(sorted(RUNSET_INDEX[runs] for runs in found))


@dataclass(frozen=True)
class Floor:
    """The points a phase must reach (see the glossary)."""

    points: int
    natural_points: int
    fixed_points: int  # points already certain: the hand naturals played to free wilds
    best_figures: tuple[int | None, ...]  # per final free-slot count: the best figure points

    def figure_hopes(self, max_free: int) -> list[int]:
        """Per free-slot count so far: the best figure points any final count may give."""
        out = [-(10**6)] * (max_free + 1)
        best = -(10**6)
        for u in reversed(range(max_free + 1)):
            here = self.best_figures[u] if u < len(self.best_figures) else None
            if here is not None and here > best:
                best = here
            out[u] = best
        return out

    def needs(self, optional_left: int, max_free: int) -> list[int]:
        """Per free-slot count so far: the fewest optional naturals a state must hold."""
        out: list[int] = []
        for figures in self.figure_hopes(max_free):
            if figures < -(10**5):
                out.append(10**6)
                continue
            missing = self.points - self.fixed_points - figures
            out.append(-(-missing // self.natural_points) - optional_left)
        return out


@dataclass
class Program:
    """One run of the program: per free-slot count, the best value and its final state."""

    best: dict[int, tuple[int, int]]
    back: list[dict[int, tuple[int, Any]]]
    exact: bool  # False when a beam dropped states


# the states every run has stepped through, for the solver's budget (it resets and reads it;
# the engine is single-threaded, in CPython as in the browser's worker)
WORK = [0]


def run_program(
    status: Sequence[int],
    forced: Sequence[int],
    max_free: int,
    gmax: int,
    floor: Floor | None = None,
    beam: int | None = None,
) -> Program:
    """Walk the identities; with ``floor`` drop hopeless states, with ``beam`` keep that many."""
    optional_after = [0] * 45
    left = 0
    for r in reversed(range(9)):
        for s in reversed(range(5)):
            optional_after[s * 9 + r] = left
            left += status[s * 9 + r] == OPTIONAL
    hopes = floor.figure_hopes(max_free) if floor is not None else [0] * (max_free + 1)
    states: dict[int, int] = {0: 0}
    back: list[dict[int, tuple[int, Any]]] = []
    exact = True
    WORK[0] += 1
    for r in range(9):
        avail = sum(1 << s for s in range(5) if status[s * 9 + r] != ABSENT)
        steps = plan_steps(avail, gmax)
        for s in range(5):
            idx = s * 9 + r
            x1 = 0 if r + 1 > 8 else (2 if status[idx + 1] != ABSENT else 1)
            x2 = 0 if r + 2 > 8 else (2 if status[idx + 2] != ABSENT else 1)
            others = bin(avail & ~(1 << s)).count("1")
            here = status[idx] != ABSENT
            params = (status[idx], forced[idx], x1, x2, here and others >= 1, min(2, others // 2))
            need = floor.needs(optional_after[idx], max_free) if floor is not None else None
            states = step_suit(states, back, s, params, max_free, steps[s], need)
            WORK[0] += len(states)
            if beam is not None and len(states) > beam:
                states = keep_best(states, beam, hopes, floor.natural_points if floor else 1)
                exact = False
        states = close_rank(states, back, gmax)
    best: dict[int, tuple[int, int]] = {}
    for key, value in states.items():
        if all((key >> (5 * s)) & 31 in COMPLETE for s in range(5)):
            u = key >> U_SHIFT & U_MASK
            if u not in best or value > best[u][0]:
                best[u] = (value, key)
    return Program(best, back, exact)


def step_suit(
    states: dict[int, int],
    back: list[dict[int, tuple[int, Any]]],
    s: int,
    params: tuple[int, int, int, int, bool, int],
    max_free: int,
    steps: array[int],
    need: list[int] | None,
) -> dict[int, int]:
    out: dict[int, int] = {}
    links: dict[int, tuple[int, Any]] = {}
    shift = 5 * s
    keep = RUNS_MASK & ~(31 << shift)
    cache: dict[int, tuple[Transition, ...]] = {}
    for key, value in states.items():
        runset = key >> shift & 31
        u = key >> U_SHIFT & U_MASK
        plan6 = (key >> PLAN_SHIFT) * 6
        base = key & keep
        moves = cache.get(runset)
        if moves is None:
            moves = cache[runset] = suit_transitions(runset, *params)
        for new, used, step, extra, desc in moves:
            nu = u + extra
            if nu > max_free:
                continue
            plan = steps[plan6 + step]
            if plan < 0:
                continue
            nvalue = value + used
            if need is not None and nvalue < need[nu]:
                continue
            nkey = base | new << shift | nu << U_SHIFT | plan << PLAN_SHIFT
            old = out.get(nkey)
            if old is None or nvalue > old:
                out[nkey] = nvalue
                links[nkey] = (key, desc)
    back.append(links)
    return out


def close_rank(
    states: dict[int, int], back: list[dict[int, tuple[int, Any]]], gmax: int
) -> dict[int, int]:
    """End a rank: its plan must form valid groups; then drop dominated states."""
    out: dict[int, int] = {}
    links: dict[int, tuple[int, Any]] = {}
    low = (1 << PLAN_SHIFT) - 1
    for key, value in states.items():
        plan = key >> PLAN_SHIFT
        witness: Witness | None = ()
        if plan:
            witness = group_witness(plan & 31, SLOTSETS[plan >> 5], gmax)
            if witness is None:
                continue
        nkey = key & low
        old = out.get(nkey)
        if old is None or value > old:
            out[nkey] = value
            links[nkey] = (key, witness)
    back.append(links)
    return drop_dominated(out)


def drop_dominated(states: dict[int, int]) -> dict[int, int]:
    """Remove the states that another state with at least the same value dominates."""
    dead: set[int] = set()
    for key, value in states.items():
        for s in range(5):
            shift = 5 * s
            base = key & ~(31 << shift)
            for runset in weaker(key >> shift & 31):
                other = base | runset << shift
                if other in states and states[other] <= value:
                    dead.add(other)
    return {key: value for key, value in states.items() if key not in dead}


def keep_best(states: dict[int, int], beam: int, hopes: list[int], pts: int) -> dict[int, int]:
    """The ``beam`` most promising states: optional naturals placed, plus the figure points
    their slot count still allows, less the cards their unfinished runs still need."""

    def promise(item: tuple[int, int]) -> int:
        key, value = item
        owed = sum(INCOMPLETE[key >> (5 * s) & 31] for s in range(5))
        return value * pts + hopes[key >> U_SHIFT & U_MASK] - owed

    return dict(sorted(states.items(), key=promise, reverse=True)[:beam])


def replay(program: Program, final: int) -> list[list[Slot]]:
    """The melds of the best path to ``final``: naturals and wild slots (identities)."""
    path: list[Any] = []
    key = final
    for links in reversed(program.back):
        key, info = links[key]
        path.append(info)
    path.reverse()
    melds: list[list[Slot]] = []
    runs: list[list[tuple[int, list[Slot]]]] = [[] for _ in range(5)]
    step = 0
    for r in range(9):
        for s in range(5):
            replay_suit(runs, melds, s, make_index(s, r + 2), path[step])
            step += 1
        witness: Witness = path[step]
        step += 1
        for naturals, slot in witness:
            meld: list[Slot] = [(make_index(x, r + 2), False) for x in naturals]
            if slot is not None:
                meld.append((make_index(slot, r + 2), True))
            melds.append(meld)
    for suit_runs in runs:
        melds.extend(cards for _, cards in suit_runs)
    return melds


def replay_suit(
    runs: list[list[tuple[int, list[Slot]]]], melds: list[list[Slot]], s: int, idx: int, desc: Desc
) -> None:
    actions, dest, vstart, _ = desc
    current: list[tuple[int, list[Slot]]] = []
    for (code, cards), act in zip(runs[s], actions, strict=True):
        if act == END:
            melds.append(cards)
            continue
        cards.append((idx, act == CONT_VIRT))
        current.append((run_code(code // 2 + 2, (code & 1) | (act == CONT_VIRT)), cards))
    if dest == DEST_NEW:
        current.append((run_code(1, 0), [(idx, False)]))
    if vstart:
        current.append((run_code(1, 1), [(idx, True)]))
    current.sort(key=lambda item: item[0])
    runs[s] = current
