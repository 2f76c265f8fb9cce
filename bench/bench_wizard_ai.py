"""The Wizard AI's report card: duplicate tournaments and per-move latency.

    python3 bench/bench_wizard_ai.py tournament --levels hard,normal,easy \
        --opponents heuristic,random --deals 250 --jobs 2
    python3 bench/bench_wizard_ai.py latency --levels easy,normal,hard --deals 12 --pyodide
    python3 bench/bench_wizard_ai.py game-latency --levels hard --opponents duck,ruled --deals 2
    python3 bench/bench_wizard_ai.py report
    python3 bench/bench_wizard_ai.py compare --baseline /tmp/before/tapete --levels normal,hard

**Tournament.** 4-player games on seeded deals (``D0``, ``D1``, ...): each deal is played four
times, the level under test sitting in each seat in turn and three copies of the opponent level
in the others (a duplicate format: every seat of every deal is played by the level once).
Reported per pairing: games, the level's win share (a tie shares the win) with a 95% interval
(parity is 25%), its mean score minus the mean of the three opponents, and its bid accuracy
(rounds where it took exactly its bid) next to the opponents'. The four games of one deal are
correlated, so intervals treat the deal as the unit (mean +- 1.96 standard errors over deals).
``--opponents`` also takes the pool's styles (``bench/wizard_pool.py``: ``overbid``, ``duck``,
...) and mixed tables ``a+b+c``; ``--rounds N`` plays quick games of N rounds spread over the
game (``round_set``), reported apart from full games.

Every finished game is appended as one JSON line to ``--out`` (default
``bench/results/wizard_ai.jsonl``); a rerun skips the games already there, so a long run can be
stopped and resumed, and ``--jobs`` worker processes play games in parallel. A game found twice
(two runs of one tournament into the same file) is read once; ``paired --base-file`` takes
several files.

**Latency.** Positions from round 10 of 4-player games between heuristic bots (10-card hands):
every bid, the dealer's trump choice when a Wizard is turned, and every card of the first three
tricks. Each level decides each position once; p50/p95 per kind of decision, in CPU time (what
the move costs, whatever else the machine runs) and wall time, and with ``--pyodide`` in the
pinned Pyodide runtime under Node (the browser's engine; its CPU time is Node's
``process.cpuUsage()``, which also counts V8's helper threads, so it errs high).

**Game latency.** The level's own decisions in whole games against the pool (``--opponents``,
one line-up after another; each deal played with the level in every seat), in CPU time: p50,
p95 and max per kind of decision, in round 10 (10-card hands, as ``latency``), in rounds 13-15
(the largest hands) and over the whole game. Unlike ``latency``'s heuristic games, these are
games where the readings of the other seats' styles switch on.

**Compare.** The latency positions, each decided by a copy of the package from before a change
(``--baseline``: ``cp -r engine/tapete /tmp/before/`` first) and by this one, alternately in
one process; the moves must be equal, and the table gives the CPU-time medians and their ratio.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import multiprocessing
import os
import platform
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import benchlib

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "engine"))

import wizard_pool  # noqa: E402
from tapete.bots import choose_move  # noqa: E402
from tapete.rng import Rng  # noqa: E402
from tapete.wizard import GAME, ai, counting  # noqa: E402
from tapete.wizard.bots import simple_bot  # noqa: E402

DEFAULT_OUT = ROOT / "bench" / "results" / "wizard_ai.jsonl"
PLAYERS = 4


# -- tuning (for experiments: the registered levels are the real ones) -------------------------


def tuning_value(text: str) -> Any:
    """``--tune``'s value: a bool (``True``/``False``), a float (with a dot), an int or text."""
    if text in ("True", "False"):
        return text == "True"
    if "." in text:
        return float(text)
    return int(text) if text.lstrip("-").isdigit() else text


