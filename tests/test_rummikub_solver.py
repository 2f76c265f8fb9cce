"""The Rummikub solver against an independent exhaustive oracle, and its contract.

The oracle knows nothing of the solver's dynamic program: it lists every valid meld that the
tiles allow (runs with jokers at every possible position, groups with jokers), then searches
every way to cover all the table tiles and any of the rack tiles with such melds, and asks the
rules (``rules.unreplaced_jokers``, ``Reading.value``) about jokers and initial melds.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from rummikub_ilp import meld_shapes
from tapete.errors import InvalidMoveError
from tapete.rng import Rng
from tapete.rummikub import solve
from tapete.rummikub.melds import Meld, MeldError, read_meld
from tapete.rummikub.rules import unreplaced_jokers, validate_play
from tapete.rummikub.tiles import COLOURS, JOKER, code_of, number_of

OPTIONS = {
    "initial_meld_threshold": 30,
    "initial_meld_joker_value": "ZERO",
    "allow_manipulation_on_initial_turn": False,
    "joker_replacement_source": "RACK_ONLY",
    "joker_rack_penalty": 30,
}

# -- the oracle -------------------------------------------------------------------------------


def all_melds(avail: Counter[str]) -> list[Meld]:
    """Every valid meld (as the rules read it) that ``avail`` has the tiles for."""
    found: dict[Any, Meld] = {}

    def add(tiles: tuple[str, ...], kind: str) -> None:
        if Counter(tiles) - avail:
            return
        try:
            reading = read_meld(tiles, kind)
        except MeldError:
            return
        meld = Meld(reading.kind, tiles)
        found[meld.canonical()] = meld

    for tiles, kind in meld_shapes(avail):
        add(tiles, kind)
    return list(found.values())


INDEX = {code_of(c, n): c * 13 + n - 1 for c in range(4) for n in range(1, 14)} | {JOKER: 52}


class Oracle:
    """Exhaustive search, memoised on what is left: the best objective any legal end-of-turn
    table reaches (every cover of the table tiles, plus any rack tiles, by valid melds)."""

    def __init__(
        self,
        table: Sequence[Meld],
        rack: Sequence[str],
        objective: str,
        rack_only: bool = True,
        initial: bool = False,
        threshold: int = 30,
        joker_counts: bool = False,
    ) -> None:
        self.table = list(table)
        must = Counter() if initial else Counter(t for m in table for t in m.tiles)
        self.must = self.vector(must)
        self.rack = self.vector(Counter(rack))
        self.objective = objective
        self.rack_only = rack_only
        self.initial = initial
        self.threshold = threshold
        self.joker_counts = joker_counts
        # the leaf test looks at the melds holding jokers and the tiles played (RACK_ONLY) or
        # at the value laid (initial meld): only then do they go into the memo key
        self.jokers_matter = not initial and any(JOKER in m.tiles for m in table)
        self.weights = [
            1 if objective == "tiles" else (30 if i == 52 else i % 13 + 1) for i in range(53)
        ]
        self.by_tile: list[list[tuple[Meld, list[tuple[int, int]], int]]] = [[] for _ in range(53)]
        for meld in all_melds(must + Counter(rack)):
            need = sorted(Counter(INDEX[t] for t in meld.tiles).items())
            value = read_meld(meld.tiles, meld.kind).value(meld.tiles, joker_counts)
            for tile, _ in need:
                self.by_tile[tile].append((meld, need, value))
        self.memo: dict[Any, int] = {}

    @staticmethod
    def vector(counts: Counter[str]) -> tuple[int, ...]:
        out = [0] * 53
        for tile, k in counts.items():
            out[INDEX[tile]] += k
        return tuple(out)

    def solve(self) -> int:
        return self.best(self.must, self.rack, (), (0,) * 53, 0)

    def best(
        self,
        must: tuple[int, ...],
        opt: tuple[int, ...],
        chosen: tuple[Meld, ...],
        placed: tuple[int, ...],
        worth: int,
    ) -> int:
        """The most that can still be added from here (-1 when nothing legal is left)."""
        if self.jokers_matter:
            jokers = tuple(sorted(m.canonical() for m in chosen if JOKER in m.tiles))
            key: Any = (must, opt, jokers, placed)
        elif self.initial:
            key = (must, opt, min(worth, self.threshold), any(placed))
        else:
            key = (must, opt)
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = self.explore(must, opt, chosen, placed, worth)
        return found

    def explore(
        self,
        must: tuple[int, ...],
        opt: tuple[int, ...],
        chosen: tuple[Meld, ...],
        placed: tuple[int, ...],
        worth: int,
    ) -> int:
        pending = next((i for i in range(53) if must[i]), None)
        if pending is not None:
            return self.cover(pending, must, opt, chosen, placed, worth)
        result = 0 if self.leaf_ok(chosen, placed, worth) else -1
        tile = next((i for i in range(53) if opt[i]), None)
        if tile is not None:
            result = max(result, self.cover(tile, must, opt, chosen, placed, worth))
            skipped = list(opt)
            skipped[tile] = 0
            result = max(result, self.best(must, tuple(skipped), chosen, placed, worth))
        return result

    def cover(
        self,
        tile: int,
        must: tuple[int, ...],
        opt: tuple[int, ...],
        chosen: tuple[Meld, ...],
        placed: tuple[int, ...],
        worth: int,
    ) -> int:
        result = -1
        for meld, need, value in self.by_tile[tile]:
            if any(must[i] + opt[i] < k for i, k in need):
                continue
            new_must, new_opt, new_placed = list(must), list(opt), list(placed)
            gain = 0
            for i, k in need:
                from_table = min(k, must[i])
                new_must[i] -= from_table
                new_opt[i] -= k - from_table
                new_placed[i] += k - from_table
                gain += (k - from_table) * self.weights[i]
            rest = self.best(
                tuple(new_must), tuple(new_opt), (*chosen, meld), tuple(new_placed), worth + value
            )
            if rest >= 0:
                result = max(result, gain + rest)
        return result

    def leaf_ok(self, chosen: tuple[Meld, ...], placed: tuple[int, ...], worth: int) -> bool:
        if self.initial:
            return not any(placed) or worth >= self.threshold
        if not self.jokers_matter:
            return True
        codes = Counter({t: placed[i] for t, i in INDEX.items() if placed[i]})
        return not unreplaced_jokers(
            self.table, list(chosen), codes, allow_release=True, rack_only=self.rack_only
        )


# -- generated positions ----------------------------------------------------------------------


def random_position(rng: Rng) -> tuple[list[Meld], list[str], int]:
    """A small table of valid melds and a rack, over a narrow range so that tiles interact."""
    low = 1 + rng.below(9)
    numbers = range(low, min(13, low + 3 + rng.below(3)) + 1)
    colours = rng.shuffled(range(4))[: 2 + rng.below(3)]
    jokers = [0, 0, 1, 1, 2][rng.below(5)]
    tiles = [code_of(c, n) for c in colours for n in numbers] * 2 + [JOKER] * jokers
    avail = Counter(rng.shuffled(tiles))
    table: list[Meld] = []
    candidates = [m for m in all_melds(avail) if len(m.tiles) <= 5]
    wanted = rng.below(4)
    for meld in rng.shuffled(candidates):
        if len(table) >= wanted:
            break
        need = Counter(meld.tiles)
        if not need - avail:
            table.append(meld)
            avail -= need
    rest = rng.shuffled(list(avail.elements()))
    size = sum(len(m.tiles) for m in table)
    return table, rest[: 1 + rng.below(max(1, min(6, 16 - size)))], jokers


def table_json(table: Sequence[Meld]) -> list[Any]:
    return [m.to_json() for m in table]


def check_answer(
    table: Sequence[Meld], rack: Sequence[str], solution: Any, options: dict[str, Any]
) -> None:
    """The solver's answer is a move the rules accept, and its numbers add up."""
    assert solution.tiles == len(solution.placed)
    if not solution.placed:
        assert [tuple(m) for m in solution.melds] == [m.tiles for m in table]
        return
    raw = list(zip(solution.melds, solution.kinds, strict=True))
    validate_play(table, rack, raw, list(solution.placed), melded=True, options=options)


