"""Rummikub in Chromium: a turn built by dragging (mouse), by tap-select (touch) and by the
keyboard; on a phone a swipe over tiles scrolls and a long press drags; live meld validity; a
refused table with its reason (and the game kept); undo and reset; the hint applied; a bot's
turn; reload mid-game; Spanish; desktop and phone pictures."""

from __future__ import annotations

import json
from typing import Any

from ui_helpers import SHOTS, shot, wait_ready, wait_saved_moves, wait_until

# Two players, seat 0 (us) starts with B1 B4 B8 B11 K2 K3 K5 K8 K9 R4 R5 R6 R8 Y11:
# R4 R5 R6 (15) and K8 R8 B8 (24) make an initial meld of 39.
LINK = "#/rummikub?seed=RK17&players=2&bots=1:normal"
BIG = "#/rummikub?seed=RK17&players=4&bots=1:easy,2:easy,3:easy"
PHONE = {"width": 390, "height": 844}


def start(page: Any, app_url: str, link: str = LINK) -> None:
    page.goto(app_url + link)
    wait_ready(page)
    my_turn(page)


def my_turn(page: Any, timeout: float = 90) -> None:
    try:
        wait_until(
            page,
            "document.querySelector('[data-testid=rummikub-table][data-my-turn=true]')",
            timeout,
        )
    except AssertionError:
        shot(page, "rummikub-failed-waiting")
        raise


def moves(page: Any) -> int:
    return int(page.get_attribute("[data-testid=play]", "data-moves") or -1)


def box(page: Any, selector: str) -> dict[str, float]:
    for _ in range(100):
        found = page.locator(selector).first.bounding_box()
        if found:
            return found  # type: ignore[no-any-return]
        page.wait_for_timeout(50)
    raise AssertionError(f"no box for {selector}")


def drag(page: Any, source: str, target: str) -> None:
    """Drag with the mouse: press on the tile, move in steps, release over the target."""
    page.locator(source).first.hover()
    page.mouse.down()
    start = box(page, source)
    page.mouse.move(start["x"] + 20, start["y"] + 4, steps=3)
    end = box(page, target)
    page.mouse.move(end["x"] + end["width"] - 6, end["y"] + end["height"] / 2, steps=8)
    page.mouse.up()
    page.wait_for_timeout(80)


def hand(code: str) -> str:
    return f"[data-testid=hand-tile][data-code='{code}']"


def meld(n: int) -> str:
    return f"[data-testid=meld] >> nth={n}"


def melds(page: Any) -> list[list[str]]:
    return page.evaluate(  # type: ignore[no-any-return]
        """[...document.querySelectorAll('[data-testid=meld]')].map(m =>
             [...m.querySelectorAll('[data-testid=table-tile]')].map(t => t.dataset.code))"""
    )


def states(page: Any) -> list[str]:
    """Each meld's validity once the engine has answered for the layout shown."""
    wait_until(page, "!document.querySelector('[data-testid=meld][data-state=pending]')", 20)
    return page.eval_on_selector_all("[data-testid=meld]", "els => els.map(e => e.dataset.state)")  # type: ignore[no-any-return]


def build_initial_meld_by_drag(page: Any) -> None:
    drag(page, hand("R4"), "[data-testid=new-meld]")
    drag(page, hand("R5"), meld(0))
    drag(page, hand("R6"), meld(0))
    drag(page, hand("K8"), "[data-testid=new-meld]")
    drag(page, hand("R8"), meld(1))
    drag(page, hand("B8"), meld(1))


