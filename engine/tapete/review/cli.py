"""``python -m tapete review <record.json> [--seat N]``: the review the page shows, printed.

It sends the same ``review`` requests as the page, chunk after chunk, through
``tapete.api.handle`` (so it prints exactly the verdicts and the summary the page shows), then
prints one line per decision and the summary; ``--json`` prints every chunk's answer instead.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from ..api import handle
from .driver import DEFAULT_BUDGET, MAX_BUDGET

UNITS = {
    "points": "points",
    "rack_points": "rack points",
    "percent": "percentage points of the chance to win",
}


def run(
    record: Any, seat: int | None = None, budget: int = DEFAULT_BUDGET
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Every chunk's answer for the review of ``record`` (``ValueError`` with the engine's
    error when it refuses), and the last one."""
    chunks: list[dict[str, Any]] = []
    request: dict[str, Any] = {"op": "review", "record": record, "seat": seat, "budget": budget}
    while True:
        answer = json.loads(handle(json.dumps(request)))
        if not answer["ok"]:
            error = answer["error"]
            raise ValueError(f"{error['code']}: {error['message']}")
        result = answer["result"]
        chunks.append(result)
        if result["next"] is None:
            return chunks, result
        request.update(start=result["next"], state=result["state"], summary=result["summary"])


def move_text(item: dict[str, Any], which: str) -> str:
    """A short text of the move played (``which`` = "played") or the better one ("best")."""
    move = item[which]
    facts = item["facts"]
    if isinstance(move, dict):  # a table play: the tiles or cards it lays
        laid = facts["laid" if which == "played" else "best_laid"]
        return f"lay {' '.join(laid)}"
    return str(move)


def context_text(item: dict[str, Any]) -> str:
    return ", ".join(f"{name} {value}" for name, value in item["context"].items())


def lines(items: Sequence[dict[str, Any]], last: dict[str, Any]) -> list[str]:
    grading = last["grading"]
    unit = UNITS.get(grading["unit"], grading["unit"])
    out = [
        f"Review of seat {last['seat']} ({last['game']}, {last['total']} moves); losses in {unit};"
        f" good under {grading['inaccuracy']:g}, mistake from {grading['mistake']:g}",
        "",
        f"{'move':>5}  {'where':<20} {'played':<24} {'better':<24} {'loss':>6}  grade",
    ]
    by_index = {}
    for item in items:
        by_index[item["index"]] = item
        better = "" if item["best"] == item["played"] else move_text(item, "best")
        out.append(
            f"{item['index'] + 1:>5}  {context_text(item):<20} {move_text(item, 'played'):<24} "
            f"{better:<24} {item['loss']:>6.1f}  {item['grade']}"
        )
    summary = last["summary"]
    out += [
        "",
        f"{summary['decisions']} decisions: {summary['good']} good, "
        f"{summary['inaccuracy']} inaccuracies, {summary['mistake']} mistakes; "
        f"total loss {summary['loss']:.1f} {unit}",
    ]
    for rank, top in enumerate(summary["top"], 1):
        item = by_index[top["index"]]
        out.append(
            f"  {rank}. move {item['index'] + 1} ({context_text(item)}): played "
            f"{move_text(item, 'played')}, better {move_text(item, 'best')}, "
            f"loss {item['loss']:.1f}"
        )
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tapete review",
        description="Judge each decision of a seat of a game record, from what it could see.",
    )
    parser.add_argument("record", help="a game record (JSON file; '-' reads standard input)")
    parser.add_argument("--seat", type=int, default=None, help="the seat (default: first human)")
    parser.add_argument(
        "--budget",
        type=int,
        default=DEFAULT_BUDGET,
        help=f"work units per chunk (1..{MAX_BUDGET}; the verdicts do not depend on it)",
    )
    parser.add_argument("--json", action="store_true", help="print every chunk's answer")
    args = parser.parse_args(argv)
    try:
        text = sys.stdin.read() if args.record == "-" else open(args.record).read()
        record = json.loads(text)
        chunks, last = run(record, args.seat, args.budget)
    except (OSError, ValueError) as error:
        print(f"review: {error}", file=sys.stderr)
        return 2
    if args.json:
        for chunk in chunks:
            print(json.dumps({**chunk, "state": None}))
        return 0
    items = [item for chunk in chunks for item in chunk["items"]]
    print("\n".join(lines(items, last)))
    return 0