@pytest.mark.parametrize("batch", range(5))
def test_general_play_matches_the_oracle(batch: int) -> None:
    rng = Rng.derive("solver-oracle", batch)
    for _ in range(300):
        table, rack, _ = random_position(rng)
        options = dict(OPTIONS)
        options["joker_replacement_source"] = ["RACK_ONLY", "RACK_OR_TABLE"][rng.below(2)]
        objective = ["value", "tiles"][rng.below(2)]
        rack_only = options["joker_replacement_source"] == "RACK_ONLY"
        expected = Oracle(table, rack, objective, rack_only).solve()
        before = (json.dumps(table_json(table)), list(rack))
        solution = solve(table_json(table), rack, objective=objective, options=options)
        assert (json.dumps(table_json(table)), list(rack)) == before
        got = solution.value if objective == "value" else solution.tiles
        assert got == expected, (table_json(table), rack, objective, options, solution)
        check_answer(table, rack, solution, options)


@pytest.mark.parametrize("batch", range(2))
def test_pinned_table_jokers_match_the_oracle(batch: int) -> None:
    """RACK_ONLY with jokers on the table: the solver decides each pin (keep or release, and
    as which colour) in a scenario of its own, with a tighter rack where a joker is kept."""
    rng = Rng.derive("solver-oracle-pins", batch)
    seen = 0
    while seen < 150:
        table, rack, _ = random_position(rng)
        if not any(JOKER in m.tiles for m in table):
            continue
        seen += 1
        objective = ["value", "tiles"][rng.below(2)]
        expected = Oracle(table, rack, objective, True).solve()
        solution = solve(table_json(table), rack, objective=objective, options=OPTIONS)
        got = solution.value if objective == "value" else solution.tiles
        assert got == expected, (table_json(table), rack, objective, solution)
        check_answer(table, rack, solution, OPTIONS)


