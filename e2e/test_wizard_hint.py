"""Wizard's optional hint and the first-dealer draw, in Chromium, as a player uses them.

Every message the page posts to the engine's worker is recorded (an init script wraps
``Worker.prototype.postMessage``), so a test can prove that no hint was asked for.
"""

from __future__ import annotations

import json
from typing import Any

from ui_helpers import (
    js,
    moves_made,
    open_link,
    shot,
    step,
    table_state,
    wait_my_turn,
    wait_saved_moves,
    wait_until,
)

# Seat 0 is the human; in this deal seats 0 and 2 tie on an 11 and redraw, and seat 0 deals.
LINK = "#/wizard?seed=H31&players=3&bots=1:heuristic,2:heuristic"
RECORD_OPS = """
(() => {
  const post = Worker.prototype.postMessage;
  window.__engineCalls = [];
  Worker.prototype.postMessage = function (message, ...rest) {
    try { window.__engineCalls.push({ op: message && message.op, seat: message && message.seat }); }
    catch { /* a message we cannot read */ }
    return post.call(this, message, ...rest);
  };
})();
"""
# Fast bots (and hints, if asked) on the first load only: a reload keeps what the page saved
# (merged into what conftest's NO_TOURS wrote first: the tours seen).
FIRST_SETTINGS = """
(() => {
  const saved = JSON.parse(localStorage.getItem('tapete.settings') || '{}') || {};
  if ('fastBots' in saved) return;
  const first = {...saved, fastBots: true, showHints: %s};
  localStorage.setItem('tapete.settings', JSON.stringify(first));
})();
"""


def hint_calls(page: Any) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = js(page, "window.__engineCalls || []")
    return [call for call in calls if call["op"] == "hint"]


def move_at(page: Any, index: int) -> dict[str, Any]:
    """The ``index``-th move of the saved record (bots may have moved since)."""
    record = wait_saved_moves(page, index + 1)
    move: dict[str, Any] = record["moves"][index]
    return move


def context_with(new_context: Any, *, hints: bool, **options: Any) -> Any:
    context = new_context(fast=False, **options)
    context.add_init_script(RECORD_OPS)
    context.add_init_script(FIRST_SETTINGS % ("true" if hints else "false"))
    return context


def wait_moves_above(page: Any, count: int) -> None:
    moves = "Number(document.querySelector('[data-testid=play]').dataset.moves)"
    wait_until(page, f"{moves} > {count}")


def turn_on_hints(page: Any) -> None:
    page.click("[data-testid=settings] summary")
    box = page.wait_for_selector("[data-testid=show-hints]")
    assert not box.is_checked(), "hints are off by default"
    box.check()
    shot(page, "wizard-hint-00-settings")
    page.click("[data-testid=settings] summary")
    saved = json.loads(js(page, "localStorage.getItem('tapete.settings')"))
    assert saved["showHints"] is True


def wait_hint(page: Any, kind: str) -> str:
    element = page.wait_for_selector(f"[data-testid=hint][data-move^='{kind} ']", timeout=60_000)
    move = element.get_attribute("data-move")
    assert move
    return move


def play_to_a_card_choice(page: Any) -> None:
    """Step (clicking legal moves) until it is our turn to play with more than one legal card."""
    for _ in range(200):
        element = page.wait_for_selector(
            "[data-testid=round-continue], [data-testid=table][data-my-turn=true]"
        )
        if element.get_attribute("data-testid") == "table":
            state = table_state(page)
            legal = page.locator("[data-testid=hand-card].legal").count()
            if state["phase"] == "play" and legal > 1:
                return
        step(page)
    raise AssertionError("no card choice came up")


def test_hints_off_no_hint_and_no_request(new_context: Any, app_url: str) -> None:
    page = context_with(new_context, hints=False).new_page()
    open_link(page, app_url, LINK)
    wait_my_turn(page, "bid")
    play_to_a_card_choice(page)
    page.wait_for_timeout(500)
    assert page.locator("[data-testid=hint], [data-testid=hint-busy]").count() == 0
    assert page.locator("[data-hinted]").count() == 0
    assert hint_calls(page) == []
    assert any(call["op"] == "apply" for call in js(page, "window.__engineCalls"))
    page.click("[data-testid=settings] summary")
    assert not page.is_checked("[data-testid=show-hints]")


