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
ROUND_CONTINUE = "[data-testid=round-continue]"


def willie_step(page: Any) -> str | None:
    """One thing a Willie player does next on this page, if any: continue after a round
    ("continue", a screen of this page only), or on their turn close when they may, else draw,
    else pass ("move")."""
    if page.query_selector(ROUND_CONTINUE):
        page.click(ROUND_CONTINUE)
        return "continue"
    if page.query_selector("[data-testid=table][data-my-turn=true]") is None:
        return None
    for move in WILLIE_MOVES:
        button = page.query_selector(f"[data-testid=actions] [data-testid={move}]:not([disabled])")
        if button is not None:
            button.click()
            return "move"
    return None


HOST_MOVES = "window.tapete.host.game ? window.tapete.host.game.record.moves.length : -1"
# Every guest shows the host's move count (a page past the game shows no table at all).
SETTLED = """(n) => { const play = document.querySelector('[data-testid=play]');
  return !play || Number(play.dataset.moves) === n; }"""


def settle(host: Any, pages: list[Any], before: int, deadline: float) -> None:
    """After a move sent at ``before`` moves: wait until the host has taken it and every page
    shows the new count, so that no move is ever in flight when the next one is chosen (a move
    clicked while another is on its way races it: the count read after it may be stale)."""
    while time.monotonic() < deadline:
        n = js(host, HOST_MOVES)
        if n > before and all(page.evaluate(SETTLED, n) for page in pages):
            return
        if host.query_selector("[data-testid=game-over]") and n > before:
            return
        pages[0].wait_for_timeout(100)


PAGE_REPORT = """() => {
  const play = document.querySelector('[data-testid=play]');
  const table = document.querySelector('[data-testid=table]');
  const buttons = [...document.querySelectorAll('[data-testid=actions] button')]
    .map((b) => `${b.dataset.testid}${b.disabled ? '(off)' : ''}`);
  const dialogs = [...document.querySelectorAll('[role=dialog], .overlay, [data-testid$=dialog]')]
    .map((d) => d.dataset.testid || d.className);
  const g = window.tapete && window.tapete.guest;
  return {moves: play ? play.dataset.moves : null, myTurn: table ? table.dataset.myTurn : null,
    buttons, dialogs, status: g ? g.status : null, n: g ? g.n : null,
    queue: g ? g.queue.length : null, pending: g && g.pendingMove ? g.pendingMove.after : null,
    text: document.body.innerText.slice(0, 400)};
}"""
HOST_REPORT = """() => { const h = window.tapete.host; const g = h.game;
  const s = window.tapete.app && window.tapete.app.session;
  return {moves: g ? g.record.moves.length : null, to_move: g ? g.snap.to_move : null,
    outcome: g ? Boolean(g.snap.outcome) : null,
    seats: [...h.remote.values()].map((r) => [r.status, Boolean(r.inbox), Boolean(r.waiter)]),
    session: s ? {busy: s.busy, paused: s.paused, stopped: s.stopped, moves: s.record.moves.length,
      trick: Boolean(s.trickShown)} : null,
    dialogs: [...document.querySelectorAll('[role=dialog]')].map((d) => d.dataset.testid),
    text: document.body.innerText.slice(0, 300)}; }"""


class Asleep:
    """Pause ``page`` in Chromium's debugger, as a phone that locks its screen: no timer runs
    and no message is answered until ``wake``. Debugger.pause only asks for a pause at the
    page's next statement, so this waits (pumping ``other``) until the page is paused; a pause
    still pending when the test goes on would stop the page later, where nothing resumes it,
    and the next call into that page would hang."""

    def __init__(self, page: Any, other: Any, timeout: float = 30.0) -> None:
        self.paused = False
        self.session = page.context.new_cdp_session(page)
        self.session.on("Debugger.paused", lambda _: setattr(self, "paused", True))
        self.session.on("Debugger.resumed", lambda _: setattr(self, "paused", False))
        self.session.send("Debugger.enable")
        self.session.send("Debugger.pause")
        deadline = time.monotonic() + timeout
        while not self.paused:
            if time.monotonic() > deadline:
                self.wake()
                raise AssertionError("the page never paused in the debugger")
            other.wait_for_timeout(50)

    def wake(self) -> None:
        """Resume the page and let go of the debugger (which also drops a pending pause)."""
        if self.paused:
            self.session.send("Debugger.resume")
        self.session.send("Debugger.disable")
        self.session.detach()