@pytest.mark.parametrize("batch", range(2))
def test_initial_meld_matches_the_oracle(batch: int) -> None:
    rng = Rng.derive("initial-oracle", batch)
    for _ in range(250):
        low = 1 + rng.below(10)
        numbers = range(low, min(13, low + 3 + rng.below(4)) + 1)
        colours = rng.shuffled(range(4))[: 2 + rng.below(3)]
        tiles = [code_of(c, n) for c in colours for n in numbers] * 2
        tiles += [JOKER] * [0, 1, 2][rng.below(3)]
        rack = rng.shuffled(tiles)[: 3 + rng.below(7)]
        options = dict(OPTIONS)
        options["initial_meld_threshold"] = [0, 10, 30, 30, 50][rng.below(5)]
        options["initial_meld_joker_value"] = ["ZERO", "REPRESENTED"][rng.below(2)]
        objective = ["value", "tiles"][rng.below(2)]
        expected = Oracle(
            [],
            rack,
            objective,
            initial=True,
            threshold=options["initial_meld_threshold"],
            joker_counts=options["initial_meld_joker_value"] == "REPRESENTED",
        ).solve()
        solution = solve([], rack, objective=objective, initial=True, options=options)
        got = solution.value if objective == "value" else solution.tiles
        assert got == max(expected, 0), (rack, objective, options, solution)
        if solution.placed:
            raw = list(zip(solution.melds, solution.kinds, strict=True))
            validate_play([], rack, raw, list(solution.placed), melded=False, options=options)


# -- awkward cases ----------------------------------------------------------------------------


