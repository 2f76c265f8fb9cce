"""Each game played with the keyboard alone, listening to the live region (issue 18).

After the deal link opens, every action is a key (Tab, Shift+Tab, Enter, Space, arrows,
Escape): no click. The tests check that the focus reaches every action they need, survives the
table's redraws (never dropped on <body>), moves by itself to the turn's first action when the
player's turn comes, and that the live region (`[data-testid=announcer]`, one polite log) names
what happened: the bots' moves, the cards drawn, the trick's winner, a refused move, the
round's result, the next deal and the end of the game. Wizard and Rummikub in English, Willie
and Lobo in Spanish; one page (one engine boot) for the four, seeded deals, fast bots.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from a11y_helpers import Audit, axe_script
from ui_helpers import FAST_BOTS, shot, wait_ready, wait_until

WIZARD = "#/wizard?seed=KEYS01&players=3&bots=1:normal,2:normal&opt=first_dealer:RANDOM"
RUMMIKUB = "#/rummikub?seed=RK17&players=2&bots=1:normal"  # R4 R5 R6 + K8 R8 B8 in the rack
WILLIE = "#/willie?seed=KEYS03&players=2&bots=1:easy"  # the bot closes the first round
LOBO = "#/lobo?seed=E2E1&opt=difficulty:EASY"  # 5S 5D 7D 8C against AD 2C 4H 8D
HOT_SEAT = "#/wizard?seed=KEYS01&players=3&opt=first_dealer:RANDOM"  # three people, no bot
PHONE = {"width": 390, "height": 844}
FOCUSED = "document.activeElement && document.activeElement.matches(%r)"


@pytest.fixture(scope="module")
def page(browser: Any, app_url: str) -> Iterator[Any]:
    """One page for the four games: the engine boots once."""
    context = browser.new_context(
        viewport={"width": 1280, "height": 800}, locale="en-US", service_workers="block"
    )
    origin = app_url.rstrip("/")
    foreign: list[str] = []
    context.on(
        "request",
        lambda r: None if r.url.startswith((origin, "data:", "blob:")) else foreign.append(r.url),
    )
    context.add_init_script(FAST_BOTS)
    context.set_default_timeout(30_000)
    tab = context.new_page()
    tab.goto(app_url)
    wait_ready(tab)
    yield tab
    context.close()
    assert not foreign, f"requests left {origin}: {foreign[:5]}"


def open_game(page: Any, app_url: str, link: str, lang: str, table: str) -> None:
    """The deal link in a language (set before the game starts, as the header's menu does)."""
    page.eval_on_selector(
        "#lang-select",
        "(el, lang) => { el.value = lang; el.dispatchEvent(new Event('change')); }",
        lang,
    )
    wait_until(page, f"document.documentElement.lang === {lang!r}")
    page.goto(app_url + link)
    wait_my_turn(page, table)


def wait_my_turn(page: Any, table: str = "table", timeout: float = 60) -> None:
    wait_until(page, f"document.querySelector('[data-testid={table}][data-my-turn=true]')", timeout)


def said(page: Any, after: int = 0) -> list[str]:
    """The lines the live region holds (those said after line number ``after``), oldest first."""
    lines: list[str] = page.eval_on_selector_all(
        "[data-testid=announcer] p",
        "(els, after) => els.filter(e => Number(e.dataset.n) > after).map(e => e.textContent)",
        after,
    )
    return lines


def heard(page: Any) -> int:
    """The number of the last line said (0 before any)."""
    last = page.get_attribute("[data-testid=announcer] p:last-child", "data-n")
    return int(last or 0)


def hears(page: Any, pattern: str, timeout: float = 30, after: int = 0) -> str:
    """Wait until a line of the live region (said after line ``after``) matches ``pattern``."""
    deadline = time.monotonic() + timeout
    while True:
        found = [line for line in said(page, after) if re.search(pattern, line)]
        if found:
            return found[-1]
        if time.monotonic() > deadline:
            raise AssertionError(f"never heard {pattern!r}; heard {said(page)}")
        page.wait_for_timeout(100)


def focus(page: Any) -> dict[str, Any]:
    """What has the focus: tag, test id and the card, tile or bid it stands for."""
    info: dict[str, Any] = page.evaluate(
        """() => { const el = document.activeElement;
                   return {tag: el.tagName.toLowerCase(), ...el.dataset,
                           text: (el.getAttribute('aria-label') || el.textContent).trim()}; }"""
    )
    return info


def press_until(page: Any, selector: str, key: str = "Tab", limit: int = 60) -> None:
    """Press ``key`` until the focus is on an element matching ``selector``."""
    for _ in range(limit):
        if page.evaluate(FOCUSED % selector):
            return
        page.keyboard.press(key)
    raise AssertionError(f"{key} never reached {selector}; the focus is on {focus(page)}")


def wait_focus(page: Any, selector: str) -> None:
    wait_until(page, FOCUSED % selector, 30)


def moves(page: Any) -> int:
    return int(page.get_attribute("[data-testid=play]", "data-moves") or -1)


def wait_moves(page: Any, count: int, timeout: float = 60) -> None:
    """Wait until the game on the table has ``count`` moves or more."""
    played = "Number(document.querySelector('[data-testid=play]')?.dataset.moves)"
    wait_until(page, f"{played} >= {count}", timeout)


def test_wizard_by_keyboard(page: Any, app_url: str) -> None:
    open_game(page, app_url, WIZARD, "en", "table")
    hears(page, r"^Round 1: 1 card each, trump blue$")
    hears(page, r"^Bot 3 bid 1$")
    hears(page, r"^Your turn: how many tricks will you take\?$")
    # the score sheet opens from the keyboard, Escape closes it and gives the focus back
    press_until(page, "[data-testid=show-scores]")
    page.keyboard.press("Enter")
    wait_focus(page, "[data-testid=close-scores]")
    page.keyboard.press("Escape")
    wait_focus(page, "[data-testid=show-scores]")
    assert page.locator("[data-testid=scores]").count() == 0
    # back to the bids; the arrows go from bid to bid
    press_until(page, "[data-testid=bid][data-bid='0']", "Shift+Tab")
    page.keyboard.press("ArrowRight")
    wait_focus(page, "[data-testid=bid][data-bid='1']")
    shot(page, "keyboard-01-wizard-bid-focus")
    page.keyboard.press("Enter")
    # the bids go on; at the player's turn the focus is on the card to play, by itself
    wait_my_turn(page)
    wait_focus(page, "[data-testid=hand-card].legal")
    hears(page, r"^Bot 2 bid 1$")
    hears(page, r"^Bot 3 played yellow 8$")
    hears(page, r"^Your turn: play a card\.$")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=round-summary]")
    wait_focus(page, "[data-testid=round-continue]")
    hears(page, r"^Bot 2 played blue 5$")
    hears(page, r"^You take the trick\.$")
    hears(page, r"^Round 1 is over: You: bid 1, took 1, \+30, total 30; Bot 2: bid 1, took 0, −10")
    page.keyboard.press("Escape")  # the round's sheet closes like Continue
    wait_my_turn(page)
    wait_focus(page, "[data-testid=bid]")
    hears(page, r"^Round 2: 2 cards each, trump yellow$")
    # each thing said once, in order: the redraws, the dialogs and the pauses added nothing
    assert said(page) == [
        "Round 1: 1 card each, trump blue",
        "Bot 3 bid 1",
        "Your turn: how many tricks will you take?",
        "Bot 2 bid 1",
        "Bot 3 played yellow 8",
        "Your turn: play a card.",
        "Bot 2 played blue 5",
        "You take the trick.",
        "Round 1 is over: You: bid 1, took 1, +30, total 30; Bot 2: bid 1, took 0, −10, "
        "total −10; Bot 3: bid 1, took 0, −10, total −10",
        "Round 2: 2 cards each, trump yellow",
        "Your turn: how many tricks will you take?",
    ]


