"""Review: where a player lost points, judged decision by decision from what the seat saw.

The ``review`` op (``tapete.api``) and ``python -m tapete review <record.json>`` go through a
game record and judge every decision of one seat with the game's own analysis, the same the
Hint uses, from that seat's view at that moment (never from hidden cards: the same view always
gets the same verdict):

- Wizard (:mod:`.wizard`): the hint's search picks the bid, trump or card; paired simulations
  give the expected round points of the move played and of the best one;
- Rummikub (:mod:`.rummikub`): the exact solver's best play against the one made, and draws
  where a play existed, in rack points;
- Willie (:mod:`.willie`): the solver's best meld against the one made, and the closes, in
  points;
- Lobo (:mod:`.lobo`): the exact or sampled odds of each move against the best move's, in
  percentage points of the chance to win.

Glossary:

decision    a move of the reviewed seat that had an alternative (a single legal move, or a
            draw when nothing could be laid, is not judged)
verdict     what a judge finds (:class:`~.verdict.Verdict`): the move played, the better move,
            the loss and its figures, graded *good*, *inaccuracy* or *mistake* by the game's
            thresholds (:class:`~.verdict.Grading`, stated in each judge's docstring)
chunk       what one request reviews: from move ``start`` until ``count`` decisions or the
            work ``budget`` are used up (:mod:`.driver`); the answer says where to go on
summary     the counts, the total loss and the three costliest decisions so far
            (:mod:`.summary`), sent back with the next chunk

Every search is seeded by labels of the seat's view and bounded by iteration counts, never by a
clock: the same game always gives the same review, in CPython and in Pyodide.
"""

from __future__ import annotations

from .driver import DEFAULT_BUDGET, MAX_BUDGET, judge_for, review_request
from .verdict import GRADES, Grading, Verdict

__all__ = [
    "DEFAULT_BUDGET",
    "GRADES",
    "MAX_BUDGET",
    "Grading",
    "Verdict",
    "judge_for",
    "review_request",
]