def test_hints_on_suggest_a_bid_then_a_card(new_context: Any, app_url: str) -> None:
    page = context_with(new_context, hints=False).new_page()
    page.goto(app_url)
    page.wait_for_selector("[data-testid=home]")
    turn_on_hints(page)
    open_link(page, app_url, LINK)
    # The first-dealer draw: who drew what, the tie, who deals; the player closes it.
    draw = page.wait_for_selector("[data-testid=first-dealer-draw]")
    text = draw.inner_text()
    assert "Tie for the highest card: You and Bot 3 draw again." in text
    assert "You deal first." in text
    assert page.locator("[data-testid=draw-card]").count() == 5
    assert page.locator("[data-testid=draw-card].winner").get_attribute("data-seat") == "0"
    wait_my_turn(page, "bid")
    bid = wait_hint(page, "bid")
    hinted = page.locator("[data-testid=bid][data-hinted=true]")
    assert hinted.count() == 1 and f"bid {hinted.get_attribute('data-bid')}" == bid
    assert "tricks" in page.inner_text("[data-testid=hint]")
    shot(page, "wizard-hint-01-bid-and-draw")
    page.click("[data-testid=first-dealer-ok]")
    assert page.locator("[data-testid=first-dealer-draw], [data-testid=draw-card]").count() == 0
    # The hint never moves by itself.
    before = moves_made(page)
    page.wait_for_timeout(800)
    assert moves_made(page) == before and table_state(page)["phase"] == "bid"
    assert all(call["seat"] == 0 for call in hint_calls(page)), "a hint for a bot seat"
    hinted.click()
    wait_moves_above(page, before)
    assert move_at(page, before) == {"seat": 0, "move": bid}
    # Later, a card: it is marked in the hand, the line says why; clicking it plays it.
    play_to_a_card_choice(page)
    card = wait_hint(page, "play")
    marked = page.locator("[data-testid=hand-card][data-hinted=true]")
    assert marked.count() == 1 and f"play {marked.get_attribute('data-card')}" == card
    assert "points on average" in page.inner_text("[data-testid=hint]")
    shot(page, "wizard-hint-02-card")
    count = moves_made(page)
    marked.click()
    wait_moves_above(page, count)
    assert move_at(page, count) == {"seat": 0, "move": card}
    assert all(call["seat"] == 0 for call in hint_calls(page))
    # Turning hints off hides them at once and asks for no more.
    page.reload()
    page.wait_for_selector("[data-testid=table]")
    page.click("[data-testid=settings] summary")
    assert page.is_checked("[data-testid=show-hints]"), "the setting persists"
    page.uncheck("[data-testid=show-hints]")
    page.click("[data-testid=settings] summary")
    asked = len(hint_calls(page))
    play_to_a_card_choice(page)
    page.wait_for_timeout(500)
    assert page.locator("[data-testid=hint], [data-hinted]").count() == 0
    assert len(hint_calls(page)) == asked


def test_no_hint_behind_the_hand_over_screen(new_context: Any, app_url: str) -> None:
    page = context_with(new_context, hints=True).new_page()
    open_link(page, app_url, "#/wizard?seed=HOTH&players=3&bots=2:heuristic")
    handovers = 0
    for _ in range(30):
        ready = page.wait_for_selector(
            "[data-testid=handover-ready], [data-testid=table][data-my-turn=true], "
            "[data-testid=round-continue]"
        )
        if ready.get_attribute("data-testid") == "handover-ready":
            asked = len(hint_calls(page))
            page.wait_for_timeout(400)
            assert len(hint_calls(page)) == asked, "a hint asked for behind the hand-over"
            assert page.locator("[data-testid=hint], [data-hinted]").count() == 0
            handovers += 1
            ready.click()
            page.wait_for_selector("[data-testid=hint]", timeout=60_000)
            if handovers == 2:
                break
            continue
        page.wait_for_selector("[data-testid=hint]", timeout=60_000)
        step(page)
    assert handovers == 2
    assert {call["seat"] for call in hint_calls(page)} <= {0, 1}


def test_spanish_hint_and_draw(new_context: Any, app_url: str) -> None:
    page = context_with(new_context, hints=True, locale="es-ES").new_page()
    open_link(page, app_url, LINK)
    text = page.wait_for_selector("[data-testid=first-dealer-draw]").inner_text()
    assert "Empate en la carta más alta" in text and "reparte primero" in text
    wait_my_turn(page, "bid")
    wait_hint(page, "bid")
    assert "Pista: apuesta" in page.inner_text("[data-testid=hint]")
    assert "bazas" in page.inner_text("[data-testid=hint]")
    shot(page, "wizard-hint-03-es-bid")
    page.click("[data-testid=first-dealer-ok]")
    page.click("[data-testid=bid][data-hinted=true]")
    play_to_a_card_choice(page)
    wait_hint(page, "play")
    assert "Pista: juega" in page.inner_text("[data-testid=hint]")
    shot(page, "wizard-hint-04-es-card")
    page.click("[data-testid=settings] summary")
    assert page.is_checked("[data-testid=show-hints]")
    label = page.inner_text("label:has([data-testid=show-hints])")
    assert label.strip() == "Mostrar pistas (Wizard)"
    shot(page, "wizard-hint-08-es-settings")


def test_phone_layout(new_context: Any, app_url: str) -> None:
    context = context_with(
        new_context,
        hints=True,
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
    )
    page = context.new_page()
    bots = ",".join(f"{seat}:heuristic" for seat in range(1, 6))
    open_link(page, app_url, f"#/wizard?seed=H31&players=6&bots={bots}")
    page.wait_for_selector("[data-testid=first-dealer-draw]")
    wait_my_turn(page, "bid")
    wait_hint(page, "bid")
    shot(page, "wizard-hint-05-phone-bid")
    assert js(page, "document.documentElement.scrollWidth") <= 390
    page.click("[data-testid=first-dealer-ok]")
    page.click("[data-testid=bid][data-hinted=true]")
    play_to_a_card_choice(page)
    wait_hint(page, "play")
    shot(page, "wizard-hint-06-phone-card")
    assert js(page, "document.documentElement.scrollWidth") <= 390


def test_the_dealer_gets_a_trump_hint(new_context: Any, app_url: str) -> None:
    # In round 1 of this deal seat 0 deals and turns up a Wizard: seat 0 chooses trump.
    page = context_with(new_context, hints=True).new_page()
    open_link(page, app_url, "#/wizard?seed=T29&players=3&bots=1:heuristic,2:heuristic")
    wait_my_turn(page, "trump")
    suit = wait_hint(page, "trump").split()[1]
    marked = page.locator("[data-testid=trump-choice][data-hinted=true]")
    assert marked.count() == 1 and marked.get_attribute("data-suit") == suit
    assert "Hint: choose" in page.inner_text("[data-testid=hint]")
    shot(page, "wizard-hint-07-trump")
    marked.click()
    page.wait_for_selector(f"[data-testid=trump][data-trump={suit}]")
