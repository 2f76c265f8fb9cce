"""The Wizard AI decides exactly as it did when ``tests/data/wizard_ai_golden.json`` was recorded.

Speed work on the AI (``tapete.wizard.ai``, ``sample_world``, ``tapete.bots.ismcts``,
``tapete.rng``) must not change a single decision: a tournament's games, a shared link's bot
moves and the published report card all rest on them. The fixture holds the move sequences of
seeded games (easy, normal and hard bots among heuristic ones; 3, 4 and 5 players; open, hidden
and delayed bids) and what the search thought of a few positions (every option's value, and
the visits of every card). The tests replay them:

- games recorded at a reduced budget (``TAPETE_BOT_BUDGET``) are replayed decision by decision;
- games recorded at the real budgets are replayed move by move (cheap), and the probed
  positions in them are decided again at the real budget, values and visits included.

``PYTHONPATH=engine python3 tests/test_wizard_ai_golden.py verify`` decides again every move of
every game at its recorded budget (about two CPU-minutes), and ``record`` writes the fixture
afresh: only for a change that is meant to change decisions, and say so in the commit.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tapete.bots import choose_move
from tapete.rng import Rng, mix, unmix
from tapete.wizard import DECK, GAME, WizardState, ai
from tapete.wizard.game import WorldSampler

FIXTURE = Path(__file__).resolve().parent / "data" / "wizard_ai_golden.json"

# (seed, players, options, level of each seat, budget scale); the positions probed in the games
# at the real budgets are picked by ``pick_probes`` when recording
GAMES: list[tuple[str, int, dict[str, str], list[str], float]] = [
    # the real budgets, one searching seat among heuristic bots
    ("GOLD3H", 3, {"bidding_mode": "HIDDEN_SIMULTANEOUS"}, ["hard", "heuristic", "heuristic"], 1),
    ("GOLD4N", 4, {}, ["normal", "heuristic", "heuristic", "heuristic"], 1),
    (
        "GOLD4H",
        4,
        {"even_bid_restriction": "ALWAYS_DEALER", "first_dealer": "RANDOM"},
        ["hard", "heuristic", "heuristic", "heuristic"],
        1,
    ),
    ("GOLD5H", 5, {"bidding_mode": "DELAYED_REVEAL"}, ["hard"] + ["heuristic"] * 4, 1),
    ("GOLD3E", 3, {}, ["easy", "heuristic", "heuristic"], 1),
    ("GOLD5E", 5, {"tiebreak": "SUM_OF_BIDS"}, ["easy"] + ["heuristic"] * 4, 1),
    # 5% of the budgets, several searching seats: every decision is replayed by the tests
    ("SMALL3", 3, {"bidding_mode": "DELAYED_REVEAL"}, ["hard", "normal", "easy"], 0.05),
    (
        "SMALL4",
        4,
        {"even_bid_restriction": "LEADER_DEALER_ONLY"},
        ["normal", "hard", "heuristic", "easy"],
        0.05,
    ),
    (
        "SMALL5",
        5,
        {"bidding_mode": "HIDDEN_SIMULTANEOUS"},
        ["hard", "heuristic", "normal", "easy", "heuristic"],
        0.05,
    ),
]


def budget(value: float) -> str:
    return "1" if value == 1 else str(value)


def states(game: dict[str, Any]) -> Iterator[tuple[int, WizardState, int, str]]:
    """(step, state, seat, recorded move) along a recorded game."""
    state = GAME.new_game(game["seed"], game["options"], game["players"])
    for step, text in enumerate(game["moves"]):
        seat = GAME.to_move(state)
        assert seat is not None, "the recorded game goes on after the end"
        yield step, state, seat, text
        state = GAME.apply(state, seat, GAME.parse_move(text))
    assert GAME.to_move(state) is None, "the recorded game stops before the end"


def decide_move(game: dict[str, Any], step: int, state: WizardState, seat: int) -> str:
    level = game["seats"][seat]
    return GAME.move_to_json(choose_move(GAME, state, seat, level, step))


def probe(level: str, state: WizardState, seat: int, step: int) -> dict[str, Any]:
    """What a search level thinks of a position: its move, every option's value, card visits."""
    rng = Rng.derive("bot", GAME.id, level, seat, step)  # the stream choose_move gives it
    move, values = ai.decide(GAME, state, seat, rng, ai.LEVELS[level])
    out: dict[str, Any] = {"move": GAME.move_to_json(move), "values": values}
    if state.phase == "play" and len(GAME.legal_moves(state, seat)) > 1:
        rng = Rng.derive("bot", GAME.id, level, seat, step)
        _move, stats = ai.card_values(GAME, state, seat, rng, ai.LEVELS[level])
        out["visits"] = {card: visits for card, visits, _mean in stats}
    return out


