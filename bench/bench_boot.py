"""Start-up time of the app in headless Chromium, and the bytes of a first visit, for the plain
start and the faster ones side by side (the machine is shared and noisy: compare ratios).

    python3 bench/bench_boot.py [--repeats 5] [--variants bare,snapshot] [--baseline L=DIST]
    python3 build.py bench boot

Configurations (each a fresh build of the same sources, see ``build.Start``):

- plain:    Pyodide's own standard library (source), the wheel as built, no snapshot;
- pyc-stdlib: the standard library precompiled to .pyc (``stdLibURL``), the wheel as built;
- pyc:      the standard library and the wheel precompiled, no snapshot;
- snapshot-whole: both precompiled, and a memory snapshot made by the first visit (when the
  worker is idle) and restored by later ones;
- snapshot: the shipped app: as snapshot-whole, with the standard library trimmed to what the
  app imports (``build.ensure_stdlib_trimmed``);
- bare:     not the app: Pyodide's own start, the yardstick of issue 17. A page whose module
  worker loads the same pinned Pyodide (the same runtime files and the same precompiled
  standard library as the app, ``stdLibURL``) and runs ``import sys``; no service worker, so a
  later visit revalidates its files in the HTTP cache (the server answers 304). It marks
  ``runtime`` (pyodide.mjs imported), ``asm``, ``wasm``, ``instantiated`` and ``compiled``
  (Emscripten's glue imported, asking for the WebAssembly, instantiating it, done: the app's
  worker names its steps so), ``python`` (loadPyodide done) and ``ready``.

For each, ``--repeats`` rounds (interleaved across configurations) measure, from navigation
start to ``<html data-engine="ready">`` (the worker's ``ready``: the engine imported):

- cold: a fresh browser profile, nothing cached (for "snapshot" this start also prepares the
  snapshot: ``_makeSnapshot``);
- warm: once the service worker has precached the build (and the snapshot is saved), a new tab,
  then a new tab after a browser restart (same profile).

A variant may carry a query for the page, ``snapshot?x``: the same build, opened as ``/?x``.

``--trace OUT.json`` instead records a Chrome trace of one later visit of the shipped app (a
new tab once the first has precached the build and saved the snapshot) and prints where the
engine worker's thread and the page's main thread spent their time, by trace event, and the
page's longer tasks in order; ``--trace-first OUT.json`` does so for a first visit.

``--link MBPS/RTT_MS`` (say ``50/30``) serves every configuration through an emulated network
(bench/link.py): one bandwidth shared by all responses, a round trip before each, text gzipped
and ``Cache-Control: max-age=600`` as GitHub Pages sends. Without it the server is on 127.0.0.1,
where a first visit costs no transfer time and measures only what the cores do. ``--h2`` with it
serves over HTTP/2 and TLS, every request multiplexed on one connection, as GitHub Pages does
(bench/link_h2.py; HTTP/1.1 queues the page's many requests on six connections).

``--baseline LABEL=DIST`` (repeatable) measures a dist/ built elsewhere in the same rounds (say,
by build.py of an earlier commit), to compare versions of the app side by side.

Bytes: everything the server sent during a first visit in a persistent profile, until the
service worker has precached the build: raw (this server does not compress), and as a static
host that compresses would send it (``gzipped``: every response gzipped at level 6 except the
types that are compressed already, .zip, .whl and images; GitHub Pages compresses text types;
whether it compresses .wasm does not change the difference, which is the same file on both
sides). Prints a markdown table and the command.
"""

from __future__ import annotations

import argparse
import collections
import gzip
import http.server
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse
from http.server import ThreadingHTTPServer
from pathlib import Path
from types import ModuleType
from typing import Any

import benchlib
from link import Link

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "e2e"))

from quiet_chromium import quiet_args  # noqa: E402
from ui_helpers import CHROMIUM_ARGS  # noqa: E402  (one list for the tests and the benches)

