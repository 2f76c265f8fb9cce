"""The small things a player notices (issue 18): the bots' pace switch on the table, Wizard's seat
plates on a phone and the first-dealer draw clear of them, Rummikub's stale "no play" hint, its
hint panel leaving the rack on screen, and its game-over score sheet."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from a11y_helpers import Audit, axe_script
from devices_helpers import join_link
from records import bot_record, final_view, record_until
from ui_helpers import moves_made, plant_game, shot, wait_ready, wait_until

DATA = Path(__file__).resolve().parent / "data"
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 768, "height": 1024}
DESKTOP = {"width": 1280, "height": 800}
# phones held sideways: a large one and a small one
SIDEWAYS = ({"width": 844, "height": 390}, {"width": 667, "height": 375})
WIZARD4 = "#/wizard?seed=WZD1&players=4&bots=1:normal,2:normal,3:normal"

# Every drawn or trick card that lies over a seat's plate by more than a pixel each way, once the
# cards' slide-in is over (the plates sit above the cards: a card under one cannot be read).
OVERLAPS = """() => {
  if (document.getAnimations().some((a) => a.playState === 'running'
      && a.effect?.target?.matches?.('.draw-card, .trick-card'))) return null;
  const boxes = (selector) => [...document.querySelectorAll(selector)]
    .map((el) => [el, el.getBoundingClientRect()]);
  const out = [];
  for (const [card, a] of boxes('.draw-card, .trick-card')) {
    for (const [seat, b] of boxes('.seat')) {
      const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      const what = `${card.dataset.card}@${card.dataset.seat} x ${seat.dataset.seat}`;
      if (x > 1 && y > 1) out.push(what);
    }
  }
  return {out};
}"""


def overlaps(page: Any) -> list[str]:
    found: list[str] = wait_until(page, f"({OVERLAPS})()")["out"]
    return found


# Whether the element a selector finds lies whole on the screen (a QR code to scan, a hand).
WHOLE = """(selector) => {
  const r = document.querySelector(selector).getBoundingClientRect();
  return r.width > 0 && r.top >= 0 && r.bottom <= innerHeight
    && r.left >= 0 && r.right <= innerWidth;
}"""


# Every seat's plate that reaches past the felt's inner edge (the felt hides what lies beyond
# it: at 768 px a side plate's numbers were cut off there).
OFF_FELT = """() => {
  const felt = document.querySelector('.felt');
  const r = felt.getBoundingClientRect();
  const inner = {left: r.left + felt.clientLeft, top: r.top + felt.clientTop};
  inner.right = inner.left + felt.clientWidth;
  inner.bottom = inner.top + felt.clientHeight;
  return [...document.querySelectorAll('.seat')].filter((seat) => {
    const b = seat.getBoundingClientRect();
    return b.left < inner.left - 1 || b.right > inner.right + 1
      || b.top < inner.top - 1 || b.bottom > inner.bottom + 1;
  }).map((seat) => seat.dataset.testid);
}"""


def off_felt(page: Any) -> list[str]:
    found: list[str] = page.evaluate(f"({OFF_FELT})()")
    return found


def test_the_pace_switch_is_on_the_table(new_context: Any, app_url: str) -> None:
    page = new_context(fast=False).new_page()
    page.goto(app_url + WIZARD4)
    wait_ready(page)
    page.wait_for_selector("[data-testid=pace-toggle][aria-pressed=false]")
    assert "Fast bots" in page.inner_text("[data-testid=pace-toggle]")
    page.click("[data-testid=pace-toggle]")
    page.wait_for_selector("[data-testid=pace-toggle][aria-pressed=true]")
    settings = json.loads(page.evaluate("localStorage.getItem('tapete.settings')"))
    assert settings["fastBots"] is True
    assert page.is_checked("[data-testid=fast-bots]")  # the ⚙ menu says the same
    shot(page, "polish-01-pace-switch-desktop")
    page.reload()
    page.wait_for_selector("[data-testid=pace-toggle][aria-pressed=true]")
    # the ⚙ menu's box turns it off again, and the table's switch follows
    page.click("[data-testid=settings] summary")
    page.click("[data-testid=fast-bots]")
    page.wait_for_selector("[data-testid=pace-toggle][aria-pressed=false]")
    page.select_option("[data-testid=lang-select]", "es")
    page.wait_for_selector("[data-testid=pace-toggle]:has-text('Bots rápidos')")


def test_wizard_plates_keep_their_numbers_and_no_card_hides_under_one(
    new_context: Any, app_url: str
) -> None:
    context = new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(app_url + WIZARD4)
    wait_ready(page)
    page.wait_for_selector("[data-testid=draw-card]")
    assert overlaps(page) == []
    page.wait_for_selector("[data-testid=table][data-my-turn=true]")
    assert overlaps(page) == []  # the bid buttons leave the felt less height
    assert off_felt(page) == []
    shot(page, "polish-02-first-dealer-draw-desktop")
    page.set_viewport_size(TABLET)
    assert overlaps(page) == []
    assert off_felt(page) == []
    shot(page, "polish-02b-first-dealer-draw-tablet")
    page.set_viewport_size(PHONE)
    assert overlaps(page) == []
    assert off_felt(page) == []
    for seat in (1, 2, 3):
        count = page.locator(f"[data-testid=seat-{seat}] .seat-hand")
        assert count.is_visible(), seat
        assert count.inner_text().strip() == "×1"
    shot(page, "polish-03-first-dealer-draw-phone")
    # a trick with every other seat's card on it, on the phone
    page.click("[data-testid=first-dealer-ok]")
    for _ in range(60):
        table = page.wait_for_selector(
            "[data-testid=round-continue], [data-testid=table][data-my-turn=true]"
        )
        if table.get_attribute("data-testid") == "round-continue":
            table.click()
            continue
        trick = (table.get_attribute("data-trick") or "").split()
        if table.get_attribute("data-phase") == "play" and len(trick) == 3:
            break
        made = moves_made(page)
        page.click(
            "[data-testid=bid].legal"
            if table.get_attribute("data-phase") == "bid"
            else "[data-testid=trump-choice].legal, [data-testid=hand-card].legal"
        )
        # the move is recorded (the table's "not my turn" can be too short to be seen when the
        # next turn is ours again: a trick won, then our lead)
        wait_until(
            page, f"Number(document.querySelector('[data-testid=play]')?.dataset.moves) > {made}"
        )
    else:
        raise AssertionError("no trick with three cards before us")
    assert overlaps(page) == []
    shot(page, "polish-04-trick-phone")


# The whole Wizard table on the screen, nothing hidden: the page does not scroll, and the felt,
# the side column's controls and the hand lie inside the window.
ON_SCREEN = """() => {
  const box = (selector) => document.querySelector(selector).getBoundingClientRect();
  const inside = (r) => r.left >= -1 && r.top >= -1 && r.right <= innerWidth + 1
    && r.bottom <= innerHeight + 1;
  const felt = box('.felt');
  const side = ['.table-info', '.actions', '.hand', '.table-bar'].filter((s) => !inside(box(s)));
  const cards = [...document.querySelectorAll('.hand-card, .bid-button')]
    .filter((el) => !inside(el.getBoundingClientRect())).length;
  // a plate whose words or numbers reach past its edge (one-line numbers on a phone's plate)
  const plates = [...document.querySelectorAll('.seat')].filter((seat) => {
    const b = seat.getBoundingClientRect();
    return [...seat.querySelectorAll('*')].some((el) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && (r.left < b.left - 1 || r.right > b.right + 1);
    });
  }).map((seat) => seat.dataset.testid);
  return {scrolls: document.documentElement.scrollHeight > innerHeight + 1,
          felt: inside(felt), beside: box('.hand').left >= felt.right, side, cards, plates};
}"""


def test_wizard_fits_a_phone_held_sideways(new_context: Any, app_url: str) -> None:
    """The last round of a four-player game (15 cards in hand, 16 bids to choose from), then a
    trick in it, at two sizes of a phone held sideways: the felt on the left, the hand and the
    controls beside it, all on the screen; the plates on the felt and the trick's cards clear of
    them. (Before, the page was twice the screen's height and scrolled to the hand.)"""
    levels = ("easy", "easy", "easy")

    def last_round(phase: str) -> Any:
        return lambda view, seat: view["round"] == 15 and seat == 0 and view["phase"] == phase

    bidding = record_until("wizard", "SIDE1", levels, last_round("bid"))
    playing = record_until(
        "wizard",
        "SIDE1",
        levels,
        lambda view, seat: last_round("play")(view, seat) and len(view["trick"]) == 3,
    )
    for size in (*SIDEWAYS, {"width": 1280, "height": 500}):  # and a short browser window
        context = new_context(viewport=size, has_touch=True)
        page = context.new_page()
        page.goto(app_url)
        wait_ready(page)
        for record, what in ((bidding, "bid"), (playing, "play")):
            page.goto(f"{app_url}#/play/{plant_game(page, record)}")
            page.wait_for_selector(f"[data-testid=table][data-my-turn=true][data-phase={what}]")
            seen = page.evaluate(f"({ON_SCREEN})()")
            expected = {
                "scrolls": False,
                "felt": True,
                "beside": True,
                "side": [],
                "cards": 0,
                "plates": [],
            }
            assert seen == expected, (size, what)
            assert off_felt(page) == [], (size, what)
            assert overlaps(page) == [], (size, what)
            shot(page, f"polish-04b-sideways-{size['width']}-{what}")
        # a replay, whose table has no screen-high play area around it, keeps a felt to see
        finished = plant_game(page, bot_record("wizard", "SIDE1", levels), status="finished")
        page.goto(f"{app_url}#/replay/{finished}")
        page.wait_for_selector("[data-testid=replay-board] .felt")
        assert page.evaluate("document.querySelector('.felt').offsetHeight") >= 240, size
        assert off_felt(page) == [], size
        context.close()


def test_lobo_fits_a_phone_held_sideways(new_context: Any, app_url: str) -> None:
    """Lobo at two sizes of a phone held sideways: the Wolf's cards and the player's on the
    left, the move panel beside them, nothing below the screen; a hint with its odds scrolls
    inside the panel, and the cards stay on the screen."""
    check = """() => {
      const box = (selector) => document.querySelector(selector).getBoundingClientRect();
      const panel = document.querySelector('.lobo-panel');
      return {scrolls: document.documentElement.scrollHeight > innerHeight + 1,
              beside: box('.lobo-panel').left >= box('.lobo-wolf').right,
              cards: [...document.querySelectorAll('.lobo-table .card')]
                .filter((el) => el.getBoundingClientRect().bottom > innerHeight + 1).length,
              panelFits: panel.getBoundingClientRect().bottom <= innerHeight + 1};
    }"""
    expected = {"scrolls": False, "beside": True, "cards": 0, "panelFits": True}
    for size in SIDEWAYS:
        context = new_context(viewport=size, has_touch=True)
        page = context.new_page()
        page.goto(app_url + "#/lobo?seed=E2E1&opt=difficulty:EASY")
        wait_ready(page)
        page.wait_for_selector("[data-testid=table][data-my-turn=true]")
        assert page.evaluate(check) == expected, size
        page.click("[data-testid=hint]")
        page.wait_for_selector("[data-testid=odds-list]", state="attached")
        assert page.evaluate(check) == expected, size
        shot(page, f"polish-04c-lobo-sideways-{size['width']}-hint")
        context.close()


# A game with a table of melds (Rummikub, Willie) on a phone held sideways: the page does not
# scroll; the hand and the turn's buttons lie on the screen; the table of melds scrolls by
# itself when its melds need more height than it has.
MELDS_ON_SCREEN = """() => {
  const inside = (el) => {
    const r = el.getBoundingClientRect();
    return r.top >= -1 && r.bottom <= innerHeight + 1
      && r.left >= -1 && r.right <= innerWidth + 1;
  };
  const board = document.querySelector('.mt-table');
  const buttons = [...document.querySelectorAll('.rk-controls button, .willie-actions button')];
  return {scrolls: document.documentElement.scrollHeight > innerHeight + 1,
          hand: inside(document.querySelector('[data-testid=hand-zone]')),
          buttons: buttons.length > 0 && buttons.every(inside),
          boardScrolls: board.scrollHeight > board.clientHeight + 1
            ? getComputedStyle(board).overflowY === 'auto' : null};
}"""


def test_meld_tables_fit_a_phone_held_sideways(new_context: Any, app_url: str) -> None:
    """Rummikub with ten melds out and Willie at its first melds, at two sizes of a phone held
    sideways. (Before, the rack and the buttons were below the screen, further with every meld.)"""

    def melds(count: int) -> Any:
        return lambda view, seat: seat == 0 and len(view["table"]) >= count

    games = (
        ("rummikub", record_until("rummikub", "LANDRK", ("normal",) * 3, melds(10)), True),
        ("willie", record_until("willie", "LANDRK", ("normal",), melds(2)), None),
    )
    tables = {"rummikub": "[data-testid=rummikub-table]", "willie": ".willie-table"}
    for size in SIDEWAYS:
        context = new_context(viewport=size, has_touch=True)
        page = context.new_page()
        page.goto(app_url)
        wait_ready(page)
        for game, record, board_scrolls in games:
            page.goto(f"{app_url}#/play/{plant_game(page, record)}")
            # this game's table (the last one's stays a moment after the address changes)
            page.wait_for_selector(f"{tables[game]} [data-testid=hand-zone] .mt-tile")
            seen = page.evaluate(f"({MELDS_ON_SCREEN})()")
            expected = {"scrolls": False, "hand": True, "buttons": True}
            assert {k: seen[k] for k in expected} == expected, (size, game)
            if board_scrolls:
                assert seen["boardScrolls"] is True, (size, game)
            shot(page, f"polish-04d-{game}-sideways-{size['width']}")
        context.close()


def test_the_pairing_code_is_whole_on_the_screen(new_context: Any, app_url: str) -> None:
    """The host's QR code is what the other device scans: once drawn, it is whole on the screen,
    on a phone held upright or sideways, although the form before it was scrolled to its Start
    button. (Its top was cut off by 20 px on both: the lobby opened where the form had been
    scrolled to.) The guest's answer code too, sideways (it was below the screen). And another
    screen starts at its top."""
    for size in (PHONE, SIDEWAYS[0]):
        context = new_context(viewport=size, has_touch=True)
        page = context.new_page()
        page.goto(app_url + "#/new/wizard")
        wait_ready(page)
        page.select_option("[data-testid=players]", "3")
        page.select_option("[data-testid=seat-kind-1]", "remote")
        page.click("[data-testid=start]")  # scrolls the form down to its foot
        link = join_link(page, 1)  # the link is made: the code is drawn
        wait_until(page, f"({WHOLE})('[data-testid=qr-1]')")
        shot(page, f"polish-04e-pairing-code-{size['width']}")
        guest = new_context(viewport=size, has_touch=True).new_page()
        guest.goto(link)
        wait_until(guest, "document.querySelector('[data-testid=answer-code]')?.value || ''")
        assert guest.evaluate(f"({WHOLE})('[data-testid=answer-qr]')"), size
        shot(guest, f"polish-04f-answer-code-{size['width']}")
        if size is not PHONE:  # sideways the code lies below the lobby's first lines
            assert page.evaluate("scrollY") > 0
        page.goto(app_url + "#/new/rummikub")
        page.wait_for_selector("[data-testid=new-game-form]")
        assert page.evaluate("scrollY") == 0, size
        context.close()


def test_a_small_phone_shows_the_hand_at_the_first_turn(new_context: Any, app_url: str) -> None:
    """On a small phone (360x640) a Wizard table is taller than the screen: at the player's first
    turn the hand comes whole into view (it was cut off at the foot of the screen)."""
    page = new_context(viewport={"width": 360, "height": 640}, has_touch=True).new_page()
    page.goto(app_url + WIZARD4)
    wait_ready(page)
    page.wait_for_selector("[data-testid=table][data-my-turn=true]")
    wait_until(page, f"({WHOLE})('[data-testid=hand]')")
    assert page.evaluate("document.documentElement.scrollHeight > innerHeight")  # it had to scroll


def start_rummikub(page: Any, app_url: str, link: str) -> None:
    page.goto(app_url + link)
    wait_ready(page)
    page.wait_for_selector("[data-testid=rummikub-table][data-my-turn=true]", timeout=90_000)


def test_rummikub_no_play_hint_goes_when_a_tile_moves(new_context: Any, app_url: str) -> None:
    page = new_context().new_page()
    # seat 0's first rack (K4 K6 K10 K13 R4 R5 B6 B9 B10 Y4 Y5 Y8 Y12 Y13) has no initial meld
    start_rummikub(page, app_url, "#/rummikub?seed=RKN3&players=2&bots=1:normal")
    page.click("[data-testid=hint]")
    panel = page.wait_for_selector("[data-testid=hint-panel]", timeout=60_000)
    assert "No play from your rack" in panel.inner_text()
    audit = Audit(page, axe_script(), "en, 1280 px")
    audit.check("rummikub: no play from the rack")
    assert not audit.found, audit.report()
    page.click("[data-testid=hand-tile][data-code='Y4']")
    page.click("[data-testid=new-meld]")
    page.wait_for_selector("[data-testid=hint-panel]", state="detached")
    # the table drawn again (auto-arrange's mode on and off), the tile back: it stays gone
    page.click("[data-testid=arrange]")
    page.click("[data-testid=arrange-cancel]")
    page.click("[data-testid=reset-turn]")
    page.wait_for_selector("[data-testid=hand-tile][data-code='Y4']")
    assert page.locator("[data-testid=hint-panel]").count() == 0


def test_rummikub_hint_leaves_the_rack_on_screen(new_context: Any, app_url: str) -> None:
    """A 4-player game at a table of ten melds whose best play rearranges it into eleven."""
    page = new_context(viewport=DESKTOP).new_page()
    page.goto(app_url)
    wait_ready(page)
    record = json.loads((DATA / "rummikub-big-hint.json").read_text(encoding="utf-8"))
    page.goto(f"{app_url}#/play/{plant_game(page, record)}")
    page.wait_for_selector("[data-testid=rummikub-table][data-my-turn=true]", timeout=90_000)
    page.click("[data-testid=hint]")
    page.wait_for_selector("[data-testid=use-hint]", timeout=60_000)
    rack = page.locator("[data-testid=rummikub-table] .mt-hand").bounding_box()
    assert rack and rack["y"] + rack["height"] <= DESKTOP["height"], rack
    shot(page, "polish-05-rummikub-hint-desktop")
    audit = Audit(page, axe_script(), "en")
    audit.check("rummikub: the hint's play, 1280 px")
    page.set_viewport_size(PHONE)
    shot(page, "polish-06-rummikub-hint-phone")
    audit.check("rummikub: the hint's play, 390 px")
    assert not audit.found, audit.report()
    # held sideways the hint lies over the melds: the rack and the turn's buttons stay on the
    # screen; Close puts the hint away and the melds are there again
    page.set_viewport_size(SIDEWAYS[0])
    page.evaluate("window.scrollTo(0, 0)")
    for part in ("[data-testid=hand-zone]", "[data-testid=rk-controls]", "[data-testid=use-hint]"):
        assert page.evaluate(f"({WHOLE})('{part}')"), part
    shot(page, "polish-06b-rummikub-hint-sideways")
    page.click("[data-testid=close-hint]")
    page.wait_for_selector("[data-testid=hint-panel]", state="detached")
    assert page.locator("[data-testid=meld-table] .mt-meld").count() == 10
    page.set_viewport_size(DESKTOP)
    page.click("[data-testid=hint]")
    page.wait_for_selector("[data-testid=use-hint]", timeout=60_000)
    # by keyboard, "Use this play" lays the play out and leaves the focus on "Done"
    page.focus("[data-testid=use-hint]")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=hint-panel]", state="detached")
    focused = "document.activeElement && document.activeElement.dataset.testid"
    assert wait_until(page, f"({focused}) === 'done'", 10)


