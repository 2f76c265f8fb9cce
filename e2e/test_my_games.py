"""My games (issue 15): finished games per game type with their statistics and chart, every
game exported to a file and imported into a fresh browser profile (the same history, no
duplicates), and an import file treated as hostile input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from records import bot_record, final_view
from ui_helpers import js, plant_game, shot, wait_ready

DAY = 86_400_000
PHONE = {"width": 390, "height": 844}
NOW = 1_780_000_000_000  # a fixed "now" for the planted games' dates (2026-05-28)


def finished_games() -> list[dict[str, Any]]:
    """Two Wizard games (6 seats, against random and against basic bots), one Rummikub, one
    Willie, and two Lobo games at two difficulties."""
    return [
        bot_record("wizard", "MG1", ("random",) * 5),
        bot_record("wizard", "MG2", ("heuristic",) * 5),
        bot_record("wizard", "MG3", ("random",) * 5),
        bot_record("rummikub", "MG4", ("random",)),
        bot_record("willie", "MG5", ("random",)),
        bot_record("lobo", "MG6", options={"difficulty": "EASY"}),
        bot_record("lobo", "MG7", options={"difficulty": "HARD"}),
    ]


def plant_all(page: Any) -> list[str]:
    ids = []
    for i, record in enumerate(finished_games()):
        when = NOW - (10 - i) * DAY
        ids.append(plant_game(page, record, status="finished", created=when, updated=when))
    ids.append(plant_game(page, bot_record("wizard", "MG8", ("random",) * 2, limit=20)))
    return ids


def history(page: Any) -> dict[str, list[str]]:
    """The history rows of every game's tab, as text."""
    out = {}
    tabs = page.eval_on_selector_all("[data-testid^=tab-]", "els => els.map(e => e.dataset.testid)")
    for tab in tabs:
        page.click(f"[data-testid={tab}]")
        page.wait_for_selector(f"[data-testid=finished-panel][data-game={tab[4:]}]")
        # each cell's text (innerText depends on layout: a row not laid out yet reads without
        # its tabs and line breaks)
        out[tab[4:]] = page.eval_on_selector_all(
            "[data-testid=history-row]",
            "els => els.map(e => e.dataset.id + ' ' + [...e.children]"
            ".map(c => c.textContent.trim()).join(' | '))",
        )
    return out


def choose(page: Any, game: str) -> None:
    page.click(f"[data-testid=tab-{game}]")
    page.wait_for_selector(f"[data-testid=finished-panel][data-game={game}]")


def stat(page: Any, key: str, name: str) -> str:
    return str(page.inner_text(f"[data-testid=stats-row][data-key='{key}'] [data-stat={name}]"))


def open_my_games(page: Any, app_url: str, games: int) -> None:
    page.goto(app_url + "#/games")
    page.wait_for_selector("[data-testid=my-games]")
    tabs = "document.querySelectorAll('[data-testid^=tab-]').length"
    for _ in range(900):
        if js(page, tabs) == games:
            return
        page.wait_for_timeout(100)
    raise AssertionError("the finished games never all showed")


