"""An independent brute-force oracle for Willie's meld phase, for small positions only.

It shares no code with the solver: it has its own meld rules (default options, or a given
group size and Willie switch), enumerates every set of hand cards to play and every way to
split the table into melds with every declaration, and keeps the best (points, changes).
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

SUITS = "ROYGB"
FIGS = "JQK"
POINTS = {"J": 2, "Q": 3, "K": 5}


def ident(code: str) -> tuple[int, str] | None:
    """(rank, suit) a token counts as; None for a plain figure."""
    base = code.split(":")[-1]
    if base in FIGS:
        return None
    return int(base[1:]), base[0]


def valid(meld: tuple[str, ...], gmax: int = 4, willie: bool = True) -> bool:
    if sorted(meld) == ["J", "K", "Q"]:
        return willie
    if any(t in FIGS for t in meld) or len(meld) < 3:
        return False
    if sum(":" in t for t in meld) > 1:
        return False
    ids = [ident(t) for t in meld]
    if len(set(ids)) != len(ids):
        return False
    ranks = sorted(i[0] for i in ids if i)
    suits = {i[1] for i in ids if i}
    if len(set(ranks)) == 1:
        return len(meld) <= gmax
    if len(suits) == 1:
        return ranks[-1] - ranks[0] == len(ranks) - 1
    return False


def blocks(
    naturals: frozenset[str], figs: tuple[tuple[str, int], ...], gmax: int, willie: bool
) -> list[tuple[tuple[str, ...], frozenset[str], tuple[tuple[str, int], ...]]]:
    """Every valid meld that holds the first remaining card, with what is left after it."""
    have = Counter(dict(figs))
    out = []
    if naturals:
        first = min(naturals, key=lambda c: (c[0], int(c[1:])))
        same_rank = sorted(c for c in naturals if c != first and c[1:] == first[1:])
        same_suit = sorted(c for c in naturals if c != first and c[0] == first[0])
        for others in (same_rank, same_suit):
            for size in range(1, len(others) + 1):
                for chosen in combinations(others, size):
                    cards = (first, *chosen)
                    rest = naturals - set(cards)
                    block = tuple(sorted(cards))
                    if valid(block, gmax, willie):
                        out.append((block, rest, figs))
                    for fig in sorted(have):
                        if not have[fig]:
                            continue
                        left = tuple(sorted((have - Counter(fig)).items()))
                        for decl in declarations(first, cards):
                            block = tuple(sorted((*cards, f"{fig}:{decl}")))
                            if valid(block, gmax, willie):
                                out.append((block, rest, left))
        return out
    if willie and all(have[f] > 0 for f in FIGS):
        out.append((("J", "K", "Q"), naturals, tuple(sorted((have - Counter("JQK")).items()))))
    return out


def declarations(first: str, cards: tuple[str, ...]) -> list[str]:
    """Every card a wild in a meld with ``first`` could stand for (its rank or its suit)."""
    every = [f"{s}{r}" for s in SUITS for r in range(2, 11)]
    return [c for c in every if c not in cards and (c[0] == first[0] or c[1:] == first[1:])]


def hand_points(cards: list[str]) -> int:
    return sum(POINTS.get(c, 1) for c in cards)


def best_cover(
    naturals: frozenset[str],
    figs: tuple[tuple[str, int], ...],
    need: tuple[tuple[str, int], ...],
    old: tuple[tuple[str, ...], ...],
    gmax: int,
    willie: bool,
    memo: dict[object, int | None],
) -> int | None:
    """The most old melds kept over every split of the cards into melds that places every
    ``need``ed wild token, or None when there is none."""
    key = (naturals, figs, need, old)
    if key in memo:
        return memo[key]
    best: int | None = None
    if not naturals and not any(n for _, n in figs):
        best = None if any(n for _, n in need) else 0
    else:
        for block, rest_n, rest_f in blocks(naturals, figs, gmax, willie):
            left = list(old)
            gain = 0
            if block in left:
                left.remove(block)
                gain = 1
            still = Counter(dict(need)) - Counter(t for t in block if ":" in t)
            sub = best_cover(
                rest_n, rest_f, tuple(sorted(still.items())), tuple(left), gmax, willie, memo
            )
            if sub is not None and (best is None or sub + gain > best):
                best = sub + gain
    memo[key] = best
    return best


def oracle(
    table: list[tuple[str, ...]], hand: list[str], gmax: int = 4, willie: bool = True
) -> tuple[int, int] | None:
    """(most points shed, fewest changes) over every legal phase, or None."""
    old = tuple(sorted(tuple(sorted(m)) for m in table))
    table_n = [t for m in table for t in m if ":" not in t and t not in FIGS]
    table_f = Counter(t.split(":")[0] for m in table for t in m if ":" in t or t in FIGS)
    old_wilds = Counter(t for m in table for t in m if ":" in t)
    subsets = {tuple(sorted(c)) for k in range(1, len(hand) + 1) for c in combinations(hand, k)}
    ordered = sorted(subsets, key=lambda c: (-hand_points(list(c)), c))
    best: tuple[int, int] | None = None
    memo: dict[object, int | None] = {}
    for played in ordered:
        points = hand_points(list(played))
        if best is not None and points < best[0]:
            break
        naturals = frozenset(table_n + [c for c in played if c not in FIGS])
        figs = table_f + Counter(c for c in played if c in FIGS)
        need = Counter({w: n for w, n in old_wilds.items() if w.split(":")[1] not in naturals})
        kept = best_cover(
            naturals,
            tuple(sorted(figs.items())),
            tuple(sorted(need.items())),
            old,
            gmax,
            willie,
            memo,
        )
        if kept is not None:
            found = (points, len(table) - kept)
            if best is None or found[0] > best[0] or found[1] < best[1]:
                best = found
    return best


def random_position(rng: random.Random) -> tuple[list[tuple[str, ...]], list[str]]:
    """A small table (up to three melds, maybe with wilds) and a hand of 2 to 5 cards."""
    numbers = [f"{s}{r}" for s in SUITS for r in range(2, 11)]
    free = set(numbers)
    figs = Counter({f: 3 for f in FIGS})
    table: list[tuple[str, ...]] = []
    centre_rank = rng.randint(3, 8)
    centre_suit = rng.choice(SUITS)
    for _ in range(rng.randint(0, 3)):
        kind = rng.random()
        if kind < 0.15 and all(figs[f] for f in FIGS):
            table.append(("J", "Q", "K"))
            figs -= Counter("JQK")
            continue
        if kind < 0.55:
            rank = centre_rank + rng.randint(-1, 1)
            suits = rng.sample(SUITS, rng.randint(3, 4))
            cards = [f"{s}{rank}" for s in suits]
        else:
            suit = rng.choice([centre_suit, rng.choice(SUITS)])
            length = rng.randint(3, 5)
            start = max(2, min(11 - length, centre_rank - rng.randint(0, 2)))
            cards = [f"{suit}{r}" for r in range(start, start + length)]
        if rng.random() < 0.45:
            i = rng.randrange(len(cards))
            fig = rng.choice([f for f in FIGS if figs[f]])
            figs[fig] -= 1
            meld = tuple(sorted([*cards[:i], *cards[i + 1 :], f"{fig}:{cards[i]}"]))
            naturals = [c for c in cards if c != cards[i]]
        else:
            meld = tuple(sorted(cards))
            naturals = cards
        if all(c in free for c in naturals):
            free -= set(naturals)
            table.append(meld)
        else:
            fig_back = [t.split(":")[0] for t in meld if ":" in t]
            figs += Counter(fig_back)
    near = sorted(
        c
        for c in free
        if abs(int(c[1:]) - centre_rank) <= 2 and (c[0] == centre_suit or rng.random() < 0.5)
    )
    pool = near + [f for f in FIGS for _ in range(figs[f])]
    hand = rng.sample(pool, min(len(pool), rng.randint(2, 5)))
    return table, hand