def test_drag_refusal_undo_reset_done_bot_and_reload(new_context: Any, app_url: str) -> None:
    page = new_context().new_page()
    start(page, app_url)
    assert "30" in page.inner_text("[data-testid=initial-meld]")
    # the rack reorders by dragging inside it, and sorts by number groups
    first = "[data-testid=hand-tile] >> nth=0"
    drag(page, hand("Y11"), first)
    order = page.eval_on_selector_all(
        "[data-testid=hand-tile]", "els => els.map(e => e.dataset.code)"
    )
    assert order.index("Y11") < order.index("B11")
    page.click("[data-testid=sort-number]")
    order = page.eval_on_selector_all(
        "[data-testid=hand-tile]", "els => els.map(e => e.dataset.code)"
    )
    assert order[:2] == ["B1", "K2"] and order[-2:] == ["B11", "Y11"]
    # a meld of one tile: invalid at once, and Done explains without losing anything
    drag(page, hand("R4"), "[data-testid=new-meld]")
    assert melds(page) == [["R4"]]
    assert states(page) == ["invalid"]
    assert "at least 3" in page.inner_text("[data-testid=meld-badge]")
    page.click("[data-testid=done]")
    message = page.wait_for_selector("[data-testid=meld-message]").inner_text()
    assert "Meld 1 is not valid" in message
    assert moves(page) == 0 and melds(page) == [["R4"]]
    # a valid run that is worth too little: the initial meld's value against 30
    drag(page, hand("R5"), meld(0))
    drag(page, hand("R6"), meld(0))
    assert melds(page) == [["R4", "R5", "R6"]] and states(page) == ["valid"]
    assert "15 of 30" in page.inner_text("[data-testid=initial-meld]")
    page.click("[data-testid=done]")
    wait_until(
        page,
        "document.querySelector('[data-testid=meld-message]')?.textContent.includes('worth 15')",
    )
    shot(page, "rummikub-01-refused")
    # undo a step, then reset the whole turn
    page.click("[data-testid=undo-step]")
    assert melds(page) == [["R4", "R5"]]
    page.click("[data-testid=reset-turn]")
    assert melds(page) == [] and page.locator(hand("R4")).count() == 1
    # the real thing
    build_initial_meld_by_drag(page)
    assert melds(page) == [["R4", "R5", "R6"], ["K8", "R8", "B8"]]
    assert states(page) == ["valid", "valid"]
    assert "39 of 30" in page.inner_text("[data-testid=initial-meld]")
    shot(page, "rummikub-02-initial-meld")
    page.click("[data-testid=done]")
    # the bot plays; then it is our turn again with our melds on the table
    wait_until(page, "Number(document.querySelector('[data-testid=play]')?.dataset.moves) >= 2", 90)
    my_turn(page)
    table = melds(page)
    assert ["R4", "R5", "R6"] in table and ["K8", "R8", "B8"] in table
    assert page.locator("[data-testid=hand-tile]").count() == 8
    # reload mid-game: the same table comes back
    before = melds(page)
    page.reload()
    wait_ready(page)
    my_turn(page)
    assert melds(page) == before


def test_tap_select_on_a_phone(new_context: Any, app_url: str) -> None:
    context = new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    start(page, app_url)
    shot(page, "rummikub-03-phone-start")
    page.tap(hand("R4"))
    page.wait_for_selector("[data-testid=new-meld].mt-target")
    page.tap("[data-testid=new-meld]")
    for code in ("R5", "R6"):
        page.tap(hand(code))
        if code == "R6":
            shot(page, "rummikub-03b-phone-picked")
        page.tap(f"{meld(0)} >> [data-testid=gap] >> nth=-1")
    page.tap(hand("K8"))
    page.tap("[data-testid=new-meld]")
    for code in ("R8", "B8"):
        page.tap(hand(code))
        page.tap(f"{meld(1)} >> [data-testid=gap] >> nth=-1")
    assert melds(page) == [["R4", "R5", "R6"], ["K8", "R8", "B8"]]
    assert states(page) == ["valid", "valid"]
    # a tile picked up from the table can go back to the rack
    page.tap(f"{meld(1)} >> [data-testid=table-tile] >> nth=2")
    page.tap("[data-testid=back-to-hand]")
    assert melds(page)[1] == ["K8", "R8"]
    page.tap("[data-testid=undo-step]")
    assert melds(page)[1] == ["K8", "R8", "B8"]
    shot(page, "rummikub-04-phone-built")
    page.tap("[data-testid=done]")
    wait_until(page, "Number(document.querySelector('[data-testid=play]')?.dataset.moves) >= 1", 60)


def touch(cdp: Any, kind: str, x: float | None = None, y: float | None = None) -> None:
    """One touch event through the DevTools protocol (Playwright's touchscreen only taps)."""
    points = [] if kind == "touchEnd" else [{"x": x, "y": y}]
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})