def best(table: list[Any], rack: list[str], **kwargs: Any) -> Any:
    solution = solve(table, rack, **kwargs)
    melds = [Meld(k, tuple(m)) for k, m in zip(solution.kinds, solution.melds, strict=True)]
    old = [Meld(read_meld(m if isinstance(m, list) else m["group"]).kind, tuple(m)) for m in table]
    if kwargs.get("initial"):
        old = []
    if solution.placed:
        options = dict(OPTIONS, **(kwargs.get("options") or {}))
        validate_play(
            old,
            rack,
            [(m.tiles, m.kind) for m in melds],
            list(solution.placed),
            melded=not kwargs.get("initial", False),
            options=options,
        )
    return solution


def test_group_leftovers_2_2_1_1() -> None:
    solution = best([["K5", "R5", "B5", "Y5"]], ["K5", "R5"])
    assert solution.placed == ("K5", "R5")
    assert sorted(map(sorted, solution.melds)) == [["B5", "K5", "R5"], ["K5", "R5", "Y5"]]


def test_long_run_split_in_the_middle() -> None:
    solution = best([["B6", "B7", "B8", "B9", "B10"]], ["B8", "K1"])
    assert solution.placed == ("B8",)
    assert sorted(solution.melds) == [("B6", "B7", "B8"), ("B8", "B9", "B10")]


def test_joker_that_has_to_move() -> None:
    table = [["R2", "R3", "R4", "*"]]
    official = best(table, ["K9", "B9"], options={"joker_replacement_source": "RACK_OR_TABLE"})
    assert official.placed == ("K9", "B9") and official.value == 18
    seed_rule = best(table, ["K9", "B9"])
    assert seed_rule.placed == ()
    freed = best([["B3", "B4", "*"]], ["B5", "R7", "Y7"])
    assert freed.placed == ("R7", "B5", "Y7")
    assert sorted(freed.melds) == [("B3", "B4", "B5"), ("R7", "Y7", "*")]


def test_joker_in_a_group_freed_by_either_colour() -> None:
    for tile in ("B9", "Y9"):
        solution = best([["K9", "R9", "*"]], [tile, "K1", "K2"])
        assert set(solution.placed) == {tile, "K1", "K2"}


def test_joker_in_a_group_freed_with_both_colours_in_the_rack() -> None:
    # the scenarios of the group's joker do not overlap (released as yellow, the rack's blue 9
    # stays; released as blue, the yellow 9 may go too): one of them must lay both nines
    for table in ([["K9", "R9", "*"]], [["K9", "R9", "*"], ["K5", "*", "K7"]]):
        solution = best(table, ["B9", "Y9", "K1", "K2"])
        assert set(solution.placed) == {"B9", "Y9", "K1", "K2"}
        assert best(table, ["B9", "Y9", "K1", "K2"], objective="tiles").tiles == 4


def test_a_run_rebuilt_around_a_pinned_joker() -> None:
    # the joker stands for R6 and must keep doing so: the rack's R6 frees it
    solution = best([["R5", "*", "R7"], ["K8", "B8", "Y8"]], ["R6", "R8"])
    assert solution.placed == ("R6", "R8")


