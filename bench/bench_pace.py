"""How long a player waits for the bots at a Wizard table, in headless Chromium, as a person
plays it: seconds per trick, per round's bidding and per round's end, and the bots' own
thinking time apart from the table's pauses.

    python3 bench/bench_pace.py [--rounds 5] [--seeds PACE1,PACE2] [--levels normal,hard] \
        [--paces normal,fast] [--baseline LABEL=DIST ...]

The app is built into a temporary folder (or ``--baseline`` measures a dist/ built elsewhere,
say from an earlier commit, in the same run: variants are interleaved seed by seed so that the
machine's load weighs on all alike). A 4-player game opens from a deal link with the human at
seat 0 and three bots of one level; the human plays at once the first legal bid or card (so the
numbers are the table's, not a person's thinking). ``--paces`` sets the table's pace in the
page's settings before it loads (``normal`` is the default a new player gets; ``fast`` the
quick setting).

Measured in the page (``performance.now()``): every ``bot_move`` request's time through the
page's own engine client (the bot's thinking), and the moments the table becomes the human's
turn (``data-my-turn``), the human's clicks, and the round's result appearing. From them:

- trick: a round's play phase (from its first card's turn to the round's result on screen)
  over its number of tricks: four cards and the pause on the finished trick, whatever the seat
  order, less the human's own decisions (turn to click);
- bids: from the round's start (the table shown, or "Continue" after the last round) to its
  play phase, less the human's own bid (three bot bids, and the trump choice when the dealer
  has one);
- end: from the human's last card of a round to its result on screen (the remaining bot cards
  and the last trick's pause).

Prints a markdown table (median and max per metric, the bots' thinking median), the machine
and the command. A timing script, not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

import benchlib

sys.path.insert(0, str(benchlib.ROOT / "e2e"))

from ui_helpers import CHROMIUM_ARGS  # noqa: E402  (one list for the tests and the benches)

CHROMIUM = "/usr/bin/chromium"
BOOT_TIMEOUT_MS = 120_000
ACTIONABLE = (
    "[data-testid=round-continue], [data-testid=table][data-my-turn=true], [data-testid=game-over]"
)

# Timestamps kept by the page: the human's turns, clicks, round results, bot requests.
PROBE = """
window.__pace = {turns: [], results: [], bots: [], play: {}};
new MutationObserver(() => {
  const table = document.querySelector('[data-testid=table]');
  if (table && table.dataset.phase === 'play' && !(table.dataset.round in window.__pace.play)) {
    window.__pace.play[table.dataset.round] = performance.now();
  }
  const mine = table && table.dataset.myTurn === 'true';
  const pace = window.__pace;
  if (mine && !pace.mine) {
    const {phase, round} = table.dataset;
    pace.turns.push({at: performance.now(), phase, round: Number(round)});
  }
  pace.mine = mine;
  const result = document.querySelector('[data-testid=round-summary]');
  if (result && !pace.result) pace.results.push(performance.now());
  pace.result = Boolean(result);
}).observe(document, {attributes: true, childList: true, subtree: true});
"""

WRAP_ENGINE = """
() => {
  const engine = window.tapete.app.engine;
  if (engine.__paced) return;
  engine.__paced = true;
  const call = engine.call.bind(engine);
  engine.call = async (op, payload, options) => {
    const start = performance.now();
    try { return await call(op, payload, options); }
    finally { if (op === 'bot_move') window.__pace.bots.push(performance.now() - start); }
  };
}
"""


def play_game(page: Any, url: str, seed: str, level: str, rounds: int) -> dict[str, list[float]]:
    """Play rounds 1..``rounds`` as the human; return the measured intervals in seconds."""
    page.goto(f"{url}#/wizard?seed={seed}&players=4&bots=1:{level},2:{level},3:{level}")
    page.wait_for_selector("html[data-engine=ready]", state="attached", timeout=BOOT_TIMEOUT_MS)
    page.wait_for_selector("[data-testid=table]", timeout=BOOT_TIMEOUT_MS)
    page.evaluate(WRAP_ENGINE)
    clicks: list[tuple[float, str, int]] = []  # (time, phase, round)
    starts: dict[int, float] = {1: page.evaluate("performance.now()")}
    while True:
        element = page.wait_for_selector(
            ACTIONABLE,
            timeout=600_000,
        )
        testid = element.get_attribute("data-testid")
        if testid == "game-over":
            break
        if testid == "round-continue":
            done = len(page.evaluate("window.__pace.results"))
            if done >= rounds:
                break
            starts[done + 1] = page.evaluate("performance.now()")
            element.click()
            page.wait_for_selector("[data-testid=round-continue]", state="detached")
            continue
        phase = element.get_attribute("data-phase") or ""
        round_no = int(element.get_attribute("data-round") or 0)
        at = page.evaluate("performance.now()")
        page.click(
            {"bid": "[data-testid=bid].legal", "trump": "[data-testid=trump-choice].legal"}.get(
                phase, "[data-testid=hand-card].legal"
            )
        )
        clicks.append((at, phase, round_no))
        page.wait_for_selector("[data-testid=table][data-my-turn=false]", state="attached")
    pace = page.evaluate(
        "(({turns, results, bots, play}) => ({turns, results, bots, play}))(window.__pace)"
    )
    return intervals(pace, clicks, starts, rounds)


def intervals(
    pace: dict[str, Any],
    clicks: list[tuple[float, str, int]],
    starts: dict[int, float],
    rounds: int,
) -> dict[str, list[float]]:
    """Seconds per trick (a round's play phase over its tricks), per round's bidding, per
    round's end, and per bot decision; the human's own decisions (turn to click) left out."""
    turns = pace["turns"]
    out: dict[str, list[float]] = {"trick": [], "bids": [], "end": []}
    out["bot"] = [ms / 1000 for ms in pace["bots"]]
    for round_no in range(1, rounds + 1):
        if round_no > len(pace["results"]) or str(round_no) not in pace["play"]:
            continue
        play_start = pace["play"][str(round_no)]
        result = pace["results"][round_no - 1]
        mine = [turn for turn in turns if turn["round"] == round_no]
        own = [(at, phase) for at, phase, r in clicks if r == round_no]
        decided = [
            (click - turn["at"], phase) for turn, (click, phase) in zip(mine, own, strict=False)
        ]
        bidding = sum(time for time, phase in decided if phase != "play")
        playing = sum(time for time, phase in decided if phase == "play")
        out["bids"].append((play_start - starts[round_no] - bidding) / 1000)
        out["trick"].append((result - play_start - playing) / 1000 / round_no)
        last_card = max(at for at, phase in own if phase == "play")
        out["end"].append((result - last_card) / 1000)
    return out


def summarise(values: list[float]) -> str:
    if not values:
        return "–"
    return f"{statistics.median(values):.2f} / {max(values):.2f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seeds", default="PACE1,PACE2")
    parser.add_argument("--levels", default="normal,hard")
    parser.add_argument("--paces", default="normal,fast")
    parser.add_argument(
        "--baseline",
        action="append",
        default=[],
        help="LABEL=DIST: a dist/ built elsewhere, measured in the same run",
    )
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    build = benchlib.load_build()
    variants: list[tuple[str, Path]] = []
    for item in args.baseline:
        label, _, folder = item.partition("=")
        variants.append((label, Path(folder)))
    tmp = tempfile.TemporaryDirectory()
    here = Path(tmp.name) / "dist"
    build.build(here)
    variants.append(("this", here))
    servers = []
    urls = {}
    for label, folder in variants:
        server, url = build.serve_in_thread(folder, port=0)
        servers.append(server)
        urls[label] = url
    results: dict[tuple[str, str, str], dict[str, list[float]]] = {}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM if Path(CHROMIUM).exists() else None, args=CHROMIUM_ARGS
            )
            for seed in args.seeds.split(","):
                for level in args.levels.split(","):
                    for pace in args.paces.split(","):
                        for label, _ in variants:
                            context = browser.new_context(
                                viewport={"width": 1280, "height": 800},
                                service_workers="block",
                                locale="en-US",
                            )
                            settings = (
                                '{"fastBots": true, "pace": "fast"}'
                                if pace == "fast"
                                else '{"fastBots": false, "pace": "normal"}'
                            )
                            context.add_init_script(
                                f"localStorage.setItem('tapete.settings', '{settings}');"
                            )
                            context.add_init_script(PROBE)
                            page = context.new_page()
                            got = play_game(page, urls[label], seed, level, args.rounds)
                            context.close()
                            into = results.setdefault((label, level, pace), {})
                            for key, values in got.items():
                                into.setdefault(key, []).extend(values)
                            print(
                                f"[pace] {label} {level} {pace} {seed}: "
                                f"trick {summarise(got['trick'])}",
                                file=sys.stderr,
                            )
            browser.close()
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()
        tmp.cleanup()
    print(
        "| build | bots | pace | trick (s, median / max) | bids (s) | round end (s) "
        "| bot thinking (s) |"
    )
    print("|---|---|---|---|---|---|---|")
    for (label, level, pace), got in results.items():
        print(
            f"| {label} | {level} | {pace} | {summarise(got['trick'])} | {summarise(got['bids'])} "
            f"| {summarise(got['end'])} | {summarise(got['bot'])} |"
        )
    print()
    print(
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, "
        f"load average {os.getloadavg()[0]:.1f} at the end"
    )
    print(
        f"Command: python3 bench/bench_pace.py {' '.join(sys.argv[1:] if argv is None else argv)}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