def rack_codes(page: Any) -> list[str]:
    codes = "els => els.map(e => e.dataset.code)"
    return page.eval_on_selector_all("[data-testid=hand-tile]", codes)  # type: ignore[no-any-return]


def center(page: Any, selector: str) -> tuple[float, float]:
    found = box(page, selector)
    return found["x"] + found["width"] / 2, found["y"] + found["height"] / 2


def test_touch_swipe_scrolls_and_long_press_drags(new_context: Any, app_url: str) -> None:
    """On a phone a swipe over the rack scrolls the page; a long press lifts a tile to drag it."""
    # a short phone screen (browser bars shown), so that the turn's page is taller than it
    context = new_context(viewport={"width": 375, "height": 480}, has_touch=True, is_mobile=True)
    page = context.new_page()
    start(page, app_url)
    cdp = context.new_cdp_session(page)
    scroll_y = "window.scrollY"
    assert page.evaluate("document.documentElement.scrollHeight - innerHeight") > 60
    rack = rack_codes(page)

    # a quick swipe up that starts on a rack tile scrolls the page and moves nothing (from the
    # page's top: at the first turn the page brought the rack whole into view)
    page.evaluate("window.scrollTo(0, 0)")
    x, y = center(page, hand("R4"))
    assert y < 480 and page.evaluate(scroll_y) == 0
    touch(cdp, "touchStart", x, y)
    for i in range(1, 11):
        page.wait_for_timeout(16)
        touch(cdp, "touchMove", x, y - 18 * i)
    touch(cdp, "touchEnd")
    wait_until(page, "window.scrollY > 20", 5)
    page.wait_for_timeout(400)  # no click, no lift comes late
    assert melds(page) == []
    assert rack_codes(page) == rack
    assert page.locator(".mt-tile.mt-selected, .mt-tile.mt-lifted, .mt-ghost").count() == 0

    # a long press lifts the tile, then the finger drags it onto "New meld"; the page stays put
    scrolled = page.evaluate(scroll_y)
    x, y = center(page, hand("R5"))
    touch(cdp, "touchStart", x, y)
    page.wait_for_timeout(450)
    lifted = "[data-testid=hand-tile][data-code='R5'].mt-lifted"
    wait_until(page, f"document.querySelectorAll({lifted!r}).length === 1", 5)
    shot(page, "rummikub-05-phone-long-press")
    nx, ny = center(page, "[data-testid=new-meld]")
    seen = set()
    for i in range(1, 13):
        touch(cdp, "touchMove", x + (nx - x) * i / 12, y + (ny - y) * i / 12)
        page.wait_for_timeout(16)
        seen.add(page.evaluate(scroll_y))
    assert seen == {scrolled}
    page.wait_for_selector("[data-testid=new-meld].mt-over")
    assert page.locator(".mt-ghost").count() == 1
    shot(page, "rummikub-05b-phone-touch-drag")
    assert page.evaluate(scroll_y) == scrolled
    touch(cdp, "touchEnd")
    wait_until(page, "document.querySelectorAll('[data-testid=meld]').length === 1", 5)
    assert melds(page) == [["R5"]]
    assert page.locator(hand("R5")).count() == 0
    assert page.locator(".mt-ghost, .mt-tile.mt-lifted, .mt-tile.mt-dragging").count() == 0
    # (the page got shorter: the table's "empty" note went, so the scroll may be clamped; on a
    # loaded machine the browser clamps it a frame or more after the new layout)
    wait_until(
        page,
        f"window.scrollY === Math.min({scrolled}, "
        "document.documentElement.scrollHeight - innerHeight)",
        5,
    )

    # lifted and let go in place, a tile stays picked up (as after a tap); a tap then places it
    x, y = center(page, hand("R6"))
    touch(cdp, "touchStart", x, y)
    page.wait_for_timeout(450)
    touch(cdp, "touchEnd")
    page.wait_for_timeout(200)
    assert page.get_attribute(hand("R6"), "aria-pressed") == "true"
    page.tap(f"{meld(0)} >> [data-testid=gap] >> nth=-1")
    assert melds(page) == [["R5", "R6"]]
    # the engine's answer redraws the table while a tile is held: the drag goes on
    states(page)
    page.tap(hand("R8"))
    # "New meld" (the engine is asked ~120 ms later), and a mark on K8 as drawn now
    x, y = page.evaluate(
        """() => { document.querySelector('[data-testid=new-meld]').click();
                   const tile = document.querySelector("[data-testid=hand-tile][data-code='K8']");
                   tile.dataset.probe = 'old';
                   const r = tile.getBoundingClientRect();
                   return [r.x + r.width / 2, r.y + r.height / 2]; }"""
    )
    touch(cdp, "touchStart", x, y)
    page.wait_for_timeout(450)
    # redrawn (no mark), still up: the engine's answer may come after the lift on a loaded machine
    redrawn = "[data-testid=hand-tile][data-code='K8'].mt-lifted:not([data-probe])"
    wait_until(page, f"document.querySelectorAll({redrawn!r}).length === 1", 10)
    tx, ty = center(page, f"{meld(1)} >> [data-testid=table-tile]")
    for i in range(1, 9):
        touch(cdp, "touchMove", x + (tx + 12 - x) * i / 8, y + (ty - y) * i / 8)
        page.wait_for_timeout(16)
    touch(cdp, "touchEnd")
    wait_until(page, "document.querySelectorAll('[data-testid=table-tile]').length === 4", 5)
    assert melds(page) == [["R5", "R6"], ["R8", "K8"]]
    assert page.locator(".mt-ghost, .mt-lifted, .mt-dragging, .mt-over").count() == 0
    # a swipe that starts on a table tile scrolls too (back up)
    before = page.evaluate(scroll_y)
    assert before > 20
    x, y = center(page, f"{meld(0)} >> [data-testid=table-tile] >> nth=0")
    touch(cdp, "touchStart", x, y)
    for i in range(1, 11):
        page.wait_for_timeout(16)
        touch(cdp, "touchMove", x, y + 18 * i)
    touch(cdp, "touchEnd")
    wait_until(page, f"window.scrollY < {before}", 5)
    assert melds(page) == [["R5", "R6"], ["R8", "K8"]]
    shot(page, "rummikub-05c-phone-after-touch")


