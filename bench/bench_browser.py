"""Move latency in the browser: Wizard bot moves, Lobo hints, and Rummikub's hard bot and hint
asked of the app's own worker in headless Chromium, beside the same decisions in CPython, with
the answers checked equal.

    python3 bench/bench_browser.py [--deals 12] [--lobo-games 6] [--rummikub-games 6] \
        [--games wizard,lobo,rummikub] [--levels hard,normal,easy]

The app is built into a temporary folder (``build.build``: the shipped start, precompiled and
with snapshots), served on 127.0.0.1 and opened in headless Chromium with bench_boot.py's
launch options. Once ``<html data-engine="ready">`` (and, with snapshots, once the worker has
saved its memory snapshot, which it makes when idle and which would block requests), every
request goes through the page's own client, ``tapete.app.engine.call(op, payload)``: its time is
taken with ``performance.now()`` inside the page, so it counts what the page waits for (the
post to the worker, the JSON both ways, Python) and not Playwright's round trip.

Positions, made in CPython:

- Wizard: exactly bench_wizard_ai.py's latency positions (its ``positions(deals)``): round 10 of
  4-player games between heuristic bots from seeds ``L0``, ``L1``, ... (10-card hands): every
  bid, the dealer's trump choice when a Wizard is turned, the cards of the first three tricks.
  Each is asked as ``bot_move`` per ``--levels`` with ``bot_seed`` = its index (as that script
  does) and ``view_seat`` 0 (the page always asks for the viewer's snapshot).
- Lobo: bench_lobo.py's latency positions: every position of ``--lobo-games`` games per
  difficulty (seeds ``L0``, ``L1``, ...) played by the hint itself, each asked as ``hint``.
- Rummikub: every turn of the hard bot in ``--rummikub-games`` 2-player games of hard against
  normal (seeds ``L0``, ``L1``, ...; hard sits first in even games, second in odd ones), each
  asked as ``bot_move`` at level hard (``bot_seed`` = its index) and as ``hint`` (the solver's
  best play by value). The bot moves go first, the hints after them: the bot's look-ahead
  solves so many positions that the solver's cache of recent answers holds none of the hints.

Each request is also answered by ``tapete.api.handle`` in this process with the same JSON (wall
and CPU time), interleaved position by position (the runtime that goes first alternates) so
that the machine's load weighs on both alike. Before timing, each (game, op, level) is asked
once untimed in both, so that the lazy imports of the game and its bots are not counted. The
engine is deterministic: the browser's answer must equal CPython's (the move or hint, and the
whole result); a difference is printed and the script exits with status 1.

Prints a markdown table per game, level and kind of decision (p50/p95/max, nearest rank), the
machine (load average, cores, Chromium, Pyodide) and the command. The ratio of the medians is
given to CPython's wall time (the same load on both) and to its CPU time (what the move costs in
CPython on a quiet machine; the browser has no CPU clock): on a loaded machine the truth about
the runtime alone lies between them.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import platform
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import benchlib

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "engine"))

from tapete import api, get_game  # noqa: E402

WIZARD_LEVELS = ("hard", "normal", "easy")
LOBO_DIFFICULTIES = ("EASY", "STANDARD", "HARD")
CALL_TIMEOUT_MS = 120_000
SNAPSHOT_WAIT_S = 300

# The browser's full version (the user agent's is reduced to 156.0.0.0).
BROWSER_VERSION = """
async () => {
  const data = navigator.userAgentData;
  const brands = data ? (await data.getHighEntropyValues(["fullVersionList"])).fullVersionList : [];
  const found = brands.find((b) => /Chrom/.test(b.brand));
  return found ? `${found.brand} ${found.version}` : navigator.userAgent;
}
"""

# One request through the page's client, timed inside the page.
CALL = """
async ([op, payload, timeout]) => {
  const started = performance.now();
  try {
    const result = await tapete.app.engine.call(op, payload, {timeout});
    return {ms: performance.now() - started, ok: true, result};
  } catch (error) {
    return {ms: performance.now() - started, ok: false, error: String(error && error.message)};
  }
}
"""


@dataclass
class Case:
    """One request to time: the op and its payload, and how to group it in the table."""

    game: str
    label: str  # the level (Wizard) or "hint <difficulty>" (Lobo)
    kind: str  # the kind of decision: bid, trump, card (Wizard); the phase (Lobo)
    op: str
    payload: dict[str, Any]


@dataclass
class Sample:
    case: Case
    browser_ms: float
    cpython_wall_ms: float
    cpython_cpu_ms: float
    same_move: bool
    same_result: bool
    detail: str = ""


@dataclass
class Run:
    samples: list[Sample] = field(default_factory=list)
    info: dict[str, Any] = field(default_factory=dict)


# -- loading the other scripts -----------------------------------------------------------------


# -- positions ----------------------------------------------------------------------------------


def wizard_cases(deals: int, levels: Sequence[str]) -> list[Case]:
    """bench_wizard_ai.py's latency positions, one case per position and level."""
    wizard_bench = benchlib.load_bench("bench_wizard_ai")
    namespace: dict[str, Any] = {}
    exec(wizard_bench.LATENCY.rstrip().rsplit("\n", 1)[0], namespace)  # its positions()
    game = get_game("wizard")
    cases = []
    for i, (kind, state) in enumerate(namespace["positions"](deals)):
        state_json = game.to_json(state)
        for level in levels:
            payload = {
                "game": "wizard",
                "state": state_json,
                "seat": game.to_move(state),
                "level": level,
                "bot_seed": i,
                "view_seat": 0,
            }
            cases.append(Case("wizard", level, kind, "bot_move", payload))
    return cases


