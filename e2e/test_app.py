"""The app in Chromium, as a player uses it: boot, play, links, saves, offline, languages."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from ui_helpers import (
    FAST_BOTS,
    js,
    load_build_module,
    open_link,
    plant_game,
    play_until,
    saved_entries,
    saved_entry,
    saved_record,
    shot,
    step,
    table_state,
    wait_handover_or_turn,
    wait_my_turn,
    wait_ready,
    wait_saved_moves,
    wait_until,
)

LINK3 = "#/wizard?seed=E2E3&players=3&bots=1:heuristic,2:random"
# In round 1 of this deal seat 0 deals and turns up a Wizard: seat 0 chooses trump.
TRUMP_LINK = "#/wizard?seed=T29&players=3&bots=1:heuristic,2:heuristic"
AUTOSAVE = "tapete.autosave"  # the single-slot save of earlier versions, migrated on load


def test_boot_home_and_rules(new_context: Any, app_url: str) -> None:
    page = new_context().new_page()
    page.goto(app_url)
    page.wait_for_selector("[data-testid=home]")
    assert page.get_attribute("html", "data-engine") in ("booting", "ready")
    wait_ready(page)
    assert page.locator("[data-testid=game-wizard]").is_visible()
    assert page.locator("[data-testid=continue]").count() == 0
    shot(page, "01-home")
    page.click("[data-testid=rules-wizard]")
    page.wait_for_selector("h1")
    assert "Wizard" in page.inner_text("h1")
    shot(page, "02-rules-en")


def test_rules_pages_fit_a_phone(new_context: Any, app_url: str) -> None:
    """Every rules page, in both languages, fits a 390 px phone: nothing scrolls sideways, and
    the tables of measured figures (which may scroll) need not."""
    page = new_context(viewport={"width": 390, "height": 844}).new_page()
    for game in ("wizard", "rummikub", "willie", "lobo"):
        for lang in ("en", "es"):
            page.goto(app_url + f"rules/{game}.{lang}.html")
            page.wait_for_selector("h1")
            width = js(page, "document.documentElement.scrollWidth")
            assert width <= 390, f"{game}.{lang} scrolls sideways: {width}px"
            cramped = js(
                page,
                "[...document.querySelectorAll('table')]"
                ".filter(t => t.scrollWidth > t.clientWidth + 1).length",
            )
            assert cramped == 0, f"{game}.{lang}: a table is wider than the page"


def test_blocked_service_worker_boots_quietly(new_context: Any, app_url: str) -> None:
    """With service workers blocked (a browser setting, test browsers) the app boots, plays and
    goes home without a single page error."""
    page = new_context(service_workers="block").new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(app_url)
    wait_ready(page)
    page.wait_for_selector("[data-testid=home]")
    open_link(page, app_url, LINK3)
    page.goto(app_url + "#/")
    page.wait_for_selector("[data-testid=home]")
    page.wait_for_timeout(500)
    assert js(page, "navigator.serviceWorker.controller") is None
    assert errors == []


def test_the_worker_starts_before_the_page_modules(new_context: Any, app_url: str) -> None:
    """boot.js (inlined into index.html by build.py, its hash in the CSP) starts the engine
    worker before app.js and its imports load; the page takes it over with every message it
    sent meanwhile. Without boot.js the page starts one itself."""
    context = new_context(service_worker=True)
    page = context.new_page()
    page.goto(app_url)
    wait_ready(page)
    assert js(page, "tapete.app.engine.startedEarly && window.tapeteEarlyWorker === undefined")
    assert js(page, "document.querySelector('script[src=\"boot.js\"]') === null")
    # build.py gave boot.js what the worker needs of build.json: the worker did not fetch it,
    # on a first visit nor on a later one (its files served by the service worker).
    fetched = "Object.keys(tapete.app.engine.info.fetches)"
    assert "build.json" not in js(page, fetched) and "pyodide.asm.wasm" in js(page, fetched)
    wait_until(page, "!!navigator.serviceWorker.controller", timeout=60)
    later = context.new_page()
    later.goto(app_url)
    wait_ready(later)
    assert js(later, "!!navigator.serviceWorker.controller && tapete.app.engine.startedEarly")
    assert "build.json" not in js(later, fetched) and "pyodide.asm.wasm" in js(later, fetched)

    def without_boot(route: Any) -> None:
        html = route.fetch().text()
        inline = re.compile(r"<script>.*?tapeteEarlyWorker.*?</script>", re.S)
        assert len(inline.findall(html)) == 1
        route.fulfill(body=inline.sub("", html), content_type="text/html")

    context = new_context()
    context.route(re.compile(r".*/(index\.html)?(\?.*)?$"), without_boot)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(app_url)
    wait_ready(page)
    assert js(page, "tapete.app.engine.startedEarly") is False
    assert "build.json" in js(page, "Object.keys(tapete.app.engine.info.fetches)")
    open_link(page, app_url, LINK3)
    assert step(page) in ("bid", "play", "trump")
    assert errors == []


def test_new_game_form_refusal_then_start(new_context: Any, app_url: str) -> None:
    page = new_context().new_page()
    page.goto(app_url + "#/new/lobo")
    page.wait_for_selector("[data-testid=new-game-form]")
    # Classic-only knobs are hidden in the Vanguard and shown for Classic Lobo.
    assert not page.is_visible("[data-testid=opt-classic_target]")
    assert not page.is_visible("[data-testid=opt-suits]")
    page.select_option("[data-testid=opt-mode]", "CLASSIC_LOBO")
    assert page.is_visible("[data-testid=opt-classic_target]")
    page.fill("[data-testid=opt-suits]", "7")
    page.fill("[data-testid=seed]", "FORM0")
    page.click("[data-testid=start]")
    error = page.wait_for_selector("[data-testid=form-error]:not(:empty)", timeout=90_000)
    assert error.inner_text() == "Suits must be between 4 and 5."
    # The form is kept as it was.
    assert page.input_value("[data-testid=opt-suits]") == "7"
    assert page.input_value("[data-testid=seed]") == "FORM0"
    shot(page, "04-new-game-refused")

    page.goto(app_url + "#/new/wizard")
    form = page.wait_for_selector("[data-testid=new-game-form]")
    assert form.is_visible()  # drawn from build.json, before Python has booted
    page.select_option("[data-testid=players]", "5")
    assert page.locator("[data-testid=seats] select").count() == 5
    # The dealer's restriction needs open bids: it is offered only with them.
    page.select_option("[data-testid=opt-even_bid_restriction]", "ALWAYS_DEALER")
    page.select_option("[data-testid=opt-bidding_mode]", "HIDDEN_SIMULTANEOUS")
    assert not page.is_visible("[data-testid=opt-even_bid_restriction]")
    shot(page, "03-new-game")
    for seat in range(1, 5):
        page.select_option(f"[data-testid=seat-kind-{seat}]", "bot:random")
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=table]")
    seed = page.get_attribute("[data-testid=play]", "data-seed")
    assert re.fullmatch(r"[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{6}", seed or ""), seed
    record = wait_saved_moves(page, 0)
    assert record["players"] == 5 and record["seed"] == seed
    assert record["options"]["bidding_mode"] == "HIDDEN_SIMULTANEOUS"
    assert record["options"]["even_bid_restriction"] == "NONE"


def test_play_rounds_one_and_two(new_context: Any, app_url: str) -> None:
    page = new_context().new_page()
    open_link(page, app_url, LINK3)
    wait_my_turn(page)
    shot(page, "05-table-bid" if table_state(page)["phase"] == "bid" else "05-table-start")
    summaries = []
    mid_trick_shot = False

    def check_summary(page: Any) -> None:
        assert page.locator("[data-testid=round-result] tbody tr").count() == 3
        if not summaries:
            shot(page, "07-round-result")
        summaries.append(page.inner_text("[data-testid=round-summary] h2"))

    def in_round_three(state: dict[str, Any]) -> bool:
        nonlocal mid_trick_shot
        if state["phase"] == "play" and state["trick"] and not mid_trick_shot:
            shot(page, "06-table-mid-trick")
            mid_trick_shot = True
        return state["round"] == 3

    play_until(page, in_round_three, before_continue=check_summary)
    assert summaries == ["Round 1 is over", "Round 2 is over"]
    assert mid_trick_shot
    page.click("[data-testid=show-scores]")
    sheet = page.wait_for_selector("[data-testid=score-sheet]")
    assert page.locator("[data-testid=score-sheet] tbody tr[data-round]").count() == 2
    shot(page, "08-score-sheet")
    assert sheet.is_visible()
    # Escape closes it and gives the focus back to the button that opened it
    page.keyboard.press("Escape")
    page.wait_for_selector("[data-testid=score-sheet]", state="detached")
    assert js(page, "document.activeElement.dataset.testid") == "show-scores"
    page.click("[data-testid=show-scores]")
    page.click("[data-testid=close-scores]")
    record = saved_record(page)
    # Round 1 is 3 bids + 3 cards, round 2 is 3 bids + 6 cards (plus any trump choices).
    assert len([m for m in record["moves"] if not m["move"].startswith("trump")]) >= 15


def test_illegal_clicks_show_the_reason(new_context: Any, app_url: str) -> None:
    """A dimmed card or a struck-out bid asks the engine, which says why not."""
    page = new_context().new_page()
    link = "#/wizard?seed=FOLLOW&players=3&bots=1:heuristic,2:heuristic"
    open_link(page, app_url, link + "&opt=even_bid_restriction:ALWAYS_DEALER")
    seen: set[str] = set()
    for _ in range(400):
        page.wait_for_selector(
            "[data-testid=round-continue], [data-testid=table][data-my-turn=true]"
        )
        mine = "[data-testid=table][data-my-turn=true]"
        dim = page.locator(f"{mine} [data-testid=hand-card][data-state=dim]")
        bad_bid = page.locator(f"{mine} [data-testid=bid].illegal")
        if "card" not in seen and dim.count():
            card = dim.first.get_attribute("data-card")
            dim.first.click()
            text = page.wait_for_selector("[data-testid=message]:not(:empty)").inner_text()
            assert re.match(r"You must follow (red|blue|green|yellow)\. ", text), text
            shot(page, "09-illegal-card")
            # Refused: the card is still in the hand and it is still our turn.
            assert card in table_state(page)["hand"]
            wait_my_turn(page, "play")
            seen.add("card")
        elif "bid" not in seen and bad_bid.count():
            bid = bad_bid.first.get_attribute("data-bid")
            bad_bid.first.click(force=True)  # aria-disabled, yet a click says why
            text = page.wait_for_selector("[data-testid=message]:not(:empty)").inner_text()
            assert text.startswith(f"The dealer may not bid {bid}:"), text
            shot(page, "09-illegal-bid")
            wait_my_turn(page, "bid")
            seen.add("bid")
        if seen == {"card", "bid"}:
            return
        step(page)
    pytest.fail(f"only saw {seen}")


def test_trump_choice(new_context: Any, app_url: str) -> None:
    page = new_context().new_page()
    open_link(page, app_url, TRUMP_LINK)
    wait_my_turn(page, "trump")
    assert page.locator("[data-testid=trump-choice]").count() == 4
    assert table_state(page)["trumpCard"].startswith("Z")
    shot(page, "10-trump-choice")
    page.click("[data-testid=trump-choice][data-suit=B]")
    page.wait_for_selector("[data-testid=trump][data-trump=B]")


def test_same_link_same_first_hand(new_context: Any, app_url: str) -> None:
    link = "#/wizard?seed=SAMEDEAL&players=4&bots=1:random,2:random,3:random"
    hands = []
    for _ in range(2):
        page = new_context().new_page()
        open_link(page, app_url, link)
        hands.append((table_state(page)["hand"], table_state(page)["trumpCard"]))
    assert hands[0] == hands[1]
    assert len(hands[0][0]) == 1


def test_reload_resumes_mid_trick(new_context: Any, app_url: str) -> None:
    page = new_context().new_page()
    open_link(page, app_url, LINK3)
    play_until(page, lambda s: s["phase"] == "play" and s["trick"] and s["round"] >= 2)
    before = table_state(page)
    page.reload()
    wait_ready(page)
    wait_my_turn(page, "play")
    after = table_state(page)
    assert after == before


def test_offline_reload(new_context: Any, app_url: str) -> None:
    context = new_context(service_worker=True)
    page = context.new_page()
    open_link(page, app_url, LINK3)
    wait_until(page, "!!navigator.serviceWorker.controller", timeout=60)
    for _ in range(4):
        step(page)
    wait_my_turn(page)
    before = table_state(page)
    context.set_offline(True)
    try:
        page.reload()
        wait_ready(page)
        wait_my_turn(page)
        assert table_state(page) == before
        assert step(page) in ("bid", "play", "trump")  # the engine answers offline
        page.wait_for_selector("[data-testid=play]")
    finally:
        context.set_offline(False)


def test_language_switch(new_context: Any, app_url: str) -> None:
    page = new_context().new_page()
    page.goto(app_url)
    page.wait_for_selector("[data-testid=home]")
    assert page.inner_text("[data-testid=new-wizard]") == "New game"
    assert page.get_attribute("[data-testid=new-wizard]", "aria-label") == "New game of Wizard"
    page.click("[data-testid=lang-es]")
    page.wait_for_selector("[data-testid=lang-es][aria-pressed=true]")
    assert page.inner_text("[data-testid=new-wizard]") == "Partida nueva"
    assert page.get_attribute("html", "lang") == "es"
    shot(page, "11-home-es")
    page.reload()  # the choice is remembered
    page.wait_for_selector("[data-testid=home]")
    assert page.inner_text("[data-testid=new-wizard]") == "Partida nueva"
    open_link(page, app_url, LINK3)
    wait_my_turn(page)
    assert page.inner_text("[data-testid=status]").startswith("Tu turno")
    shot(page, "12-table-es")
    page.goto(app_url + "#/")
    page.click("[data-testid=lang-en]")
    page.wait_for_selector("[data-testid=lang-en][aria-pressed=true]")
    assert page.inner_text("[data-testid=new-wizard]") == "New game"


HOSTILE = [
    ("#/chess?seed=ABC", "does not have"),
    ("#/<script>alert(1)</script>", "does not have"),
    ("#/wizard?seed=ABC&players=99", "impossible number of players"),
    ("#/wizard?seed=ABC&players=-3", "impossible number of players"),
    ("#/wizard?seed=../../etc&players=3", "deal code"),
    ("#/wizard?seed=" + "A" * 10_000, "too long"),
    ("#/wizard?seed=ABC&players=4&bots=0:random,1:random,2:random,3:random", "no seat for a human"),
    ("#/wizard?seed=ABC&bots=1:godmode", "unknown bot level"),
    ("#/wizard?seed=ABC&players=3&opt=bidding_mode:NOPE", "Bidding cannot be “NOPE”: choose “Open"),
    ("#/wizard?seed=ABC&opt=nonsense:1", "no setting “nonsense”"),
    # no deal code, and a bad option: both are said, the option with the engine's reason
    (
        "#/wizard?players=3&opt=bidding_mode:NOPE",
        "no valid deal code (seed). Bidding cannot be “NOPE”",
    ),
    ("#/willie?opt=close_threshold:99", "must be between"),
    (
        "#/wizard?seed=ABC&opt=bidding_mode:HIDDEN_SIMULTANEOUS,even_bid_restriction:ALWAYS_DEALER",
        "open bidding",
    ),
    ("#/wizard?seed=%E0%A4%A&players=3", "damaged"),
    ("#/play?x=1", "takes no parameters"),
    ("#/new/wizard?players=9", "takes no parameters"),
]


def test_hostile_links_leave_the_save_alone(new_context: Any, app_url: str) -> None:
    page = new_context().new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    open_link(page, app_url, LINK3)
    step(page)
    wait_my_turn(page)  # the bots have moved: the save stays as it is until we move
    saved = saved_entries(page)
    assert len(saved) == 1
    for link, words in HOSTILE:
        page.goto(app_url + link)
        message = page.wait_for_selector("[data-testid=home-message]", timeout=60_000)
        assert words in message.inner_text(), (link[:60], message.inner_text())
        assert page.locator("[data-testid=home]").is_visible()
        assert saved_entries(page) == saved, link[:60]
        assert js(page, "location.hash") == "#/"
    shot(page, "13-hostile-link")
    assert dialogs == []
    # The saved game is still there and continues.
    page.click("[data-testid=continue]")
    wait_my_turn(page)


def test_corrupt_saves_are_kept_aside(new_context: Any, app_url: str) -> None:
    page = new_context().new_page()
    page.goto(app_url)
    wait_ready(page)
    # An old single-slot save that is not even JSON: set aside on the next load, not deleted.
    js(page, f"localStorage.setItem('{AUTOSAVE}', '{{not json')")
    page.reload()
    message = page.wait_for_selector("[data-testid=home-message]")
    assert "set aside" in message.inner_text()
    aside = js(page, "window.tapete.saves.listAside()")
    assert len(aside) == 1 and aside[0]["value"] == "{not json"
    assert js(page, f"localStorage.getItem('{AUTOSAVE}')") is None
    shot(page, "14-corrupt-save")
    wait_ready(page)
    # A record of the right shape whose moves do not apply: the engine says bad_state.
    record = {
        "game": "wizard",
        "engine_version": "0",
        "seed": "ABC",
        "options": {},
        "players": 3,
        "seats": [{"kind": "human"}, *[{"kind": "bot", "level": "random"}] * 2],
        "moves": [{"seat": 0, "move": "play R99"}],
    }
    game_id = plant_game(page, record)
    page.goto(app_url + f"#/play/{game_id}")
    # the hash changes on the same page: the first message may still be shown for a moment
    wait_until(page, "window.tapete.saves.listAside().then((a) => a.length === 2)", 60)
    message = page.wait_for_selector("[data-testid=home-message]", timeout=60_000)
    assert "set aside" in message.inner_text()
    assert saved_entry(page, game_id) is None


def test_hot_seat_hand_over(new_context: Any, app_url: str) -> None:
    page = new_context().new_page()
    page.goto(app_url + "#/new/wizard")
    page.wait_for_selector("[data-testid=new-game-form]")
    page.select_option("[data-testid=players]", "3")
    page.select_option("[data-testid=seat-kind-1]", "human")
    page.select_option("[data-testid=seat-kind-2]", "bot:random")
    page.fill("[data-testid=seed]", "HOTSEAT")
    page.click("[data-testid=start]")
    names = set()
    for _ in range(40):
        ready = wait_handover_or_turn(page)
        if ready.get_attribute("data-testid") == "handover-ready":
            title = page.inner_text("[data-testid=handover] h2")
            # Nothing of anybody's hand can be seen behind the hand-over screen.
            assert page.locator("[data-testid=hand-card][data-card]").count() == 0
            if title not in names and names:
                shot(page, "15-hand-over")
            names.add(title)
            if len(names) == 2:
                break
        step(page)
    assert names == {"Pass the device to Player 1", "Pass the device to Player 2"}


def test_game_over_again_and_share(new_context: Any, app_url: str) -> None:
    record = finished_record_minus_last_human_move()
    page = new_context().new_page()
    page.goto(app_url)
    wait_ready(page)
    game_id = plant_game(page, record)
    page.goto(app_url + f"#/play/{game_id}")
    for _ in range(20):
        if step(page) == "over":
            break
    else:
        pytest.fail("the game did not end")
    page.wait_for_selector("[data-testid=game-over]")
    assert page.locator("[data-testid=ranking] li").count() == 3
    assert page.locator("[data-testid=winner]").count() >= 1
    assert page.locator("[data-testid=score-sheet] tbody tr[data-round]").count() == 20
    finished = f"window.tapete.saves.getGame('{game_id}').then((f) => f?.entry?.status)"
    wait_until(page, f"{finished}.then((status) => status === 'finished')")
    shot(page, "16-game-over")
    page.click("[data-testid=share]")
    url = page.input_value("[data-testid=share-url]")
    assert url.startswith(app_url + "#/wizard?seed=OVER&players=3&bots=1:heuristic,2:random")
    page.click("[data-testid=share-close]")
    page.click("[data-testid=again]")
    page.wait_for_selector("[data-testid=table]")
    assert page.get_attribute("[data-testid=play]", "data-seed") == "OVER"
    assert table_state(page)["round"] == 1
    first_hand = table_state(page)["hand"]
    # The deal played again is a game of its own: the finished one stays, and a reload of its
    # address shows its final screen again.
    assert saved_entry(page, game_id)["status"] == "finished"
    assert page.url.split("#/play/")[1] != game_id
    page.goto(app_url + f"#/play/{game_id}")
    page.reload()
    page.wait_for_selector("[data-testid=game-over]", timeout=60_000)
    assert page.locator("[data-testid=score-sheet] tbody tr[data-round]").count() == 20
    other = new_context().new_page()
    other.goto(url)
    wait_ready(other)
    other.wait_for_selector("[data-testid=table]")
    assert table_state(other)["hand"] == first_hand


def test_phone_layout(new_context: Any, app_url: str) -> None:
    context = new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(app_url)
    page.wait_for_selector("[data-testid=home]")
    shot(page, "17-phone-home")
    bots = ",".join(f"{seat}:random" for seat in range(1, 6))
    open_link(page, app_url, f"#/wizard?seed=PHONE&players=6&bots={bots}")
    play_until(page, lambda s: s["round"] >= 4 and s["phase"] == "play" and s["trick"])
    shot(page, "18-phone-table")
    width = js(page, "document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways: {width}px"
    page.goto(app_url + "#/new/wizard")
    page.wait_for_selector("[data-testid=new-game-form]")
    shot(page, "19-phone-new-game")


def finished_record_minus_last_human_move() -> dict[str, Any]:
    """A 3-player game played to the end by the engine, less seat 0's last move and after."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "engine"))
    try:
        from tapete.api import handle
    finally:
        sys.path.pop(0)

    def call(**request: Any) -> Any:
        answer = json.loads(handle(json.dumps(request)))
        assert answer["ok"], answer
        return answer["result"]

    seats = [
        {"kind": "human"},
        {"kind": "bot", "level": "heuristic"},
        {"kind": "bot", "level": "random"},
    ]
    snap = call(op="new_game", game="wizard", seed="OVER", players=3)
    moves: list[dict[str, Any]] = []
    while snap["to_move"] is not None:
        seat = snap["to_move"]
        level = seats[seat].get("level", "heuristic")
        snap = call(
            op="bot_move",
            game="wizard",
            state=snap["state"],
            seat=seat,
            level=level,
            bot_seed=len(moves),
        )
        moves.append({"seat": seat, "move": snap["move"]})
    last = max(i for i, move in enumerate(moves) if move["seat"] == 0)
    return {
        "game": "wizard",
        "engine_version": "e2e",
        "seed": "OVER",
        "players": 3,
        "options": snap["state"]["options"],
        "seats": seats,
        "moves": moves[:last],
    }


