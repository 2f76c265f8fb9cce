"""Willie bots that decide from their seat's view alone, and the hint.

Glossary:

best meld     the solver's meld phase that sheds the most hand points
easy          lays down the best new melds its hand alone makes, and never touches the melds
              already on the table; closes whenever it may
normal        melds the exact best phase (any rearrangement); closes when no opponent can hold
              as few points, or when the chance of being undercut is small
undercut risk the chance that some opponent holds no more points than we do, for hands drawn
              at random from the unseen cards (the deck minus our hand and the table)

Both bots meld at the first chance: a meld ends the turn, and passing only adds a card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from math import comb
from typing import Any

from ..rng import Rng
from .cards import DECK, card_points, point_table
from .melds import token_card
from .moves import Move
from .solver import Rules, Solution, assemble, best_phase, read_position, solve

RISK_LIMIT = {"CLOSER_MINUS_5": 0.15, "WINNER_PLUS_5": 0.2, "LITERAL_WINNER_MINUS_5": 0.3}


def table_of(view: Mapping[str, Any]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(meld) for meld in view["table"])


def hand_only_solve(
    table: tuple[tuple[str, ...], ...], hand: list[str], options: Mapping[str, Any]
) -> Solution | None:
    """The best phase that leaves every old meld as it is."""
    rules = Rules.of(options)
    melds, cards = read_position(table, hand, rules)
    candidate, proven = best_phase(melds, cards, (), rules)
    return assemble(melds, (), candidate, proven) if candidate is not None else None


def undercut_risk(view: Mapping[str, Any], mine: int) -> float:
    """The chance some opponent holds ``mine`` points or fewer."""
    points = point_table(view["options"])
    seen = Counter(view["hand"]) + Counter(token_card(t) for m in view["table"] for t in m)
    unseen = Counter(DECK) - seen
    kinds = Counter(card_points(card, points) for card in unseen.elements())
    total = sum(kinds.values())
    safe = 1.0
    for seat, size in enumerate(view["hand_sizes"]):
        if seat != view["seat"]:
            safe *= 1.0 - chance_at_most(kinds, total, size, mine)
    return 1.0 - safe


def chance_at_most(kinds: Counter[int], total: int, size: int, limit: int) -> float:
    """P(``size`` cards drawn from ``total`` (``kinds``: value -> count) add up to <= limit)."""
    if size == 0:
        return 1.0
    if size * min(kinds) > limit or total < size:
        return 0.0
    values = sorted(kinds)
    ways = 0

    def spread(i: int, left: int, sum_so_far: int, product: int) -> None:
        nonlocal ways
        if sum_so_far > limit:
            return
        if i == len(values):
            if left == 0:
                ways += product
            return
        for k in range(min(left, kinds[values[i]]) + 1):
            spread(i + 1, left - k, sum_so_far + k * values[i], product * comb(kinds[values[i]], k))

    spread(0, size, 0, 1)
    return ways / comb(total, size)


def should_close(view: Mapping[str, Any]) -> bool:
    risk = undercut_risk(view, int(view["hand_points"]))
    limit = RISK_LIMIT.get(view["options"]["undercut_mode"], 0.3)
    if view["stock_size"] <= len(view["hand_sizes"]) * 2:
        limit += 0.2  # the round is ending anyway
    return risk <= limit


def meld_move(view: Mapping[str, Any], level: str) -> Move:
    hand = list(view["hand"])
    if level == "easy":
        found = hand_only_solve(table_of(view), hand, view["options"])
    else:
        found = solve(table_of(view), hand, options=view["options"], exact=False)
    return found.move if found is not None else Move("pass")


def decide(game: Any, state: Any, seat: int, level: str) -> Move:
    view = game.view(state, seat)
    phase = view["phase"]
    if phase == "draw":
        return Move("draw")
    if phase == "end_turn":
        close = level == "easy" or should_close(view)
        return Move("close") if close else Move("continue")
    return meld_move(view, level)


def easy_bot(game: Any, state: Any, seat: int, rng: Rng) -> Move:
    """Reads ``game.view(state, seat)`` only: fair by construction."""
    return decide(game, state, seat, "easy")


def normal_bot(game: Any, state: Any, seat: int, rng: Rng) -> Move:
    """Reads ``game.view(state, seat)`` only: fair by construction."""
    return decide(game, state, seat, "normal")


def hint(game: Any, state: Any, seat: int) -> dict[str, Any]:
    """The exact best meld phase in a meld phase (most points, fewest changes), else the
    normal bot's move; with the numbers the page shows."""
    view = game.view(state, seat)
    if view["phase"] in ("meld", "final"):
        found = solve(table_of(view), list(view["hand"]), options=view["options"])
        if found is None:
            return {"move": "pass", "points": 0, "changes": 0, "reason": "no_meld"}
        return {
            "move": found.move.to_json(),
            "points": found.points,
            "changes": found.changes,
            "proven": found.proven,
            "hand_after": hand_left(view, found),
        }
    move = decide(game, state, seat, "normal")
    out: dict[str, Any] = {"move": move.to_json()}
    if view["phase"] == "end_turn":
        out["undercut_risk"] = round(undercut_risk(view, int(view["hand_points"])), 3)
    return out


def hand_left(view: Mapping[str, Any], found: Solution) -> int:
    points = point_table(view["options"])
    left = Counter(view["hand"]) - Counter(found.from_hand)
    return sum(card_points(c, points) for c in left.elements())
