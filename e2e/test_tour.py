"""The guided tour of each game's table (web/ui/tour.js, issue 18's first-time help).

A first game of each game, in a fresh browser, opens the tour on the player's first turn: every
step lights the element it names (its test id), the bubble stays on screen and off that
element, the dialog is named and holds the focus, the table behind it is inert and nothing moves
behind it. It is remembered: a reload or a second game does not show it, another game does;
the ⚙ menu's "Show the tour" brings it back; Skip, Escape, the arrow keys and Tab work; a step
whose element is missing is left out; axe finds no serious or critical violation on it, in
English and in Spanish. Every other e2e file starts with the tours seen (ui_helpers.NO_TOURS).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from a11y_helpers import Audit, axe_script
from ui_helpers import FAST_BOTS_ONCE, shot, wait_ready, wait_until

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
PAD = 6  # the ring's room around the lit element (tour.js RING_PAD)

# game -> (deal link, the table marked "my turn", the test id each step lights, in order)
GAMES = {
    "wizard": (
        "#/wizard?seed=E2E3&players=3&bots=1:normal,2:normal",
        "[data-testid=table][data-my-turn=true]",
        ["hand", "felt", "trump", "actions", "table-bar", "settings"],
    ),
    "rummikub": (
        "#/rummikub?seed=RK17&players=2&bots=1:normal",
        "[data-testid=rummikub-table][data-my-turn=true]",
        ["hand-zone", "meld-table", "rk-players", "rk-controls", "hint", "table-bar"],
    ),
    "willie": (
        "#/willie?seed=KEYS03&players=2&bots=1:easy",
        "[data-testid=table][data-my-turn=true]",
        ["hand", "felt", "willie-seats", "actions", "table-bar"],
    ),
    "lobo": (
        "#/lobo?seed=E2E1&opt=difficulty:EASY",
        "[data-testid=table][data-my-turn=true]",
        ["wolf", "hand", "party", "move-panel", "hint", "table-bar"],
    ),
}
# two games in Spanish, two in English; axe audits a Wizard tour and a Rummikub one
LANGUAGES = {"wizard": "es", "rummikub": "en", "willie": "es", "lobo": "en"}
AUDITED = ("wizard", "rummikub")

GEOMETRY = """() => {
  const bubble = document.querySelector('[data-testid=tour]');
  if (!bubble) return null;
  const box = (el) => { const r = el.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; };
  const target = document.querySelector(bubble.dataset.target);
  const named = (attr) => document.getElementById(bubble.getAttribute(attr))?.textContent || '';
  return {
    step: Number(bubble.dataset.step), side: bubble.dataset.side, selector: bubble.dataset.target,
    role: bubble.getAttribute('role'), modal: bubble.getAttribute('aria-modal'),
    title: named('aria-labelledby'), text: named('aria-describedby'),
    count: bubble.querySelector('[data-testid=tour-count]').textContent,
    bubble: box(bubble), ring: box(document.querySelector('[data-testid=tour-ring]')),
    target: target ? box(target) : null,
    view: {width: document.documentElement.clientWidth, height: innerHeight},
    focusInside: bubble.contains(document.activeElement),
    inert: document.getElementById('app').inert,
  };
}"""


def tour_context(new_context: Any, *, viewport: dict[str, int], language: str = "en") -> Any:
    """A fresh browser whose tours are not seen yet (fast bots, kept across reloads)."""
    locale = "es-ES" if language == "es" else "en-US"
    context = new_context(
        fast=False, tours=True, viewport=viewport, locale=locale, reduced_motion="reduce"
    )
    context.add_init_script(FAST_BOTS_ONCE)
    return context


def check_step(page: Any, testid: str, total: int) -> dict[str, Any]:
    """The step on view lights the element ``testid``, on screen, with the bubble beside it."""
    geo = page.evaluate(GEOMETRY)
    assert geo, "no tour on screen"
    where = f"step {geo['step'] + 1} ({testid})"
    assert f'"{testid}"' in geo["selector"], (where, geo["selector"])
    assert geo["role"] == "dialog" and geo["modal"] == "true", where
    assert geo["title"].strip() and geo["text"].strip(), where
    assert f"{geo['step'] + 1}" in geo["count"] and f"{total}" in geo["count"], geo["count"]
    assert geo["focusInside"] and geo["inert"], where
    view, ring, target, bubble = geo["view"], geo["ring"], geo["target"], geo["bubble"]
    # the ring is the element's box (or what it holds), with its padding
    assert ring["left"] >= target["left"] - PAD - 1 and ring["right"] <= target["right"] + PAD + 1
    assert ring["top"] >= target["top"] - PAD - 1 and ring["bottom"] <= target["bottom"] + PAD + 1
    assert ring["right"] - ring["left"] > 2 * PAD and ring["bottom"] - ring["top"] > 2 * PAD
    # what is lit is on screen, and so is the bubble, which covers none of it
    lit = {k: ring[k] + (PAD if k in ("left", "top") else -PAD) for k in ring}
    assert lit["left"] >= -1 and lit["top"] >= -1, (where, lit)
    assert lit["right"] <= view["width"] + 1 and lit["bottom"] <= view["height"] + 1, (where, lit)
    assert bubble["left"] >= 0 and bubble["top"] >= 0, (where, bubble)
    assert bubble["right"] <= view["width"] and bubble["bottom"] <= view["height"], (where, bubble)
    assert geo["side"] in ("below", "above", "right", "left"), (where, geo["side"])
    apart = (
        bubble["right"] <= lit["left"]
        or bubble["left"] >= lit["right"]
        or bubble["bottom"] <= lit["top"]
        or bubble["top"] >= lit["bottom"]
    )
    assert apart, (where, bubble, lit)
    return geo


def seen(page: Any) -> list[str]:
    settings = json.loads(page.evaluate("localStorage.getItem('tapete.settings')") or "{}")
    return list(settings.get("toursSeen", []))


def tour_gone(page: Any) -> None:
    page.wait_for_selector("[data-testid=tour]", state="detached")
    assert not page.evaluate("document.getElementById('app').inert")


@pytest.mark.parametrize("game", list(GAMES))
def test_a_first_game_tours_the_table_once_and_the_menu_brings_it_back(
    new_context: Any, app_url: str, game: str
) -> None:
    link, my_turn, steps = GAMES[game]
    language = LANGUAGES[game]
    page = tour_context(new_context, viewport=DESKTOP, language=language).new_page()
    page.goto(app_url + link)
    wait_ready(page)
    page.wait_for_selector("[data-testid=tour]")
    # it opens on the player's turn: the game waits for them, nothing moves behind the tour
    assert page.locator(my_turn).count() == 1
    moves = page.get_attribute("[data-testid=play]", "data-moves")
    assert page.evaluate("document.activeElement.dataset.testid") == "tour-next"
    if game in AUDITED:
        audit = Audit(page, axe_script(), f"{language}, desktop")
        audit.check(f"{game}: the tour's first step")
        if audit.found:
            pytest.fail(audit.report(), pytrace=False)
    shot(page, f"tour-{game}-{language}-desktop")
    # walked with clicks: each step lights its element; Back goes back
    for index, testid in enumerate(steps):
        check_step(page, testid, len(steps))
        if index == 1:
            page.click("[data-testid=tour-back]")
            wait_until(page, "document.querySelector('[data-testid=tour]').dataset.step === '0'")
            page.click("[data-testid=tour-next]")
            check_step(page, testid, len(steps))
        page.click("[data-testid=tour-next]")
    tour_gone(page)
    assert page.get_attribute("[data-testid=play]", "data-moves") == moves
    assert game in seen(page)
    # shown once: a second game of it starts without it (a reload: the next test)
    page.goto(app_url + "#/")
    page.wait_for_selector("[data-testid=home]")
    page.goto(app_url + link)
    page.wait_for_selector(my_turn)
    assert page.locator("[data-testid=tour]").count() == 0
    # on a phone, the ⚙ menu's "Show the tour" brings it back; walked with the keyboard
    page.set_viewport_size(PHONE)
    page.click("[data-testid=settings] summary")
    page.click("[data-testid=show-tour]")
    page.wait_for_selector("[data-testid=tour]")
    shot(page, f"tour-{game}-{language}-phone")
    check_step(page, steps[0], len(steps))
    page.keyboard.press("ArrowRight")
    check_step(page, steps[1], len(steps))
    page.keyboard.press("ArrowLeft")
    check_step(page, steps[0], len(steps))
    page.keyboard.press("Tab")  # Next -> Skip (the focus goes round the bubble's buttons)
    assert page.evaluate("document.activeElement.dataset.testid") == "tour-skip"
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.dataset.testid") == "tour-next"
    for index, testid in enumerate(steps[1:], start=1):
        page.keyboard.press("Enter")
        check_step(page, testid, len(steps))
        assert index < len(steps)
    page.keyboard.press("Escape")  # Escape skips; the focus comes back to the table
    tour_gone(page)
    assert page.evaluate("!!document.activeElement.closest('#app')")
    assert page.evaluate("document.activeElement.dataset.testid") != "tour-next"


def test_skip_is_remembered_per_game_and_missing_elements_are_left_out(
    new_context: Any, app_url: str
) -> None:
    page = tour_context(new_context, viewport=PHONE).new_page()
    link, my_turn, _ = GAMES["wizard"]
    page.goto(app_url + link)
    wait_ready(page)
    page.click("[data-testid=tour-skip]")
    tour_gone(page)
    # a pointer's skip: the focus waits on the quiet spot before the table
    assert page.evaluate("document.activeElement.dataset.testid") == "focus-park"
    assert seen(page) == ["wizard"]
    # a reload continues the game without it; the first Lobo game has Lobo's
    page.reload()
    page.wait_for_selector(my_turn)
    assert page.locator("[data-testid=tour]").count() == 0
    lobo_link, lobo_turn, lobo_steps = GAMES["lobo"]
    page.goto(app_url + lobo_link)
    page.wait_for_selector("[data-testid=tour]")
    page.keyboard.press("Escape")
    tour_gone(page)
    assert sorted(seen(page)) == ["lobo", "wizard"]
    # a step whose element is not on the table is left out, not shown broken
    page.evaluate("document.querySelector('[data-testid=hint]').style.display = 'none'")
    page.click("[data-testid=settings] summary")
    page.click("[data-testid=show-tour]")
    page.wait_for_selector("[data-testid=tour]")
    kept = [testid for testid in lobo_steps if testid != "hint"]
    for testid in kept:
        check_step(page, testid, len(kept))
        page.click("[data-testid=tour-next]")
    tour_gone(page)
    page.wait_for_selector(lobo_turn)