def test_history_statistics_export_and_import(
    new_context: Any, app_url: str, tmp_path: Path
) -> None:
    page = new_context().new_page()
    page.goto(app_url)
    wait_ready(page)
    ids = plant_all(page)
    open_my_games(page, app_url, 4)
    # Wizard: one row per opponent level, then all; the numbers are the engine's
    choose(page, "wizard")
    records = finished_games()[:3]
    outcomes = [final_view(record) for record in records]
    won = sum(0 in outcome["winners"] for outcome, _ in outcomes)
    assert stat(page, "all", "played") == "3"
    assert stat(page, "all", "won").startswith(f"{won} (")
    average = sum(outcome["scores"][0] for outcome, _ in outcomes) / 3
    assert stat(page, "all", "average").replace(",", "") == f"{average:.1f}".rstrip("0").rstrip(".")
    made = sum(
        row["bids"][0] == row["tricks"][0] for _, view in outcomes for row in view["history"]
    )
    assert stat(page, "all", "extra").endswith(f"({made}/30)")  # 10 rounds a game
    assert stat(page, "random", "played") == "2" and stat(page, "heuristic", "played") == "1"
    assert page.locator("[data-testid=score-chart] rect").count() == 3
    rows = page.locator("[data-testid=history-row]")
    assert rows.count() == 3 and rows.first.get_attribute("data-id") == ids[2]  # newest first
    shot(page, "mygames-01-wizard")
    # Rummikub's rack left, Willie's rounds won, Lobo's wins per difficulty
    choose(page, "rummikub")
    rummikub, _ = final_view(finished_games()[3])
    assert stat(page, "random", "extra") == str(rummikub["racks"][0])
    choose(page, "willie")
    willie, _ = final_view(finished_games()[4])
    assert stat(page, "random", "extra").startswith(f"{willie['rounds_won'][0]}/{willie['rounds']}")
    choose(page, "lobo")
    assert page.locator("[data-testid=stats-row]").count() == 3  # Easy, Hard, all
    assert "Easy" in page.inner_text("[data-testid=stats-row][data-key='difficulty:EASY']")
    shot(page, "mygames-02-lobo")
    assert page.locator("[data-testid=playing-panel] [data-testid=kept-game]").count() == 1
    # Export every game, then import the file into a fresh profile: the same history.
    before = history(page)
    with page.expect_download() as download:
        page.click("[data-testid=export]")
    path = tmp_path / "export.json"
    download.value.save_as(path)
    exported = json.loads(path.read_text())
    assert exported["format"] == "tapete-games" and len(exported["games"]) == 8
    fresh = new_context().new_page()
    fresh.goto(app_url + "#/games")
    wait_ready(fresh)
    fresh.wait_for_selector("[data-testid=no-finished]")
    fresh.set_input_files("[data-testid=import-file]", str(path))
    result = fresh.wait_for_selector("[data-testid=import-result]", timeout=120_000)
    assert result.get_attribute("data-added") == "8", result.inner_text()
    assert result.get_attribute("data-refused") == "0"
    open_my_games(fresh, app_url, 4)
    assert history(fresh) == before
    # Importing the same file again adds nothing.
    fresh.set_input_files("[data-testid=import-file]", str(path))
    again = fresh.wait_for_selector(
        "[data-testid=import-result][data-duplicates='8']", timeout=120_000
    )
    assert again.get_attribute("data-added") == "0"
    assert history(fresh) == before
    # In Spanish, on a phone.
    fresh.set_viewport_size(PHONE)
    fresh.click("[data-testid=settings] summary")
    fresh.select_option("[data-testid=lang-select]", "es")
    fresh.wait_for_selector("h1:has-text('Mis partidas')")
    fresh.click("[data-testid=settings] summary")  # close the settings again
    choose(fresh, "wizard")
    assert "Apuestas cumplidas" in fresh.inner_text("[data-testid=stats-table]")
    shot(fresh, "mygames-03-phone-es")
    assert js(fresh, "document.documentElement.scrollWidth") <= 390


def test_an_import_file_is_hostile_input(new_context: Any, app_url: str, tmp_path: Path) -> None:
    page = new_context().new_page()
    page.goto(app_url + "#/games")
    wait_ready(page)
    page.wait_for_selector("[data-testid=no-finished]")

    def import_text(name: str, text: str) -> Any:
        path = tmp_path / name
        path.write_text(text)
        page.set_input_files("[data-testid=import-file]", str(path))
        return page.wait_for_selector("[data-testid=import-result]", timeout=120_000)

    assert "not JSON" in import_text("a.json", "{nope").inner_text()
    page.reload()
    assert "not a Tapete export" in import_text("b.json", '{"format": "other"}').inner_text()
    page.reload()
    many = {"format": "tapete-games", "version": 1, "games": [{}] * 2001}
    assert "at most 2000" in import_text("c.json", json.dumps(many)).inner_text()
    page.reload()
    good = bot_record("lobo", "HOSTILE1")
    bad_move = {**good, "seed": "HOSTILE2", "moves": [{"seat": 0, "move": "teleport"}]}
    bad_seat = {**good, "seats": [{"kind": "human", "name": " padded "}]}
    unknown = {**good, "game": "poker"}
    junk = {
        "format": "tapete-games",
        "version": 1,
        "games": [
            {"record": good},
            {"record": bad_move},
            {"record": bad_seat},
            {"record": unknown},
            7,
        ],
    }
    result = import_text("d.json", json.dumps(junk))
    assert result.get_attribute("data-added") == "1", result.inner_text()
    assert result.get_attribute("data-refused") == "4"
    texts = "els => els.map(e => e.innerText)"
    refused = page.eval_on_selector_all("[data-testid=import-refused]", texts)
    assert refused[0].startswith("game 2 of the file") and "move 1 of the record" in refused[0]
    assert refused[1].startswith("game 3") and "bad seat name" in refused[1]
    assert refused[2].startswith("game 4") and "poker" in refused[2]
    assert refused[3].startswith("game 5") and "not an object" in refused[3]
    shot(page, "mygames-04-import-refused")
    assert page.locator("[data-testid=tab-lobo]").count() == 1
