"""Helpers for the several-devices e2e tests: a host page and guest pages in separate browser
contexts of one Chromium, paired through the real UI (a join link decoded from a screenshot of
the host's QR code, answers pasted or read from a photo), and the leak check of every message a
guest received against the other seats' hidden cards."""

from __future__ import annotations

import base64
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from ui_helpers import ACTIONABLE, js, step, wait_ready, wait_until

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "engine"))

DECODE_QR = """async (png) => {
  const { readQrFromImage } = await import(new URL("net/qr.js", document.baseURI).href);
  const image = new Image();
  image.src = "data:image/png;base64," + png;
  await image.decode();
  return readQrFromImage(image);
}"""


def decode_qr(page: Any, png: bytes) -> str | None:
    """The text of the QR code in a PNG, read by the app's own scanner (jsQR in its worker)."""
    text: str | None = page.evaluate(DECODE_QR, base64.b64encode(png).decode("ascii"))
    return text


def choose_seats(host: Any, game: str, seats: list[str], options: dict[str, str]) -> None:
    """The new-game form: players, each seat ("remote", "human" or "bot:<level>"), options."""
    host.wait_for_selector("[data-testid=players]")
    host.select_option("[data-testid=players]", str(len(seats)))
    for index, kind in enumerate(seats):
        host.select_option(f"[data-testid=seat-kind-{index}]", kind)
    for name, value in options.items():
        host.fill(f"[data-testid=opt-{name}]", value)
    host.click("[data-testid=start]")
    host.wait_for_selector("[data-testid=table-lobby]")


def join_link(host: Any, seat: int) -> str:
    link: str = wait_until(
        host,
        f"(document.querySelector('[data-testid=join-link-{seat}]') || {{}}).value || ''",
    )
    return link


def open_guest(new_context: Any, link: str, **options: Any) -> Any:
    page = new_context(**options).new_page()
    page.goto(link)
    wait_until(page, "document.querySelector('[data-testid=answer-code]')?.value || ''")
    return page


def answer_code(guest: Any, other_than: str = "") -> str:
    """The answer the guest's page shows; ``other_than`` an older answer of that page (a page
    that opens a new link shows its old answer until the new one is made)."""
    code: str = wait_until(
        guest,
        "(() => { const c = document.querySelector('[data-testid=answer-code]')?.value || '';"
        f" return c !== {other_than!r} ? c : ''; }})()",
    )
    return code


HOST_SEAT_STATE = """(seat) => {
  const s = window.tapete.host.remote.get(seat);
  const error = document.querySelector(`[data-testid=pair-error-${seat}]`);
  return {status: s.status, failed: Boolean(s.failed), pairing: s.pairing,
    link: s.link ? s.link.states() : null, log: s.link ? s.link.log : [],
    message: error ? error.textContent : null};
}"""
GUEST_STATE = """() => {
  const g = window.tapete.guest;
  return g ? {status: g.status, link: g.link.states(), log: g.link.log,
    shown: document.querySelector('[data-testid=join-status]')?.textContent} : null;
}"""


def connection_report(host: Any, seat: int, guest: Any | None) -> str:
    """Both ends' connection states and logs (what a failed pairing went through)."""
    parts = [f"host seat {seat}: {host.evaluate(HOST_SEAT_STATE, seat)}"]
    if guest is not None:
        parts.append(f"guest: {guest.evaluate(GUEST_STATE)}")
    return "\n".join(parts)


def wait_connected(host: Any, seat: int, guest: Any | None = None) -> None:
    try:
        host.wait_for_selector(
            f"[data-testid=seat-status-{seat}][data-status=connected]", timeout=90_000
        )
    except Exception as error:
        report = connection_report(host, seat, guest)
        raise AssertionError(f"seat {seat} never connected\n{report}") from error