def test_hot_seat_hand_over_by_keyboard(page: Any, app_url: str) -> None:
    """Three players at one device: each hand-over's button has the focus, and Enter on it
    puts the focus on that player's first bid."""
    page.eval_on_selector(
        "#lang-select", "(el) => { el.value = 'en'; el.dispatchEvent(new Event('change')); }"
    )
    page.goto(app_url + HOT_SEAT)
    audit = Audit(page, axe_script(), "en")
    for player in (3, 1):
        page.wait_for_selector("[data-testid=handover]")
        wait_focus(page, "[data-testid=handover-ready]")
        assert f"Player {player}" in focus(page)["text"]
        if player == 3:
            audit.check("wizard: the hot-seat hand-over")
            assert not audit.found, audit.report()
        page.keyboard.press("Enter")
        wait_my_turn(page)
        wait_focus(page, "[data-testid=bid]")
        hears(page, r"^Your turn: how many tricks will you take\?$", after=heard(page) - 1)
        before = heard(page)
        page.keyboard.press("Enter")
        # the next player at the device hears this one's bid (the bids are open here)
        hears(page, rf"^Player {player} bid \d+$", after=before)


def hand_tile(code: str) -> str:
    return f"[data-testid=hand-tile][data-code='{code}']"


def last_gap(meld: int) -> str:
    return f"[data-testid=meld][data-index='{meld}'] .mt-tiles > button:last-child"


