"""Review my play (issue 15): from the game-over screen or the replay, the review runs in the
worker chunk by chunk with a progress bar and Stop, shows the summary and the three costliest
decisions, and marks every decision on the replay's timeline, as the engine judged them; in
English and Spanish, on a desktop and on a 390 px phone."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from a11y_helpers import Audit, axe_script
from records import bot_record
from ui_helpers import plant_game, shot, wait_ready

ENGINE = Path(__file__).resolve().parent.parent / "engine"
PHONE = {"width": 390, "height": 844}


def engine_review(
    record: dict[str, Any], budget: int = 250
) -> tuple[list[dict[str, Any]], dict[str, Any], int]:
    """The review as CPython's engine gives it: (items, summary, chunks)."""
    if str(ENGINE) not in sys.path:
        sys.path.insert(0, str(ENGINE))
    from tapete.api import handle

    items: list[dict[str, Any]] = []
    request: dict[str, Any] = {"op": "review", "record": record, "budget": budget}
    chunks = 0
    while True:
        answer = json.loads(handle(json.dumps(request)))
        assert answer["ok"], answer
        result = answer["result"]
        items += result["items"]
        chunks += 1
        if result["next"] is None:
            return items, result["summary"], chunks
        request.update(start=result["next"], state=result["state"], summary=result["summary"])


def marks(page: Any) -> dict[int, str]:
    read = "els => els.map(e => [Number(e.dataset.index), e.dataset.grade])"
    return dict(page.eval_on_selector_all("[data-testid=replay-mark]", read))


def wait_step(page: Any, step: int) -> None:
    page.wait_for_selector(f"[data-testid=replay-board][data-step='{step}']", timeout=60_000)


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page scrolls sideways: {width}px"


def test_review_from_the_game_over_screen(new_context: Any, app_url: str) -> None:
    page = new_context().new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(app_url)
    wait_ready(page)
    record = bot_record("lobo", "RV3")
    items, summary, chunks = engine_review(record)
    assert chunks >= 3 and summary["mistake"] >= 1
    game_id = plant_game(page, record, status="finished")
    page.goto(app_url + f"#/play/{game_id}")
    page.wait_for_selector("[data-testid=over-link-review]", timeout=60_000)
    assert page.inner_text("[data-testid=over-link-review]") == "Review my play"
    page.set_viewport_size(PHONE)
    shot(page, "review-06-game-over-phone")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.click("[data-testid=over-link-review]")
    # it starts at once, shows its progress, and finishes
    page.wait_for_selector("[data-testid=review-progress]", timeout=60_000)
    assert page.inner_text("[data-testid=review-progress-text]").startswith("Reviewing… move ")
    page.wait_for_selector("[data-testid=review-summary]", timeout=120_000)
    page.wait_for_selector("[data-testid=review-progress]", state="detached", timeout=120_000)
    audit = Audit(page, axe_script(), "en")
    audit.check("lobo: the review of a game")
    assert not audit.found, audit.report()
    total = page.inner_text("[data-testid=review-total]")
    assert total.startswith(f"{summary['decisions']} decisions reviewed; total expected loss: ")
    counts = page.inner_text("[data-testid=review-counts]")
    assert f"Mistakes: {summary['mistake']}" in counts and f"Good: {summary['good']}" in counts
    # a mark per decision on the timeline, graded as the engine graded it
    assert marks(page) == {item["index"]: item["grade"] for item in items}
    tops = page.locator("[data-testid=review-top]")
    assert tops.count() == len(summary["top"]) > 0
    first = summary["top"][0]["index"]
    assert tops.first.get_attribute("data-index") == str(first)
    assert "You played: " in tops.first.inner_text() and "Better: " in tops.first.inner_text()
    tops.first.locator("button").click()
    wait_step(page, first)
    page.locator("[data-testid=replay-marks]").scroll_into_view_if_needed()
    shot(page, "review-00-timeline")
    page.locator("[data-testid=review]").scroll_into_view_if_needed()
    shot(page, "review-01-lobo")
    page.set_viewport_size(PHONE)
    no_sideways_scroll(page)
    page.locator("[data-testid=review-summary]").scroll_into_view_if_needed()
    shot(page, "review-02-lobo-phone")
    # kept with the game: the replay shows it again without reviewing anew
    page.goto(app_url + f"#/replay/{game_id}")
    page.reload()
    page.wait_for_selector("[data-testid=review-summary]", timeout=60_000)
    assert page.locator("[data-testid=review-progress]").count() == 0
    assert marks(page) == {item["index"]: item["grade"] for item in items}
    assert errors == []


def test_stop_and_resume_in_spanish(new_context: Any, app_url: str) -> None:
    page = new_context().new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(app_url)
    wait_ready(page)
    page.click("[data-testid=lang-es]")
    page.wait_for_selector("[data-testid=lang-es][aria-pressed=true]")
    # an unfinished Wizard game: its first rounds, reviewed from the replay's button
    record = bot_record("wizard", "RV2", ("heuristic", "heuristic"), limit=75)
    items, summary, chunks = engine_review(record)
    assert chunks >= 3
    game_id = plant_game(page, record)
    page.goto(app_url + f"#/replay/{game_id}")
    page.click("[data-testid=replay-action-review]", timeout=60_000)
    page.wait_for_selector("[data-testid=review-stop]", timeout=60_000)
    assert page.inner_text("[data-testid=review-progress-text]").startswith("Revisando… jugada ")
    page.click("[data-testid=review-stop]")
    page.wait_for_selector("[data-testid=review-resume]", timeout=120_000)
    stopped = page.inner_text("[data-testid=review-progress-text]")
    assert stopped.startswith("Parada en la jugada ") and stopped.endswith(
        f" de {len(record['moves'])}."
    )
    assert 0 < len(marks(page)) < len(items)
    assert page.inner_text("[data-testid=review-total]").startswith("Hasta ahora ")
    shot(page, "review-03-stopped-es")
    page.click("[data-testid=review-resume]")
    page.wait_for_selector(
        "[data-testid=review-total]:has-text('decisiones revisadas')", timeout=180_000
    )
    assert marks(page) == {item["index"]: item["grade"] for item in items}
    assert f"{summary['decisions']} decisiones revisadas" in page.inner_text(
        "[data-testid=review-total]"
    )
    assert "Jugaste: " in page.inner_text("[data-testid=review-summary]") or summary["loss"] == 0
    page.locator("[data-testid=review]").scroll_into_view_if_needed()
    shot(page, "review-04-wizard-es")
    page.set_viewport_size(PHONE)
    no_sideways_scroll(page)
    shot(page, "review-05-wizard-es-phone")
    assert errors == []
