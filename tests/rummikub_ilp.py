"""An integer-programming oracle for the Rummikub solver, for positions too big to search.

It shares no code with the solver's program: it lists the valid melds the tiles allow as the
rules read them (``melds.read_meld``), each with one reading of its jokers (a joker at the end of
a run, or in a group of three, may stand for different tiles: one variable per reading), and
asks SciPy's ``milp`` (HiGHS) for the best counts of melds:

- every table tile stays on the table, every rack tile may join: for each tile, the melds hold
  the table's copies plus the ones played (at most the rack's);
- ``RACK_ONLY``: for each old meld with jokers, one reading of them is chosen (binary
  variables); for every tile, the old jokers that stood for it, less the new jokers that stand
  for it, are at most the copies of it played from the rack (as ``rules.unreplaced_jokers``
  says: a joker changes what it stands for only when that tile comes from the rack);
- the objective: the value of the tiles played (a joker ``joker_rack_penalty``) or their count.

General play only (not the initial meld, which the exhaustive oracle covers).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp

from tapete.rummikub.melds import Meld, MeldError, read_meld
from tapete.rummikub.tiles import JOKER, SLOT_OF, code_of

JOKER_ROW = 52


def meld_shapes(avail: Counter[str], longest: int = 13) -> Iterator[tuple[tuple[str, ...], str]]:
    """Every (tiles, kind) that may be a meld of ``avail``'s tiles: runs of 3 to ``longest``
    with jokers at every possible place, groups of 3 or 4 with jokers (not yet checked against
    the counts of ``avail`` nor by the rules)."""
    jokers = min(avail[JOKER], 2)
    for colour in range(4):
        for start in range(1, 12):
            for length in range(3, min(longest, 14 - start) + 1):
                slots = [code_of(colour, start + i) for i in range(length)]
                if sum(1 for s in slots if not avail[s]) > jokers:
                    continue
                for j in range(jokers + 1):
                    for holes in combinations(range(length), j):
                        yield tuple(JOKER if i in holes else s for i, s in enumerate(slots)), "run"
    for number in range(1, 14):
        for size in (3, 4):
            for j in range(jokers + 1):
                for colours in combinations(range(4), size - j):
                    yield tuple(code_of(c, number) for c in colours) + (JOKER,) * j, "group"


def candidate_melds(avail: Counter[str]) -> list[tuple[tuple[str, ...], tuple[int, ...]]]:
    """Every valid meld ``avail`` has the tiles for, once per reading of its jokers: (tiles,
    the slots its jokers stand for). Runs of 3 to 5 only: a longer run is runs of 3 to 5 laid
    end to end, with the same tiles and the same jokers standing for the same tiles."""
    out: list[tuple[tuple[str, ...], tuple[int, ...]]] = []
    for tiles, kind in meld_shapes(avail, longest=5):
        if Counter(tiles) - avail:
            continue
        try:
            reading = read_meld(tiles, kind)
        except MeldError:
            continue
        if reading.kind == kind:
            out += [(tiles, tuple(option)) for option in reading.joker_options() or [()]]
    return out


def row_of(tile: str) -> int:
    return JOKER_ROW if tile == JOKER else SLOT_OF[tile]


def ilp_best(
    table: Sequence[Meld],
    rack: Sequence[str],
    objective: str,
    *,
    rack_only: bool = True,
    joker_penalty: int = 30,
) -> int:
    """The best objective of a play of ``rack`` onto ``table`` (0 when nothing can be played)."""
    on_table = Counter(t for m in table for t in m.tiles)
    in_rack = Counter(rack)
    melds = candidate_melds(on_table + in_rack)
    old_options = [read_meld(m.tiles, m.kind).joker_options() for m in table if JOKER in m.tiles]
    old_options = old_options if rack_only else []
    n_melds, n_played = len(melds), 53
    n_old = sum(len(options) for options in old_options)
    size = n_melds + n_played + n_old
    played = n_melds  # the first column of the tiles played from the rack, by row
    rows: list[np.ndarray] = []
    lows: list[float] = []
    highs: list[float] = []

    def constraint(row: np.ndarray, low: float, high: float) -> None:
        rows.append(row)
        lows.append(low)
        highs.append(high)

    holds = np.zeros((53, size))  # tiles: the melds hold the table's copies and those played
    for column, (tiles, _) in enumerate(melds):
        for tile in tiles:
            holds[row_of(tile), column] += 1
    for tile_row in range(53):
        holds[tile_row, played + tile_row] = -1
        table_copies = sum(k for t, k in on_table.items() if row_of(t) == tile_row)
        constraint(holds[tile_row], table_copies, table_copies)
    column = played + n_played
    old_columns: list[list[int]] = []
    for options in old_options:
        old_columns.append(list(range(column, column + len(options))))
        row = np.zeros(size)
        row[column : column + len(options)] = 1
        constraint(row, 1, 1)
        column += len(options)
    if old_options:
        for slot in range(52):
            row = np.zeros(size)
            for options, columns in zip(old_options, old_columns, strict=True):
                for option, col in zip(options, columns, strict=True):
                    row[col] += option.count(slot)
            if not row.any():
                continue
            for col, (_, stands_for) in enumerate(melds):
                row[col] -= stands_for.count(slot)
            row[played + slot] = -1
            constraint(row, -np.inf, 0)
    upper = np.concatenate(
        [
            np.full(n_melds, 2.0),
            [float(sum(k for t, k in in_rack.items() if row_of(t) == r)) for r in range(53)],
            np.ones(n_old),
        ]
    )
    weights = np.zeros(size)
    for tile_row in range(53):
        worth = joker_penalty if tile_row == JOKER_ROW else tile_row % 13 + 1
        weights[played + tile_row] = 1 if objective == "tiles" else worth
    result = milp(
        -weights,
        constraints=LinearConstraint(np.array(rows), lows, highs),
        integrality=np.ones(size),
        bounds=Bounds(np.zeros(size), upper),
    )
    assert result.status == 0, result.message
    return round(-result.fun)