def put(page: Any, code: str, meld: int | None) -> None:
    """Pick a rack tile up (Enter) and put it on a new meld or at the end of a meld: the
    arrows go from the rack up to "New meld" and the melds, and along a meld."""
    before = page.locator("[data-testid=table-tile]").count()
    if page.evaluate(FOCUSED % "[data-testid=meld-table] button"):
        # down the rows (each meld, "New meld") to the rack's first tile
        press_until(page, "[data-testid=hand-tile]", "ArrowDown", 10)
    else:
        press_until(page, "[data-testid=hand-tile]")
    press_until(page, hand_tile(code), "ArrowRight", 20)
    page.keyboard.press("Enter")
    wait_focus(page, f"{hand_tile(code)}[aria-pressed=true]")
    page.keyboard.press("ArrowUp")
    wait_focus(page, "[data-testid=new-meld]")
    if meld is not None:
        page.keyboard.press("ArrowUp")
        press_until(page, last_gap(meld), "ArrowRight", 20)
    page.keyboard.press("Enter")
    # the tile is on the table and keeps the focus there
    tiles = "document.querySelectorAll('[data-testid=table-tile]').length"
    wait_until(page, f"{tiles} === {before + 1}")
    wait_focus(page, f"[data-testid=table-tile][data-code='{code}']")


def test_rummikub_by_keyboard(page: Any, app_url: str) -> None:
    open_game(page, app_url, RUMMIKUB, "en", "rummikub-table")
    hears(page, r"^Your turn: lay tiles on the table, or draw\.$")
    press_until(page, "[data-testid=hand-tile]")
    put(page, "R4", None)
    put(page, "R5", 0)
    put(page, "R6", 0)
    # 15 is not enough for the initial meld: the refusal is said
    press_until(page, "[data-testid=done]")
    page.keyboard.press("Enter")
    refusal = page.wait_for_selector("[data-testid=meld-message]").inner_text()
    assert "30" in refusal
    hears(page, "^" + re.escape(refusal) + "$")
    put(page, "K8", None)
    put(page, "R8", 1)
    put(page, "B8", 1)
    shot(page, "keyboard-02-rummikub-tile-focus")
    press_until(page, "[data-testid=done]")
    page.keyboard.press("Enter")
    # the bot's turn is said; the player's focus comes back to the rack
    wait_moves(page, 2)
    wait_my_turn(page, "rummikub-table")
    wait_focus(page, "[data-testid=hand-tile]")
    hears(page, r"^Bot 2 (drew a tile|played \d+ tiles?)")
    press_until(page, "[data-testid=draw]", "Shift+Tab")
    page.keyboard.press("Enter")
    drew = hears(page, r"^You drew (red|black|blue|yellow) \d+|^You drew joker")
    wait_moves(page, 4)
    wait_my_turn(page, "rummikub-table")
    wait_focus(page, "[data-testid=hand-tile]")
    assert said(page).index(drew) < len(said(page)) - 1  # the bot's turn and ours came after


