"""What a judge says about one decision, and how a loss becomes a grade.

Glossary:

verdict     a judge's finding on one decision: the move played, the better move, the loss and
            the figures behind it (:class:`Verdict`)
loss        how much the move played gave away against the best move, in the game's unit,
            never negative; rounded to tenths (``loss_tenths``) before it is graded or added up,
            so a total does not depend on how the review was cut into chunks
grading     a game's unit and its two thresholds (:class:`Grading`): a loss under
            ``inaccuracy`` is *good*, under ``mistake`` an *inaccuracy*, else a *mistake*
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

GRADES = ("good", "inaccuracy", "mistake")


@dataclass(frozen=True)
class Grading:
    """A game's unit of loss and the thresholds (in that unit) of the three grades."""

    unit: str
    inaccuracy: float
    mistake: float

    def grade(self, loss_tenths: int, *, forced: str | None = None) -> str:
        """The grade of a loss (in tenths of the unit); ``forced`` raises it to at least that
        grade (a missed chance to go out is a mistake whatever its points)."""
        loss = loss_tenths / 10
        grade = (
            "good" if loss < self.inaccuracy else "inaccuracy" if loss < self.mistake else "mistake"
        )
        if forced is not None and GRADES.index(forced) > GRADES.index(grade):
            return forced
        return grade

    def to_json(self) -> dict[str, Any]:
        return {"unit": self.unit, "inaccuracy": self.inaccuracy, "mistake": self.mistake}


@dataclass(frozen=True)
class Verdict:
    """One decision judged from the seat's view.

    ``played`` and ``best`` are moves in their JSON form (``best`` is ``played`` when nothing
    was better); ``played_value`` and ``best_value`` are what the judge measured (expected
    points, rack points laid, odds...), None where it has no figure; ``exact`` says the figures
    are exact (a solver) rather than estimated (a seeded simulation). ``at_least`` forces a
    minimum grade; ``context`` says where the decision was (round, trick, turn), ``facts`` the
    game's own details for the page and the command line.
    """

    kind: str
    played: Any
    best: Any
    loss: float
    played_value: float | None = None
    best_value: float | None = None
    exact: bool = False
    at_least: str | None = None
    context: Mapping[str, Any] = field(default_factory=dict)
    facts: Mapping[str, Any] = field(default_factory=dict)

    @property
    def loss_tenths(self) -> int:
        return max(0, round(self.loss * 10))


class Judge(Protocol):
    """What the review's driver needs from a game's judge (a module of this package)."""

    GRADING: Grading

    def cost(self, game: Any, state: Any, seat: int) -> int:
        """The work units the judgement of ``seat``'s decision in ``state`` will take at most
        (about a millisecond of CPython each), known before it runs."""
        ...

    def judge(self, game: Any, state: Any, seat: int, move: Any) -> Verdict | None:
        """The verdict on ``move`` (already checked legal) from ``seat``'s view of ``state``,
        or None when there was nothing to decide (a single legal move, no play possible)."""
        ...


def rounded(value: float | None, digits: int = 1) -> float | None:
    return None if value is None else round(value, digits)
