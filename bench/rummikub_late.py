"""Late, crowded Rummikub positions: nearly the whole set on the table, a big rack.

    python3 bench/rummikub_late.py --count 5     # prints five positions as JSON

Each position is drawn from a seeded stream (``tapete.rng``) and owes nothing to the solver or
the bots: a table of 60-80 tiles laid as random valid melds from the 106 tiles of the set
(runs of 3-7 tiles, now and then longer, and groups of 3 or 4), 0-2 jokers in its melds, and a
rack of 10-40 tiles drawn from what is left, with the remaining jokers (0-2 on each side, at
most two in all). What is left after that is the pool. These are the solver's hardest cases:
when nearly every tile is out, almost any rack tile fits somewhere, so the whole rack is rarely
playable but the best play is deep in a huge space of rearrangements.

A position is ``{"table": [meld JSON...], "rack": [codes], "jokers": count, "kind": "late"}``,
the shape ``bench_rummikub.positions`` gives.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "engine"))

from tapete.rng import Rng  # noqa: E402
from tapete.rummikub.melds import Meld, MeldError, read_meld  # noqa: E402
from tapete.rummikub.tiles import CODES, JOKER, code_of  # noqa: E402

TABLE_TILES = (60, 80)
RACK_TILES = (10, 40)


def random_meld(rng: Rng, pool: Counter[str], room: int) -> list[str] | None:
    """A random run or group of at most ``room`` tiles that ``pool`` has, or None."""
    if rng.below(100) < 55:
        length = 3 + rng.below(5) if rng.below(5) else 3 + rng.below(11)
        length = min(length, room)
        if length < 3:
            return None
        colour = rng.below(4)
        start = 1 + rng.below(14 - length)
        tiles = [code_of(colour, start + i) for i in range(length)]
    else:
        size = min(3 + rng.below(2), room)
        if size < 3:
            return None
        number = 1 + rng.below(13)
        tiles = [code_of(c, number) for c in rng.shuffled(range(4))[:size]]
        tiles.sort()
    return None if Counter(tiles) - pool else tiles


def add_joker(rng: Rng, melds: list[list[str]], pool: Counter[str]) -> bool:
    """Put a joker into a random meld, in place of one of its tiles (back to the pool) or at
    one more place; False when the meld it tried would not stay valid."""
    meld = melds[rng.below(len(melds))]
    kind = read_meld(meld).kind
    freed: str | None = None
    if rng.below(2):
        spots = [i for i, t in enumerate(meld) if t != JOKER]
        spot = spots[rng.below(len(spots))]
        freed = meld[spot]
        changed = meld[:spot] + [JOKER] + meld[spot + 1 :]
    elif kind == "run":
        changed = [JOKER, *meld] if rng.below(2) else [*meld, JOKER]
    else:
        changed = [*meld, JOKER]
    try:
        if read_meld(changed, kind).kind != kind:
            return False
    except MeldError:
        return False
    if freed is not None:
        pool[freed] += 1
    meld[:] = changed
    return True


def late_position(rng: Rng) -> dict[str, Any]:
    """One late, crowded position (see the module docstring)."""
    table_jokers = rng.below(3)
    rack_jokers = rng.below(3 - table_jokers)
    while True:
        target = TABLE_TILES[0] + rng.below(TABLE_TILES[1] - TABLE_TILES[0] + 1)
        pool = Counter(CODES * 2)
        melds: list[list[str]] = []
        laid = misses = 0
        while laid < target - table_jokers and misses < 400:
            meld = random_meld(rng, pool, TABLE_TILES[1] - table_jokers - laid)
            if meld is None:
                misses += 1
                continue
            pool -= Counter(meld)
            melds.append(meld)
            laid += len(meld)
        if laid < target - table_jokers:
            continue
        jokers = 0
        for _ in range(200):
            if jokers == table_jokers:
                break
            jokers += add_joker(rng, melds, pool)
        total = sum(map(len, melds))
        if jokers == table_jokers and TABLE_TILES[0] <= total <= TABLE_TILES[1]:
            break
    left = rng.shuffled(sorted(pool.elements()))
    most = min(RACK_TILES[1], len(left) + rack_jokers)
    size = RACK_TILES[0] + rng.below(most - RACK_TILES[0] + 1)
    rack = left[: size - rack_jokers] + [JOKER] * rack_jokers
    table = [Meld(read_meld(m).kind, tuple(m)).to_json() for m in melds]
    return {
        "table": table,
        "rack": rng.shuffled(rack),
        "jokers": table_jokers + rack_jokers,
        "kind": "late",
    }


def late_positions(count: int, label: str = "LATE") -> list[dict[str, Any]]:
    """``count`` late positions, the n-th from the stream ``(label, n)``."""
    return [late_position(Rng.derive("rummikub-late", label, n)) for n in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=5)
    parser.add_argument("--label", default="LATE")
    args = parser.parse_args()
    print(json.dumps(late_positions(args.count, args.label), indent=1))


if __name__ == "__main__":
    main()
