"""The playtest lab's ops for the web worker (``tapete.api``: ``lab`` and ``lab_summary``).

The page runs a lab in chunks (a Python call cannot be interrupted, so it can show progress and
stop only between calls). Each ``lab`` request plays a chunk and adds its games to the tally of
the setting (:mod:`tapete.lab.tally`) that the page sends along, and answers the numbers so
far: the same numbers whatever the chunks, and the same table as ``python -m tapete.lab``.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from .. import get_game
from ..errors import BadRequestError, describe
from ..numbers import whole
from .records import GameRecord
from .run import MAX_GAMES, MAX_MOVES, LabConfig, Paused, Progress, run
from .stats import summary_of, table_cells
from .tally import Tally, tally_of

MAX_CHUNK = 1_000  # games per ``lab`` request at the most
# CPU seconds a ``lab`` request plays before it stops at the next move: with the longest bot move
# bounded too, no request runs long whatever the setting (the page asks for the next chunk)
CHUNK_SECONDS = 0.5


def chunk_request(request: Mapping[str, Any], progress: Progress | None = None) -> dict[str, Any]:
    """``lab``: {config, start, count, tally?, resume?} -> {config, start, records, tally,
    summary, cells, resume}: games ``start`` .. ``start + count - 1`` of the run (fewer at its
    end; ``count`` at most ``MAX_CHUNK``), their records, and the ``tally`` sent in (none: an
    empty one) with them added, with its numbers: the page keeps one tally per setting and
    shows the numbers so far after every chunk.

    A chunk stops early, between two moves, once it has spent ``CHUNK_SECONDS`` of CPU: the
    game it was playing comes back as ``resume`` ({index, moves, state}) and the next request
    sends it back, with ``start`` = its index, to go on from there. The numbers are the same
    however the games are cut into chunks."""
    config = LabConfig.from_json(request.get("config"))
    start = _count(request, "start", 0, config.games - 1)
    count = _count(request, "count", 1, MAX_CHUNK)
    paused = _paused(request.get("resume"), config, start)
    setting = config.key()
    tally = Tally(setting=setting)
    if request.get("tally") is not None:
        tally = Tally.from_json(request["tally"])
        if tally.setting != setting:
            raise BadRequestError("the tally sent counts games of another setting", field="tally")
    Tally(spans=list(tally.spans)).add_span(start, min(start + count, config.games))  # fail early
    deadline = time.process_time() + CHUNK_SECONDS
    result = run(
        config,
        progress,
        should_stop=lambda: time.process_time() > deadline,
        start=start,
        count=count,
        paused=paused,
    )
    tally.add(tally_of(result.records))
    engine = get_game(config.game)
    return {
        "config": config.to_json(),
        "start": start,
        "records": [r.to_json() for r in result.records],
        "resume": result.paused.to_json(engine) if result.paused else None,
        **numbers(tally),
    }


def _paused(data: Any, config: LabConfig, start: int) -> Paused | None:
    """The game a previous chunk stopped in, checked like any state a page sends."""
    if data is None:
        return None
    if not isinstance(data, dict) or sorted(data) != ["index", "moves", "state"]:
        raise BadRequestError("resume is {index, moves, state}", field="resume")
    if data["index"] != start or isinstance(data["index"], bool):
        raise BadRequestError("resume goes on with the game at start", field="resume")
    moves = whole(data["moves"], 0, MAX_MOVES)
    if moves is None:
        raise BadRequestError(f"resume.moves must be 0 to {MAX_MOVES}", field="resume")
    engine = get_game(config.game)
    state = engine.from_json(data["state"])
    if engine.players(state) != config.players[start % len(config.players)]:
        raise BadRequestError("resume is a game of another player count", field="resume")
    if dict(engine.parse_options(None), **config.option) != dict(state.option):
        raise BadRequestError("resume is a game of another setting", field="resume")
    return Paused(start, moves, state)


def summary_request(request: Mapping[str, Any]) -> dict[str, Any]:
    """``lab_summary``: {records?, tallies?} -> {tally, summary, cells}: the numbers of those
    game records and tallies together (in any order: the same numbers)."""
    records = request.get("records", [])
    tallies = request.get("tallies", [])
    for name, value in (("records", records), ("tallies", tallies)):
        if not isinstance(value, list) or len(value) > MAX_GAMES:
            raise BadRequestError(f"{name} must be a list; got {describe(value)}", field=name)
    tally = tally_of(GameRecord.from_json(r, f"records[{i}]") for i, r in enumerate(records))
    for i, data in enumerate(tallies):
        tally.add(Tally.from_json(data, f"tallies[{i}]"))
    return numbers(tally)


def numbers(tally: Tally) -> dict[str, Any]:
    summary = summary_of(tally)
    return {"tally": tally.to_json(), "summary": summary, "cells": table_cells(summary)}


def _count(request: Mapping[str, Any], name: str, low: int, high: int) -> int:
    value = request.get(name)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadRequestError(
            f"{name} must be a whole number {low} to {high}; got {describe(value)}", field=name
        )
    return value
