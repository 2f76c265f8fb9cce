"""The running summary of a review: counts per grade, the total loss, the costliest decisions.

The page reviews a game chunk by chunk and sends each chunk's summary back with the next one
(as the playtest lab does with its tally), so the engine alone adds things up and the page and
``python -m tapete review`` show the same numbers whatever the chunks. A summary names the
review it belongs to (``key``: the game, the seat, the seed and the number of moves); one of
another review is refused. Losses are added in tenths (integers): no rounding drift.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import BadRequestError, describe
from .verdict import GRADES

TOP = 3  # the costliest decisions kept
MAX_TENTHS = 10**9


@dataclass
class Summary:
    key: str
    decisions: int = 0
    grades: dict[str, int] = field(default_factory=lambda: dict.fromkeys(GRADES, 0))
    loss_tenths: int = 0
    top: list[tuple[int, int]] = field(default_factory=list)  # (loss in tenths, move index)

    def add(self, index: int, loss_tenths: int, grade: str) -> None:
        self.decisions += 1
        self.grades[grade] += 1
        self.loss_tenths += loss_tenths
        if loss_tenths > 0:
            self.top.append((loss_tenths, index))
            self.top.sort(key=lambda item: (-item[0], item[1]))
            del self.top[TOP:]

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "decisions": self.decisions,
            **self.grades,
            "loss": self.loss_tenths / 10,
            "loss_tenths": self.loss_tenths,
            "top": [{"index": index, "loss": tenths / 10} for tenths, index in self.top],
            "top_tenths": [[tenths, index] for tenths, index in self.top],
        }

    @classmethod
    def from_json(cls, data: Any, key: str) -> Summary:
        """A summary sent back by the page, checked field by field (``bad_request``)."""
        if not isinstance(data, dict):
            raise BadRequestError(
                f"summary must be an object; got {describe(data)}", field="summary"
            )
        if data.get("key") != key:
            raise BadRequestError("the summary sent belongs to another review", field="summary")
        out = cls(key=key, decisions=_count(data, "decisions"))
        for grade in GRADES:
            out.grades[grade] = _count(data, grade)
        out.loss_tenths = _count(data, "loss_tenths")
        top = data.get("top_tenths")
        if not isinstance(top, list) or len(top) > TOP:
            raise BadRequestError("summary.top_tenths must be a short list", field="summary")
        for item in top:
            if not isinstance(item, list) or len(item) != 2 or not all(_is_count(v) for v in item):
                raise BadRequestError(
                    f"summary.top_tenths holds [tenths, index] pairs; got {describe(item)}",
                    field="summary",
                )
            out.top.append((item[0], item[1]))
        if sum(out.grades.values()) != out.decisions:
            raise BadRequestError("summary: the grades do not add up", field="summary")
        return out


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_TENTHS


def _count(data: dict[str, Any], name: str) -> int:
    value = data.get(name)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_TENTHS:
        raise BadRequestError(
            f"summary.{name} must be a whole number 0 or more; got {describe(value)}",
            field="summary",
        )
    return value
