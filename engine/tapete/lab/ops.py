"""The playtest lab's ops for the web worker (``tapete.api``: ``lab`` and ``lab_summary``).

The page runs a lab in chunks (a Python call cannot be interrupted, so it can show progress and
stop only between calls). Each ``lab`` request plays a chunk and adds its games to the tally of
the setting (:mod:`tapete.lab.tally`) that the page sends along, and answers the numbers so
far: the same numbers whatever the chunks, and the same table as ``python -m tapete.lab``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import BadRequestError, describe
from .records import GameRecord
from .run import MAX_GAMES, LabConfig, Progress, run
from .stats import summary_of, table_cells
from .tally import Tally, tally_of

MAX_CHUNK = 1_000  # games per ``lab`` request: the page asks for chunks of well under a second


def chunk_request(request: Mapping[str, Any], progress: Progress | None = None) -> dict[str, Any]:
    """``lab``: {config, start, count, tally?} -> {config, start, records, tally, summary,
    cells}: games ``start`` .. ``start + count - 1`` of the run (fewer at its end; ``count`` at
    most ``MAX_CHUNK``), their records, and the ``tally`` sent in (none: an empty one) with
    them added, with its numbers: the page keeps one tally per setting and shows the numbers
    so far after every chunk."""
    config = LabConfig.from_json(request.get("config"))
    start = _count(request, "start", 0, config.games - 1)
    count = _count(request, "count", 1, MAX_CHUNK)
    setting = config.key()
    tally = Tally(setting=setting)
    if request.get("tally") is not None:
        tally = Tally.from_json(request["tally"])
        if tally.setting != setting:
            raise BadRequestError("the tally sent counts games of another setting", field="tally")
    Tally(spans=list(tally.spans)).add_span(start, min(start + count, config.games))  # fail early
    result = run(config, progress, start=start, count=count)
    tally.add(tally_of(result.records))
    return {
        "config": config.to_json(),
        "start": start,
        "records": [r.to_json() for r in result.records],
        **numbers(tally),
    }


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
