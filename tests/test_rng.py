"""The PRNG is ours, so its outputs are pinned forever: links must deal the same cards."""

from __future__ import annotations

from collections import Counter

import pytest

from tapete.rng import Rng, is_valid_seed, new_seed


def test_splitmix64_reference_vector() -> None:
    # SplitMix64 from state 0 (the published reference implementation's first outputs).
    rng = Rng(0)
    assert [rng.next_u64() for _ in range(3)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]


def test_derive_is_pinned() -> None:
    # Golden values: if these change, every shared link deals different cards.
    assert (
        Rng.derive("wizard", "K7QX2M", "round", 1).state
        == Rng.derive("wizard", "K7QX2M", "round", 1).state
    )
    assert Rng.derive("golden").next_u64() == 0x0DB4EAF049FC71EE
    assert Rng.derive("golden").shuffled(list(range(10))) == [6, 9, 0, 2, 5, 3, 4, 7, 1, 8]


def test_below_is_uniform_enough() -> None:
    rng = Rng.derive("uniform")
    counts = Counter(rng.below(6) for _ in range(60_000))
    assert set(counts) == set(range(6))
    assert all(9_400 < c < 10_600 for c in counts.values())


def test_below_rejects_bad_bounds() -> None:
    with pytest.raises(ValueError):
        Rng(1).below(0)


def test_shuffle_is_a_permutation() -> None:
    items = list(range(100))
    assert sorted(Rng.derive("perm").shuffled(items)) == items


def test_seeds() -> None:
    seed = new_seed(Rng.derive("seed"))
    assert is_valid_seed(seed) and len(seed) == 6
    for bad in ("", "x" * 33, "a b", "ñ", None, 5, "../x"):
        assert not is_valid_seed(bad)
