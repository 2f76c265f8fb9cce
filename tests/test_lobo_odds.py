"""Lobo's odds, hints, bots and clairvoyant bound.

The exact odds are checked against a brute force that knows nothing of ranks or of the solver:
it enumerates every order of the hidden pile, plays the real rules on each, and lets the player
choose only between orders it cannot tell apart (the same view)."""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import replace

import pytest

from tapete.bots import choose_move
from tapete.lobo import GAME, Rules, analyse, clairvoyant, hint, make_position
from tapete.lobo import rules as R
from tapete.lobo.clairvoyant import VanguardPuzzle
from tapete.lobo.odds import visible_position
from tapete.lobo.solver import Model, Search
from tapete.rng import Rng


def view_key(state: R.LoboState) -> tuple[object, ...]:
    """What the player can tell apart: everything but the order below the pile's top (the
    same information as ``GAME.view``, checked in test_lobo_play.py)."""
    return (
        state.hand,
        state.wolf,
        state.reserve,
        state.discard,
        state.pile[:1],
        len(state.pile),
        state.members,
        state.final,
        state.phase,
        state.round,
    )


def brute_values(state: R.LoboState, until: str = "round") -> dict[str, float]:
    """P(win the round, or the game) of each legal move, over every order of the pile below
    its top."""
    top, hidden = state.pile[:1], state.pile[1:]
    worlds = [replace(state, pile=top + perm) for perm in itertools.permutations(hidden)]
    memo: dict[tuple[object, ...], float] = {}
    return {m.text(): move_value(worlds, m, memo, until) for m in R.legal_moves(state)}


def ended(before: R.LoboState, after: R.LoboState, until: str) -> bool | None:
    """None while it goes on, else whether it was won."""
    if until == "game":
        return None if after.phase != R.OVER else after.result == "won"
    if len(after.history) > len(before.history):
        return after.history[-1].won
    return None


def move_value(
    worlds: list[R.LoboState],
    move: R.Move,
    memo: dict[tuple[object, ...], float],
    until: str,
) -> float:
    """The mean over ``worlds`` (orders the player cannot tell apart) of playing ``move`` and
    then the best move in each group of worlds the player can tell apart."""
    if move.kind == "fold" and until == "round":
        return 0.0
    groups: dict[tuple[object, ...], list[R.LoboState]] = {}
    total = 0.0
    for world in worlds:
        after = R.play(world, move)
        won = ended(world, after, until)
        if won is not None:
            total += 1.0 if won else 0.0
        else:
            groups.setdefault(view_key(after), []).append(after)
    for seen, group in groups.items():
        key = (seen, tuple(sorted(w.pile for w in group)))
        if key not in memo:
            memo[key] = max(move_value(group, m, memo, until) for m in R.legal_moves(group[0]))
        total += len(group) * memo[key]
    return total / len(worlds)


def random_position(rng: random.Random) -> R.LoboState:
    classic = rng.random() < 0.25
    rules = Rules(
        mode=R.CLASSIC if classic else R.VANGUARD,
        difficulty=rng.choice(["EASY", "STANDARD", "HARD"]),
        suits=rng.choice([4, 5]) if classic else 4,  # five suits: Classic only
        reserve_is_wild_in_final=rng.random() < 0.3,
        score_includes_reserve=rng.random() < 0.3,
    )
    cards = list(rules.deck)
    rng.shuffle(cards)
    h, w, p = rng.randint(1, 4), rng.randint(1, 4), rng.randint(1 if classic else 0, 5)
    r = 0 if classic else rng.randint(0, 2)
    members = (True, rng.random() < 0.6, rng.random() < 0.6)
    return make_position(
        hand=cards[:h],
        wolf=cards[h : h + w],
        pile=cards[h + w : h + w + p],
        reserve=cards[h + w + p : h + w + p + r],
        members=() if classic else members,
        rules=rules,
    )


def test_exact_odds_match_the_brute_force_over_every_pile_order() -> None:
    rng = random.Random(20)
    checked = 0
    for _ in range(30):
        state = random_position(rng)
        expected = brute_values(state)
        odds = analyse(state, budget=10**7)
        assert [o.move.text() for o in odds] == list(expected)
        for item in odds:
            assert item.exact
            assert item.p_win == pytest.approx(expected[item.move.text()], abs=1e-12)
        checked += len(odds)
    assert checked > 100


