"""Odds and hints for Lobo positions, from the player's point of view.

Glossary:

unseen      the cards of the pile below its visible top card. What they are is known (the deck
            minus every card in sight: both hands, the reserve, the discard pile and the top
            card); their order is not, and every order is taken as equally likely
p_win       the probability of winning the current round (emptying the Wolf's hand) after a
            move, if every later choice of the round is the best one
exact       p_win computed by expectimax over every order of the unseen cards, at the rank
            level, memoised (:mod:`tapete.lobo.solver`), within a node budget; otherwise an
            estimate over ``samples`` random orders of the unseen cards (seeded, so the same
            position always gets the same numbers), the round played on by a greedy rule and
            by the exact search once it is final. Such odds say ``exact: false`` and give the
            number of samples (the better moves get more: successive halving)
p_game      the probability of winning the game with best play: in a final round it is p_win;
            when the next round must be the final one (8 cards or fewer in the pile; 16 with
            ``final_trigger = AFTER_DEAL``) it is computed exactly through the choice between
            rounds and every deal of the final round (:class:`~tapete.lobo.solver.GameSearch`),
            within the node budget; otherwise None (bench/bench_lobo.py measures the game win
            rate of this hint policy instead)
choice      between rounds: the best p_game when known, else a rule (revive a member when
            one is down, else bank the lowest card: see :func:`choose_between_rounds`)

The hint is the move with the highest p_game when p_game is known for every move, else the
move with the highest p_win; near-ties go to the move that loses fewer members if the round is
lost, or scores more if the game is won. Everything here uses only what the player sees
(``view``): the order of the pile below its top is never read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..rng import Rng
from .cards import MEMBERS, RANK_OF
from .rules import (
    AFTER_DEAL,
    CHOICE,
    FINAL_PILE,
    PLAY,
    WOLF_FIRST,
    LoboState,
    Move,
    legal_moves,
)
from .solver import (
    DRAW_HAND,
    BudgetExceeded,
    Deal,
    GameSearch,
    GameTooDeep,
    Model,
    Pos,
    Search,
    Step,
    key,
    pack,
    sample_orders,
)

DEFAULT_BUDGET = 3_000
DEFAULT_SAMPLES = 256
DEFAULT_PLAYOUTS = 1_200


@dataclass(frozen=True)
class MoveOdds:
    """The odds of one legal move."""

    move: Move
    p_win: float | None
    exact: bool
    samples: int = 0
    aux: float = 0.0
    p_game: float | None = None
    game_aux: float = 0.0

    def score(self) -> float:
        return -1.0 if self.p_win is None else key((self.p_win, self.aux))

    def rank(self) -> tuple[float, float]:
        """How good the move is: game odds first when known (they are, for every move of a
        position, or for none), then the round odds."""
        game = -1.0 if self.p_game is None else round(key((self.p_game, self.game_aux)), 9)
        return (game, round(self.score(), 9))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "move": self.move.text(),
            "p_win": None if self.p_win is None else round(self.p_win, 6),
            "exact": self.exact,
            "p_game": None if self.p_game is None else round(self.p_game, 6),
        }
        if not self.exact:
            out["samples"] = self.samples
        return out


def model_of(state: LoboState) -> Model:
    rules = state.rules
    return Model(
        size=rules.max_rank + 1,
        classic=rules.classic,
        wild=rules.reserve_is_wild_in_final,
        score_reserve=rules.score_includes_reserve,
    )


def ranks(cards: Sequence[str]) -> list[int]:
    return [RANK_OF[c] for c in cards]


def visible_position(state: LoboState) -> Pos:
    """The rank-level position from what the player sees (the pile's order is not read)."""
    seen = [*state.hand, *state.reserve, *state.wolf, *state.discard]
    top = state.pile[0] if state.pile else None
    if top is not None:
        seen.append(top)
    unseen = pack(ranks(state.rules.deck)) - pack(ranks(seen))
    left = len(state.rules.deck) - len(seen)
    if state.final:
        return (
            pack(ranks(state.hand)),
            pack(ranks(state.reserve)),
            pack(ranks(state.wolf)),
            0,
            0,
            0,
            True,
            state.active,
        )
    return (
        pack(ranks(state.hand)),
        pack(ranks(state.reserve)),
        pack(ranks(state.wolf)),
        RANK_OF[top] if top is not None else 0,
        unseen,
        left,
        False,
        state.active,
    )


def step_of(state: LoboState, move: Move) -> Step:
    """The rank-level step of a capture."""
    from_hand = pack(ranks([c for c in move.give if c in state.hand]))
    from_res = pack(ranks([c for c in move.give if c in state.reserve]))
    take = pack(ranks(move.take))
    kind = move.kind
    if kind == "sacrifice":
        return (kind, 0, 0, take, 0, 1)
    if kind == "wild":
        return (kind, 0, from_res, take, 0, 0)
    if state.final:
        return (kind, from_hand, from_res, take, 0, 0)
    if kind in ("perfect", "sum"):
        return (kind, from_hand, from_res, take, DRAW_HAND if state.pile else 0, 0)
    if kind == "split":
        return (kind, from_hand, from_res, take, 1, 0)
    drawn = sum(ranks(move.give)) - sum(ranks(move.take))
    return (kind, from_hand, from_res, take, drawn, 0)


def _draw_order(step: Step) -> tuple[int, int]:
    """Cheap steps first: no draw, the player's draw, then the Wolf's draws by number."""
    draws = step[4]
    return (0 if draws <= 0 else draws, 0 if draws == 0 else 1)


def analyse(
    state: LoboState,
    *,
    budget: int = DEFAULT_BUDGET,
    samples: int = DEFAULT_SAMPLES,
    playouts: int = DEFAULT_PLAYOUTS,
    rng: Rng | None = None,
) -> list[MoveOdds]:
    """The odds of every legal move, in legal-move order: p_win in the play phase, p_game
    wherever the rest of the game fits the search (see the glossary)."""
    moves = legal_moves(state)
    if state.phase == CHOICE:
        games = game_odds(state, moves, budget)
        out = []
        for i, move in enumerate(moves):
            game = games[i] if games else None
            out.append(
                MoveOdds(
                    move,
                    None,
                    True,
                    p_game=game[0] if game else None,
                    game_aux=game[1] if game else 0.0,
                )
            )
        return out
    if state.phase != PLAY:
        return []
    rounds = round_odds(state, moves, budget, samples, playouts, rng)
    if state.final and not state.rules.classic:
        return [replace(o, p_game=o.p_win, game_aux=o.aux) for o in rounds]
    games = game_odds(state, moves, budget)
    if games is None:
        return rounds
    return [replace(o, p_game=g[0], game_aux=g[1]) for o, g in zip(rounds, games, strict=True) if g]


def round_odds(
    state: LoboState,
    moves: list[Move],
    budget: int,
    samples: int,
    playouts: int,
    rng: Rng | None,
) -> list[MoveOdds]:
    """p_win of every move: exact within ``budget``, else estimated."""
    model = model_of(state)
    pos = visible_position(state)
    search = Search(model, budget)
    steps = {move: step_of(state, move) for move in moves if move.kind != "fold"}
    # dict.fromkeys, not set: the order must not depend on str hashing (PYTHONHASHSEED)
    distinct = sorted(dict.fromkeys(steps.values()), key=_draw_order)
    values: dict[Step, tuple[tuple[float, float], bool]] = {}
    sampled: dict[Step, int] = {}
    failed: list[Step] = []
    for step in distinct:
        left = budget - search.nodes
        # once one step does not fit, the later (costlier) ones will not either
        value = search.exact(pos, step, left) if left > 0 and not failed else None
        if value is None:
            failed.append(step)
        else:
            values[step] = (value, True)
    if failed:
        rng = rng or Rng.derive("lobo", "odds")
        orders = sample_orders(pos[4], model.size, samples, rng)
        search.budget = 1 << 62  # the tails are capped on their own
        for step, (value, n) in search.estimate(pos, failed, orders, playouts).items():
            values[step] = (value, False)
            sampled[step] = n
    out: list[MoveOdds] = []
    for move in moves:
        if move.kind == "fold":
            value, exact = model.fold_value(pos), True
        else:
            value, exact = values[steps[move]]
        out.append(
            MoveOdds(
                move=move,
                p_win=value[0],
                exact=exact,
                samples=0 if exact else sampled[steps[move]],
                aux=value[1],
            )
        )
    return out


def game_pile_limit(state: LoboState) -> int:
    """The most cards the pile may hold for the next round to be surely the final one."""
    return 2 * FINAL_PILE if state.rules.final_trigger == AFTER_DEAL else FINAL_PILE


def game_odds(state: LoboState, moves: list[Move], budget: int) -> list[tuple[float, float]] | None:
    """(p_game, aux) of every move when the next round must be the final one and the search
    fits ``budget``; else None. Only for the Vanguard, outside a final round."""
    rules = state.rules
    if rules.classic or state.final or len(state.pile) > game_pile_limit(state):
        return None
    deal = Deal(
        after_deal=rules.final_trigger == AFTER_DEAL,
        wolf_first=rules.short_deal_order == WOLF_FIRST,
    )
    search = GameSearch(model_of(state), deal, budget)
    pos = visible_position(state)
    hand, res, _wolf, top, unseen, left, _final, active = pos
    out: list[tuple[float, float]] = []
    try:
        for move in moves:
            if move.kind == "fold":
                out.append(search.fold_leaf(pos))
            elif move.kind == "skip":
                out.append(search.next_round(top, unseen, left, res, active))
            elif move.kind == "revive":
                out.append(search.next_round(top, unseen, left, res, active + 1))
            elif move.kind == "reserve":
                banked = res + pack(ranks(move.give))
                out.append(search.next_round(top, unseen, left, banked, active))
            else:
                out.append(search.after(pos, step_of(state, move))[0])
    except (BudgetExceeded, GameTooDeep):
        return None
    return out


def best(odds: Sequence[MoveOdds]) -> MoveOdds:
    """The move with the highest p_game when every move has one, else the highest p_win
    (near-ties: the better tie-break); the first listed on a tie."""
    top = odds[0]
    for item in odds[1:]:
        if item.rank() > top.rank():
            top = item
    return top


def choose_between_rounds(state: LoboState) -> tuple[Move, str]:
    """The rule for the choice after a won round: (move, reason code).

    Revive a member whenever one is face down, else bank the lowest card of the hand. Over
    thousands of seeded games (greedy play within rounds; a smaller run with the hint) this
    beat reviving only the last member, and banking the highest card, on every difficulty."""
    down = [MEMBERS[i] for i, up in enumerate(state.members) if not up]
    if down:
        return Move("revive", (down[0],)), "revive_member"
    if state.hand:
        card = min(state.hand, key=lambda c: (RANK_OF[c], c))
        return Move("reserve", (card,)), "bank_low_card"
    return Move("skip"), "nothing_to_do"


def best_move(
    state: LoboState,
    rng: Rng | None = None,
    budget: int = DEFAULT_BUDGET,
    samples: int = DEFAULT_SAMPLES,
) -> Move:
    """The hint's move."""
    odds = analyse(state, budget=budget, samples=samples, rng=rng)
    if state.phase == CHOICE and odds[0].p_game is None:
        return choose_between_rounds(state)[0]
    return best(odds).move


def _percent(p: float | None) -> str:
    return "?" if p is None else f"{100 * p:.1f}%"


CHOICE_TEXTS = {
    "revive_member": "{card} back face up: a member survives a lost round, can be sacrificed "
    "in the final round and scores 10",
    "bank_low_card": "bank {card}: a reserve card plays in every round, and low cards make "
    "the most sums",
    "nothing_to_do": "nothing to bank or revive",
}


def hint(
    state: LoboState, budget: int = DEFAULT_BUDGET, samples: int = DEFAULT_SAMPLES
) -> dict[str, Any]:
    """{move, odds, p_win, p_game, exact, samples?, reason, explanation, moves: [...]}.

    ``odds`` is the chosen move's p_win (its p_game between rounds); ``moves`` lists every
    legal move with its odds, best first."""
    odds = analyse(state, budget=budget, samples=samples)
    listed = sorted(odds, key=lambda item: item.rank(), reverse=True)
    if state.phase == CHOICE and odds[0].p_game is None:
        move, reason = choose_between_rounds(state)
        card = move.give[0] if move.give else ""
        return {
            "move": move.text(),
            "odds": None,
            "p_win": None,
            "p_game": None,
            "exact": True,
            "reason": reason,
            "explanation": CHOICE_TEXTS[reason].format(card=card),
            "moves": [item.to_json() for item in odds],
        }
    top = best(odds)
    reason, text = _explain(state, top, listed)
    out: dict[str, Any] = {
        "move": top.move.text(),
        "odds": top.p_win if top.p_win is not None else top.p_game,
        "p_win": top.p_win,
        "p_game": top.p_game,
        "exact": top.exact,
        "reason": reason,
        "explanation": text,
        "moves": [item.to_json() for item in listed],
    }
    if not top.exact:
        out["samples"] = top.samples
    return out


def _explain(state: LoboState, top: MoveOdds, listed: list[MoveOdds]) -> tuple[str, str]:
    """(reason code, English sentence) for the hint."""
    if len(listed) == 1 and top.move.kind == "fold":
        return "forced_fold", "no capture is possible: the round is lost"
    runner = next((item for item in listed if item.move != top.move), None)
    if top.p_win is None:  # the choice, with game odds
        text = f"{top.move.text()} wins the game {_percent(top.p_game)} of the time (exact)"
        if runner is not None:
            text += f"; next best {runner.move.text()}: {_percent(runner.p_game)}"
        return "best_game_odds", text
    kind = "exact" if top.exact else f"estimated from {top.samples} shuffles"
    if state.final:
        text = f"{top.move.text()} wins the game {_percent(top.p_win)} of the time ({kind})"
    elif top.p_game is not None:
        text = (
            f"{top.move.text()} wins the game {_percent(top.p_game)} of the time (exact) "
            f"and this round {_percent(top.p_win)} ({kind})"
        )
    else:
        text = f"{top.move.text()} wins the round {_percent(top.p_win)} of the time ({kind})"
    if runner is not None:
        odds = runner.p_game if top.p_game is not None and not state.final else runner.p_win
        text += f"; next best {runner.move.text()}: {_percent(odds)}"
    return ("best_game_odds" if top.p_game is not None else "best_odds"), text
