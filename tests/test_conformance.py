"""Conformance: every registered game, many seeds, random playouts to the end.

At every step: each listed move passes ``check``; the state survives JSON; the cards are all
accounted for; a seat's view holds none of the cards hidden from it and does not change when
the hidden cards are re-dealt (``sample_world``); ``apply`` never changes its input.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from helpers import playout, roundtrip
from tapete import GAMES
from tapete.rng import Rng

SEEDS = [f"C{i}" for i in range(12)]


def player_counts(game: Any) -> list[int]:
    return sorted({game.min_players, game.max_players, game.default_players})


CASES = [
    (game_id, seed, players)
    for game_id in sorted(GAMES)
    for players in player_counts(GAMES[game_id])
    for seed in SEEDS[: max(3, 12 // len(player_counts(GAMES[game_id])))]
]


def view_tokens(view: dict[str, Any], skip: tuple[str, ...]) -> Counter[str]:
    """Every string that occurs in a view (cards appear as strings), but under ``skip`` keys."""
    found: Counter[str] = Counter()
    view = {key: value for key, value in view.items() if key not in skip}

    def walk(value: Any) -> None:
        if isinstance(value, str):
            found[value] += 1
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(view)
    return found


def check_views(game: Any, state: Any, step: int) -> None:
    everything = Counter(game.seat_cards(state))
    for seat in [*range(game.players(state)), None]:
        view = game.view(state, seat)
        json.dumps(view)  # JSON-ready
        try:
            hidden = Counter(game.hidden_cards(state, seat))
        except NotImplementedError:
            hidden = Counter()
        # a card whose every copy is hidden from the seat must not occur in its view
        secret = {card for card, count in hidden.items() if count == everything[card]}
        leaked = secret & set(view_tokens(view, game.past_view_keys))
        assert not leaked, f"seat {seat} sees hidden cards {sorted(leaked)}"
        if seat is not None and game.to_move(state) is not None:
            world = game.sample_world(state, seat, Rng.derive("world", step, seat))
            assert game.view(world, seat) == view, "the view depends on hidden cards"
            assert Counter(game.seat_cards(world)) == everything


@pytest.mark.parametrize(("game_id", "seed", "players"), CASES)
def test_random_playout(game_id: str, seed: str, players: int) -> None:
    game = GAMES[game_id]
    state = game.new_game(seed, None, players)
    cards = Counter(game.seat_cards(state))
    if game.cards_total:
        assert sum(cards.values()) == game.cards_total
    steps = 0
    for current, seat, move in playout(game, state, "random", seed):
        state = current
        assert roundtrip(game, state) == state
        assert Counter(game.seat_cards(state)) == cards, "a card appeared or vanished"
        if steps % 7 == 0 or seat is None:
            check_views(game, state, steps)
        if seat is None:
            break
        legal = game.legal_moves(state, seat)
        assert move in legal
        for other in legal:
            game.check(state, seat, other)
            assert game.move_to_json(game.parse_move(game.move_to_json(other))) == (
                game.move_to_json(other)
            )
        for idle in range(game.players(state)):
            if idle != seat:
                assert game.legal_moves(state, idle) == []
        before = game.to_json(state)
        game.apply(state, seat, move)
        assert game.to_json(state) == before, "apply changed its input"
        steps += 1
    outcome = game.outcome(state)
    assert outcome is not None and game.to_move(state) is None
    assert len(outcome.scores) == game.players(state)
    assert all(0 <= w < game.players(state) for w in outcome.winners)
    # somebody wins a game between players; a solo game can be lost (the Wolf wins)
    assert outcome.winners or game.players(state) == 1
    json.dumps(outcome.to_json())


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_same_seed_same_game(game_id: str) -> None:
    game = GAMES[game_id]
    a = game.new_game("SAME", None, None)
    b = game.new_game("SAME", None, None)
    assert game.to_json(a) == game.to_json(b)
    assert game.to_json(game.new_game("OTHER", None, None)) != game.to_json(a)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_catalogue_is_json(game_id: str) -> None:
    entry = GAMES[game_id].catalogue()
    assert json.loads(json.dumps(entry)) == entry
    assert entry["id"] == game_id and "random" in entry["bot_levels"]
