"""What one lab game leaves behind, and its JSON form (the page keeps the records of a run and
sends them back for the summary, so reading them checks every field).

Glossary:

round row  one finished round: how it ended (``close``, ``out`` or ``stock``), its turns,
           whether the closer won it (None when nobody closed), whether the closer was
           undercut, and what each seat scored in it (the round's gains, before end bonuses)
record     one game of a run: its index, player count, round rows, final scores and winners;
           ``finished`` is False only when the safety limit on moves stopped it

JSON form of a record (compact, a run of thousands of games crosses the worker twice)::

    {"index": 3, "players": 2, "rounds": [["close", 4, true, false, [12, 0]], ...],
     "scores": [41, 12], "winners": [0], "finished": true}
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import BadRequestError, describe

MAX_SEATS = 8
MAX_ROUNDS = 10_000


@dataclass(frozen=True)
class RoundRow:
    end: str
    turns: int
    closer_won: bool | None  # None when nobody chose to close
    undercut: bool
    gains: tuple[float, ...]

    def to_json(self) -> list[Any]:
        return [self.end, self.turns, self.closer_won, self.undercut, list(self.gains)]


@dataclass(frozen=True)
class GameRecord:
    index: int
    players: int
    rounds: tuple[RoundRow, ...]
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    finished: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "players": self.players,
            "rounds": [row.to_json() for row in self.rounds],
            "scores": list(self.scores),
            "winners": list(self.winners),
            "finished": self.finished,
        }

    @classmethod
    def from_json(cls, data: Any, path: str = "record") -> GameRecord:
        """A record read back from the page; anything malformed is ``bad_request``."""
        if not isinstance(data, Mapping):
            raise BadRequestError(f"{path} must be an object; got {describe(data)}", field=path)
        players = _int(data.get("players"), f"{path}.players", 1, MAX_SEATS)
        rows = _list(data.get("rounds"), f"{path}.rounds", MAX_ROUNDS)
        return cls(
            index=_int(data.get("index"), f"{path}.index", 0, 10**9),
            players=players,
            rounds=tuple(
                _round_row(row, f"{path}.rounds[{i}]", players) for i, row in enumerate(rows)
            ),
            scores=_numbers(data.get("scores"), f"{path}.scores", players, allow_empty=True),
            winners=tuple(
                _int(seat, f"{path}.winners", 0, players - 1)
                for seat in _list(data.get("winners"), f"{path}.winners", players)
            ),
            finished=_bool(data.get("finished"), f"{path}.finished"),
        )


def _round_row(data: Any, path: str, players: int) -> RoundRow:
    if not isinstance(data, list) or len(data) != 5:
        raise BadRequestError(f"{path} must be a list of 5; got {describe(data)}", field=path)
    end, turns, closer_won, undercut, gains = data
    if not isinstance(end, str) or not 1 <= len(end) <= 16:
        raise BadRequestError(f"{path}: bad round end {describe(end)}", field=path)
    if closer_won is not None:
        closer_won = _bool(closer_won, path)
    return RoundRow(
        end,
        _int(turns, path, 0, 10**6),
        closer_won,
        _bool(undercut, path),
        _numbers(gains, path, players),
    )


def _int(value: Any, path: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadRequestError(
            f"{path} must be a whole number {low} to {high}; got {describe(value)}", field=path
        )
    return value


def _bool(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise BadRequestError(f"{path} must be true or false; got {describe(value)}", field=path)
    return value


def _list(value: Any, path: str, most: int) -> list[Any]:
    if not isinstance(value, list) or len(value) > most:
        raise BadRequestError(
            f"{path} must be a list of at most {most}; got {describe(value)}", field=path
        )
    return value


def _numbers(value: Any, path: str, count: int, allow_empty: bool = False) -> tuple[float, ...]:
    items = _list(value, path, count)
    if len(items) != count and not (allow_empty and not items):
        raise BadRequestError(
            f"{path} must hold {count} numbers; got {describe(value)}", field=path
        )
    for item in items:
        if isinstance(item, bool) or not isinstance(item, (int, float)) or not _finite(item):
            raise BadRequestError(f"{path}: {describe(item)} is not a score", field=path)
    return tuple(float(item) for item in items)


def _finite(value: float) -> bool:
    return math.isfinite(value) and abs(value) <= 1e9