def test_keyboard_turn(new_context: Any, app_url: str) -> None:
    page = new_context().new_page()
    start(page, app_url)

    def pick_and_place(code: str, target: str) -> None:
        page.focus(hand(code))
        page.keyboard.press("Enter")
        page.wait_for_selector("[data-testid=new-meld].mt-target")
        page.focus(target)
        page.keyboard.press("Enter")
        page.wait_for_timeout(50)

    pick_and_place("R4", "[data-testid=new-meld]")
    pick_and_place("R5", f"{meld(0)} >> [data-testid=gap] >> nth=-1")
    pick_and_place("R6", f"{meld(0)} >> [data-testid=gap] >> nth=-1")
    pick_and_place("K8", "[data-testid=new-meld]")
    pick_and_place("R8", f"{meld(1)} >> [data-testid=gap] >> nth=-1")
    # Escape puts a picked tile down; arrows move between tiles
    page.focus(hand("B8"))
    page.keyboard.press("Enter")
    page.keyboard.press("Escape")
    assert page.locator(".mt-selected").count() == 0
    pick_and_place("B8", f"{meld(1)} >> [data-testid=gap] >> nth=0")
    assert melds(page) == [["R4", "R5", "R6"], ["B8", "K8", "R8"]]
    assert states(page) == ["valid", "valid"]
    page.focus("[data-testid=done]")
    page.keyboard.press("Enter")
    wait_until(page, "Number(document.querySelector('[data-testid=play]')?.dataset.moves) >= 1", 60)