def apply_tuning(tune: str) -> None:
    """``--tune key=value,...`` overrides fields of every search level in this process
    (``counting.NAME=value``: a constant of the heuristic level's module instead)."""
    if not tune:
        return
    changes: dict[str, Any] = {}
    for item in tune.split(","):
        key, value = item.split("=")
        parsed = tuning_value(value)
        if key.startswith("counting."):  # a constant of the heuristic level's module
            setattr(counting, key.removeprefix("counting."), parsed)
            continue
        changes[key] = parsed
    for name, level in list(ai.LEVELS.items()):
        ai.LEVELS[name] = replace(level, **changes)
        GAME.bots[name] = ai.search_bot(ai.LEVELS[name])


# -- one game -------------------------------------------------------------------------------


def line_up(level: str, opponent: str, rot: int) -> list[str]:
    """Who sits where: ``level`` in seat ``rot``, then the opponents clockwise after it.

    ``opponent`` is one player (three copies of it) or a mixed table ``a+b+c`` (in that order
    from the level's left), so the four games of a deal rotate the whole line-up through every
    seat.
    """
    names = opponent.split("+")
    others = names * (PLAYERS - 1) if len(names) == 1 else names
    if len(others) != PLAYERS - 1:
        raise SystemExit(f"a line-up of {PLAYERS - 1} opponents, not {opponent!r}")
    return [level if seat == rot else others[(seat - rot - 1) % PLAYERS] for seat in range(PLAYERS)]


def decide(name: str, state: Any, seat: int, step: int) -> Any:
    """The move of the level or pool style ``name`` (``wizard_pool.STYLES``), from its own
    stream (the pool's is labelled apart from the levels'); ``simple`` is the simple bot."""
    if name in wizard_pool.STYLES:
        rng = Rng.derive("bot", GAME.id, "pool", name, seat, step)
        return wizard_pool.STYLES[name](GAME, state, seat, rng)
    if name == "simple":  # the heuristic level before issue 19 (the search's playout rules)
        return simple_bot(GAME, state, seat, Rng(0))
    return choose_move(GAME, state, seat, name, step)


def round_set(count: int) -> list[int]:
    """The rounds a game of ``count`` rounds plays (0: all of them): spread evenly over the
    game's rounds and ending with the last, so that a short game still meets every hand size
    from small to the largest (``--rounds 5``: rounds 3, 6, 9, 12, 15 with 4 players)."""
    rounds = 60 // PLAYERS
    if count <= 0 or count >= rounds:
        return list(range(1, rounds + 1))
    return sorted({max(1, round(k * rounds / count)) for k in range(1, count + 1)})


Job = tuple[str, str, int, int, str, int]  # level, opponent, deal, seat, tune, rounds


def play_game(job: Job, choose: Callable[[str, Any, int, int], Any] = decide) -> dict[str, Any]:
    """Deal ``D<deal>`` with ``level`` in seat ``rot`` and the ``opponent`` line-up elsewhere,
    over the rounds of ``round_set(rounds)`` (the others are skipped: the next is dealt);
    ``choose`` makes each move (``decide``, or a wrapper that times it)."""
    level, opponent, deal, rot, tune, rounds = job
    apply_tuning(tune)
    started, cpu = time.perf_counter(), time.process_time()
    chosen = round_set(rounds)
    state = GAME.new_game(f"D{deal}", None, PLAYERS)
    if chosen[0] != 1:
        state = GAME.deal_round(state, chosen[0])
    seats = line_up(level, opponent, rot)
    step = 0
    while (seat := GAME.to_move(state)) is not None:
        state = GAME.apply(state, seat, choose(seats[seat], state, seat, step))
        step += 1
        if len(state.history) == len(chosen):
            break
        if state.round not in chosen:  # a round just dealt that this game skips
            state = GAME.deal_round(state, chosen[len(state.history)])
    best = max(state.scores)
    winners = [s for s, score in enumerate(state.scores) if score == best]
    if state.phase == "over":
        outcome = GAME.outcome(state)
        assert outcome is not None
        winners = list(outcome.winners)
    made = [sum(r.bids[s] == r.tricks[s] for r in state.history) for s in range(PLAYERS)]
    return {
        "level": level,
        "opponent": opponent,
        "tune": tune,
        "round_set": rounds,
        "deal": deal,
        "seat": rot,
        "scores": [int(x) for x in state.scores],
        "winners": winners,
        "made": made,
        "own": [[r.bids[rot], r.tricks[rot]] for r in state.history],  # the level's bid, tricks
        "rounds": len(state.history),
        "seconds": round(time.perf_counter() - started, 2),
        "cpu_seconds": round(time.process_time() - cpu, 2),
    }


