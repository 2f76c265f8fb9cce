"""Helpers for the e2e tests: the build, waiting on the page, and playing like a person."""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SHOTS = Path(__file__).resolve().parent / "screenshots"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
BOOT_TIMEOUT_MS = 90_000
# The guided tour (web/ui/tour.js) opens by itself on the first game of each game. Tests that are
# not about it start with every tour seen: this one setting, written by FAST_BOTS (at every load)
# and by NO_TOURS (conftest's contexts without fast bots); e2e/test_tour.py turns it off.
TOURS_SEEN = '["lobo", "rummikub", "willie", "wizard"]'
FAST_BOTS = (
    "localStorage.setItem('tapete.settings', "
    f"JSON.stringify({{fastBots: true, toursSeen: {TOURS_SEEN}}}));"
)
_MERGE = (
    "(() => {{ let s = {{}};"
    " try {{ s = JSON.parse(localStorage.getItem('tapete.settings')) || {{}}; }}"
    " catch {{ s = {{}}; }}"
    " if (!({key!r} in s)) {{ s[{key!r}] = {value};"
    " localStorage.setItem('tapete.settings', JSON.stringify(s)); }} }})();"
)
NO_TOURS = _MERGE.format(key="toursSeen", value=TOURS_SEEN)
# fast bots once, kept with the other settings (a test that reloads and checks a setting)
FAST_BOTS_ONCE = _MERGE.format(key="fastBots", value="true")


def load_build_module() -> Any:
    spec = importlib.util.spec_from_file_location("tapete_build", ROOT / "build.py")
    assert spec and spec.loader, "build.py is missing"
    module = importlib.util.module_from_spec(spec)
    sys.modules["tapete_build"] = module
    spec.loader.exec_module(module)
    return module


def wait_ready(page: Any) -> None:
    page.wait_for_selector("html[data-engine=ready]", state="attached", timeout=BOOT_TIMEOUT_MS)


def shot(page: Any, name: str) -> Path:
    SHOTS.mkdir(exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.wait_for_timeout(300)  # let fades and slides finish: the picture is for a person
    page.screenshot(path=str(path))
    return path


def js(page: Any, expression: str) -> Any:
    return page.evaluate(expression)


def wait_until(page: Any, expression: str, timeout: float = 30.0) -> Any:
    """Poll a JS expression from Python (the page's CSP forbids wait_for_function's eval)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = page.evaluate(expression)
        except Exception as error:  # the page may be reloading under us
            if "context was destroyed" not in str(error) and "navigat" not in str(error):
                raise
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {expression}")
        page.wait_for_timeout(100)


# -- saved games (IndexedDB, web/saves/saves.js as window.tapete.saves) --------------------------


def saved_entry(page: Any, entry_id: str | None = None) -> Any:
    """A saved entry as IndexedDB holds it (default: the game on the table), or None."""
    return page.evaluate(
        """async (id) => {
          const saves = window.tapete.saves;
          id = id || window.tapete.app.game?.id;
          if (!id) return null;
          const found = await saves.getGame(id);
          return found && found.entry ? found.entry : null;
        }""",
        entry_id,
    )


def saved_record(page: Any) -> Any:
    """The saved record of the game on the table (what a reload would continue)."""
    entry = saved_entry(page)
    return entry["record"] if entry else None


def saved_entries(page: Any) -> Any:
    """Every saved entry, newest first."""
    return page.evaluate("async () => (await window.tapete.saves.listGames()).entries")


def plant_game(page: Any, record: Any, status: str = "playing", **fields: Any) -> str:
    """Store a game record as a saved entry (as if played here); returns its id."""
    return str(
        page.evaluate(
            """async ([record, status, fields]) => {
              const saves = window.tapete.saves;
              const entry = {...saves.makeEntry(record, {status}), ...fields};
              await saves.putGame(entry, {touch: false});
              return entry.id;
            }""",
            [record, status, fields],
        )
    )


def wait_saved_moves(page: Any, count: int) -> Any:
    """Wait until the saved record of the game on the table has ``count`` moves."""
    deadline = time.monotonic() + 30
    while True:
        record = saved_record(page)
        if record and len(record["moves"]) >= count:
            return record
        if time.monotonic() > deadline:
            raise AssertionError(f"the save never reached {count} moves")
        page.wait_for_timeout(100)


# -- playing through the UI --------------------------------------------------------------------

ACTIONABLE = (
    "[data-testid=round-continue], [data-testid=handover-ready], "
    "[data-testid=table][data-my-turn=true], [data-testid=game-over]"
)


def step(page: Any, timeout: float = 30_000, before_continue: Any = None) -> str:
    """Do one thing a human player would do next; returns what it did.

    ``before_continue(page)`` runs while a round's result is shown, before "Continue".
    """
    element = page.wait_for_selector(ACTIONABLE, timeout=timeout)
    testid = element.get_attribute("data-testid")
    if testid == "round-continue" and before_continue is not None:
        before_continue(page)
    if testid in ("round-continue", "handover-ready"):
        element.click()
        return testid
    if testid == "game-over":
        return "over"
    phase = element.get_attribute("data-phase")
    if phase == "bid":
        page.click("[data-testid=bid].legal")
    elif phase == "trump":
        page.click("[data-testid=trump-choice].legal")
    else:
        page.click("[data-testid=hand-card].legal")
    return phase or "?"


def play_until(page: Any, condition: Any, limit: int = 300, **step_options: Any) -> dict[str, Any]:
    """Play (step) until it is our turn at the table and ``condition(table_state)`` holds."""
    for _ in range(limit):
        element = page.wait_for_selector(ACTIONABLE)
        if element.get_attribute("data-testid") == "table":
            state = table_state(page)
            if state and condition(state):
                return state
        step(page, **step_options)
    raise AssertionError("the wanted position never came up")


def table_state(page: Any) -> dict[str, Any]:
    """What the table shows: round, phase, hand, trick, trump."""
    return page.evaluate(
        """() => {
          const table = document.querySelector('[data-testid=table]');
          if (!table) return null;
          return {
            round: Number(table.dataset.round), phase: table.dataset.phase,
            myTurn: table.dataset.myTurn === 'true', trick: table.dataset.trick,
            hand: [...document.querySelectorAll('[data-testid=hand-card]')]
              .map(c => c.dataset.card),
            trump: document.querySelector('[data-testid=trump]').dataset.trump,
            trumpCard: document.querySelector('[data-testid=trump-card]')?.dataset.card ?? null,
          };
        }"""
    )


def moves_made(page: Any) -> int:
    """How many moves the play screen has recorded (its ``data-moves``, which only grows)."""
    return int(page.get_attribute("[data-testid=play]", "data-moves") or 0)


def open_link(page: Any, url: str, link: str) -> None:
    page.goto(url + link)
    wait_ready(page)
    page.wait_for_selector("[data-testid=table]")


def wait_my_turn(page: Any, phase: str | None = None) -> None:
    selector = "[data-testid=table][data-my-turn=true]"
    if phase:
        selector += f"[data-phase={phase}]"
    page.wait_for_selector(selector)


def wait_handover_or_turn(page: Any) -> Any:
    """In a hot-seat game: the hand-over screen, a human's turn, or the round's end."""
    return page.wait_for_selector(
        "[data-testid=handover-ready], [data-testid=table][data-my-turn=true], "
        "[data-testid=round-continue]"
    )