def test_rummikub_score_sheet_looks_like_the_others(new_context: Any, app_url: str) -> None:
    record = bot_record("rummikub", "RKOVER", ("easy",), options={"match_mode": True})
    page = new_context(viewport=DESKTOP).new_page()
    page.goto(app_url)
    wait_ready(page)
    page.goto(f"{app_url}#/play/{plant_game(page, record)}")
    page.wait_for_selector("[data-testid=game-over]", timeout=90_000)
    sheet = page.locator("[data-testid=score-sheet]")
    assert sheet.get_attribute("class") == "sheet-scroll"
    assert page.locator("[data-testid=score-sheet] table.sheet tbody tr").count() == 2
    # each game's winner is marked (in words for a screen reader too); the match has a total
    won = page.locator("[data-testid=score-sheet] td.rk-sheet-won")
    assert won.count() >= 2 and "Winner" in won.first.inner_text()
    outcome, _ = final_view(record)
    total = page.locator("[data-testid=score-sheet] tfoot td").all_inner_texts()
    assert total == [f"+{p}" if int(p) > 0 else str(p) for p in outcome["points"]]
    # the sheet's own look: its border, the shared head colour
    head = page.eval_on_selector(
        "[data-testid=score-sheet] thead th", "th => getComputedStyle(th).backgroundColor"
    )
    assert head == "rgb(239, 232, 212)"
    sheet.scroll_into_view_if_needed()
    shot(page, "polish-07-rummikub-sheet-desktop")
    page.set_viewport_size(PHONE)
    sheet.scroll_into_view_if_needed()
    shot(page, "polish-08-rummikub-sheet-phone")