CHROMIUM = "/usr/bin/chromium"
TIMEOUT_MS = 90_000
VISITS = ("cold", "warm_tab", "warm_restart")
BARE = "bare"
VARIANTS: dict[str, dict[str, bool]] = {
    "plain": {"precompiled_stdlib": False, "precompiled_wheel": False, "snapshots": False},
    "pyc-stdlib": {"trimmed_stdlib": False, "precompiled_wheel": False, "snapshots": False},
    "pyc": {"trimmed_stdlib": False, "snapshots": False},
    "snapshot-whole": {"trimmed_stdlib": False},
    "snapshot": {},
    BARE: {},
}
# Responses a compressing host sends as they are (compressed formats already).
UNCOMPRESSED_TYPES = (".zip", ".whl", ".png", ".jpg", ".ico", ".woff2")

# The bare page: Pyodide's own start in a module worker, reporting like the app's worker.
BARE_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>bare Pyodide</title>
<script type="module">
const worker = new Worker("worker.js", { type: "module" });
worker.onmessage = (event) => {
  window.tapete = { app: { engine: { info: event.data } } };
  document.documentElement.dataset.engine = "ready";
};
</script></head><body>bare Pyodide</body></html>
"""
BARE_WORKER = """const timings = { origin: Math.round(performance.timeOrigin) };
const mark = (name) => { timings[name] = Math.round(performance.now()); };
const { loadPyodide } = await import("./pyodide/pyodide.mjs");
mark("runtime");
const here = (path) => new URL(path, self.location.href).href;
// Marks as the app's worker names them: when Emscripten's glue asks for the WebAssembly
// ("wasm"), has it instantiated, and the module is ready ("compiled"); the glue imported
// where loadPyodide would import it, so the start keeps Pyodide's own order.
const createPyodideModule = (settings) => {
  const instantiate = settings.instantiateWasm;
  if (instantiate) {
    settings.instantiateWasm = (imports, done) => {
      mark("wasm");
      return instantiate(imports, (instance, module) => {
        mark("instantiated");
        done(instance, module);
      });
    };
  }
  return import("./pyodide/pyodide.asm.mjs").then((module) => {
    mark("asm");
    return module.default(settings);
  }).then((module) => { mark("compiled"); return module; });
};
const pyodide = await loadPyodide({
  indexURL: here("pyodide/"), stdLibURL: here("%s"), createPyodideModule,
});
mark("python");
pyodide.runPython("import sys");
mark("ready");
// What the worker fetched, and when (ms after it started), as the app's worker reports it.
const fetches = Object.fromEntries(performance.getEntriesByType("resource").map((entry) => [
  entry.name.split("/").pop(), [Math.round(entry.startTime), Math.round(entry.responseEnd)],
]));
self.postMessage({ op: "ready", start: "bare", timings, fetches });
"""

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


load_build = benchlib.load_build


def build_bare(tool: ModuleType, dist: Path) -> dict[str, Any]:
    """The bare page in ``dist``: Pyodide's runtime files and the precompiled standard library
    exactly as build.py ships them, a page and a worker."""
    runtime = tool.ensure_pyodide()
    stdlib = tool.copy_pyodide(runtime, dist, tool.ensure_stdlib_pyc(runtime))
    (dist / "index.html").write_text(BARE_PAGE, encoding="utf-8")
    (dist / "worker.js").write_text(BARE_WORKER % stdlib, encoding="utf-8")
    return {"build": "bare", "snapshot_key": None, "stdlib": stdlib}


def sent_gzipped(dist: Path, sent: dict[str, int]) -> int:
    """What a host that compresses would have sent for the same responses (``sent``: bytes per
    URL path; a path sent twice counts twice; a 304 sent nothing)."""
    total = 0
    for path, size in sent.items():
        name = urllib.parse.unquote(path).lstrip("/") or "index.html"
        file = dist / name
        if name.endswith("/"):
            file = file / "index.html"
        if size and file.is_file() and not name.endswith(UNCOMPRESSED_TYPES):
            data = file.read_bytes()
            size = round(size * len(gzip.compress(data, 6)) / len(data))
        total += size
    return total


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


class QuietServer(ThreadingHTTPServer):
    """A browser closed mid-download (``--cold-only`` closes it while the service worker
    precaches) is not an error worth a traceback."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def counting_server(
    tool: ModuleType, dist: Path, counter: Counter, link: Link | None = None
) -> tuple[ThreadingHTTPServer, str]:
    """build.py's static server, counting the body bytes of every response (uncompressed);
    with a ``link``, answering through it as a static host would (bench/link.py)."""

    class Handler(tool.DistHandler):  # type: ignore[name-defined,misc]
        quiet = True
        answered = 0  # requests answered on this connection

        def copyfile(self, source: Any, outputfile: Any) -> None:
            start = source.tell()
            super().copyfile(source, outputfile)
            counter.add(self.path.split("?")[0], source.tell() - start)

        def do_GET(self) -> None:
            file = Path(self.translate_path(self.path))
            if file.is_dir() and self.path.split("?")[0].endswith("/"):
                file = file / "index.html"
            if link is None or not file.is_file():
                super().do_GET()
                return
            link.wait_round_trips(1 if self.answered else 2)
            self.answered += 1
            reply = link.answer(
                file,
                self.guess_type(str(file)),
                self.headers.get("If-Modified-Since"),
                self.headers.get("Accept-Encoding", ""),
            )
            self.send_response(reply.status)
            for name, value in reply.headers:
                self.send_header(name, value)
            http.server.BaseHTTPRequestHandler.end_headers(self)
            link.send(self.wfile, reply.body)
            counter.add(self.path.split("?")[0], file.stat().st_size if reply.body else 0)

    def handler(*args: Any, **kwargs: Any) -> Any:
        return Handler(*args, directory=str(dist), **kwargs)

    server = QuietServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