def pair_table(
    new_context: Any,
    app_url: str,
    game: str,
    seats: list[str],
    options: dict[str, str],
    locales: list[str] | None = None,
) -> tuple[Any, list[Any]]:
    """A host page and one guest page per remote seat, all connected, the game started.

    The first guest opens the link decoded from a screenshot of the host's QR code and its
    answer reaches the host as a photo of the guest's answer QR; the others copy the link and
    paste the answer.
    """
    host = new_context().new_page()
    host.goto(app_url + f"#/new/{game}")
    wait_ready(host)
    choose_seats(host, game, seats, options)
    links = {seat: join_link(host, seat) for seat, kind in enumerate(seats) if kind == "remote"}
    guests: list[Any] = []
    for seat, kind in enumerate(seats):
        if kind != "remote":
            continue
        phone = {
            "viewport": {"width": 390, "height": 844},
            "locale": (locales or [])[len(guests)] if len(locales or []) > len(guests) else "en-US",
        }
        link = links[seat]
        if not guests:
            png = host.locator(f"[data-testid=qr-{seat}]").screenshot()
            decoded = decode_qr(host, png)
            assert decoded == link, f"the QR code reads {decoded!r}, not the link {link!r}"
            guest = open_guest(new_context, decoded, **phone)
            answer = answer_code(guest)
            photo = guest.locator("[data-testid=answer-qr]").screenshot()
            assert decode_qr(guest, photo) == answer
            host.set_input_files(
                f"[data-testid=photo-{seat}]",
                files=[{"name": "answer.png", "mimeType": "image/png", "buffer": photo}],
            )
        else:
            guest = open_guest(new_context, link, **phone)
            host.fill(f"[data-testid=answer-{seat}]", answer_code(guest))
            host.click(f"[data-testid=connect-{seat}]")
        wait_connected(host, seat, guest)
        guests.append(guest)
    host.click("[data-testid=table-start]:not([disabled])", timeout=30_000)
    for guest in guests:
        guest.wait_for_selector("[data-testid=play]")
    return host, guests


def drive(pages: list[Any], done: Any, limit: int = 5_000, timeout: float = 300.0) -> None:
    """Play on every page that has something to do (a click a person would make) until
    ``done()`` holds."""
    deadline = time.monotonic() + timeout
    for _ in range(limit):
        if done():
            return
        acted = False
        for page in pages:
            if page.query_selector(ACTIONABLE) is not None:
                what = step(page)
                acted = acted or what != "over"
        if time.monotonic() > deadline:
            break
        if not acted:
            pages[0].wait_for_timeout(100)
    raise AssertionError("the wanted position never came up")


def host_record(host: Any) -> dict[str, Any]:
    """The host's game record (its memory: a finished game is no longer saved)."""
    record: dict[str, Any] = js(host, "window.tapete.host.game.record")
    assert record, "the host has no game"
    return record


def saved_record(host: Any) -> dict[str, Any] | None:
    """The record the host saved for a reload, if any."""
    saved = json.loads(js(host, "localStorage.getItem('tapete.table')") or "null")
    return saved["record"] if saved else None


# the seat the host waits for, as text ("" while it waits for nobody)
WAITING_FOR = "(w => w === null || w === undefined ? '' : String(w))(window.tapete.host.waitingFor)"


def received(guest: Any) -> list[str]:
    messages: list[str] = js(guest, "window.tapete.guest.received")
    return messages


def strings_in(value: Any, skip: tuple[str, ...] = ()) -> Counter[str]:
    found: Counter[str] = Counter()

    def walk(item: Any) -> None:
        if isinstance(item, str):
            found[item] += 1
        elif isinstance(item, dict):
            for item_value in item.values():
                walk(item_value)
        elif isinstance(item, list):
            for element in item:
                walk(element)

    if isinstance(value, dict):
        walk({key: item for key, item in value.items() if key not in skip})
    else:
        walk(value)
    return found


def check_no_leaks(record: dict[str, Any], seat: int, messages: list[str]) -> int:
    """Every message a guest got, against the cards hidden from its seat at that move (a card
    whose every copy is hidden must not occur in it); the reveal at the end is public."""
    from tapete import GAMES

    game = GAMES[record["game"]]
    state = game.new_game(record["seed"], record["options"], record["players"])
    states = [state]
    for entry in record["moves"]:
        state = game.apply(state, entry["seat"], game.parse_move(entry["move"]))
        states.append(state)
    n = 0
    checked = 0
    for text in messages:
        message = json.loads(text)
        if message["type"] == "reveal":
            continue
        n = message.get("n", n)
        assert 0 <= n < len(states), f"a message for move {n}"
        current = states[n]
        everything = Counter(game.seat_cards(current))
        hidden = Counter(game.hidden_cards(current, seat))
        secret = {card for card, count in hidden.items() if count == everything[card]}
        snap = message.get("snap") or {}
        tokens = strings_in({key: value for key, value in message.items() if key != "snap"})
        tokens += strings_in({key: value for key, value in snap.items() if key != "view"})
        tokens += strings_in(snap.get("view") or {}, game.past_view_keys)
        leaked = secret & set(tokens)
        assert not leaked, f"seat {seat} got hidden cards {sorted(leaked)} in {text[:300]}"
        if message["type"] in ("state", "welcome"):
            view = snap.get("view")
            if view is not None:
                assert view == game.view(current, seat), f"move {n}: not seat {seat}'s view"
        checked += 1
    return checked


def send_raw(guest: Any, payload: Any) -> None:
    """Put anything on the guest's data channel, as a hostile page could."""
    guest.evaluate("(p) => window.tapete.guest.link.channel.send(p)", payload)
