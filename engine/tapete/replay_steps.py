"""The ``replay_steps`` op: the views of a window of positions of a game record.

Glossary:

record   a game record ``{game, seed, options, players, seats, moves: [{seat, move}]}``
step     a position of the record: step ``k`` is the state after ``k`` moves, step 0 the
         deal, step ``N`` (``N = len(moves)``) the end
window   the steps ``start .. start + count - 1`` one request answers (fewer at the end)
reveal   every seat's hand at each step of the window; only for a record whose game is over
         (an unfinished game's replay shows only what a seat saw)

The page steps through a replay move by move from windows it keeps, so one request rebuilds
the record once and answers up to ``MAX_COUNT`` views instead of one replay per step. The
whole record is rebuilt by ``tapete.api.replay`` first, the authority on records (a bad one is
``bad_state`` naming its path), so a window never shows a position of a record that fails.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import BadRequestError, describe

MAX_COUNT = 64
# the view keys that hold a seat's own cards or tiles
HAND_KEYS = ("hand", "rack")


def steps_request(request: Mapping[str, Any]) -> dict[str, Any]:
    """``{record, view_seat?, start, count, reveal?}`` -> ``{total, start, steps, outcome}``."""
    from .api import replay  # the authority on records; api imports this module lazily

    record = request.get("record")
    if not isinstance(record, dict):
        raise BadRequestError(
            f"field 'record' must be an object; got {describe(record)}", field="record"
        )
    game, final = replay(record)
    moves = record.get("moves", [])
    total = len(moves)
    players = game.players(final)
    view_seat = _view_seat(request, players)
    start = _whole(request, "start", 0, total)
    count = _whole(request, "count", 1, MAX_COUNT)
    reveal = request.get("reveal", False)
    if not isinstance(reveal, bool):
        raise BadRequestError(
            f"field 'reveal' must be true or false; got {describe(reveal)}", field="reveal"
        )
    outcome = game.outcome(final)
    if reveal and outcome is None:
        raise BadRequestError(
            "every hand is shown only in the replay of a finished game", field="reveal"
        )
    end = min(total, start + count - 1)
    state = game.new_game(record.get("seed"), record.get("options"), record.get("players"))
    steps: list[dict[str, Any]] = []
    for step in range(end + 1):
        if step > 0:
            entry = moves[step - 1]
            state = game.apply(state, entry["seat"], game.parse_move(entry["move"]))
        if step < start:
            continue
        item: dict[str, Any] = {
            "step": step,
            "to_move": game.to_move(state),
            "view": game.view(state, view_seat),
        }
        if reveal:
            item["hands"] = [_hand(game.view(state, seat)) for seat in range(players)]
        steps.append(item)
    return {
        "total": total,
        "start": start,
        "steps": steps,
        "outcome": outcome.to_json() if outcome is not None else None,
    }


def _hand(view: Mapping[str, Any]) -> list[Any]:
    for key in HAND_KEYS:
        cards = view.get(key)
        if isinstance(cards, list):
            return cards
    return []


def _whole(request: Mapping[str, Any], name: str, low: int, high: int) -> int:
    value = request.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadRequestError(
            f"field {name!r} must be a whole number; got {describe(value)}", field=name
        )
    if not low <= value <= high:
        raise BadRequestError(f"field {name!r} must be {low} to {high}; got {value}", field=name)
    return value


def _view_seat(request: Mapping[str, Any], players: int) -> int | None:
    seat = request.get("view_seat")
    if seat is None:
        return None
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise BadRequestError(
            f"field 'view_seat' must be a seat 0..{players - 1} or null; got {describe(seat)}",
            field="view_seat",
        )
    return seat
