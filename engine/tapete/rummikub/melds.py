"""Melds (sets) of Rummikub: what makes one valid, and what its jokers stand for.

Glossary:

meld      a set on the table: a group or a run, written as a list of codes; a joker ``*`` sits
          at the position it takes (runs are written in ascending order)
group     3 or 4 tiles of one number in pairwise distinct colours (serie)
run       3 to 13 tiles of one colour with consecutive numbers, no wrap-around (escalera)
kind      "run" or "group". A plain list is read as a run when it is a valid run and as a group
          otherwise; only a meld of one numbered tile and two jokers reads both ways, and such
          a meld may declare its kind (``{"group": ["R5", "*", "*"]}``)
joker options
          the tiles a meld's jokers may stand for, as tuples of slots (one slot per joker): one
          tuple for a run or a full group; in a group of three a joker may stand for either
          missing colour, so there is one tuple per choice
why       the reason a list of tiles is not a meld: ``too_short``, ``too_long``,
          ``mixed_colours``, ``repeated_colour``, ``not_consecutive``, ``out_of_range``,
          ``too_many_jokers``, ``not_a_run``, ``not_a_group``
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from ..errors import InvalidMoveError, describe
from .tiles import COLOURS, JOKER, colour_of, number_of, parse_code

KINDS = ("run", "group")
MAX_MELD = 13


class MeldError(ValueError):
    """A list of tiles that is not a valid meld; ``why`` is a stable reason key."""

    def __init__(self, why: str, message: str) -> None:
        super().__init__(message)
        self.why = why
        self.message = message


@dataclass(frozen=True)
class Meld:
    """A meld as the player wrote it: tiles in order and the kind it is read as."""

    kind: str
    tiles: tuple[str, ...]

    def text(self) -> str:
        body = " ".join(self.tiles)
        return f"{self.kind}: {body}" if self.needs_declaration() else body

    def needs_declaration(self) -> bool:
        """True when a plain list of these tiles would be read as the other kind."""
        return self.kind == "group" and is_valid_run(self.tiles)

    def to_json(self) -> list[str] | dict[str, list[str]]:
        if self.needs_declaration():
            return {self.kind: list(self.tiles)}
        return list(self.tiles)

    def canonical(self) -> tuple[str, tuple[str, ...]]:
        """Equal for melds that are the same set (a group's order does not matter)."""
        if self.kind == "group":
            return (self.kind, tuple(sorted(self.tiles)))
        return (self.kind, self.tiles)


@dataclass(frozen=True)
class Reading:
    """What a valid meld is: its kind, number or run start, colours and joker choices."""

    kind: str
    number: int  # a group's number, or the first number of a run
    colour: int  # a run's colour; -1 for a group
    length: int
    jokers: int
    missing: tuple[int, ...]  # a group: the colours none of its numbered tiles has
    positions: tuple[int, ...] = ()  # a run: the indices of its jokers

    def joker_options(self) -> list[tuple[int, ...]]:
        """Every way to say what the jokers stand for, as sorted tuples of slots."""
        if self.jokers == 0:
            return [()]
        if self.kind == "run":
            return [tuple(self.colour * 13 + n - 1 for n in self.joker_numbers())]
        return [
            tuple(c * 13 + self.number - 1 for c in chosen)
            for chosen in combinations(self.missing, self.jokers)
        ]

    def joker_numbers(self) -> list[int]:
        """A run's jokers: the numbers they stand for."""
        return [self.number + i for i in self.positions]

    def value(self, tiles: Sequence[str], joker_counts: bool) -> int:
        """The meld's points for an initial meld: numbers, a joker 0 or what it stands for."""
        if self.kind == "group":
            count = self.length if joker_counts else self.length - self.jokers
            return self.number * count
        total = 0
        for i, tile in enumerate(tiles):
            if tile != JOKER or joker_counts:
                total += self.number + i
        return total


def read_run(tiles: Sequence[str]) -> Reading:
    """The run ``tiles`` form, or MeldError saying why not."""
    if len(tiles) < 3:
        raise MeldError("too_short", f"a run has at least 3 tiles, not {len(tiles)}")
    if len(tiles) > MAX_MELD:
        raise MeldError("too_long", f"a run has at most 13 tiles, not {len(tiles)}")
    naturals = [(i, t) for i, t in enumerate(tiles) if t != JOKER]
    if not naturals:
        raise MeldError("too_many_jokers", "a meld needs at least one numbered tile")
    colours = {colour_of(t) for _, t in naturals}
    if len(colours) > 1:
        raise MeldError("mixed_colours", "a run's tiles all have one colour")
    starts = {number_of(t) - i for i, t in naturals}
    if len(starts) > 1:
        raise MeldError("not_consecutive", "a run's numbers go up by one, in order")
    start = starts.pop()
    if start < 1 or start + len(tiles) - 1 > 13:
        raise MeldError(
            "out_of_range", "a run stays within 1..13 (a joker is never 0 or 14; no wrap-around)"
        )
    positions = tuple(i for i, t in enumerate(tiles) if t == JOKER)
    return Reading(
        kind="run",
        number=start,
        colour=colours.pop(),
        length=len(tiles),
        jokers=len(positions),
        missing=(),
        positions=positions,
    )


def read_group(tiles: Sequence[str]) -> Reading:
    """The group ``tiles`` form, or MeldError saying why not."""
    if len(tiles) < 3:
        raise MeldError("too_short", f"a group has at least 3 tiles, not {len(tiles)}")
    naturals = [t for t in tiles if t != JOKER]
    if not naturals:
        raise MeldError("too_many_jokers", "a meld needs at least one numbered tile")
    numbers = {number_of(t) for t in naturals}
    if len(numbers) > 1:
        raise MeldError("mixed_colours", "a group's tiles all have one number")
    if len(tiles) > 4:
        raise MeldError("too_long", f"a group has at most 4 tiles, not {len(tiles)}")
    colours = [colour_of(t) for t in naturals]
    if len(set(colours)) < len(colours):
        raise MeldError("repeated_colour", "a group's tiles have different colours")
    missing = tuple(c for c in range(len(COLOURS)) if c not in colours)
    return Reading(
        kind="group",
        number=numbers.pop(),
        colour=-1,
        length=len(tiles),
        jokers=len(tiles) - len(naturals),
        missing=missing,
    )


def read_meld(tiles: Sequence[str], kind: str | None = None) -> Reading:
    """How ``tiles`` read as a meld (of the declared ``kind``, if given); else MeldError."""
    if kind == "run":
        return read_run(tiles)
    if kind == "group":
        return read_group(tiles)
    if tiles.count(JOKER) > 2:
        raise MeldError("too_many_jokers", "there are only two jokers")
    try:
        return read_run(tiles)
    except MeldError as run_error:
        try:
            return read_group(tiles)
        except MeldError as group_error:
            raise best_error(tiles, run_error, group_error) from None


def best_error(tiles: Sequence[str], run_error: MeldError, group_error: MeldError) -> MeldError:
    """The more helpful of the two reasons: what the tiles were evidently meant to be."""
    naturals = [t for t in tiles if t != JOKER]
    same_number = len({number_of(t) for t in naturals}) == 1
    same_colour = len({colour_of(t) for t in naturals}) == 1
    if len(tiles) < 3:
        return run_error
    if same_number and not (same_colour and len(naturals) == 1):
        return group_error
    if same_colour:
        return run_error
    return MeldError(
        "mixed_colours",
        "a meld is a run (one colour, consecutive numbers) or a group (one number, "
        "different colours)",
    )


def is_valid_run(tiles: Sequence[str]) -> bool:
    try:
        read_run(tiles)
    except MeldError:
        return False
    return True


def make_meld(tiles: Sequence[str], kind: str | None = None) -> tuple[Meld, Reading]:
    reading = read_meld(tiles, kind)
    return Meld(reading.kind, tuple(tiles)), reading


def joker_options(meld: Meld) -> list[tuple[int, ...]]:
    """The tuples of slots the meld's jokers may stand for (the meld must be valid)."""
    return read_meld(meld.tiles, meld.kind).joker_options()


def meld_value(meld: Meld, joker_counts: bool) -> int:
    return read_meld(meld.tiles, meld.kind).value(meld.tiles, joker_counts)


def describe_jokers(meld: Meld) -> list[dict[str, Any]]:
    """For views: per joker of the meld, the number and the colours it may stand for (not as
    tile codes: a joker's meaning is not a tile anyone holds)."""
    reading = read_meld(meld.tiles, meld.kind)
    if reading.kind == "run":
        colour = COLOURS[reading.colour]
        return [{"number": n, "colours": [colour]} for n in reading.joker_numbers()]
    colours = [COLOURS[c] for c in reading.missing]
    return [{"number": reading.number, "colours": colours} for _ in range(reading.jokers)]


def parse_meld(data: Any, where: str) -> tuple[tuple[str, ...], str | None]:
    """A meld from JSON: a list of codes, or ``{"group": [...]}`` / ``{"run": [...]}``.

    Returns the tiles and the declared kind (None when not declared). Malformed input raises
    ``invalid_move``; whether the tiles make a valid meld is for the rules to say.
    """
    kind: str | None = None
    if isinstance(data, dict):
        if len(data) != 1 or next(iter(data)) not in KINDS:
            raise InvalidMoveError(
                f'{where}: a meld is a list of tiles or {{"group": [...]}} / {{"run": [...]}}; '
                f"got {describe(data)}"
            )
        kind, data = next(iter(data.items()))
    if not isinstance(data, list) or len(data) > 2 * MAX_MELD:
        raise InvalidMoveError(f"{where}: a meld is a list of tiles; got {describe(data)}")
    return tuple(parse_code(t, where) for t in data), kind


def parse_meld_text(text: str, where: str) -> tuple[tuple[str, ...], str | None]:
    """A meld from its text form: ``R1 R2 R3`` or ``group: R5 * *``."""
    kind: str | None = None
    body = text.strip()
    for name in KINDS:
        if body.startswith(name + ":"):
            kind, body = name, body[len(name) + 1 :]
    return tuple(parse_code(t, where) for t in body.split()), kind
