"""A tally: the games of a lab run counted into multisets, so the counts of two chunks add up
exactly to the counts of both (integer addition), whatever the chunk sizes and their order.
The summary (:mod:`tapete.lab.stats`) is computed from a tally alone, so the page, which adds up
chunk tallies, and the command line, which tallies all the records at once, print the same.

Glossary:

counter  {value: how many times}: values are text (a number in its shortest exact form, or a
         round end such as ``close``), counts are whole numbers
spans    the game indices tallied, as sorted, disjoint [start, end) ranges: adding a tally that
         counts a game twice is refused
counts   games, finished games, closes, closes the closer won, closes undercut, drawn games
setting  which lab setting the games were played under (:func:`tapete.lab.LabConfig.key`), or
         "" when unknown: tallies of two different settings are never added up

JSON form: {"setting": "...", "spans": [[0, 8]], "counts": {"games": 8, ...}, "counters":
{"ends": {"close": 20}, "turns": {"3": 7, ...}, ...}}.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..errors import BadRequestError, describe
from .records import GameRecord

COUNTS = ("games", "finished", "closes", "closer_won", "undercut", "drawn")
# players: players per finished game; ends: how each round ended; rounds_per_game; turns: turns
# per round; round_score: the best gain of each round; best, worst, gap: per finished game;
# finals: every seat's final score
COUNTERS = (
    "players",
    "ends",
    "rounds_per_game",
    "turns",
    "round_score",
    "best",
    "worst",
    "gap",
    "finals",
)
MAX_KEYS = 100_000
MAX_SETTING = 64
MAX_COUNT = 10**12


def number_key(value: float) -> str:
    """The counter key of a number: ``12`` for 12.0, the shortest exact text otherwise."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


@dataclass
class Tally:
    setting: str = ""
    spans: list[tuple[int, int]] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)
    counters: dict[str, Counter[str]] = field(
        default_factory=lambda: {name: Counter() for name in COUNTERS}
    )

    def add_record(self, record: GameRecord) -> None:
        self.add_span(record.index, record.index + 1)
        self.counts["games"] += 1
        if not record.finished:
            return
        c = self.counters
        self.counts["finished"] += 1
        self.counts["drawn"] += len(record.winners) > 1
        c["players"][str(record.players)] += 1
        c["rounds_per_game"][str(len(record.rounds))] += 1
        best, worst = max(record.scores), min(record.scores)
        c["best"][number_key(best)] += 1
        c["worst"][number_key(worst)] += 1
        c["gap"][number_key(best - worst)] += 1
        c["finals"].update(number_key(s) for s in record.scores)
        for row in record.rounds:
            c["ends"][row.end] += 1
            c["turns"][str(row.turns)] += 1
            if row.gains:
                c["round_score"][number_key(max(row.gains))] += 1
            if row.end == "close":
                self.counts["closes"] += 1
                self.counts["closer_won"] += bool(row.closer_won)
                self.counts["undercut"] += row.undercut

    def add(self, other: Tally) -> None:
        if self.setting and other.setting and self.setting != other.setting:
            raise BadRequestError("these tallies count games of different settings", field="tally")
        self.setting = self.setting or other.setting
        for start, end in other.spans:
            self.add_span(start, end)
        self.counts.update(other.counts)
        for name in COUNTERS:
            self.counters[name].update(other.counters[name])

    def add_span(self, start: int, end: int) -> None:
        """Mark games start..end-1 as tallied (``bad_request`` if any already is)."""
        spans = self.spans
        if any(start < e and s < end for s, e in spans):
            raise BadRequestError(f"games {start} to {end - 1} are counted twice", field="tally")
        spans.append((start, end))
        spans.sort()
        merged = [spans[0]]
        for s, e in spans[1:]:
            if s == merged[-1][1]:
                merged[-1] = (merged[-1][0], e)
            else:
                merged.append((s, e))
        self.spans = merged

    def numbers(self, name: str) -> list[tuple[Fraction, int]]:
        """A numeric counter as sorted (value, count) pairs, values exact."""
        return sorted((Fraction(k), n) for k, n in self.counters[name].items() if n)

    def to_json(self) -> dict[str, Any]:
        return {
            "setting": self.setting,
            "spans": [list(span) for span in self.spans],
            "counts": {name: self.counts[name] for name in COUNTS},
            "counters": {name: dict(sorted(self.counters[name].items())) for name in COUNTERS},
        }

    @classmethod
    def from_json(cls, data: Any, path: str = "tally") -> Tally:
        """A tally sent back by the page; anything malformed is ``bad_request``."""
        if not isinstance(data, Mapping):
            raise BadRequestError(f"{path} must be an object; got {describe(data)}", field=path)
        setting = data.get("setting", "")
        if not isinstance(setting, str) or len(setting) > MAX_SETTING:
            raise BadRequestError(f"{path}.setting: bad value {describe(setting)}", field=path)
        tally = cls(setting=setting)
        spans = data.get("spans")
        if not isinstance(spans, list) or len(spans) > MAX_KEYS:
            raise BadRequestError(f"{path}.spans must be a list", field=path)
        for span in spans:
            ok = isinstance(span, list) and len(span) == 2 and all(_whole(v) for v in span)
            if not ok or not 0 <= span[0] < span[1] <= 10**9:
                raise BadRequestError(f"{path}.spans: bad range {describe(span)}", field=path)
            tally.add_span(span[0], span[1])
        counts = _mapping(data.get("counts"), f"{path}.counts")
        for name in COUNTS:
            tally.counts[name] = _count(counts.get(name), f"{path}.counts.{name}")
        counters = _mapping(data.get("counters"), f"{path}.counters")
        for name in COUNTERS:
            tally.counters[name] = Counter(_counter(counters.get(name), f"{path}.{name}", name))
        return tally


def tally_of(records: Iterable[GameRecord]) -> Tally:
    tally = Tally()
    for record in records:
        tally.add_record(record)
    return tally


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _count(value: Any, path: str) -> int:
    if not _whole(value) or not 0 <= value <= MAX_COUNT:
        raise BadRequestError(f"{path} must be a count; got {describe(value)}", field=path)
    return int(value)


def _mapping(value: Any, path: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping) or len(value) > MAX_KEYS:
        raise BadRequestError(f"{path} must be an object; got {describe(value)}", field=path)
    return value


def _counter(value: Any, path: str, name: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for key, count in _mapping(value, path).items():
        if name == "ends":
            ok = 1 <= len(key) <= 16
        else:
            try:
                ok = len(key) <= 32 and number_key(float(key)) == key and abs(float(key)) <= 1e9
            except ValueError:
                ok = False
        if not ok:
            raise BadRequestError(f"{path}: bad value {describe(key)}", field=path)
        out[key] = _count(count, f"{path}.{key}")
    return out
