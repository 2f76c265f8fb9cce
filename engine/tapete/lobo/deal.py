""" "Was this deal winnable?": asked after a Lobo game, answered on request (never per snapshot).

Glossary:

deal        a seed and the game's options: they fix the whole order of the pile
clairvoyant the bound of :mod:`tapete.lobo.clairvoyant`: could a player who saw every card have
            won this deal? Searched depth first within ``budget`` positions; past it the answer
            is unknown (``winnable: null, exact: false``): ask again with a larger budget
line        the winning line the search found (the Vanguard only): round by round, the moves
            with card values (see :meth:`VanguardPuzzle.winning_line`)
policy      the hint's own result on the same deal, played from the start (the Vanguard only:
            a Classic game is too long to replay on request)

resume      where a search that ran out of budget stopped: the next request sends it back to go
            on from there (each request is bounded; the page's "Search longer" keeps asking)

``deal_request`` answers the ``lobo_deal`` op of :mod:`tapete.api`::

    {seed, options?, budget?, policy?, resume?}
        -> {winnable, exact, nodes, budget, line, policy, resume}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import BadRequestError, describe
from .cards import RANK_OF
from .clairvoyant import Classic, VanguardPuzzle
from .rules import shuffled_deck

# positions one request searches: about a second of CPython (measured in BENCHMARKS.md), and a
# bound on its memory too (each position adds at most one memo entry); more is asked by resuming
DEFAULT_BUDGET = 60_000
MAX_BUDGET = 60_000
# The share of the budget a request searches, by kind of deal, so that no request takes more
# than about 1.5 s of CPython (the fuzz campaign's dearest deals, bench/bench_bounds.py). A
# position's cost is mostly its moves' generation, which varies with the hands: a Vanguard
# search with the policy's game took up to 2.2 s at 60,000 positions; four-suit Classic, the
# default game, up to 2.5 s at 50,000 and 2.0 s at 40,000 on 40 random deals at a load of 20
# (1.76 s at 50,000 at load 2), hence 40,000; five suits up to 2.2 s at 60,000.
SHARE = {"vanguard": (2, 3), "classic 4": (2, 3), "classic 5": (2, 3)}


def deal_report(
    seed: str,
    options: Mapping[str, Any] | None = None,
    *,
    budget: int = DEFAULT_BUDGET,
    policy: bool = True,
    resume: Any = None,
) -> dict[str, Any]:
    """The clairvoyant answer for the deal of ``seed`` with ``options``, its winning line, and
    (``policy``) how the hint policy fares on it; ``resume`` goes on with an earlier search of
    the same deal that ran out of budget."""
    from .game import GAME, rules_from

    seed = GAME.check_seed(seed)
    parsed = GAME.parse_options(options)
    rules = rules_from(parsed)
    out: dict[str, Any] = {"budget": budget, "line": None, "policy": None}
    if rules.classic:
        result = Classic(seed, rules, share(budget, f"classic {rules.suits}")).run(resume)
        out.update(
            winnable=result.winnable, exact=result.exact, nodes=result.nodes, resume=result.resume
        )
        return out
    seq = [RANK_OF[c] for c in shuffled_deck(seed, rules, 1)]
    puzzle = VanguardPuzzle(seq, rules, share(budget, "vanguard"))
    result = puzzle.run(best_score=False, resume=resume)
    out.update(
        winnable=result.winnable, exact=result.exact, nodes=result.nodes, resume=result.resume
    )
    if result.winnable:
        out["line"] = puzzle.winning_line()
    if policy:
        out["policy"] = play_policy(seed, parsed)
    return out


def share(budget: int, kind: str) -> int:
    """The positions a request of ``budget`` searches on a deal of ``kind`` (``SHARE``)."""
    times, parts = SHARE[kind]
    return max(1, budget * times // parts)


def play_policy(seed: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The hint policy's game on this deal: {won, score, moves}."""
    from .game import GAME
    from .odds import best_move

    state = GAME.new_game(seed, options)
    moves = 0
    while GAME.to_move(state) is not None:
        state = GAME.apply(state, 0, best_move(state))  # what the "best" bot plays
        moves += 1
    outcome = GAME.outcome(state)
    assert outcome is not None
    won = bool(outcome.winners)
    return {"won": won, "score": round(outcome.scores[0]) if won else None, "moves": moves}


def deal_request(request: Mapping[str, Any]) -> dict[str, Any]:
    """The ``lobo_deal`` op: every field checked, a coded error for bad input."""
    seed = request.get("seed")
    if not isinstance(seed, str):
        raise BadRequestError(f"'seed' must be a string, not {describe(seed)}", field="seed")
    options = request.get("options")
    if options is not None and not isinstance(options, dict):
        raise BadRequestError(
            f"'options' must be an object, not {describe(options)}", field="options"
        )
    budget = request.get("budget", DEFAULT_BUDGET)
    if isinstance(budget, bool) or not isinstance(budget, int) or not 1 <= budget <= MAX_BUDGET:
        raise BadRequestError(
            f"'budget' must be an integer from 1 to {MAX_BUDGET}, not {describe(budget)}",
            field="budget",
        )
    policy = request.get("policy", True)
    if not isinstance(policy, bool):
        raise BadRequestError(
            f"'policy' must be true or false, not {describe(policy)}", field="policy"
        )
    return deal_report(seed, options, budget=budget, policy=policy, resume=request.get("resume"))