def game_key(row: dict[str, Any]) -> tuple[str, str, str, int, int, int]:
    return (
        row["level"],
        row["opponent"],
        row.get("tune", ""),
        row["deal"],
        row["seat"],
        row.get("round_set", 0),
    )


def read_rows(*paths: Path) -> list[dict[str, Any]]:
    """The games in ``paths`` (JSON lines), each once: two runs of one tournament into the same
    file write the same game twice (the games are deterministic), and it is counted once."""
    rows: dict[tuple[str, str, str, int, int, int], dict[str, Any]] = {}
    for path in paths:
        if not path.exists():
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                rows.setdefault(game_key(row), row)
    return list(rows.values())


def tournament(args: argparse.Namespace) -> None:
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    done = {game_key(row) for row in read_rows(out)}
    jobs = [
        (level, opponent, deal, seat, args.tune, args.rounds)
        for deal in range(args.first_deal, args.first_deal + args.deals)
        for level in args.levels.split(",")
        for opponent in args.opponents.split(",")
        for seat in range(PLAYERS)
        if (level, opponent, args.tune, deal, seat, args.rounds) not in done
    ]
    print(f"{len(jobs)} games to play ({len(done)} already in {out})", file=sys.stderr)
    started = time.perf_counter()
    with out.open("a", encoding="utf-8") as sink:
        for i, row in enumerate(run_jobs(jobs, args.jobs), 1):
            sink.write(json.dumps(row) + "\n")
            sink.flush()
            if i % 10 == 0 or i == len(jobs):
                spent = time.perf_counter() - started
                print(f"  {i}/{len(jobs)} games, {spent:.0f} s", file=sys.stderr)
    report(args)


def run_jobs(jobs: list[Job], processes: int) -> Iterator[Any]:
    """The finished games, in the order they finish (``processes`` at a time)."""
    if processes <= 1 or len(jobs) <= 1:
        yield from map(play_game, jobs)
        return
    with multiprocessing.Pool(processes) as pool:
        yield from pool.imap_unordered(play_game, jobs)


# -- the report -----------------------------------------------------------------------------


