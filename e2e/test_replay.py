"""The replay (issue 15): any saved game stepped through move by move (buttons, arrow keys,
the timeline), each position the engine's; every hand of a finished game, only the player's
seat of an unfinished one; marks on the timeline for the review; every game's table draws."""

from __future__ import annotations

from typing import Any

from records import bot_record, final_view
from ui_helpers import js, plant_game, shot, wait_ready

PHONE = {"width": 390, "height": 844}
WIZARD = ("wizard", "RP1", ("random", "heuristic", "random", "random", "random"))


def board_step(page: Any) -> int:
    return int(page.get_attribute("[data-testid=replay-board]", "data-step") or -1)


def wait_step(page: Any, step: int) -> None:
    page.wait_for_selector(f"[data-testid=replay-board][data-step='{step}']", timeout=60_000)


def codes(page: Any, selector: str, attribute: str = "card") -> list[str]:
    """The sorted card (or tile) codes of the elements ``selector`` finds."""
    read = f"els => els.map(e => e.dataset.{attribute})"
    return sorted(page.eval_on_selector_all(selector, read))


def shown_hand(page: Any) -> list[str]:
    return codes(page, "[data-testid=replay-board] [data-testid=hand-card]")


def hand_at(record: dict[str, Any], step: int, seat: int = 0) -> list[str]:
    """A seat's hand after ``step`` moves, as the engine has it."""
    return sorted(final_view({**record, "moves": record["moves"][:step]}, seat)[1]["hand"])


def bid_step(record: dict[str, Any], near: int) -> int:
    """The first position at or after ``near`` that follows a bid (no trick just taken: a move
    that takes a trick shows that trick on the table, as in play)."""
    step = near
    while not str(record["moves"][step - 1]["move"]).startswith("bid"):
        step += 1
    return step


def test_step_through_a_finished_game(new_context: Any, app_url: str) -> None:
    page = new_context().new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(app_url)
    wait_ready(page)
    record = bot_record(*WIZARD)
    total = len(record["moves"])
    game_id = plant_game(page, record, status="finished")
    page.goto(app_url + "#/games")
    page.click(f"[data-testid=history-row][data-id='{game_id}'] [data-testid=replay-game]")
    wait_step(page, total)
    assert page.inner_text("[data-testid=replay-position]") == f"Move {total} of {total}"
    page.keyboard.press("Home")
    wait_step(page, 0)
    assert page.inner_text("[data-testid=replay-move]") == "The deal, before the first move."
    for step in (1, 2, 3):
        page.keyboard.press("ArrowRight")
        wait_step(page, step)
    assert page.inner_text("[data-testid=replay-move]").startswith(f"Move 3 of {total}: ")
    page.keyboard.press("ArrowLeft")
    wait_step(page, 2)
    # the bids of round 2, with the buttons: the hand is the engine's for that position
    for _ in range(12):
        page.click("[data-testid=replay-forward]")
    wait_step(page, 14)
    assert shown_hand(page) == hand_at(record, 14)
    page.click("[data-testid=replay-back]")
    wait_step(page, 13)
    assert shown_hand(page) == hand_at(record, 13) and len(shown_hand(page)) == 2
    shot(page, "replay-01-wizard")
    # the timeline: far into the game (another window of positions), then the ends
    far = bid_step(record, 200)
    page.fill("[data-testid=replay-slider]", str(far))
    wait_step(page, far)
    assert shown_hand(page) == hand_at(record, far)
    page.click("[data-testid=replay-first]")
    wait_step(page, 0)
    page.click("[data-testid=replay-last]")
    wait_step(page, total)
    # every hand, and the game seen from another seat
    mid = bid_step(record, 150)
    page.fill("[data-testid=replay-slider]", str(mid))
    wait_step(page, mid)
    page.check("[data-testid=replay-reveal]")
    page.wait_for_selector("[data-testid=replay-hand][data-seat='1']")
    for seat in (1, 4):
        cards = codes(page, f"[data-testid=replay-hand][data-seat='{seat}'] [data-card]")
        assert cards == hand_at(record, mid, seat)
    page.locator("[data-testid=replay-hands]").scroll_into_view_if_needed()
    shot(page, "replay-02-every-hand")
    page.select_option("[data-testid=replay-seat]", "2")
    page.wait_for_selector("[data-testid=replay-hand][data-seat='0']")
    assert shown_hand(page) == hand_at(record, mid, 2)
    # marks for the review: drawn on the timeline, a click goes to that decision
    marks = "[{index: 40, grade: 'mistake'}, {index: 7, grade: 'good'}, {index: 1e6, grade: 'x'}]"
    js(page, f"window.tapete.app.replay.setMarks({marks})")
    assert page.locator("[data-testid=replay-mark]").count() == 2
    page.click("[data-testid=replay-mark][data-grade=mistake]")
    wait_step(page, 40)
    assert errors == []


