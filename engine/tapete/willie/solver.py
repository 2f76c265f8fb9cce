"""The exact best meld phase of a Willie position.

Glossary:

pool        the cards the phase may rearrange: the hand (optional cards) and the melds that are
            *broken* (their cards must all go back onto the table)
kept meld   an old meld left exactly as it was (same tokens, same declarations)
changes     how many old melds are not kept: the second objective, after the hand points shed
forced wild an old wild whose declared card is not on the table after the phase: it must keep
            standing for that card (W-9), so the table needs a *virtual slot* of that identity
free figure a figure that may take any role: from the hand, from a broken Willie, or an old
            wild whose real card is on the table after the phase (it may be freed, W-8)
slot        a place for a wild in a group or sequence, with its identity; a free figure fills
            a slot or joins a Willie
proven      the result is the optimum (always so, except in huge positions: see below)

Method. ``solve`` first finds the most points the hand can shed with every old meld broken
(``best_phase``), then the fewest changes: it tries to keep all old melds but k, for
k = 0, 1, 2, ..., until a phase with those kept melds reaches the same points (keeping melds
only removes choices, so the first k found is the minimum).

``best_phase`` runs the dynamic program of :mod:`tapete.willie.program` over the 45
identities. Hand naturals are optional, table naturals required, and old wilds whose card stays
off the table need forced slots; the program gives, per count of free slots, the most hand
naturals played. The hand figures to play and the Willies to build are chosen afterwards so that
every figure on the table is used (free figures = free slots + 3 x Willies). An old wild whose
real card is in the hand is handled by trying both: play that card (and free the wild) or keep
it (and keep the wild).

Speed. A quick beam search (the ``QUICK_BEAM`` most promising states per step) usually finds
the optimum at once; it is proven when the beam never had to drop a state or when it plays every
card it could. Otherwise an exact pass looks only for something strictly better (states that
cannot beat the beam's points are dropped). A budget keeps huge positions (hands of 20+ cards
and many figures, which only a player who never melds builds) within about a second: past
``STATE_BUDGET`` states a step, or ``CHANGES_BUDGET`` phases in the change search, or
``WORK_BUDGET`` states stepped through in all (about half a second of CPython; a 17-card hand in a
long round took 2.1 s without it), the result is the best found and ``Solution.proven`` is
False. Everything is deterministic: no set or hash
order decides.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import combinations, product
from typing import Any

from ..errors import InvalidMoveError, describe
from .cards import (
    FIGURES,
    NUMBER_INDEX,
    NUMBERS,
    card_points,
    parse_card,
    point_table,
)
from .melds import meld_problem, normalize_meld, options_of, parse_token
from .moves import Move, Table
from .program import (
    ABSENT,
    OPTIONAL,
    REQUIRED,
    WORK,
    Floor,
    Program,
    Slot,
    replay,
    run_program,
)

FigureOption = tuple[int, int, Counter[str], int]  # (points, cards, played per figure, Willies)
Pick = tuple[int, int, Counter[str], int]  # (points, free slots, hand figures played, Willies)
QUICK_BEAM = 100
STATE_BUDGET = 6000  # states per step of the exact pass; beyond, it is a wide beam
CHANGES_BUDGET = 400  # phases tried while looking for fewer changes
WORK_BUDGET = 150_000  # program states a solve steps through before it stops the change search


# -- positions ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rules:
    gmax: int
    willie: bool
    points: tuple[tuple[str, int], ...]
    must_change: bool

    @classmethod
    def of(cls, options: Mapping[str, Any] | None) -> Rules:
        meld = options_of(options)
        must = bool((options or {}).get("freed_wild_must_change_meld", False))
        points = tuple(sorted(point_table(options).items()))
        return cls(meld["max_group_size"], meld["willie_enabled"], points, must)

    def pts(self, card: str) -> int:
        return card_points(card, dict(self.points))


@dataclass(frozen=True)
class Solution:
    """A best meld phase: ``table`` is the whole new table, ``from_hand`` the cards played."""

    table: Table
    from_hand: tuple[str, ...]
    points: int
    changes: int
    proven: bool = True  # False when a search budget stopped the proof (huge positions only)

    @property
    def move(self) -> Move:
        return Move("meld", self.table, self.from_hand)

    def to_json(self) -> dict[str, Any]:
        out = self.move.to_json()
        assert isinstance(out, dict)
        return {**out, "points": self.points, "changes": self.changes, "proven": self.proven}


@dataclass
class Figure:
    card: str
    origin: str  # "hand", "plain" (from a broken Willie), "wild" (an old wild)
    declared: int | None = None
    home: frozenset[int] = frozenset()  # the naturals of its old meld


@dataclass(frozen=True)
class Candidate:
    points: int
    played: list[str]
    melds: list[tuple[str, ...]]
    proven: bool = True  # False when a search budget cut the search short


def best_phase(
    melds: Sequence[tuple[str, ...]],
    hand: Sequence[str],
    broken: Sequence[int],
    rules: Rules,
    floor: int | None = None,
    cap: int | None = None,
) -> tuple[Candidate | None, bool]:
    """The most points the hand can shed when exactly the melds ``broken`` may change (None if
    no phase is possible, or none reaches ``floor`` points), and whether that is proven; no
    phase sheds more than ``cap``."""
    kept_nat = {
        NUMBER_INDEX[t]
        for i, m in enumerate(melds)
        if i not in broken
        for t in m
        if t in NUMBER_INDEX
    }
    pool_nat: list[int] = []
    pool_figs: list[Figure] = []
    for i in broken:
        for token in melds[i]:
            card, identity = parse_token(token)
            if card in NUMBER_INDEX:
                pool_nat.append(NUMBER_INDEX[card])
            else:
                origin = "wild" if identity is not None else "plain"
                home = frozenset(NUMBER_INDEX[t] for t in melds[i] if t in NUMBER_INDEX)
                pool_figs.append(Figure(card, origin, identity, home))
    hand_nat = sorted(NUMBER_INDEX[c] for c in hand if c in NUMBER_INDEX)
    hand_figs = Counter(c for c in hand if c in FIGURES)
    fixed = kept_nat | set(pool_nat)
    pinnable = sorted(
        {f.declared for f in pool_figs if f.declared is not None and f.declared not in fixed}
        & set(hand_nat)
    )
    best: Candidate | None = None
    proven = True
    for choice in product((True, False), repeat=len(pinnable)):
        freeing = [d for d, play in zip(pinnable, choice, strict=True) if play]
        candidate, sure = phase_with(
            pool_nat, pool_figs, hand_nat, hand_figs, fixed, pinnable, freeing, rules, floor, cap
        )
        proven = proven and sure
        if candidate is not None and (best is None or candidate.points > best.points):
            best = candidate
            floor = candidate.points + 1
    return best, proven


@dataclass
class Setup:
    """One choice of the wilds to free, ready for the program."""

    status: list[int]
    forced: list[int]
    on_table: set[int]
    free_by_type: Counter[str]
    max_free: int
    options: list[list[FigureOption]]
    freeing: list[int]
    hand_figs: Counter[str]
    rules: Rules

    def floor(self, points: int) -> Floor:
        best = tuple(opts[0][0] if opts else None for opts in self.options)
        nat = self.rules.pts("R2")
        return Floor(points, nat, len(self.freeing) * nat, best)

    def everything(self) -> int:
        """The points of every card this choice could play."""
        nat = sum(s == OPTIONAL for s in self.status) + len(self.freeing)
        figures = sum(self.rules.pts(f) * self.hand_figs[f] for f in FIGURES)
        return nat * self.rules.pts("R2") + figures

    def run(self, floor: int | None, width: int | None) -> tuple[Program, Pick | None]:
        program = run_program(
            self.status,
            self.forced,
            self.max_free,
            self.rules.gmax,
            self.floor(floor or 0),
            beam=width,
        )
        return program, choose_figures(
            program, self.options, len(self.freeing), self.rules.pts("R2")
        )


def prepare(
    pool_nat: list[int],
    pool_figs: list[Figure],
    hand_nat: list[int],
    hand_figs: Counter[str],
    on_table: set[int],
    pinnable: list[int],
    freeing: list[int],
    rules: Rules,
    keep_wilds: bool,
) -> Setup:
    status = [ABSENT] * 45
    for idx in hand_nat:
        if idx not in pinnable:
            status[idx] = OPTIONAL
    for idx in [*pool_nat, *freeing]:
        status[idx] = REQUIRED
    forced = [0] * 45
    free_by_type: Counter[str] = Counter()
    for fig in pool_figs:
        if fig.declared is not None and (keep_wilds or fig.declared not in on_table):
            forced[fig.declared] += 1
        else:
            free_by_type[fig.card] += 1
    max_free = sum(free_by_type.values()) + sum(hand_figs.values())
    options = figure_options(free_by_type, hand_figs, max_free, rules)
    return Setup(
        status, forced, on_table, free_by_type, max_free, options, freeing, hand_figs, rules
    )


def search(setup: Setup, floor: int | None, cap: int | None) -> tuple[Program, Pick | None, bool]:
    """A quick beam first; unless it provably found the best, an exact pass (a wide beam past
    ``STATE_BUDGET`` states a step) looks for something better. Returns whether the result is
    proven best."""
    program, pick = setup.run(floor, QUICK_BEAM)
    upper = setup.everything() if cap is None else min(cap, setup.everything())
    if program.exact or (pick is not None and pick[0] >= upper):
        return program, pick, True
    target = floor if pick is None else max(floor or 0, pick[0] + 1)
    wide, better = setup.run(target, STATE_BUDGET)
    if better is not None and (pick is None or better[0] > pick[0]):
        return wide, better, wide.exact
    return program, pick, wide.exact


def phase_with(
    pool_nat: list[int],
    pool_figs: list[Figure],
    hand_nat: list[int],
    hand_figs: Counter[str],
    fixed: set[int],
    pinnable: list[int],
    freeing: list[int],
    rules: Rules,
    floor: int | None = None,
    cap: int | None = None,
    keep_wilds: bool = False,
) -> tuple[Candidate | None, bool]:
    """The best phase for one choice of the wilds to free, if it reaches ``floor`` points, and
    whether that is proven; ``cap`` is a bound no phase exceeds (stop once it is met)."""
    on_table = fixed | set(freeing)
    setup = prepare(
        pool_nat, pool_figs, hand_nat, hand_figs, on_table, pinnable, freeing, rules, keep_wilds
    )
    program, pick, proven = search(setup, floor, cap)
    if pick is None or (floor is not None and pick[0] < floor):
        return None, proven
    points, u, played_figs, willies = pick
    shape = replay(program, program.best[u][1])
    tokens = assign_figures(shape, willies, pool_figs, on_table, played_figs, rules, keep_wilds)
    if tokens is None and keep_wilds:
        raise AssertionError("kept wilds always fit")
    if tokens is None:  # only with freed_wild_must_change_meld: keep the old wilds instead
        fallback, _ = phase_with(
            pool_nat,
            pool_figs,
            hand_nat,
            hand_figs,
            fixed,
            pinnable,
            freeing,
            rules,
            keep_wilds=True,
        )
        return fallback, False
    played = [NUMBERS[idx] for meld in shape for idx, wild in meld if not wild]
    played = [c for c in played if setup.status[NUMBER_INDEX[c]] == OPTIONAL]
    played += [NUMBERS[d] for d in freeing]
    played += [fig for fig in FIGURES for _ in range(played_figs[fig])]
    return Candidate(points, played, tokens), proven


def figure_options(
    free_by_type: Counter[str], hand_figs: Counter[str], max_free: int, rules: Rules
) -> list[list[FigureOption]]:
    """Per final free-slot count u: the ways to play hand figures and build Willies so that
    every free figure is used (free figures = u + 3 x Willies), best points first."""
    out: list[list[FigureOption]] = [[] for _ in range(max_free + 1)]
    ranges = [range(hand_figs[fig] + 1) for fig in FIGURES]
    for counts in product(*ranges):
        played = Counter(dict(zip(FIGURES, counts, strict=True)))
        totals = [free_by_type[fig] + played[fig] for fig in FIGURES]
        most = min(totals) if rules.willie else 0
        points = sum(rules.pts(f) * played[f] for f in FIGURES)
        for willies in range(most + 1):
            u = sum(totals) - 3 * willies
            if 0 <= u <= max_free:
                out[u].append((points, sum(counts), played, willies))
    for opts in out:
        opts.sort(key=lambda o: (-o[0], o[1], o[3]))
    return out


def choose_figures(
    program: Program, options: list[list[FigureOption]], freeing: int, nat_pts: int
) -> tuple[int, int, Counter[str], int] | None:
    """The best (points, free slots, hand figures played, Willies) the program allows."""
    best: tuple[int, int, Counter[str], int] | None = None
    for u in sorted(program.best):
        value = program.best[u][0]
        for fig_points, cards, played, willies in options[u]:
            if value + freeing + cards == 0:
                continue
            points = (value + freeing) * nat_pts + fig_points
            if best is None or points > best[0]:
                best = (points, u, played, willies)
            break
    return best


def assign_figures(
    shape: list[list[Slot]],
    willies: int,
    pool_figs: list[Figure],
    on_table: set[int],
    played_figs: Counter[str],
    rules: Rules,
    keep_wilds: bool = False,
) -> list[tuple[str, ...]] | None:
    """Tokens for the melds: forced wilds to their slots, then Willies, then the rest."""
    tokens: list[list[str | None]] = [
        [None if wild else NUMBERS[idx] for idx, wild in meld] for meld in shape
    ]
    open_slots = [
        (m, i) for m, meld in enumerate(shape) for i, (_, wild) in enumerate(meld) if wild
    ]
    forced: list[Figure] = []
    free: list[Figure] = []
    for fig in pool_figs:
        pinned = fig.declared is not None and (keep_wilds or fig.declared not in on_table)
        (forced if pinned else free).append(fig)
    free += [Figure(fig, "hand") for fig in FIGURES for _ in range(played_figs[fig])]

    def fill(fig: Figure, declared: int) -> bool:
        """Put the figure in a slot of its declaration, near its old meld mates if it can."""
        fits = [pos for pos in open_slots if shape[pos[0]][pos[1]][0] == declared]
        if not fits:
            return False
        pos = max(fits, key=lambda p: len(fig.home & {idx for idx, _ in shape[p[0]]}))
        tokens[pos[0]][pos[1]] = f"{fig.card}:{NUMBERS[declared]}"
        open_slots.remove(pos)
        return True

    for fig in sorted(forced, key=lambda f: (f.declared or 0, f.card)):
        if not fill(fig, fig.declared or 0):
            raise AssertionError("the program left no slot for a forced wild")
    rank = {"plain": 0, "hand": 1, "wild": 2}
    free.sort(key=lambda f: rank[f.origin])
    out: list[tuple[str, ...]] = []
    for _ in range(willies):
        for card in FIGURES:
            fig = next(f for f in free if f.card == card)
            free.remove(fig)
        out.append(FIGURES)
    rest: list[Figure] = []
    for fig in free:
        if not (fig.declared is not None and fill(fig, fig.declared)):
            rest.append(fig)
    placement = place_rest(shape, open_slots, rest, rules.must_change)
    if placement is None:
        return None
    for (m, i), fig in placement:
        tokens[m][i] = f"{fig.card}:{NUMBERS[shape[m][i][0]]}"
    melds = [normalize_meld([t for t in meld if t is not None]) for meld in tokens]
    return melds + out


def place_rest(
    shape: list[list[Slot]], slots: list[tuple[int, int]], figs: list[Figure], must_change: bool
) -> list[tuple[tuple[int, int], Figure]] | None:
    """Pair the remaining figures with the remaining slots; with ``must_change`` a freed wild
    may not join the meld of the card that freed it (a small bipartite matching)."""
    assert len(slots) == len(figs)

    def allowed(fig: Figure, slot: tuple[int, int]) -> bool:
        if not must_change or fig.origin != "wild":
            return True
        return all(idx != fig.declared or wild for idx, wild in shape[slot[0]])

    owner: dict[int, int] = {}  # slot index -> figure index

    def augment(f: int, seen: set[int]) -> bool:
        for k, slot in enumerate(slots):
            if k in seen or not allowed(figs[f], slot):
                continue
            seen.add(k)
            if k not in owner or augment(owner[k], seen):
                owner[k] = f
                return True
        return False

    for f in range(len(figs)):
        if not augment(f, set()):
            return None
    return [(slots[k], figs[f]) for k, f in sorted(owner.items())]


# -- the public entry point --------------------------------------------------------------------


def read_position(
    table: Sequence[Sequence[str]], hand: Sequence[str], rules: Rules
) -> tuple[list[tuple[str, ...]], list[str]]:
    if isinstance(table, str) or isinstance(hand, str):
        raise InvalidMoveError("table is a list of melds and hand a list of card codes")
    melds: list[tuple[str, ...]] = []
    for meld in table:
        if isinstance(meld, str):
            raise InvalidMoveError(f"a meld is a list of codes; got {describe(meld)}")
        for token in meld:
            parse_token(token)
        problem = meld_problem(list(meld), max_group_size=rules.gmax, willie_enabled=rules.willie)
        if problem is not None:
            raise InvalidMoveError(
                f"the table holds an invalid meld {describe(list(meld))}: {problem[1]}",
                reason=problem[0],
            )
        melds.append(normalize_meld(meld))
    cards = [parse_card(code) for code in hand]
    every = [parse_token(t)[0] for m in melds for t in m] + cards
    numbers = [c for c in every if c in NUMBER_INDEX]
    if len(set(numbers)) < len(numbers) or any(every.count(f) > 3 for f in FIGURES):
        raise InvalidMoveError("the table and hand hold a card more often than the deck does")
    return melds, cards


def changes_of(old: Sequence[tuple[str, ...]], new: Sequence[tuple[str, ...]]) -> int:
    """Old melds that are not on the new table, token for token."""
    left = Counter(new)
    kept = 0
    for meld in old:
        if left[meld] > 0:
            left[meld] -= 1
            kept += 1
    return len(old) - kept


def assemble(
    melds: Sequence[tuple[str, ...]], broken: Sequence[int], candidate: Candidate, proven: bool
) -> Solution:
    kept = [m for i, m in enumerate(melds) if i not in broken]
    table = tuple(kept) + tuple(candidate.melds)
    played = tuple(sorted(candidate.played, key=sort_hand))
    return Solution(table, played, candidate.points, changes_of(melds, table), proven)


@lru_cache(maxsize=4096)
def cached_solve(
    melds: tuple[tuple[str, ...], ...], hand: tuple[str, ...], rules: Rules, exact: bool
) -> Solution | None:
    every = list(range(len(melds)))
    WORK[0] = 0
    full, proven = best_phase(melds, hand, every, rules)
    if full is None:
        return None
    best = assemble(melds, every, full, proven)
    if not exact:
        return best
    calls = 0
    for k in range(best.changes):
        for broken in combinations(every, k):
            calls += 1
            if calls > CHANGES_BUDGET or WORK[0] > WORK_BUDGET:
                return replace(best, proven=False)
            candidate, sure = best_phase(melds, hand, broken, rules, full.points, full.points)
            proven = proven and sure
            if candidate is not None and candidate.points == full.points:
                return assemble(melds, broken, candidate, proven)
    return replace(best, proven=proven)


def solve(
    table: Sequence[Sequence[str]],
    hand: Sequence[str],
    *,
    options: Mapping[str, Any] | None = None,
    exact: bool = True,
) -> Solution | None:
    """The best meld phase for ``hand`` on ``table``, or None when no meld is possible.

    Best means the most hand points shed, then the fewest changed melds (``exact``; with
    ``exact=False`` only the points are optimal, which is what the bots need). ``table`` is the
    list of melds (wilds written ``K:B7``), ``hand`` the hand's codes; the result's ``move`` is a
    meld move that ``check`` accepts.
    """
    rules = Rules.of(options)
    melds, cards = read_position(table, hand, rules)
    return cached_solve(tuple(melds), tuple(sorted(cards, key=sort_hand)), rules, exact)


def sort_hand(code: str) -> tuple[int, int]:
    return (1, FIGURES.index(code)) if code in FIGURES else (0, NUMBER_INDEX[code])
