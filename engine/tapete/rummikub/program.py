"""The dynamic program under the Rummikub solver (see ``solver`` for the public function).

Glossary:

slot      a (colour, number) pair (see ``tiles``); the program works on tile counts per slot
lane      a run under construction in one colour, by the number reached so far: ``1`` and
          ``2`` (too short to stop), ``3`` (three or more: may stop), ``P`` (its last tile is a
          joker filling a hole: a numbered tile must follow). A state keeps, per colour, how
          many lanes of each kind are open (at most four: two copies and two jokers)
group tiles
          the tiles of one number that go to groups; they fit in m groups exactly when no colour
          has more than m of them and 3m <= tiles + jokers <= 4m (deal them round-robin)
pin       RACK_ONLY: a table joker keeps the tile it stands for, or is released when that tile
          is played from the rack; decided before the program runs (``pins``): a kept joker
          counts as a table tile of its slot, a released one is free and its slot must use a
          rack tile (``min_rack``)
essential joker
          a joker without which the melds would not be valid: a hole inside a run, the one or
          two tiles that bring a short run to three (a *closure*), a group's third tile. Other
          jokers are *free*: they fit at the end of any run shorter than 13 or in any group of
          three ("room"); the fast mode leaves them to the builder, the exact mode places every
          joker as a tile of its slot
floor     branch and bound: a state whose score plus all the rack could still bring stays below
          the floor is dropped
look-ahead
          a state is dropped as soon as it cannot end: the groups of its number cannot fit
          whatever the colours still to come add, or a colour's short lanes need more jokers than
          are left (each lane of 1, 2 or P takes a tile of the next number or a joker, each lane
          of 1 also one of the number after)
score     ``objective * SCALE - penalty``: the penalty (table links broken, tiles moved out of
          table groups) only breaks ties between equal objectives

The algorithm is the dynamic program of van Rijn, Takes and Vis ("The complexity of Rummikub
problems", 2015): numbers 1..13 in order; at each number every colour decides how many of its
tiles to use (table tiles must be used, rack tiles may be), which open lanes they extend, which
lanes stop and which tiles go to groups; the groups of that number must then fit. The state is
one integer (see the key layout below); dominated states are pruned: a lane of three beats a
shorter one and an absent one, a lane of two beats a pending one, and in the fast mode a state
that used fewer jokers for no less score beats one that used more.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from itertools import permutations
from typing import Any

SCALE = 1024
NEG = -(1 << 60)
MAX_LANES = 4

# -- lane tuples ------------------------------------------------------------------------------
# A colour's open lanes are counts (a1, a2, a3, ap) of lanes of each kind, at most four lanes.

LaneCounts = tuple[int, int, int, int]
LANES: list[LaneCounts] = [
    (a1, a2, a3, ap)
    for total in range(MAX_LANES + 1)
    for a1 in range(total + 1)
    for a2 in range(total + 1 - a1)
    for a3 in range(total + 1 - a1 - a2)
    for ap in [total - a1 - a2 - a3]
]
LANE_INDEX = {lanes: i for i, lanes in enumerate(LANES)}
LANE_BITS = 7

# lane kinds, for the dominance order: 3 >= 2 >= 1, 2 >= P, and 3 >= an absent lane
ONE, TWO, THREE, PENDING = 0, 1, 2, 3
_BEATS = {
    (THREE, THREE),
    (THREE, TWO),
    (THREE, ONE),
    (THREE, PENDING),
    (TWO, TWO),
    (TWO, ONE),
    (TWO, PENDING),
    (ONE, ONE),
    (PENDING, PENDING),
}


def _expand(lanes: LaneCounts) -> list[int]:
    return [kind for kind, count in enumerate(lanes) for _ in range(count)]


def _dominates(a: LaneCounts, b: LaneCounts) -> bool:
    """Lanes ``a`` can do whatever lanes ``b`` can (each b lane matched by a stronger a lane)."""
    big, small = _expand(a), _expand(b)
    if len(big) < len(small):
        return False
    for order in set(permutations(big)):
        matched = all((order[i], kind) in _BEATS for i, kind in enumerate(small))
        if matched and all(kind == THREE for kind in order[len(small) :]):
            return True
    return False


@cache
def dominators() -> list[tuple[int, ...]]:
    """By lane index: the indices of the lanes that dominate it (made on first use, not at
    import: the engine starts faster)."""
    return [
        tuple(j for j, a in enumerate(LANES) if j != i and _dominates(a, b))
        for i, b in enumerate(LANES)
    ]


# -- key layout -------------------------------------------------------------------------------
# lanes of colour c at bits 7c..7c+6; then jokers used, group tiles of the current number,
# the largest count of one colour among them, the value of an initial meld (capped at the
# threshold).

SH_JU = 28
SH_T = 30
SH_MG = 34
SH_THR = 37
MASK_LANES = (1 << 28) - 1


def _field(key: int, shift: int, bits: int) -> int:
    return (key >> shift) & ((1 << bits) - 1)


# -- options of one slot ------------------------------------------------------------------------


@dataclass(frozen=True)
class SlotChoice:
    """What one colour does at one number (enough to rebuild the melds)."""

    used: int  # numbered tiles used (table + pinned + rack)
    group: int  # of those, how many go to groups
    jokers: int  # jokers spent here (holes, closures or, in exact mode, plain tiles)
    cont: int  # lanes continued from the previous number
    new: LaneCounts
    close1: int = 0  # lanes of 1 closed with two jokers
    close2: int = 0  # lanes of 2 closed with one joker
    nat: LaneCounts = (0, 0, 0, 0)  # lanes of each kind continued by a numbered tile
    hole: LaneCounts = (0, 0, 0, 0)  # lanes of each kind continued by a joker
    start: int = 0  # new lanes started (by numbered tiles; in exact mode also by jokers)


_OPTION_CACHE: dict[tuple[int, int, int, int, bool], list[SlotChoice]] = {}


def slot_choices(
    lane_index: int, forced: int, optional: int, min_rack: int, exact: bool
) -> list[SlotChoice]:
    """Every useful choice of a colour at a number, dominated ones removed (cached)."""
    cache_key = (lane_index, forced, optional, min_rack, exact)
    found = _OPTION_CACHE.get(cache_key)
    if found is None:
        lanes = LANES[lane_index]
        raw = (
            _exact_choices(lanes, forced, optional, min_rack)
            if exact
            else _fast_choices(lanes, forced, optional, min_rack)
        )
        found = _pareto(raw, exact)
        _OPTION_CACHE[cache_key] = found
    return found


def _fast_choices(lanes: LaneCounts, forced: int, optional: int, min_rack: int) -> list[SlotChoice]:
    a1, a2, a3, ap = lanes
    out: list[SlotChoice] = []
    for used in range(forced + min_rack, forced + optional + 1):
        for group in range(used + 1):
            numbered = used - group
            for c1 in range(a1 + 1):
                for c2 in range(a2 + 1):
                    closing = 2 * c1 + c2
                    if closing > 2:
                        continue
                    m1, m2 = a1 - c1, a2 - c2
                    for h1 in range(m1 + 1):
                        for h2 in range(m2 + 1):
                            for hp in range(ap + 1):
                                for h3 in range(a3 + 1):
                                    holes = h1 + h2 + hp + h3
                                    if closing + holes > 2:
                                        continue
                                    for n3 in range(a3 - h3 + 1):
                                        n1, n2, n_p = m1 - h1, m2 - h2, ap - hp
                                        start = numbered - n1 - n2 - n_p - n3
                                        if start < 0 or (start > 0 and n3 + h3 < a3):
                                            continue
                                        new = (start, n1, n2 + n_p + n3, holes)
                                        if sum(new) > MAX_LANES:
                                            continue
                                        out.append(
                                            SlotChoice(
                                                used=used,
                                                group=group,
                                                jokers=closing + holes,
                                                cont=n1 + n2 + n_p + n3 + holes,
                                                new=new,
                                                close1=c1,
                                                close2=c2,
                                                nat=(n1, n2, n3, n_p),
                                                hole=(h1, h2, h3, hp),
                                                start=start,
                                            )
                                        )
    return out


def _exact_choices(
    lanes: LaneCounts, forced: int, optional: int, min_rack: int
) -> list[SlotChoice]:
    a1, a2, a3, _ = lanes
    out: list[SlotChoice] = []
    for used in range(forced + min_rack, forced + optional + 1):
        for group in range(used + 1):
            for jokers in range(3):
                tiles = used - group + jokers
                extra = tiles - a1 - a2
                if extra < 0:
                    continue
                more = min(extra, a3)
                start = extra - more
                new = (start, a1, a2 + more, 0)
                if sum(new) > MAX_LANES:
                    continue
                out.append(
                    SlotChoice(
                        used=used,
                        group=group,
                        jokers=jokers,
                        cont=a1 + a2 + more,
                        new=new,
                        nat=(a1, a2, more, 0),
                        start=start,
                    )
                )
    return out


def _pareto(choices: list[SlotChoice], exact: bool) -> list[SlotChoice]:
    """Drop a choice when another with the same tiles is at least as good in every way."""
    kept: list[SlotChoice] = []
    for c in choices:
        if any(_choice_beats(k, c, exact) for k in kept):
            continue
        kept = [k for k in kept if not _choice_beats(c, k, exact)]
        kept.append(c)
    return kept


def _choice_beats(a: SlotChoice, b: SlotChoice, exact: bool) -> bool:
    """``a`` is at least as good as ``b``: as many group tiles, more rack tiles (they score),
    fewer jokers (fast mode), as many lanes continued (the tie-break) and stronger lanes."""
    if a.group != b.group or a.used < b.used:
        return False
    if exact and (a.jokers != b.jokers or a.used != b.used):
        return False
    if a.jokers > b.jokers or a.cont < b.cont:
        return False
    ia, ib = LANE_INDEX[a.new], LANE_INDEX[b.new]
    return ia == ib or ia in dominators()[ib]


# -- the problem --------------------------------------------------------------------------------


@dataclass
class Pin:
    """RACK_ONLY: table jokers of one meld that keep what they stand for unless released (as
    one of ``colours``; the jokers of a group as different colours)."""

    number: int
    colours: tuple[int, ...]
    count: int
    meld: int  # index of the old meld


@dataclass
class Problem:
    """The counts the dynamic program works on."""

    table: list[int]  # numbered table tiles per slot (all must be used)
    rack: list[int]  # numbered rack tiles per slot (any may be used)
    weight: list[int]  # objective per rack tile of the slot
    joker_weight: int
    links: list[int]  # table runs joining slot s to the next number
    in_groups: list[int]  # table tiles of slot s that sit in groups
    free_table_jokers: int
    rack_jokers: int
    pins: list[Pin]  # undecided pins (the program itself runs only once they are decided)
    threshold: int | None = None  # initial meld: the value to reach
    joker_value: bool = False  # initial meld: a joker counts what it stands for
    sources: dict[int, list[int]] = field(default_factory=dict)  # slot -> old meld per copy
    min_rack: list[int] = field(default_factory=lambda: [0] * 52)  # rack tiles a slot must use


@dataclass
class Path:
    """The decisions along the best path of the program."""

    slots: dict[tuple[int, int], tuple[SlotChoice, tuple[tuple[int, str], ...]]]
    group_jokers: dict[int, int]
    score: int
    jokers_used: int


# -- the dynamic program ------------------------------------------------------------------------


def _prune_field(states: dict[int, int], shift: int, mask: int, beats: list[int]) -> dict[int, int]:
    """Among states equal but for one field, drop those that a state with a better field and at
    least the same score beats. ``beats[v]`` is the bit mask of the values that value v beats.
    (Lists only for the keys that share the rest with another: most share it with none.)"""
    clear = ~(mask << shift)
    first: dict[int, int] = {}
    shared: dict[int, list[int]] = {}
    setdefault = first.setdefault
    for key in states:
        rest = key & clear
        other = setdefault(rest, key)
        if other != key:
            found = shared.get(rest)
            if found is None:
                shared[rest] = [other, key]
            else:
                found.append(key)
    if not shared:
        return states
    drop = []
    for keys in shared.values():
        keys.sort(key=states.__getitem__, reverse=True)
        covered = 0
        for key in keys:
            value = (key >> shift) & mask
            if (covered >> value) & 1:
                drop.append(key)
            else:
                covered |= beats[value]
    if not drop:
        return states
    out = dict(states)
    for key in drop:
        del out[key]
    return out


def _prune_jokers(states: dict[int, int]) -> dict[int, int]:
    """Fast mode: a state beats one that used more jokers and has no better score. (It once
    compared the objective only, ignoring the tie-break penalty: 1% fewer states, but with the
    pin scenarios apart it then broke a tie worse on 9 of 2,812 bench solves.)"""
    groups: dict[int, list[int]] = {}
    clear = ~(3 << SH_JU)
    for key in states:
        groups.setdefault(key & clear, []).append(key)
    if len(groups) == len(states):
        return states
    out: dict[int, int] = {}
    for keys in groups.values():
        if len(keys) == 1:
            out[keys[0]] = states[keys[0]]
            continue
        keys.sort(key=lambda k: (-states[k], (k >> SH_JU) & 3))
        best_jokers = 4
        for key in keys:
            jokers = (key >> SH_JU) & 3
            if jokers < best_jokers:
                out[key] = states[key]
                best_jokers = jokers
    return out


@cache
def dominated_masks() -> list[int]:
    """By lane index: a bit mask of the lanes it dominates (made on first use)."""
    above = dominators()
    return [sum(1 << j for j in range(len(LANES)) if i in above[j]) for i in range(len(LANES))]


_REACHABLE: dict[int, list[bool] | None] = {}
_ALL_REACHABLE = [True] * 128


def _minus_gain(row: tuple[int, int, SlotChoice]) -> int:
    return -row[1]


def _reachable_table(more: int) -> list[bool] | None:
    """Indexed by (group tiles, top count) bits: can ``more`` tiles still make groups? None
    when every entry is true."""
    if more not in _REACHABLE:
        ok = [
            any(groups_fit(tiles + extra, top) for extra in range(more + 1))
            for top in range(8)
            for tiles in range(16)
        ]
        _REACHABLE[more] = None if all(ok) else ok
    return _REACHABLE[more]


_ROWS_CACHE: dict[tuple[int | bool, ...], list[tuple[int, int, int, int, SlotChoice]]] = {}
# by a layer's parameters: by a state's lanes and fields, its rows (``Program.fast_rows``)
FastRows = dict[int, list[tuple[int, int, SlotChoice]]]
_FAST_ROWS: dict[tuple[int | bool, ...], FastRows] = {}


class OverBudget(Exception):
    """A try of the program that explored more states than it was allowed."""


class Program:
    """One run of the dynamic program (``exact`` places every joker as a tile).

    ``floor`` prunes: a state whose score plus everything the rest of the rack could still
    bring stays below ``floor`` is dropped (branch and bound; exact as long as some solution
    reaches ``floor``).
    """

    def __init__(
        self, problem: Problem, exact: bool, floor: int = NEG, budget: int | None = None
    ) -> None:
        self.p = problem
        self.exact = exact
        self.floor = floor
        self.budget = budget
        self.explored = 0
        # the best score a state dropped by the floor could still have reached, or a final
        # state below the floor reached: no play scores more (so a lower floor up to it
        # repeats this run)
        self.ceiling = NEG if problem.threshold is None else -NEG  # (not kept for a meld)
        if problem.pins:
            raise ValueError("decide the pins first (pins.pin_scenarios)")
        self.joker_cap = min(2, problem.free_table_jokers + problem.rack_jokers)
        self.parents: list[dict[int, Any]] = []
        # by layer, for the plain layers, whose parents are keys only: the states before and
        # after it, its rows and its colour's shift (``choice_of``)
        self.sources: dict[int, tuple[dict[int, int], dict[int, int], FastRows, int]] = {}
        self.fit_cache: dict[int, list[int]] = {}
        bonus = problem.rack_jokers * problem.joker_weight * SCALE
        self.after: dict[tuple[int, int], int] = {}
        total = bonus
        for number in range(14, 0, -1):
            self.after[(4, number)] = total  # after the groups of ``number``
            for colour in range(3, -1, -1):
                self.after[(colour, number)] = total
                if number <= 13:
                    slot = colour * 13 + number - 1
                    total += problem.rack[slot] * problem.weight[slot] * SCALE

    def run(self) -> Path | None:
        states: dict[int, int] = {0: 0}
        for number in range(1, 15):
            for colour in range(4):
                states = self.slot_layer(states, colour, number)
                if not states:
                    return None
                self.explored += len(states)
                if self.budget is not None and self.explored > self.budget:
                    raise OverBudget
            states = self.close_number(states, number)
            if not states:
                return None
        best_key, best_score = None, NEG
        for key, score in states.items():
            final = self.final_score(key, score)
            if final > best_score:
                best_key, best_score = key, final
        if best_key is None or best_score < self.floor:
            self.ceiling = max(self.ceiling, best_score)
            return None
        return self.trace(best_key, best_score)

    # one colour at one number

    def slot_layer(self, states: dict[int, int], colour: int, number: int) -> dict[int, int]:
        p = self.p
        slot = colour * 13 + number - 1
        real = number <= 13
        self.forced = p.table[slot] if real else 0
        self.optional = p.rack[slot] if real else 0
        self.weight = p.weight[slot] if real else 0
        self.links = p.links[slot - 1] if 1 < number <= 13 else 0
        self.in_groups = p.in_groups[slot] if real else 0
        self.min_rack = p.min_rack[slot] if real else 0
        # the tiles of this colour at the next two numbers: every short lane left open must
        # take one of the first or a joker, every lane of one also one of the second or a
        # joker (``fast_rows``)
        self.next_tiles = p.table[slot + 1] + p.rack[slot + 1] if number < 13 else 0
        self.after_next = p.table[slot + 2] + p.rack[slot + 2] if number < 12 else 0
        self.number = number
        self.shift = LANE_BITS * colour
        limit = self.floor - self.after[(colour, number)]
        reachable = self.groups_reachable(colour, number)
        if p.threshold is not None:
            out, parents = self.threshold_layer(states, limit)
            if reachable is not None:
                out = {k: v for k, v in out.items() if reachable[(k >> SH_T) & 127]}
        else:
            out, parents = self.fast_layer(states, limit, reachable)
        self.parents.append(parents)
        return out

    def groups_reachable(self, colour: int, number: int) -> list[bool] | None:
        """A look-ahead on the group count: by the (group tiles, top count) bits of a state
        after this slot, can its group tiles of this number still make groups, whatever the
        colours still to come add? None when they always can."""
        if number > 13:
            return None
        p = self.p
        more = self.joker_cap + sum(
            p.table[c * 13 + number - 1] + p.rack[c * 13 + number - 1] for c in range(colour + 1, 4)
        )
        return _reachable_table(min(more, 16))

    def fast_layer(
        self, states: dict[int, int], limit: int, reachable: list[bool] | None
    ) -> tuple[dict[int, int], dict[int, Any]]:
        """The plain layer (no initial meld). A state's rows depend only on its lanes of this
        colour and its jokers and group fields (``fast_rows``), best gain first, so the loop
        stops at the first row below the floor; what that row would have scored is the
        closest call of the bound (``ceiling``)."""
        shift = self.shift
        out: dict[int, int] = {}
        parents: dict[int, Any] = {}  # the state each came from (its row: ``choice_of``)
        get = out.get
        layer_key = (
            *self.slot_rules(),
            self.joker_cap,
            self.next_tiles,
            self.after_next,
            id(reachable),  # one of the look-ahead tables, which live as long as the process
        )
        tables = _FAST_ROWS.get(layer_key)
        if tables is None:
            if len(_FAST_ROWS) > 2_000:
                _FAST_ROWS.clear()
            tables = _FAST_ROWS[layer_key] = {}
        tables_get = tables.get
        gap = NEG
        for key, score in states.items():
            index = ((key >> shift) & 127) | ((key >> SH_JU) & 511) << 7
            rows = tables_get(index)
            if rows is None:
                rows = tables[index] = self.fast_rows(index, reachable)
            for delta, gain, _ in rows:
                value = score + gain
                if value < limit:
                    if value > gap:
                        gap = value
                    break
                new_key = key + delta
                if get(new_key, NEG) < value:
                    out[new_key] = value
                    parents[new_key] = key
        if gap > NEG and gap - limit + self.floor > self.ceiling:
            self.ceiling = gap - limit + self.floor
        self.sources[len(self.parents)] = (states, out, tables, shift)
        return out, parents

    def fast_rows(
        self, index: int, reachable: list[bool] | None
    ) -> list[tuple[int, int, SlotChoice]]:
        """The rows of a state whose lanes of this colour and jokers and group fields are
        ``index`` (lanes | fields << 7): (key delta, score gain, choice), the joker cap and the
        look-ahead (groups, lanes) applied, the best gain first (a stable sort: among equal
        gains the order of ``rows``)."""
        room = self.joker_cap - ((index >> 7) & 3)
        tiles = (index >> 9) & 15
        top = (index >> 13) & 7
        ok = reachable or _ALL_REACHABLE
        tiles_next, tiles_then = self.next_tiles, self.after_next
        out = []
        for delta, group, jokers, gain, choice in self.rows(index & 127):
            if jokers > room:
                continue
            new = choice.new
            short = max(0, new[0] + new[1] + new[3] - tiles_next) + max(0, new[0] - tiles_then)
            if short > room - jokers:
                continue  # a dead end: the short lanes need more jokers than are left
            if group > top:
                if not ok[tiles + group + 16 * group]:
                    continue
                delta += (group - top) << SH_MG
            elif not ok[tiles + group + 16 * top]:
                continue
            out.append((delta, gain, choice))
        out.sort(key=_minus_gain)
        return out

    def threshold_layer(
        self, states: dict[int, int], limit: int
    ) -> tuple[dict[int, int], dict[int, tuple[Any, ...]]]:
        """The layer of an initial meld: its value so far is part of the state. (The loop of
        ``fast_layer`` plus that; kept apart so that the hot loop does no per-row test.)"""
        shift = self.shift
        out: dict[int, int] = {}
        parents: dict[int, tuple[Any, ...]] = {}
        get = out.get
        cap = self.joker_cap
        tables: list[list[tuple[int, int, int, int, SlotChoice]] | None] = [None] * len(LANES)
        for key, score in states.items():
            lane_index = (key >> shift) & 127
            rows = tables[lane_index]
            if rows is None:
                rows = tables[lane_index] = self.rows(lane_index)
            used = (key >> SH_JU) & 3
            top = (key >> SH_MG) & 7
            for delta, group, jokers, gain, choice in rows:
                value = score + gain
                if value < limit or used + jokers > cap:
                    continue
                new_key = self.cap_threshold(key + delta, choice)
                if group > top:
                    new_key += (group - top) << SH_MG
                if get(new_key, NEG) < value:
                    out[new_key] = value
                    parents[new_key] = (key, choice)
        return out, parents

    def slot_rules(self) -> tuple[Any, ...]:
        """What a slot's choices depend on besides its lane (the caches of ``rows`` and
        ``fast_rows`` are keyed by it)."""
        return (
            self.forced,
            self.optional,
            self.min_rack,
            self.weight,
            self.links,
            self.in_groups,
            self.shift,
            self.number == 14,
            self.exact,
        )

    def rows(self, lane_index: int) -> list[tuple[int, int, int, int, SlotChoice]]:
        """The choices of this slot as (key delta, group tiles, jokers, score gain, choice)."""
        cache_key = (lane_index, *self.slot_rules())
        found = _ROWS_CACHE.get(cache_key)
        if found is None:
            if len(_ROWS_CACHE) > 100_000:
                _ROWS_CACHE.clear()
            found = _ROWS_CACHE[cache_key] = self.make_rows(lane_index)
        return found

    def make_rows(self, lane_index: int) -> list[tuple[int, int, int, int, SlotChoice]]:
        out = []
        forced = self.forced
        for choice in slot_choices(lane_index, forced, self.optional, self.min_rack, self.exact):
            if self.number == 14 and choice.new != (0, 0, 0, 0):
                continue
            rack_used = choice.used - forced
            penalty = max(0, self.links - choice.cont) + max(0, self.in_groups - choice.group)
            gain = rack_used * self.weight * SCALE - penalty
            delta = (LANE_INDEX[choice.new] - lane_index) << self.shift
            delta += (choice.group << SH_T) + (choice.jokers << SH_JU)
            out.append((delta, choice.group, choice.jokers, gain, choice))
        return out

    def cap_threshold(self, key: int, choice: SlotChoice) -> int:
        p = self.p
        assert p.threshold is not None
        gained = self.number * (choice.used + (choice.jokers if p.joker_value else 0))
        have = _field(key, SH_THR, 7)
        now = min(p.threshold, have + gained)
        return key + ((now - have) << SH_THR)

    # the groups of one number

    def close_number(self, states: dict[int, int], number: int) -> dict[int, int]:
        p = self.p
        out: dict[int, int] = {}
        parents: dict[int, tuple[Any, ...]] = {}
        clear = ~((0xF << SH_T) | (0x7 << SH_MG))
        limit = self.floor - self.after[(4, number)]
        fits = self.fit_cache
        joker_value = p.threshold is not None and p.joker_value
        get = out.get
        gap = NEG
        for key, score in states.items():
            if score < limit:
                if score > gap:
                    gap = score
                continue
            fit_key = (key >> SH_JU) & 511
            counts = fits.get(fit_key)
            if counts is None:
                counts = fits[fit_key] = self.group_joker_counts(
                    (fit_key >> 2) & 15, fit_key >> 6, fit_key & 3
                )
            base = key & clear
            for extra in counts:
                new_key = base + (extra << SH_JU)
                if joker_value and extra:
                    assert p.threshold is not None
                    have = _field(new_key, SH_THR, 7)
                    now = min(p.threshold, have + extra * number)
                    new_key += (now - have) << SH_THR
                if get(new_key, NEG) < score:
                    out[new_key] = score
                    parents[new_key] = (key, number, extra)
        if gap > NEG:
            self.ceiling = max(self.ceiling, gap - limit + self.floor)
        self.parents.append(parents)
        return self.prune(out, (0, 1, 2, 3))

    def group_joker_counts(self, tiles: int, top: int, used: int) -> list[int]:
        room = self.joker_cap - used
        fits = [j for j in range(room + 1) if groups_fit(tiles + j, top)]
        if self.exact or not fits:
            return fits
        return fits[:1]

    def prune(self, states: dict[int, int], colours: tuple[int, ...]) -> dict[int, int]:
        """Drop states another state beats (stronger lanes in one colour, fewer jokers)."""
        for colour in colours:
            shift = LANE_BITS * colour
            states = _prune_field(states, shift, 127, dominated_masks())
        if not self.exact:
            states = _prune_jokers(states)
        return states

    # the end

    def final_score(self, key: int, score: int) -> int:
        p = self.p
        used = _field(key, SH_JU, 2)
        if p.threshold is not None and _field(key, SH_THR, 7) < p.threshold:
            if score > 0 or used:
                return NEG
        must = p.free_table_jokers
        if self.exact:
            if used < must or used - must > p.rack_jokers:
                return NEG
            return score + (used - must) * p.joker_weight * SCALE
        if used > must + p.rack_jokers:
            return NEG
        return score + p.rack_jokers * p.joker_weight * SCALE

    def choice_of(self, layer: int, prev: int, key: int) -> SlotChoice:
        """The choice that took ``prev`` to ``key`` in a plain layer: its first row that gives
        that key with that score (the row the layer kept: among equal gains the rows keep
        their order)."""
        before, after, tables, shift = self.sources[layer]
        index = ((prev >> shift) & 127) | ((prev >> SH_JU) & 511) << 7
        gain = after[key] - before[prev]
        for delta, row_gain, choice in tables[index]:
            if prev + delta == key and row_gain == gain:
                return choice
        raise AssertionError("no row leads there")

    def trace(self, key: int, score: int) -> Path:
        slots: dict[tuple[int, int], tuple[SlotChoice, tuple[tuple[int, str], ...]]] = {}
        group_jokers: dict[int, int] = {}
        final_key = key
        layer = len(self.parents)
        for number in range(14, 0, -1):
            layer -= 1
            prev, _, extra = self.parents[layer][key]
            group_jokers[number] = extra
            key = prev
            for colour in range(3, -1, -1):
                layer -= 1
                if layer in self.sources:
                    prev = self.parents[layer][key]
                    choice = self.choice_of(layer, prev, key)
                    key = prev
                else:
                    key, choice = self.parents[layer][key]
                slots[(colour, number)] = (choice, ())
        return Path(
            slots=slots,
            group_jokers=group_jokers,
            score=score,
            jokers_used=_field(final_key, SH_JU, 2),
        )


def groups_fit(tiles: int, top: int) -> bool:
    """``tiles`` group tiles of one number (at most ``top`` of one colour) make groups."""
    if tiles == 0:
        return True
    low = max(top, -(-tiles // 4))
    return low <= tiles // 3
