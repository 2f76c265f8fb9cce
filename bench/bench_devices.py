"""Several devices: the size of the pairing codes, the time from opening a join link to a
connected seat, and the round trip of a move between a guest and the host, in headless
Chromium on 127.0.0.1 (one browser, one context per device, ``iceServers: []``).

    python3 bench/bench_devices.py [--pairings 10] [--rounds 3] [--pings 200]
    python3 build.py bench devices

- Codes: characters of the offer (in the join link) and of the answer, their bytes, and the
  QR code versions the pages draw (error correction M, the code in alphanumeric mode).
- Join: for ``--pairings`` fresh pairings of one seat, from the guest page's navigation to the
  join link until its answer is shown, and until the data channel is open and the host's
  welcome arrived (the answer is pasted by the script at once: a person adds the time to show
  it to the host).
- Moves: a 3-player Wizard table (two guests, a random bot on the host) played by clicking for
  ``--rounds`` rounds; each guest move is timed from sending it to the host's new view
  (the host's engine applies it in Pyodide). Pings: ``--pings`` data-channel round trips.

Prints a markdown table and the command.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import benchlib

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "e2e"))

from devices_helpers import (  # noqa: E402  (the e2e helpers pair devices through the UI)
    answer_code,
    drive,
    pair_table,
)
from ui_helpers import CHROMIUM_ARGS, FAST_BOTS, wait_until  # noqa: E402

TIME_APPLY = """() => {
  const guest = window.tapete.guest;
  window.benchMoves = [];
  const apply = guest.apply.bind(guest);
  guest.apply = async (...args) => {
    const start = performance.now();
    const out = await apply(...args);
    window.benchMoves.push(performance.now() - start);
    return out;
  };
}"""

QR_VERSION = """async (text) => {
  const { drawQr } = await import(new URL("net/qr.js", document.baseURI).href);
  return drawQr(document.createElement("canvas"), text).version;
}"""

PINGS = """async (count) => {
  const link = window.tapete.guest.link;
  const times = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await new Promise((resolve) => {
      const on = (event) => {
        if (String(event.detail).includes('"pong"')) {
          link.removeEventListener("message", on);
          resolve();
        }
      };
      link.addEventListener("message", on);
      link.send({ type: "ping" });
    });
    times.push(performance.now() - start);
    await new Promise((resolve) => setTimeout(resolve, 60));  // under the rate limit
  }
  return times;
}"""


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairings", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pings", type=int, default=200)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    build = benchlib.load_build()
    with tempfile.TemporaryDirectory() as temp:
        dist = Path(temp) / "dist"
        build.build(dist)
        server, url = build.serve_in_thread(dist)
        try:
            with sync_playwright() as playwright:
                executable = "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
                browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
                contexts: list[Any] = []

                def new_context(**options: Any) -> Any:
                    options.setdefault("viewport", {"width": 1280, "height": 800})
                    context = browser.new_context(service_workers="block", **options)
                    context.add_init_script(FAST_BOTS)
                    contexts.append(context)
                    return context

                seats = ["remote", "remote", "bot:random"]
                host, guests = pair_table(new_context, url, "wizard", seats, {})
                link = host.evaluate("window.tapete.host.remote.get(0).joinUrl")
                offer = link.split("/join/")[1]
                answer = wait_until(guests[0], "window.tapete.guest.answerCode")
                versions = [host.evaluate(QR_VERSION, text) for text in (link, answer)]
                for guest in guests:
                    guest.evaluate(TIME_APPLY)
                target = args.rounds + 1

                def done() -> bool:
                    return all(
                        g.query_selector(f"[data-testid=table][data-round='{target}']") is not None
                        for g in guests
                    )

                drive(guests, done, limit=2000, timeout=600)
                moves = [ms for g in guests for ms in g.evaluate("window.benchMoves")]
                pings = guests[0].evaluate(PINGS, args.pings)
                # fresh pairings of seat 0: a new link each time, the same page opens it
                answered: list[float] = []
                connected: list[float] = []
                for _ in range(args.pairings):
                    host.click("[data-testid=devices]")
                    old = host.evaluate("window.tapete.host.remote.get(0).code")
                    host.evaluate("window.tapete.host.pairSeat(0)")
                    link = wait_until(
                        host,
                        f"(() => {{ const s = window.tapete.host.remote.get(0);"
                        f" return s.code !== {old!r} && s.joinUrl; }})()",
                    )
                    guest = guests[0]
                    start = time.perf_counter()
                    guest.goto(link)
                    code = answer_code(guest)
                    answered.append(time.perf_counter() - start)
                    host.fill("[data-testid=answer-0]", code)
                    host.click("[data-testid=connect-0]")
                    guest.wait_for_selector("[data-testid=table]")
                    connected.append(time.perf_counter() - start)
                    host.click("[data-testid=close-devices]")
                browser.close()
        finally:
            server.shutdown()
            server.server_close()
    print("\n| what | value |\n| --- | --- |")
    print(
        f"| offer code | {len(offer)} characters ({len(offer) * 5 // 8} bytes); the join link "
        f"{len(link)} characters: QR version {versions[0]} (M) |"
    )
    print(
        f"| answer code | {len(answer)} characters ({len(answer) * 5 // 8} bytes): "
        f"QR version {versions[1]} (M) |"
    )
    for label, values in (("answer shown", answered), ("connected", connected)):
        print(
            f"| join link -> {label} | median {statistics.median(values) * 1000:.0f} ms, "
            f"max {max(values) * 1000:.0f} ms ({len(values)} pairings) |"
        )
    print(
        f"| guest move -> host's view | p50 {percentile(moves, 0.5):.1f} ms, "
        f"p95 {percentile(moves, 0.95):.1f} ms ({len(moves)} moves) |"
    )
    print(
        f"| data channel ping | p50 {percentile(pings, 0.5):.2f} ms, "
        f"p95 {percentile(pings, 0.95):.2f} ms ({len(pings)} pings) |"
    )
    print(
        f"\ncommand: python3 bench/bench_devices.py --pairings {args.pairings} "
        f"--rounds {args.rounds} --pings {args.pings}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
