"""Game records played by the engine's bots in CPython, for tests that need finished games."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

ENGINE = Path(__file__).resolve().parent.parent / "engine"


@cache
def _record_text(
    game_id: str, seed: str, levels: tuple[str, ...], limit: int | None, options: str
) -> str:
    if str(ENGINE) not in sys.path:
        sys.path.insert(0, str(ENGINE))
    from tapete import get_game
    from tapete.bots import choose_move

    game = get_game(game_id)
    players = len(levels) + 1
    state = game.new_game(seed, json.loads(options), players)
    moves: list[dict[str, Any]] = []
    while (seat := game.to_move(state)) is not None and (limit is None or len(moves) < limit):
        level = levels[seat - 1] if seat else "random"
        move = choose_move(game, state, seat, level, (seed, len(moves)))
        moves.append({"seat": seat, "move": game.move_to_json(move)})
        state = game.apply(state, seat, move)
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": level} for level in levels]
    return json.dumps(
        {
            "game": game_id,
            "engine_version": "e2e",
            "seed": seed,
            "options": json.loads(options),
            "players": players,
            "seats": seats,
            "moves": moves,
        }
    )


def bot_record(
    game_id: str,
    seed: str,
    levels: tuple[str, ...] = (),
    limit: int | None = None,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A record of ``game_id`` dealt from ``seed``: seat 0 (the human) played by the random bot,
    seat ``i`` by a bot of ``levels[i - 1]``; the whole game, or its first ``limit`` moves."""
    text = _record_text(game_id, seed, levels, limit, json.dumps(options or {}, sort_keys=True))
    record: dict[str, Any] = json.loads(text)
    return record


def record_until(
    game_id: str,
    seed: str,
    levels: tuple[str, ...],
    stop: Callable[[dict[str, Any], int | None], bool],
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """:func:`bot_record` cut at the first position where ``stop(seat 0's view, seat to move)``
    holds (a game opened from it shows that position); raises if the game ends first."""
    from tapete import get_game

    record = bot_record(game_id, seed, levels, options=options)
    game = get_game(game_id)
    state = game.new_game(seed, record["options"], record["players"])
    for index, move in enumerate(record["moves"]):
        if stop(game.view(state, 0), game.to_move(state)):
            return bot_record(game_id, seed, levels, limit=index, options=options)
        state = game.apply(state, move["seat"], game.parse_move(move["move"]))
    raise AssertionError(f"{game_id} {seed}: no such position")


def final_view(record: dict[str, Any], seat: int = 0) -> tuple[dict[str, Any], dict[str, Any]]:
    """The outcome and a seat's final view of a record, as the engine rebuilds it."""
    if str(ENGINE) not in sys.path:
        sys.path.insert(0, str(ENGINE))
    from tapete.api import handle

    answer = json.loads(handle(json.dumps({"op": "replay", "record": record, "view_seat": seat})))
    assert answer["ok"], answer
    return answer["result"]["outcome"], answer["result"]["view"]
