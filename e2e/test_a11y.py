"""Accessibility, measured: axe-core finds no serious or critical violation on any screen, and
the reduced-motion setting follows the system unless the player overrides it.

One page per language (English on a desktop, Spanish on a 390 px phone) walks every screen: the
new-game form of each game (one with the settings menu open), the several-devices lobby and a
guest's join page, each table mid-game (Wizard bidding after the first-dealer draw and playing,
Rummikub with melds on the table, Willie melding, Lobo with its hint), a hot-seat hand-over,
the dialogs (score sheet, share, round summary, delete), each game's end, a game's review, the
saved-games page, a replay, home with saved games, the lab with results, the rules pages and
the devices help. Games come from seeded links or from records the engine's bots played
(e2e/records.py), planted in IndexedDB. The failure lists each violation's rule, impact,
targets and the screens it was seen on (e2e/a11y_helpers.py).
"""

from __future__ import annotations

from typing import Any

import pytest

from a11y_helpers import Audit, axe_script
from records import bot_record
from ui_helpers import FAST_BOTS_ONCE, open_link, plant_game, wait_my_turn, wait_ready, wait_until

WIZARD = "#/wizard?seed=E2E3&players=3&bots=1:heuristic,2:random"
HOT_SEAT = "#/wizard?seed=KEYS01&players=3&opt=first_dealer:RANDOM"  # three people, no bot
LAB = "#/lab/willie?seed=A11Y&games=1&players=2&levels=easy&a="
RULES = ("wizard", "rummikub", "willie", "lobo", "devices")
GAMES = ("wizard", "rummikub", "willie", "lobo")


def finished_games() -> dict[str, dict[str, Any]]:
    """A whole game of each, played by the bots (the records test_my_games plays too)."""
    return {
        "wizard": bot_record("wizard", "A11Y", ("random", "random")),
        "rummikub": bot_record("rummikub", "MG4", ("random",)),
        "willie": bot_record("willie", "MG5", ("random",)),
        "lobo": bot_record("lobo", "MG6", options={"difficulty": "EASY"}),
    }


def mid_games() -> dict[str, dict[str, Any]]:
    """Games stopped where seat 0 is to move with cards or tiles on the table."""
    return {
        "rummikub": bot_record("rummikub", "MG4", ("random",), limit=18),  # melds on the table
        "willie": bot_record("willie", "MG5", ("random",), limit=6),  # seat 0 melding
        "lobo": bot_record("lobo", "MG6", limit=1, options={"difficulty": "EASY"}),
    }


@pytest.fixture(scope="module")
def axe() -> str:
    return axe_script()


def wait_table(page: Any) -> None:
    wait_until(
        page,
        "document.querySelector('[data-testid=table][data-my-turn=true], "
        "[data-testid=rummikub-table][data-my-turn=true]')",
    )


def devices_screens(page: Any, audit: Audit) -> None:
    """Several devices: the host's lobby (a seat on another device), then that seat's join page
    opened here (a guest's first screen: its answer to hand back)."""
    page.select_option("[data-testid=seat-kind-1]", "remote")
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=table-lobby]")
    link = wait_until(page, "document.querySelector('[data-testid=join-link-1]')?.value || ''")
    audit.check("several devices: the host's lobby")
    page.goto(link)
    wait_until(page, "document.querySelector('[data-testid=answer-code]')?.value || ''")
    audit.check("several devices: a guest's join page")


def play_screens(page: Any, audit: Audit, app_url: str) -> None:
    """Wizard live from a link: bidding, playing, the score sheet, share, the round's end."""
    open_link(page, app_url, WIZARD)
    wait_my_turn(page, "bid")
    page.wait_for_selector("[data-testid=first-dealer-draw]")
    audit.check("wizard: bidding, with the first-dealer draw")
    page.click("[data-testid=bid].legal")
    wait_my_turn(page, "play")
    audit.check("wizard: playing")
    page.click("[data-testid=show-scores]")
    page.wait_for_selector("[data-testid=scores]")
    audit.check("wizard: score sheet dialog")
    page.click("[data-testid=close-scores]")
    page.click("[data-testid=share]")
    page.wait_for_selector("[data-testid=share-dialog]")
    audit.check("wizard: share dialog")
    page.click("[data-testid=share-close]")
    page.click("[data-testid=hand-card].legal")  # round 1 has one card: the round ends
    page.wait_for_selector("[data-testid=round-summary]")
    audit.check("wizard: round summary dialog")
    page.click("[data-testid=round-continue]")
    # three people at one device: the hand-over screen between them
    page.goto(app_url + HOT_SEAT)
    page.wait_for_selector("[data-testid=handover]", timeout=60_000)
    audit.check("wizard: the hot-seat hand-over")


