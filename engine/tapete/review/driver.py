"""The review's driver: walk a game record, hand each decision of the reviewed seat to the
game's judge, grade the verdicts and add them up, a chunk at a time.

A chunk starts at move ``start`` (from the state the previous chunk handed back, or by
replaying the record from the deal) and stops at the end of the record, after ``count``
decisions, or before the next decision would take the chunk over its ``budget`` of work units
(each judge says beforehand what a decision may cost: :meth:`Judge.cost`; replaying a move
costs ``REPLAY_COST``). Nothing here reads a clock: the same record gives the same chunks and
the same verdicts on any machine, and every verdict depends on the decision alone, so the
review is the same whatever the chunks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any, cast

from .. import get_game
from ..errors import BadRequestError, BadStateError, EngineError, describe
from .summary import Summary
from .verdict import Judge, Verdict

Progress = Callable[[int, int], None]

DEFAULT_BUDGET = 400  # work units (about a millisecond of CPython each) per chunk
MAX_BUDGET = 1_500
MAX_COUNT = 1_000  # decisions per chunk
REPLAY_COST = 1  # units per move replayed (the games' applies take well under a millisecond)


def judge_for(game_id: str) -> Judge:
    """The judge of a game: the module ``tapete.review.<game>``."""
    return cast(Judge, import_module(f".{game_id}", __package__))


@dataclass
class Chunk:
    """What one request reviews: verdicts of the moves ``start`` .. ``next - 1``."""

    game: Any
    seat: int
    total: int
    start: int
    next: int | None
    state: Any
    items: list[dict[str, Any]] = field(default_factory=list)
    work: int = 0

    def to_json(self, summary: Summary, judge: Judge) -> dict[str, Any]:
        return {
            "game": self.game.id,
            "seat": self.seat,
            "total": self.total,
            "start": self.start,
            "next": self.next,
            "done": self.total if self.next is None else self.next,
            "items": self.items,
            "summary": summary.to_json(),
            "grading": judge.GRADING.to_json(),
            "work": self.work,
            "state": None if self.next is None else self.game.to_json(self.state),
        }


def review_request(request: Mapping[str, Any], progress: Progress | None = None) -> dict[str, Any]:
    """The ``review`` op: {record, seat?, start?, state?, count?, budget?, summary?} -> the
    verdicts of one chunk, the summary so far and where to go on (see ``tapete.api``)."""
    record = request.get("record")
    if not isinstance(record, dict):
        raise BadRequestError(
            f"record must be a game record; got {describe(record)}", field="record"
        )
    game, first = start_game(record)
    moves = record.get("moves", [])
    if not isinstance(moves, list):
        raise BadStateError("moves must be a list", path="$.moves")
    seat = review_seat(request, record, game.players(first))
    start = _whole(request, "start", 0, len(moves), 0)
    count = _whole(request, "count", 1, MAX_COUNT, MAX_COUNT)
    budget = _whole(request, "budget", 1, MAX_BUDGET, DEFAULT_BUDGET)
    key = f"{game.id}:{seat}:{record.get('seed')}:{len(moves)}"
    summary = Summary(key=key)
    if request.get("summary") is not None:
        summary = Summary.from_json(request["summary"], key)
    state, position = first, 0
    if start > 0 and request.get("state") is not None:
        state, position = game.from_json(request["state"]), start
    judge = judge_for(game.id)
    chunk = review_moves(
        game, judge, state, moves, seat, position, start, count, budget, summary, progress
    )
    return chunk.to_json(summary, judge)


def start_game(record: Mapping[str, Any]) -> tuple[Any, Any]:
    """The recorded game's object and first state (faults are ``bad_state``, as ``replay``)."""
    game = get_game(record.get("game"))
    try:
        state = game.new_game(record.get("seed"), record.get("options"), record.get("players"))
    except EngineError as error:
        raise BadStateError(f"cannot start the recorded game: {error.message}", path="$") from None
    return game, state


def review_seat(request: Mapping[str, Any], record: Mapping[str, Any], players: int) -> int:
    """The seat asked for, else the record's first human seat."""
    seat = request.get("seat")
    if seat is not None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise BadRequestError(
                f"seat must be 0..{players - 1}; got {describe(seat)}", field="seat"
            )
        return seat
    seats = record.get("seats")
    if isinstance(seats, list):
        for index, info in enumerate(seats[:players]):
            if isinstance(info, dict) and info.get("kind") == "human":
                return index
    raise BadRequestError("the record has no human seat: say which seat to review", field="seat")


def review_moves(
    game: Any,
    judge: Judge,
    state: Any,
    moves: Sequence[Any],
    seat: int,
    position: int,
    start: int,
    count: int,
    budget: int,
    summary: Summary,
    progress: Progress | None = None,
) -> Chunk:
    """Go through ``moves`` from ``position`` (``state`` is the state before that move),
    judging the moves of ``seat`` from ``start`` on, within ``count`` decisions and ``budget``
    work units (a chunk always gets at least one move done)."""
    chunk = Chunk(game=game, seat=seat, total=len(moves), start=start, next=None, state=state)
    decisions = 0
    index = position
    while index < len(moves):
        mover, move = read_entry(game, moves[index], index)
        judging = index >= start and mover == seat
        cost = REPLAY_COST + (judge.cost(game, state, seat) if judging else 0)
        if chunk.work > 0 and (chunk.work + cost > budget or (judging and decisions >= count)):
            break
        after = apply_entry(game, state, mover, move, index)
        if judging:
            verdict = judge.judge(game, state, seat, move)
            decisions += 1
            if verdict is not None:
                chunk.items.append(graded(judge, verdict, index, seat, summary))
            if progress is not None:
                progress(index + 1, len(moves))
        chunk.work += cost
        state = after
        index += 1
    chunk.state = state
    chunk.next = index if index < len(moves) else None
    return chunk


def read_entry(game: Any, entry: Any, index: int) -> tuple[int, Any]:
    path = f"$.moves[{index}]"
    if not isinstance(entry, dict) or isinstance(entry.get("seat"), bool):
        raise BadStateError("a recorded move is {seat, move}", path=path)
    mover = entry.get("seat")
    if not isinstance(mover, int):
        raise BadStateError("a recorded move is {seat, move}", path=path)
    try:
        return mover, game.parse_move(entry.get("move"))
    except EngineError as error:
        raise BadStateError(f"recorded move does not read: {error.message}", path=path) from None


def apply_entry(game: Any, state: Any, mover: int, move: Any, index: int) -> Any:
    try:
        return game.apply(state, mover, move)
    except EngineError as error:
        raise BadStateError(
            f"recorded move does not apply: {error.message}", path=f"$.moves[{index}]"
        ) from None


def graded(
    judge: Judge, verdict: Verdict, index: int, seat: int, summary: Summary
) -> dict[str, Any]:
    """A verdict as the op answers it, graded and added to ``summary``."""
    tenths = verdict.loss_tenths
    grade = judge.GRADING.grade(tenths, forced=verdict.at_least)
    summary.add(index, tenths, grade)
    return {
        "index": index,
        "seat": seat,
        "kind": verdict.kind,
        "played": verdict.played,
        "best": verdict.best,
        "loss": tenths / 10,
        "grade": grade,
        "played_value": verdict.played_value,
        "best_value": verdict.best_value,
        "exact": verdict.exact,
        "context": dict(verdict.context),
        "facts": dict(verdict.facts),
    }


def _whole(request: Mapping[str, Any], name: str, low: int, high: int, default: int) -> int:
    value = request.get(name)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadRequestError(
            f"{name} must be a whole number {low} to {high}; got {describe(value)}", field=name
        )
    return value