def test_pin_scenarios() -> None:
    """A run's joker and a group's joker: each kept or released, the group's as either of its
    missing colours, the releases the rack cannot pay for left out; a kept joker's slot plays
    no rack tile (releasing it does that)."""
    from tapete.rummikub import solver
    from tapete.rummikub.pins import pin_scenarios

    table = [["R5", "*", "R7"], ["K9", "B9", "*"]]
    old = solver.read_input_table(table)
    problem = solver.general_problem(old, ["R6", "R6", "Y9", "K1"], "value", solver.DEFAULTS)
    scenarios = pin_scenarios(problem)
    described = sorted(
        tuple(sorted((place, kind) for place, records in s.records.items() for _, kind in records))
        for s in scenarios
    )
    red, yellow = COLOURS.index("R"), COLOURS.index("Y")
    r6, r9, y9 = (red, 6), (red, 9), (yellow, 9)  # (colour, number)
    assert described == sorted(
        [
            ((r6, "keep"), (r9, "keep")),
            ((r6, "keep"), (y9, "keep")),
            ((r6, "keep"), (y9, "release")),  # no red 9 in the rack: it cannot release
            ((r6, "release"), (r9, "keep")),
            ((r6, "release"), (y9, "keep")),
            ((r6, "release"), (y9, "release")),
        ]
    )
    assert [s.released for s in scenarios] == sorted((s.released for s in scenarios), reverse=True)
    yellow9 = yellow * 13 + 9 - 1
    for scenario in scenarios:
        decided = scenario.problem
        assert decided.pins == [] and problem.pins  # the original is untouched
        # the group's lone joker: kept (as red or yellow), the rack's yellow 9 is not played
        # (that is releasing it); released as yellow, that tile is
        kept = any(kind == "keep" for _, kind in scenario.records.get(r9, ()))
        kept = kept or scenario.records.get(y9, ((0, "keep"),))[0][1] == "keep"
        assert decided.rack[yellow9] == (0 if kept else 1)
        assert decided.min_rack[yellow9] == (0 if kept else 1)
        assert decided.free_table_jokers == scenario.released
        red6 = red * 13 + 6 - 1  # the slot of R6
        if scenario.records[r6][0][1] == "keep":
            assert decided.table[red6] == problem.table[red6] + 1 and decided.rack[red6] == 0
        else:
            assert decided.table[red6] == problem.table[red6] and decided.rack[red6] == 2
            assert decided.min_rack[red6] == 1
    plain = solver.general_problem([], ["R1"], "value", solver.DEFAULTS)
    assert [s.records for s in pin_scenarios(plain)] == [{}]


def test_prefers_the_table_as_it_was() -> None:
    table = [["R1", "R2", "R3"], ["R4", "R5", "R6"], ["K7", "B7", "Y7"]]
    solution = best(table, ["K9", "B9", "Y9"])
    assert solution.melds[:3] == tuple(tuple(m) for m in table)
    assert solution.changed == (3,)
    grown = best(table, ["R7"])
    assert grown.placed == ("R7",) and len(grown.changed) == 1
    assert grown.melds[0] == ("R1", "R2", "R3") and grown.melds[2] == ("K7", "B7", "Y7")


def test_kept_groups_keep_the_order_of_their_tiles() -> None:
    """A group laid in another order than the solver's (colours K R B Y) comes back as it was
    when it is kept, whether the play is empty or not (it once came back reordered)."""
    table = [["B9", "K9", "R9"], ["Y5", "B5", "K5"], ["R1", "R2", "R3"]]
    nothing = best(table, ["R8", "K7", "R7", "K6"], objective="tiles")
    assert nothing.placed == () and nothing.changed == ()
    assert nothing.melds == tuple(tuple(m) for m in table)
    grown = best(table, ["R4"])
    assert grown.placed == ("R4",) and grown.changed == (2,)
    assert grown.melds[:2] == (("B9", "K9", "R9"), ("Y5", "B5", "K5"))


# once the slowest of 1,931 positions of bench_rummikub's games: two table jokers, 18 tiles in
# the rack, the whole rack (140) out of reach; the optimum is 130
SLOW_TABLE = [
    ["R7", "B7", "Y7"], ["K9", "R9", "Y9"], ["K2", "K3", "K4", "K5", "K6"], ["Y5", "Y6", "Y7"],
    ["Y9", "Y10", "Y11", "Y12", "Y13"], ["B7", "B8", "B9"], ["K8", "R8", "B8"],
    ["K12", "R12", "Y12"], ["K2", "R2", "B2", "Y2"], ["K1", "R1", "B1", "Y1"], ["R11", "B11", "*"],
    ["K3", "R3", "Y3"], ["B1", "B2", "B3", "B4", "B5"], ["K4", "R4", "B4"], ["R10", "R11", "R12"],
    ["K6", "R6", "*"],
]  # fmt: skip
SLOW_RACK = "Y10 Y6 R13 K7 R9 Y5 Y2 R4 B13 B10 B6 K11 R5 K12 R3 B13 K8 B3".split()