def mean_interval(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval (normal approximation)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.nan
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def pairing_summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per-deal means (the unit of the intervals) of share, score difference and accuracy."""
    by_deal: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_deal[row["deal"]].append(row)
    share, diff, made, other_made = [], [], [], []
    for games in by_deal.values():
        s, d, m, o = [], [], [], []
        for row in games:
            seat, scores, winners = row["seat"], row["scores"], row["winners"]
            s.append(1 / len(winners) if seat in winners else 0.0)
            others = [x for i, x in enumerate(scores) if i != seat]
            d.append(scores[seat] - statistics.fmean(others))
            m.append(row["made"][seat] / row["rounds"])
            o.append(statistics.fmean(x for i, x in enumerate(row["made"]) if i != seat))
            o[-1] /= row["rounds"]
        share.append(statistics.fmean(s))
        diff.append(statistics.fmean(d))
        made.append(statistics.fmean(m))
        other_made.append(statistics.fmean(o))
    return {
        "games": len(rows),
        "deals": len(by_deal),
        "share": mean_interval(share),
        "diff": mean_interval(diff),
        "made": mean_interval(made),
        "other_made": statistics.fmean(other_made),
        "seconds": statistics.fmean(row["seconds"] for row in rows),
        "cpu": statistics.fmean(
            [row["cpu_seconds"] for row in rows if "cpu_seconds" in row] or [math.nan]
        ),
    }


def percent(estimate: tuple[float, float]) -> str:
    """A share and its 95% interval in percent, the interval clipped to 0..100."""
    mean, half = estimate
    low, high = max(0.0, mean - half), min(1.0, mean + half)
    return f"{100 * mean:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def report(args: argparse.Namespace) -> None:
    rows = read_rows(Path(args.out))
    groups: dict[tuple[str, str, str, int], list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        key = (row["level"], row["opponent"], row.get("tune", ""), row.get("round_set", 0))
        groups[key].append(row)
    print(
        "| level | vs 3x | games (deals) | win share [95% CI] | score diff [95% CI] "
        "| bids made [95% CI] | opponents' bids made | s/game (CPU) |"
    )
    print("|---|---|---:|---|---|---|---:|---:|")
    for (level, opponent, tune, rounds), group in sorted(groups.items()):
        s = pairing_summary(group)
        name = f"{level} ({tune})" if tune else level
        if rounds:
            name += f", {rounds} rounds"
        diff = s["diff"]
        print(
            f"| {name} | {opponent} | {s['games']} ({s['deals']}) | {percent(s['share'])} "
            f"| {diff[0]:+.1f} [{diff[0] - diff[1]:+.1f}, {diff[0] + diff[1]:+.1f}] "
            f"| {percent(s['made'])} "
            f"| {100 * s['other_made']:.1f}% | {s['seconds']:.1f} ({s['cpu']:.1f}) |"
        )
    print(f"\nParity is 25%. {machine()}. Results: `{args.out}`.")


def deal_means(rows: list[dict[str, Any]]) -> dict[int, tuple[float, float, float]]:
    """Deal -> the level's mean win share, score difference and bids made over its games."""
    by_deal: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_deal[row["deal"]].append(row)
    out = {}
    for deal, games in by_deal.items():
        s = pairing_summary(games)
        out[deal] = (s["share"][0], s["diff"][0], s["made"][0])
    return out


def paired(args: argparse.Namespace) -> None:
    """Two players (``level:tune``) on the same deals and line-ups: per-deal differences.

    The games of a deal share its cards, so the difference of two players' results on the same
    deal varies far less than either result: the interval is over deals, as everywhere here.
    ``--base-file`` (repeatable): the base's games are read from those files instead of
    ``--out`` (two versions of the code, each with its own results files: the variant's in
    ``--out``).
    """
    variant_rows = read_rows(Path(args.out))
    base_files = [Path(f) for f in args.base_file]
    base_rows = read_rows(*base_files) if base_files else variant_rows

    def player(spec: str) -> tuple[str, str]:
        level, _, tune = spec.partition(":")
        return level, tune

    def grouped(rows: list[dict[str, Any]]) -> dict[tuple[str, str, str], list[dict[str, Any]]]:
        groups: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
        for row in rows:
            if row.get("round_set", 0) == args.rounds:
                groups[(row["level"], row.get("tune", ""), row["opponent"])].append(row)
        return groups

    first, second = player(args.variant), player(args.base)
    variants, bases = grouped(variant_rows), grouped(base_rows)
    opponents = sorted(
        {o for (lv, t, o) in variants if (lv, t) == first}
        & {o for (lv, t, o) in bases if (lv, t) == second}
    )
    named = ", ".join(f"`{f}`" for f in args.base_file)
    base_name = f"{args.base} ({named})" if named else args.base
    print(f"| vs | deals | {args.variant} minus {base_name}: win share | score diff | bids made |")
    print("|---|---:|---|---|---|")
    pooled: list[tuple[float, ...]] = []
    for opponent in opponents:
        a = deal_means(variants[(*first, opponent)])
        b = deal_means(bases[(*second, opponent)])
        deals = sorted(set(a) & set(b))
        diffs = [tuple(x - y for x, y in zip(a[d], b[d], strict=True)) for d in deals]
        pooled += diffs
        print(paired_row(opponent, diffs))
    if len(opponents) > 1:
        print(paired_row("all of them", pooled))
    source = f"`{args.out}` and {named}" if named else f"`{args.out}`"
    print(f"\n95% intervals over deals. {machine()}. Results: {source}.")


def paired_row(name: str, diffs: Sequence[tuple[float, ...]]) -> str:
    share, diff, made = (mean_interval([d[i] for d in diffs]) for i in range(3))
    return (
        f"| {name} | {len(diffs)} | {100 * share[0]:+.1f} [{100 * (share[0] - share[1]):+.1f}, "
        f"{100 * (share[0] + share[1]):+.1f}] | {diff[0]:+.1f} [{diff[0] - diff[1]:+.1f}, "
        f"{diff[0] + diff[1]:+.1f}] | {100 * made[0]:+.1f} [{100 * (made[0] - made[1]):+.1f}, "
        f"{100 * (made[0] + made[1]):+.1f}] |"
    )


# -- latency --------------------------------------------------------------------------------

# Runs unchanged in CPython and in Pyodide (bench_engine.py boots it with the built wheel);
# ``CONFIG`` is defined before it and its last line gives the result as JSON.
LATENCY = r"""
import json, time
from tapete.bots import choose_move
from tapete.wizard import GAME

try:  # Pyodide under Node: its process_time is wall time, so ask Node for the CPU time
    from js import process as node_process

    def cpu_clock():
        usage = node_process.cpuUsage()
        return (usage.user + usage.system) / 1e6
except ImportError:  # CPython
    cpu_clock = time.process_time

def positions(deals):
    # (kind, state) at round 10 of heuristic games: bids, trump choices, first three tricks
    for deal in range(deals):
        state = GAME.new_game(f"L{deal}", None, 4)
        step = 0
        while state.round < 10 or len(state.played) < 3:
            seat = GAME.to_move(state)
            if state.round == 10:
                yield ("card" if state.phase == "play" else state.phase), state
            state = GAME.apply(state, seat, choose_move(GAME, state, seat, "heuristic", step))
            step += 1

def measure(config):
    cases = list(positions(config["deals"]))
    out = {}
    for level in config["levels"]:
        rows = out[level] = []
        for i, (kind, state) in enumerate(cases):
            seat = GAME.to_move(state)
            wall, cpu = time.perf_counter(), cpu_clock()
            choose_move(GAME, state, seat, level, i)
            rows.append([kind, time.perf_counter() - wall, cpu_clock() - cpu])
    return out

json.dumps(measure(CONFIG))
"""


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def latency_table(runtime: str, result: dict[str, list[list[Any]]], clock: int) -> list[str]:
    """Markdown rows: per level and kind of decision, p50/p95/max in ms (clock 1 wall, 2 CPU)."""
    lines = []
    for level, rows in result.items():
        for kind in ("bid", "trump", "card", "all"):
            values = [1000 * r[clock] for r in rows if kind in (r[0], "all")]
            if values:
                lines.append(
                    f"| {runtime} | {level} | {kind} | {len(values)} "
                    f"| {percentile(values, 0.5):.0f} | {percentile(values, 0.95):.0f} "
                    f"| {max(values):.0f} |"
                )
    return lines


def latency(args: argparse.Namespace) -> None:
    apply_tuning(args.tune)
    config = {"deals": args.deals, "levels": args.levels.split(",")}
    source = f"import json\nCONFIG = json.loads({json.dumps(json.dumps(config))})\n{LATENCY}"
    namespace: dict[str, Any] = {}
    *body, last = source.rstrip().splitlines()
    exec("\n".join(body), namespace)
    cpython = json.loads(eval(last, namespace))
    print("| runtime | level | decision | positions | p50 ms | p95 ms | max ms |")
    print("|---|---|---|---:|---:|---:|---:|")
    cpu_name = f"CPython {platform.python_version()}"
    print("\n".join(latency_table(f"{cpu_name}, CPU time", cpython, 2)))
    print("\n".join(latency_table(f"{cpu_name}, wall time", cpython, 1)))
    if args.pyodide:
        if args.tune:
            raise SystemExit("--tune does not reach Pyodide: measure the registered levels")
        bench_engine = benchlib.load_bench("bench_engine")
        with tempfile.TemporaryDirectory() as temp:
            result, name = bench_engine.run_pyodide(source, bench_engine.load_build(), Path(temp))
        print("\n".join(latency_table(f"{name}, Node, CPU time", result, 2)))
        print("\n".join(latency_table(f"{name}, Node, wall time", result, 1)))
    print(f"\n4 players, round 10 (10-card hands), {args.deals} deals. {machine()}.")


ROUND_GROUPS = (("round 10", 10, 10), ("rounds 13-15", 13, 15), ("whole game", 1, 15))


def game_latency(args: argparse.Namespace) -> None:
    """The levels' decisions timed in whole games against each line-up of ``--opponents``."""
    apply_tuning(args.tune)
    timed: list[tuple[str, str, int, str, float]] = []  # level, line-up, round, kind, ms

    def timing_decide(name: str, state: Any, seat: int, step: int) -> Any:
        if name not in levels:
            return decide(name, state, seat, step)
        cpu = time.process_time()
        move = decide(name, state, seat, step)
        kind = "card" if state.phase == "play" else state.phase
        timed.append((name, line, state.round, kind, 1000 * (time.process_time() - cpu)))
        return move

    levels = args.levels.split(",")
    for level in levels:
        for line in args.opponents.split(","):
            for deal in range(args.first_deal, args.first_deal + args.deals):
                for rot in range(PLAYERS):
                    play_game((level, line, deal, rot, args.tune, 0), timing_decide)
    print("| level | vs 3x | rounds | decision | decisions | p50 ms | p95 ms | max ms |")
    print("|---|---|---|---|---:|---:|---:|---:|")
    for level in levels:
        for line in args.opponents.split(","):
            for label, low, high in ROUND_GROUPS:
                for kind in ("bid", "trump", "card"):
                    values = [
                        ms
                        for name, where, number, what, ms in timed
                        if (name, where, what) == (level, line, kind) and low <= number <= high
                    ]
                    if values:
                        print(
                            f"| {level} | {line} | {label} | {kind} | {len(values)} "
                            f"| {percentile(values, 0.5):.0f} | {percentile(values, 0.95):.0f} "
                            f"| {max(values):.0f} |"
                        )
    print(
        f"\n4 players, whole games, deals {args.first_deal}-{args.first_deal + args.deals - 1}, "
        f"CPU time. {machine()}."
    )


# -- before and after a change --------------------------------------------------------------


def load_baseline(path: Path) -> Any:
    """A copy of the ``tapete`` package (e.g. from before a change) as ``tapete_baseline``."""
    spec = importlib.util.spec_from_file_location(
        "tapete_baseline", path / "__init__.py", submodule_search_locations=[str(path)]
    )
    assert spec is not None and spec.loader is not None
    package = importlib.util.module_from_spec(spec)
    sys.modules["tapete_baseline"] = package
    spec.loader.exec_module(package)
    return package


def compare(args: argparse.Namespace) -> None:
    """The latency positions decided by the baseline package and by this one, alternately.

    Every position is decided by both in one process, in alternating order, so that the load
    of the machine weighs on both alike; their moves must be the same (a speed change must not
    change a decision). Reports CPU-time medians per level and kind of decision.
    """
    if not args.baseline:
        raise SystemExit("compare needs --baseline DIR (a copy of engine/tapete)")
    base = load_baseline(Path(args.baseline))
    base_game = importlib.import_module("tapete_baseline.wizard").GAME
    base_choose = importlib.import_module("tapete_baseline.bots").choose_move
    namespace: dict[str, Any] = {}
    exec(LATENCY.rstrip().rsplit("\n", 1)[0], namespace)  # positions() from the latency code
    cases = list(namespace["positions"](args.deals))
    print(
        "| level | decision | positions | before p50 / p95 ms | after p50 / p95 ms "
        "| p50 before / after |"
    )
    print("|---|---|---:|---:|---:|---:|")
    for level in args.levels.split(","):
        rows: list[tuple[str, float, float]] = []
        for i, (kind, state) in enumerate(cases):
            seat = GAME.to_move(state)
            assert seat is not None
            old_state = base_game.from_json(GAME.to_json(state))
            timed: dict[str, tuple[float, str]] = {}
            for side in ("before", "after") if i % 2 == 0 else ("after", "before"):
                cpu = time.process_time()
                if side == "before":
                    move = base_game.move_to_json(base_choose(base_game, old_state, seat, level, i))
                else:
                    move = GAME.move_to_json(choose_move(GAME, state, seat, level, i))
                timed[side] = (time.process_time() - cpu, move)
            if timed["before"][1] != timed["after"][1]:
                raise SystemExit(f"{level}, position {i}: the move changed: {timed}")
            rows.append((kind, timed["before"][0], timed["after"][0]))
        for kind in ("bid", "trump", "card", "all"):
            chosen = [r for r in rows if kind in (r[0], "all")]
            if chosen:
                before = [1000 * r[1] for r in chosen]
                after = [1000 * r[2] for r in chosen]
                p50 = percentile(before, 0.5), percentile(after, 0.5)
                print(
                    f"| {level} | {kind} | {len(chosen)} "
                    f"| {p50[0]:.1f} / {percentile(before, 0.95):.1f} "
                    f"| {p50[1]:.1f} / {percentile(after, 0.95):.1f} | {p50[0] / p50[1]:.2f} |"
                )
    print(f"\nCPU time; the same moves everywhere. Baseline: {base.__file__}. {machine()}.")


def machine() -> str:
    return (
        f"CPython {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cores, "
        f"load average {os.getloadavg()[0]:.1f}"
    )


# -- command line ------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "mode", choices=("tournament", "latency", "game-latency", "report", "compare", "paired")
    )
    parser.add_argument("--levels", default="hard,normal,easy")
    parser.add_argument("--opponents", default="heuristic,random")
    parser.add_argument(
        "--deals", type=int, default=None, help="deals (tournament: 4 games each; default 250)"
    )
    parser.add_argument("--first-deal", type=int, default=0)
    parser.add_argument(
        "--rounds", type=int, default=0, help="tournament: rounds a game (spread out; 0: all)"
    )
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", default=str(DEFAULT_OUT))
    parser.add_argument("--pyodide", action="store_true", help="latency: also in Pyodide")
    parser.add_argument("--tune", default="", help="experiments only: key=value,... for levels")
    parser.add_argument("--baseline", default="", help="compare: a copy of engine/tapete")
    parser.add_argument("--variant", default="normal:", help="paired: level:tune to measure")
    parser.add_argument("--base", default="normal:", help="paired: level:tune to measure against")
    parser.add_argument(
        "--base-file",
        action="append",
        default=[],
        help="paired: the base's results, if not in --out (repeatable)",
    )
    args = parser.parse_args()
    if args.deals is None:
        args.deals = {"latency": 12, "compare": 12, "game-latency": 2}.get(args.mode, 250)
    print(f"command: `python3 bench/bench_wizard_ai.py {' '.join(sys.argv[1:])}`\n")
    modes = {
        "tournament": tournament,
        "latency": latency,
        "game-latency": game_latency,
        "report": report,
        "compare": compare,
        "paired": paired,
    }
    modes[args.mode](args)


if __name__ == "__main__":
    main()
