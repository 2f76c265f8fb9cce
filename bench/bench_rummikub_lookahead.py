"""Duels of the Rummikub hard bot's look-ahead against normal, with its settings as options.

    nice -n 19 python3 bench/bench_rummikub_lookahead.py --deals 500 --jobs 2
    nice -n 19 python3 bench/bench_rummikub_lookahead.py --deals 200 --samples 10 --horizon 3

The hard bot (``tapete.rummikub.bots.hard_bot``) weighs the solver's most-tiles play, its
most-value play and a draw by sampled rollouts; ``--samples`` and ``--horizon`` set its
``SAMPLES`` (deals of the unseen tiles per decision) and ``HORIZON`` (rounds per rollout) for
this run, so other settings can be measured without changing the game. The bot plays as the
level "lookahead" (its own random stream), through bench_rummikub.py's tournament runner:
seeded duplicate duels, seats swapped, results appended under bench/results/ (one file per
setting), so a run resumes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import benchlib

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "engine"))

from tapete.rummikub import GAME, bots  # noqa: E402

GAME.bots["lookahead"] = bots.hard_bot


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100, help="deals (each played twice)")
    parser.add_argument("--prefix", default="LOOK", help="seed prefix of the deals")
    parser.add_argument("--samples", type=int, default=bots.SAMPLES)
    parser.add_argument("--horizon", type=int, default=bots.HORIZON, help="rounds")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = parser.parse_args()
    bots.SAMPLES, bots.HORIZON = args.samples, args.horizon  # the workers fork after this
    runner = benchlib.load_bench("bench_rummikub")
    out = runner.RESULTS / f"rummikub_lookahead_{args.samples}x{args.horizon}_{args.prefix}.jsonl"
    rows = runner.tournament(
        args.deals, prefix=args.prefix, pairs=(("lookahead", "normal"),), jobs=args.jobs, out=out
    )
    print("\n".join(rows))


if __name__ == "__main__":
    main()