def test_game_odds_match_the_brute_force_through_the_final_round() -> None:
    rng = random.Random(7)
    checked = 0
    while checked < 12:
        rules = Rules(
            difficulty=rng.choice(["EASY", "HARD"]),
            final_trigger=rng.choice([R.BEFORE_DEAL, R.AFTER_DEAL]),
            short_deal_order=rng.choice([R.WOLF_FIRST, R.PLAYER_FIRST]),
            reserve_is_wild_in_final=rng.random() < 0.3,
        )
        cards = list(rules.deck)
        rng.shuffle(cards)
        h, w, p, r = rng.randint(1, 3), rng.randint(1, 3), rng.randint(2, 6), rng.randint(0, 1)
        members = (True, rng.random() < 0.5, rng.random() < 0.5)
        state = make_position(
            hand=cards[:h],
            wolf=cards[h : h + w],
            pile=cards[h + w : h + w + p],
            reserve=cards[h + w + p : h + w + p + r],
            members=members,
            rules=rules,
        )
        phase = rng.random() < 0.3
        if phase:  # between rounds instead
            state = replace(state, phase=R.CHOICE, wolf=(), discard=state.discard + state.wolf)
        expected = brute_values(state, "game")
        odds = analyse(state, budget=10**7)
        for item in odds:
            assert item.p_game is not None
            assert item.p_game == pytest.approx(expected[item.move.text()], abs=1e-12)
        checked += 1


def test_exact_odds_of_a_known_position() -> None:
    # one 5 against the Wolf's 5 and 3, pile top 3 then {A, 3} in some order: a perfect draws
    # the 3 and then the 3 takes the 3 (2/2 orders), an over 5>3 gives the Wolf 2 cards
    state = make_position(hand=["5H"], wolf=["5S", "3S"], pile=["3H", "AD", "3D"])
    odds = {o.move.text(): o.p_win for o in analyse(state)}
    assert odds["perfect 5H>5S"] == 1.0
    assert odds["fold"] == 0.0


def test_final_rounds_are_exact_and_give_game_odds() -> None:
    state = make_position(hand=["4C", "2D"], wolf=["6S", "9H", "3C"], pile=[], final=True)
    result = hint(state)
    assert result["exact"] and result["p_game"] == result["p_win"] == 1.0
    # 4 + 2 takes the 6 and two sacrifices take the rest, but one member must stay: no
    assert result["move"] in {m["move"] for m in result["moves"]}
    one = replace(state, members=(True, False, False))
    assert hint(one)["p_win"] == 0.0


def test_final_round_tie_break_keeps_members_for_the_score() -> None:
    # 9 can be taken by 9H (perfect) or by sacrificing a member: both win; the perfect keeps
    # 10 more points
    state = make_position(hand=["9H", "2C"], wolf=["9S"], pile=[], final=True)
    assert hint(state)["move"] == "perfect 9H>9S"


def test_hint_estimates_when_the_search_is_too_big_and_says_so() -> None:
    state = GAME.new_game("BIG", {"difficulty": "HARD"})
    result = hint(state)
    assert result["move"] in [m.text() for m in GAME.legal_moves(state, 0)]
    assert result["exact"] is False and result["samples"] > 0
    assert {"move", "p_win", "exact"} <= set(result["moves"][0])
    assert len(result["moves"]) == len(GAME.legal_moves(state, 0))
    assert all(0.0 <= m["p_win"] <= 1.0 for m in result["moves"])
    assert result == hint(state), "the same position gets the same numbers"
    json.dumps(result)


def test_estimates_are_near_the_exact_odds() -> None:
    state = make_position(
        hand=["AH", "AC", "3S", "6S"],
        wolf=["4S", "5S", "5C", "6D"],
        pile=["2C", "7H", "3D", "8D", "4H", "2S", "6C", "7D"],
        rules=Rules(difficulty="EASY"),
    )
    exact = {o.move: o.p_win for o in analyse(state, budget=10**6)}
    estimated = analyse(state, budget=0, samples=256, playouts=4000)
    for item in estimated:
        assert not item.exact or item.move.kind == "fold"
        assert item.p_win == pytest.approx(exact[item.move], abs=0.2)


def test_odds_never_read_the_pile_order() -> None:
    state = GAME.new_game("FAIR")
    for k in range(3):
        world = GAME.sample_world(state, 0, Rng.derive("fair", k))
        assert visible_position(world) == visible_position(state)
        assert hint(world) == hint(state)


def test_choice_hint_follows_the_rule() -> None:
    base = make_position(hand=["7H", "2C"], wolf=[], pile=["5D", "9C", "AH"], phase=R.CHOICE)
    assert hint(base)["move"] == "reserve 2C"
    down = replace(base, members=(True, False, True))
    assert hint(down)["move"] == "revive QS"