def test_willie_by_keyboard_in_spanish(page: Any, app_url: str) -> None:
    open_game(page, app_url, WILLIE, "es", "table")
    hears(page, r"^Bot 2 robó$")
    hears(page, r"^Bot 2 bajó 9 cartas: 8 rojo, 2 naranja, .+ y Rey$")
    hears(page, r"^Tu turno: roba una carta \(robo 1 de 3\)\.$")
    for draw in (1, 2, 3):
        press_until(page, "[data-testid=draw]")
        before = heard(page)
        page.keyboard.press("Enter")
        hears(page, r"^Has robado .+", after=before)
        if draw < 3:  # no meld now: on to the next draw
            wait_my_turn(page)
            wait_focus(page, "[data-testid=hand-tile]")  # a meld phase starts on the hand
            press_until(page, "[data-testid=pass]", "Shift+Tab")
            page.keyboard.press("Enter")
            wait_my_turn(page)
            wait_focus(page, "[data-testid=draw]")  # a draw starts on Draw
    page.wait_for_selector("[data-testid=round-summary]")
    wait_focus(page, "[data-testid=round-continue]")
    hears(page, r"^Bot 2 bajó 3 cartas")
    hears(
        page,
        r"^Fin de la ronda 1: Bot 2 cerró\. "
        r"Gana la ronda: Bot 2\. Puntuación: Tú 0 y Bot 2 \d+\.$",
    )
    page.keyboard.press("Enter")
    # the bot is over the target: the game ends, the focus starts on its heading
    page.wait_for_selector("[data-testid=game-over]")
    wait_focus(page, "[data-testid=over-title]")
    hears(page, r"^Fin de la partida\. Gana: Bot 2$")
    page.keyboard.press("Tab")
    wait_focus(page, "[data-testid=again]")


def select(page: Any, testid: str, code: str, key: str) -> None:
    """Move to a card with Tab or Shift+Tab and select it with Space."""
    press_until(page, f"[data-testid={testid}][data-card='{code}']", key)
    page.keyboard.press("Space")
    wait_focus(page, f"[data-testid={testid}][data-card='{code}'][aria-pressed=true]")


def play_selection(page: Any) -> None:
    before = moves(page)
    press_until(page, "[data-testid=play-move]")
    page.keyboard.press("Enter")
    wait_moves(page, before + 1)
    wait_my_turn(page)


def test_lobo_by_keyboard_in_spanish_on_a_phone(page: Any, app_url: str) -> None:
    page.set_viewport_size(PHONE)
    try:
        open_game(page, app_url, LOBO, "es", "table")
        hears(
            page,
            r"^Ronda 1: el Lobo muestra As de diamantes, 2 de tréboles, 4 de corazones y "
            r"8 de diamantes; tienes .+\.$",
        )
        hears(page, r"^Te toca: selecciona tus cartas")
        select(page, "hand-card", "8C", "Tab")
        select(page, "wolf-card", "8D", "Shift+Tab")
        shot(page, "keyboard-03-lobo-phone-selection-focus")
        play_selection(page)
        hears(page, r"^Robas 2 de diamantes\.$")
        wait_focus(page, "[data-testid=hand-card]")  # back on the hand for the next capture
        # a selection that is no move: the engine's reason is said
        select(page, "hand-card", "2D", "Tab")
        select(page, "wolf-card", "4H", "Shift+Tab")
        reason = "document.querySelector('[data-testid=move-reason]')?.textContent || '…'"
        wait_until(page, f"!({reason}).endsWith('…')")  # the engine's answer, not "Checking…"
        hears(page, "^" + re.escape(page.inner_text("[data-testid=move-reason]")) + "$")
        press_until(page, "[data-testid=hand-card][data-card='2D']", "Tab")
        page.keyboard.press("Enter")  # unselect the 2
        wait_focus(page, "[data-testid=hand-card][data-card='2D'][aria-pressed=false]")
        select(page, "hand-card", "7D", "Tab")
        for code in ("2C", "AD"):
            select(page, "wolf-card", code, "Shift+Tab")
        play_selection(page)
        hears(page, r"^El Lobo roba 5 de corazones\.$")
        select(page, "hand-card", "5S", "Tab")
        select(page, "wolf-card", "5H", "Shift+Tab")
        play_selection(page)
        hears(page, r"^Ronda 1 ganada\.$")
        # the choice after a won round: bank the 5 of diamonds in the reserve
        wait_focus(page, "[data-testid=hand-card]")
        press_until(page, "[data-testid=hand-card][data-card='5D']", "ArrowRight", 5)
        page.keyboard.press("Enter")
        hears(page, r"^Ronda 2: el Lobo muestra .+; tienes .+\.$")
        wait_my_turn(page)
        wait_focus(page, "[data-testid=hand-card]")
    finally:
        page.set_viewport_size({"width": 1280, "height": 800})
