"""The checks of a Rummikub play, as pure functions of the old table, the rack and the move.

Glossary:

table        the melds on the table at the start of the turn (T0); the move proposes T1
played       the tiles the move takes from the rack (P); ``tiles(T1) = tiles(T0) + P``
initial meld a player's first play: new melds from the rack alone worth at least
             ``initial_meld_threshold`` (a joker counts 0, or what it stands for with
             ``initial_meld_joker_value = REPRESENTED``); the table stays as it was unless
             ``allow_manipulation_on_initial_turn``
retrieval    a table joker whose represented tile changes. With ``RACK_ONLY`` the tile it stood
             for (either missing colour in a group of three) must be among the played tiles;
             with ``RACK_OR_TABLE`` any end state with valid melds will do. Never on the turn of
             the initial meld.

Every check raises :class:`IllegalMoveError` with a stable ``reason`` and the details a message
needs; the order of the checks decides which problem is reported first: tiles not on the
rack, nothing played, an invalid meld (``meld_invalid`` with ``index`` and ``why``), tiles that
vanished or appeared, the initial meld, the jokers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import product
from typing import Any

from ..errors import IllegalMoveError
from .melds import Meld, MeldError, Reading, read_meld
from .tiles import JOKER, SLOT_OF, slot_code, sorted_tiles

RawMeld = tuple[tuple[str, ...], str | None]  # tiles and the declared kind (None: infer)


def read_table(raw: Sequence[RawMeld]) -> list[tuple[Meld, Reading]]:
    """Every proposed meld read, or ``meld_invalid`` naming the first bad one and why."""
    out: list[tuple[Meld, Reading]] = []
    for index, (tiles, kind) in enumerate(raw):
        try:
            reading = read_meld(tiles, kind)
        except MeldError as error:
            raise IllegalMoveError(
                "meld_invalid",
                f"meld {index + 1} ({' '.join(tiles) or 'empty'}) is not valid: {error.message}",
                index=index,
                why=error.why,
                tiles=list(tiles),
            ) from None
        out.append((Meld(reading.kind, tuple(tiles)), reading))
    return out


def table_tiles(table: Sequence[Meld]) -> Counter[str]:
    return Counter(t for meld in table for t in meld.tiles)


def check_rack(rack: Sequence[str], played: Sequence[str]) -> None:
    have = Counter(rack)
    for tile, need in sorted(Counter(played).items()):
        if have[tile] < need:
            raise IllegalMoveError(
                "not_on_rack",
                f"{tile} is not on your rack"
                if have[tile] == 0
                else f"you have {have[tile]} {tile}, not {need}",
                tile=tile,
                have=have[tile],
                need=need,
            )


def check_accounting(old: Counter[str], new: Counter[str], played: Counter[str]) -> None:
    """``tiles(T1) == tiles(T0) + P``: nothing vanished, nothing appeared."""
    expected = old + played
    for tile in sorted_tiles(set(expected) | set(new)):
        got, want = new[tile], expected[tile]
        if got < old[tile]:
            raise IllegalMoveError(
                "table_tile_missing",
                f"{tile} was on the table and is missing from the new table: every table "
                "tile must stay on the table",
                tile=tile,
            )
        if got < want:
            raise IllegalMoveError(
                "played_tile_missing",
                f"{tile} is listed as played but is not on the new table",
                tile=tile,
            )
        if got > want:
            raise IllegalMoveError(
                "tile_not_accounted",
                f"{tile} is on the new table {got} times, but the table had {old[tile]} and "
                f"you played {played[tile]}",
                tile=tile,
            )


def played_tiles(
    old: Counter[str], new: Counter[str], from_hand: Sequence[str] | None
) -> Counter[str]:
    """The tiles the move plays: as listed, or (not listed) what the new table has more."""
    if from_hand is not None:
        return Counter(from_hand)
    for tile in sorted_tiles(old):
        if new[tile] < old[tile]:
            raise IllegalMoveError(
                "table_tile_missing",
                f"{tile} was on the table and is missing from the new table: every table "
                "tile must stay on the table",
                tile=tile,
            )
    return new - old


def meld_value(meld: Meld, reading: Reading, joker_counts: bool) -> int:
    return reading.value(meld.tiles, joker_counts)


def unchanged_melds(
    old_table: Sequence[Meld], new: Sequence[tuple[Meld, Reading]]
) -> tuple[int | None, list[int]]:
    """(first old meld missing from the new table or None, indices of the other new melds)."""
    pool: dict[tuple[str, tuple[str, ...]], list[int]] = {}
    for index, (meld, _) in enumerate(new):
        pool.setdefault(meld.canonical(), []).append(index)
    for index, meld in enumerate(old_table):
        found = pool.get(meld.canonical())
        if not found:
            return index, []
        found.pop(0)
    rest = sorted(i for indices in pool.values() for i in indices)
    return None, rest


def best_initial_value(
    new: Sequence[tuple[Meld, Reading]], played: Counter[str], joker_counts: bool
) -> int:
    """The most an initial meld can be worth from new melds built only of played tiles."""
    candidates = [
        (meld_value(m, r, joker_counts), Counter(m.tiles))
        for m, r in new
        if not Counter(m.tiles) - played
    ]
    best = 0

    def search(i: int, left: Counter[str], total: int) -> None:
        nonlocal best
        best = max(best, total)
        if i == len(candidates) or total + sum(v for v, _ in candidates[i:]) <= best:
            return
        value, tiles = candidates[i]
        if not tiles - left:
            search(i + 1, left - tiles, total + value)
        search(i + 1, left, total)

    search(0, played, 0)
    return best


def check_initial(
    old_table: Sequence[Meld],
    new: Sequence[tuple[Meld, Reading]],
    played: Counter[str],
    options: Mapping[str, Any],
) -> None:
    threshold = int(options["initial_meld_threshold"])
    joker_counts = options["initial_meld_joker_value"] == "REPRESENTED"
    if options["allow_manipulation_on_initial_turn"]:
        value = best_initial_value(new, played, joker_counts)
    else:
        missing, rest = unchanged_melds(old_table, new)
        if missing is not None:
            raise IllegalMoveError(
                "table_changed_on_initial_meld",
                f"the initial meld adds new melds from your rack only: table meld "
                f"{missing + 1} ({' '.join(old_table[missing].tiles)}) must stay as it was",
                index=missing,
            )
        value = sum(meld_value(*new[i], joker_counts) for i in rest)
    if value < threshold:
        raise IllegalMoveError(
            "initial_meld_too_low",
            f"an initial meld must be worth at least {threshold}; this one is worth {value}"
            + ("" if joker_counts else " (a joker counts 0)"),
            value=value,
            threshold=threshold,
        )
    check_jokers(old_table, [m for m, _ in new], played, allow_release=False, rack_only=True)


def joker_reps(table: Sequence[Meld]) -> list[list[tuple[int, ...]]]:
    """Per meld holding jokers: the tuples of slots its jokers may stand for."""
    out = []
    for meld in table:
        if JOKER in meld.tiles:
            out.append(read_meld(meld.tiles, meld.kind).joker_options())
    return out


def unreplaced_jokers(
    old_table: Sequence[Meld],
    new_table: Sequence[Meld],
    played: Counter[str],
    *,
    allow_release: bool,
    rack_only: bool,
) -> list[int]:
    """The slots of retrieved table jokers the rules do not allow; [] when all is well.

    Jokers are alike, so an old joker keeps its meaning when some new joker stands for the
    same tile (under some reading of the open colours). The rest are retrieved: allowed with
    ``RACK_OR_TABLE`` after the initial meld, and with ``RACK_ONLY`` when each tile they stood
    for is among the played tiles.
    """
    old_opts = joker_reps(old_table)
    if not old_opts:
        return []
    new_opts = joker_reps(new_table)
    placed = Counter(SLOT_OF[t] for t in played.elements() if t != JOKER)
    worst: list[int] | None = None
    for old_choice in product(*old_opts):
        before = Counter(s for choice in old_choice for s in choice)
        for new_choice in product(*new_opts):
            after = Counter(s for choice in new_choice for s in choice)
            retrieved = before - after
            if not retrieved:
                return []
            bad = retrieved - placed if rack_only else Counter()
            if allow_release and not bad:
                return []
            problem = sorted((bad if allow_release else retrieved).elements())
            if worst is None or len(problem) < len(worst):
                worst = problem
    return worst or []


def check_jokers(
    old_table: Sequence[Meld],
    new_table: Sequence[Meld],
    played: Counter[str],
    *,
    allow_release: bool,
    rack_only: bool,
) -> None:
    bad = unreplaced_jokers(
        old_table, new_table, played, allow_release=allow_release, rack_only=rack_only
    )
    if not bad:
        return
    stood = slot_code(bad[0])
    if not allow_release:
        raise IllegalMoveError(
            "joker_retrieval_before_meld",
            f"the joker standing for {stood} may not change before your initial meld is down",
            joker=stood,
        )
    raise IllegalMoveError(
        "joker_not_replaced",
        f"the joker standing for {stood} changed: to take it, play {stood} from your rack",
        joker=stood,
    )


def validate_play(
    old_table: Sequence[Meld],
    rack: Sequence[str],
    raw: Sequence[RawMeld],
    from_hand: Sequence[str] | None,
    *,
    melded: bool,
    options: Mapping[str, Any],
) -> tuple[tuple[Meld, ...], tuple[str, ...]]:
    """Check a proposed end-of-turn table; returns (the new table, the tiles played)."""
    if from_hand is not None:
        check_rack(rack, from_hand)
    new = read_table(raw)
    old_count = table_tiles(old_table)
    new_count = Counter(t for m, _ in new for t in m.tiles)
    played = played_tiles(old_count, new_count, from_hand)
    if from_hand is None:
        check_rack(rack, list(played.elements()))
    if not played:
        raise IllegalMoveError(
            "nothing_played", "a play lays at least one tile from your rack; or draw a tile"
        )
    check_accounting(old_count, new_count, played)
    new_table = tuple(m for m, _ in new)
    if not melded:
        check_initial(old_table, new, played, options)
    else:
        check_jokers(
            old_table,
            new_table,
            played,
            allow_release=True,
            rack_only=options["joker_replacement_source"] == "RACK_ONLY",
        )
    return new_table, tuple(sorted_tiles(played.elements()))
