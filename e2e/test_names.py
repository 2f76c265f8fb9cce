"""Player names: typed on the new-game form, kept in the save, shown as text on every table."""

from __future__ import annotations

import json
from typing import Any

from ui_helpers import (
    js,
    plant_game,
    saved_entry,
    saved_record,
    shot,
    step,
    wait_handover_or_turn,
    wait_ready,
)

HTML_NAME = "<b>Bo</b>&amp;"  # must show as these very characters, never as markup


def start_named_game(page: Any, app_url: str) -> None:
    page.goto(app_url + "#/new/wizard")
    page.wait_for_selector("[data-testid=new-game-form]")
    page.select_option("[data-testid=players]", "3")
    page.select_option("[data-testid=seat-kind-1]", "human")
    assert page.get_attribute("[data-testid=seat-name-0]", "placeholder") == "Player 1"
    assert page.get_attribute("[data-testid=seat-name-2]", "placeholder") == "Bot 3"
    page.fill("[data-testid=seat-name-0]", "   Ana \t  María   ")
    page.fill("[data-testid=seat-name-1]", HTML_NAME)
    page.fill("[data-testid=seat-name-2]", "Robotina with a very long name")  # cut at 16
    page.fill("[data-testid=seed]", "NAMES")
    shot(page, "names-01-form")
    page.click("[data-testid=start]")


def test_names_on_the_table_the_hand_over_and_the_save(new_context: Any, app_url: str) -> None:
    page = new_context().new_page()
    dialogs: list[str] = []

    def on_dialog(dialog: Any) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    start_named_game(page, app_url)
    titles: set[str] = set()
    for _ in range(40):
        ready = wait_handover_or_turn(page)
        if ready.get_attribute("data-testid") == "handover-ready":
            title = page.inner_text("[data-testid=handover] h2")
            if title not in titles:
                shot(page, f"names-02-hand-over-{len(titles)}")
            titles.add(title)
            if len(titles) == 2:
                break
        step(page)
    assert titles == {"Pass the device to Ana María", f"Pass the device to {HTML_NAME}"}
    assert page.locator("[data-testid=handover] b").count() == 0  # no markup from a name
    page.click("[data-testid=handover-ready]")
    page.wait_for_selector("[data-testid=table]")
    record = saved_record(page)
    names = [seat.get("name") for seat in record["seats"]]
    assert names == ["Ana María", HTML_NAME, "Robotina with a"]
    page.reload()
    wait_ready(page)
    page.wait_for_selector("[data-testid=handover-ready], [data-testid=table]")
    if page.locator("[data-testid=handover-ready]").count():
        page.click("[data-testid=handover-ready]")
    page.wait_for_selector("[data-testid=table]")
    names = page.eval_on_selector_all(".seat-name-text", "els => els.map(e => e.textContent)")
    assert sorted(names) == sorted(["Ana María", HTML_NAME, "Robotina with a"])
    assert page.locator(".seat-name-text b").count() == 0
    shot(page, "names-03-table")
    # The deal link carries the deal, not the names.
    page.click("[data-testid=share]")
    url = page.input_value("[data-testid=share-url]")
    assert "Ana" not in url and "Robotina" not in url and "name" not in url
    assert dialogs == []


def test_a_bad_name_in_a_save_sets_it_aside(new_context: Any, app_url: str) -> None:
    page = new_context().new_page()
    page.goto(app_url)
    wait_ready(page)
    good = {
        "game": "wizard",
        "engine_version": "0",
        "seed": "ABC",
        "options": {},
        "players": 3,
        "seats": [
            {"kind": "human", "name": "Zoë"},
            {"kind": "bot", "level": "random", "name": "R2"},
            {"kind": "bot", "level": "random"},
        ],
        "moves": [],
    }
    for bad in (42, "", " padded ", "x" * 17, "line\nbreak", "\u202eevil"):
        record = json.loads(json.dumps(good))
        record["seats"][1]["name"] = bad
        game_id = plant_game(page, record)
        page.goto(app_url + f"#/play/{game_id}")
        message = page.wait_for_selector("[data-testid=home-message]", timeout=60_000)
        assert "set aside" in message.inner_text(), repr(bad)
        assert saved_entry(page, game_id) is None
        page.goto(app_url + "#/new/wizard")  # leave the home screen, so the next one is new
        page.wait_for_selector("[data-testid=new-game-form]")
    aside = js(page, "window.tapete.saves.listAside()")
    assert len(aside) == 6  # every one kept, none lost
    assert [a["value"]["record"]["seats"][1]["name"] for a in aside] == [
        42,
        "",
        " padded ",
        "x" * 17,
        "line\nbreak",
        "\u202eevil",
    ]
    # A good one plays on with its names.
    game_id = plant_game(page, good)
    page.goto(app_url + f"#/play/{game_id}")
    page.wait_for_selector("[data-testid=table]")
    names = page.eval_on_selector_all(".seat-name-text", "els => els.map(e => e.textContent)")
    assert sorted(names) == sorted(["Zoë", "R2", "Bot 3"])


def test_names_form_in_spanish_on_a_phone(new_context: Any, app_url: str) -> None:
    phone = {"width": 390, "height": 844}
    context = new_context(viewport=phone, is_mobile=True, has_touch=True, locale="es-ES")
    page = context.new_page()
    page.goto(app_url + "#/new/rummikub")
    page.wait_for_selector("[data-testid=new-game-form]")
    assert page.get_attribute("[data-testid=seat-name-0]", "placeholder") == "Tú"
    assert page.get_attribute("[data-testid=seat-name-1]", "placeholder") == "Bot 2"
    page.fill("[data-testid=seat-name-0]", "Lucía")
    page.fill("[data-testid=seat-name-1]", "Rocío la bot")
    shot(page, "names-04-phone-form-es")
    width = js(page, "document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways: {width}px"
    page.fill("[data-testid=seed]", "NOMBRES")
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=rummikub-table]", timeout=90_000)
    page.wait_for_selector("[data-testid=rummikub-table][data-my-turn=true]", timeout=90_000)
    text = page.inner_text("[data-testid=rummikub-table]")
    assert "Lucía" in text and "Rocío la bot" in text
    shot(page, "names-05-phone-rummikub-es")