class Site:
    """One configuration: its build, server, byte counter and results."""

    def __init__(
        self,
        tool: ModuleType,
        name: str,
        dist: Path,
        info: dict[str, Any],
        link: Link | None = None,
        h2: bool = False,
    ) -> None:
        self.name = name
        self.dist = dist
        self.info = info
        self.bare = info.get("build") == "bare"
        self.files = 0 if self.bare else len(tool.precached(self.dist))
        self.counter = Counter()
        self.server: ThreadingHTTPServer | None = None
        self.h2: Any = None
        if h2 and link is not None:
            from link_h2 import H2Server  # the h2 package: bench only

            self.h2 = H2Server(dist, link, tool.MIME_TYPES, self.counter.add)
            self.url = self.h2.url
        else:
            self.server, self.url = counting_server(tool, self.dist, self.counter, link)
        self.rounds: list[dict[str, Any]] = []

    def close(self) -> None:
        if self.h2 is not None:
            self.h2.close()
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()


# The browser's arguments: the tests' own, then (``quiet``) with its omnibox popup off too.
BASE_ARGS = list(CHROMIUM_ARGS)  # with --h2, the self-signed certificate accepted too
BROWSER_ARGS = list(BASE_ARGS)


def browser_options(args: list[str]) -> dict[str, Any]:
    options: dict[str, Any] = {"headless": True, "args": args}
    if os.path.exists(CHROMIUM):
        options["executable_path"] = CHROMIUM
    return options


def quiet(playwright: Any) -> str:
    """Turn the browser's omnibox popup off for every later launch; says what was done."""
    global BROWSER_ARGS
    BROWSER_ARGS, said = quiet_args(
        list(BASE_ARGS),
        lambda extra: playwright.chromium.launch(**browser_options([*BASE_ARGS, *extra])),
    )
    return said


def launch(playwright: Any, profile: Path) -> Any:
    return playwright.chromium.launch_persistent_context(
        str(profile), **browser_options(BROWSER_ARGS)
    )


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


