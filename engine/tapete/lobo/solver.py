"""The rank-level search behind Lobo's odds: exact expectimax within a node budget, and Monte
Carlo estimates beyond it.

Glossary:

rank level  suits never matter to the rules, so a position keeps only how many cards of each
            rank every place holds
multiset    such counts packed in one int, 4 bits a rank: rank r counts ``(m >> 4 * r) & 15``;
            adding a card of rank r is ``m + UNIT[r]``
position    ``(hand, res, wolf, top, unseen, left, final, active)``: the player's hand, the
            reserve, the Wolf's hand (multisets), the rank of the pile's top card (0: empty),
            the multiset of the unseen cards below it and how many they are, whether the round
            is final, and how many members are face up. In a final round nothing is drawn, so
            ``top``, ``unseen`` and ``left`` are kept 0 there (one memo entry for all piles)
unseen      the pile below its top card. Its order is uniformly random from the player's point
            of view, so each draw reveals rank r with probability count(r) / left
step        a rank-level move: ``(kind, from hand, from reserve, taken, draws, members)``;
            ``draws`` is DRAW_HAND (the player draws the top card), 0 (no draw) or d > 0 (the
            Wolf draws d cards: the top card and d - 1 unseen ones)
value       ``(p, aux)``: p the probability of winning the round with best play from here; aux
            breaks near-ties: minus the members a lost round costs, plus a won final round's
            score / 40, and in Classic Lobo plus or minus the round's points / 50
exact       every order of the unseen cards is weighed (expectimax), positions are memoised;
            a step that cannot beat the best one found is cut off as soon as that is sure
            (Ballard's Star1 bound at chance nodes), so only the best values are exact below
            the root
game value  :class:`GameSearch` values a position by the chance of winning the game rather
            than the round, looking through the choice between rounds and every deal of the
            next round when that round must be the final one
estimate    a step's draws are sampled (``samples`` pile orders, the same orders for every step
            compared), then the round is played on by the exact search once it fits a small
            budget (a final round), before that by a greedy rule (:meth:`Search.greedy`); the
            estimate is the mean (see :meth:`Search.estimate` for how samples are spread)

In a round that is not final the search gives hand cards before reserve cards of the same
rank (reserve cards outlive the round); in a final round it tries both (a reserve card may be
wild, and may not score).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import comb

from ..rng import Rng

BITS = 4
MASK = 15
UNIT = tuple(1 << (BITS * r) for r in range(11))
DRAW_HAND = -1
MEMBER_POINTS = 10
FINAL_PILE = 8  # as in rules.py: a round starting with this few cards is final
EPS = 1e-6  # the weight of aux: p decides, aux breaks near-ties
WIN_CERTAIN = 1.0 - 1e-12
NO_LIMIT = -1.0  # below every key: "the exact value, please"
KEY_MAX = 1.0 + EPS * 4.0  # above every key (aux is at most 130 / 40)
TAIL_BUDGET = 400  # in an estimate, the exact search takes over a final round this small
ESTIMATE_BATCH = 16

Pos = tuple[int, int, int, int, int, int, bool, int]
Value = tuple[float, float]
Result = tuple[Value, bool]  # a value and whether it is exact (else an upper bound of the key)
Step = tuple[str, int, int, int, int, int]

KIND_ORDER = {"perfect": 0, "sum": 1, "sacrifice": 2, "wild": 2, "split": 3, "over": 4}


class BudgetExceeded(Exception):
    """The exact search hit its node budget."""


def key(value: Value) -> float:
    return value[0] + EPS * value[1]


def count(m: int, r: int) -> int:
    return (m >> (BITS * r)) & MASK


def pack(ranks: Sequence[int]) -> int:
    m = 0
    for r in ranks:
        m += UNIT[r]
    return m


def unpack(m: int, size: int) -> list[int]:
    out: list[int] = []
    for r in range(1, size):
        out += [r] * count(m, r)
    return out


RANKS_OF = tuple(sum(MASK << (BITS * r) for r in range(1, size)) for size in range(12))
NIBBLES = 0x0F0F0F0F0F0F  # the even nibbles of 12
_TOTALS: dict[int, int] = {}


def total(m: int, size: int) -> int:
    m &= RANKS_OF[size]
    found = _TOTALS.get(m)
    if found is None:
        found = sum(r * count(m, r) for r in range(1, size))
        if len(_TOTALS) > 200_000:
            _TOTALS.clear()
        _TOTALS[m] = found
    return found


def cards(m: int, size: int) -> int:
    # the nibbles summed in pairs (bytes of at most 30), then the 6 bytes (256 = 1 mod 255)
    m &= RANKS_OF[size]
    return ((m & NIBBLES) + ((m >> BITS) & NIBBLES)) % 255


_PRESENT: dict[int, tuple[int, ...]] = {}


def present(m: int) -> tuple[int, ...]:
    """The ranks ``m`` holds, highest first (memoised: multisets recur)."""
    found = _PRESENT.get(m)
    if found is None:
        found = tuple(r for r in range(len(UNIT) - 1, 0, -1) if (m >> (BITS * r)) & MASK)
        if len(_PRESENT) > 200_000:
            _PRESENT.clear()
        _PRESENT[m] = found
    return found


LOW = tuple((1 << (BITS * (r + 1))) - 1 for r in range(len(UNIT)))  # the ranks up to r
_EXACT: dict[tuple[int, int, int], list[tuple[int, int]]] = {}
_NOTHING: list[tuple[int, int]] = []
_ZERO: list[tuple[int, int]] = [(0, 0)]


def sub_multisets_of_total(m: int, r: int, t: int) -> list[tuple[int, int]]:
    """The sub-multisets of ``m``'s ranks up to ``r`` whose total is exactly ``t``:
    (multiset, cards), the highest rank's count first and descending, then the next rank's,
    and so on. Memoised on those ranks of ``m`` and ``t``: hands share their low ranks, so
    each list is built once a process."""
    if t == 0:
        return _ZERO
    if r > t:
        r = t
    while r > 0 and not (m >> (BITS * r)) & MASK:
        r -= 1
    if r <= 0:
        return _NOTHING
    memo_key = (m & LOW[r], r, t)
    found = _EXACT.get(memo_key)
    if found is None:
        have = (m >> (BITS * r)) & MASK
        unit = UNIT[r]
        found = []
        for c in range(min(have, t // r), -1, -1):
            base = c * unit
            for chosen, n in sub_multisets_of_total(m, r - 1, t - c * r):
                found.append((chosen + base, n + c))
        if len(_EXACT) > 200_000:
            _EXACT.clear()
        _EXACT[memo_key] = found
    return found


@dataclass(frozen=True)
class Model:
    """What the search needs of the rules."""

    size: int  # the highest rank + 1
    classic: bool = False
    wild: bool = False
    score_reserve: bool = False

    def win_value(self, pos: Pos) -> Value:
        hand, res, _w, _t, _u, _l, final, active = pos
        if self.classic:
            return (1.0, total(hand, self.size) / 50)
        if final:
            score = total(hand, self.size) + MEMBER_POINTS * active
            if self.score_reserve:
                score += total(res, self.size)
            return (1.0, score / 40)
        return (1.0, 0.0)

    def fold_value(self, pos: Pos) -> Value:
        wolf, final, active = pos[2], pos[6], pos[7]
        if self.classic:
            return (0.0, -total(wolf, self.size) / 50)
        if final:
            return (0.0, -3.0)
        return (0.0, -float(min(cards(wolf, self.size), active)))


class _Shared:
    """The caches of move generation (steps, sub-multisets, draws, the greedy rule's step) of
    one model, shared by every :class:`Search` of the process: they depend on nothing else, so
    sharing them changes no answer, and a new search (every hint makes several) starts warm."""

    _by_model: dict[Model, _Shared] = {}

    def __init__(self) -> None:
        self.steps: dict[tuple[int, int, int, bool, int, int], list[Step]] = {}
        self.sums: dict[tuple[int, int], list[tuple[int, int]]] = {}
        self.splits: dict[tuple[int, int], list[tuple[int, int]]] = {}
        self.draws: dict[tuple[int, int], list[tuple[int, int]]] = {}
        self.greedy: dict[tuple[int, int, int, bool, int, bool], Step | None] = {}

    @classmethod
    def of(cls, model: Model) -> _Shared:
        found = cls._by_model.get(model)
        if found is None:
            found = cls._by_model[model] = cls()
        return found


class Search:
    """Expectimax over rank-level positions, memoised, with a node budget.

    ``budget`` counts the work done: decision nodes expanded, plus the outcomes of every draw
    of several cards (and, in :class:`GameSearch`, the steps of dealing); :meth:`value` raises
    :class:`BudgetExceeded` past it (entries already memoised stay valid: raise ``budget`` and
    call again to go on). Counting work rather than time keeps every answer reproducible.
    """

    def __init__(self, model: Model, budget: int) -> None:
        self.model = model
        self.budget = budget
        self.nodes = 0
        self.memo: dict[Pos, Value] = {}
        self.bounds: dict[Pos, float] = {}  # upper bounds of keys of positions not in memo
        # pure functions of the model and their arguments: shared by every search of the
        # process (see _Shared); the memo, bounds and _too_big depend on the budget: not shared
        shared = _Shared.of(model)
        self._steps = shared.steps
        self._sums_of = shared.sums
        self._splits_of = shared.splits
        self._draws = shared.draws
        self._greedy = shared.greedy
        self._too_big: set[Pos] = set()

    # -- the ends of a round (GameSearch looks past them) ------------------------------------

    def win_leaf(self, pos: Pos) -> Value:
        """The value of a round just won at ``pos``."""
        return self.model.win_value(pos)

    def fold_leaf(self, pos: Pos) -> Value:
        """The value of folding (or being stuck) at ``pos``."""
        return self.model.fold_value(pos)

    # -- moves -----------------------------------------------------------------------------

    def steps(self, pos: Pos) -> list[Step]:
        """The distinct rank-level captures of ``pos``, the most promising first."""
        hand, res, wolf, top, _unseen, left, final, active = pos
        pile = left + (1 if top else 0)
        cache = (hand, res, wolf, final, min(pile, 10), active if final else 0)
        found = self._steps.get(cache)
        if found is None:
            found = self._make_steps(hand, res, wolf, final, pile, active)
            if len(self._steps) > 200_000:
                self._steps.clear()
            self._steps[cache] = found
        return found

    def _sums(self, pool: int, t: int) -> list[tuple[int, int]]:
        """The sums of ``pool`` to ``t``: sub-multisets of 2 cards or more, (multiset, cards),
        the fewest cards first (stable)."""
        found = self._sums_of.get((pool, t))
        if found is None:
            found = [item for item in sub_multisets_of_total(pool, t, t) if item[1] >= 2]
            found.sort(key=lambda item: item[1])
            if len(self._sums_of) > 200_000:
                self._sums_of.clear()
            self._sums_of[(pool, t)] = found
        return found

    def _splits(self, wolf: int, r: int) -> list[tuple[int, int]]:
        """The splits of ``wolf`` a card of rank ``r`` takes: sub-multisets of 2 cards or more
        totalling ``r``, (multiset, cards), the most cards first (stable)."""
        found = self._splits_of.get((wolf, r))
        if found is None:
            found = [item for item in sub_multisets_of_total(wolf, r, r) if item[1] >= 2]
            found.sort(key=lambda item: -item[1])
            if len(self._splits_of) > 200_000:
                self._splits_of.clear()
            self._splits_of[(wolf, r)] = found
        return found

    def _make_steps(
        self, hand: int, res: int, wolf: int, final: bool, pile: int, active: int
    ) -> list[Step]:
        size = self.model.size
        pool = hand + res
        draw = 0 if final or not pile else DRAW_HAND
        out: list[Step] = []
        wolf_ranks = present(wolf)
        for r in wolf_ranks:
            if (pool >> (BITS * r)) & MASK:
                out += self._sources("perfect", UNIT[r], hand, res, final, UNIT[r], draw)
        # every sum to a Wolf card, the highest first, then the fewest cards
        for value in wolf_ranks:
            for sub, _n in self._sums(pool, value):
                out += self._sources("sum", sub, hand, res, final, UNIT[value], draw)
        if final:
            if active >= 2:
                out += [("sacrifice", 0, 0, UNIT[r], 0, 1) for r in wolf_ranks]
            if self.model.wild:
                for q in range(1, size):
                    if count(res, q):
                        out += [("wild", 0, UNIT[q], UNIT[r], 0, 0) for r in wolf_ranks]
            return out
        if not pile:
            return out
        pool_ranks = present(pool)
        for r in pool_ranks:
            for sub, _n in self._splits(wolf, r):
                out += self._sources("split", UNIT[r], hand, res, final, sub, 1)
        overs: list[tuple[int, int, Step]] = []
        for p in reversed(pool_ranks):
            for w in wolf_ranks:
                if w < p and p - w <= pile:
                    for step in self._sources("over", UNIT[p], hand, res, final, UNIT[w], p - w):
                        overs.append((p - w, -w, step))
        overs.sort(key=lambda item: (item[0], item[1]))
        out += [step for _d, _w, step in overs]
        return out

    def _sources(
        self, kind: str, give: int, hand: int, res: int, final: bool, take: int, draws: int
    ) -> list[Step]:
        """``give`` split between hand and reserve: hand first outside a final round, every
        split in a final round."""
        size = self.model.size
        if not res:
            return [(kind, give, 0, take, draws, 0)]
        if not final:
            from_hand = 0
            for r in present(give):
                g, k = (give >> (BITS * r)) & MASK, (hand >> (BITS * r)) & MASK
                from_hand += (g if g < k else k) * UNIT[r]
            return [(kind, from_hand, give - from_hand, take, draws, 0)]
        choices = [0]
        for r in range(1, size):
            g = count(give, r)
            if g:
                low = max(0, g - count(res, r))
                high = min(g, count(hand, r))
                choices = [c + k * UNIT[r] for c in choices for k in range(low, high + 1)]
        return [(kind, c, give - c, take, draws, 0) for c in choices]

    # -- values ----------------------------------------------------------------------------

    def value(self, pos: Pos, alpha: float = NO_LIMIT) -> Result:
        """The value of a decision node (the best step, or folding), exact when it is above
        ``alpha``; otherwise maybe only an upper bound (``(bound, 0.0), False``) that is at
        most ``alpha``: enough to know that this node does not beat ``alpha``."""
        found = self.memo.get(pos)
        if found is not None:
            return found, True
        bound = self.bounds.get(pos)
        if bound is not None and bound <= alpha:
            return (bound, 0.0), False
        self.nodes += 1
        if self.nodes > self.budget:
            raise BudgetExceeded
        best = self.fold_leaf(pos)
        best_key = key(best)
        final = pos[6]
        every_exact = True
        for step in self.steps(pos):
            value, exact = self.after(pos, step, alpha if alpha > best_key else best_key)
            if not exact:
                every_exact = False
                continue
            k = value[0] + EPS * value[1]
            if k > best_key:
                best, best_key = value, k
                if not final and value[0] >= WIN_CERTAIN:
                    break
        if best_key > alpha or every_exact:
            self.memo[pos] = best
            return best, True
        self.bounds[pos] = alpha
        return (alpha, 0.0), False

    def after(self, pos: Pos, step: Step, alpha: float = NO_LIMIT) -> Result:
        """The value of playing ``step`` at ``pos``: its draws (chance), then what follows."""
        _kind, from_hand, from_res, take, draws, members = step
        hand, res, wolf, top, unseen, left, final, active = pos
        hand -= from_hand
        res -= from_res
        wolf -= take
        active -= members
        if draws == 0:
            return self.settle((hand, res, wolf, top, unseen, left, final, active), alpha)
        if draws == DRAW_HAND:
            return self.reveal((hand + UNIT[top], res, wolf, 0, unseen, left, final, active), alpha)
        return self.to_wolf(
            (hand, res, wolf + UNIT[top], 0, unseen, left, final, active), draws - 1, alpha
        )

    def to_wolf(self, pos: Pos, n: int, alpha: float = NO_LIMIT) -> Result:
        """The Wolf draws ``n`` unseen cards (each multiset with its hypergeometric weight),
        then the next card of the pile shows."""
        if n == 0:
            return self.reveal(pos, alpha)
        hand, res, wolf, _top, unseen, left, final, active = pos
        outcomes = self.draws(unseen, n)
        self.nodes += len(outcomes)
        if self.nodes > self.budget:
            raise BudgetExceeded
        children = [
            ((hand, res, wolf + drawn, 0, unseen - drawn, left - n, final, active), ways)
            for drawn, ways in outcomes
        ]
        return self.chance(children, comb(left, n), alpha, self.reveal)

    def draws(self, unseen: int, n: int) -> list[tuple[int, int]]:
        """Every multiset of ``n`` cards out of ``unseen``, with its number of ways."""
        found = self._draws.get((unseen, n))
        if found is None:
            found = []
            size = self.model.size

            def walk(r: int, chosen: int, need: int, ways: int) -> None:
                if need == 0:
                    found.append((chosen, ways))
                    return
                if r == 0:
                    return
                have = count(unseen, r)
                for c in range(min(have, need), -1, -1):
                    walk(r - 1, chosen + c * UNIT[r], need - c, ways * comb(have, c))

            walk(size - 1, 0, n, 1)
            if len(self._draws) > 50_000:
                self._draws.clear()
            self._draws[(unseen, n)] = found
        return found

    def reveal(self, pos: Pos, alpha: float = NO_LIMIT) -> Result:
        """The next card of the pile turns face up; an empty pile makes the round final."""
        hand, res, wolf, _top, unseen, left, final, active = pos
        if not left:
            return self.settle((hand, res, wolf, 0, 0, 0, not self.model.classic, active), alpha)
        children = []
        for r in range(1, self.model.size):
            c = (unseen >> (BITS * r)) & MASK
            if c:
                children.append(
                    ((hand, res, wolf, r, unseen - UNIT[r], left - 1, final, active), c)
                )
        return self.chance(children, left, alpha, self.settle)

    def chance(
        self,
        children: list[tuple[Pos, int]],
        every: int,
        alpha: float,
        then: Callable[[Pos, float], Result],
    ) -> Result:
        """The weighted mean of ``then`` over ``children`` (weights out of ``every``). Under a
        limit ``alpha`` it stops once even the best outcome of the rest could not lift the
        mean above it (Ballard's Star1), returning that upper bound, inexact."""
        p = a = 0.0
        sure = 0.0  # the keys so far, weighted
        rest = every
        limited = alpha > NO_LIMIT
        goal = alpha * every
        for child, weight in children:
            rest -= weight
            if limited:
                if sure + (rest + weight) * KEY_MAX <= goal:
                    return ((sure + (rest + weight) * KEY_MAX) / every, 0.0), False
                value, exact = then(child, (goal - sure - rest * KEY_MAX) / weight)
                if not exact:
                    return ((sure + weight * value[0] + rest * KEY_MAX) / every, 0.0), False
            else:
                value, exact = then(child, NO_LIMIT)
            p += weight * value[0]
            a += weight * value[1]
            sure += weight * (value[0] + EPS * value[1])
        return (p / every, a / every), True

    def settle(self, pos: Pos, alpha: float = NO_LIMIT) -> Result:
        """A won round, or the next decision node."""
        if not pos[2]:
            return self.win_leaf(pos), True
        if pos[6] and pos[3]:  # a final round draws nothing: forget the pile
            pos = (pos[0], pos[1], pos[2], 0, 0, 0, True, pos[7])
        return self.value(pos, alpha)

    # -- exact with a budget, or estimated --------------------------------------------------

    def exact(self, pos: Pos, step: Step, budget: int) -> Value | None:
        """The exact value of ``step``, or None if it needs more than ``budget`` nodes."""
        self.budget = self.nodes + budget
        try:
            return self.after(pos, step)[0]
        except BudgetExceeded:
            return None

    def tail(self, pos: Pos) -> Value | None:
        """The exact value of a decision node already known, or of a final round if it fits
        the small tail budget (a final round draws nothing: it is a puzzle)."""
        found = self.memo.get(pos)
        if found is not None:
            return found
        if not pos[6] or pos in self._too_big:
            return None
        self.budget = self.nodes + TAIL_BUDGET
        try:
            return self.value(pos)[0]
        except BudgetExceeded:
            self._too_big.add(pos)
            return None

    def estimate(
        self, pos: Pos, steps: Sequence[Step], orders: Sequence[Sequence[int]], playouts: int
    ) -> dict[Step, tuple[Value, int]]:
        """Estimates of several steps: {step: (mean value, samples)}.

        Successive halving: every step is played out over the first orders, then the better
        half goes on with more orders, and so on, until ``playouts`` are spent or the orders
        run out. Every step sees the same orders (common random numbers)."""
        sums = {step: [0.0, 0.0, 0] for step in steps}
        alive = list(steps)
        start, batch, spent = 0, ESTIMATE_BATCH, 0
        while alive and start < len(orders):
            chunk = orders[start : start + batch]
            for step in alive:
                acc = sums[step]
                for order in chunk:
                    v = self.playout(pos, step, order)
                    acc[0] += v[0]
                    acc[1] += v[1]
                acc[2] += len(chunk)
            spent += len(alive) * len(chunk)
            start += len(chunk)
            if spent >= playouts:
                break
            if len(alive) > 2:
                alive.sort(key=lambda st: -(sums[st][0] + EPS * sums[st][1]))
                alive = alive[: (len(alive) + 1) // 2]
            batch *= 2
        return {
            step: ((acc[0] / acc[2], acc[1] / acc[2]), int(acc[2])) for step, acc in sums.items()
        }

    def playout(self, pos: Pos, step: Step, order: Sequence[int]) -> Value:
        """Play ``step``, then on until the round ends, the pile coming in ``order``."""
        at = 0
        while True:
            pos, at = self.apply_sampled(pos, step, order, at)
            if not pos[2]:
                return self.model.win_value(pos)
            known = self.tail(pos)
            if known is not None:
                return known
            greedy = self.greedy(pos)
            if greedy is None:
                return self.model.fold_value(pos)
            step = greedy

    def greedy(self, pos: Pos) -> Step | None:
        """The greedy rule's step, None to fold: a perfect (highest rank), a sum (highest Wolf
        card, fewest cards), in a final round a sacrifice or wild card on the highest Wolf card,
        a split (most Wolf cards), an over giving the Wolf the fewest cards."""
        hand, res, wolf, top, _unseen, left, final, active = pos
        pile = left + (1 if top else 0)
        cache = (hand, res, wolf, final, min(pile, 10), active >= 2)
        if cache in self._greedy:
            return self._greedy[cache]
        found = self._make_greedy(hand, res, wolf, final, pile, active)
        if len(self._greedy) > 200_000:
            self._greedy.clear()
        self._greedy[cache] = found
        return found

    def _make_greedy(
        self, hand: int, res: int, wolf: int, final: bool, pile: int, active: int
    ) -> Step | None:
        pool = hand + res
        draw = 0 if final or not pile else DRAW_HAND
        wolf_ranks = present(wolf)
        for r in wolf_ranks:
            if (pool >> (BITS * r)) & MASK:
                return self._sources("perfect", UNIT[r], hand, res, final, UNIT[r], draw)[0]
        # the lowest (-total, cards, multiset): _sums is sorted by the first two
        for t in wolf_ranks:  # the highest Wolf card a sum takes, then the fewest cards
            sums = self._sums(pool, t)
            if sums:
                fewest = sums[0][1]
                sub = min(sub for sub, n in sums if n == fewest)
                return self._sources("sum", sub, hand, res, final, UNIT[t], draw)[0]
        high = wolf_ranks[0]
        if final:
            if self.model.wild and res:
                low = present(res)[-1]
                return ("wild", 0, UNIT[low], UNIT[high], 0, 0)
            if active >= 2:
                return ("sacrifice", 0, 0, UNIT[high], 0, 1)
            return None
        if not pile:
            return None
        splits = [(-n, -r, sub) for r in present(pool) for sub, n in self._splits(wolf, r)]
        if splits:
            _n, r, sub = min(splits)
            return self._sources("split", UNIT[-r], hand, res, final, sub, 1)[0]
        overs = [
            (p - w, -w, p) for p in present(pool) for w in wolf_ranks if w < p and p - w <= pile
        ]
        if overs:
            d, w, p = min(overs)
            return self._sources("over", UNIT[p], hand, res, final, UNIT[-w], d)[0]
        return None

    def apply_sampled(self, pos: Pos, step: Step, order: Sequence[int], at: int) -> tuple[Pos, int]:
        _kind, from_hand, from_res, take, draws, members = step
        hand, res, wolf, top, unseen, left, final, active = pos
        hand -= from_hand
        res -= from_res
        wolf -= take
        active -= members
        if draws == DRAW_HAND:
            hand += UNIT[top]
        elif draws > 0:
            wolf += UNIT[top]
            for _ in range(draws - 1):
                r = order[at]
                at += 1
                wolf += UNIT[r]
                unseen -= UNIT[r]
                left -= 1
        if draws != 0:
            if left:
                top = order[at]
                at += 1
                unseen -= UNIT[top]
                left -= 1
            else:
                top = 0
                final = final or not self.model.classic
        if final:
            top = unseen = left = 0
        return (hand, res, wolf, top, unseen, left, final, active), at


def sample_orders(unseen: int, size: int, samples: int, rng: Rng) -> list[list[int]]:
    """``samples`` uniformly random orders of the unseen cards."""
    ranks = unpack(unseen, size)
    return [rng.shuffled(ranks) for _ in range(samples)]


class GameTooDeep(Exception):
    """The game goes on past the next round: GameSearch does not look that far."""


@dataclass(frozen=True)
class Deal:
    """How the Vanguard deals a round (for GameSearch)."""

    after_deal: bool = False  # final_trigger AFTER_DEAL
    wolf_first: bool = True  # short_deal_order WOLF_FIRST


class GameSearch(Search):
    """The same search with the probability of winning the *game* as its value, for the
    Vanguard when the next round must be the final one: a won round goes on to the choice
    (bank a card, revive a member, or neither: the best of them), a lost one to the loss of
    members, and both to every deal of the final round (a puzzle, solved exactly). A round that
    ends with too many cards left for that raises :class:`GameTooDeep`."""

    def __init__(self, model: Model, deal: Deal, budget: int) -> None:
        super().__init__(model, budget)
        self.deal = deal
        self._rounds: dict[tuple[int, int, int, int, int], Value] = {}
        self._deals: dict[tuple[int, int, int, int, int, int], Value] = {}

    def win_leaf(self, pos: Pos) -> Value:
        hand, res, _w, top, unseen, left, final, active = pos
        if final:
            return self.model.win_value(pos)
        return max(
            (self.next_round(top, unseen, left, r, a) for r, a in self.choices(hand, res, active)),
            key=key,
        )

    def choices(self, hand: int, res: int, active: int) -> list[tuple[int, int]]:
        """(reserve, members up) after each choice: skip, revive, bank a card of each rank."""
        out = [(res, active)]
        if active < 3:
            out.append((res, active + 1))
        out += [(res + UNIT[r], active) for r in range(1, self.model.size) if count(hand, r)]
        return out

    def fold_leaf(self, pos: Pos) -> Value:
        _h, res, wolf, top, unseen, left, final, active = pos
        if final:
            return self.model.fold_value(pos)
        up = active - min(cards(wolf, self.model.size), active)
        if not up:
            return (0.0, -3.0)
        return self.next_round(top, unseen, left, res, up)

    def next_round(self, top: int, unseen: int, left: int, res: int, active: int) -> Value:
        """The value of the next round, which must be final, over every deal."""
        key_ = (top, unseen, left, res, active)
        found = self._rounds.get(key_)
        if found is not None:
            return found
        pile = left + (1 if top else 0)
        limit = 2 * FINAL_PILE if self.deal.after_deal else FINAL_PILE
        if pile > limit:
            raise GameTooDeep
        dealt = min(pile, 8)
        start = (0, 0) if not top else ((0, UNIT[top]) if self.deal.wolf_first else (UNIT[top], 0))
        value = self._deal(start[0], start[1], unseen, left, res, active, dealt - 1)
        self._rounds[key_] = value
        return value

    def _deal(
        self, hand: int, wolf: int, unseen: int, left: int, res: int, active: int, more: int
    ) -> Value:
        if more == 0:
            return self.settle((hand, res, wolf, 0, 0, 0, True, active))[0]
        memo_key = (hand, wolf, unseen, res, active, more)
        found = self._deals.get(memo_key)
        if found is not None:
            return found
        self.nodes += 1
        if self.nodes > self.budget:
            raise BudgetExceeded
        to_wolf = (cards(hand, self.model.size) + cards(wolf, self.model.size)) % 2 == (
            0 if self.deal.wolf_first else 1
        )
        p = a = 0.0
        for r in range(1, self.model.size):
            c = count(unseen, r)
            if c:
                if to_wolf:
                    v = self._deal(
                        hand, wolf + UNIT[r], unseen - UNIT[r], left - 1, res, active, more - 1
                    )
                else:
                    v = self._deal(
                        hand + UNIT[r], wolf, unseen - UNIT[r], left - 1, res, active, more - 1
                    )
                p += c * v[0]
                a += c * v[1]
        value = (p / left, a / left)
        self._deals[memo_key] = value
        return value