def test_hint_applied_big_table_and_pictures(new_context: Any, app_url: str) -> None:
    page = new_context().new_page()
    start(page, app_url, BIG)
    for turn in range(5):
        my_turn(page)
        page.click("[data-testid=hint]")
        panel = page.wait_for_selector("[data-testid=hint-panel]", timeout=60_000)
        before = moves(page)
        if page.locator("[data-testid=use-hint]").count():
            if turn == 0:
                shot(page, "rummikub-05-hint")
            page.click("[data-testid=use-hint]")
            page.wait_for_selector("[data-testid=hint-panel]", state="detached")  # it closes
            assert all(s == "valid" for s in states(page))
            page.click("[data-testid=done]")
        else:
            assert panel.inner_text()
            page.click("[data-testid=draw]")
        wait_until(
            page,
            f"Number(document.querySelector('[data-testid=play]')?.dataset.moves) > {before}",
            60,
        )
        wait_until(
            page,
            "document.querySelector('[data-testid=rummikub-table][data-my-turn=true], "
            "[data-testid=game-over]')",
            90,
        )
        if page.locator("[data-testid=game-over]").count():
            shot(page, "rummikub-11-game-over")
            return
    assert len(melds(page)) >= 4
    shot(page, "rummikub-06-desktop-mid-game")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(300)
    shot(page, "rummikub-07-phone-mid-game")
    page.screenshot(path=str(SHOTS / "rummikub-08-phone-full.png"), full_page=True)


def test_spanish(new_context: Any, app_url: str) -> None:
    page = new_context(locale="es-ES").new_page()
    start(page, app_url)
    assert "Robar ficha" in page.inner_text("[data-testid=draw]")
    drag(page, hand("R4"), "[data-testid=new-meld]")
    assert "mínimo 3" in page.inner_text("[data-testid=meld-badge]")
    page.click("[data-testid=done]")
    message = page.wait_for_selector("[data-testid=meld-message]").inner_text()
    assert "La jugada 1 no vale" in message
    shot(page, "rummikub-09-spanish")
    page.goto(app_url + "#/new/rummikub")
    page.wait_for_selector("[data-testid=new-game-form]")
    assert "La primera bajada vale al menos" in page.inner_text("[data-testid=new-game-form]")
    shot(page, "rummikub-10-new-game-es")


def test_auto_arrange_and_timer(new_context: Any, app_url: str) -> None:
    page = new_context().new_page()
    # a turn long enough for six drags and the arrange on a loaded machine, and then it runs out
    start(page, app_url, LINK + "&opt=turn_timer_s:30")
    assert page.inner_text("[data-testid=timer]").strip().endswith("s")
    # tiles thrown on the table any old way; the engine arranges them into valid melds
    drag(page, hand("R4"), "[data-testid=new-meld]")
    drag(page, hand("K8"), meld(0))
    drag(page, hand("R6"), meld(0))
    drag(page, hand("B8"), "[data-testid=new-meld]")
    drag(page, hand("R5"), meld(1))
    drag(page, hand("R8"), meld(1))
    assert states(page) == ["invalid", "invalid"]
    # Auto-arrange with nothing more marked: the tiles already laid out are arranged
    page.click("[data-testid=arrange]")
    page.click("[data-testid=arrange-these]")
    wait_until(
        page, "document.querySelector('[data-testid=note]')?.textContent.includes('every tile')"
    )
    assert sorted(melds(page)) == [["K8", "R8", "B8"], ["R4", "R5", "R6"]] or sorted(
        sorted(m) for m in melds(page)
    ) == [["B8", "K8", "R8"], ["R4", "R5", "R6"]]
    assert states(page) == ["valid", "valid"]
    # then the timer runs out: the table is restored and a penalty tile drawn
    wait_until(page, "Number(document.querySelector('[data-testid=play]')?.dataset.moves) >= 1", 60)
    record = wait_saved_moves(page, 1)
    assert record["moves"][0] == {"seat": 0, "move": "timeout"}


def test_timer_survives_a_reload(new_context: Any, app_url: str) -> None:
    """A reload does not give a fresh turn: the countdown goes on from where it was."""
    page = new_context().new_page()
    start(page, app_url, LINK + "&opt=turn_timer_s:60")

    def seconds_left() -> int:
        return int(page.inner_text("[data-testid=timer]").split()[0])

    assert seconds_left() >= 58
    page.wait_for_timeout(4_000)
    page.reload()
    wait_ready(page)
    my_turn(page)
    assert moves(page) == 0
    left = seconds_left()
    assert 40 <= left <= 56, left
    shot(page, "rummikub-timer-after-reload")