def lobo_positions(games: int, difficulty: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """(phase, state JSON) of every position of ``games`` games played by the hint, as in
    bench_lobo.py's latency mode."""
    game = get_game("lobo")
    for g in range(games):
        state = game.new_game(f"L{g}", {"difficulty": difficulty})
        while game.to_move(state) is not None:
            yield state.phase, game.to_json(state)
            state = game.apply(state, 0, game.parse_move(game.hint(state, 0)["move"]))


def rummikub_cases(games: int) -> list[Case]:
    """Every turn of hard in games of hard against normal: its bot move, then (after all of
    those) the hint of the same positions; grouped by whether the seat had melded."""
    from tapete.bots import choose_move

    game = get_game("rummikub")
    turns: list[tuple[str, int, dict[str, Any]]] = []
    for g in range(games):
        levels = ["hard", "normal"] if g % 2 == 0 else ["normal", "hard"]
        state = game.new_game(f"L{g}", None, 2)
        steps = 0
        while (seat := game.to_move(state)) is not None and steps < 400:
            if levels[seat] == "hard":
                kind = "melded" if state.melded[seat] else "initial"
                turns.append((kind, seat, game.to_json(state)))
            state = game.apply(state, seat, choose_move(game, state, seat, levels[seat], steps))
            steps += 1
    bots = [
        Case(
            "rummikub",
            "hard",
            kind,
            "bot_move",
            {
                "game": "rummikub",
                "state": s,
                "seat": seat,
                "level": "hard",
                "bot_seed": i,
                "view_seat": 0,
            },
        )
        for i, (kind, seat, s) in enumerate(turns)
    ]
    hints = [
        Case("rummikub", "hint", kind, "hint", {"game": "rummikub", "state": s, "seat": seat})
        for kind, seat, s in turns
    ]
    return bots + hints


def lobo_cases(games: int) -> list[Case]:
    return [
        Case("lobo", f"hint {difficulty}", phase, "hint", {"game": "lobo", "state": s, "seat": 0})
        for difficulty in LOBO_DIFFICULTIES
        for phase, s in lobo_positions(games, difficulty)
    ]


# -- asking both runtimes ---------------------------------------------------------------------


def ask_browser(page: Any, case: Case) -> tuple[float, dict[str, Any]]:
    answer = page.evaluate(CALL, [case.op, case.payload, CALL_TIMEOUT_MS])
    return float(answer["ms"]), answer


def ask_cpython(case: Case) -> tuple[float, float, dict[str, Any]]:
    request = json.dumps({"op": case.op, **case.payload})
    wall, cpu = time.perf_counter(), time.process_time()
    answer = api.handle(request)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return 1000 * wall, 1000 * cpu, json.loads(answer)


def decision(case: Case, answer: dict[str, Any]) -> Any:
    """What the player sees decided: the move (bot_move) or the hinted move (hint)."""
    if not answer.get("ok"):
        return ("error", answer.get("error"))
    return answer["result"].get("move")


def measure(page: Any, case: Case, index: int) -> Sample:
    """One case in both runtimes, the browser first on even indices."""
    timed: dict[str, Any] = {}
    for side in ("browser", "cpython") if index % 2 == 0 else ("cpython", "browser"):
        timed[side] = ask_browser(page, case) if side == "browser" else ask_cpython(case)
    browser_ms, browser = timed["browser"]
    wall_ms, cpu_ms, cpython = timed["cpython"]
    same_move = decision(case, browser) == decision(case, cpython)
    same_result = same_move and browser.get("result") == cpython.get("result")
    detail = ""
    if not same_result:
        detail = (
            f"browser {json.dumps(browser)[:400]} / CPython {json.dumps(cpython)[:400]}; "
            f"state {json.dumps(case.payload['state'])[:2000]}"
        )
    return Sample(case, browser_ms, wall_ms, cpu_ms, same_move, same_result, detail)


def warm_up(page: Any, cases: Sequence[Case]) -> None:
    """Ask each (game, op, level) once, untimed, in both runtimes: the imports happen here."""
    seen: set[tuple[str, str, str]] = set()
    for case in cases:
        key = (case.game, case.op, case.label)
        if key not in seen:
            seen.add(key)
            ask_browser(page, case)
            ask_cpython(case)


# -- the browser --------------------------------------------------------------------------------


def open_app(
    boot: ModuleType, context: Any, url: str, snapshots: bool
) -> tuple[Any, dict[str, Any]]:
    """A tab on the app once the engine is ready (and its snapshot saved): (page, info)."""
    page = context.new_page()
    page.goto(url)
    boot.poll(page, "() => document.documentElement.dataset.engine === 'ready'")
    snapshot = None
    if snapshots:
        deadline = time.monotonic() + SNAPSHOT_WAIT_S
        while not page.evaluate("() => document.documentElement.dataset.snapshot"):
            if time.monotonic() > deadline:
                raise SystemExit(f"no snapshot saved after {SNAPSHOT_WAIT_S} s")
            page.wait_for_timeout(200)
        snapshot = page.evaluate("() => tapete.app.engine.snapshot")
    info = page.evaluate("() => tapete.app.engine.info")
    info["browser"] = page.evaluate(BROWSER_VERSION)
    info["snapshot"] = snapshot
    return page, info


@contextlib.contextmanager
def app_in_browser(boot: ModuleType, tool: ModuleType) -> Iterator[tuple[Any, dict[str, Any]]]:
    """A fresh build served on 127.0.0.1 and open in headless Chromium: (page, info)."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        dist = Path(folder) / "dist"
        build_info = tool.build(dist)
        server, url = tool.serve_in_thread(dist)
        try:
            with sync_playwright() as playwright:
                context = boot.launch(playwright, Path(folder) / "profile")
                try:
                    page, info = open_app(boot, context, url, bool(build_info["snapshot_key"]))
                    executable = boot.CHROMIUM if os.path.exists(boot.CHROMIUM) else "Playwright's"
                    yield page, {"build": build_info, "executable": executable, **info}
                finally:
                    context.close()
        finally:
            server.shutdown()
            server.server_close()


def run(cases: list[Case], boot: ModuleType, tool: ModuleType) -> Run:
    result = Run()
    with app_in_browser(boot, tool) as (page, info):
        result.info = info
        warm_up(page, cases)
        started = time.perf_counter()
        for i, case in enumerate(cases):
            result.samples.append(measure(page, case, i))
            if (i + 1) % 50 == 0 or i + 1 == len(cases):
                spent = time.perf_counter() - started
                print(
                    f"  {i + 1}/{len(cases)} requests, {spent:.0f} s", file=sys.stderr, flush=True
                )
    return result


# -- the report ---------------------------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest rank, as bench_wizard_ai.py's."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def kinds_of(samples: Sequence[Sample]) -> list[str]:
    order = ["bid", "trump", "card", "play", "choice", "initial", "melded"]
    found = {s.case.kind for s in samples}
    listed = sorted(found, key=lambda k: (order.index(k) if k in order else len(order), k))
    return listed + ["all"] if len(listed) > 1 else listed


def table_row(game: str, label: str, kind: str, rows: Sequence[Sample]) -> str:
    browser = [s.browser_ms for s in rows]
    wall = [s.cpython_wall_ms for s in rows]
    cpu = [s.cpython_cpu_ms for s in rows]
    ratio_wall = percentile(browser, 0.5) / max(percentile(wall, 0.5), 1e-9)
    ratio_cpu = percentile(browser, 0.5) / max(percentile(cpu, 0.5), 1e-9)
    same = sum(s.same_result for s in rows)
    return (
        f"| {game} | {label} | {kind} | {len(rows)} "
        f"| {percentile(browser, 0.5):.1f} / {percentile(browser, 0.95):.1f} "
        f"/ {max(browser):.1f} "
        f"| {percentile(wall, 0.5):.1f} / {percentile(wall, 0.95):.1f} "
        f"| {percentile(cpu, 0.5):.1f} / {percentile(cpu, 0.95):.1f} "
        f"| {ratio_wall:.2f}x | {ratio_cpu:.2f}x | {same}/{len(rows)} |"
    )


def table(samples: Sequence[Sample]) -> list[str]:
    lines = [
        "| game | level / op | decision | positions | browser wall p50 / p95 / max ms "
        "| CPython wall p50 / p95 ms | CPython CPU p50 / p95 ms | browser / CPython wall (p50) "
        "| browser wall / CPython CPU (p50) | same answer |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    groups: dict[tuple[str, str], list[Sample]] = {}
    for sample in samples:
        groups.setdefault((sample.case.game, sample.case.label), []).append(sample)
    for (game, label), rows in groups.items():
        for kind in kinds_of(rows):
            chosen = [s for s in rows if kind in (s.case.kind, "all")]
            lines.append(table_row(game, label, kind, chosen))
    return lines


def snapshot_note(snapshot: dict[str, Any] | None) -> str:
    if snapshot is None:
        return "no snapshot"
    if not snapshot.get("ok"):
        return f"snapshot failed ({snapshot.get('error')})"
    return f"snapshot saved before timing ({snapshot['memory'] / 1e6:.0f} MB of memory)"


def machine(info: dict[str, Any]) -> str:
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    build = info["build"]
    return (
        f"Load average {load} (1, 5, 15 min) at the end, {os.cpu_count()} cores, "
        f"{platform.machine()}; {info['browser']} (headless, {info['executable']}); Pyodide "
        f"{info.get('pyodide_version')} (build.json: {build['pyodide_version']}); engine "
        f"{info.get('engine_version')}, build {build['build']}, worker start "
        f"{info.get('start')!r}, {snapshot_note(info.get('snapshot'))}; "
        f"CPython {platform.python_version()}"
    )


def report(result: Run, command: str) -> str:
    lines = table(result.samples)
    lines += ["", machine(result.info), "", f"Command: `{command}`"]
    wrong_move = [s for s in result.samples if not s.same_move]
    wrong_rest = [s for s in result.samples if s.same_move and not s.same_result]
    lines.append("")
    if not wrong_move and not wrong_rest:
        lines.append(f"Every browser answer equals CPython's ({len(result.samples)} requests).")
    for title, wrong in (("different move", wrong_move), ("same move, other fields", wrong_rest)):
        if wrong:
            lines.append(f"**{len(wrong)} answers differ ({title})**; the first ones:")
            lines += [
                f"- {s.case.game} {s.case.label} {s.case.kind}: {s.detail}" for s in wrong[:5]
            ]
    return "\n".join(lines)


# -- command line -------------------------------------------------------------------------------


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=12, help="Wizard: deals (round 10 of each)")
    parser.add_argument("--lobo-games", type=int, default=6, help="Lobo: games per difficulty")
    parser.add_argument("--rummikub-games", type=int, default=6, help="Rummikub: games")
    parser.add_argument("--games", default="wizard,lobo,rummikub")
    parser.add_argument("--levels", default=",".join(WIZARD_LEVELS), help="Wizard bot levels")
    args = parser.parse_args()
    args.games = [g for g in args.games.split(",") if g]
    args.levels = [level for level in args.levels.split(",") if level]
    unknown = [g for g in args.games if g not in ("wizard", "lobo", "rummikub")]
    unknown += [level for level in args.levels if level not in WIZARD_LEVELS]
    if unknown:
        raise SystemExit(f"unknown games or levels: {unknown}")
    return args


def main() -> int:
    args = parse_args()
    command = (
        f"python3 bench/bench_browser.py --deals {args.deals} --lobo-games {args.lobo_games} "
        f"--rummikub-games {args.rummikub_games} --games {','.join(args.games)} "
        f"--levels {','.join(args.levels)}"
    )
    boot = benchlib.load_bench("bench_boot")
    tool = boot.load_build()
    cases = []  # Wizard's levels interleaved position by position, then Lobo's positions
    if "wizard" in args.games:
        cases += wizard_cases(args.deals, args.levels)
    if "lobo" in args.games:
        cases += lobo_cases(args.lobo_games)
    if "rummikub" in args.games:
        cases += rummikub_cases(args.rummikub_games)
    print(f"{len(cases)} requests to time in both runtimes", file=sys.stderr, flush=True)
    result = run(cases, boot, tool)
    print(report(result, command))
    return 0 if all(s.same_result for s in result.samples) else 1


if __name__ == "__main__":
    started = time.perf_counter()
    status = main()
    print(f"(took {time.perf_counter() - started:.0f} s)")
    sys.exit(status)
