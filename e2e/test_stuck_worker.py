"""The page survives a stuck engine worker: a request that never answers makes the engine
client replace the worker, the player is told in their language, and the game goes on from
where it was (issue 14).

The hang is a test-only hook: the test serves worker.js with a few lines appended that spin
forever on the first human move. No build ships them."""

from __future__ import annotations

from typing import Any

from ui_helpers import open_link, shot, table_state, wait_my_turn, wait_ready

LINK = "#/wizard?seed=STUCK1&players=3&bots=1:random,2:random"
# Appended to the worker module: its first "apply" request spins forever. Module code after the
# worker's top-level awaits runs once the engine is up, so the wrapper sees every request.
HANG = """
;{
  const serve = self.onmessage;
  self.onmessage = (event) => {
    if (event.data && event.data.op === "apply") for (;;) {}
    serve(event);
  };
}
"""
# Every engine timeout a fifth as long: the stuck request is given up after 6 s, not 30 s.
SCALE = "window.tapeteTimeoutScale = 0.2;"


def hang_first_worker(context: Any) -> list[str]:
    """Serve the hooked worker.js to the first worker only; the replacement gets the real one."""
    served: list[str] = []

    def handle(route: Any) -> None:
        response = route.fetch()
        body = response.text()
        if not served:
            body += HANG
        served.append(route.request.url)
        route.fulfill(response=response, body=body)

    context.route("**/worker.js", handle)
    return served


def test_a_stuck_worker_is_replaced_and_the_game_goes_on(new_context: Any, app_url: str) -> None:
    for lang, words in (("en", "restarted"), ("es", "reiniciado")):
        context = new_context(locale="es-ES" if lang == "es" else "en-US")
        context.add_init_script(SCALE)
        served = hang_first_worker(context)
        page = context.new_page()
        open_link(page, app_url, LINK)
        wait_my_turn(page, "bid")
        before = table_state(page)
        page.click("[data-testid=bid].legal")  # this apply never answers
        notice = page.wait_for_selector("[data-testid=engine-notice]", timeout=60_000)
        assert words in notice.inner_text()
        wait_ready(page)  # the new worker is up
        assert len(served) == 2
        wait_my_turn(page, "bid")
        assert table_state(page) == before  # nothing of the game was lost
        message = page.inner_text("[data-testid=message]")
        assert words in message
        shot(page, f"stuck-worker-{lang}")
        # the same move, asked again, goes through the new worker
        page.click("[data-testid=bid].legal")
        page.wait_for_selector(
            "[data-testid=table][data-phase=play], [data-testid=table][data-my-turn=false]"
        )
        assert page.locator("[data-testid=fatal]").count() == 0
        context.close()