def open_ready(context: Any, url: str) -> tuple[Any, dict[str, Any]]:
    """A new tab on ``url``, once the engine is ready: (page, {ms, start, timings})."""
    page = context.new_page()
    page.add_init_script(READY_PROBE)
    page.goto(url)
    ready_ms = float(poll(page, "() => window.__tapeteReadyAt"))
    info = page.evaluate("() => window.tapete.app.engine.info")
    timings = dict(info.get("timings") or {})
    if "origin" in timings:  # when the worker started, in ms after navigation start
        timings["origin"] = round(timings["origin"] - page.evaluate("performance.timeOrigin"))
    fetches = info.get("fetches") or {}
    return page, {
        "ms": ready_ms,
        "start": info.get("start"),
        "timings": timings,
        "fetches": fetches,
    }


def visit(context: Any, url: str) -> dict[str, Any]:
    page, result = open_ready(context, url)
    page.close()
    return result


def one_round(playwright: Any, site: Site, cold_only: bool = False) -> dict[str, Any]:
    """A fresh profile: the cold visit (kept open until precached and, with snapshots, until the
    snapshot is saved), then a new tab, then a new tab after a restart. ``cold_only``: the first
    visit alone (the later ones repeat its figures)."""
    with tempfile.TemporaryDirectory() as profile:
        site.counter.reset()
        context = launch(playwright, Path(profile))
        page, cold = open_ready(context, site.url)
        warm_tab = warm_restart = cold
        snapshot = None
        if not cold_only:
            if not site.bare:
                poll(page, PRECACHED, site.files)
            if site.info.get("snapshot_key"):
                poll(page, "() => document.documentElement.dataset.snapshot")
                snapshot = page.evaluate("() => window.tapete.app.engine.snapshot")
            page.close()
        sent, requests = dict(site.counter.sent), dict(site.counter.requests)
        if not cold_only:
            warm_tab = visit(context, site.url)
            context.close()
            context = launch(playwright, Path(profile))
            warm_restart = visit(context, site.url)
        context.close()
    return {
        "cold": cold,
        "warm_tab": warm_tab,
        "warm_restart": warm_restart,
        "snapshot": snapshot,
        "sent": sent,
        "gzipped": sent_gzipped(site.dist, sent),
        "requests": requests,
    }


def median(site: Site, key: str) -> float:
    return float(statistics.median(r[key]["ms"] for r in site.rounds))


def runs(site: Site, key: str) -> str:
    return ", ".join(f"{r[key]['ms']:.0f}" for r in site.rounds)


# The worker's marks, in the order a start passes them (ms after the worker started).
MARKS = (
    "runtime",
    "asm",
    "build",
    "found",
    "wasm out",
    "wasm",
    "wasm in",
    "wheel",
    "instantiated",
    "fsinit",
    "installed",
    "compiled",
    "read",
    "verified",
    "unpacked",
    "restored",
    "python",
    "ready",
)


def mark_of(visit: dict[str, Any], mark: str) -> float | None:
    """A worker mark of one visit; ``wasm in``: when the WebAssembly's last byte arrived (its
    fetch's end, which the bare page reports too); ``wasm out``: when it was asked for (its fetch's
    start; ``wasm`` is when Emscripten asks to instantiate it)."""
    if mark in ("wasm out", "wasm in"):
        fetched = visit["fetches"].get("pyodide.asm.wasm")
        return fetched[mark == "wasm in"] if fetched else None
    value = visit["timings"].get(mark)
    return float(value) if value is not None else None


def phases(sites: list[Site]) -> list[str]:
    """Where the time goes: the median of each worker mark, per configuration and visit, with
    the worker's own start (``origin``, after navigation) first."""
    lines = [
        "Worker marks, medians over the rounds (ms after the worker started; `origin`: the "
        "worker's start after navigation):",
        "",
        f"| configuration, visit | origin | {' | '.join(MARKS)} |",
        f"|---|---:|{'---:|' * len(MARKS)}",
    ]
    for site in sites:
        for key in VISITS:
            cells = []
            for mark in ("origin", *MARKS):
                found = (mark_of(r[key], mark) for r in site.rounds)
                values = [value for value in found if value is not None]
                cells.append(f"{statistics.median(values):.0f}" if values else "")
            lines.append(f"| {site.name}, {key} | {' | '.join(cells)} |")
    return lines