# Seat 0 starts with both jokers: K3 K4 K5 K10 K11 R2 R4 R8 B3 B13 Y3 Y5 * * (no minimum).
JOKERS = "#/rummikub?seed=JJ28&players=2&bots=1:easy&opt=initial_meld_threshold:0"


def test_one_tile_and_two_jokers_as_a_group(new_context: Any, app_url: str) -> None:
    """R8 * * reads as a run unless the player says group: then it goes as {"group": [...]}."""
    page = new_context().new_page()
    start(page, app_url, JOKERS)
    drag(page, hand("R8"), "[data-testid=new-meld]")
    drag(page, hand("*"), meld(0))
    drag(page, hand("*"), meld(0))
    assert melds(page) == [["R8", "*", "*"]] and states(page) == ["valid"]
    assert "run" in page.inner_text("[data-testid=meld-badge]")
    assert page.get_attribute("[data-testid=meld-kind-run]", "aria-pressed") == "true"
    page.click("[data-testid=meld-kind-group]")
    wait_until(
        page,
        "document.querySelector('[data-testid=meld-badge]')?.textContent.includes('group')",
    )
    assert page.get_attribute("[data-testid=meld-kind-group]", "aria-pressed") == "true"
    # no minimum to reach: the line gives the value without "of 0"
    line = page.inner_text("[data-testid=initial-meld]")
    assert "no minimum" in line and "of 0" not in line, line
    shot(page, "rummikub-jokers-group")
    # undo takes the choice back; choosing again and Done sends the group
    page.click("[data-testid=undo-step]")
    wait_until(
        page, "document.querySelector('[data-testid=meld-badge]')?.textContent.includes('run')"
    )
    page.click("[data-testid=meld-kind-group]")
    wait_until(
        page,
        "document.querySelector('[data-testid=meld-badge]')?.textContent.includes('group')",
    )
    page.click("[data-testid=done]")
    wait_until(page, "Number(document.querySelector('[data-testid=play]')?.dataset.moves) >= 1")
    record = wait_saved_moves(page, 1)
    assert record["moves"][0]["move"]["play"]["table"] == [{"group": ["R8", "*", "*"]}]
    # next turn: the group stands as it is (sent back as a group, not read as a new run)
    my_turn(page)
    table = melds(page)
    if ["R8", "*", "*"] in table:  # unless the bot took it apart
        at = table.index(["R8", "*", "*"])
        drag(page, "[data-testid=hand-tile] >> nth=0", "[data-testid=new-meld]")
        states(page)
        kept = page.get_attribute(meld(at), "class") or ""
        assert "mt-kept" in kept, kept


def test_ambiguous_meld_choice_on_a_phone_in_spanish(new_context: Any, app_url: str) -> None:
    context = new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="es-ES")
    page = context.new_page()
    start(page, app_url, JOKERS)
    page.tap(hand("Y5"))
    page.wait_for_selector("[data-testid=new-meld].mt-target")
    page.tap("[data-testid=new-meld]")
    settled = "!document.querySelector('[data-testid=meld][data-state=pending]')"
    for placed in (2, 3):
        # The meld's live check redraws the rack when it answers: tap only once it has, or
        # the tap lands on whichever tile has moved under the finger.
        wait_until(
            page,
            f"{settled} && document.querySelectorAll("
            f"'[data-testid=meld] [data-testid=table-tile]').length === {placed - 1}",
        )
        page.tap(hand("*"))
        page.wait_for_selector("[data-testid=hand-tile].mt-selected[data-code='*']")
        page.tap(f"{meld(0)} >> [data-testid=gap] >> nth=-1")
    wait_until(page, settled)
    assert melds(page) == [["Y5", "*", "*"]]
    states(page)
    page.tap("[data-testid=meld-kind-group]")
    wait_until(
        page,
        "document.querySelector('[data-testid=meld-badge]')?.textContent.includes('serie')",
    )
    assert page.inner_text("[data-testid=meld-kind-run]") == "escalera"
    assert "sin mínimo" in page.inner_text("[data-testid=initial-meld]")
    shot(page, "rummikub-jokers-group-phone-es")


def marked(page: Any) -> list[str]:
    """The rack tiles marked for auto-arrange (each shows a check mark)."""
    return page.eval_on_selector_all(  # type: ignore[no-any-return]
        "[data-testid=hand-tile].mt-chosen",
        "els => els.map(e => e.querySelector('.mt-check') ? e.dataset.code : '?' + e.dataset.code)",
    )


