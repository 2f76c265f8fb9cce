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


def reference_shuffle(rng: Rng, items: list[int]) -> None:
    """Plain Fisher-Yates on ``below``: what ``Rng.shuffle`` must equal, draw for draw."""
    for i in range(len(items) - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]


@pytest.mark.parametrize("length", [0, 1, 2, 3, 17, 60, 63, 64, 65, 106, 200])
def test_shuffle_equals_fisher_yates_on_below(length: int) -> None:
    for k in range(40):
        fast, slow = Rng.derive("shuffle", length, k), Rng.derive("shuffle", length, k)
        a, b = list(range(length)), list(range(length))
        fast.shuffle(a)
        reference_shuffle(slow, b)
        assert a == b and fast.state == slow.state, (length, k)


def test_batched_draws_are_the_next_outputs() -> None:
    from tapete.rng import draws

    for state in (0, 1, 0xFFFFFFFFFFFFFFFF, 0x123456789ABCDEF0, Rng.derive("lanes").state):
        rng = Rng(state)
        assert list(draws(state, 63)) == [rng.next_u64() for _ in range(63)]
