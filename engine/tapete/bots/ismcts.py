"""Information Set Monte Carlo Tree Search over the Game protocol.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree
Search", IEEE TCIAIG 4(2), 2012). Every iteration:

1. *determinize*: draw one world the searching seat cannot tell from the real state (the game's
   ``sample_world``: hidden cards re-dealt consistently with what the seat has seen);
2. *select*: walk down the tree from the root, choosing among the children whose moves are
   legal **in this world** by UCB1 with availability counts (a child's exploration term counts
   the iterations in which it could have been chosen, not the parent's visits);
3. *expand* one untried move (the ``order`` hook puts the most promising first);
4. *play out* to the search horizon with the ``playout`` policy;
5. *back up* each seat's reward into the nodes where that seat moved.

Glossary:

domain     what the search runs over (:class:`Domain`): a way to draw a world, whose turn it is,
           the legal moves, how a move changes a world and what each seat earns at the horizon.
           :class:`GameDomain` adapts any :class:`tapete.core.Game`; a game may supply a faster
           domain of its own (``tapete.wizard.ai`` plays out on plain lists)
world      one determinization; it belongs to a single iteration, so ``apply`` may change it in
           place
horizon    where a playout stops (``to_move`` returns None): the end of the game, or earlier
           when the domain says so (the end of a Wizard round)
budget     a number of iterations, never seconds, so a search reproduces exactly from its seed
           on any machine (CPython or Pyodide)

The tree is keyed by the sequence of moves from the root, as the searching seat sees them; it
never reads a hidden card of the real state, because the only states it sees are the worlds the
domain draws.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from ..rng import Rng

W = TypeVar("W")
M = TypeVar("M", bound=Hashable)

Progress = Callable[[int, int], None]
PlayoutPolicy = Callable[[W, Rng], M]
Rollout = Callable[[W, Rng], W]
MoveOrder = Callable[[W, Sequence[M], Rng], Sequence[M]]
Erratic = Callable[[W, int, Sequence[M], Rng], "M | None"]

# A progress callback that the caller (the web worker's API call) may install around a bot
# call without threading it through the bot signature ``(game, state, seat, rng)``.
CURRENT_PROGRESS: ContextVar[Progress | None] = ContextVar("tapete_progress", default=None)


@contextmanager
def reporting_progress(callback: Progress | None) -> Iterator[None]:
    """Within the block, searches report ``callback(done, total)`` as they run."""
    token = CURRENT_PROGRESS.set(callback)
    try:
        yield
    finally:
        CURRENT_PROGRESS.reset(token)


class Domain(Protocol[W, M]):
    """What ISMCTS needs from a game, seen from one searching seat."""

    def determinize(self, rng: Rng) -> W:
        """A fresh world consistent with everything the searching seat has seen."""
        ...

    def to_move(self, world: W) -> int | None:
        """The seat to move, or None at the search horizon."""
        ...

    def legal_moves(self, world: W) -> Sequence[M]:
        """The legal moves of the seat to move, in a stable order."""
        ...

    def apply(self, world: W, move: M) -> W:
        """The world after ``move`` (may change ``world`` in place and return it)."""
        ...

    def returns(self, world: W) -> Sequence[float]:
        """The reward of every seat at the horizon, roughly within [-1, 1]."""
        ...


class Node(Generic[M]):
    """One node of the tree: reached by ``move`` of seat ``mover`` from ``parent``."""

    __slots__ = ("move", "mover", "parent", "children", "visits", "total", "available")

    def __init__(self, move: M | None, mover: int, parent: Node[M] | None) -> None:
        self.move = move
        self.mover = mover
        self.parent = parent
        self.children: dict[M, Node[M]] = {}
        self.visits = 0
        self.total = 0.0
        self.available = 0

    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0

    def ucb(self, exploration: float) -> float:
        """UCB1 with the availability count in place of the parent's visits."""
        if self.visits == 0:
            return math.inf
        return self.total / self.visits + exploration * math.sqrt(
            math.log(self.available) / self.visits
        )


@dataclass(frozen=True)
class MoveStats(Generic[M]):
    """How the search rated one root move."""

    move: M
    visits: int
    mean: float


@dataclass(frozen=True)
class SearchResult(Generic[M]):
    """The chosen move and the statistics of every root move, most visited first."""

    move: M
    stats: tuple[MoveStats[M], ...]
    iterations: int


