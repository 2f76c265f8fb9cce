"""What the Wizard card search believes of the hidden hands, held against where they are.

    python3 bench/bench_wizard_belief.py --level hard --opponents ruled,duck+high+noisy \
        --deals 4 --variant shipped= --variant plain=rank_spread=0.0 \
        --variant mixture=rank_spread=0.0,policy=0.3

Games of ``--level`` against each line-up of ``--opponents`` (the tournament's line-ups and
deals, ``bench_wizard_ai``; the level plays as it ships). At each of the level's cards after
the round's first where it has a choice (the card search's decisions), every variant builds the
card search's pool of worlds as the level would with that variant's settings
(``WizardDomain.pooled_world``: ``read_pool`` worlds drawn from the seat's view, weighed by the
readings the variant turns on), and the pool is scored against the real deal: for each card
another seat holds, the pool's probability that it lies with that seat. Reported per line-up
and variant: the mean of that probability, the mean of its log (floored at 1e-3; 0 would be
every hand known, as in the open-hands bound of BENCHMARKS.md's twenty-third pass), the same
from the round's fourth trick on, and the pool's effective size (sum w)^2 / sum w^2. The
scores use the real hands; the worlds never do.

A variant is ``name=key=value,...``: fields of ``Level`` (as ``bench_wizard_ai.py --tune``),
and two weightings the engine does not ship, applied to the built pool (both measured and not
kept, BENCHMARKS.md, twenty-fourth pass):

policy   each other seat's cards of this round read as a mixture of five simple players (the
         simple bot aiming at its bid, the dearest legal card, the cheapest, a ducker, any card
         alike), the mixture fitted to its finished rounds; the world's weight is multiplied by
         the likelihood of the round's cards so far raised to this power (0: off)
bids     each other seat's bid against the simple estimate of the hand the world gives it (its
         cards now and those it played this round): a normal factor of this spread (0: off)
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import benchlib

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "engine"))

from tapete.rng import Rng  # noqa: E402
from tapete.wizard import GAME, WizardState, ai  # noqa: E402
from tapete.wizard.game import RoundRecord  # noqa: E402

tournament = benchlib.load_bench("bench_wizard_ai")

FLOOR = 1e-3  # the least probability a log is taken of
LATE = 3  # the round's tricks done before a decision counts as late


# -- the policy reading (a mixture of simple players), on the engine's fast round --------------

Choice = tuple[int, int, int, int, int, int]  # needing; hits of four experts; legal cards


def ducked_card(sim: ai.Round, legal: Sequence[int], key: Callable[[int], int]) -> int:
    """A ducker's card: the dearest of ``legal`` that loses the trick as it stands, else the
    cheapest (``key``: the power order)."""
    if sim.best >= 0:
        row, start = sim.beats, (sim.best + 1) * ai.CARDS
        losing = [c for c in legal if not row[start + c]]
        if losing:
            return max(losing, key=key)
    return min(legal, key=key)


def policy_choices(
    trump: int, hands: list[list[int]], bids: Sequence[int], plays: Sequence[tuple[int, int]]
) -> list[list[Choice]]:
    """Per seat, each card it played among more than one legal one, the round replayed from
    its start (``hands``, the cards each seat held then, are used up): (1 while it needed
    tricks, else 0; then 1 if it is, else 0, the simple bot's card aiming at its bid
    (``heuristic_card``), the dearest legal card, the cheapest, a ducker's card; how many cards
    were legal)."""
    out: list[list[Choice]] = [[] for _ in hands]
    if not plays:
        return out
    sim = ai.Round(trump, hands, list(bids), [0] * len(hands), plays[0][0])
    for seat, card in plays:
        legal = sim.legal()
        if len(legal) > 1:
            led = ai.NO_LED if sim.led == ai.FREE else sim.led
            key = ai.power_keys(trump, led).__getitem__
            out[seat].append(
                (
                    int(sim.won[seat] < sim.bids[seat]),
                    int(ai.heuristic_card(sim, legal) == card),
                    int(max(legal, key=key) == card),
                    int(min(legal, key=key) == card),
                    int(ducked_card(sim, legal, key) == card),
                    len(legal),
                )
            )
        sim.play(card)
    return out


@lru_cache(maxsize=256)
def finished_choices(row: RoundRecord) -> tuple[tuple[tuple[Choice, ...], ...], ...]:
    """Per seat, once its bid was made and while it needed tricks: its choices in a finished
    round (the score sheet's cards replayed). Nothing without the cards."""
    n = len(row.bids)
    if not row.cards or any(len(hand) != row.round for hand in row.cards):
        return tuple(((), ()) for _ in range(n))
    plays = [(seat, card) for _k, seat, _hand, card, *_rest in ai.replayed(row)]
    hands = [[ai.CARD_NUMBER[c] for c in hand] for hand in row.cards]
    choices = policy_choices(ai.trump_number(row.trump), hands, row.bids, plays)
    return tuple(
        (tuple(c for c in mine if not c[0]), tuple(c for c in mine if c[0])) for mine in choices
    )


# the experts' weights before any evidence: simple bot, dearest, cheapest, ducker, any card
PRIOR = (0.4, 0.05, 0.05, 0.1, 0.4)
PRIOR_CHOICES = 8.0  # the prior counts as this many choices
FITTING_ROUNDS = 12


def expert_odds(choice: Choice) -> tuple[float, ...]:
    """How likely each expert makes ``choice``'s card."""
    return (*map(float, choice[1:5]), 1.0 / choice[5])


def mixture(choices: Sequence[Choice]) -> tuple[float, ...]:
    """The experts' weights that best explain ``choices`` (expectation-maximisation, the prior
    counted as ``PRIOR_CHOICES`` choices)."""
    mix: tuple[float, ...] = PRIOR
    odds = [expert_odds(c) for c in choices]
    for _ in range(FITTING_ROUNDS if odds else 0):
        totals = [PRIOR_CHOICES * p for p in PRIOR]
        for row in odds:
            parts = [m * o for m, o in zip(mix, row, strict=True)]
            whole = sum(parts)
            for k, part in enumerate(parts):
                totals[k] += part / whole
        mix = tuple(t / (PRIOR_CHOICES + len(odds)) for t in totals)
    return mix


def mixtures(state: WizardState) -> list[tuple[tuple[float, ...], ...]]:
    """Per seat, once its bid was made and while it needed tricks: its fitted mixture."""
    rows = [finished_choices(row) for row in state.history]
    return [
        tuple(mixture([c for r in rows for c in r[seat][needs]]) for needs in (0, 1))
        for seat in range(state.players)
    ]


# -- scoring a pool ------------------------------------------------------------------------------


@dataclass
class Score:
    """One decision's pool against the real deal."""

    mean_p: float
    mean_log: float
    effective: float
    late: bool


class Extra:
    """The two weightings the engine does not ship, for one decision of ``seat``."""

    def __init__(self, state: WizardState, seat: int, policy: float, bids: float) -> None:
        self.state = state
        self.seat = seat
        self.policy = policy
        self.bids = bids
        self.plays = [
            (s, ai.CARD_NUMBER[c]) for trick in (*state.played, state.trick) for s, c in trick
        ]
        self.played = [[c for s, c in self.plays if s == other] for other in range(state.players)]
        self.mix = mixtures(state) if policy else []
        self.own = [ai.CARD_NUMBER[c] for c in state.hands[seat]]
        self.others = [s for s in range(state.players) if s != seat]

    def factor(self, dealt: dict[int, list[int]]) -> float:
        weight = 1.0
        if self.bids:
            for s in self.others:
                bid = self.state.bids[s]
                if bid is not None:
                    hand = list(dealt.get(s, [])) + self.played[s]
                    guess = ai.number_estimate(hand, self.state.trump, self.state.players)
                    weight *= math.exp(-((bid - guess) ** 2) / (2.0 * self.bids * self.bids))
        if self.policy and self.plays:
            hands = [
                list(self.own if s == self.seat else dealt.get(s, [])) + self.played[s]
                for s in range(self.state.players)
            ]
            bids = [int(b or 0) for b in self.state.bids]
            choices = policy_choices(ai.trump_number(self.state.trump), hands, bids, self.plays)
            likely = 1.0
            for s in self.others:
                for needs, *hits, count in choices[s]:
                    a, b, c, d, e = self.mix[s][needs]
                    likely *= a * hits[0] + b * hits[1] + c * hits[2] + d * hits[3] + e / count
            weight *= likely**self.policy
        return weight


def score_pool(state: WizardState, seat: int, level: ai.Level, policy: float, bids: float) -> Score:
    """The pool ``level``'s card search would build for ``seat`` now, scored (:class:`Score`)."""
    domain = ai.WizardDomain(GAME, state, seat, level, ai.fast_chance(Rng(0)))
    played = sum(len(t) for t in state.played) + len(state.trick)
    domain.pooled_world(Rng.derive("wizard", "belief", state.round, seat, played))
    cumulative = domain.pool_weights
    weights = [b - a for a, b in zip([0.0, *cumulative], cumulative, strict=False)]
    if policy or bids:
        extra = Extra(state, seat, policy, bids)
        weights = [
            w * extra.factor(world[0]) for w, world in zip(weights, domain.pool, strict=True)
        ]
    return scored(state, seat, [world[0] for world in domain.pool], weights)


def scored(
    state: WizardState, seat: int, worlds: Sequence[dict[int, list[int]]], weights: Sequence[float]
) -> Score:
    """``worlds`` (each seat's hidden hand, as card numbers) at ``weights``, against the real
    hands of ``state`` (:class:`Score`)."""
    total = sum(weights) or 1.0
    truth = {
        ai.CARD_NUMBER[c]: s for s in range(state.players) if s != seat for c in state.hands[s]
    }
    placed = dict.fromkeys(truth, 0.0)
    for weight, dealt in zip(weights, worlds, strict=True):
        for s, hand in dealt.items():
            for card in hand:
                if truth.get(card) == s:
                    placed[card] += weight / total
    squares = sum(w * w for w in weights) or 1.0
    return Score(
        mean_p=statistics.mean(placed.values()),
        mean_log=statistics.mean(math.log(max(p, FLOOR)) for p in placed.values()),
        effective=total * total / squares,
        late=len(state.played) >= LATE,
    )


@dataclass
class Variant:
    name: str
    level: ai.Level
    policy: float
    bids: float


def parse_variant(text: str, base: ai.Level) -> Variant:
    """``name=key=value,...`` (see the module's docstring)."""
    name, _, settings = text.partition("=")
    changes: dict[str, Any] = {}
    policy = bids = 0.0
    for item in filter(None, settings.split(",")):
        key, _, value = item.partition("=")
        if key == "policy":
            policy = float(value)
        elif key == "bids":
            bids = float(value)
        else:
            changes[key] = tournament.tuning_value(value)
    return Variant(name, replace(base, **changes), policy, bids)


def measure(
    level: str, opponent: str, deals: Sequence[int], variants: Sequence[Variant]
) -> dict[str, list[Score]]:
    """Every variant's scores at the level's card decisions in the deals' four games each."""
    scores: dict[str, list[Score]] = {v.name: [] for v in variants}
    for deal in deals:
        for rot in range(tournament.PLAYERS):
            seats = tournament.line_up(level, opponent, rot)
            state = GAME.new_game(f"D{deal}", None, tournament.PLAYERS)
            step = 0
            while (seat := GAME.to_move(state)) is not None:
                searched = seat == rot and state.phase == "play" and (state.played or state.trick)
                if searched and len(GAME.legal_moves(state, seat)) > 1:  # the search's decisions
                    for v in variants:
                        scores[v.name].append(score_pool(state, seat, v.level, v.policy, v.bids))
                move = tournament.decide(seats[seat], state, seat, step)
                state = GAME.apply(state, seat, move)
                step += 1
    return scores


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="hard")
    parser.add_argument("--opponents", default="ruled")
    parser.add_argument("--deals", type=int, default=2)
    parser.add_argument("--first-deal", type=int, default=0)
    parser.add_argument("--variant", action="append", default=[])
    args = parser.parse_args(argv)
    base = ai.LEVELS[args.level]
    variants = [parse_variant(text, base) for text in args.variant or ["shipped="]]
    deals = range(args.first_deal, args.first_deal + args.deals)
    print(f"Command: `python3 bench/bench_wizard_belief.py {' '.join(sys.argv[1:])}`\n")
    print("| opponents | variant | decisions | P(holder) | log P | log P, late | pool size |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for opponent in args.opponents.split(","):
        scores = measure(args.level, opponent, deals, variants)
        for v in variants:
            rows = scores[v.name]
            late = [s.mean_log for s in rows if s.late]
            print(
                f"| {opponent} | {v.name} | {len(rows)} "
                f"| {statistics.mean(s.mean_p for s in rows):.3f} "
                f"| {statistics.mean(s.mean_log for s in rows):.3f} "
                f"| {statistics.mean(late) if late else math.nan:.3f} "
                f"| {statistics.median(s.effective for s in rows):.0f} |"
            )
    print(f"\n{args.level} as it ships plays; deals {deals.start}-{deals.stop - 1}, 4 games each.")
    print(tournament.machine() + ".")


if __name__ == "__main__":
    main()
