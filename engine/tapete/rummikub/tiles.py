"""Rummikub tiles and their codes (SPEC.md section 7).

Glossary:

code      the text of a tile: a colour letter then a number, ``K13``, ``R7``; a joker is ``*``.
          The two copies of a tile share one code, so a rack or a table is a multiset of codes
colour    ``K`` black, ``R`` red, ``B`` blue, ``Y`` yellow (indices 0..3 in that order)
slot      a (colour, number) pair as one int, ``colour * 13 + number - 1`` (0..51); the solver
          counts tiles per slot
value     a tile's number; a joker left on a rack costs ``joker_rack_penalty`` (30 by default)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from ..errors import InvalidMoveError, describe

COLOURS = "KRBY"
NUMBERS = range(1, 14)
JOKER = "*"
SLOTS = 52

CODES: tuple[str, ...] = tuple(f"{c}{n}" for c in COLOURS for n in NUMBERS)
CODE_SET = frozenset(CODES) | {JOKER}
SLOT_OF: dict[str, int] = {code: i for i, code in enumerate(CODES)}
# the full set of 106 tiles, in a fixed order (shuffles start from it)
FULL_SET: tuple[str, ...] = CODES + CODES + (JOKER, JOKER)


def is_code(text: object) -> bool:
    return isinstance(text, str) and text in CODE_SET


def colour_of(code: str) -> int:
    return COLOURS.index(code[0])


def number_of(code: str) -> int:
    """The tile's number; 0 for a joker."""
    return 0 if code == JOKER else int(code[1:])


def code_of(colour: int, number: int) -> str:
    return f"{COLOURS[colour]}{number}"


def slot_code(slot: int) -> str:
    return CODES[slot]


def rack_value(tiles: Iterable[str], joker_penalty: int = 30) -> int:
    """What tiles left on a rack cost: their numbers, a joker ``joker_penalty``."""
    return sum(joker_penalty if t == JOKER else number_of(t) for t in tiles)


def sort_key(code: str) -> tuple[int, int]:
    """Colour then number, jokers last: the order racks and logs use."""
    if code == JOKER:
        return (len(COLOURS), 0)
    return (colour_of(code), number_of(code))


def sorted_tiles(tiles: Iterable[str]) -> list[str]:
    return sorted(tiles, key=sort_key)


def parse_code(value: object, where: str = "tile") -> str:
    """``value`` checked to be a tile code, else ``invalid_move`` quoting it."""
    if not is_code(value):
        raise InvalidMoveError(
            f"{where}: not a Rummikub tile {describe(value)} (tiles are K1..K13, R1..R13, "
            f"B1..B13, Y1..Y13 and the joker *)",
            tile=str(value)[:12],
        )
    return str(value)


def multiset_minus(big: Counter[str], small: Counter[str]) -> Counter[str]:
    """``big - small`` keeping only positive counts (as ``Counter.__sub__``)."""
    return big - small


def contains(big: Sequence[str] | Counter[str], small: Iterable[str]) -> bool:
    """True when the multiset ``small`` fits inside ``big``."""
    have = big if isinstance(big, Counter) else Counter(big)
    need = Counter(small)
    return all(have[k] >= v for k, v in need.items())
