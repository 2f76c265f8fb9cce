"""Willie in Chromium: every knob on the new-game form, a turn built on the shared meld table
(an illegal meld refused with the engine's reason, a wild declared through the picker that
offers only the engine's choices), closing, the round-end sheet, Spanish and the phone layout."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from a11y_helpers import Audit, axe_script
from ui_helpers import shot, wait_ready, wait_until

# Seat 0 moves first; after the first draw the hand holds R8 R9, B4 B5, a J and a Q.
SEED = "WIL3"
OPTIONS = (
    "hand_size",
    "max_group_size",
    "close_threshold",
    "target_score",
    "two_player_multiplier",
    "undercut_mode",
    "undercut_points",
    "go_out_bonus",
    "end_bonus",
    "round_win_bonus",
    "points_number",
    "points_jack",
    "points_queen",
    "points_king",
    "willie_enabled",
    "freed_wild_must_change_meld",
)


def moves(page: Any) -> int:
    return int(page.get_attribute("[data-testid=play]", "data-moves") or -1)


def my_turn(page: Any, phase: str) -> None:
    page.wait_for_selector(
        f"[data-testid=table][data-phase={phase}][data-my-turn=true]", timeout=60_000
    )


def start(page: Any, app_url: str, *, close_threshold: int = 75) -> None:
    page.goto(app_url + "#/new/willie")
    page.wait_for_selector("[data-testid=new-game-form]")
    page.fill("[data-testid=seed]", SEED)
    page.fill("[data-testid=opt-close_threshold]", str(close_threshold))
    wait_ready(page)
    page.click("[data-testid=start]")
    my_turn(page, "draw")


def hand_tile(page: Any, code: str) -> str:
    return f"[data-testid=hand-tile][data-code='{code}']"


def to_new_meld(page: Any, code: str) -> None:
    page.click(hand_tile(page, code))
    page.click("[data-testid=new-meld]")


def to_meld_end(page: Any, code: str, meld: int = 0) -> None:
    page.click(hand_tile(page, code))
    page.locator("[data-testid=meld]").nth(meld).locator("[data-testid=gap]").last.click()


def table_codes(page: Any) -> list[list[str]]:
    result: list[list[str]] = page.eval_on_selector_all(
        "[data-testid=meld]",
        "melds => melds.map(m => [...m.querySelectorAll('[data-testid=table-tile]')]"
        ".map(t => t.dataset.code))",
    )
    return result


def test_new_game_form_has_every_knob(new_context: Any, app_url: str) -> None:
    page = new_context().new_page()
    page.goto(app_url)
    page.wait_for_selector("[data-testid=game-willie]")
    page.click("[data-testid=rules-willie]")
    page.wait_for_selector("h1")
    assert page.inner_text("h1") == "Willie"
    assert "8 or 10 cards" in page.inner_text("#notes + p + ul")
    shot(page, "willie-00-rules-en")
    page.click("a[hreflang=es]")
    page.wait_for_selector("html[lang=es]")
    assert "casi seguramente haya que ajustarlo" in page.inner_text("main")
    page.goto(app_url + "#/new/willie")
    page.wait_for_selector("[data-testid=new-game-form]")
    for name in OPTIONS:
        label = page.inner_text(f"label[for=opt-{name}]")
        assert label and not label.startswith("opt."), name
    mode = page.eval_on_selector_all(
        "[data-testid=opt-undercut_mode] option", "os => os.map(o => o.textContent)"
    )
    assert len(mode) == 3 and "seed" in mode[0]
    shot(page, "willie-01-new-game")


def test_turn_with_a_wild_an_illegal_meld_a_close_and_the_round_sheet(
    new_context: Any, app_url: str
) -> None:
    page = new_context().new_page()
    start(page, app_url)
    table = page.locator("[data-testid=table]")
    assert table.get_attribute("data-draws") == "0"
    assert page.get_attribute("[data-testid=stock]", "data-count") == "30"
    assert page.inner_text("[data-testid=hand-size-1]") == "×12"
    page.click("[data-testid=draw]")
    my_turn(page, "meld")
    assert page.get_attribute("[data-testid=draw-count]", "data-draws") == "1"
    assert page.locator("[data-testid=hand-tile]").count() == 13
    before = moves(page)

    # An illegal meld: the engine refuses it with its reason; nothing is played.
    to_new_meld(page, "B4")
    to_meld_end(page, "B5")
    page.wait_for_selector("[data-testid=meld][data-state=invalid]")
    assert "at least 3 cards" in page.inner_text("[data-testid=meld-badge]")
    page.click("[data-testid=done]")
    message = page.wait_for_selector("[data-testid=meld-message]")
    assert message.inner_text() == "Meld 1: a meld needs at least 3 cards."
    shot(page, "willie-02-illegal-meld")
    assert moves(page) == before
    page.click("[data-testid=reset-turn]")
    assert table_codes(page) == []

    # The hint shows the solver's best meld phase.
    page.click("[data-testid=hint]")
    page.wait_for_selector("[data-testid=hint-box]", timeout=60_000)
    assert "Best meld" in page.inner_text("[data-testid=hint-box]")

    # A wild declared through the picker: only the engine's choices are offered.
    to_new_meld(page, "R8")
    to_meld_end(page, "R9")
    to_meld_end(page, "J")
    page.wait_for_selector("[data-testid=wild-picker]")
    choices = page.eval_on_selector_all(
        "[data-testid=wild-choice]", "els => els.map(e => e.dataset.card)"
    )
    assert choices == ["R7", "R10"]
    shot(page, "willie-03-wild-picker")
    audit = Audit(page, axe_script(), "en")
    audit.check("willie: the wild picker")
    assert not audit.found, audit.report()
    page.click("[data-testid=wild-choice][data-card=R10]")
    page.wait_for_selector("[data-testid=meld][data-state=valid]")
    assert table_codes(page) == [["R8", "R9", "J:R10"]]
    assert "sequence" in page.inner_text("[data-testid=meld-badge]")
    shot(page, "willie-04-wild-declared")
    page.click("[data-testid=done]")

    # The turn ends holding 12 points (<= 75 in this game): close is offered.
    my_turn(page, "end_turn")
    assert moves(page) == before + 1
    assert page.locator("[data-testid=table-tile][data-code='J:R10']").count() == 1
    assert page.locator("[data-testid=hand-tile]").count() == 10
    assert "close the round" in page.inner_text("[data-testid=status]")
    shot(page, "willie-05-close-offered")
    page.click("[data-testid=close]")

    # The round-end sheet explains the scoring step by step.
    page.wait_for_selector("[data-testid=round-summary]", timeout=60_000)
    steps = page.inner_text("[data-testid=round-steps]")
    assert "You closed." in steps and "Fewest points in hand" in steps
    assert page.locator("[data-testid=round-result] tbody tr").count() == 2
    shot(page, "willie-06-round-sheet")
    page.click("[data-testid=round-continue]")
    wait_until(page, "document.querySelector('[data-testid=table][data-round=\"2\"]')", 60)
    # A bot may close round 2 at once (its round sheet then comes first), or even end the game
    # (the game-over screen then shows the score sheet); else the table's Scores button does.
    for _ in range(6):
        shown = wait_until(
            page,
            "document.querySelector(\"[data-testid=score-sheet] tr[data-round='1']\") ? 'sheet'"
            " : document.querySelector('[data-testid=round-summary]') ? 'round'"
            " : document.querySelector('[data-testid=show-scores]') ? 'table' : ''",
            60,
        )
        if shown == "sheet":
            break
        if shown == "round":
            page.click("[data-testid=round-continue]")
            continue
        try:  # a bot's close may put its round sheet over the button meanwhile
            page.click("[data-testid=show-scores]", timeout=5_000)
        except PlaywrightTimeout:
            pass
    assert page.locator("[data-testid=score-sheet] tr[data-round='1']").count() == 1


def test_spanish_and_phone_layout(new_context: Any, app_url: str) -> None:
    context = new_context(
        locale="es-ES", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    start(page, app_url)
    assert page.inner_text("[data-testid=draw]") == "Robar una carta"
    assert "Tu turno" in page.inner_text("[data-testid=status]")
    shot(page, "willie-07-phone-es-draw")
    page.click("[data-testid=draw]")
    my_turn(page, "meld")
    assert "robar una 2.ª carta" in page.inner_text("[data-testid=pass]")
    to_new_meld(page, "B4")
    to_meld_end(page, "B5")
    # The check's badge widens the meld; "New meld" narrows beside it rather than wrapping
    # onto a line of its own, which moved Done 56 px down on this phone as the answer landed
    # (a tap aimed before it missed once in CI). The tap still waits for the answer, as the
    # English test's does.
    page.wait_for_selector("[data-testid=meld][data-state=invalid]")
    meld_box = page.locator("[data-testid=meld]").first.bounding_box()
    target_box = page.locator("[data-testid=new-meld]").bounding_box()
    assert meld_box and target_box and abs(meld_box["y"] - target_box["y"]) < 1, (
        meld_box,
        target_box,
    )
    page.click("[data-testid=done]")
    message = page.wait_for_selector("[data-testid=meld-message]")
    assert message.inner_text() == "Combinación 1: hacen falta al menos 3 cartas."
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the phone page scrolls sideways ({width}px)"
    shot(page, "willie-08-phone-es-meld")
    # the wild picker, in Spanish on the phone
    page.click("[data-testid=reset-turn]")
    to_new_meld(page, "R8")
    to_meld_end(page, "R9")
    to_meld_end(page, "J")
    page.wait_for_selector("[data-testid=wild-picker]")
    shot(page, "willie-09-phone-es-wild-picker")
    audit = Audit(page, axe_script(), "es, 390 px")
    audit.check("willie: the wild picker")
    assert not audit.found, audit.report()


def test_hint_laid_out_and_game_over_with_bonuses(new_context: Any, app_url: str) -> None:
    page = new_context().new_page()
    page.goto(app_url + "#/new/willie")
    page.wait_for_selector("[data-testid=new-game-form]")
    page.fill("[data-testid=seed]", SEED)
    page.fill("[data-testid=opt-close_threshold]", "75")
    page.fill("[data-testid=opt-target_score]", "1")
    wait_ready(page)
    page.click("[data-testid=start]")
    my_turn(page, "draw")
    page.click("[data-testid=draw]")
    my_turn(page, "meld")
    page.click("[data-testid=hint]")
    page.click("[data-testid=hint-use]", timeout=60_000)
    page.wait_for_selector("[data-testid=meld][data-state=valid] >> nth=1")
    assert sorted(table_codes(page)) == [["B4", "B5", "Q:B6"], ["R8", "R9", "J:R10"]]
    page.click("[data-testid=done]")
    my_turn(page, "end_turn")
    page.click("[data-testid=close]")
    page.wait_for_selector("[data-testid=round-summary]", timeout=60_000)
    assert "Two players: 9 × 2 = 18." in page.inner_text("[data-testid=round-steps]")
    page.click("[data-testid=round-continue]")
    page.wait_for_selector("[data-testid=game-over]", timeout=60_000)
    bonuses = page.inner_text("[data-testid=bonuses]")
    assert "You reached 1: +10." in bonuses and "bonus for rounds won (0): 0." in bonuses
    assert page.locator("[data-testid=bonus-row]").count() == 1
    ranking = page.inner_text("[data-testid=ranking]")
    assert "+10 = " in ranking
    shot(page, "willie-09-game-over")


def test_three_players_draw_three_times_and_every_card_is_shown(
    new_context: Any, app_url: str
) -> None:
    """A turn of three draws with no meld; the bots meld; all 54 cards stay accounted for."""
    page = new_context().new_page()
    page.goto(app_url + "#/new/willie")
    page.wait_for_selector("[data-testid=new-game-form]")
    page.select_option("[data-testid=players]", "3")
    page.fill("[data-testid=seed]", "WIL3T")
    wait_ready(page)
    page.click("[data-testid=start]")
    counts = 0  # the moments every card was counted
    for turn in range(4):
        shown = page.wait_for_selector(
            "[data-testid=table][data-phase=draw][data-my-turn=true], [data-testid=round-summary]",
            timeout=60_000,
        )
        if shown.get_attribute("data-testid") == "round-summary":  # a bot closed
            assert "closed" in page.inner_text("[data-testid=round-steps]")
            break
        if turn == 1:
            shot(page, "willie-10-three-players")
        for draw in (1, 2, 3):
            page.click("[data-testid=draw]")
            if draw < 3:
                page.wait_for_selector(
                    f"[data-testid=table][data-phase=meld][data-draws='{draw}'][data-my-turn=true]"
                )
                page.click("[data-testid=pass]")
        # The table says "not my turn" while the engine works too, and a bot may close the
        # round soon after: count every card at the one moment the third draw is shown. On a
        # loaded machine that moment can pass between two looks, the next bot closing at once
        # (its hand is short by the second turn): then the round's summary is what shows.
        counted = wait_until(
            page,
            f"""(() => {{
              if (document.querySelector('[data-testid=round-summary]')) return 'closed';
              const size = (s) => Number(document.querySelector(
                `[data-testid=hand-size-${{s}}]`)?.textContent.slice(1));
              if (size(0) !== {10 + 3 * (turn + 1)}) return null;
              const stock = Number(document.querySelector('[data-testid=stock]').dataset.count);
              const table = document.querySelectorAll('[data-testid=table-tile]').length;
              return [0, 1, 2].map(size).reduce((a, b) => a + b, 0) + stock + table;
            }})()""",
        )
        if counted == "closed":
            assert turn > 0, "the round closed before the first count"
            assert "closed" in page.inner_text("[data-testid=round-steps]")
            break
        assert counted == 54
        counts += 1
    assert counts >= 1


def test_a_wild_moved_on_the_table_keeps_its_declaration(new_context: Any, app_url: str) -> None:
    page = new_context().new_page()
    start(page, app_url, close_threshold=3)
    page.click("[data-testid=draw]")
    my_turn(page, "meld")
    to_new_meld(page, "R8")
    to_meld_end(page, "R9")
    to_meld_end(page, "J")
    page.click("[data-testid=wild-choice][data-card=R10]")
    page.wait_for_selector("[data-testid=meld][data-state=valid]")
    page.click("[data-testid=done]")
    my_turn(page, "draw")  # the bot has played
    page.click("[data-testid=draw]")
    my_turn(page, "meld")
    wild = page.locator("[data-testid=table-tile][data-code*=':']").first
    code = wild.get_attribute("data-code")
    assert code is not None
    melds = page.locator("[data-testid=meld]").count()
    wild.click()
    page.click("[data-testid=new-meld]")
    page.wait_for_selector(f"[data-testid=meld] >> nth={melds}")
    assert page.locator("[data-testid=wild-picker]").count() == 0  # not freed: no new choice
    assert table_codes(page)[-1] == [code]
    # Done is tapped once the check has answered (its badge moves the buttons below the table)
    wait_until(page, "!document.querySelector('[data-testid=meld][data-state=pending]')", 20)
    page.click("[data-testid=done]")
    refused = page.wait_for_selector("[data-testid=meld-message]").inner_text()
    assert refused == "A meld must play at least one card from your hand."
    page.click("[data-testid=reset-turn]")
    assert page.locator("[data-testid=meld]").count() == melds


def test_two_humans_hand_over_hides_the_hand(new_context: Any, app_url: str) -> None:
    page = new_context().new_page()
    page.goto(app_url + "#/new/willie")
    page.wait_for_selector("[data-testid=new-game-form]")
    page.select_option("[data-testid=seat-kind-1]", "human")
    page.fill("[data-testid=seed]", SEED)
    wait_ready(page)
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=handover]")
    assert page.locator("[data-testid=hand-tile]").count() == 0  # nothing shown behind it
    page.click("[data-testid=handover-ready]")
    my_turn(page, "draw")
    page.click("[data-testid=draw]")
    my_turn(page, "meld")
    page.click("[data-testid=pass]")
    my_turn(page, "draw")
    page.click("[data-testid=draw]")
    my_turn(page, "meld")
    page.click("[data-testid=pass]")
    my_turn(page, "draw")
    page.click("[data-testid=draw]")  # the third draw ends the turn: Player 2 is next
    page.wait_for_selector("[data-testid=handover]")
    assert page.locator("[data-testid=hand-tile]").count() == 0
    shot(page, "willie-11-hand-over")
    page.click("[data-testid=handover-ready]")
    my_turn(page, "draw")
    assert page.inner_text("[data-testid=hand-size-0]") == "×15"
    assert page.locator("[data-testid=hand-tile]").count() == 12


def slow_inspect(page: Any, ms: int = 800) -> None:
    """Every check of the melds (the engine's ``inspect``) takes ``ms`` more from now on."""
    page.evaluate(
        """(ms) => {
          const engine = window.tapete.app.engine;
          const call = engine.call.bind(engine);
          engine.call = (op, fields) => op === "inspect"
            ? new Promise((done) => setTimeout(done, ms)).then(() => call(op, fields))
            : call(op, fields);
        }""",
        ms,
    )


def test_the_live_check_lands_while_the_screen_keeps_redrawing(
    new_context: Any, app_url: str
) -> None:
    """The live check of the melds answers for the layout it was asked about: redraws of the
    screen meanwhile (other news) once dropped every answer as stale and asked again, so on a
    slow engine a valid meld could stay unmarked for as long as the redraws went on."""
    page = new_context().new_page()
    start(page, app_url, close_threshold=3)
    page.click("[data-testid=draw]")
    my_turn(page, "meld")
    slow_inspect(page)
    to_new_meld(page, "R8")
    to_meld_end(page, "R9")
    to_meld_end(page, "J")
    page.click("[data-testid=wild-choice][data-card=R10]")
    # a redraw every 250 ms, each sooner than the engine's answer (800 ms)
    page.evaluate(
        "() => { window.redraws = setInterval(() => window.tapete.app.session.render(), 250); }"
    )
    try:
        page.wait_for_selector("[data-testid=meld][data-state=valid]", timeout=8_000)
    finally:
        page.evaluate("() => clearInterval(window.redraws)")


def test_done_is_not_lost_to_a_redraw_while_the_engine_checks(
    new_context: Any, app_url: str
) -> None:
    """A tap on Done waits for the engine's check of the melds; a redraw of the screen meanwhile
    (any other news) once swallowed the answer, and the tap did nothing."""
    page = new_context().new_page()
    start(page, app_url)
    page.click("[data-testid=draw]")
    my_turn(page, "meld")
    slow_inspect(page)
    to_new_meld(page, "B4")
    to_meld_end(page, "B5")
    page.click("[data-testid=done]")  # the live check of this layout is still out
    page.evaluate("() => window.tapete.app.session.render()")
    message = page.wait_for_selector("[data-testid=meld-message]", timeout=10_000)
    assert message.inner_text() == "Meld 1: a meld needs at least 3 cards."
