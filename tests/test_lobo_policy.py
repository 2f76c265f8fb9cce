"""The hint policy plays exactly as it did before it was made faster: the move sequences of
seeded games recorded with the code as it stood before the speed work (issue 5), replayed.

The recording (the first 6 seeds of 12 per difficulty, and a Classic game) was made with the
unchanged engine; a further check over 300 seeded games (100 per difficulty) and 8 Classic games,
comparing every analysed position's odds as well, is described in BENCHMARKS.md. A change that
alters a decision of the hint (the search order, a budget, a tie-break) fails here: re-record
only when the change is meant to change the policy, and say so."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from tapete.bots import choose_move
from tapete.lobo import GAME
from tapete.lobo.solver import UNIT, cards, count, pack, sub_multisets_of_total, total

RECORDED: list[tuple[str, dict[str, Any], str]] = [
    (
        "P0",
        {"difficulty": "EASY"},
        (
            "over 3S>AS;perfect 7S>7C;perfect AH>AD;over 6D>5H;perfect 3H>3D;perfect 4H>4S;"
            "perfect 8C>8D;reserve 6H;perfect 2D>2H;over 8S>7D;perfect 5C>5D;perfect 6H>6C;"
            "sum 3C+AC>4C;reserve 2C;perfect 2C>2S;sacrifice JS>5S"
        ),
    ),
    (
        "P1",
        {"difficulty": "EASY"},
        (
            "perfect 5H>5S;perfect 6D>6H;over 3C>2H;perfect 7C>7S;fold;split 8H>4H+2S+2D;"
            "sum 3H+AH>4S;fold;perfect 3D>3S;fold"
        ),
    ),
    (
        "P2",
        {"difficulty": "EASY"},
        ("sum 4S+2H>6S;sum 3S+2D>5S;over 8D>6C;fold"),
    ),
    (
        "P3",
        {"difficulty": "EASY"},
        (
            "perfect 5D>5C;split 7D>6S+AD;over 8H>6D;sum 2S+2D>4C;fold;perfect 2H>2C;"
            "perfect 8D>8S;over 5S>AH;perfect 3C>3D;sum 5H+3H>8C;over 7S>6H;perfect 7C>7H;"
            "fold"
        ),
    ),
    (
        "P4",
        {"difficulty": "EASY"},
        ("perfect 5D>5S;split 8S>7H+AH;perfect 2S>2D;over 3S>AC;over 8D>6S;over 4C>3H;fold"),
    ),
    (
        "P5",
        {"difficulty": "EASY"},
        (
            "split 6C>5S+AH;perfect 2C>2D;perfect 8C>8S;over 7S>5C;over 3S>AC;perfect 4S>4H;"
            "fold;split 5D>3C+2H;sum 4D+4C>8D;perfect 6H>6S;over 3D>AS;perfect 7D>7H;fold"
        ),
    ),
    (
        "P0",
        {"difficulty": "STANDARD"},
        (
            "perfect AH>AD;perfect 5C>5S;perfect 7S>7D;over 5D>4H;over 8D>7C;sum 2C+AS>3H;"
            "reserve AC;perfect 6H>6S;perfect 3C>3S;sum 8S+AC>9S;sum 5H+2D>7H;reserve 4S;"
            "perfect 4D>4C;sum 6D+3D>9H;sum 4S+2S+2H>8C;sacrifice JS>9D"
        ),
    ),
    (
        "P1",
        {"difficulty": "STANDARD"},
        (
            "perfect 7D>7H;perfect 9C>9S;sum 5C+4S>9H;sum 2C+AH>3C;reserve 2S;perfect 3S>3H;"
            "perfect 7C>7S;perfect 8C>8D;sum 6S+2S+AC>9D;reserve 2H;over 6H>5H;perfect 8H>8S;"
            "perfect AD>AS;perfect 2H>2D;sacrifice JS>6C"
        ),
    ),
    (
        "P2",
        {"difficulty": "STANDARD"},
        ("over 2S>AD;perfect 9C>9H;perfect 3D>3H;over 7S>4S;sum 4H+4C>8S;fold"),
    ),
    (
        "P3",
        {"difficulty": "STANDARD"},
        (
            "split 7H>4D+2H+AC;perfect 2S>2D;sum 5S+AD>6H;reserve 9D;over 5D>4S;"
            "perfect 3H>3C;perfect 7D>7C;perfect 9D>9H;sum 8D+AH>9C;reserve AS;sum 5H+AS>6S;"
            "sum 4H+2C>6C;perfect 8C>8H;sum 4C+3S>7S"
        ),
    ),
    (
        "P4",
        {"difficulty": "STANDARD"},
        (
            "over 6H>5S;split 3D>2H+AH;perfect 7S>7H;perfect 5C>5D;fold;sum 7C+AC>8S;"
            "split 3H>2D+AD;split 6C>4S+2C;fold;perfect 8H>8C;sum 4H+2S>6S;perfect 9S>9H;"
            "fold"
        ),
    ),
    (
        "P5",
        {"difficulty": "STANDARD"},
        (
            "perfect 6S>6H;over 7D>5S;perfect 6C>6D;sum 4D+3D+AC>8S;fold;perfect 2H>2D;"
            "over 4C>3C;perfect 5H>5D;perfect 7S>7C;sum 3S+AD>4H;revive JS;perfect 8H>8C;"
            "perfect 9S>9C;sum AS+AH>2S;sacrifice JS>2C"
        ),
    ),
    (
        "P0",
        {"difficulty": "HARD"},
        ("split 3S>2D+AD;perfect 7C>7S;perfect 10H>10S;fold;sum 4S+4C+AC>9H;sum 3C+2C>5D;fold"),
    ),
    (
        "P1",
        {"difficulty": "HARD"},
        (
            "split 6S>4S+2D;sum 8D+2C>10S;fold;perfect 2S>2H;split 9H>5S+4H;over 6H>4D;"
            "over 9D>5H;perfect 3C>3S;perfect 8H>8C;perfect 7D>7C;fold"
        ),
    ),
    (
        "P2",
        {"difficulty": "HARD"},
        (
            "split 9H>7S+2S;perfect 2D>2C;over 8D>6H;over 2H>AS;perfect 5H>5C;fold;"
            "perfect 4C>4S;split 8C>7C+AD;perfect 9S>9D;perfect 10S>10C;revive JS;"
            "perfect 3S>3C;perfect 5S>5D;over 6D>4H;perfect AH>AC;fold"
        ),
    ),
    (
        "P3",
        {"difficulty": "HARD"},
        (
            "split 8C>7D+AH;perfect 2D>2S;over 5S>4H;over 3C>2C;fold;perfect 4S>4C;"
            "perfect 9C>9D;sum 8H+2H>10C;over 9S>8D;over 7S>6H;over 4D>3D;fold"
        ),
    ),
    (
        "P4",
        {"difficulty": "HARD"},
        (
            "sum 3S+3D>6C;over 7S>2D;perfect 2H>2C;perfect 5C>5H;perfect 8H>8S;"
            "perfect 10H>10C;perfect 4S>4C;sum 7D+2S>9S;fold;split 5S>4H+AH;perfect 3H>3C;"
            "over 6H>AD;perfect 8C>8D;split 9H>7H+AS+AC;perfect 10S>10D;fold"
        ),
    ),
    (
        "P5",
        {"difficulty": "HARD"},
        (
            "split 10D>8D+2S;perfect 9D>9S;over 7S>6H;perfect AC>AH;fold;split 7H>6C+AD;"
            "perfect 3S>3H;over 4C>3D;over 5D>4H;over 7D>2C;fold"
        ),
    ),
    (
        "P0",
        {"difficulty": "STANDARD", "mode": "CLASSIC_LOBO"},
        (
            "over 4H>3H;perfect 5S>5H;perfect 8H>8S;over 4C>3C;over 2H>AC;perfect AH>AS;fold;"
            "perfect 7S>7C;sum 6D+3C>9D;sum 3H+2D>5S;fold;split 9S>4S+3D+2S;sum 5H+3S>8C;"
            "perfect 6D>6C;perfect 2S>2D;sum 6C+3S>9D;perfect AS>AD;over 9C>8S;fold;"
            "over 3S>2C;perfect 5S>5D;perfect 8S>8C;sum 6S+3H>9H;fold;split 6C>3D+2S+AD;"
            "over 4D>3S;perfect 3H>3C;perfect 5D>5H;split 2H>AD+AC;over 8C>7C;over 6S>4D;"
            "perfect 4S>4H;perfect 9S>9D;fold;over 8S>7S;perfect 6S>6D;fold;sum 3H+AS>4D;"
            "perfect 6H>6S;sum 5S+3C>8S;fold;over 2D>AD;perfect 4S>4H;sum 6H+2C>8H;"
            "sum 7H+AS>8D;fold;perfect 4C>4H;over 3C>2D;over 5H>3D;fold;over 9S>6S;"
            "split 8S>6H+AH+AC;sum 2H+2D>4H;fold"
        ),
    ),
]


def hint_game(seed: str, options: dict[str, Any]) -> list[str]:
    state = GAME.new_game(seed, options)
    moves: list[str] = []
    while GAME.to_move(state) is not None:
        move = choose_move(GAME, state, 0, "best", (seed, len(moves)))
        moves.append(move.text())
        state = GAME.apply(state, 0, move)
    return moves


@pytest.mark.parametrize(("seed", "options", "recorded"), RECORDED)
def test_the_hint_plays_as_recorded(seed: str, options: dict[str, Any], recorded: str) -> None:
    assert hint_game(seed, options) == recorded.split(";")


def test_the_recording_covers_every_difficulty_and_both_modes() -> None:
    assert {o.get("difficulty") for _s, o, _m in RECORDED} == {"EASY", "STANDARD", "HARD"}
    assert any(o.get("mode") == "CLASSIC_LOBO" for _s, o, _m in RECORDED)
    assert sum(len(m.split(";")) for _s, _o, m in RECORDED) > 200


# -- the fast helpers behind it, against the obvious ------------------------------------------


def test_sub_multisets_of_total_against_brute_force() -> None:
    rng = random.Random(5)
    for _ in range(400):
        size = rng.choice((9, 10, 11))
        ranks = [rng.randrange(1, size) for _ in range(rng.randrange(0, 12))]
        m = pack(ranks)
        assert cards(m, size) == len(ranks) and total(m, size) == sum(ranks)
        # every sub-multiset, highest rank's count first and descending, then the next rank's
        counts = [count(m, r) for r in range(size - 1, 0, -1)]
        every = []
        for picked in itertools.product(*(range(c, -1, -1) for c in counts)):
            ranks_desc = range(size - 1, 0, -1)
            sub = sum(c * UNIT[r] for c, r in zip(picked, ranks_desc, strict=True))
            every.append(
                (sub, sum(picked), sum(c * r for c, r in zip(picked, ranks_desc, strict=True)))
            )
        for t in range(0, size):
            expected = [(sub, n) for sub, n, value in every if value == t]
            assert sub_multisets_of_total(m, size - 1, t) == expected