def test_willie_says_how_to_lengthen_its_rounds(new_context: Any, app_url: str) -> None:
    """Most rounds end before anyone's second turn (the lab's numbers): the home card and the
    knob's own hint say which knob lengthens them, and the rules page gives the numbers."""
    page = new_context().new_page()
    page.goto(app_url)
    tip = page.wait_for_selector("[data-testid=tip-willie]")
    assert "“Close with at most”" in tip.inner_text()
    assert page.locator("[data-testid^=tip-]").count() == 1  # only Willie has one
    page.click("[data-testid=new-willie]")
    page.wait_for_selector("[data-testid=opt-close_threshold]")
    row = page.locator(".option-row:has([data-testid=opt-close_threshold])")
    assert "Close with at most" in row.inner_text() and "longer rounds" in row.inner_text()
    for lang in ("en", "es"):
        page.goto(f"{app_url}rules/willie.{lang}.html#length")
        rows = page.locator("[data-testid=round-length] tbody tr")
        assert rows.count() == 4
        assert page.locator("#length ~ p.note a[href*='lab/willie']").count() == 1
    page.goto(app_url)
    page.click("[data-testid=lang-es]")
    tip = page.wait_for_selector("[data-testid=tip-willie]:has-text('Cerrar con como mucho')")
    shot(page, "polish-09-willie-tip-es")
