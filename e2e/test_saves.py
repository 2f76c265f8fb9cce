"""Every game kept (issue 15): several games at once continue where they were, Delete asks
first, the single-slot save of earlier versions migrates, an unreadable record is set aside
while the others load, and a full storage is reported while the game goes on."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ui_helpers import (
    js,
    open_link,
    plant_game,
    saved_entries,
    shot,
    step,
    wait_ready,
    wait_saved_moves,
    wait_until,
)

OLD_SAVE = Path(__file__).resolve().parent / "data" / "single-slot-save.json"
WIZARD = "#/wizard?seed=KEEP1&players=3&bots=1:random,2:random"
PHONE = {"width": 390, "height": 844}


def moves_on_table(page: Any) -> int:
    return int(page.get_attribute("[data-testid=play]", "data-moves") or -1)


def hand(page: Any) -> list[str]:
    cards = "els => els.map(e => e.dataset.card)"
    return list(page.eval_on_selector_all("[data-testid=hand-card]", cards))


def kept_rows(page: Any) -> list[dict[str, str]]:
    page.wait_for_selector("[data-testid=kept-panel]")
    return page.eval_on_selector_all(
        "[data-testid=kept-game]",
        "els => els.map(e => ({id: e.dataset.id, game: e.dataset.game, text: e.innerText}))",
    )


def go_home(page: Any, app_url: str) -> None:
    page.goto(app_url + "#/")
    page.wait_for_selector("[data-testid=home]")


def test_two_games_continue_where_they_were_and_delete_asks_first(
    new_context: Any, app_url: str
) -> None:
    page = new_context().new_page()
    open_link(page, app_url, WIZARD)
    for _ in range(4):
        step(page)
    page.wait_for_selector("[data-testid=table][data-my-turn=true]")
    wizard_moves, wizard_hand = moves_on_table(page), hand(page)
    wait_saved_moves(page, wizard_moves)
    # A second game from the new-game form: the first one stays.
    page.goto(app_url + "#/new/lobo")
    page.wait_for_selector("[data-testid=new-game-form]")
    page.fill("[data-testid=seed]", "E2E1")
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=table][data-my-turn=true]", timeout=90_000)
    page.click("[data-testid=hint]")
    page.wait_for_selector("[data-testid=play-hint]", timeout=60_000).click()
    page.wait_for_selector("[data-testid=play][data-moves='1']")
    lobo_hand = hand(page)
    wait_saved_moves(page, 1)
    go_home(page, app_url)
    rows = kept_rows(page)
    assert [row["game"] for row in rows] == ["lobo", "wizard"]  # the last played first
    assert "the Wolf" in rows[0]["text"] and "Round 1" in rows[0]["text"]
    assert "2 bots · random" in rows[1]["text"] and "of 20" in rows[1]["text"]
    assert "last played just now" in rows[1]["text"]
    shot(page, "saves-01-home-two-games")
    # Both continue where they were, after a reload too.
    page.reload()
    page.click(f"[data-testid=kept-game][data-id='{rows[1]['id']}'] [data-testid=continue]")
    page.wait_for_selector("[data-testid=table][data-my-turn=true]", timeout=60_000)
    assert (moves_on_table(page), hand(page)) == (wizard_moves, wizard_hand)
    go_home(page, app_url)
    page.click(f"[data-testid=kept-game][data-id='{rows[0]['id']}'] [data-testid=continue]")
    page.wait_for_selector("[data-testid=table][data-my-turn=true]", timeout=60_000)
    assert moves_on_table(page) == 1
    assert hand(page) == lobo_hand
    # Delete asks once; "Keep it" keeps it, "Delete the game" deletes it.
    go_home(page, app_url)
    lobo_row = f"[data-testid=kept-game][data-id='{rows[0]['id']}']"
    page.click(f"{lobo_row} [data-testid=delete-game]")
    dialog = page.wait_for_selector("[data-testid=delete-dialog]")
    assert "Lobo" in dialog.inner_text() and "cannot be brought back" in dialog.inner_text()
    assert js(page, "document.activeElement.dataset.testid") == "cancel-delete"
    shot(page, "saves-02-delete-asks")
    page.keyboard.press("Enter")  # the focused, safe choice
    page.wait_for_selector("[data-testid=delete-dialog]", state="detached")
    assert len(kept_rows(page)) == 2
    page.click(f"{lobo_row} [data-testid=delete-game]")
    page.wait_for_selector("[data-testid=delete-dialog]")
    page.keyboard.press("Escape")  # keeps it too
    page.wait_for_selector("[data-testid=delete-dialog]", state="detached")
    assert len(kept_rows(page)) == 2
    page.click(f"{lobo_row} [data-testid=delete-game]")
    page.click("[data-testid=confirm-delete]")
    page.wait_for_selector(lobo_row, state="detached")
    page.reload()
    assert [row["game"] for row in kept_rows(page)] == ["wizard"]
    assert [entry["record"]["game"] for entry in saved_entries(page)] == ["wizard"]
    # In Spanish, and on a phone: the list fits, nothing scrolls sideways.
    page.set_viewport_size(PHONE)
    page.click("[data-testid=lang-es]")
    page.wait_for_selector("[data-testid=kept-panel]:has-text('Partidas en curso (1)')")
    text = kept_rows(page)[0]["text"]
    assert "Ronda" in text and "2 bots · al azar" in text, text
    shot(page, "saves-03-phone-home-es")
    assert js(page, "document.documentElement.scrollWidth") <= 390
    page.click("[data-testid=delete-game]")
    page.wait_for_selector("[data-testid=delete-dialog]:has-text('¿Borrar esta partida?')")
    shot(page, "saves-04-phone-delete-es")


def test_the_old_single_save_migrates(new_context: Any, app_url: str) -> None:
    """localStorage as the single-slot app left it (a Wizard game in progress, a finished Lobo
    game): both become saved games on the first load, and the old keys go."""
    old = json.loads(OLD_SAVE.read_text())
    keys = {key: old[key] for key in ("tapete.autosave", "tapete.last")}
    context = new_context()
    page = context.new_page()
    page.goto(app_url + "icons/favicon.svg")  # the origin, without the app running yet
    js(page, f"Object.entries({json.dumps(keys)}).forEach(([k, v]) => localStorage.setItem(k, v))")
    page.goto(app_url)
    wait_ready(page)
    rows = kept_rows(page)
    assert [row["game"] for row in rows] == ["wizard"]
    assert "3 bots · normal" in rows[0]["text"]
    # the finished Lobo game is counted once the engine has summarized it
    page.wait_for_selector("[data-testid=my-games-link]:has-text('1 finished')", timeout=60_000)
    assert js(page, "['tapete.autosave', 'tapete.last'].map((k) => localStorage.getItem(k))") == [
        None,
        None,
    ]
    page.reload()
    wait_ready(page)
    assert len(kept_rows(page)) == 1 and len(saved_entries(page)) == 2  # no duplicates
    page.click("[data-testid=continue]")
    page.wait_for_selector("[data-testid=table]", timeout=60_000)
    assert moves_on_table(page) == len(json.loads(keys["tapete.autosave"])["moves"])
    assert "Ana" in page.inner_text("[data-testid=table]")


def test_a_corrupt_record_is_set_aside_while_the_others_load(
    new_context: Any, app_url: str
) -> None:
    page = new_context().new_page()
    page.goto(app_url)
    wait_ready(page)
    seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}]
    good = {
        "game": "willie",
        "engine_version": "0",
        "seed": "GOOD1",
        "options": {},
        "players": 2,
        "seats": seats,
        "moves": [],
    }
    plant_game(page, good, summary=None)
    plant_game(page, {**good, "seed": "GOOD2"}, summary=None)
    plant_game(page, {**good, "seed": "BAD1", "seats": [{"kind": "alien"}, seats[1]]})
    plant_game(page, {**good, "seed": "BAD2"}, v=99)
    # the right shape, but a move no engine accepts: set aside when the engine rebuilds it
    plant_game(page, {**good, "seed": "BAD3", "moves": [{"seat": 0, "move": "fly"}]}, summary=None)
    page.reload()
    wait_ready(page)
    # the three bad ones are told one by one; the two good ones are listed
    wait_until(page, "document.querySelectorAll('[data-testid=home-message]').length === 3", 60)
    texts = "els => els.map(e => e.innerText)"
    messages = page.eval_on_selector_all("[data-testid=home-message]", texts)
    assert all("set aside" in text for text in messages), messages
    assert any("bad seat" in text for text in messages)
    assert any("unknown version" in text for text in messages)
    assert any("damaged" in text and "move 1 of the record" in text for text in messages), messages
    assert len(kept_rows(page)) == 2
    shot(page, "saves-05-set-aside")
    assert len(js(page, "window.tapete.saves.listAside()")) == 3
    page.reload()
    assert len(kept_rows(page)) == 2
    assert page.locator("[data-testid=home-message]").count() == 0  # each told once
    page.click("[data-testid=continue] >> nth=0")
    page.wait_for_selector("[data-testid=table]", timeout=60_000)


def test_a_full_storage_is_reported_and_the_game_goes_on(new_context: Any, app_url: str) -> None:
    page = new_context(locale="es-ES").new_page()
    page.goto(app_url)
    wait_ready(page)
    origin = app_url.rstrip("/")
    cdp = page.context.new_cdp_session(page)
    cdp.send("Storage.overrideQuotaForOrigin", {"origin": origin, "quotaSize": 1})
    open_link(page, app_url, WIZARD)  # a new game: the storage refuses its entry
    banner = page.wait_for_selector("[data-testid=storage-banner]:not([hidden])")
    assert "lleno" in banner.inner_text()
    shot(page, "saves-06-storage-full-es")
    for _ in range(3):
        step(page)
    page.wait_for_selector("[data-testid=table][data-my-turn=true]")
    assert moves_on_table(page) >= 3  # the game goes on in memory
    assert saved_entries(page) == []
    # it is listed at home all the same, and continues from memory
    go_home(page, app_url)
    assert len(kept_rows(page)) == 1
    page.click("[data-testid=continue]")
    page.wait_for_selector("[data-testid=table][data-my-turn=true]")
    cdp.send("Storage.overrideQuotaForOrigin", {"origin": origin})
    step(page)
    page.wait_for_selector("[data-testid=storage-banner]", state="hidden")
    page.wait_for_selector("[data-testid=table][data-my-turn=true]")
    wait_saved_moves(page, moves_on_table(page))