def note_has(page: Any, text: str) -> None:
    wait_until(
        page,
        f"document.querySelector('[data-testid=note]')?.textContent.includes({json.dumps(text)})",
        60,
    )


INITIAL = [["K8", "R8", "B8"], ["R4", "R5", "R6"]]


def sorted_melds(page: Any) -> list[list[str]]:
    return sorted(sorted(m) for m in melds(page))


def test_auto_arrange_marked_tiles_with_the_mouse(new_context: Any, app_url: str) -> None:
    """Auto-arrange: mark rack tiles, the engine finds a table with exactly them; or says none."""
    page = new_context().new_page()
    start(page, app_url)
    page.click("[data-testid=arrange]")
    page.wait_for_selector("[data-testid=arrange-these]")
    for code in ("R4", "R5", "R6", "K8", "R8", "B8"):
        page.click(hand(code))
    page.click(hand("R5"))  # a second click unmarks
    page.click(hand("R5"))
    assert sorted(marked(page)) == ["B8", "K8", "R4", "R5", "R6", "R8"]
    assert page.get_attribute(hand("R4"), "aria-pressed") == "true"
    assert melds(page) == []  # marking moves nothing
    assert "6 marked" in page.inner_text("[data-testid=arrange-count]")
    shot(page, "rummikub-12-arrange-marked")
    page.click("[data-testid=arrange-these]")
    note_has(page, "every tile")
    assert sorted_melds(page) == [["B8", "K8", "R8"], ["R4", "R5", "R6"]]
    assert states(page) == ["valid", "valid"]
    assert page.locator("[data-testid=arrange-these]").count() == 0  # the mode is over
    assert "39 of 30" in page.inner_text("[data-testid=initial-meld]")
    shot(page, "rummikub-13-arranged")
    # Undo step takes the arrangement back like any change
    page.click("[data-testid=undo-step]")
    assert melds(page) == [] and page.locator(hand("R4")).count() == 1
    # tiles no valid table can take: a message, nothing changes, the marks stay
    page.click("[data-testid=arrange]")
    page.click(hand("B1"))
    page.click(hand("Y11"))
    page.click("[data-testid=arrange-these]")
    note_has(page, "No valid table includes these tiles")
    assert melds(page) == [] and sorted(marked(page)) == ["B1", "Y11"]
    assert page.locator("[data-testid=hand-tile]").count() == 14
    shot(page, "rummikub-14-arrange-none")
    # Cancel leaves the mode: tiles pick up and move again
    page.click("[data-testid=arrange-cancel]")
    assert marked(page) == [] and page.locator("[data-testid=arrange]").count() == 1
    drag(page, hand("R4"), "[data-testid=new-meld]")
    assert melds(page) == [["R4"]]
    # a tile laid out already counts with the marked ones
    page.click("[data-testid=arrange]")
    for code in ("R5", "R6", "K8", "R8", "B8"):
        page.click(hand(code))
    page.click("[data-testid=arrange-these]")
    note_has(page, "every tile")
    assert sorted_melds(page) == [["B8", "K8", "R8"], ["R4", "R5", "R6"]]
    page.click("[data-testid=done]")
    wait_until(page, "Number(document.querySelector('[data-testid=play]')?.dataset.moves) >= 1", 60)