def test_the_review_plugs_into_the_replay(new_context: Any, app_url: str) -> None:
    """The extension interface of docs/CONTRACTS.md: an action button, a panel, step events."""
    page = new_context().new_page()
    page.goto(app_url)
    wait_ready(page)
    game_id = plant_game(page, bot_record("willie", "RP2", ("random",)), status="finished")
    page.evaluate(
        """async () => {
          const replay = window.tapete.replay;  // the page's own (it is one module)
          replay.addReplayExtension((screen) => {
            screen.addAction({id: 'test', label: 'Mark move 2', onclick: () => {
              screen.setMarks([{index: 1, grade: 'inaccuracy', title: 'here'}]);
              screen.panel.textContent = 'panel of ' + screen.record.game + ', ' + screen.total;
            }});
            screen.addEventListener('step', (e) => { window.lastStep = e.detail.step; });
          });
          replay.addGameOverLink({id: 'test', label: () => 'Test link', query: 'x=1'});
        }"""
    )
    page.goto(app_url + f"#/replay/{game_id}")
    page.click("[data-testid=replay-action-test]")
    total = len(bot_record("willie", "RP2", ("random",))["moves"])
    assert page.inner_text("[data-testid=replay-panel]") == f"panel of willie, {total}"
    page.click("[data-testid=replay-mark][data-grade=inaccuracy]")
    wait_step(page, 1)
    assert js(page, "window.lastStep") == 1
    page.click("[data-testid=replay-final]")
    page.wait_for_selector("[data-testid=game-over]", timeout=60_000)
    assert page.get_attribute("[data-testid=over-link-test]", "href") == f"#/replay/{game_id}?x=1"
    page.click("[data-testid=replay-link]")
    wait_step(page, total)


def test_an_unfinished_game_shows_only_what_its_player_saw(new_context: Any, app_url: str) -> None:
    page = new_context(locale="es-ES", viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(app_url)
    wait_ready(page)
    record = bot_record("rummikub", "RP3", ("random",), limit=9)
    game_id = plant_game(page, record)
    page.goto(app_url + f"#/replay/{game_id}")
    wait_step(page, 9)
    assert page.locator("[data-testid=replay-reveal]").count() == 0
    assert "solo lo que viste tú" in page.inner_text("[data-testid=replay-note]")
    page.click("[data-testid=replay-back]")
    wait_step(page, 8)
    tiles = codes(page, "[data-testid=replay-board] [data-testid=hand-tile]", "code")
    assert tiles == sorted(final_view({**record, "moves": record["moves"][:8]})[1]["rack"])
    shot(page, "replay-03-phone-rummikub-es")
    assert js(page, "document.documentElement.scrollWidth") <= 390
    # every game's table draws in the replay, at its first and last positions
    for game, seed, levels in (("willie", "RP4", ("random",)), ("lobo", "RP5", ())):
        gid = plant_game(page, bot_record(game, seed, levels), status="finished")
        page.goto(app_url + f"#/replay/{gid}")
        last = len(bot_record(game, seed, levels)["moves"])
        wait_step(page, last)
        page.click("[data-testid=replay-first]")
        wait_step(page, 0)
        shot(page, f"replay-04-phone-{game}-es")
    assert errors == []