def report(sites: list[Site], command: str) -> str:
    base = sites[0]
    lines = [
        f"| configuration | cold (first visit) | warm, new tab | warm, after restart | "
        f"ratio to {base.name}: cold / tab / restart | first-visit bytes (raw / gzipped) | "
        "starts |",
        "|---|---:|---:|---:|---|---:|---|",
    ]
    for site in sites:
        medians = [median(site, key) for key in VISITS]
        ratios = [m / median(base, key) for m, key in zip(medians, VISITS, strict=True)]
        sent = site.rounds[0]["sent"]
        starts = collections.Counter(
            f"{key}:{r[key]['start']}" for r in site.rounds for key in VISITS
        )
        lines.append(
            f"| {site.name} | {medians[0]:.0f} ms | {medians[1]:.0f} ms | {medians[2]:.0f} ms | "
            f"{' / '.join(f'{x:.2f}' for x in ratios)} | {sum(sent.values()) / 1e6:.2f} / "
            f"{site.rounds[0]['gzipped'] / 1e6:.2f} MB | "
            f"{', '.join(f'{k} x{v}' for k, v in sorted(starts.items()))} |"
        )
    lines += ["", "Medians of the runs (ms from navigation start to ready):", ""]
    for site in sites:
        lines.append(
            f"- {site.name}: cold {runs(site, 'cold')}; tab {runs(site, 'warm_tab')}; "
            f"restart {runs(site, 'warm_restart')}"
        )
    for site in sites:
        made = [r["snapshot"] for r in site.rounds if r["snapshot"]]
        if made:
            ok = [s for s in made if s.get("ok")]
            blocked = statistics.median(s["blocked_ms"] for s in ok) if ok else float("nan")
            total = statistics.median(s["ms"] for s in ok) if ok else float("nan")
            lines.append(
                f"- {site.name}: snapshot saved in {len(ok)}/{len(made)} first visits, "
                f"{ok[0]['bytes'] / 1e6 if ok else 0:.1f} MB stored for "
                f"{ok[0]['memory'] / 1e6 if ok else 0:.1f} MB of memory; requests wait at most "
                f"{blocked:.0f} ms (median) while it is made, {total:.0f} ms until it is stored"
            )
        imports = [
            statistics.median(
                r[key]["timings"]["ready"] - r[key]["timings"]["python"] for r in site.rounds
            )
            for key in VISITS
        ]
        lines.append(
            f"- {site.name}: from Python up to ready (the engine import), medians: cold "
            f"{imports[0]:.0f} ms, tab {imports[1]:.0f} ms, restart {imports[2]:.0f} ms"
        )
        last = site.rounds[-1]
        timing = {key: last[key]["timings"] for key in VISITS}
        lines.append(
            f"- {site.name}: worker timings, last round (ms after the worker started; origin: "
            f"when it started, after navigation): {json.dumps(timing)}"
        )
        fetches = {key: last[key]["fetches"] for key in VISITS if last[key]["fetches"]}
        if fetches:
            lines.append(
                f"- {site.name}: the worker's fetches, last round ([start, end], ms after the "
                f"worker started): {json.dumps(fetches)}"
            )
    lines += ["", *phases(sites)]
    repeated = {p: c for p, c in base.rounds[0]["requests"].items() if c > 1}
    lines += [
        "",
        f"Files fetched more than once during a first visit ({base.name}): "
        f"{json.dumps(repeated) if repeated else 'none'}",
        "",
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at the end; "
        f"command: `{command}`",
    ]
    return "\n".join(lines)


TRACE_CATEGORIES = [
    "devtools.timeline",
    "v8",
    "v8.wasm",
    "disabled-by-default-v8.compile",
    "blink",
    "loading",
    "ServiceWorker",
    "toplevel",
    "v8.execute",
]


WORKER_THREAD = "DedicatedWorker thread"
PAGE_THREAD = "CrRendererMain"