def kind(state: WizardState) -> str:
    return "card" if state.phase == "play" else state.phase


def load() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return data


# -- the tests ----------------------------------------------------------------------------------


SMALL = [seed for seed, *_rest, scale in GAMES if scale != 1]
FULL = [seed for seed, *_rest, scale in GAMES if scale == 1]


def recorded(seed: str) -> dict[str, Any]:
    game: dict[str, Any] = next(g for g in load()["games"] if g["seed"] == seed)
    return game


@pytest.mark.parametrize("seed", SMALL)
def test_every_decision_of_a_reduced_budget_game_is_unchanged(
    seed: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = recorded(seed)
    monkeypatch.setenv("TAPETE_BOT_BUDGET", budget(game["budget"]))
    kinds: set[tuple[str, str]] = set()
    for step, state, seat, text in states(game):
        assert decide_move(game, step, state, seat) == text, (game["seed"], step)
        kinds.add((game["seats"][seat], kind(state)))
    assert {("hard", "bid"), ("hard", "card"), ("normal", "card")} <= kinds


@pytest.mark.parametrize("seed", FULL)
def test_the_probed_positions_of_a_real_budget_game_are_decided_as_recorded(
    seed: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = recorded(seed)
    monkeypatch.setenv("TAPETE_BOT_BUDGET", "1")
    probes = {p["step"]: p for p in load()["probes"] if p["seed"] == game["seed"]}
    checked = 0
    for step, state, seat, text in states(game):
        level = game["seats"][seat]
        if level == "easy":  # cheap: every easy decision
            assert decide_move(game, step, state, seat) == text, (game["seed"], step)
            checked += 1
        if step in probes:
            expected = probes[step]
            assert expected["move"] == text
            assert probe(level, state, seat, step) == expected["result"], (game["seed"], step)
            checked += 1
    assert checked > 0


def test_the_fixture_covers_every_search_decision_at_the_real_budget() -> None:
    probed = {(p["level"], p["kind"]) for p in load()["probes"]}
    assert {("normal", "bid"), ("normal", "card"), ("hard", "bid"), ("hard", "card")} <= probed


# -- the fast paths agree with the plain ones ----------------------------------------------------


class PlainSplitMix64:
    """SplitMix64 and its draws written plainly: what ``tapete.rng.Rng`` must equal."""

    def __init__(self, state: int) -> None:
        self.state = state
        self.draws = 0

    def next_u64(self) -> int:
        self.draws += 1
        self.state = (self.state + 0x9E3779B97F4A7C15) % 2**64
        z = self.state
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 % 2**64
        z = (z ^ (z >> 27)) * 0x94D049BB133111EB % 2**64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        while True:
            x = self.next_u64()
            if x < (2**64 // n) * n:
                return x % n

    def shuffle(self, items: list[int]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def test_the_inlined_generator_equals_plain_splitmix64() -> None:
    for seed in range(40):
        fast, plain = Rng.derive("plain", seed), PlainSplitMix64(Rng.derive("plain", seed).state)
        for length in (0, 1, 2, 7, 45, 60, 64, 65, 100):
            items = list(range(length))
            plain.shuffle(items)
            assert fast.shuffled(range(length)) == items
            for n in (1, 3, 60, 2**63 + 1, 2**64 - 1):  # 2**63 + 1 rejects about half its draws
                assert fast.below(n) == plain.below(n)
            plain.shuffle(list(range(length)))
            fast.skip_shuffle(length)
            assert fast.state == plain.state
            assert fast.random() == (plain.next_u64() >> 11) / 2**53


def test_skip_shuffle_makes_the_rejected_draws_too() -> None:
    """A shuffle that meets one of the rare outputs ``below`` rejects, at its very edges."""
    gamma = 0x9E3779B97F4A7C15
    rejected = 0
    for output in (2**64 - 1, 2**64 - 16, 2**64 - 64):
        rare = unmix(output)
        before = PlainSplitMix64((rare - gamma) % 2**64)
        assert before.next_u64() == output and mix(rare) == output
        for length in (2, 3, 60, 64):
            for k in (1, 2, length - 1, length):  # the k-th draw meets the rare state
                start = (rare - k * gamma) % 2**64
                plain = PlainSplitMix64(start)
                plain.shuffle(list(range(length)))
                fast = Rng(start)
                fast.skip_shuffle(length)
                assert fast.state == plain.state, (output, length, k)
                rejected += plain.draws > length - 1
    assert rejected > 0  # some of them really were rejected


def test_a_shuffle_near_a_rejected_draw_is_plain_fisher_yates() -> None:
    """The shuffle's draws made all at once (``rng.draws``) give way to single draws there."""
    gamma = 0x9E3779B97F4A7C15
    for output in (2**64 - 1, 2**64 - 16, 2**64 - 64, 2**64 - 65):  # the last one is never rare
        rare = unmix(output)
        for length in (2, 3, 45, 60, 64):
            for k in (1, 2, length - 1, length, length + 1):  # the k-th draw meets the rare state
                start = (rare - k * gamma) % 2**64
                plain, items = PlainSplitMix64(start), list(range(length))
                plain.shuffle(items)
                fast = Rng(start)
                assert fast.shuffled(range(length)) == items, (output, length, k)
                assert fast.state == plain.state, (output, length, k)


@pytest.mark.parametrize("seed", ["GOLD4N", "SMALL3", "SMALL5"])  # 4, 3 and 5 players
def test_the_inlined_playout_plays_as_the_policy_move_by_move(seed: str) -> None:
    for step, state, _seat, _text in states(recorded(seed)):
        if state.phase != "play" or step % 3:
            continue
        per_seat = [0.1 + 0.3 * s for s in range(state.players)]  # each seat its own
        for noise, grab in ((0.0, 0), (0.1, 0), (0.5, 0), (1.0, 0), (per_seat, 0), (0.1, 0b110)):
            fast, slow = ai.round_from_state(state), ai.round_from_state(state)
            fast_chance, slow_chance = random.Random(step), random.Random(step)
            ai.play_out(fast, fast_chance, noise, grab)
            while slow.turn >= 0:
                slow.play(ai.policy_card(slow, slow_chance, noise, grab))
            assert (fast.won, fast.leader, fast.turn) == (slow.won, slow.leader, slow.turn)
            assert fast_chance.getstate() == slow_chance.getstate()


def test_a_sampler_draws_as_sample_world_does() -> None:
    for step, state, seat, _text in states(recorded("SMALL4")):
        if step % 7:
            continue
        sampler = WorldSampler(GAME, state, seat)
        for k in range(3):
            world_rng, draw_rng = Rng.derive("sampler", step, k), Rng.derive("sampler", step, k)
            world = GAME.sample_world(state, seat, world_rng)
            hands, bids = sampler.draw(draw_rng)
            assert draw_rng.state == world_rng.state  # the same draws, in the same order
            assert sampler.world(Rng.derive("sampler", step, k)) == world
            unordered = Rng.derive("sampler", step, k)
            assert sampler.world(unordered, shuffle_stock=False) == replace(
                world, stock=tuple(sorted(world.stock, key=DECK.index))
            )
            assert unordered.state == world_rng.state
            assert bids == world.bids
            assert sorted(hands) == [s for s in range(state.players) if s != seat]
            assert all(tuple(hands[s]) == world.hands[s] for s in hands)
            numbers_rng = Rng.derive("sampler", step, k)
            number_hands, number_bids = sampler.draw_numbers(numbers_rng)
            assert numbers_rng.state == world_rng.state and number_bids == bids
            assert {s: [DECK[c] for c in cards] for s, cards in number_hands.items()} == hands


@pytest.mark.parametrize("seed", ["SMALL3", "SMALL4", "SMALL5"])  # delayed, restricted, hidden
def test_a_bid_world_drawn_on_numbers_is_the_whole_world(seed: str) -> None:
    """``BidWorlds`` skips whole states when nobody bids before the seat: the same worlds."""
    for step, state, seat, _text in states(recorded(seed)):
        if state.phase != "bid" or step % 2:
            continue
        fast, slow = ai.BidWorlds(GAME, state, seat), ai.BidWorlds(GAME, state, seat)
        assert not fast.ahead
        slow.ahead = True  # the trump choice's way: a whole state per world
        for k in range(3):
            fast_rng, slow_rng = Rng.derive("bid world", step, k), Rng.derive("bid world", step, k)
            (quick, quick_legal, quick_state), (whole, legal, world) = (
                fast.world(fast_rng),
                slow.world(slow_rng),
            )
            assert fast_rng.state == slow_rng.state
            assert (quick.hands, quick.bids, quick.won, quick.leader, quick.turn, quick.trump) == (
                whole.hands,
                whole.bids,
                whole.won,
                whole.leader,
                whole.turn,
                whole.trump,
            )
            assert quick_legal == legal
            assert [b is None for b in quick_state.bids] == [b is None for b in world.bids]


# -- recording and the full check (command line) -------------------------------------------------


def play(seed: str, players: int, options: dict[str, str], seats: list[str]) -> list[str]:
    state = GAME.new_game(seed, options, players)
    moves = []
    step = 0
    while (seat := GAME.to_move(state)) is not None:
        move = choose_move(GAME, state, seat, seats[seat], step)
        moves.append(GAME.move_to_json(move))
        state = GAME.apply(state, seat, move)
        step += 1
    return moves


def pick_probes(game: dict[str, Any]) -> list[int]:
    """A few cheap positions of each kind (bid, trump, card) of the searching seat, round >= 3.

    The cheapest of each kind keeps the test quick; a card with at least three legal choices.
    """
    best: dict[str, tuple[int, int]] = {}  # kind -> (cost, step)
    for step, state, seat, _text in states(game):
        level = game["seats"][seat]
        if level not in ai.LEVELS or state.round < 3:
            continue
        choices = len(GAME.legal_moves(state, seat))
        if kind(state) == "card" and choices < 3:
            continue
        cost = state.round * (1 + sum(len(h) for h in state.hands))
        if kind(state) not in best or cost < best[kind(state)][0]:
            best[kind(state)] = (cost, step)
    return sorted(step for _cost, step in best.values())


def record() -> None:
    games: list[dict[str, Any]] = []
    probes: list[dict[str, Any]] = []
    for seed, players, options, seats, scale in GAMES:
        os.environ["TAPETE_BOT_BUDGET"] = budget(scale)
        started = time.process_time()
        game: dict[str, Any] = {
            "seed": seed,
            "players": players,
            "options": options,
            "seats": seats,
            "budget": scale,
            "moves": play(seed, players, options, seats),
        }
        games.append(game)
        if scale == 1:
            chosen = pick_probes(game)
            for step, state, seat, text in states(game):
                if step in chosen:
                    level = seats[seat]
                    result = probe(level, state, seat, step)
                    assert result["move"] == text
                    probes.append(
                        {"seed": seed, "step": step, "level": level, "kind": kind(state)}
                        | {"move": text, "result": result}
                    )
        print(f"{seed}: {len(game['moves'])} moves, {time.process_time() - started:.1f} s CPU")
    FIXTURE.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"games": games, "probes": probes}, separators=(",", ":"))
    FIXTURE.write_text(text + "\n", encoding="utf-8")


def verify() -> None:
    """Decide every move of every recorded game again at its budget; exit 1 on a difference."""
    failures = 0
    for game in load()["games"]:
        os.environ["TAPETE_BOT_BUDGET"] = budget(game["budget"])
        started = time.process_time()
        for step, state, seat, text in states(game):
            if game["seats"][seat] != "heuristic":
                got = decide_move(game, step, state, seat)
                if got != text:
                    failures += 1
                    print(f"{game['seed']} step {step}: recorded {text}, now {got}")
        print(f"{game['seed']}: checked, {time.process_time() - started:.1f} s CPU", flush=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    {"record": record, "verify": verify}[sys.argv[1]]()
