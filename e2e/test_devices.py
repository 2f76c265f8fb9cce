"""Several devices, no server: a host page and two guest pages in separate contexts of one
Chromium, paired through the real UI over WebRTC data channels with ``iceServers: []``.

Every message a guest receives is checked against the cards hidden from its seat.
"""

from __future__ import annotations

import json
from typing import Any

from devices_helpers import (
    WAITING_FOR,
    check_no_leaks,
    choose_seats,
    drive,
    host_record,
    pair_table,
    received,
    send_raw,
)
from ui_helpers import js, shot, step, wait_ready, wait_until

TOKEN_OF = "window.tapete.guest.token"
GARBAGE_CODES = {
    "bad_message",
    "too_large",
    "unknown_type",
    "bad_field",
    "unknown_field",
    "version",
    "bad_token",
    "rate_limited",
    "missing_field",
    "wrong_seat",
}


def move_message(seat: int, token: str, after: int, move: str = "bid 0") -> str:
    return json.dumps({"type": "move", "seat": seat, "token": token, "after": after, "move": move})


def my_turn(page: Any) -> bool:
    return page.query_selector("[data-testid=table][data-my-turn=true]") is not None


def test_wizard_round_on_three_devices(new_context: Any, app_url: str) -> None:
    """A full Wizard round played from two guests' phones (one in Spanish) by clicking, a bot
    on the host, the host a table screen; illegal, forged, stale and garbage messages change
    nothing; no guest ever receives a card hidden from its seat."""
    seats = ["remote", "remote", "bot:random"]
    host, guests = pair_table(new_context, app_url, "wizard", seats, {}, locales=["en-US", "es-ES"])
    shot(host, "devices-host-table")
    shot(guests[0], "devices-guest-table-phone")

    # Wait for a guest's turn to bid (a dealer who turned up a Wizard chooses trump first).
    for _ in range(10):
        turn = int(wait_until(host, WAITING_FOR, timeout=90))
        mover = guests[turn]
        table = mover.wait_for_selector("[data-testid=table][data-my-turn=true]", timeout=60_000)
        if table.get_attribute("data-phase") == "bid":
            break
        step(mover)
        host.wait_for_timeout(300)
    other = guests[1 - turn]
    moves_before = js(host, "window.tapete.host.game.record.moves.length")

    # An illegal move from the guest: refused by the host's engine, said in its language.
    mover.evaluate("window.tapete.app.session.onMove('bid 9')")
    text = mover.wait_for_selector("[data-testid=message]:not(:empty)").inner_text()
    english, spanish = "A bid this round is 0 to 1.", "En esta ronda se apuesta de 0 a 1."
    assert text == (english if turn == 0 else spanish)

    # A forged move for the mover's seat from the other guest (its own token, then a guess).
    token = js(other, TOKEN_OF)
    n = moves_before
    send_raw(other, move_message(turn, token, n))
    send_raw(other, move_message(1 - turn, "A" * 16, n))
    # An early move from the mover itself (a stale one is replayed after the round).
    mine = js(mover, TOKEN_OF)
    send_raw(mover, move_message(turn, mine, n + 5))
    codes = wait_until(
        other,
        "(() => { const c = window.tapete.guest.received.map(m => JSON.parse(m))"
        ".filter(m => m.type === 'error').map(m => m.error.code);"
        " return c.length >= 2 ? c.join(',') : ''; })()",
    )
    mover_codes = wait_until(
        mover,
        "(() => { const c = window.tapete.guest.received.map(m => JSON.parse(m))"
        ".filter(m => m.type === 'refused').map(m => m.error.code);"
        " return c.length >= 2 ? c.join(',') : ''; })()",
    )
    assert codes.split(",")[:2] == ["wrong_seat", "bad_token"], codes
    assert mover_codes.split(",")[-2:] == ["illegal_move", "early_move"], mover_codes

    # A burst of garbage on the data channel: coded errors (rate-limited), nothing changes.
    other.evaluate(
        """() => {
          const ch = window.tapete.guest.link.channel;
          const junk = ["", "{", "null", "[]", "{\\"type\\":\\"eval\\"}", "x".repeat(20000),
            JSON.stringify({type: "move", seat: 0, token: "A".repeat(16), after: 0,
              move: {a: [[[[[[[[1]]]]]]]]}}),
            JSON.stringify({type: "ping", extra: true}),
            JSON.stringify({type: "hello", v: 9, seat: 0, token: "x"})];
          for (let i = 0; i < 300; i++) {
            if (i % 10 === 0) ch.send(new Uint8Array([i, 255, 0, 7]));
            else ch.send(junk[i % junk.length] + (i % 3 ? "" : String.fromCharCode(i % 50000)));
          }
        }"""
    )
    errors = wait_until(
        other,
        "(() => { const e = window.tapete.guest.received.map(m => JSON.parse(m))"
        ".filter(m => m.type === 'error').map(m => m.error.code);"
        " return e.length ? e : null; })()",
    )
    assert set(errors) <= GARBAGE_CODES, errors
    assert len(errors) < 40, "error replies are rate-limited"
    assert js(host, "window.tapete.host.game.record.moves.length") == moves_before
    assert js(host, "window.tapete.host.game.snap.to_move") == turn
    assert js(other, "window.tapete.guest.link.channel.readyState") == "open"

    # The round, played by clicking on both phones (the host's bot plays seat 2).
    def round_two() -> bool:
        return all(
            g.query_selector("[data-testid=table][data-round='2']") is not None
            and g.query_selector("[data-testid=round-summary]") is None
            for g in guests
        )

    drive(guests, round_two)
    shot(guests[1], "devices-guest-round-two-es")
    record = host_record(host)
    assert len(record["moves"]) >= 6
    # A replayed move (for a move number long past) is stale and changes nothing.
    send_raw(mover, move_message(turn, mine, n))
    wait_until(
        mover,
        "window.tapete.guest.received.map(m => JSON.parse(m))"
        ".some(m => m.type === 'refused' && m.error.code === 'stale_move')",
    )
    # Only the host's bot (seat 2) may have moved meanwhile: round two has begun.
    after = host_record(host)["moves"]
    assert after[: len(record["moves"])] == record["moves"]
    assert all(entry["seat"] == 2 for entry in after[len(record["moves"]) :]), after
    assert {entry["seat"] for entry in record["moves"][:6]} == {0, 1, 2}
    for seat, guest in enumerate(guests):
        # the messages first, then the host's record: the bot may move on in round two between
        # the two reads, and every message must find its move in the record
        messages = received(guest)
        assert check_no_leaks(host_record(host), seat, messages) > 5