def thread_events(trace: Path, thread: str) -> list[dict[str, Any]]:
    """The complete events (``ph`` X) of a Chrome trace that ran on the thread named ``thread``."""
    data = json.loads(trace.read_text(encoding="utf-8"))
    events = data["traceEvents"] if isinstance(data, dict) else data
    names = {
        (e["pid"], e["tid"]): e["args"]["name"]
        for e in events
        if e.get("ph") == "M" and e.get("name") == "thread_name"
    }
    return [
        e
        for e in events
        if e.get("ph") == "X" and "dur" in e and names.get((e.get("pid"), e.get("tid"))) == thread
    ]


def thread_time(trace: Path, thread: str = WORKER_THREAD, top: int = 16) -> list[str]:
    """The trace events of ``thread`` that took the most time, summed by name (nested events
    count in each of their parents: read as "where", not as a total)."""
    spent: collections.Counter[str] = collections.Counter()
    count: collections.Counter[str] = collections.Counter()
    for e in thread_events(trace, thread):
        spent[e["name"]] += e["dur"] / 1000
        count[e["name"]] += 1
    return [f"{ms:8.1f} ms  x{count[name]:<5} {name}" for name, ms in spent.most_common(top)]


def page_tasks(trace: Path, longer_than_ms: float = 3.0) -> list[str]:
    """The page's main-thread tasks longer than ``longer_than_ms``, in order: when each began
    (ms after the thread's first event, about the navigation) and what took most of it."""
    mine = thread_events(trace, PAGE_THREAD)
    if not mine:
        return []
    start = min(e["ts"] for e in mine)
    task = "ThreadControllerImpl::RunTask"
    lines = []
    for t in (e for e in mine if e["name"] == task and e["dur"] > longer_than_ms * 1000):
        end = t["ts"] + t["dur"]
        inside = [
            f"{e['name']} {e['dur'] / 1000:.1f}"
            for e in mine
            if e is not t
            and e["name"] != task
            and t["ts"] <= e["ts"]
            and e["ts"] + e["dur"] <= end
            and e["dur"] > 0.25 * t["dur"]
        ]
        at = (t["ts"] - start) / 1000
        lines.append(f"{at:7.1f} ms {t['dur'] / 1000:6.1f} ms  " + " | ".join(inside[:4]))
    total = sum(e["dur"] for e in mine if e["name"] == task) / 1000
    lines.append(f"all the page's main-thread tasks: {total:.1f} ms")
    return lines