def test_descending_floors_stop_at_the_best_play() -> None:
    """The floors come down from the whole rack with the table as it was, the loss allowed
    doubling; the first try that finds a play has found the best one, the same as one try at
    the lowest floor (the quick play's) finds."""
    from tapete.rummikub import solver
    from tapete.rummikub.program import SCALE

    assert solver.floors(100 * SCALE, 99 * SCALE) == [
        100 * SCALE - loss for loss in (0, 1, 3, 7, 15, 31, 63, 127, 255, 511, 1023)
    ] + [99 * SCALE]
    assert solver.floors(5, 5) == [5]
    stepped = best(SLOW_TABLE, SLOW_RACK, budget=None)
    assert stepped.value == 130 and stepped.exact
    # the lanes' look-ahead and the jump to the last floor: 403,000 states before them
    assert stepped.explored < 200_000
    assert best(SLOW_TABLE, SLOW_RACK) == stepped  # within the default budget
    # over a budget: the quick play, said to be so
    bounded = best(SLOW_TABLE, SLOW_RACK, budget=20_000)
    assert not bounded.exact and bounded.value < 130 and bounded.explored <= 2 * 20_000
    old = solver.read_input_table(SLOW_TABLE)
    problem = solver.general_problem(old, sorted(SLOW_RACK), "value", solver.DEFAULTS)
    _, quick = solver.simple_play(old, sorted(SLOW_RACK), problem)
    assert quick < 130
    lowest = solver.Try(problem, old, (quick + 1) * SCALE - (SCALE - 1))
    assert lowest.melds is not None
    assert (
        sum(int(t[1:]) for t in solver._solution(old, lowest.melds, solver.DEFAULTS).placed) == 130
    )
    assert solver.Try(problem, old, 131 * SCALE - (SCALE - 1)).melds is None


def test_initial_meld_leaves_the_table_alone() -> None:
    solution = best([["R1", "R2", "R3"]], ["R4", "K10", "B10", "Y10"], initial=True)
    assert solution.melds == (("K10", "B10", "Y10"),) and solution.placed == ("K10", "B10", "Y10")
    none = best([], ["R4", "K10", "B10"], initial=True)
    assert none.placed == () and none.melds == ()
    represented = best(
        [], ["R10", "B10", "*"], initial=True, options={"initial_meld_joker_value": "REPRESENTED"}
    )
    assert represented.value == 50 and len(represented.placed) == 3


def test_objectives_differ() -> None:
    rack = ["K13", "R13", "B13", "K1", "K2", "K3", "K4"]
    by_value = best([], rack)
    by_tiles = best([], rack, objective="tiles")
    assert by_value.value == 49 and by_tiles.tiles == 7


def test_bad_input_is_refused() -> None:
    with pytest.raises(InvalidMoveError):
        solve([["R1", "R2"]], ["K1"])
    with pytest.raises(InvalidMoveError):
        solve([], ["K14"])
    with pytest.raises(InvalidMoveError):
        solve([], ["K1"], objective="points")
    with pytest.raises(InvalidMoveError):
        solve([["K1", "K2", "K3"]], ["K1", "K1"])
    with pytest.raises(InvalidMoveError):
        solve(["K1 K2 K3"], [])


# -- late, crowded positions against the integer program --------------------------------------


# (seed number, joker rule, jokers on the table, jokers in the rack): every split of the jokers
# the late positions have (0-2 on each side, at most two in all) with a joker under RACK_ONLY
# (the pins), the table's jokers under RACK_OR_TABLE too, and none (where the rule is moot)
LATE_ILP_CASES = [
    (4, "RACK_OR_TABLE", 0, 0),
    (0, "RACK_ONLY", 0, 1),
    (10, "RACK_ONLY", 0, 2),
    (3, "RACK_ONLY", 1, 0),
    (8, "RACK_ONLY", 1, 1),
    (12, "RACK_OR_TABLE", 1, 1),
    (1, "RACK_ONLY", 2, 0),
    (2, "RACK_ONLY", 2, 0),
    (5, "RACK_OR_TABLE", 2, 0),
]