# Test hooks written into a copy of the built worker.js: the worker says when it starts to
# save its memory snapshot, and holds its first save until the page says "go".
HOLD_SNAPSHOT = (
    "const IDLE_MS = 1000;",
    "const IDLE_MS = 1000; let held = true; let go = false;"
    " new BroadcastChannel('e2e-go').onmessage = () => { go = true; };",
    "async function saveSnapshot(pyodide, key) {",
    "async function saveSnapshot(pyodide, key) {"
    " new BroadcastChannel('e2e-saving').postMessage(1);"
    " while (held && !go) await new Promise((resolve) => setTimeout(resolve, 50)); held = false;",
)
LISTEN_SAVING = (
    "window.e2eSaving = false;"
    " new BroadcastChannel('e2e-saving').onmessage = () => { window.e2eSaving = true; };"
)


def hold_snapshots(dist: Path) -> None:
    worker = dist / "worker.js"
    text = worker.read_text()
    for anchor, hooked in zip(HOLD_SNAPSHOT[::2], HOLD_SNAPSHOT[1::2], strict=True):
        assert text.count(anchor) == 1, anchor
        text = text.replace(anchor, hooked)
    worker.write_text(text)


def test_update_waits_until_the_game_is_left(browser: Any, tmp_path: Path) -> None:
    """A new version installs in the background but takes over only away from a game, and
    once the engine has stored its memory snapshot (a reload that cut that write short while
    the new version deleted the old caches left the page hung, now and then)."""
    build = load_build_module()
    dist = tmp_path / "dist"
    build.build(dist)
    hold_snapshots(dist)
    server, url = build.serve_in_thread(dist, port=0)
    origin = url.rstrip("/")
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    context.add_init_script(FAST_BOTS)
    context.add_init_script(LISTEN_SAVING)
    requests: list[str] = []
    context.on("request", lambda request: requests.append(request.url))
    try:
        page = context.new_page()
        open_link(page, url, LINK3)
        wait_until(page, "!!navigator.serviceWorker.controller", timeout=60)
        old = json.loads((dist / "build.json").read_text())["build"]
        # The service worker's caches ("tapete.snapshot", the worker's memory snapshot, is not one).
        sw_caches = "caches.keys().then((k) => k.filter((name) => name.startsWith('tapete-')))"
        assert js(page, sw_caches) == [f"tapete-{old}"]
        # A new version appears on the server.
        sw = dist / "sw.js"
        sw.write_text(sw.read_text().replace(f'"version": "{old}"', '"version": "e2e-update"'))
        js(page, "navigator.serviceWorker.getRegistration().then((r) => r.update())")
        banner = page.wait_for_selector("[data-testid=update-banner]:not([hidden])", timeout=60_000)
        assert "when this game is over" in banner.inner_text()
        shot(page, "20-update-ready-in-game")
        assert step(page) in ("bid", "play", "trump")  # the game goes on, on the old version
        assert sorted(js(page, sw_caches)) == sorted([f"tapete-{old}", "tapete-e2e-update"])
        # Leaving the game while the engine saves its snapshot: the new version waits for it.
        wait_until(page, "window.e2eSaving", timeout=60)
        page.click("[data-testid=brand]")
        page.wait_for_selector("[data-testid=home]")
        page.wait_for_timeout(2000)
        assert sorted(js(page, sw_caches)) == sorted([f"tapete-{old}", "tapete-e2e-update"])
        # The snapshot stored, the new version takes over (the page reloads on the home screen).
        js(page, "window.e2eOldPage = true; new BroadcastChannel('e2e-go').postMessage(1)")
        only_new = f"{sw_caches}.then((k) => k.length === 1 && k[0] === 'tapete-e2e-update')"
        wait_until(page, only_new, timeout=60)
        wait_until(page, "window.e2eOldPage !== true", timeout=60)  # reloaded
        page.wait_for_selector("[data-testid=home]")
        wait_ready(page)
        assert page.locator("[data-testid=continue]").count() == 1
    finally:
        context.close()
        server.shutdown()
        server.server_close()
    assert all(url.startswith(origin) for url in requests), requests[:5]


def test_a_bug_of_the_page_is_not_blamed_on_the_engine(new_context: Any, app_url: str) -> None:
    """The fatal dialog says which stopped: the page's own code (a TypeError) or the engine."""
    page = new_context().new_page()
    open_link(page, app_url, LINK3)
    fatal = "(error) => window.tapete.app.session.ctx.onFatal(error)"
    page.evaluate(f"({fatal})(new TypeError('x is undefined'))")
    dialog = page.wait_for_selector("[data-testid=fatal][data-kind=page]")
    assert "Something went wrong on this page" in dialog.inner_text()
    assert "x is undefined" in dialog.inner_text()
    page.evaluate(f"({fatal})(Object.assign(new Error('internal'), {{code: 'internal'}}))")
    dialog = page.wait_for_selector("[data-testid=fatal][data-kind=engine]")
    assert "The game engine stopped" in dialog.inner_text()
