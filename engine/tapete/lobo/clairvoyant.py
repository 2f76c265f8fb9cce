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

No policy that cannot see the pile wins more often than this bound, so "was this deal
winnable?" is answered here after a game, and the share of winnable deals is the ceiling
against which bench/ measures the hint policy.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import BadOptionError
from .cards import RANK_OF
from .rules import AFTER_DEAL, BEFORE_DEAL, FINAL_PILE, HAND_SIZE, WOLF_FIRST, Rules, shuffled_deck
from .solver import DRAW_HAND, MEMBER_POINTS, UNIT, Model, Search, Step, count, total

LOST = -1
DEFAULT_BUDGET = 3_000_000
CLASSIC_ROUNDS = 300  # a Classic game still undecided after this many rounds counts as lost


class _OutOfBudget(Exception):
    pass


@dataclass(frozen=True)
class ClairvoyantResult:
    winnable: bool | None
    best_score: int | None
    exact: bool
    nodes: int

    def to_json(self) -> dict[str, Any]:
        return {
            "winnable": self.winnable,
            "best_score": self.best_score,
            "exact": self.exact,
            "nodes": self.nodes,
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
        return _Classic(seed, rules, budget).run()
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

    def run(self, best_score: bool = True) -> ClairvoyantResult:
        try:
            self.stop_at_win = True
            first = self.round_start(0, 0, 3)
        except _OutOfBudget:
            return ClairvoyantResult(None, None, False, self.nodes)
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
        best = self.round_start(i, res, active)
        if best != LOST and self.stop_at_win:
            return best
        if active < 3:
            best = max(best, self.round_start(i, res, active + 1))
        for r in range(1, self.model.size):
            if count(hand, r) and not (best != LOST and self.stop_at_win):
                best = max(best, self.round_start(i, res + UNIT[r], active))
        return best

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
                if self.lost_round(i, res, wolf, final, active) != LOST:
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
                for step in self.moves.steps(pos):
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
                if self.round_start(i, res, active) != LOST:
                    row["choice"] = {"kind": "skip", "give": []}
                elif active < 3 and self.round_start(i, res, active + 1) != LOST:
                    row["choice"] = {"kind": "revive", "give": []}
                    active += 1
                else:
                    r = next(
                        r
                        for r in range(1, size)
                        if count(hand, r) and self.round_start(i, res + UNIT[r], active) != LOST
                    )
                    row["choice"] = {"kind": "reserve", "give": [r]}
                    res += UNIT[r]
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
        best = self.lost_round(i, res, wolf, final, active)
        if not (best != LOST and self.stop_at_win):
            pile = 0 if final else len(self.seq) - i
            top = self.seq[i] if pile else 0
            pos = (hand, res, wolf, top, 0, max(pile - 1, 0), final, active)
            for step in self.moves.steps(pos):
                value = self.after(i, hand, res, wolf, final, active, step)
                if value > best:
                    best = value
                    if self.stop_at_win:
                        break
        self.memo[key] = best
        return best

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


def _ranks(m: int, size: int) -> list[int]:
    """The ranks of a multiset, highest first (as a move is written)."""
    return [r for r in range(size - 1, 0, -1) for _ in range(count(m, r))]


class _Classic:
    """Classic Lobo, clairvoyant: each round's possible endings, then a race over rounds."""

    def __init__(self, seed: str, rules: Rules, budget: int) -> None:
        self.seed = seed
        self.rules = rules
        self.budget = budget
        self.nodes = 0
        self.model = Model(size=rules.max_rank + 1, classic=True)
        self.moves = Search(self.model, 0)
        self.endings: dict[int, frozenset[tuple[bool, int]]] = {}
        self.race: dict[tuple[int, int, int], bool] = {}

    def run(self) -> ClairvoyantResult:
        try:
            won = self.win_from(1, 0, 0)
        except (_OutOfBudget, RecursionError):
            return ClairvoyantResult(None, None, False, self.nodes)
        return ClairvoyantResult(won, None, True, self.nodes)

    def win_from(self, round_no: int, mine: int, theirs: int) -> bool:
        return self._win(round_no, mine, theirs, self.rules.classic_target)

    def _win(self, round_no: int, mine: int, theirs: int, target: int) -> bool:
        if round_no > CLASSIC_ROUNDS:
            return False
        key = (round_no, mine, theirs)
        found = self.race.get(key)
        if found is not None:
            return found
        answer = False
        for won, points in sorted(self.round_endings(round_no), reverse=True):
            if won and mine + points >= target:
                answer = True
            elif won:
                answer = self._win(round_no + 1, mine + points, theirs, target)
            elif theirs + points < target:
                answer = self._win(round_no + 1, mine, theirs + points, target)
            if answer:
                break
        self.race[key] = answer
        return answer

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
