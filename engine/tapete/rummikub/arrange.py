"""Turning the program's path into melds, and the quick play that rearranges nothing.

Glossary:

piece     one tile of a meld being built: colour, number, joker or not, and where it came from
          (the old meld it sat in, the rack, or a joker the program or the builder placed)
built     a finished meld: its kind and pieces
layout    the new table in the old table's order: kept melds where they were, a changed meld in
          the place of the old meld most of its tiles come from, new melds at the end
quick play
          new melds from the rack alone and tiles added at the ends of runs or to groups of
          three; the table stays as it was. It is a valid play, and its value is the solver's
          first floor
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .melds import Meld, Reading
from .program import (
    ONE,
    PENDING,
    THREE,
    TWO,
    OverBudget,
    Path,
    Pin,
    Problem,
    Program,
    groups_fit,
)
from .tiles import JOKER, SLOT_OF, code_of, colour_of, number_of, sorted_tiles

# -- building melds from the path -------------------------------------------------------------

RACK = -1  # the source of a tile from the rack
LOOSE = -2  # the source of a joker the program placed (hole, closure, group, exact tile)
FREE = -3  # the source of a free joker placed afterwards


@dataclass
class Piece:
    """One tile of a meld under construction: its colour and number, and where it came from."""

    colour: int
    number: int
    joker: bool
    source: int  # the old meld it sat in, or RACK, LOOSE, FREE

    def code(self) -> str:
        return JOKER if self.joker else code_of(self.colour, self.number)


@dataclass
class Built:
    """A finished meld: its kind and pieces (runs in ascending order)."""

    kind: str
    pieces: list[Piece]

    def tiles(self) -> tuple[str, ...]:
        if self.kind == "group":
            ordered = sorted(self.pieces, key=lambda p: (p.joker, p.colour))
            return tuple(p.code() for p in ordered)
        return tuple(p.code() for p in self.pieces)

    def sources(self) -> Counter[int]:
        return Counter(p.source for p in self.pieces)


class Builder:
    """Turns the program's path into melds, following the old table where the counts allow."""

    def __init__(
        self,
        problem: Problem,
        path: Path,
        exact: bool,
        old: Sequence[tuple[Meld, Reading]],
    ) -> None:
        self.p = problem
        self.path = path
        self.exact = exact
        self.old = old
        self.group_melds = {i for i, (_, r) in enumerate(old) if r.kind == "group"}
        self.open: list[list[list[Piece]]] = [[] for _ in range(4)]
        self.done: list[Built] = []

    def build(self) -> list[Built]:
        for number in range(1, 15):
            group_pieces: list[Piece] = []
            for colour in range(4):
                group_pieces += self.slot(colour, number)
            if number <= 13:
                jokers = self.path.group_jokers.get(number, 0)
                if group_pieces or jokers:
                    self.make_groups(number, group_pieces, jokers)
        return self.done

    # runs

    def kind(self, run: list[Piece]) -> int:
        if not self.exact and run[-1].joker and run[-1].source == LOOSE:
            return PENDING
        return min(len(run), 3) - 1

    def slot(self, colour: int, number: int) -> list[Piece]:
        choice, record = self.path.slots[(colour, number)]
        pieces = self.pieces_at(colour, number, record, choice.used)
        by_kind: list[list[list[Piece]]] = [[], [], [], []]
        for run in self.open[colour]:
            by_kind[self.kind(run)].append(run)
        sources = {p.source for p in pieces if p.source >= 0}
        for runs in by_kind:  # runs whose old link goes on here take numbered tiles first
            runs.sort(key=lambda r: r[-1].source not in sources)
        take = _Taker(pieces, self.group_melds)
        nat = list(choice.nat)
        hole = list(choice.hole)
        if self.exact:
            nat = [len(by_kind[ONE]), len(by_kind[TWO]), choice.nat[2], 0]
        go_on: list[list[Piece]] = []
        jokers: list[list[Piece]] = []
        for kind in (ONE, TWO, PENDING, THREE):
            runs = by_kind[kind]
            go_on += runs[: nat[kind]]
            jokers += runs[nat[kind] : nat[kind] + hole[kind]]
            for run in runs[nat[kind] + hole[kind] :]:
                self.end(colour, run)
        starts = choice.start
        # tiles for linked runs, then groups, then the other runs and new runs
        linked = [run for run in go_on if run[-1].source in sources]
        others = [run for run in go_on if run[-1].source not in sources]
        for run in linked:
            run.append(take.for_run(run[-1].source))
        group = take.for_groups(choice.group)
        for run in others:
            run.append(take.any() if take.left() else Piece(colour, number, True, LOOSE))
        for run in jokers:
            run.append(Piece(colour, number, True, LOOSE))
        new_runs = []
        for _ in range(starts):
            new_runs.append([take.any() if take.left() else Piece(colour, number, True, LOOSE)])
        if take.left():
            raise AssertionError("the solver's path does not use every tile it counted")
        self.open[colour] = go_on + jokers + new_runs
        return group

    def pieces_at(
        self, colour: int, number: int, record: tuple[tuple[int, str], ...], used: int
    ) -> list[Piece]:
        if number > 13:
            return []
        slot = colour * 13 + number - 1
        pieces = [Piece(colour, number, False, src) for src in self.p.sources.get(slot, [])]
        for index, what in record:
            if what == "keep":
                pieces.append(Piece(colour, number, True, self.p.pins[index].meld))
        pieces += [Piece(colour, number, False, RACK) for _ in range(used - len(pieces))]
        return pieces

    def end(self, colour: int, run: list[Piece]) -> None:
        short = 3 - len(run)
        for _ in range(max(0, short)):
            top = run[-1].number
            if top < 13:
                run.append(Piece(colour, top + 1, True, LOOSE))
            else:
                run.insert(0, Piece(colour, run[0].number - 1, True, LOOSE))
        self.done.append(Built("run", run))

    # groups

    def make_groups(self, number: int, pieces: list[Piece], jokers: int) -> None:
        kept, rest = self.old_groups(number, pieces)
        if not _fits(rest, jokers):
            kept, rest = [], pieces
        self.done += [Built("group", g) for g in kept]
        total = len(rest) + jokers
        if not total:
            return
        top = max(Counter(p.colour for p in rest).values(), default=0)
        count = max(top, -(-total // 4))
        rest = sorted(rest, key=lambda p: p.colour)
        made: list[list[Piece]] = [[] for _ in range(count)]
        for i, piece in enumerate(rest):
            made[i % count].append(piece)
        for _ in range(jokers):
            smallest = min(made, key=len)
            taken = {p.colour for p in smallest}
            colour = next(c for c in range(4) if c not in taken)
            smallest.append(Piece(colour, number, True, LOOSE))
        self.done += [Built("group", g) for g in made]

    def old_groups(self, number: int, pieces: list[Piece]) -> tuple[list[list[Piece]], list[Piece]]:
        """Old groups of this number all of whose tiles are here again: rebuilt as they were."""
        rest = list(pieces)
        kept: list[list[Piece]] = []
        for index in sorted(self.group_melds):
            reading = self.old[index][1]
            if reading.number != number:
                continue
            mine = [p for p in rest if p.source == index]
            if len(mine) == reading.length:
                kept.append(mine)
                rest = [p for p in rest if p.source != index]
        return kept, rest


def _fits(pieces: list[Piece], jokers: int) -> bool:
    top = max(Counter(p.colour for p in pieces).values(), default=0)
    return groups_fit(len(pieces) + jokers, top)


class _Taker:
    """Hands out the tiles of one slot: a tile of the wanted old meld first, else any."""

    def __init__(self, pieces: list[Piece], group_melds: set[int]) -> None:
        self.pieces = pieces
        self.group_melds = group_melds

    def left(self) -> int:
        return len(self.pieces)

    def for_run(self, source: int) -> Piece:
        for i, piece in enumerate(self.pieces):
            if piece.source == source:
                return self.pieces.pop(i)
        return self.any()

    def for_groups(self, count: int) -> list[Piece]:
        out = []
        for _ in range(count):
            index = next(
                (i for i, p in enumerate(self.pieces) if p.source in self.group_melds), None
            )
            if index is None:
                index = next((i for i, p in enumerate(self.pieces) if p.source < 0), 0)
            out.append(self.pieces.pop(index))
        return out

    def any(self) -> Piece:
        index = next((i for i, p in enumerate(self.pieces) if p.source < 0), 0)
        return self.pieces.pop(index)


def place_free_jokers(count: int, melds: list[Built], old_jokers: list[int]) -> bool:
    """Put ``count`` free jokers where there is room (back where a table joker was, if it can);
    False when there is no room."""
    for i in range(count):
        home = old_jokers[i] if i < len(old_jokers) else None
        order = sorted(
            range(len(melds)),
            key=lambda j: (home is None or home not in melds[j].sources(), melds[j].kind != "run"),
        )
        if not any(_add_joker(melds[j]) for j in order):
            return False
    return True


def _add_joker(meld: Built) -> bool:
    pieces = meld.pieces
    if meld.kind == "group":
        if len(pieces) != 3:
            return False
        taken = {p.colour for p in pieces}
        colour = next(c for c in range(4) if c not in taken)
        pieces.append(Piece(colour, pieces[0].number, True, FREE))
        return True
    if len(pieces) >= 13:
        return False
    colour = pieces[0].colour
    if pieces[-1].number < 13:
        pieces.append(Piece(colour, pieces[-1].number + 1, True, FREE))
    else:
        pieces.insert(0, Piece(colour, pieces[0].number - 1, True, FREE))
    return True


def weights(objective: str, opts: Mapping[str, Any]) -> tuple[list[int], int]:
    if objective == "tiles":
        return [1] * 52, 1
    return [slot % 13 + 1 for slot in range(52)], int(opts["joker_rack_penalty"])


def counts(tiles: Iterable[str]) -> list[int]:
    out = [0] * 52
    for tile in tiles:
        if tile != JOKER:
            out[SLOT_OF[tile]] += 1
    return out


RACK_MELDS_BUDGET = 20_000  # states


def simple_play(
    old: list[tuple[Meld, Reading]], hand: list[str], problem: Problem
) -> tuple[list[Built], int]:
    """A good play that leaves the table as it is: new melds from the rack and tiles added at
    the ends of runs or to groups of three (tried in both orders; the better one)."""
    melds, value, _ = quick_play(old, hand, problem)
    return melds, value


def quick_play(
    old: list[tuple[Meld, Reading]],
    hand: list[str],
    problem: Problem,
    budget: int = RACK_MELDS_BUDGET,
) -> tuple[list[Built], int, bool]:
    """``simple_play`` with the melds from the rack alone made within ``budget`` states (else
    greedily), and whether they kept within it (False: a bigger budget may do better)."""
    best: tuple[list[Built], int] | None = None
    complete = True
    for melds_first in (True, False):
        table = [as_built(m, r, i) for i, (m, r) in enumerate(old)]
        left = list(hand)
        if not melds_first:
            left = _extend(table, left)
        new, within = _rack_melds(left, problem, budget)
        complete = complete and within
        for built in new:
            for piece in built.pieces:
                if piece.joker:
                    left.remove(JOKER)
                else:
                    left.remove(code_of(piece.colour, piece.number))
        table += new
        if melds_first:
            left = _extend(table, left)
        placed = Counter(hand) - Counter(left)
        value = sum(
            (problem.joker_weight if t == JOKER else problem.weight[SLOT_OF[t]]) * k
            for t, k in placed.items()
        )
        if best is None or value > best[1]:
            best = (table, value)
    assert best is not None
    return best[0], best[1], complete


def _rack_melds(tiles: list[str], problem: Problem, budget: int) -> tuple[list[Built], bool]:
    """The best melds from ``tiles`` alone within ``budget`` states, else greedy ones (this is
    only a first floor: the solver's tries find the best melds); and whether within."""
    rack_only = Problem(
        table=[0] * 52,
        rack=counts(tiles),
        weight=problem.weight,
        joker_weight=problem.joker_weight,
        links=[0] * 52,
        in_groups=[0] * 52,
        free_table_jokers=0,
        rack_jokers=tiles.count(JOKER),
        pins=[],
    )
    try:
        path = Program(rack_only, exact=True, budget=budget).run()
    except OverBudget:
        return greedy_rack_melds(tiles), False
    return ([] if path is None else Builder(rack_only, path, True, []).build()), True


def greedy_rack_melds(tiles: list[str]) -> list[Built]:
    """Melds from the rack alone without jokers, in one pass each way (the longest runs of each
    colour, then groups of the numbers left; and groups first): the one placing more tiles.
    Linear in the rack, for racks too big for the program's budget."""
    best: list[Built] = []
    for runs_first in (True, False):
        have = Counter(t for t in tiles if t != JOKER)
        melds: list[Built] = []
        for step in ("runs", "groups") if runs_first else ("groups", "runs"):
            melds += _take_runs(have) if step == "runs" else _take_groups(have)
        if sum(len(b.pieces) for b in melds) > sum(len(b.pieces) for b in best):
            best = melds
    return best


def _take_runs(have: Counter[str]) -> list[Built]:
    out = []
    for colour in range(4):
        while True:
            stretch: list[int] = []
            longest: list[int] = []
            for number in range(1, 15):
                if number <= 13 and have[code_of(colour, number)] > 0:
                    stretch.append(number)
                    continue
                if len(stretch) > len(longest):
                    longest = stretch
                stretch = []
            if len(longest) < 3:
                break
            for number in longest:
                have[code_of(colour, number)] -= 1
            out.append(Built("run", [Piece(colour, n, False, RACK) for n in longest]))
    return out


def _take_groups(have: Counter[str]) -> list[Built]:
    out = []
    for number in range(1, 14):
        while True:
            colours = [c for c in range(4) if have[code_of(c, number)] > 0]
            if len(colours) < 3:
                break
            for colour in colours:
                have[code_of(colour, number)] -= 1
            out.append(Built("group", [Piece(c, number, False, RACK) for c in colours]))
    return out


def _extend(table: list[Built], tiles: list[str]) -> list[str]:
    """Add tiles to the ends of runs and to groups of three while any fits; the tiles left."""
    left = sorted_tiles(tiles)
    left.sort(key=lambda t: -number_of(t) if t != JOKER else 0)
    changed = True
    while changed:
        changed = False
        for tile in list(left):
            if tile != JOKER and any(_extend_one(meld, tile) for meld in table):
                left.remove(tile)
                changed = True
    return left


def _extend_one(meld: Built, tile: str) -> bool:
    colour, number = colour_of(tile), number_of(tile)
    pieces = meld.pieces
    if meld.kind == "group":
        fits = (
            len(pieces) == 3
            and pieces[0].number == number
            and colour not in {p.colour for p in pieces if not p.joker}
            and (not any(p.joker for p in pieces) or _group_room(pieces, colour))
        )
        if fits:
            pieces.append(Piece(colour, number, False, RACK))
        return fits
    if pieces[0].colour != colour or len(pieces) >= 13:
        return False
    if pieces[-1].number + 1 == number:
        pieces.append(Piece(colour, number, False, RACK))
        return True
    if pieces[0].number - 1 == number:
        pieces.insert(0, Piece(colour, number, False, RACK))
        return True
    return False


def _group_room(pieces: list[Piece], colour: int) -> bool:
    """A group of three with a joker takes a fourth colour only if the joker keeps a colour."""
    naturals = {p.colour for p in pieces if not p.joker}
    jokers = sum(1 for p in pieces if p.joker)
    return len(naturals) + jokers + 1 <= 4 and colour not in naturals


def general_problem(
    old: list[tuple[Meld, Reading]], hand: list[str], objective: str, opts: Mapping[str, Any]
) -> Problem:
    weight, joker_weight = weights(objective, opts)
    table = [0] * 52
    links = [0] * 52
    in_groups = [0] * 52
    sources: dict[int, list[int]] = {}
    pins: list[Pin] = []
    rack_only = opts["joker_replacement_source"] == "RACK_ONLY"
    free_jokers = 0
    for index, (meld, reading) in enumerate(old):
        for pos, tile in enumerate(meld.tiles):
            if tile != JOKER:
                slot = SLOT_OF[tile]
                table[slot] += 1
                sources.setdefault(slot, []).append(index)
                if reading.kind == "group":
                    in_groups[slot] += 1
            if reading.kind == "run" and pos + 1 < len(meld.tiles):
                links[reading.colour * 13 + reading.number + pos - 1] += 1
        if not reading.jokers:
            continue
        if not rack_only:
            free_jokers += reading.jokers
        elif reading.kind == "run":
            pins += [Pin(n, (reading.colour,), 1, index) for n in reading.joker_numbers()]
        else:
            pins.append(Pin(reading.number, reading.missing, reading.jokers, index))
    return Problem(
        table=table,
        rack=counts(hand),
        weight=weight,
        joker_weight=joker_weight,
        links=links,
        in_groups=in_groups,
        free_table_jokers=free_jokers,
        rack_jokers=hand.count(JOKER),
        pins=pins,
        sources=sources,
    )


def as_built(meld: Meld, reading: Reading, index: int) -> Built:
    pieces = []
    for pos, tile in enumerate(meld.tiles):
        if reading.kind == "run":
            colour, number = reading.colour, reading.number + pos
        elif tile == JOKER:
            colour, number = -1, reading.number
        else:
            colour, number = colour_of(tile), number_of(tile)
        pieces.append(Piece(colour, number, tile == JOKER, index))
    built = Built(reading.kind, pieces)
    built.pieces = pieces
    return built


def layout(
    old: Sequence[tuple[Meld, Reading]], melds: list[Built]
) -> tuple[list[tuple[str, ...]], list[str], tuple[int, ...]]:
    """Kept melds where they were, as they were (a group's tiles in the old order too),
    changed ones in the place of the meld they most come from, new ones at the end: the
    tiles and kind of each, and the indices of the changed and new ones."""
    left = list(melds)
    canonical = {id(b): Meld(b.kind, b.tiles()).canonical() for b in melds}
    sources = {id(b): b.sources() for b in melds}
    tiles: list[tuple[str, ...]] = []
    kinds: list[str] = []
    changed: list[int] = []
    for index, (meld, _) in enumerate(old):
        wanted = meld.canonical()
        same = next((b for b in left if canonical[id(b)] == wanted), None)
        if same is None:
            same = max(left, key=lambda b: sources[id(b)][index], default=None)
            if same is None or sources[id(same)][index] == 0:
                continue
            changed.append(len(tiles))
            tiles.append(same.tiles())
        else:
            tiles.append(meld.tiles)
        left.remove(same)
        kinds.append(same.kind)
    for built in left:
        changed.append(len(tiles))
        tiles.append(built.tiles())
        kinds.append(built.kind)
    return tiles, kinds, tuple(changed)
