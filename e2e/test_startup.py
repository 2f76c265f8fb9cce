"""Start-up from a memory snapshot (docs/CONTRACTS.md, "Start-up and snapshots").

The first visit starts plainly (``<html data-start="plain">``) and, once the worker is idle,
saves a memory snapshot in the Cache API (``<html data-snapshot="saved">``); later visits
restore it (``data-start="snapshot"``). A bad stored snapshot never breaks the page: it is
discarded, the app starts plainly, and a good snapshot is made again.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ui_helpers import (
    BOOT_TIMEOUT_MS,
    CHROMIUM,
    CHROMIUM_ARGS,
    FAST_BOTS,
    open_link,
    step,
    wait_ready,
    wait_saved_moves,
    wait_until,
)

LINK = "#/wizard?seed=SNAP3&players=3&bots=1:heuristic,2:random"
DEAL = {"game": "wizard", "seed": "SNAPDEAL", "players": 4, "view_seat": 0}

# Rewrites the stored snapshot the way storage can go wrong (run in the page: same origin).
DAMAGE = """
async (mode) => {
  const cache = await caches.open("tapete.snapshot");
  const [request] = await cache.keys();
  const response = await cache.match(request);
  const headers = new Headers(response.headers);
  let body = new Uint8Array(await response.arrayBuffer());
  const hex = async (bytes) => Array.from(
    new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)),
    (b) => b.toString(16).padStart(2, "0"),
  ).join("");
  if (mode === "flip") for (let i = 0; i < 64; i++) body[(body.length >> 1) + i * 4099] ^= 0x5a;
  if (mode === "truncate") body = body.slice(0, body.length - 1000000);
  if (mode === "unrestorable") {  // intact to its checks, yet Pyodide refuses it (magic number)
    const pages = new Uint32Array(body.buffer, 0, 4)[3];  // the packed form: see web/worker.js
    body[16 + ((Math.ceil(pages / 8) + 3) & ~3)] ^= 0xff;
    headers.set("x-tapete-sha256", await hex(body));
  }
  if (mode === "other-build") headers.set("x-tapete-key", "0123456789abcdef");
  await cache.put(request, new Response(body, { headers }));
  return body.length;
}
"""


def start_of(page: Any) -> dict[str, Any]:
    """How the engine started: {start, snapshot_error} from the ready message."""
    wait_ready(page)
    info = page.evaluate("() => window.tapete.app.engine.info")
    assert page.get_attribute("html", "data-start") == info["start"]
    return {"start": info["start"], "snapshot_error": info.get("snapshot_error")}


def loaded_games(page: Any) -> list[str]:
    """The games the engine had imported when it said ready."""
    games: list[str] = page.evaluate("() => window.tapete.app.engine.info.games_loaded")
    return sorted(games)


def build_games(page: Any) -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = page.evaluate("() => window.tapete.app.build.games")
    return games


def wait_saved(page: Any) -> dict[str, Any]:
    page.wait_for_selector("html[data-snapshot]", state="attached", timeout=BOOT_TIMEOUT_MS)
    saved: dict[str, Any] = page.evaluate("() => window.tapete.app.engine.snapshot")
    assert saved["ok"], saved
    assert page.get_attribute("html", "data-snapshot") == "saved"
    return saved


def deal(page: Any) -> str:
    result = page.evaluate("(deal) => window.tapete.app.engine.call('new_game', deal)", DEAL)
    return json.dumps(result, sort_keys=True)


def test_second_visit_starts_from_the_snapshot_and_deals_the_same(
    new_context: Any, app_url: str
) -> None:
    page = new_context().new_page()
    page.goto(app_url)
    assert start_of(page) == {"start": "plain", "snapshot_error": None}
    assert loaded_games(page) == []  # the engine imports a game on first use
    plain_deal = deal(page)
    saved = wait_saved(page)
    assert saved["bytes"] > 10_000_000
    page.reload()
    assert start_of(page) == {"start": "snapshot", "snapshot_error": None}
    # The worker imported every game while idle, before it made the snapshot.
    assert loaded_games(page) == sorted(game["id"] for game in build_games(page))
    assert deal(page) == plain_deal
    # No second snapshot is made from a restored start.
    page.wait_for_timeout(1500)
    assert page.get_attribute("html", "data-snapshot") is None
    # The restored engine plays: lazily imported modules (bots) load from the wheel's files.
    open_link(page, app_url, LINK)
    for _ in range(6):
        step(page)
    wait_saved_moves(page, 4)


def test_a_damaged_snapshot_is_discarded_and_made_again(new_context: Any, app_url: str) -> None:
    page = new_context().new_page()
    page.goto(app_url)
    assert start_of(page)["start"] == "plain"
    wait_saved(page)
    for mode, error in [
        ("flip", "corrupt snapshot"),
        ("truncate", "truncated snapshot"),
        ("other-build", "another build"),
    ]:
        page.evaluate(DAMAGE, mode)
        page.reload()
        started = start_of(page)
        assert started["start"] == "plain", mode
        assert error in (started["snapshot_error"] or ""), (mode, started)
        page.wait_for_selector("[data-testid=home]")
        wait_saved(page)  # a good snapshot is made again
    page.reload()
    assert start_of(page) == {"start": "snapshot", "snapshot_error": None}


def test_a_snapshot_that_fails_to_restore_is_not_made_again(new_context: Any, app_url: str) -> None:
    page = new_context().new_page()
    page.goto(app_url)
    wait_saved(page)
    page.evaluate(DAMAGE, "unrestorable")
    page.reload()
    started = start_of(page)
    assert started["start"] == "plain"
    assert "snapshot restore failed" in started["snapshot_error"], started
    page.wait_for_timeout(2000)  # idle: a snapshot would be made now, but it must not be
    assert page.get_attribute("html", "data-snapshot") is None
    page.reload()
    started = start_of(page)
    assert started["start"] == "plain"
    assert "failed to restore" in started["snapshot_error"], started
    assert deal(page)


def test_full_storage_leaves_the_plain_start(new_context: Any, app_url: str) -> None:
    """A snapshot that does not fit (quota) is reported, and nothing else changes."""
    page = new_context().new_page()
    cdp = page.context.new_cdp_session(page)
    origin = app_url.rstrip("/")
    cdp.send("Storage.overrideQuotaForOrigin", {"origin": origin, "quotaSize": 2_000_000})
    try:
        page.goto(app_url)
        assert start_of(page)["start"] == "plain"
        page.wait_for_selector("html[data-snapshot=failed]", state="attached")
        error = page.evaluate("() => window.tapete.app.engine.snapshot.error")
        assert "quota" in error.lower(), error
        page.reload()
        assert start_of(page) == {"start": "plain", "snapshot_error": None}
        assert deal(page)
    finally:
        cdp.send("Storage.overrideQuotaForOrigin", {"origin": origin})


def test_offline_restart_from_the_snapshot(
    browser_type: Any, browser_type_launch_args: dict[str, Any], app_url: str, tmp_path: Path
) -> None:
    """A real browser restart (same profile) with no network: the snapshot and every file come
    from the browser's storage."""
    requests: list[str] = []

    def launch() -> Any:
        options = {**browser_type_launch_args, "args": CHROMIUM_ARGS}
        if CHROMIUM.exists():
            options["executable_path"] = str(CHROMIUM)
        context = browser_type.launch_persistent_context(
            str(tmp_path / "profile"), **options, viewport={"width": 1280, "height": 800}
        )
        context.add_init_script(FAST_BOTS)
        context.on("request", lambda request: requests.append(request.url))
        return context

    context = launch()
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(app_url)
        assert start_of(page)["start"] == "plain"
        wait_until(page, "!!navigator.serviceWorker.controller", timeout=60)
        wait_saved(page)
    finally:
        context.close()
    context = launch()
    try:
        context.set_offline(True)
        page = context.pages[0] if context.pages else context.new_page()
        open_link(page, app_url, LINK)
        assert start_of(page) == {"start": "snapshot", "snapshot_error": None}
        assert step(page) in ("bid", "play", "trump", "round-continue", "handover-ready")
        assert deal(page)
    finally:
        context.close()
    origin = app_url.rstrip("/")
    foreign = [url for url in requests if urlsplit(url).scheme not in ("data", "blob")]
    assert all(url.startswith(origin) for url in foreign), foreign[:5]
