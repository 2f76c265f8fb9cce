"""``python -m tapete.lab``: a lab run (or two settings side by side) printed as the table the
page shows (:mod:`tapete.lab.run` says what the numbers are)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from ..errors import BadOptionError, describe
from .run import LabConfig, as_json, markdown, run


def parse_knobs(pairs: Sequence[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        name, eq, value = pair.partition("=")
        if not eq or not name:
            raise BadOptionError(f"a knob is name=value; got {describe(pair)}")
        out[name] = value
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tapete.lab", description="Seeded bot-vs-bot games and their numbers."
    )
    parser.add_argument("game", nargs="?", default="willie")
    parser.add_argument("--players", default="2", help="a count, or several: 2,3")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", default="LAB")
    parser.add_argument("--set", action="append", default=[], metavar="KNOB=VALUE")
    parser.add_argument(
        "--vs",
        action="append",
        default=[],
        metavar="KNOB=VALUE",
        help="a second setting: the first one with these changes",
    )
    parser.add_argument("--levels", default="normal", help="bot level per seat: normal,easy")
    parser.add_argument("--json", action="store_true", help="print the summaries as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args(argv)
    try:
        players = [int(p) for p in args.players.split(",")]
        base = parse_knobs(args.set)
        configs = [
            LabConfig.make(args.game, players, args.games, args.seed, base, args.levels.split(","))
        ]
        if args.vs:
            other = {**base, **parse_knobs(args.vs)}
            configs.append(
                LabConfig.make(
                    args.game, players, args.games, args.seed, other, args.levels.split(",")
                )
            )
    except (BadOptionError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    results = []
    for letter, config in zip("AB", configs, strict=False):  # progress names the setting

        def report(done: int, total: int, letter: str = letter) -> None:
            if not args.quiet and (done == total or done % max(1, total // 20) == 0):
                print(f"\r{letter}: {done}/{total} games", end="", file=sys.stderr, flush=True)

        results.append(run(config, report))
        if not args.quiet:
            print(file=sys.stderr)
    if args.json:
        print(json.dumps([as_json(r) for r in results], indent=2))
    else:
        print(markdown(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
