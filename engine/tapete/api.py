"""The one function the web page calls: ``handle(request_json) -> response_json``.

Requests and responses are JSON strings (PyProxies leak and cannot be posted between threads).
The engine keeps no state between calls: the page holds the game state and the game record.

Ops (every field is validated; every bad request gets a coded error, never ``internal``):

``games``        {} -> {games: [catalogue...], engine_version}
``new_game``     {game, seed, options?, players?, seat?} -> snapshot
``apply``        {game, state, seat, move, view_seat?} -> snapshot
``view``         {game, state, seat} -> snapshot (with the seat's view and legal moves)
``legal_moves``  {game, state, seat} -> {moves}
``bot_move``     {game, state, seat, level, bot_seed?, view_seat?} -> snapshot + {move}
``hint``         {game, state, seat} -> {move, ...} (what else: the game's ``hint``; Wizard's
                 is the normal bot's move with expected_points, expected_tricks, only_move)
``inspect``      {game, state, seat, move} -> {legal: true} | {legal: false, error}, plus
                 ``melds`` (``Game.describe_melds``) when the move is a table play
                 ``{"play": {"table": [...], ...}}``; it changes nothing
``arrange``      {game, state, seat, tiles} -> {table, from_hand, complete} (``Game.arrange``)
``replay``       {record, view_seat?} -> snapshot (rebuilds a saved game from its moves)

``replay_steps`` {record, view_seat?, start, count, reveal?} -> {total, start, steps, outcome}:
                 the views of a window of a record's positions (``tapete.replay_steps``)
``lab``          {config: {game, players, games, seed, options, levels}, start, count, tally?,
                 resume?} -> {config, start, records, tally, summary, cells, resume}: one chunk
                 of a playtest-lab run added to the tally so far, stopped after about half a
                 second of CPU (``resume`` goes on with the game it stopped in;
                 ``tapete.lab.ops``)
``lab_summary``  {records?, tallies?} -> {tally, summary, cells}: the numbers of them together
``review``       {record, seat?, start?, state?, count?, budget?, summary?} -> {game, seat,
                 total, start, next, done, items, summary, grading, work, state}: the verdicts
                 on one chunk of a seat's decisions, judged from its view (``tapete.review``)
``lobo_deal``    {seed, options?, budget?, policy?, resume?} -> {winnable, exact, nodes, budget,
                 line, policy, resume}: could a player who saw every card win this Lobo deal
                 (within ``budget`` positions, at most 60,000 a request; ``resume`` goes on
                 where the last request stopped), a winning line, the hint's result on it
                 (``tapete.lobo.deal``)

``new_game``, ``apply``, ``bot_move`` and ``replay`` take ``view_public: true`` (without a
``view_seat``), and ``view`` takes it without a ``seat``, for the view of no seat: what a table
screen that shows only public information draws.

Every request is bounded in CPU and memory whatever it holds (numbers read strictly by
``tapete.numbers``, every list of a state bounded by what a game can hold, every search by a
budget of work), and the answer is always JSON that a browser's ``JSON.parse`` reads.

A snapshot is {state, to_move, outcome, view?, legal_moves?}: ``view`` and ``legal_moves`` are
those of ``view_seat`` (``seat`` for ``view``), and legal moves are listed only on its turn.
Answers are {ok: true, result} or {ok: false, error: {code, message, reason?, ...}}.
"""

from __future__ import annotations

import json
import traceback
from collections.abc import Callable
from typing import Any

from . import GAMES, __version__, get_game
from .errors import (
    BadRequestError,
    BadStateError,
    EngineError,
    GameOverError,
    IllegalMoveError,
    InvalidMoveError,
    NotYourTurnError,
    describe,
)
from .numbers import SAFE, loads, whole

MAX_REQUEST_CHARS = 2_000_000
Progress = Callable[[int, int], None]


def handle(request_json: str, progress: Progress | None = None) -> str:
    """Answer one request with JSON text that ``JSON.parse`` accepts; never raises."""
    request_id: Any = None
    try:
        request = _parse(request_json)
        request_id = _request_id(request.get("id"))
        answer: dict[str, Any] = {"ok": True, "result": _dispatch(request, progress)}
        return _dumps(answer, request_id)
    except EngineError as error:
        answer = {"ok": False, "error": error.to_json()}
    except RecursionError:
        answer = {"ok": False, "error": {"code": "bad_request", "message": "request too deep"}}
    except Exception as error:  # a bug: report it, keep the worker alive
        answer = {
            "ok": False,
            "error": {
                "code": "internal",
                "message": f"{type(error).__name__}: {error}"[:500],
                "trace": traceback.format_exc(limit=8)[-4000:],
            },
        }
    try:
        return _dumps(answer, request_id)
    except Exception as error:  # an error that cannot be written (it should not happen)
        fallback = {"ok": False, "error": {"code": "internal", "message": type(error).__name__}}
        return _dumps(fallback, request_id)


