"""Close or continue in Willie: the expected round points of each, from the seat's view.

Glossary:

world        the other hands and the stock dealt again from the cards the seat has not seen
             (the deck minus its hand and the table), sorted before a seeded shuffle so that
             the deal depends on the view alone; the hand sizes are the real ones
close now    the round scored at once in each world (``score_round``: the undercut when an
             opponent holds as few points)
continue     the round played on in each world to its end by the normal bot for every seat
             (the reviewed seat included: it closes later by the bot's own rule)
round points the seat's gain of the round (differences, undercut adjustments, going-out
             bonus), the game's score unit; end-of-game bonuses are left out

Both choices are measured on the same worlds. The number of worlds shrinks with the length of
the round left (the stock), so that a decision stays within ``MAX_COST`` work units.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from ..rng import Rng
from ..willie.bots import decide, undercut_risk
from ..willie.cards import DECK
from ..willie.game import Willie, WillieState
from ..willie.melds import token_card
from ..willie.moves import Move

MAX_WORLDS = 16
MIN_WORLDS = 4
MAX_COST = 900  # work units for one close decision
MAX_ROLLOUT_MOVES = 400  # a safety net: a round has far fewer moves
SOLVE_UNITS = 4  # work units per meld phase of a rollout (the solver on a small hand)


def rollout_cost(state: WillieState) -> int:
    """The work units of one world: a meld phase per card left in the stock, and the final
    turns."""
    return SOLVE_UNITS * (len(state.stock) + state.players) + 1


def worlds_for(state: WillieState) -> int:
    return max(MIN_WORLDS, min(MAX_WORLDS, MAX_COST // rollout_cost(state)))


def cost(state: WillieState) -> int:
    return worlds_for(state) * rollout_cost(state)


def unseen_cards(state: WillieState, seat: int) -> list[str]:
    """The cards ``seat`` has not seen, in deck order (from the view: hand and table)."""
    seen = Counter(state.hands[seat]) + Counter(token_card(t) for m in state.table for t in m)
    unseen = Counter(DECK) - seen
    return [card for card in sorted(unseen, key=DECK.index) for _ in range(unseen[card])]


def world(state: WillieState, seat: int, unseen: list[str], rng: Rng) -> WillieState:
    cards = rng.shuffled(unseen)
    hands = list(state.hands)
    at = 0
    for other in range(state.players):
        if other != seat:
            size = len(state.hands[other])
            hands[other], at = tuple(cards[at : at + size]), at + size
    return replace(state, hands=tuple(hands), stock=tuple(cards[at:]))


def round_gain(game: Willie, state: WillieState, seat: int, rounds: int) -> int:
    """Play ``state`` on with the normal bot for every seat until round ``rounds`` is scored;
    the seat's gain in it."""
    for _ in range(MAX_ROLLOUT_MOVES):
        if len(state.history) > rounds:
            break
        mover = game.to_move(state)
        if mover is None:
            break
        state = game.play(state, mover, decide(game, state, mover, "normal"))
    if len(state.history) <= rounds:
        return 0  # never reached: a round cannot last this long
    return int(state.history[rounds].score.gains[seat])


def close_values(game: Willie, state: WillieState, seat: int) -> dict[str, Any]:
    """{close, continue, worlds, undercut_risk}: the mean round points of each choice."""
    rng = Rng.derive("review", game.id, seat, state.round, state.turns, len(state.stock))
    unseen = unseen_cards(state, seat)
    rounds = len(state.history)
    totals = {"close": 0, "continue": 0}
    worlds = worlds_for(state)
    for _ in range(worlds):
        dealt = world(state, seat, unseen, rng)
        for choice in totals:
            after = game.play(dealt, seat, Move(choice))
            totals[choice] += round_gain(game, after, seat, rounds)
    view = game.view(state, seat)
    return {
        "close": totals["close"] / worlds,
        "continue": totals["continue"] / worlds,
        "worlds": worlds,
        "undercut_risk": round(undercut_risk(view, int(view["hand_points"])), 3),
    }
