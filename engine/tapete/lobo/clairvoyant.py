"""The clairvoyant bound: could this exact deal be beaten by a player who saw every card?

Glossary:

clairvoyant  a player who knows the whole order of the pile (and, in Classic Lobo, every
             round's shuffle): the game is then a puzzle without chance, searched depth first
sequence     the ranks of the pile in order (``seq[i]`` is the i-th card dealt or drawn); a
             position in a Vanguard game is ``(i, hand, res, wolf, final, active)`` with the
             multisets packed as in :mod:`tapete.lobo.solver`
winnable     some sequence of moves and choices wins the game
best score   the highest final score among the winning lines (the Vanguard)
budget       positions expanded; past it the answer is ``exact: False`` (``winnable`` is then
             True if a win was found already, else None: unknown)
resume       where a search that ran out of budget stopped, as JSON, so that another call goes
             on from there (:meth:`VanguardPuzzle.run` and :meth:`Classic.run` take it back):
             a Vanguard search's path of branch numbers from the first decision down (every
             branch before it was searched and wins nothing), a Classic search's round and the
             scores it may still stand at. Each call keeps its own memo, so memory stays within
             one call's budget whatever the total

No policy that cannot see the pile wins more often than this bound, so "was this deal
winnable?" is answered here after a game, and the share of winnable deals is the ceiling
against which bench/ measures the hint policy.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import BadOptionError, BadRequestError
from ..numbers import whole
from .cards import RANK_OF
from .rules import AFTER_DEAL, BEFORE_DEAL, FINAL_PILE, HAND_SIZE, WOLF_FIRST, Rules, shuffled_deck
from .solver import DRAW_HAND, MEMBER_POINTS, UNIT, Model, Search, Step, count, total

LOST = -1
DEFAULT_BUDGET = 3_000_000
CLASSIC_ROUNDS = 300  # a Classic game still undecided after this many rounds counts as lost


class _OutOfBudget(Exception):
    """The search hit its budget; ``path`` collects the branch taken at every decision of the
    stack as it unwinds (the innermost first)."""

    def __init__(self) -> None:
        super().__init__("out of budget")
        self.path: list[int] = []


@dataclass(frozen=True)
class ClairvoyantResult:
    winnable: bool | None
    best_score: int | None
    exact: bool
    nodes: int
    resume: dict[str, Any] | None = None  # where to go on when winnable is None

    def to_json(self) -> dict[str, Any]:
        return {
            "winnable": self.winnable,
            "best_score": self.best_score,
            "exact": self.exact,
            "nodes": self.nodes,
            "resume": self.resume,
        }


def _rules(options: Mapping[str, Any] | None) -> Rules:
    from .game import GAME, rules_from

    return rules_from(GAME.parse_options(options))


def clairvoyant(
    seed: str,
    options: Mapping[str, Any] | None = None,
    *,
    budget: int = DEFAULT_BUDGET,
    best_score: bool = True,
) -> ClairvoyantResult:
    """The clairvoyant bound of the game of ``seed`` with ``options``; ``best_score=False``
    stops at the first win found (much faster; ``best_score`` is then None)."""
    from .game import GAME

    seed = GAME.check_seed(seed)
    rules = _rules(options)
    if rules.classic:
        return Classic(seed, rules, budget).run()
    seq = [RANK_OF[c] for c in shuffled_deck(seed, rules, 1)]
    return VanguardPuzzle(seq, rules, budget).run(best_score=best_score)


def clairvoyant_winnable(seed: str, options: Mapping[str, Any] | None = None) -> bool | None:
    """Whether the deal of ``seed`` could be won by a player who saw every card (None: the
    search did not finish)."""
    return clairvoyant(seed, options, best_score=False).winnable


class VanguardPuzzle:
    """Depth-first search of a whole Vanguard game over a known pile order."""

    def __init__(self, seq: Sequence[int], rules: Rules, budget: int) -> None:
        if rules.classic:
            raise BadOptionError("VanguardPuzzle is for the Vanguard mode")
        self.seq = list(seq)
        self.rules = rules
        self.model = Model(
            size=rules.max_rank + 1,
            wild=rules.reserve_is_wild_in_final,
            score_reserve=rules.score_includes_reserve,
        )
        self.moves = Search(self.model, 0)
        self.budget = budget
        self.nodes = 0
        self.memo: dict[tuple[int, int, int, int, bool, int], int] = {}
        self.starts: dict[tuple[int, int, int], int] = {}
        self.stop_at_win = False
        # a search that goes on from an earlier one: the branch to start at in each decision
        # on the way down (the outermost last), and what was skipped where, for winning_line
        self.resume_path: list[int] = []
        self.skipped: dict[tuple[Any, ...], int] = {}

    def run(self, best_score: bool = True, resume: Any = None) -> ClairvoyantResult:
        """Search the game; ``resume`` (the ``resume`` of an earlier result of this deal, which
        ran out of budget) goes on where that search stopped (``best_score`` must be False)."""
        path = _resume_path(resume, "vanguard")
        if path and best_score:
            raise BadRequestError("only a search for a first win goes on", field="resume")
        self.resume_path = list(reversed(path))
        try:
            self.stop_at_win = True
            first = self.round_start(0, 0, 3)
        except _OutOfBudget as out:
            unwound = list(reversed(out.path))
            # a budget too small to get past where the last search stopped cannot go on
            on = {"kind": "vanguard", "path": unwound} if unwound != path else None
            return ClairvoyantResult(None, None, False, self.nodes, on)
        if first == LOST:
            return ClairvoyantResult(False, None, True, self.nodes)
        if not best_score:
            return ClairvoyantResult(True, None, True, self.nodes)
        self.stop_at_win = False
        self.memo.clear()
        self.starts.clear()
        try:
            best = self.round_start(0, 0, 3)
        except _OutOfBudget:
            return ClairvoyantResult(True, None, False, self.nodes)
        return ClairvoyantResult(True, best, True, self.nodes)

    def _first_branch(self, where: tuple[Any, ...], branches: int) -> int:
        """The branch a decision starts at: 0, or on the way down a resumed search, the one the
        earlier search stopped in (those before it are known to win nothing)."""
        if not self.resume_path:
            return 0
        first = self.resume_path.pop()
        if first >= branches:
            raise BadRequestError("resume is not a search of this deal", field="resume")
        if first:
            self.skipped[where] = first
        return first

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.budget:
            raise _OutOfBudget

    # -- rounds ----------------------------------------------------------------------------

    def round_start(self, i: int, res: int, active: int) -> int:
        """The best final score from a round dealt from ``seq[i:]`` (LOST: none wins)."""
        key = (i, res, active)
        found = self.starts.get(key)
        if found is not None:
            return found
        i, hand, wolf, final = self.deal(i)
        value = self.settle(i, hand, res, wolf, final, active)
        self.starts[key] = value
        return value

    def deal(self, i: int) -> tuple[int, int, int, bool]:
        """A round dealt from ``seq[i:]``: (next index, hand, Wolf's hand, final)."""
        rules = self.rules
        left = len(self.seq) - i
        final = rules.final_trigger == BEFORE_DEAL and left <= FINAL_PILE
        hand = wolf = 0
        used = min(left, 2 * HAND_SIZE)
        wolf_first = rules.short_deal_order == WOLF_FIRST
        for k in range(used):
            to_wolf = (k % 2 == 0) == wolf_first
            if to_wolf:
                wolf += UNIT[self.seq[i + k]]
            else:
                hand += UNIT[self.seq[i + k]]
        i += used
        rest = len(self.seq) - i
        if rest == 0 or (rules.final_trigger == AFTER_DEAL and rest <= FINAL_PILE):
            final = True
        return i, hand, wolf, final

    def settle(self, i: int, hand: int, res: int, wolf: int, final: bool, active: int) -> int:
        if wolf:
            return self.node(i, hand, res, wolf, final, active)
        if final:
            score = total(hand, self.model.size) + MEMBER_POINTS * active
            if self.model.score_reserve:
                score += total(res, self.model.size)
            return score
        return self.choice(i, hand, res, active)

    def choice(self, i: int, hand: int, res: int, active: int) -> int:
        """After a won round that is not final: bank a card, revive a member, or neither."""
        options = self.choices(hand, res, active)
        first = self._first_branch(("choice", i, hand, res, active), len(options))
        best = LOST
        branch = first
        try:
            for branch in range(first, len(options)):
                best = max(best, self.round_start(i, *options[branch]))
                if best != LOST and self.stop_at_win:
                    break
        except _OutOfBudget as out:
            out.path.append(branch)
            raise
        return best

    def choices(self, hand: int, res: int, active: int) -> list[tuple[int, int]]:
        """The (reserve, active members) each choice after a won round leads to, in the order
        they are searched: skip, revive, bank each rank held."""
        out = [(res, active)]
        if active < 3:
            out.append((res, active + 1))
        out += [(res + UNIT[r], active) for r in range(1, self.model.size) if count(hand, r)]
        return out

    def lost_round(self, i: int, res: int, wolf: int, final: bool, active: int) -> int:
        if final:
            return LOST
        left = active - min(sum(count(wolf, r) for r in range(1, self.model.size)), active)
        if left == 0:
            return LOST
        return self.round_start(i, res, left)

    # -- the winning line --------------------------------------------------------------------

    def winning_line(self) -> list[dict[str, Any]]:
        """After :meth:`run` found the deal winnable: the line it found, round by round, as
        ``{round, hand, wolf, reserve, pile, final, moves, won, choice | lost_members | score}``
        with card values (ranks, highest first); a move is ``{kind, give, from_reserve, take,
        draws}`` (``draws``: cards the Wolf draws); ``choice`` is the decision after a won round
        that is not final (``{kind: skip | revive | reserve, give}``), ``lost_members`` what a
        lost round cost (the line folded), ``score`` the final score of the won final round.
        It retraces the search in its own order, so every value it asks is memoised."""
        self.budget = self.nodes + 10 * (len(self.memo) + len(self.starts)) + 10_000
        size = self.model.size
        rounds: list[dict[str, Any]] = []
        i, res, active = 0, 0, 3
        while True:
            i, hand, wolf, final = self.deal(i)
            row: dict[str, Any] = {
                "round": len(rounds) + 1,
                "hand": _ranks(hand, size),
                "wolf": _ranks(wolf, size),
                "reserve": _ranks(res, size),
                "pile": len(self.seq) - i,
                "final": final,
                "moves": [],
            }
            rounds.append(row)
            while wolf:
                key = (i, hand, res, wolf, final, active)
                skip = self.skipped.get(key, 0)  # branches a resumed search knows win nothing
                if skip == 0 and self.lost_round(i, res, wolf, final, active) != LOST:
                    lost = min(sum(count(wolf, r) for r in range(1, size)), active)
                    row.update(won=False, lost_members=lost)
                    active -= lost
                    break
                pile = 0 if final else len(self.seq) - i
                pos = (
                    hand,
                    res,
                    wolf,
                    self.seq[i] if pile else 0,
                    0,
                    max(pile - 1, 0),
                    final,
                    active,
                )
                for branch, step in enumerate(self.moves.steps(pos), 1):
                    if branch < skip:
                        continue
                    if self.after(i, hand, res, wolf, final, active, step) != LOST:
                        break
                else:  # pragma: no cover - run() found a win through this node
                    raise AssertionError("no winning step")
                kind, from_hand, from_res, take, draws, members = step
                row["moves"].append(
                    {
                        "kind": kind,
                        "give": _ranks(from_hand + from_res, size),
                        "from_reserve": _ranks(from_res, size),
                        "take": _ranks(take, size),
                        "draws": max(draws, 0),
                    }
                )
                hand, res, wolf, active = (
                    hand - from_hand,
                    res - from_res,
                    wolf - take,
                    active - members,
                )
                if draws == DRAW_HAND:
                    hand += UNIT[self.seq[i]]
                    i += 1
                elif draws > 0:
                    for k in range(draws):
                        wolf += UNIT[self.seq[i + k]]
                    i += draws
                if draws != 0 and i == len(self.seq):
                    final = True
            else:
                row["won"] = True
                if final:
                    score = total(hand, size) + MEMBER_POINTS * active
                    if self.model.score_reserve:
                        score += total(res, size)
                    row["score"] = score
                    return rounds
                options = self.choices(hand, res, active)
                skip = self.skipped.get(("choice", i, hand, res, active), 0)
                branch = next(
                    b for b in range(skip, len(options)) if self.round_start(i, *options[b]) != LOST
                )
                new_res, new_active = options[branch]
                if new_active > active:
                    row["choice"] = {"kind": "revive", "give": []}
                elif new_res != res:
                    banked = next(r for r in range(1, size) if new_res == res + UNIT[r])
                    row["choice"] = {"kind": "reserve", "give": [banked]}
                else:
                    row["choice"] = {"kind": "skip", "give": []}
                res, active = new_res, new_active
                continue
            if final:  # pragma: no cover - a lost final round loses the game
                raise AssertionError("the line lost its final round")

    # -- inside a round --------------------------------------------------------------------

    def node(self, i: int, hand: int, res: int, wolf: int, final: bool, active: int) -> int:
        key = (i, hand, res, wolf, final, active)
        found = self.memo.get(key)
        if found is not None:
            return found
        self._tick()
        steps = self.steps_at(i, hand, res, wolf, final, active)
        first = self._first_branch(key, len(steps) + 1)
        branch = first
        try:  # branch 0 is losing the round, branch k the k-th step
            best = self.lost_round(i, res, wolf, final, active) if first == 0 else LOST
            if not (best != LOST and self.stop_at_win):
                for branch, step in enumerate(steps, 1):
                    if branch < first:
                        continue
                    value = self.after(i, hand, res, wolf, final, active, step)
                    if value > best:
                        best = value
                        if self.stop_at_win:
                            break
        except _OutOfBudget as out:
            out.path.append(branch)
            raise
        self.memo[key] = best
        return best

    def steps_at(
        self, i: int, hand: int, res: int, wolf: int, final: bool, active: int
    ) -> list[Step]:
        pile = 0 if final else len(self.seq) - i
        top = self.seq[i] if pile else 0
        return self.moves.steps((hand, res, wolf, top, 0, max(pile - 1, 0), final, active))

    def after(
        self, i: int, hand: int, res: int, wolf: int, final: bool, active: int, step: Step
    ) -> int:
        _kind, from_hand, from_res, take, draws, members = step
        hand -= from_hand
        res -= from_res
        wolf -= take
        active -= members
        if draws == DRAW_HAND:
            hand += UNIT[self.seq[i]]
            i += 1
        elif draws > 0:
            for k in range(draws):
                wolf += UNIT[self.seq[i + k]]
            i += draws
        if draws != 0 and i == len(self.seq):
            final = True
        return self.settle(i, hand, res, wolf, final, active)


def _undominated(pairs: dict[int, int]) -> dict[int, int]:
    """The (mine, theirs) pairs no other pair beats on both scores (mine higher or equal,
    theirs lower or equal)."""
    out: dict[int, int] = {}
    lowest = None
    for mine in sorted(pairs, reverse=True):
        if lowest is None or pairs[mine] < lowest:
            out[mine] = lowest = pairs[mine]
    return out


def _ranks(m: int, size: int) -> list[int]:
    """The ranks of a multiset, highest first (as a move is written)."""
    return [r for r in range(size - 1, 0, -1) for _ in range(count(m, r))]


MAX_PATH = 10_000  # decisions on a resumed Vanguard search's path: far more than a game has


def _resume_path(resume: Any, kind: str) -> list[int]:
    """The path of a Vanguard ``resume`` (``[]`` for none), checked like any request field."""
    if resume is None:
        return []
    path = resume.get("path") if isinstance(resume, dict) else None
    ok = (
        isinstance(resume, dict)
        and resume.get("kind") == kind
        and sorted(resume) == ["kind", "path"]
        and isinstance(path, list)
        and len(path) <= MAX_PATH
        and all(whole(b, 0, MAX_PATH) is not None for b in path)
    )
    if not ok:
        raise BadRequestError(f"resume is not a {kind} search's", field="resume")
    assert isinstance(path, list)
    return path


class Classic:
    """Classic Lobo, clairvoyant: each round's possible endings, then a race over rounds.

    The race goes round by round over the scores the player may stand at after it: a
    *frontier* of (mine, theirs) pairs, keeping for each score of mine only the lowest of the
    Wolf's (standing higher is never worse for the player, the Wolf lower neither). The deal is
    winnable when some ending of a round takes a pair to the target; not when the frontier
    empties, or after ``CLASSIC_ROUNDS`` rounds. Out of budget, ``resume`` holds the round and
    its frontier (at most one pair per score below the target)."""

    def __init__(self, seed: str, rules: Rules, budget: int) -> None:
        self.seed = seed
        self.rules = rules
        self.budget = budget
        self.nodes = 0
        self.model = Model(size=rules.max_rank + 1, classic=True)
        self.moves = Search(self.model, 0)
        self.endings: dict[int, frozenset[tuple[bool, int]]] = {}

    def run(self, resume: Any = None) -> ClairvoyantResult:
        round_no, frontier = self._resumed(resume)
        first = round_no
        target = self.rules.classic_target
        while frontier and round_no <= CLASSIC_ROUNDS:
            try:
                endings = self.round_endings(round_no)
            except (_OutOfBudget, RecursionError):
                # a round that does not fit in one budget cannot be searched by going on
                pairs = [[mine, theirs] for mine, theirs in sorted(frontier.items())]
                where = {"kind": "classic", "round": round_no, "frontier": pairs}
                on = where if round_no > first else None
                return ClairvoyantResult(None, None, False, self.nodes, on)
            after: dict[int, int] = {}
            for mine, theirs in frontier.items():
                for won, points in endings:
                    if won and mine + points >= target:
                        return ClairvoyantResult(True, None, True, self.nodes)
                    pair = (mine + points, theirs) if won else (mine, theirs + points)
                    if pair[1] < target and pair[1] < after.get(pair[0], target):
                        after[pair[0]] = pair[1]
            frontier = _undominated(after)
            round_no += 1
        return ClairvoyantResult(False, None, True, self.nodes)

    def _resumed(self, resume: Any) -> tuple[int, dict[int, int]]:
        """(round, frontier) to start from: the first round at 0 - 0, or a ``resume``'s."""
        if resume is None:
            return 1, {0: 0}
        target = self.rules.classic_target
        ok = (
            isinstance(resume, dict)
            and resume.get("kind") == "classic"
            and sorted(resume) == ["frontier", "kind", "round"]
            and whole(resume["round"], 1, CLASSIC_ROUNDS) is not None
            and isinstance(resume["frontier"], list)
            and 1 <= len(resume["frontier"]) <= target
        )
        pairs: dict[int, int] = {}
        for pair in resume["frontier"] if ok else ():
            fits = (
                isinstance(pair, list)
                and len(pair) == 2
                and whole(pair[0], 0, target - 1) is not None
                and whole(pair[1], 0, target - 1) is not None
                and pair[0] not in pairs
            )
            ok = ok and fits
            if fits:
                pairs[pair[0]] = pair[1]
        if not ok:
            raise BadRequestError("resume is not a Classic Lobo search's", field="resume")
        return resume["round"], _undominated(pairs)

    def round_endings(self, number: int) -> frozenset[tuple[bool, int]]:
        """Every (won, points) a clairvoyant player can end round ``number`` with."""
        found = self.endings.get(number)
        if found is not None:
            return found
        seq = [RANK_OF[c] for c in shuffled_deck(self.seed, self.rules, number)]
        hand = wolf = 0
        wolf_first = self.rules.short_deal_order == WOLF_FIRST
        for k in range(2 * HAND_SIZE):
            if (k % 2 == 0) == wolf_first:
                wolf += UNIT[seq[k]]
            else:
                hand += UNIT[seq[k]]
        memo: dict[tuple[int, int, int], frozenset[tuple[bool, int]]] = {}
        out = self._round(seq, 2 * HAND_SIZE, hand, wolf, memo)
        self.endings[number] = out
        return out

    def _round(
        self,
        seq: list[int],
        i: int,
        hand: int,
        wolf: int,
        memo: dict[tuple[int, int, int], frozenset[tuple[bool, int]]],
    ) -> frozenset[tuple[bool, int]]:
        size = self.model.size
        if not wolf:
            return frozenset({(True, total(hand, size))})
        key = (i, hand, wolf)
        found = memo.get(key)
        if found is not None:
            return found
        self.nodes += 1
        if self.nodes > self.budget:
            raise _OutOfBudget
        out = {(False, total(wolf, size))}
        pile = len(seq) - i
        pos = (hand, 0, wolf, seq[i] if pile else 0, 0, max(pile - 1, 0), False, 0)
        for _kind, from_hand, _r, take, draws, _m in self.moves.steps(pos):
            h, w, j = hand - from_hand, wolf - take, i
            if draws == DRAW_HAND:
                h += UNIT[seq[j]]
                j += 1
            elif draws > 0:
                for k in range(draws):
                    w += UNIT[seq[j + k]]
                j += draws
            out |= self._round(seq, j, h, w, memo)
        result = frozenset(out)
        memo[key] = result
        return result