def test_guest_opens_a_stale_or_broken_link(new_context: Any, app_url: str) -> None:
    """A damaged join link says so in plain words; nothing breaks."""
    page = new_context().new_page()
    page.goto(app_url + "#/join/AAAAAAAAAAAAAAAAAAAAAAAB")
    text = page.wait_for_selector("[data-testid=join-problem]").inner_text()
    assert "damaged or incomplete" in text
    page.goto(app_url + "#/join/<script>")
    page.wait_for_selector("[data-testid=join-problem] >> text=That is not a Tapete code.")


def melds_on(page: Any) -> list[list[str]]:
    found: list[list[str]] = page.evaluate(
        """[...document.querySelectorAll('[data-testid=meld]')].map(m =>
             [...m.querySelectorAll('[data-testid=table-tile]')].map(t => t.dataset.code))"""
    )
    return found


def test_rummikub_rearranging_turn_from_a_guest(new_context: Any, app_url: str) -> None:
    """Two guests play Rummikub turns from their phones by clicking: the engine's hint (asked
    of the host) laid out on the meld table, live meld checks (inspect, asked of the host), and
    Done; until a guest's turn rearranges melds already on the table, which the host accepts."""
    options = {"initial_meld_threshold": "0"}
    host, guests = pair_table(new_context, app_url, "rummikub", ["remote", "remote"], options)
    mine = "[data-testid=rummikub-table][data-my-turn=true]"
    for _ in range(40):
        turn = wait_until(host, WAITING_FOR, timeout=60)
        page = guests[int(turn)]
        page.wait_for_selector(mine)
        before = js(host, "window.tapete.host.game.record.moves.length")
        table = melds_on(page)
        page.click("[data-testid=hint]")
        page.wait_for_selector("[data-testid=hint-panel]", timeout=60_000)
        rearranged = False
        if page.locator("[data-testid=use-hint]").count():
            page.click("[data-testid=use-hint]")
            wait_until(page, "!document.querySelector('[data-testid=meld][data-state=pending]')")
            after = melds_on(page)
            assert page.locator("[data-testid=meld][data-state=invalid]").count() == 0
            rearranged = bool(table) and any(meld not in after for meld in table)
            if rearranged:
                shot(page, "devices-guest-rummikub-rearranged")
            page.click("[data-testid=done]")
        else:
            page.click("[data-testid=draw]")
        wait_until(host, f"window.tapete.host.game.record.moves.length > {before}", timeout=60)
        if rearranged:
            record = host_record(host)
            play = record["moves"][before]
            assert play["seat"] == int(turn) and "play" in play["move"]
            for seat, guest in enumerate(guests):
                wait_until(
                    guest,
                    f"document.querySelector('[data-testid=play]')?.dataset.moves == {before + 1}",
                )
                messages = received(guest)  # before the record, as in the Wizard round
                assert check_no_leaks(host_record(host), seat, messages) > 1
            return
    raise AssertionError("no guest turn rearranged the table")


