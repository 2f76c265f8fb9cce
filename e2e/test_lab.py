"""The playtest lab in Chromium: a short run from a link (progress, table, charts, the same
numbers as the command line), Stop in the middle of a longer run, settings A and B side by
side, hostile links, and the page in Spanish. Runs are a few games: bots are fast at this size."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from ui_helpers import js, shot, wait_until

ENGINE = Path(__file__).resolve().parent.parent / "engine"
if str(ENGINE) not in sys.path:
    sys.path.insert(0, str(ENGINE))

from tapete.lab import main as lab_cli  # noqa: E402

SHORT = "#/lab/willie?seed=E2E&games=6&players=2&levels=normal&a="
AB = (
    "#/lab/willie?seed=E2EAB&games=6&players=2,3&levels=easy&a="
    "&b=close_threshold:5,max_group_size:5"
)


def state(page: Any) -> str:
    return str(page.get_attribute("[data-testid=lab]", "data-state"))


def wait_state(page: Any, *states: str, timeout: float = 90) -> str:
    wanted = " || ".join(
        f"document.querySelector('[data-testid=lab][data-state={s}]')" for s in states
    )
    wait_until(page, f"Boolean({wanted})", timeout)
    return state(page)


def page_cells(page: Any, side: str) -> dict[str, str]:
    return dict(
        page.eval_on_selector_all(
            f"[data-testid^=lab-cell-{side}-]",
            "els => els.map(e => [e.dataset.testid.split('-').slice(3).join('-'), e.textContent])",
        )
    )


def cli_cells(argv: list[str], capsys: Any) -> list[dict[str, str]]:
    assert lab_cli([*argv, "--json", "--quiet"]) == 0
    return [run["cells"] for run in json.loads(capsys.readouterr().out)]


def test_short_run_from_a_link_matches_the_command_line(
    new_context: Any, app_url: str, capsys: Any
) -> None:
    page = new_context().new_page()
    page.goto(app_url)
    page.locator("[data-testid=lab-home-link]").scroll_into_view_if_needed()
    shot(page, "lab-00-home")
    page.click("[data-testid=lab-home-link]")
    page.wait_for_selector("[data-testid=lab-form]")
    assert state(page) == "idle" and page.is_hidden("[data-testid=lab-results]")
    began = time.monotonic()
    page.goto(app_url + SHORT)
    # (a run this short may finish between two polls: the bar moving during a run is checked
    # by test_stop_a_longer_run_midway)
    while state(page) not in ("done", "error"):
        assert time.monotonic() - began < 90, "the run did not finish"
        page.wait_for_timeout(50)
    assert state(page) == "done", page.inner_text("[data-testid=lab-error]")
    assert js(page, "document.querySelector('[data-testid=lab-progress]').value") == 6
    assert "6 games" in page.inner_text("[data-testid=lab-progress-text]")
    cells = page_cells(page, "a")
    assert cells["games"] == "6" and cells["games_by_players"] == "2p: 6"
    assert page_cells(page, "b") == {}
    argv = ["willie", "--players", "2", "--games", "6", "--seed", "E2E", "--levels", "normal"]
    assert [cells] == cli_cells(argv, capsys)
    assert page.locator("[data-testid=lab-charts] figure").count() == 5
    assert page.locator("[data-testid=lab-charts] svg rect").count() >= 5
    assert page.input_value("[data-testid=lab-link]").endswith(SHORT)
    assert page.inner_text("[data-testid=lab-cli]").startswith("python -m tapete.lab willie")
    shot(page, "lab-01-short-run")
    page.locator("[data-testid=lab-results]").screenshot(path=str(shot_path("lab-02-results")))


def test_stop_a_longer_run_midway(new_context: Any, app_url: str) -> None:
    page = new_context().new_page()
    page.goto(app_url + "#/lab/willie")
    page.wait_for_selector("[data-testid=lab-form]")
    page.fill("[data-testid=lab-games]", "3000")
    page.fill("[data-testid=lab-seed]", "LONG")
    page.fill("[data-testid=lab-a-close_threshold]", "5")
    page.click("[data-testid=lab-run]")
    assert "games=3000" in page.url and "close_threshold:5" in page.url
    wait_until(page, "document.querySelector('[data-testid=lab-progress]').value >= 8", 90)
    assert state(page) == "running" and page.is_disabled("[data-testid=lab-run]")
    page.wait_for_selector("[data-testid=lab-table]")  # the numbers so far, while it runs
    shot(page, "lab-08-running")
    page.click("[data-testid=lab-stop]")
    assert wait_state(page, "stopped", "done") == "stopped"
    played = int(page_cells(page, "a")["games"])
    assert 8 <= played < 3000
    assert f"{played} of 3000" in page.inner_text("[data-testid=lab-progress-text]")
    assert page.locator("[data-testid=lab-charts] figure").count() == 5
    assert page.is_enabled("[data-testid=lab-run]") and page.is_hidden("[data-testid=lab-stop]")


def test_two_settings_side_by_side_on_a_phone(new_context: Any, app_url: str, capsys: Any) -> None:
    page = new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(app_url + AB)
    assert wait_state(page, "done", "error") == "done"
    a, b = page_cells(page, "a"), page_cells(page, "b")
    assert a["games_by_players"] == b["games_by_players"] == "2p: 3, 3p: 3"
    argv = ["willie", "--players", "2,3", "--games", "6", "--seed", "E2EAB", "--levels", "easy"]
    argv += ["--vs", "close_threshold=5", "--vs", "max_group_size=5"]
    assert [a, b] == cli_cells(argv, capsys)
    assert page.is_checked("[data-testid=lab-compare]")
    assert page.input_value("[data-testid=lab-b-close_threshold]") == "5"
    assert page.input_value("[data-testid=lab-a-close_threshold]") == "3"
    assert page.locator("[data-testid=lab-chart-rounds_per_game] rect.side-b").count() >= 1
    width = js(page, "document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways ({width}px)"
    shot(page, "lab-03-phone-form")
    page.locator("[data-testid=lab-table]").screenshot(path=str(shot_path("lab-04-phone-table")))
    page.locator("[data-testid=lab-charts]").scroll_into_view_if_needed()
    shot(page, "lab-05-phone-charts")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.locator("[data-testid=lab-results]").screenshot(path=str(shot_path("lab-09-desktop-ab")))
    # in Spanish: the same numbers, redrawn at once (a language change does not run again)
    page.click("[data-testid=settings] summary")
    page.select_option("[data-testid=lang-select]", "es")
    wait_until(page, "document.querySelector('.lab-head h1')?.textContent.includes('Laboratorio')")
    assert state(page) == "done" and [page_cells(page, "a"), page_cells(page, "b")] == [a, b]
    assert "Partidas jugadas" in page.inner_text("[data-testid=lab-table]")
    assert "Cómo acaban las rondas" in page.inner_text("[data-testid=lab-charts]")
    assert "12 partidas" in page.inner_text("[data-testid=lab-progress-text]")
    page.locator("[data-testid=lab-results]").screenshot(path=str(shot_path("lab-06-spanish")))
    page.goto(app_url + "#/lab/willie?seed=ES&games=0")
    spanish = "El número de partidas"
    wait_until(
        page,
        f"document.querySelector('[data-testid=lab-error]')?.textContent.includes({spanish!r})",
    )
    page.goto(app_url + "#/")
    assert "Laboratorio de pruebas" in page.inner_text("[data-testid=lab-home-link]")


def test_hostile_links_show_an_error_and_break_nothing(new_context: Any, app_url: str) -> None:
    page = new_context().new_page()
    for query, text in (
        ("seed=%3Cscript%3E&games=6", "seed"),
        ("seed=OK&games=-1", "1 to 20000"),
        ("seed=OK&games=20001", "1 to 20000"),
        ("seed=OK&players=3,2", "2 to 3 players"),
        ("seed=OK&players=4", "2 to 3 players"),
        ("seed=OK&levels=godlike", "godlike"),
        ("seed=OK&a=hand_size:99", "hand_size"),
        ("seed=OK&a=no_such_knob:1", "no_such_knob"),
        ("seed=OK&seed=OK", "damaged"),
        ("x" * 10_000, "too long"),
        ("seed=%E0%A4%A", "damaged"),
    ):
        page.goto(app_url + "#/lab/willie")  # no error shown: each check below starts afresh
        wait_until(page, "document.querySelector('[data-testid=lab-error]')?.hidden")
        page.goto(app_url + "#/lab/willie?" + query)
        has_text = (
            f"document.querySelector('[data-testid=lab-error]')?.textContent.includes({text!r})"
        )
        wait_until(page, f"{has_text} && !document.querySelector('[data-testid=lab-error]').hidden")
        assert state(page) == "idle" and page.is_visible("[data-testid=lab-form]")
    # a knob the catalogue allows but the engine refuses: the engine's coded error, in words
    page.goto(app_url + "#/lab/willie?seed=OK&games=2&a=hand_size:9")
    assert wait_state(page, "error", "done") == "error"
    assert "Cards per hand is 8, 10 or 12 cards" in page.inner_text("[data-testid=lab-error]")
    shot(page, "lab-07-engine-refuses")
    page.goto(app_url + "#/lab/chess?seed=OK")
    page.wait_for_selector("[data-testid=home-message]")
    assert "chess" in page.inner_text("[data-testid=home-message]")
    page.goto(app_url + "#/lab/willie?seed=OK&games=2")
    assert wait_state(page, "done", "error") == "done"  # the worker is fine after all that


def shot_path(name: str) -> Path:
    path = Path(__file__).resolve().parent / "screenshots" / f"{name}.png"
    path.parent.mkdir(exist_ok=True)
    return path