def _dumps(answer: dict[str, Any], request_id: Any) -> str:
    if request_id is not None:
        answer["id"] = request_id
    return json.dumps(answer, separators=(",", ":"), allow_nan=False)


def _request_id(value: Any) -> int | str | None:
    """The request's ``id`` as it may be echoed: a safe whole number or a short text (the
    worker sends a counter); anything else is not echoed."""
    if isinstance(value, str) and len(value) <= 64:
        return value
    return whole(value, -SAFE, SAFE)


def _parse(request_json: Any) -> dict[str, Any]:
    if not isinstance(request_json, str):
        raise BadRequestError(f"a request is a JSON string; got {type(request_json).__name__}")
    if len(request_json) > MAX_REQUEST_CHARS:
        raise BadRequestError(f"request too large ({len(request_json)} characters)")
    try:
        request = loads(request_json)
    except ValueError as error:
        raise BadRequestError(f"request is not JSON: {error}") from None
    if not isinstance(request, dict):
        raise BadRequestError(f"a request is a JSON object; got {describe(request)}")
    return request


def _field(
    request: dict[str, Any], name: str, kind: type | tuple[type, ...], default: Any = ...
) -> Any:
    if name not in request or request[name] is None:
        if default is ...:
            raise BadRequestError(f"missing field {name!r}", field=name)
        return default
    value = request[name]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        raise BadRequestError(
            f"field {name!r} must be {' or '.join(k.__name__ for k in kinds)}; "
            f"got {describe(value)}",
            field=name,
        )
    return value


def _seat(
    request: dict[str, Any], game: Any, state: Any, name: str = "seat", default: Any = ...
) -> Any:
    seat = _field(request, name, int, default)
    if seat is None:
        return None
    players = game.players(state)
    if not 0 <= seat < players:
        raise BadRequestError(f"{name} must be 0..{players - 1}; got {seat}", field=name)
    return seat


def snapshot(game: Any, state: Any, view_seat: int | None, public: bool = False) -> dict[str, Any]:
    """``public``: the view of no seat (a table screen that shows only public information)."""
    outcome = game.outcome(state)
    to_move = game.to_move(state)
    out: dict[str, Any] = {
        "state": game.to_json(state),
        "to_move": to_move,
        "outcome": outcome.to_json() if outcome is not None else None,
    }
    if public and view_seat is None:
        out["view"] = game.view(state, None)
        out["legal_moves"] = []
    elif view_seat is not None:
        out["view"] = game.view(state, view_seat)
        out["legal_moves"] = (
            [game.move_to_json(m) for m in game.legal_moves(state, view_seat)]
            if to_move == view_seat
            else []
        )
    return out


def _public(request: dict[str, Any]) -> bool:
    """``view_public: true`` asks for the view of no seat when no ``view_seat`` is given."""
    return bool(_field(request, "view_public", bool, False))


def _game_and_state(request: dict[str, Any]) -> tuple[Any, Any]:
    game = get_game(_field(request, "game", str))
    state = game.from_json(_field(request, "state", dict))
    return game, state


