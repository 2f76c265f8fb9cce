"""Experiment: a Rummikub bot that looks ahead by sampling, in duels against normal.

    nice -n 19 python3 bench/bench_rummikub_lookahead.py --deals 500 --jobs 2

Not a level of the game yet. At each turn where it can lay tiles (without going out), the bot
compares the solver's most-tiles play, its most-value play (when it lays other tiles) and a
draw. For each of ``--samples`` deals of the tiles it cannot see, it plays every candidate and
rolls the game out ``--horizon`` rounds with normal bots; a rollout scores the opponents' mean
rack size less its own, or +/-50 for a finished game. It takes the best total; the candidates
share each deal and each rollout's seed. The unseen tiles come from its view alone (the full
set less its rack and the table, in a fixed order, then shuffled), so it is fair.

Games go through bench_rummikub.py's tournament runner (seeded duplicate duels, seats
swapped, resumable results under bench/results/), with this bot as the level "lookahead".
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import benchlib

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "engine"))

from tapete.rng import Rng  # noqa: E402
from tapete.rummikub import GAME, Move  # noqa: E402
from tapete.rummikub.bots import as_move, initial_meld, normal_bot, table_of  # noqa: E402
from tapete.rummikub.game import RummikubState  # noqa: E402
from tapete.rummikub.solver import solve  # noqa: E402
from tapete.rummikub.tiles import FULL_SET  # noqa: E402

SETTINGS = {"samples": 6, "horizon": 2}


def unseen_world(state: RummikubState, seat: int, rng: Rng) -> RummikubState:
    """``state`` with the tiles ``seat`` cannot see dealt afresh, drawn from its view alone."""
    view = GAME.view(state, seat)
    seen = Counter(view["rack"]) + Counter(t for entry in view["table"] for t in entry["tiles"])
    unseen = rng.shuffled(sorted((Counter(FULL_SET) - seen).elements()))
    racks = list(state.racks)
    for other, size in enumerate(view["rack_sizes"]):
        if other != seat:
            racks[other], unseen = tuple(unseen[:size]), unseen[size:]
    return replace(state, racks=tuple(racks), pool=tuple(unseen))


def rollout(state: RummikubState, seat: int, rng: Rng) -> float:
    """Play ``horizon`` rounds with normal bots; score ``seat``'s position after them."""
    for _ in range(SETTINGS["horizon"] * state.players):
        mover = GAME.to_move(state)
        if mover is None:
            break
        state = GAME.apply(state, mover, normal_bot(GAME, state, mover, rng))
    outcome = GAME.outcome(state)
    if outcome is not None:
        return 50.0 if seat in outcome.winners else -50.0
    others = [len(rack) for other, rack in enumerate(state.racks) if other != seat]
    return sum(others) / len(others) - len(state.racks[seat])


def lookahead_bot(game: Any, state: RummikubState, seat: int, rng: Rng) -> Move:
    view = game.view(state, seat)
    if not view["melded"][seat]:
        return initial_meld(view)
    table = table_of(view)
    most_tiles = solve(table, view["rack"], objective="tiles", options=view["options"])
    if not most_tiles.placed or len(most_tiles.placed) == len(view["rack"]):
        return as_move(view, most_tiles, melded=True)
    candidates = [as_move(view, most_tiles, melded=True)]
    most_value = solve(table, view["rack"], objective="value", options=view["options"])
    if sorted(most_value.placed) != sorted(most_tiles.placed):
        candidates.append(as_move(view, most_value, melded=True))
    if view["pool_size"]:
        candidates.append(Move("draw"))
    totals = [0.0] * len(candidates)
    for sample in range(SETTINGS["samples"]):
        world = unseen_world(state, seat, Rng.derive("lookahead", rng.below(1 << 30), sample))
        for index, move in enumerate(candidates):
            after = GAME.apply(world, seat, move)
            totals[index] += rollout(after, seat, Rng.derive("rollout", sample))
    return candidates[max(range(len(candidates)), key=lambda i: (totals[i], -i))]


GAME.bots["lookahead"] = lookahead_bot


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100, help="deals (each played twice)")
    parser.add_argument("--prefix", default="LOOK", help="seed prefix of the deals")
    parser.add_argument("--samples", type=int, default=SETTINGS["samples"])
    parser.add_argument("--horizon", type=int, default=SETTINGS["horizon"], help="rounds")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = parser.parse_args()
    SETTINGS.update(samples=args.samples, horizon=args.horizon)
    runner = benchlib.load_bench("bench_rummikub")
    out = runner.RESULTS / f"rummikub_lookahead_{args.samples}x{args.horizon}_{args.prefix}.jsonl"
    rows = runner.tournament(
        args.deals, prefix=args.prefix, pairs=(("lookahead", "normal"),), jobs=args.jobs, out=out
    )
    print("\n".join(rows))


if __name__ == "__main__":
    main()
