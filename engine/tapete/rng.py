"""Our own seeded pseudo-random generator.

Python's ``random`` module does not promise the same shuffle across versions, and a shared deal
link must deal the same cards forever, in CPython and in Pyodide. So every deal uses this small
SplitMix64 generator (Steele, Lea and Flood, 2014), whose whole state is one 64-bit integer that
can live inside a game state, and whose streams are derived from text labels with SHA-256:

    rng = Rng.derive("wizard", seed, "round", 7)   # the cards of round 7 of this seed

Deals derive from the seed and the round alone, never from the course of play, and bots draw
from streams of their own, so a bot's choices never shift the cards. Golden tests pin outputs.
"""

from __future__ import annotations

import hashlib
import re
import sys
from array import array
from bisect import bisect_left
from collections.abc import MutableSequence, Sequence
from functools import lru_cache
from typing import TypeVar

T = TypeVar("T")

MASK64 = (1 << 64) - 1
TWO64 = 1 << 64
GOLDEN_GAMMA = 0x9E3779B97F4A7C15  # the constants are written out in the hot methods below

SEED_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
SEED_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # no 0/O or 1/I: easy to read aloud


class Rng:
    """SplitMix64. ``state`` is the whole state; copy it to fork a stream."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & MASK64

    @classmethod
    def derive(cls, *labels: object) -> Rng:
        """A stream named by labels (strings and ints), stable across platforms."""
        text = "\x1f".join(str(label) for label in labels)
        digest = hashlib.sha256(text.encode("utf-8")).digest()
        return cls(int.from_bytes(digest[:8], "big"))

    # The methods below inline the SplitMix64 step (``state += gamma``, then the mix) with
    # literal constants and a local state: the bots draw millions of numbers per game in pure
    # Python, and the outputs are exactly those of ``next_u64`` (tests/test_rng.py pins them).

    def next_u64(self) -> int:
        z = self.state = (self.state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in 0..n-1 (rejection sampling: no modulo bias)."""
        if n <= 0:
            raise ValueError(f"below() needs n > 0, got {n}")
        limit = TWO64 - TWO64 % n  # the largest multiple of n that fits: draws from it are fair
        state = self.state
        while True:
            state = (state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
            z ^= z >> 31
            if z < limit:
                self.state = state
                return z % n

    def random(self) -> float:
        """A float in [0, 1) with 53 random bits."""
        return (self.next_u64() >> 11) / float(1 << 53)

    def choice(self, items: Sequence[T]) -> T:
        if not items:
            raise ValueError("choice() from an empty sequence")
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, in place: for i from the end down to 1, swap items i and below(i + 1).

        Up to 64 items, when no draw can be rejected (see :meth:`skip_shuffle`), the draws are
        made all at once by :func:`draws`; else one by one.
        """
        length = len(items)
        state = self.state
        if 1 < length <= RARE_OUTPUTS and not rare_state_within(state, length - 1):
            for i, z in zip(range(length - 1, 0, -1), draws(state, length - 1), strict=True):
                j = z % (i + 1)
                items[i], items[j] = items[j], items[i]
            self.state = (state + (length - 1) * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
            return
        for i in range(length - 1, 0, -1):
            n = i + 1
            limit = TWO64 - TWO64 % n
            while True:  # below(n), inlined
                state = (state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
                z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
                z ^= z >> 31
                if z < limit:
                    break
            j = z % n
            items[i], items[j] = items[j], items[i]
        self.state = state

    def skip_shuffle(self, length: int) -> None:
        """Advance the stream exactly as shuffling ``length`` items would, without the items.

        For a shuffle whose order nobody needs but whose draws must still happen, so that every
        later draw stays the same. Such a shuffle makes ``length - 1`` draws, one per item but
        the first, unless ``below`` rejects one; and a draw for ``below(n)`` with ``n <= 64`` can
        only be rejected if its output is one of the 64 largest 64-bit values. The states that
        give those outputs are known (:func:`rare_states`), so when none of them lies among the
        next ``length - 1`` states, the state simply moves on by ``length - 1`` steps; else
        (about once in 10**16 shuffles) the draws are made one by one.
        """
        state = self.state
        if length <= RARE_OUTPUTS:
            steps = max(0, length - 1)
            if not rare_state_within(state, steps):
                self.state = (state + steps * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
                return
        for n in range(length, 1, -1):
            limit = TWO64 - TWO64 % n
            while True:
                state = (state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
                z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
                if (z ^ (z >> 31)) < limit:
                    break
        self.state = state

    def shuffled(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        self.shuffle(out)
        return out

    def fork(self, *labels: object) -> Rng:
        """An independent stream derived from this one's state and labels."""
        return Rng.derive(self.state, *labels)


# -- skipping draws -----------------------------------------------------------------------------
#
# A draw moves the state on by GOLDEN_GAMMA and outputs mix(state). Both steps can be undone:
# GOLDEN_GAMMA is odd, so it has an inverse modulo 2**64, and mix is a bijection (xor-shifts and
# odd multipliers). So the states whose outputs are the RARE_OUTPUTS largest values can be
# computed, and "is the k-th next state one of them?" answered with arithmetic, not draws.

RARE_OUTPUTS = 64
GAMMA_INVERSE = pow(GOLDEN_GAMMA, -1, TWO64)


def mix(z: int) -> int:
    """SplitMix64's output function (``next_u64`` after it moves the state)."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def unmix(z: int) -> int:
    """The inverse of :func:`mix`."""
    z ^= (z >> 31) ^ (z >> 62)
    z = (z * pow(0x94D049BB133111EB, -1, TWO64)) & MASK64
    z ^= (z >> 27) ^ (z >> 54)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, TWO64)) & MASK64
    return z ^ (z >> 30) ^ (z >> 60)


@lru_cache(maxsize=1)
def rare_states() -> tuple[int, ...]:
    """The states that output one of the RARE_OUTPUTS largest values, as step counts.

    A state s is given as ``s * GOLDEN_GAMMA**-1 mod 2**64``: the number of draws that lead
    from state 0 to it. Sorted, so that :func:`rare_state_within` can bisect.
    """
    outputs = range(TWO64 - RARE_OUTPUTS, TWO64)
    return tuple(sorted(unmix(z) * GAMMA_INVERSE & MASK64 for z in outputs))


def rare_state_within(state: int, steps: int) -> bool:
    """Whether one of the next ``steps`` draws from ``state`` outputs a rare value."""
    if steps <= 0:
        return False
    positions = rare_states()
    first = (state * GAMMA_INVERSE + 1) & MASK64  # the position of the first draw's state
    last = first + steps - 1
    if last < TWO64:
        i = bisect_left(positions, first)
        return i < len(positions) and positions[i] <= last
    # the window wraps around 2**64
    return bisect_left(positions, first) < len(positions) or positions[0] <= last - TWO64


# -- many draws at once -------------------------------------------------------------------------
#
# A shuffle of up to 64 items makes up to 63 draws from consecutive states. Python spends most
# of a draw's time interpreting its dozen operations, not computing them, so the draws are made
# together: the states sit in 128-bit lanes of one big int (lane k holds the state after k + 1
# draws, in its low 64 bits), and each step of the mix is one operation on the whole int. A
# lane's product fits in its 128 bits, and masking every shift (``& low``) stops bits from
# crossing into the next lane, so each lane computes exactly what ``next_u64`` would.


@lru_cache(maxsize=64)
def lanes(count: int) -> tuple[int, int, int]:
    """For ``count`` lanes: a 1 in each lane, k * GOLDEN_GAMMA in lane k - 1, 64 ones in each."""
    ones = sum(1 << (128 * k) for k in range(count))
    steps = sum((k + 1) << (128 * k) for k in range(count))
    return ones, steps * GOLDEN_GAMMA, ones * MASK64


def draws(state: int, count: int) -> Sequence[int]:
    """The next ``count`` outputs of ``next_u64`` from ``state`` (the state is not moved)."""
    ones, gammas, low = lanes(count)
    z = (state * ones + gammas) & low  # lane k: (state + (k + 1) * gamma) mod 2**64
    z = ((z ^ ((z >> 30) & low)) * 0xBF58476D1CE4E5B9) & low
    z = ((z ^ ((z >> 27) & low)) * 0x94D049BB133111EB) & low
    z ^= (z >> 31) & low
    # each lane is two 64-bit words, the output first: laid out little-endian, read as words
    raw = z.to_bytes(16 * count, "little")
    if sys.byteorder == "little":
        return memoryview(raw).cast("Q")[::2]
    words = array("Q", raw)  # a big-endian machine reads each word byte-reversed: swap back
    words.byteswap()
    return words[::2]


def new_seed(rng: Rng, length: int = 6) -> str:
    """A short seed that reads well aloud (used by tools; the page makes its own)."""
    return "".join(SEED_ALPHABET[rng.below(len(SEED_ALPHABET))] for _ in range(length))


def is_valid_seed(seed: object) -> bool:
    return isinstance(seed, str) and SEED_PATTERN.match(seed) is not None