def planted_screens(page: Any, audit: Audit, app_url: str) -> None:
    """Tables mid-game, each game's end, saved games, a replay, from planted records."""
    mid = {game: plant_game(page, record) for game, record in mid_games().items()}
    over = {
        game: plant_game(page, record, status="finished")
        for game, record in finished_games().items()
    }
    for game, game_id in mid.items():
        page.goto(app_url + f"#/play/{game_id}")
        wait_table(page)
        if game == "lobo":  # with its hint and the odds of every move
            page.click("[data-testid=hint]")
            page.wait_for_selector("[data-testid=hint-panel]", timeout=60_000)
        audit.check(f"{game}: table mid-game")
    for game, game_id in over.items():
        page.goto(app_url + f"#/play/{game_id}")
        page.wait_for_selector("[data-testid=game-over]", timeout=60_000)
        audit.check(f"{game}: game over")
    page.goto(app_url + f"#/play/{over['lobo']}")
    page.click("[data-testid=over-link-review]", timeout=60_000)
    page.wait_for_selector("[data-testid=review-summary]", timeout=120_000)
    page.wait_for_selector("[data-testid=review-progress]", state="detached", timeout=120_000)
    audit.check("lobo: the review of a game")
    page.goto(app_url + "#/games")
    page.wait_for_selector("[data-testid=history-row]")
    audit.check("saved games")
    page.goto(app_url + f"#/replay/{over['wizard']}")
    page.wait_for_selector("[data-testid=replay-board] > *")
    audit.check("replay")
    page.goto(app_url + "#/")
    page.wait_for_selector("[data-testid=kept-game]")
    audit.check("home, with saved games")
    page.click("[data-testid=delete-game]")
    page.wait_for_selector("[data-testid=delete-dialog]")
    audit.check("home: delete dialog")
    page.click("[data-testid=cancel-delete]")


# English on a desktop, Spanish on a 390 px phone: both languages and both layouts, each once.
SCREENS = [("en", {"width": 1280, "height": 800}), ("es", {"width": 390, "height": 844})]


@pytest.mark.parametrize(("language", "viewport"), SCREENS, ids=["en-desktop", "es-phone"])
def test_every_screen_has_no_serious_violation(
    new_context: Any, app_url: str, axe: str, language: str, viewport: dict[str, int]
) -> None:
    context = new_context(viewport=viewport)
    context.add_init_script(f"localStorage.setItem('tapete.lang', '{language}');")
    page = context.new_page()
    audit = Audit(page, axe, f"{language}, {viewport['width']} px")
    page.goto(app_url)
    wait_ready(page)
    for game in reversed(GAMES):  # Wizard's form last: it opens the devices' lobby
        page.goto(app_url + f"#/new/{game}")
        page.wait_for_selector("[data-testid=new-game-form]")
        if game == "lobo":
            page.click("[data-testid=settings] summary")
            audit.check(f"{game}: new game, with the settings menu open")
            page.click("[data-testid=settings] summary")
        else:
            audit.check(f"{game}: new game")
    devices_screens(page, audit)
    play_screens(page, audit, app_url)
    planted_screens(page, audit, app_url)
    page.goto(app_url + LAB)
    page.wait_for_selector("[data-testid=lab][data-state=done]", timeout=90_000)
    audit.check("lab, with results")
    for name in RULES:
        page.goto(app_url + f"rules/{name}.{language}.html")
        audit.check(f"rules: {name}")
    if audit.found:
        pytest.fail(audit.report(), pytrace=False)


# The longest computed transition and animation durations on the table, in seconds.
MOTION = """() => {
  const seconds = (text) => Math.max(0, ...text.split(",").map((part) =>
    (parseFloat(part) || 0) * (part.trim().endsWith("ms") ? 0.001 : 1)));
  let transition = 0;
  let animation = 0;
  const play = document.querySelector("[data-testid=play]");
  for (const element of [play, ...play.querySelectorAll("*")]) {
    const style = getComputedStyle(element);
    transition = Math.max(transition, seconds(style.transitionDuration));
    animation = Math.max(animation, seconds(style.animationDuration));
  }
  return {motion: document.documentElement.dataset.motion, transition, animation};
}"""


def set_motion(page: Any, value: str) -> None:
    page.click("[data-testid=settings] summary")
    page.select_option("[data-testid=motion-select]", value)
    page.click("[data-testid=settings] summary")


def test_reduced_motion_follows_the_system_and_the_setting_overrides_it(
    new_context: Any, app_url: str
) -> None:
    # fast bots, without overwriting the saved settings at each load (the reload below)
    context = new_context(fast=False, reduced_motion="reduce")
    context.add_init_script(FAST_BOTS_ONCE)
    page = context.new_page()
    open_link(page, app_url, WIZARD)
    wait_my_turn(page, "bid")
    still = {"motion": "reduce", "transition": 0, "animation": 0}
    assert page.evaluate(MOTION) == still  # Auto: the system asks for less motion
    set_motion(page, "off")
    moving = page.evaluate(MOTION)
    assert moving["motion"] == "full" and moving["transition"] > 0, moving
    set_motion(page, "auto")
    assert page.evaluate(MOTION) == still
    page.emulate_media(reduced_motion="no-preference")  # Auto follows the system's change
    wait_until(page, "document.documentElement.dataset.motion === 'full'", 10)
    assert page.evaluate(MOTION) == moving
    set_motion(page, "on")
    assert page.evaluate(MOTION) == still
    # kept with the other settings: after a reload, Off still overrides the system
    page.emulate_media(reduced_motion="reduce")
    set_motion(page, "off")
    page.reload()
    wait_until(page, "document.querySelector('[data-testid=motion-select]').value === 'off'")
    assert page.evaluate("document.documentElement.dataset.motion") == "full"