def test_search_value_is_the_best_move() -> None:
    state = make_position(hand=["5H", "2C", "3C"], wolf=["5S", "7S"], pile=["3H", "AD", "4D", "6H"])
    search = Search(Model(size=10), 10**6)
    value, exact = search.value(visible_position(state))
    assert exact
    assert value[0] == pytest.approx(max(o.p_win for o in analyse(state, budget=10**6)))


# -- bots ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("level", ["greedy", "best"])
def test_bots_play_legal_reproducible_fair_moves(level: str) -> None:
    state = GAME.new_game("BOTS", {"difficulty": "EASY"})
    steps = 0
    while GAME.to_move(state) is not None and steps < 40:
        move = choose_move(GAME, state, 0, level, steps)
        GAME.check(state, 0, move)
        world = GAME.sample_world(state, 0, Rng.derive("w", steps))
        assert choose_move(GAME, world, 0, level, steps) == move
        state = GAME.apply(state, 0, move)
        steps += 1


def test_best_bot_plays_the_hint() -> None:
    state = GAME.new_game("HINT", {"difficulty": "EASY"})
    assert choose_move(GAME, state, 0, "best", 3).text() == GAME.hint(state, 0)["move"]


def test_greedy_prefers_perfects_and_never_folds_with_a_capture() -> None:
    state = make_position(hand=["5H", "3C", "2D"], wolf=["5S", "9S"], pile=["AS", "2S"])
    assert choose_move(GAME, state, 0, "greedy").text() == "perfect 5H>5S"
    stuck = make_position(hand=["2D"], wolf=["9S"], pile=["AS"])
    assert choose_move(GAME, stuck, 0, "greedy").text() == "fold"


# -- the clairvoyant bound ----------------------------------------------------------------------


def test_clairvoyant_on_a_known_sequence() -> None:
    rules = Rules(difficulty="EASY")
    # deal W P W P W P W P: Wolf {1,2,3,4}, player {1,2,3,4}; 4 perfects (each draws: the pile
    # has 9 cards, so the round is not final), then the choice and a final round
    seq = [1, 1, 2, 2, 3, 3, 4, 4, 8, 8, 8, 8, 7, 7, 7, 7, 5]
    puzzle = VanguardPuzzle(seq, rules, 10**6)
    result = puzzle.run()
    assert result.winnable and result.exact
    assert result.best_score is not None and result.best_score >= 30


def test_clairvoyant_knows_a_hopeless_deal() -> None:
    rules = Rules(difficulty="EASY")
    # the final round at once (8 cards): Wolf 8 8 8 7, player A A A 2; two sacrifices are not
    # enough for four Wolf cards
    seq = [8, 1, 8, 1, 8, 1, 7, 2]
    assert VanguardPuzzle(seq, rules, 10**6).run().winnable is False


def test_clairvoyant_bounds_what_a_bot_achieves() -> None:
    seed = "CV12"  # greedy wins this Easy deal with 32 points
    state = GAME.new_game(seed, {"difficulty": "EASY"})
    while GAME.to_move(state) is not None:
        state = GAME.apply(state, 0, choose_move(GAME, state, 0, "greedy"))
    assert state.result == "won"
    bound = clairvoyant(seed, {"difficulty": "EASY"}, best_score=False)
    assert bound.winnable is True and bound.exact and bound.best_score is None
    json.dumps(bound.to_json())
    cut = clairvoyant(seed, {"difficulty": "EASY"}, budget=5)
    assert cut.winnable is None and not cut.exact


def test_clairvoyant_classic_race() -> None:
    result = clairvoyant(
        "RACE", {"mode": "CLASSIC_LOBO", "classic_target": 15, "difficulty": "EASY"}
    )
    assert result.winnable in (True, False) and result.exact


def test_hints_do_not_depend_on_string_hashing() -> None:
    """Hints must replay the same everywhere (Pyodide included): no set order may leak in."""
    import os
    import subprocess
    import sys

    script = (
        "import json, hashlib\n"
        "from tapete.lobo import GAME\n"
        "s = GAME.new_game('L0', {'difficulty': 'HARD'})\n"
        "out = []\n"
        "while GAME.to_move(s) is not None:\n"
        "    h = GAME.hint(s, 0); out.append(h)\n"
        "    s = GAME.apply(s, 0, GAME.parse_move(h['move']))\n"
        "print(hashlib.sha256(json.dumps(out).encode()).hexdigest())\n"
    )
    engine = os.path.join(os.path.dirname(__file__), "..", "engine")
    digests = set()
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": engine}
        run = subprocess.run(
            [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
        )
        digests.add(run.stdout.strip())
    assert len(digests) == 1