def trace_visit(tool: ModuleType, out: Path, first: bool = False) -> None:
    """A Chrome trace of a later visit (a new tab, same browser) of the shipped app, or with
    ``first`` of a first visit (a new browser, nothing cached)."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        dist = Path(folder) / "snapshot"
        tool.build(dist)
        site = Site(tool, "snapshot", dist, json.loads((dist / "build.json").read_text()))
        print(f"Chromium: {quiet(playwright)}")
        browser = playwright.chromium.launch(**browser_options(BROWSER_ARGS))
        try:
            context = browser.new_context()
            if not first:
                page, _ = open_ready(context, site.url)
                poll(page, PRECACHED, site.files)
                poll(page, "() => document.documentElement.dataset.snapshot")
                page.close()
            page = context.new_page()
            page.add_init_script(READY_PROBE)
            browser.start_tracing(path=str(out), categories=TRACE_CATEGORIES)
            page.goto(site.url)
            poll(page, "() => window.__tapeteReadyAt")
            info = page.evaluate("() => window.tapete.app.engine.info")
            browser.stop_tracing()
        finally:
            browser.close()
            site.close()
    visit = "a first visit" if first else "a later visit"
    print(f"{visit} ({info['start']}), worker marks: {json.dumps(info['timings'])}")
    print(f"the engine worker's thread, by trace event ({out}):")
    print("\n".join(thread_time(out)))
    print("the page's main thread, by trace event:")
    print("\n".join(thread_time(out, PAGE_THREAD)))
    print("the page's main thread, its longer tasks in order:")
    print("\n".join(page_tasks(out)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--variants", default="bare,snapshot", help=", ".join(VARIANTS))
    parser.add_argument(
        "--baseline",
        metavar="LABEL=DIST",
        action="append",
        default=[],
        help="a dist/ built elsewhere (repeatable)",
    )
    parser.add_argument("--trace", type=Path, metavar="OUT.json", help="trace a later visit")
    parser.add_argument("--trace-first", type=Path, metavar="OUT.json", help="trace a first visit")
    parser.add_argument(
        "--cold-only",
        action="store_true",
        help="first visits only (bytes until ready; the later columns repeat the first)",
    )
    parser.add_argument(
        "--link",
        metavar="MBPS/RTT_MS",
        help="serve through an emulated network, like 50/30 (bench/link.py)",
    )
    parser.add_argument(
        "--h2",
        action="store_true",
        help="with --link: over HTTP/2 and TLS, as GitHub Pages serves (bench/link_h2.py)",
    )
    args = parser.parse_args()
    if args.h2 and not args.link:
        raise SystemExit("--h2 needs --link MBPS/RTT_MS")
    if args.h2:
        try:
            from link_h2 import certificate
        except ImportError as error:
            raise SystemExit(f"--h2 needs the h2 package (the bench extra): {error}") from None
        BASE_ARGS.extend(certificate().browser_args())
    try:
        link = Link.parse(args.link, UNCOMPRESSED_TYPES) if args.link else None
    except ValueError as error:
        raise SystemExit(str(error)) from None
    if args.trace or args.trace_first:
        trace_visit(load_build(), args.trace or args.trace_first, first=not args.trace)
        return
    names = [name for name in args.variants.split(",") if name]
    unknown = [name for name in names if name.partition("?")[0] not in VARIANTS]
    if unknown:
        raise SystemExit(f"unknown variants {unknown}; choose from {list(VARIANTS)}")
    tool = load_build()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        sites = []
        for name in names:
            variant, _, query = name.partition("?")  # "snapshot?x": that build, page URL ?x
            dist = Path(folder) / name.replace("?", "_")
            if variant == BARE:
                dist.mkdir()
                info = build_bare(tool, dist)
            else:
                info = tool.build(dist, start=tool.Start(**VARIANTS[variant]))
            site = Site(tool, name, dist, info, link, args.h2)
            site.url += f"?{query}" if query else ""
            sites.append(site)
        for labelled in args.baseline:
            label, _, baseline = labelled.partition("=")
            info = json.loads((Path(baseline) / "build.json").read_text(encoding="utf-8"))
            sites.append(Site(tool, label, Path(baseline), info, link, args.h2))
        said = ""
        try:
            with sync_playwright() as playwright:
                said = quiet(playwright)
                for _ in range(args.repeats):
                    for site in sites:
                        site.rounds.append(one_round(playwright, site, args.cold_only))
        finally:
            for site in sites:
                site.close()
    command = f"python3 bench/bench_boot.py --repeats {args.repeats} --variants {','.join(names)}"
    command += "".join(f" --baseline {labelled}" for labelled in args.baseline)
    command += " --cold-only" if args.cold_only else ""
    command += f" --link {args.link}" if args.link else ""
    command += " --h2" if args.h2 else ""
    info = next((site.info for site in sites if not site.bare), sites[0].info)
    print(
        f"build {info['build']} ({info.get('wheel')}), Pyodide {tool.PYODIDE_VERSION}, "
        f"Chromium at {CHROMIUM if shutil.which(CHROMIUM) else 'Playwright default'}; "
        f"{f'served through an emulated link: {link}' if link else 'served on 127.0.0.1'}"
        f"{' over HTTP/2 and TLS' if args.h2 else ''}; "
        f"{said}\n"
    )
    print(report(sites, command))


if __name__ == "__main__":
    started = time.perf_counter()
    main()
    print(f"(took {time.perf_counter() - started:.0f} s)")
