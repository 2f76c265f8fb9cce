"""tapete.willie.solve: the exact best meld phase, proven against an independent brute-force
oracle (tests/willie_oracle.py) on many small generated positions, and always a move that the
game's check accepts."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from tapete.errors import InvalidMoveError
from tapete.willie import DECK, GAME, Solution, check_phase, solve
from willie_oracle import oracle, random_position

POSITIONS = 240


def accepted(table: list[tuple[str, ...]], hand: list[str], found: Solution, **o: Any) -> None:
    """The solution is a legal phase, both for check_phase and for the game itself."""
    options = {**GAME.parse_options(None), **o}
    old = tuple(tuple(m) for m in table)
    check_phase(old, hand, found.table, found.from_hand, options)
    state = GAME.new_game("SOLVE", o or None, 2)
    used = Counter(hand) + Counter(t.split(":")[0] for m in table for t in m)
    rest = list((Counter(DECK) - used).elements())
    state = replace(
        state,
        hands=(tuple(hand), tuple(rest)),
        stock=(),
        table=tuple(tuple(sorted(m, key=_key)) for m in table),
        turn=0,
        phase="final",
        stock_out_by=1,
        final_left=2,
    )
    state = GAME.from_json(GAME.to_json(state))
    GAME.check(state, 0, found.move)
    left = Counter(hand) - Counter(found.from_hand)
    assert sum(found.from_hand.count(c) for c in set(found.from_hand)) == len(found.from_hand)
    assert sum(left.values()) == len(hand) - len(found.from_hand)


def _key(token: str) -> int:
    from tapete.willie.melds import sort_key

    return sort_key(token)


def test_solver_matches_the_oracle() -> None:
    agree = 0
    for i in range(POSITIONS):
        table, hand = random_position(random.Random(i))
        expected = oracle(table, hand)
        found = solve(table, hand)
        got = None if found is None else (found.points, found.changes)
        assert got == expected, (i, table, hand, found)
        if found is not None:
            accepted(table, hand, found)
        agree += 1
    assert agree == POSITIONS


@pytest.mark.parametrize(
    ("options", "oracle_args"),
    [({"max_group_size": 5}, {"gmax": 5}), ({"willie_enabled": False}, {"willie": False})],
)
def test_solver_matches_the_oracle_with_options(
    options: dict[str, Any], oracle_args: dict[str, Any]
) -> None:
    for i in range(1000, 1040):
        table, hand = random_position(random.Random(i))
        if not oracle_args.get("willie", True):
            table = [m for m in table if sorted(m) != ["J", "K", "Q"]]
        expected = oracle(table, hand, **oracle_args)
        found = solve(table, hand, options=options)
        got = None if found is None else (found.points, found.changes)
        assert got == expected, (i, table, hand, found)
        if found is not None:
            accepted(table, hand, found, **options)


def test_fast_mode_sheds_as_much_and_must_change_option_is_legal() -> None:
    for i in range(2000, 2040):
        table, hand = random_position(random.Random(i))
        exact = solve(table, hand)
        fast = solve(table, hand, exact=False)
        assert (exact is None) == (fast is None)
        if exact is not None and fast is not None:
            assert fast.points == exact.points and fast.changes >= exact.changes
            accepted(table, hand, fast)
        strict = solve(table, hand, options={"freed_wild_must_change_meld": True})
        if strict is not None:
            accepted(table, hand, strict, freed_wild_must_change_meld=True)


def test_known_positions() -> None:
    best = solve([], ["R2", "R3", "R4", "O5", "Y5", "G5", "J", "Q", "K", "B9"])
    assert best is not None and best.points == 16 and best.changes == 0
    assert "B9" not in best.from_hand and ("J", "Q", "K") in best.table
    # a wild stands for R8 until the real R8 frees it; the K is then placed again
    freed = solve([["R7", "K:R8", "R9"]], ["R8", "B2", "B3"])
    assert freed is not None and freed.points == 3 and freed.changes == 1
    assert sorted(freed.from_hand) == ["B2", "B3", "R8"]
    # extending one meld is one change; nothing fits: None
    ext = solve([["R2", "R3", "R4"], ["O7", "Y7", "G7"]], ["R5"])
    assert ext is not None and ext.changes == 1 and ("O7", "Y7", "G7") in ext.table
    assert solve([["R2", "R3", "R4"]], ["B9"]) is None
    assert solve([["J", "Q", "K"]], ["R4", "R5"]) is None
    # a forced wild (its card is elsewhere) must keep its declaration
    kept = solve([["O5", "Y5", "K:G5"]], ["B5", "R5"])
    assert kept is not None and any("K:G5" in m for m in kept.table)
    assert kept.points == 1 and kept.changes == 1  # a group holds four cards at most
    # W-5: a Willie cannot be extended, but it can be broken up
    broken = solve([["J", "Q", "K"]], ["R2", "R3", "O2", "O3", "Y5", "Y6"])
    assert broken is not None and broken.points == 6 and ("J", "Q", "K") not in broken.table


def test_move_json_and_bad_input() -> None:
    found = solve([["R2", "R3", "R4"]], ["R5", "K"])
    assert found is not None
    data = found.to_json()
    assert set(data["play"]) == {"table", "from_hand"} and data["points"] == 6
    assert GAME.parse_move(found.move.to_json()) == found.move
    with pytest.raises(InvalidMoveError):
        solve([["R2", "R3"]], ["R5"])
    with pytest.raises(InvalidMoveError):
        solve([["R2", "R3", "R4"]], ["R2"])
    with pytest.raises(InvalidMoveError):
        solve([], ["K:R2"])
