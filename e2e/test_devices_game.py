"""Several devices to the end of a game: a Willie game played from two guests' phones, a
guest that drops and rejoins, a host that reloads and resumes, and the seed commitment
checked on every guest at the end (one of them gets a tampered reveal and says so)."""

from __future__ import annotations

import json
import time
from typing import Any

from devices_helpers import (
    answer_code,
    check_no_leaks,
    host_record,
    open_guest,
    pair_table,
    received,
    wait_connected,
)
from ui_helpers import js, shot, wait_until

WILLIE_MOVES = ("close", "draw", "pass", "continue")


def willie_step(page: Any) -> bool:
    """One thing a Willie player does next on this page, if any: continue after a round, or
    on their turn close when they may, else draw, else pass."""
    if page.query_selector("[data-testid=round-continue]"):
        page.click("[data-testid=round-continue]")
        return True
    if page.query_selector("[data-testid=table][data-my-turn=true]") is None:
        return False
    for move in WILLIE_MOVES:
        button = page.query_selector(f"[data-testid=actions] [data-testid={move}]:not([disabled])")
        if button is not None:
            button.click()
            return True
    return False


def play_willie(pages: list[Any], done: Any, timeout: float = 300.0) -> None:
    """Play on both phones until ``done()``; bounded in time, not in polls (a loaded machine
    makes the host slower to answer, and each wait is a poll)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if done():
            return
        if not any([willie_step(page) for page in pages]):
            pages[0].wait_for_timeout(100)
    raise AssertionError("the wanted position never came up")


def moves_on(page: Any) -> int:
    return int(page.get_attribute("[data-testid=play]", "data-moves") or -1)


NEWEST_LINK = """(async () => {
  const s = window.tapete.host.remote.get(%(seat)d);
  if (!s.code || s.code === %(old)s) return null;
  const { decodeCode } = await import(new URL("net/pairing.js", document.baseURI).href);
  return decodeCode(s.code).offer.pairing === s.pairing ? [s.code, s.joinUrl] : null;
})()"""


def repair(host: Any, seat: int, guest_page: Any | None, new_context: Any) -> Any:
    """A fresh pairing for a seat (same token): the host's new link, opened on the guest's
    phone (the same page, or a new one), the answer pasted on the host."""
    old = js(host, f"window.tapete.host.remote.get({seat}).code || ''")
    # The seat's pairing panel may still be drawing: wait for its button, not just look.
    host.click(f"[data-testid=new-link-{seat}]", timeout=90_000)
    # The link of the newest offer: a pairing started before the click (the resumed table's
    # own) may finish after it with a code the click has already made stale.
    code, link = wait_until(host, NEWEST_LINK % {"seat": seat, "old": json.dumps(old)}, 90)
    assert code in link
    if guest_page is None:
        guest_page = open_guest(new_context, link, viewport={"width": 390, "height": 844})
        answer = answer_code(guest_page)
    else:
        shown = js(guest_page, "document.querySelector('[data-testid=answer-code]')?.value || ''")
        guest_page.goto(link)
        answer = answer_code(guest_page, other_than=shown)
    host.fill(f"[data-testid=answer-{seat}]", answer)
    host.click(f"[data-testid=connect-{seat}]")
    wait_connected(host, seat)
    return guest_page


def test_willie_drop_rejoin_reload_and_verified_deal(new_context: Any, app_url: str) -> None:
    options = {"target_score": "1", "close_threshold": "75"}
    host, guests = pair_table(new_context, app_url, "willie", ["remote", "remote"], options)
    # Every phone shows the same deal check code (the same seed parts reached everyone).
    codes = [g.inner_text("[data-testid=guest-deal-code]") for g in guests]
    assert codes[0] == codes[1] and "…" not in codes[0]

    # A Willie turn, by clicking on the phones.
    play_willie(guests, lambda: js(host, "window.tapete.host.game.record.moves.length") >= 3)
    at = js(host, "window.tapete.host.game.record.moves.length")

    # Guest 0 closes its tab: the host sees it missing, pairs the seat again (same token),
    # and the new page of that player shows the game exactly where it is.
    guests[0].context.close()
    host.wait_for_selector("[data-testid=devices][data-missing='1']", timeout=30_000)
    host.click("[data-testid=devices]")
    guests[0] = repair(host, 0, None, new_context)
    host.click("[data-testid=close-devices]")
    guests[0].wait_for_selector(f"[data-testid=play][data-moves='{at}']")
    assert js(host, "window.tapete.host.game.record.moves.length") == at

    # The host reloads: the saved table resumes and both guests pair again in their pages.
    host.reload()
    host.wait_for_selector("[data-testid=devices-panel]", timeout=90_000)
    for seat in (0, 1):
        repair(host, seat, guests[seat], new_context)
    host.click("[data-testid=close-devices]")
    for guest in guests:
        guest.wait_for_selector(f"[data-testid=play][data-moves='{at}']")

    # To the end; guest 1's page gets a reveal with another secret.
    js(host, "window.tapete.host.tampered = {1: {secret: '0'.repeat(32)}}")
    record_box: dict[str, Any] = {}

    def over() -> bool:
        return all(g.query_selector("[data-testid=verify-panel]") for g in guests)

    play_willie(guests, over)
    for guest in guests:
        guest.wait_for_selector("[data-testid=verify]:not([data-state=checking])", timeout=90_000)
    ok = guests[0].locator("[data-testid=verify]")
    assert ok.get_attribute("data-state") == "ok", ok.inner_text()
    assert "Verified" in ok.inner_text()
    bad = guests[1].locator("[data-testid=verify]")
    assert bad.get_attribute("data-state") == "failed"
    assert "does not match the commitment" in bad.inner_text()
    shot(guests[0], "devices-guest-verified")
    record_box["record"] = host_record(host)
    for seat, guest in enumerate(guests):
        assert check_no_leaks(record_box["record"], seat, received(guest)) > 3