def test_a_saved_table_the_engine_refuses_is_set_aside(new_context: Any, app_url: str) -> None:
    """A host's saved table whose record no engine rebuilds is set aside, never dropped, and
    the home screen says why."""
    page = new_context().new_page()
    page.goto(app_url)
    page.wait_for_selector("[data-testid=game-willie]")
    seats = [{"kind": "human", "remote": True}, {"kind": "bot", "level": "random"}]
    record = {
        "game": "willie",
        "engine_version": "0",
        "seed": "BADTABLE",
        "options": {},
        "players": 2,
        "seats": seats,
        "moves": [{"seat": 0, "move": "fly"}],
    }
    table = {
        "id": "t1",
        "secret": "0" * 32,
        "commitment": "c",
        "seed": "BADTABLE",
        "parts": [],
        "deal_code": "x",
        "remote": {"0": {"token": "A" * 16, "part": None}},
        "record": record,
        "setup": {
            "game": "willie",
            "options": {},
            "players": 2,
            "seats": seats,
            "policy": {"missing": "wait", "timeout_s": 30, "bot_level": "random"},
            "ice_server": None,
        },
    }
    page.evaluate("t => localStorage.setItem('tapete.table', JSON.stringify(t))", table)
    page.goto(app_url + "#/table")
    message = page.wait_for_selector("[data-testid=home-message]", timeout=60_000).inner_text()
    assert "set aside" in message and "damaged" in message, message
    aside = js(page, "window.tapete.saves.listAside()")
    assert [entry["value"]["record"]["seed"] for entry in aside] == ["BADTABLE"]
    assert js(page, "localStorage.getItem('tapete.table')") is None


def test_a_host_back_home_with_nobody_paired_lets_the_screen_lock(
    new_context: Any, app_url: str
) -> None:
    """The host's screen is kept on from the table's lobby; a host who goes back to the home
    screen before anyone joined lets it lock again, and the table shown again keeps it on."""
    host = new_context().new_page()
    host.goto(app_url + "#/new/willie")
    wait_ready(host)
    choose_seats(host, "willie", ["human", "remote"], {})
    wait_until(host, "window.tapete.host.awake.held", timeout=10)
    host.click("[data-testid=table-lobby] a[href='#/']")
    host.wait_for_selector("[data-testid=home]")
    wait_until(host, "!window.tapete.host.awake.held", timeout=10)
    host.goto(app_url + "#/table")
    host.wait_for_selector("[data-testid=table-lobby]")
    wait_until(host, "window.tapete.host.awake.held", timeout=10)