def test_auto_arrange_with_the_keyboard(new_context: Any, app_url: str) -> None:
    page = new_context().new_page()
    start(page, app_url)
    page.focus("[data-testid=arrange]")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=arrange-these]")
    for code in ("R4", "R5", "R6", "K8", "R8", "B8"):
        page.focus(hand(code))
        page.keyboard.press("Space")
    page.focus(hand("B1"))
    page.keyboard.press("Space")
    page.keyboard.press("Space")  # Space again unmarks
    assert sorted(marked(page)) == ["B8", "K8", "R4", "R5", "R6", "R8"]
    # arrows still move between the rack tiles
    page.focus(hand("R4"))
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("document.activeElement.dataset.code")
    assert focused and focused != "R4"
    page.focus("[data-testid=arrange-these]")
    page.keyboard.press("Enter")
    note_has(page, "every tile")
    assert sorted_melds(page) == [["B8", "K8", "R8"], ["R4", "R5", "R6"]]
    # the step is undoable once the button is enabled; the table is redrawn after the key
    wait_until(page, "!document.querySelector('[data-testid=undo-step]').disabled", 10)
    page.focus("[data-testid=undo-step]")
    page.keyboard.press("Enter")
    wait_until(page, "document.querySelectorAll('[data-testid=meld]').length === 0", 10)
    assert melds(page) == []
    page.focus("[data-testid=arrange]")
    page.keyboard.press("Enter")
    page.focus(hand("K2"))
    page.keyboard.press("Space")
    page.focus("[data-testid=arrange-these]")
    page.keyboard.press("Enter")
    note_has(page, "No valid table includes these tiles")
    assert melds(page) == []
    page.focus("[data-testid=arrange-cancel]")
    page.keyboard.press("Enter")
    assert page.locator("[data-testid=arrange]").count() == 1 and marked(page) == []


def test_auto_arrange_on_a_phone_in_spanish(new_context: Any, app_url: str) -> None:
    context = new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="es-ES")
    page = context.new_page()
    start(page, app_url)
    page.tap("[data-testid=arrange]")
    page.wait_for_selector("[data-testid=arrange-these]")
    for code in ("B1", "Y11", "K9"):
        page.tap(hand(code))
    assert sorted(marked(page)) == ["B1", "K9", "Y11"]
    shot(page, "rummikub-15-phone-arrange-marked-es")
    page.tap("[data-testid=arrange-these]")
    note_has(page, "Ninguna mesa válida incluye estas fichas")
    assert melds(page) == []
    shot(page, "rummikub-16-phone-arrange-none-es")
    for code in ("B1", "Y11", "K9"):
        page.tap(hand(code))
    for code in ("R4", "R5", "R6", "K8", "R8", "B8"):
        page.tap(hand(code))
    page.tap("[data-testid=arrange-these]")
    note_has(page, "todas las fichas")
    assert sorted_melds(page) == [["B8", "K8", "R8"], ["R4", "R5", "R6"]]
    shot(page, "rummikub-17-phone-arranged-es")


def test_a_rearranging_turn(new_context: Any, app_url: str) -> None:
    """After melding, a turn takes K3 out of the run K3 K4 K5 * for a group with the rack's B3
    and Y3: a tile moved from one table meld to another, with rack tiles; the engine accepts."""
    page = new_context().new_page()
    start(page, app_url, JOKERS)
    drag(page, hand("K3"), "[data-testid=new-meld]")
    for code in ("K4", "K5", "*"):
        drag(page, hand(code), meld(0))
    assert melds(page) == [["K3", "K4", "K5", "*"]] and states(page) == ["valid"]
    page.click("[data-testid=done]")
    wait_until(page, "Number(document.querySelector('[data-testid=play]')?.dataset.moves) >= 2", 90)
    my_turn(page)
    table = melds(page)
    run = next(i for i, m in enumerate(table) if m[:3] == ["K3", "K4", "K5"])
    before = moves(page)
    drag(page, f"{meld(run)} >> [data-testid=table-tile] >> nth=0", "[data-testid=new-meld]")
    last = len(melds(page)) - 1
    drag(page, hand("B3"), meld(last))
    drag(page, hand("Y3"), meld(last))
    after = melds(page)
    assert after[run][:2] == ["K4", "K5"] and sorted(after[last]) == ["B3", "K3", "Y3"]
    assert all(s == "valid" for s in states(page))
    shot(page, "rummikub-18-rearranged")
    page.click("[data-testid=done]")
    wait_until(
        page,
        f"Number(document.querySelector('[data-testid=play]')?.dataset.moves) > {before}",
        60,
    )
    record = wait_saved_moves(page, before + 1)
    play = record["moves"][before]
    assert play["seat"] == 0 and sorted(play["move"]["play"]["from_hand"]) == ["B3", "Y3"]
    tables = [sorted(m) if isinstance(m, list) else m for m in play["move"]["play"]["table"]]
    assert ["B3", "K3", "Y3"] in tables