def _dispatch(request: dict[str, Any], progress: Progress | None) -> Any:
    op = _field(request, "op", str)
    if op == "games":
        return {
            "engine_version": __version__,
            "games": [GAMES[name].catalogue() for name in sorted(GAMES)],
        }
    if op == "new_game":
        game = get_game(_field(request, "game", str))
        seed = _field(request, "seed", str)
        options = _field(request, "options", dict, None)
        players = _field(request, "players", int, None)
        state = game.new_game(seed, options, players)
        return snapshot(
            game, state, _seat(request, game, state, "view_seat", None), _public(request)
        )
    if op == "apply":
        game, state = _game_and_state(request)
        seat = _seat(request, game, state)
        if "move" not in request:
            raise BadRequestError("missing field 'move'", field="move")
        move = game.parse_move(request["move"])
        state = game.apply(state, seat, move)
        return snapshot(
            game, state, _seat(request, game, state, "view_seat", None), _public(request)
        )
    if op == "view":
        game, state = _game_and_state(request)
        return snapshot(game, state, _seat(request, game, state, "seat", None), _public(request))
    if op == "legal_moves":
        game, state = _game_and_state(request)
        seat = _seat(request, game, state)
        return {"moves": [game.move_to_json(m) for m in game.legal_moves(state, seat)]}
    if op == "bot_move":
        game, state = _game_and_state(request)
        seat = _seat(request, game, state)
        level = _field(request, "level", str)
        bot_seed = _field(request, "bot_seed", (int, str), 0)
        if isinstance(bot_seed, str) and len(bot_seed) > 64:
            raise BadRequestError("bot_seed is at most 64 characters", field="bot_seed")
        game.check_turn(state, seat)
        # imported on first use, like the games: the worker is ready sooner
        from .bots import choose_move
        from .bots.ismcts import reporting_progress

        with reporting_progress(progress):
            move = choose_move(game, state, seat, level, bot_seed)
        state = game.apply(state, seat, move)
        out = snapshot(
            game, state, _seat(request, game, state, "view_seat", None), _public(request)
        )
        out["move"] = game.move_to_json(move)
        return out
    if op == "hint":
        game, state = _game_and_state(request)
        seat = _seat(request, game, state)
        game.check_turn(state, seat)
        from .bots.ismcts import reporting_progress

        with reporting_progress(progress):
            return game.hint(state, seat)
    if op == "inspect":
        game, state = _game_and_state(request)
        seat = _seat(request, game, state)
        if "move" not in request:
            raise BadRequestError("missing field 'move'", field="move")
        return inspect(game, state, seat, request["move"])
    if op == "arrange":
        game, state = _game_and_state(request)
        seat = _seat(request, game, state)
        game.check_turn(state, seat)
        return game.arrange(state, seat, _field(request, "tiles", list))
    if op == "replay":
        record = _field(request, "record", dict)
        game, state = replay(record)
        return snapshot(
            game, state, _seat(request, game, state, "view_seat", None), _public(request)
        )
    if op == "replay_steps":
        from .replay_steps import steps_request  # imported on first use

        return steps_request(request)
    if op == "review":
        from .review import review_request  # imported on first use

        return review_request(request, progress)
    if op == "lobo_deal":
        from .lobo.deal import deal_request  # imported on first use

        return deal_request(request)
    if op in ("lab", "lab_summary"):
        from .lab import ops as lab_ops  # imported on first use: the play ops never need it

        if op == "lab":
            return lab_ops.chunk_request(request, progress)
        return lab_ops.summary_request(request)
    raise BadRequestError(f"unknown op {describe(op)}", field="op")


def inspect(game: Any, state: Any, seat: int, data: Any) -> dict[str, Any]:
    """Whether ``seat`` may play the move ``data`` now and, for a table play, how each meld of
    the proposed table reads (live feedback while a player builds a turn)."""
    out: dict[str, Any]
    try:
        game.check(state, seat, game.parse_move(data))
        out = {"legal": True}
    except (InvalidMoveError, IllegalMoveError, NotYourTurnError, GameOverError) as error:
        out = {"legal": False, "error": error.to_json()}
    play = data.get("play") if isinstance(data, dict) else None
    if isinstance(play, dict) and "table" in play:
        try:
            out["melds"] = game.describe_melds(state, seat, play["table"])
        except InvalidMoveError:
            pass  # a table that is not even a list of melds: the error above says why
    return out


def replay(record: Any) -> tuple[Any, Any]:
    """Rebuild the state of a game record {game, seed, options, players, moves: [{seat, move}]}.

    Any fault (a field missing, a move that no longer applies) is ``bad_state`` naming the path,
    so the page can keep the record aside and report it.
    """
    if not isinstance(record, dict):
        raise BadStateError("a game record is an object", path="$")
    game = get_game(record.get("game"))
    moves = record.get("moves", [])
    if not isinstance(moves, list):
        raise BadStateError("moves must be a list", path="$.moves")
    try:
        state = game.new_game(record.get("seed"), record.get("options"), record.get("players"))
    except EngineError as error:
        raise BadStateError(f"cannot start the recorded game: {error.message}", path="$") from None
    for index, entry in enumerate(moves):
        path = f"$.moves[{index}]"
        if not isinstance(entry, dict) or not isinstance(entry.get("seat"), int):
            raise BadStateError("a recorded move is {seat, move}", path=path)
        try:
            state = game.apply(state, entry["seat"], game.parse_move(entry.get("move")))
        except EngineError as error:
            raise BadStateError(
                f"recorded move does not apply: {error.message}", path=path
            ) from None
    return game, state