def stuck_report(host: Any, pages: list[Any]) -> str:
    """What each device showed when the wanted position never came."""
    lines = [f"host: {host.evaluate(HOST_REPORT)}"]
    lines += [f"guest {i}: {page.evaluate(PAGE_REPORT)}" for i, page in enumerate(pages)]
    return "\n".join(lines)


def play_willie(host: Any, pages: list[Any], done: Any, timeout: float = 300.0) -> None:
    """Play on both phones until ``done()``, one move at a time: each move is taken by the host
    and shown on every phone before the next is chosen. Bounded in time, not in polls (a loaded
    machine makes the host slower to answer, and each wait is a poll)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if done():
            return
        before = js(host, HOST_MOVES)
        acted = None
        # a round's result open on any phone is dismissed first: that phone's table waits for it
        # and would not show the next move
        for page in sorted(pages, key=lambda page: not page.query_selector(ROUND_CONTINUE)):
            acted = willie_step(page)
            if acted:
                break
        if acted == "move":
            # a refused or lost move leaves the count as it was: look again after a while
            settle(host, pages, before, min(deadline, time.monotonic() + 30))
        elif acted is None:
            pages[0].wait_for_timeout(100)
    shot(host, "devices-stuck-host")
    for index, page in enumerate(pages):
        shot(page, f"devices-stuck-guest-{index}")
    raise AssertionError(f"the wanted position never came up\n{stuck_report(host, pages)}")


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
    play_willie(host, guests, lambda: js(host, HOST_MOVES) >= 3)
    at = js(host, HOST_MOVES)

    # Guest 0 closes its tab: the host sees it missing, pairs the seat again (same token),
    # and the new page of that player shows the game exactly where it is.
    guests[0].context.close()
    host.wait_for_selector("[data-testid=devices][data-missing='1']", timeout=30_000)
    host.click("[data-testid=devices]")
    guests[0] = repair(host, 0, None, new_context)
    host.click("[data-testid=close-devices]")
    guests[0].wait_for_selector(f"[data-testid=play][data-moves='{at}']", timeout=90_000)
    assert js(host, "window.tapete.host.game.record.moves.length") == at

    # The host reloads: the saved table resumes and both guests pair again in their pages.
    host.reload()
    host.wait_for_selector("[data-testid=devices-panel]", timeout=90_000)
    for seat in (0, 1):
        repair(host, seat, guests[seat], new_context)
    host.click("[data-testid=close-devices]")
    for guest in guests:
        guest.wait_for_selector(f"[data-testid=play][data-moves='{at}']", timeout=90_000)

    # To the end; guest 1's page gets a reveal with another secret.
    js(host, "window.tapete.host.tampered = {1: {secret: '0'.repeat(32)}}")
    record_box: dict[str, Any] = {}

    def over() -> bool:
        return all(g.query_selector("[data-testid=verify-panel]") for g in guests)

    play_willie(host, guests, over)
    for guest in guests:
        guest.wait_for_selector("[data-testid=verify]:not([data-state=checking])", timeout=90_000)
    ok = guests[0].locator("[data-testid=verify]")
    assert ok.get_attribute("data-state") == "ok", ok.inner_text()
    assert "Verified" in ok.inner_text()
    bad = guests[1].locator("[data-testid=verify]")
    assert bad.get_attribute("data-state") == "failed"
    assert "does not match the commitment" in bad.inner_text()
    shot(guests[0], "devices-guest-verified")
    # the game is over: every screen may lock again
    assert js(host, "window.tapete.host.awake.held") is False
    assert all(js(guest, "window.tapete.guest.awake.held") is False for guest in guests)
    record_box["record"] = host_record(host)
    for seat, guest in enumerate(guests):
        assert check_no_leaks(record_box["record"], seat, received(guest)) > 3


def test_willie_table_screen_goes_through_a_round_end(new_context: Any, app_url: str) -> None:
    """A host that plays no seat (a table screen: its viewer is nobody) shows a Willie round's
    end, with no trick winner, and goes on to the next round (it once took that nobody for the
    player at the device and stopped on a fatal error)."""
    options = {"target_score": "1000"}
    host, guests = pair_table(new_context, app_url, "willie", ["remote", "bot:random"], options)
    host_round = "window.tapete.host.game.snap.view.round"

    def alive() -> bool:
        fatal = host.query_selector("[data-testid=fatal-dialog]")
        assert fatal is None, f"the host stopped: {fatal.inner_text() if fatal else ''}"
        return True

    play_willie(host, guests, lambda: alive() and js(host, host_round) >= 2)
    at = js(host, HOST_MOVES)
    # the next round is played: the host takes moves again, on both sides of the table
    play_willie(host, guests, lambda: alive() and js(host, HOST_MOVES) >= at + 2)
    host.wait_for_selector("[data-testid=round-summary]", state="detached")
    alive()


def test_a_host_that_falls_asleep_is_waited_for(new_context: Any, app_url: str) -> None:
    """The host's page is paused in the debugger (as a phone that sleeps: no timer runs, no
    message is answered) until the guest notices: the guest says the host is not answering and
    keeps its link (it once closed it after 15 s, losing the table); once the host wakes, the
    guest says so, and the move the player made meanwhile is taken. Then the guest's
    page sleeps: the host marks the seat missing, and takes it back on the same link."""
    options = {"target_score": "1000"}
    host, guests = pair_table(new_context, app_url, "willie", ["remote", "bot:random"], options)
    guest = guests[0]
    # both screens are kept on while the table plays (the Screen Wake Lock)
    wait_until(host, "window.tapete.host.awake.held", timeout=10)
    wait_until(guest, "window.tapete.guest.awake.held", timeout=10)

    def my_turn() -> bool:
        return guest.query_selector("[data-testid=table][data-my-turn=true]") is not None

    play_willie(host, guests, lambda: js(host, HOST_MOVES) >= 2 and my_turn())
    at = js(host, HOST_MOVES)
    sleep = Asleep(host, guest)
    try:
        # the player moves while the host sleeps: the move waits on the link
        assert any(willie_step(guest) == "move" for _ in range(3))
        guest.wait_for_selector("[data-testid=host-silent]", timeout=30_000)
        assert js(guest, "window.tapete.guest.status") == "connected"
        assert guest.query_selector("[data-testid=lost-dialog]") is None
        assert "not answering" in guest.inner_text("[data-testid=host-silent]")
        shot(guest, "devices-host-silent")
    finally:
        sleep.wake()
    guest.wait_for_selector("[data-testid=host-silent]", state="detached", timeout=30_000)
    assert guest.query_selector("[data-testid=lost-dialog]") is None
    # the host took the move it was sent while asleep, and both devices show it
    settle(host, guests, at, time.monotonic() + 30)
    assert js(host, HOST_MOVES) > at
    assert moves_on(guest) == js(host, HOST_MOVES)
    at = js(host, HOST_MOVES)
    play_willie(host, guests, lambda: js(host, HOST_MOVES) >= at + 2)

    # Now the guest's phone sleeps: the host marks its seat missing, and once it wakes it is
    # back on the same link, with no new pairing, and the game goes on.
    at = js(host, HOST_MOVES)
    sleep = Asleep(guest, host)
    try:
        host.wait_for_selector("[data-testid=devices][data-missing='1']", timeout=30_000)
    finally:
        sleep.wake()
    host.wait_for_selector("[data-testid=devices][data-missing='0']", timeout=30_000)
    # the guest shows every move made while it slept (the host's bot may have moved)
    deadline = time.monotonic() + 30
    while moves_on(guest) != js(host, HOST_MOVES):
        assert time.monotonic() < deadline, stuck_report(host, guests)
        guest.wait_for_timeout(100)
    assert js(host, HOST_MOVES) >= at
    assert guest.query_selector("[data-testid=lost-dialog]") is None
    assert guest.query_selector("[data-testid=host-silent]") is None
    play_willie(host, guests, lambda: js(host, HOST_MOVES) >= at + 2)