def random_playout(domain: Domain[W, M]) -> PlayoutPolicy[W, M]:
    """The default playout policy: a uniformly random legal move."""

    def policy(world: W, rng: Rng) -> M:
        return rng.choice(domain.legal_moves(world))

    return policy


class Search(Generic[W, M]):
    """One ISMCTS search from the searching seat's information set.

    ``playout`` picks moves after the tree (default: random); ``order`` orders the untried moves
    of a node, the first being expanded next (default: random order); ``exploration`` is the
    UCB1 constant, in units of the domain's rewards. ``rollout``, if given, replaces the whole
    playout loop: it plays a world to the horizon in one call (a domain's faster equivalent of
    ``while to_move(world) is not None: world = apply(world, playout(world, rng))``).
    ``erratic``, if given, may name a move that the seat to move makes without regard to its
    reward (a seat believed to play at random at times): the tree then follows that move, as a
    chance event, instead of choosing by UCB1; None lets the tree choose.
    """

    def __init__(
        self,
        domain: Domain[W, M],
        *,
        exploration: float = 0.7,
        playout: PlayoutPolicy[W, M] | None = None,
        order: MoveOrder[W, M] | None = None,
        progress: Progress | None = None,
        rollout: Rollout[W] | None = None,
        erratic: Erratic[W, M] | None = None,
    ) -> None:
        self.domain = domain
        self.erratic = erratic
        self.exploration = exploration
        self.playout = playout if playout is not None else random_playout(domain)
        self.order = order
        self.rollout = rollout
        self.progress = progress if progress is not None else CURRENT_PROGRESS.get()

    def run(self, root_moves: Sequence[M], iterations: int, rng: Rng) -> SearchResult[M]:
        """Search ``iterations`` times and return the most visited root move.

        ``root_moves`` are the searching seat's legal moves (the same in every world); with a
        single one there is nothing to search.
        """
        if not root_moves:
            raise ValueError("no legal move to search")
        root: Node[M] = Node(None, -1, None)
        done = 0
        if len(root_moves) > 1:
            step = max(1, iterations // 20)
            for done in range(1, iterations + 1):
                self.iterate(root, rng)
                if self.progress is not None and (done % step == 0 or done == iterations):
                    self.progress(done, iterations)
        return self.result(root, root_moves, done)

    def iterate(self, root: Node[M], rng: Rng) -> None:
        """One determinize-select-expand-playout-backup pass."""
        domain = self.domain
        world = domain.determinize(rng)
        node = root
        while (seat := domain.to_move(world)) is not None:
            moves = domain.legal_moves(world)
            erratic = self.erratic
            if erratic is not None and (move := erratic(world, seat, moves, rng)) is not None:
                known = node.children.get(move)
                node = self.follow(node, move, seat)
                world = domain.apply(world, move)
                if known is None:
                    break
                continue
            child = self.expand(node, world, moves, seat, rng)
            if child is not None:
                world = domain.apply(world, child.move)  # type: ignore[arg-type]
                node = child
                break
            node = self.select(node, moves)
            world = domain.apply(world, node.move)  # type: ignore[arg-type]
        if self.rollout is not None:
            world = self.rollout(world, rng)
        else:
            while domain.to_move(world) is not None:
                world = domain.apply(world, self.playout(world, rng))
        self.backup(node, domain.returns(world))

    def expand(
        self, node: Node[M], world: W, moves: Sequence[M], seat: int, rng: Rng
    ) -> Node[M] | None:
        """A new child for an untried legal move, or None when every legal move has one."""
        children = node.children
        untried = [m for m in moves if m not in children]
        if not untried:
            return None
        if self.order is not None:
            move = self.order(world, untried, rng)[0]
        else:
            move = untried[rng.below(len(untried))]
        for m in moves:  # every legal sibling was available this time
            if m in children:
                children[m].available += 1
        child = Node(move, seat, node)
        child.available = 1
        children[move] = child
        return child

    @staticmethod
    def follow(node: Node[M], move: M, seat: int) -> Node[M]:
        """The child for a move made by chance (``erratic``), new if need be."""
        child = node.children.get(move)
        if child is None:
            child = node.children[move] = Node(move, seat, node)
        child.available += 1
        return child

    def select(self, node: Node[M], moves: Sequence[M]) -> Node[M]:
        """The legal child with the best UCB score; ties go to the first in ``moves``."""
        exploration = self.exploration
        best: Node[M] | None = None
        best_score = -math.inf
        children = node.children
        log, sqrt = math.log, math.sqrt
        for move in moves:
            child = children[move]
            child.available += 1
            visits = child.visits  # Node.ucb, inlined (the same arithmetic)
            if visits == 0:
                score = math.inf
            else:
                score = child.total / visits + exploration * sqrt(log(child.available) / visits)
            if score > best_score:
                best, best_score = child, score
        assert best is not None
        return best

    @staticmethod
    def backup(node: Node[M] | None, rewards: Sequence[float]) -> None:
        while node is not None and node.parent is not None:
            node.visits += 1
            node.total += rewards[node.mover]
            node = node.parent

    @staticmethod
    def result(root: Node[M], root_moves: Sequence[M], iterations: int) -> SearchResult[M]:
        order = {move: i for i, move in enumerate(root_moves)}
        stats = [
            MoveStats(move, root.children[move].visits, root.children[move].mean())
            if move in root.children
            else MoveStats(move, 0, 0.0)
            for move in root_moves
        ]
        stats.sort(key=lambda s: (-s.visits, -s.mean, order[s.move]))
        return SearchResult(stats[0].move, tuple(stats), iterations)


def search(
    domain: Domain[W, M],
    root_moves: Sequence[M],
    iterations: int,
    rng: Rng,
    *,
    exploration: float = 0.7,
    playout: PlayoutPolicy[W, M] | None = None,
    order: MoveOrder[W, M] | None = None,
    progress: Progress | None = None,
    rollout: Rollout[W] | None = None,
    erratic: Erratic[W, M] | None = None,
) -> SearchResult[M]:
    """Run ISMCTS for ``iterations`` and return the result (see :class:`Search`)."""
    engine = Search(
        domain,
        exploration=exploration,
        playout=playout,
        order=order,
        progress=progress,
        rollout=rollout,
        erratic=erratic,
    )
    return engine.run(root_moves, iterations, rng)


# -- any Game ----------------------------------------------------------------------------------


def win_share(game: Any, state: Any) -> list[float]:
    """The default reward at the end of a game: 1 shared among the winners, else 0."""
    outcome = game.outcome(state)
    seats = len(outcome.scores)
    return [1.0 / len(outcome.winners) if s in outcome.winners else 0.0 for s in range(seats)]


class GameDomain:
    """Any :class:`tapete.core.Game` as a search domain, seen from ``seat``.

    Worlds are the game's own immutable states, so this is general but not fast. ``horizon``
    may stop playouts early (it returns True where the search should stop), and ``evaluate``
    scores such a state (default: :func:`win_share` at the end of the game).
    """

    def __init__(
        self,
        game: Any,
        state: Any,
        seat: int,
        *,
        horizon: Callable[[Any], bool] | None = None,
        evaluate: Callable[[Any, Any], Sequence[float]] = win_share,
    ) -> None:
        self.game = game
        self.state = state
        self.seat = seat
        self.horizon = horizon
        self.evaluate = evaluate

    def determinize(self, rng: Rng) -> Any:
        return self.game.sample_world(self.state, self.seat, rng)

    def to_move(self, world: Any) -> int | None:
        if self.horizon is not None and self.horizon(world):
            return None
        mover: int | None = self.game.to_move(world)
        return mover

    def legal_moves(self, world: Any) -> Sequence[Any]:
        moves: list[Any] = self.game.legal_moves(world, self.game.to_move(world))
        return moves

    def apply(self, world: Any, move: Any) -> Any:
        return self.game.apply(world, self.game.to_move(world), move)

    def returns(self, world: Any) -> Sequence[float]:
        return self.evaluate(self.game, world)


def ismcts_bot(iterations: int, *, exploration: float = 0.7) -> Callable[[Any, Any, int, Rng], Any]:
    """A bot ``(game, state, seat, rng) -> move`` that searches any game to its end.

    Fair by construction: it sees the state only through ``game.sample_world`` and the seat's
    legal moves, which depend on what the seat can see.
    """

    def bot(game: Any, state: Any, seat: int, rng: Rng) -> Any:
        moves = game.legal_moves(state, seat)
        domain = GameDomain(game, state, seat)
        return search(domain, moves, iterations, rng, exploration=exploration).move

    return bot