@pytest.mark.parametrize(("number", "rule", "on_table", "in_rack"), LATE_ILP_CASES)
def test_late_crowded_positions_match_the_ilp(
    number: int, rule: str, on_table: int, in_rack: int
) -> None:
    """bench/rummikub_late.py's positions (tables of 60-80 tiles, racks of 10-40, jokers on
    either side), too big for the exhaustive oracle: the integer program of
    tests/rummikub_ilp.py must find the same best, for both objectives, both joker rules and
    every split of the jokers between the table and the rack."""
    import helpers
    from rummikub_ilp import ilp_best

    item = helpers.load_bench("rummikub_late").late_position(Rng.derive("solver-ilp", number))
    table = []
    for entry in item["table"]:
        tiles, kind = (entry, None) if isinstance(entry, list) else (entry["group"], "group")
        table.append(Meld(read_meld(tiles, kind).kind, tuple(tiles)))
    jokers = sum(m.tiles.count(JOKER) for m in table), item["rack"].count(JOKER)
    assert jokers == (on_table, in_rack)  # the case covers the split it says
    options = dict(OPTIONS, joker_replacement_source=rule)
    for objective in ("tiles", "value"):
        solution = solve(item["table"], item["rack"], objective=objective, options=options)
        got = solution.value if objective == "value" else solution.tiles
        expected = ilp_best(table, item["rack"], objective, rack_only=rule == "RACK_ONLY")
        assert got == expected, (item, objective, rule)
        check_answer(table, item["rack"], solution, options)


def late_window(item: dict[str, Any], low: int, width: int) -> tuple[list[Meld], list[str]]:
    """The part of a late position within the numbers ``low`` to ``low + width - 1``: its groups
    of those numbers, its runs cut to them (when what is left is still a run), its rack tiles of
    those numbers (at most six) and its jokers. As crowded as the whole, and small enough for
    the exhaustive oracle."""
    high = low + width - 1
    table = []
    for entry in item["table"]:
        tiles, kind = (entry, None) if isinstance(entry, list) else (entry["group"], "group")
        reading = read_meld(tiles, kind)
        if reading.kind == "run":
            tiles = [t for i, t in enumerate(tiles) if low <= reading.number + i <= high]
        elif not low <= reading.number <= high:
            continue
        try:
            table.append(Meld(read_meld(tiles, reading.kind).kind, tuple(tiles)))
        except MeldError:
            continue
    rack = [t for t in item["rack"] if t == JOKER or low <= number_of(t) <= high]
    return table, rack[:6]


@pytest.mark.parametrize("batch", range(2))
def test_late_windows_match_the_oracle(batch: int) -> None:
    """Three numbers of bench/rummikub_late.py's positions (tables of 6-23 tiles, most of their
    slots filled, jokers on either side) against the exhaustive oracle, both objectives; the
    tables' groups keep their tiles' order when nothing is played. (Jokers on both sides at
    once make the oracle slow, 10-25 s a window: test_late_crowded_positions_match_the_ilp
    has such positions whole.)"""
    import helpers

    late = helpers.load_bench("rummikub_late")
    on_table = in_rack = 0
    for number in range(30):
        rng = Rng.derive("solver-late-window", batch, number)
        table, rack = late_window(late.late_position(rng), 1 + rng.below(11), 3)
        on_table += any(JOKER in m.tiles for m in table)
        in_rack += JOKER in rack
        for objective in ("tiles", "value"):
            expected = Oracle(table, rack, objective, True).solve()
            solution = solve(table_json(table), rack, objective=objective, options=OPTIONS)
            got = solution.value if objective == "value" else solution.tiles
            assert got == expected, (table_json(table), rack, objective, solution)
            check_answer(table, rack, solution, OPTIONS)
    assert on_table >= 6 and in_rack >= 6  # a fifth of them with jokers on either side
