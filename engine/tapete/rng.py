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
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15

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

    def next_u64(self) -> int:
        self.state = (self.state + GOLDEN_GAMMA) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in 0..n-1 (rejection sampling: no modulo bias)."""
        if n <= 0:
            raise ValueError(f"below() needs n > 0, got {n}")
        limit = ((1 << 64) // n) * n
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def random(self) -> float:
        """A float in [0, 1) with 53 random bits."""
        return (self.next_u64() >> 11) / float(1 << 53)

    def choice(self, items: Sequence[T]) -> T:
        if not items:
            raise ValueError("choice() from an empty sequence")
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        self.shuffle(out)
        return out

    def fork(self, *labels: object) -> Rng:
        """An independent stream derived from this one's state and labels."""
        return Rng.derive(self.state, *labels)


def new_seed(rng: Rng, length: int = 6) -> str:
    """A short seed that reads well aloud (used by tools; the page makes its own)."""
    return "".join(SEED_ALPHABET[rng.below(len(SEED_ALPHABET))] for _ in range(length))


def is_valid_seed(seed: object) -> bool:
    return isinstance(seed, str) and SEED_PATTERN.match(seed) is not None
