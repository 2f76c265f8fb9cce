"""Start-up time of the app in headless Chromium, and the bytes of a first visit.

    python3 bench/bench_boot.py [--repeats 5] [--no-build]
    python3 build.py bench boot

Serves dist/ on 127.0.0.1 and measures, ``--repeats`` times each, from navigation start to the
moment the page sets ``document.documentElement.dataset.engine = "ready"`` (the worker's
``ready`` message: Pyodide booted and the wheel imported):

- cold: a fresh browser profile, nothing cached;
- warm: once the service worker has precached the build, a new tab, then a new tab after a
  browser restart (same profile): files come from its cache (and Chromium's code cache).

Bytes: everything the server sent during a first visit in a persistent profile, until the
service worker has precached the build (raw bytes: this server does not compress; GitHub
Pages does). Files fetched more than once are listed. Prints a markdown table and the command.
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from http.server import ThreadingHTTPServer
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TIMEOUT_MS = 90_000

# Records when <html data-engine="ready"> appears, in ms since navigation start.
READY_PROBE = """
new MutationObserver(() => {
  const root = document.documentElement;
  if (root && root.dataset.engine === "ready" && !window.__tapeteReadyAt) {
    window.__tapeteReadyAt = performance.now();
  }
}).observe(document, {attributes: true, subtree: true, attributeFilter: ["data-engine"]});
"""

# True once the service worker controls the page and its cache holds every precached file.
PRECACHED = """
async (expected) => {
  if (!navigator.serviceWorker || !navigator.serviceWorker.controller) return false;
  const names = (await caches.keys()).filter((name) => name.startsWith("tapete-"));
  for (const name of names) {
    const keys = await (await caches.open(name)).keys();
    if (keys.length >= expected) return true;
  }
  return false;
}
"""


def load_build() -> ModuleType:
    spec = importlib.util.spec_from_file_location("tapete_build", ROOT / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


class Counter:
    """Bytes and requests per path, as the server sent them."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.sent: collections.Counter[str] = collections.Counter()
        self.requests: collections.Counter[str] = collections.Counter()

    def add(self, path: str, size: int) -> None:
        with self.lock:
            self.sent[path] += size
            self.requests[path] += 1

    def reset(self) -> None:
        with self.lock:
            self.sent.clear()
            self.requests.clear()


def counting_server(
    tool: ModuleType, dist: Path, counter: Counter
) -> tuple[ThreadingHTTPServer, str]:
    """build.py's static server, counting the body bytes of every response."""

    class Handler(tool.DistHandler):  # type: ignore[name-defined,misc]
        quiet = True

        def copyfile(self, source: Any, outputfile: Any) -> None:
            start = source.tell()
            super().copyfile(source, outputfile)
            counter.add(self.path.split("?")[0], source.tell() - start)

    def handler(*args: Any, **kwargs: Any) -> Any:
        return Handler(*args, directory=str(dist), **kwargs)

    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def launch(playwright: Any, profile: Path) -> Any:
    options: dict[str, Any] = {"headless": True, "args": CHROMIUM_ARGS}
    if os.path.exists(CHROMIUM):
        options["executable_path"] = CHROMIUM
    return playwright.chromium.launch_persistent_context(str(profile), **options)


def poll(page: Any, expression: str, arg: Any = None) -> Any:
    """Evaluate ``expression`` every 20 ms until it is truthy; returns its value.

    Polled from Python because the page's CSP forbids the eval behind wait_for_function.
    """
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while not (value := page.evaluate(expression, arg)):
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out after {TIMEOUT_MS} ms waiting for {expression.strip()}")
        page.wait_for_timeout(20)
    return value


def visit(context: Any, url: str) -> float:
    """Open ``url`` in a new tab; ms from navigation start to the engine being ready."""
    page = context.new_page()
    page.add_init_script(READY_PROBE)
    page.goto(url)
    ready_ms = float(poll(page, "() => window.__tapeteReadyAt"))
    page.close()
    return ready_ms


def wait_precached(context: Any, url: str, files: int) -> None:
    page = context.new_page()
    page.goto(url)
    poll(page, PRECACHED, files)
    page.close()


def one_round(playwright: Any, url: str, files: int, counter: Counter) -> dict[str, Any]:
    """A fresh profile: the cold visit, precaching, then a warm visit after a restart."""
    with tempfile.TemporaryDirectory() as profile:
        counter.reset()
        context = launch(playwright, Path(profile))
        cold = visit(context, url)
        wait_precached(context, url, files)
        first_visit = (dict(counter.sent), dict(counter.requests))
        warm_tab = visit(context, url)
        context.close()
        context = launch(playwright, Path(profile))
        warm_restart = visit(context, url)
        context.close()
    return {
        "cold": cold,
        "warm_tab": warm_tab,
        "warm_restart": warm_restart,
        "sent": first_visit[0],
        "requests": first_visit[1],
    }


ROWS = {
    "cold": "cold (fresh profile)",
    "warm_tab": "warm (service worker cache, new tab)",
    "warm_restart": "warm (service worker cache, after a browser restart)",
}


def report(rounds: list[dict[str, Any]], command: str) -> str:
    lines = [
        f"| visit | median ms | min | max | runs ({len(rounds)}) |",
        "|---|---:|---:|---:|---|",
    ]
    for key, label in ROWS.items():
        runs = [r[key] for r in rounds]
        lines.append(
            f"| {label} | {statistics.median(runs):.0f} | {min(runs):.0f} | "
            f"{max(runs):.0f} | {', '.join(f'{x:.0f}' for x in runs)} |"
        )
    sent, requests = rounds[0]["sent"], rounds[0]["requests"]
    repeated = {path: count for path, count in requests.items() if count > 1}
    lines += [
        "",
        f"First visit, until precached: {sum(sent.values()) / 1e6:.2f} MB raw in "
        f"{sum(requests.values())} requests; fetched more than once: "
        f"{json.dumps(repeated) if repeated else 'none'}",
        "",
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at the end; "
        f"command: `{command}`",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--no-build", action="store_true", help="measure dist/ as it is")
    args = parser.parse_args()
    tool = load_build()
    if not args.no_build:
        tool.build()
    build_info = json.loads((tool.DIST / "build.json").read_text(encoding="utf-8"))
    files = len(tool.precache_list(tool.DIST))
    from playwright.sync_api import sync_playwright

    counter = Counter()
    server, url = counting_server(tool, tool.DIST, counter)
    try:
        with sync_playwright() as playwright:
            rounds = [one_round(playwright, url, files, counter) for _ in range(args.repeats)]
    finally:
        server.shutdown()
        server.server_close()
    command = f"python3 bench/bench_boot.py --repeats {args.repeats}"
    print(
        f"build {build_info['build']}, Pyodide {build_info['pyodide_version']}, "
        f"Chromium at {CHROMIUM if shutil.which(CHROMIUM) else 'Playwright default'}\n"
    )
    print(report(rounds, command))


if __name__ == "__main__":
    started = time.perf_counter()
    main()
    print(f"(took {time.perf_counter() - started:.0f} s)")
