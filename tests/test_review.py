"""The review (``tapete.review``, the ``review`` op): fair, right about planted blunders and best
moves, deterministic whatever the chunks, bounded, and coded errors for hostile input."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tapete import GAMES
from tapete.api import handle
from tapete.bots import choose_move
from tapete.review.driver import MAX_BUDGET, judge_for, review_moves
from tapete.review.summary import Summary
from tapete.rng import Rng

CODES = {"bad_state", "bad_request", "unknown_game", "bad_option"}
LEVEL = {"wizard": "heuristic", "rummikub": "easy", "willie": "normal", "lobo": "greedy"}
HUMAN = {**LEVEL, "willie": "easy"}  # seat 0's moves in the records: weaker than the judges
PLAYERS = {"wizard": 3, "rummikub": 3, "willie": 3, "lobo": 1}
MAX_DECISION_COST = 1_000  # work units: no judgement may cost more (the chunk bound)

Chooser = Callable[[Any, Any, int, int], Any]


def bot_choice(game: Any, state: Any, seat: int, index: int) -> Any:
    return choose_move(game, state, seat, (HUMAN if seat == 0 else LEVEL)[game.id], index)


def make_record(
    game_id: str,
    seed: str,
    chooser: Chooser = bot_choice,
    until: Callable[[Any], bool] | None = None,
) -> dict[str, Any]:
    """A record whose seat 0 is human (its moves from ``chooser``), the others bots; it stops
    at the end of the game or where ``until(state)`` holds."""
    game = GAMES[game_id]
    players = PLAYERS[game_id]
    state = game.new_game(seed, None, players)
    moves: list[dict[str, Any]] = []
    while (seat := game.to_move(state)) is not None and not (until and until(state)):
        index = len(moves)
        move = (
            chooser(game, state, seat, index) if seat == 0 else bot_choice(game, state, seat, index)
        )
        moves.append({"seat": seat, "move": game.move_to_json(move)})
        state = game.apply(state, seat, move)
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": LEVEL[game_id]}] * (players - 1)
    return {
        "game": game_id,
        "seed": seed,
        "options": {},
        "players": players,
        "seats": seats,
        "moves": moves,
    }


def call(**request: Any) -> dict[str, Any]:
    return json.loads(handle(json.dumps({"op": "review", **request})))


def review(record: dict[str, Any], **fields: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Every item of a whole review, chunk after chunk as the page asks, and the last answer."""
    items: list[dict[str, Any]] = []
    request: dict[str, Any] = {"record": record, **fields}
    chunks = 0
    while True:
        answer = call(**request)
        assert answer["ok"], answer
        result = answer["result"]
        items += result["items"]
        chunks += 1
        assert chunks <= 5_000
        if result["next"] is None:
            return items, result
        assert result["next"] > result["start"] or result["next"] == request.get("start", 0) + 1
        request.update(start=result["next"], state=result["state"], summary=result["summary"])


def decisions(game: Any, record: dict[str, Any], seat: int = 0):  # type: ignore[no-untyped-def]
    """(index, state before, move) of every move of ``seat``."""
    state = game.new_game(record["seed"], record["options"], record["players"])
    for index, entry in enumerate(record["moves"]):
        move = game.parse_move(entry["move"])
        if entry["seat"] == seat:
            yield index, state, move
        state = game.apply(state, entry["seat"], move)


def short_wizard(state: Any) -> bool:
    return bool(state.round > 4)


UNTIL: dict[str, Callable[[Any], bool] | None] = {
    "wizard": short_wizard,
    "rummikub": None,
    "willie": None,
    "lobo": None,
}


@pytest.fixture(scope="module")
def records() -> dict[str, dict[str, Any]]:
    return {game_id: make_record(game_id, "REVIEW", until=UNTIL[game_id]) for game_id in GAMES}


# -- fairness ------------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_same_view_same_verdict_whatever_the_hidden_cards(
    game_id: str, records: dict[str, dict[str, Any]]
) -> None:
    """Every decision judged again on twins of its state whose hidden cards are dealt again
    (consistently with everything the seat saw): the same verdict each time."""
    game = GAMES[game_id]
    judge = judge_for(game_id)
    judged = changed = 0
    for index, state, move in decisions(game, records[game_id]):
        verdict = judge.judge(game, state, 0, move)
        if verdict is None:
            continue
        judged += 1
        world = game.sample_world(state, 0, Rng.derive("twin", index))
        assert game.view(world, 0) == game.view(state, 0)
        changed += game.hidden_cards(world, 0) != game.hidden_cards(state, 0)
        assert judge.judge(game, world, 0, move) == verdict, f"move {index} depends on hidden cards"
    assert judged >= 3
    assert changed >= judged // 2, "the twins must really differ in their hidden cards"


def codes_in(data: Any) -> list[str]:
    """Every card code a move's JSON names (a wild ``K:R9`` names both)."""
    if isinstance(data, str):
        return data.split(":")
    if isinstance(data, dict):
        return [code for value in data.values() for code in codes_in(value)]
    if isinstance(data, list):
        return [code for value in data for code in codes_in(value)]
    return []


def swapped_twin(game_id: str, record: dict[str, Any]) -> tuple[Any, Any]:
    """The first state of ``record`` and a twin of it: cards seat 0 never sees in the whole
    record (stock cards nobody draws, cards an opponent holds and never lays) exchanged between
    the stock and the opponents and between two opponents, so every later view of seat 0 is
    the same."""
    game = GAMES[game_id]
    first = game.new_game(record["seed"], record["options"], record["players"])
    hands = "racks" if game_id == "rummikub" else "hands"
    stock_name = "pool" if game_id == "rummikub" else "stock"
    state, laid, drawn = first, set(codes_in(record["moves"])), 0
    for entry in record["moves"]:
        state = game.apply(state, entry["seat"], game.parse_move(entry["move"]))
        if getattr(state, "round", 1) != getattr(first, "round", 1):
            break  # a new deal: the record is only about the first one
        drawn = len(getattr(first, stock_name)) - len(getattr(state, stock_name))
    stock = list(getattr(first, stock_name))
    racks = [list(rack) for rack in getattr(first, hands)]
    swaps = 0
    for position in range(drawn, len(stock)):
        seat = 1 + position % (len(racks) - 1)
        for i, card in enumerate(racks[seat]):
            new = stock[position]
            if card != new and card not in laid and new not in laid:
                racks[seat][i], stock[position] = new, card
                swaps += 1
                break
    for i, card in enumerate(racks[1]):  # and between two opponents
        for j, new in enumerate(racks[-1] if len(racks) > 2 else []):
            if card != new and card not in laid and new not in laid:
                racks[1][i], racks[-1][j] = new, card
                swaps += 1
                break
    assert swaps >= 2, "the twin must differ"
    twin = replace(first, **{hands: tuple(tuple(r) for r in racks), stock_name: tuple(stock)})
    return first, twin


@pytest.mark.parametrize("game_id", ["rummikub", "willie"])
def test_two_records_with_the_same_views_get_the_same_review(game_id: str) -> None:
    """A second record made by exchanging hidden cards of the other seats and the stock
    consistently (the same moves still apply, seat 0 sees the same before every move): the
    review is the same, item for item."""
    game = GAMES[game_id]

    def first_round_only(state: Any) -> bool:
        return game_id == "willie" and state.round > 1

    record = make_record(game_id, "TWIN", until=first_round_only)
    first, twin = swapped_twin(game_id, record)
    assert game.hidden_cards(first, 0) != game.hidden_cards(twin, 0)
    state, other = first, twin
    for entry in record["moves"]:
        assert game.view(state, 0) == game.view(other, 0)
        move = game.parse_move(entry["move"])
        state = game.apply(state, entry["seat"], move)
        other = game.apply(other, entry["seat"], move)
    judge = judge_for(game_id)
    out = []
    for start in (first, twin):
        summary = Summary(key="k")
        chunk = review_moves(game, judge, start, record["moves"], 0, 0, 0, 1_000, 10**9, summary)
        out.append((chunk.items, summary.to_json()))
    assert out[0][0], "some decisions are judged"
    assert out[0] == out[1]


# -- planted blunders and best moves -----------------------------------------------------------


def hint_choice(game: Any, state: Any, seat: int, index: int) -> Any:
    return game.parse_move(game.hint(state, seat)["move"])


def planted(
    game_id: str, blunder: Callable[[Any, Any], Any | None], until: Any = None
) -> tuple[dict[str, Any], int]:
    """A record where seat 0 follows the Hint, except once: the first state where
    ``blunder(game, state)`` names a move, which it plays instead. Returns the record and the
    index of the planted move."""
    where: list[int] = []

    def chooser(game: Any, state: Any, seat: int, index: int) -> Any:
        if not where:
            move = blunder(game, state)
            if move is not None:
                where.append(index)
                return move
        return hint_choice(game, state, seat, index)

    record = make_record(game_id, "PLANT", chooser, until=until)
    assert where, "the blunder found its place"
    return record, where[0]


def wizard_overbid(game: Any, state: Any) -> Any:
    """In round 4's bidding, the legal bid farthest from the hand's expected tricks."""
    if state.phase != "bid" or state.round != 4:
        return None
    expected = game.hint(state, 0)["expected_tricks"]
    bids = [move for move in game.legal_moves(state, 0)]
    return max(bids, key=lambda m: (abs(int(m.value) - expected), -int(m.value)))


def rummikub_draw_past_meld(game: Any, state: Any) -> Any:
    hint = game.hint(state, 0)
    if not state.melded[0] and hint["placed"] and state.pool:
        return game.parse_move("draw")
    return None


def willie_pass_past_meld(game: Any, state: Any) -> Any:
    if state.phase != "meld":
        return None
    hint = game.hint(state, 0)
    return game.parse_move("pass") if hint.get("points", 0) >= 5 else None


def lobo_fold(game: Any, state: Any) -> Any:
    if state.phase != "play":
        return None
    from tapete.lobo import analyse

    odds = analyse(state)
    return game.parse_move("fold") if max(o.p_win or 0.0 for o in odds) >= 0.15 else None


BLUNDERS = {
    "wizard": (wizard_overbid, short_wizard, 10.0),
    "rummikub": (rummikub_draw_past_meld, None, 30.0),
    "willie": (willie_pass_past_meld, None, 5.0),
    "lobo": (lobo_fold, None, 10.0),
}


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_planted_blunder_is_found_and_the_hints_moves_lose_nothing(game_id: str) -> None:
    blunder, until, at_least = BLUNDERS[game_id]
    record, index = planted(game_id, blunder, until)
    items, last = review(record)
    by_index = {item["index"]: item for item in items}
    found = by_index[index]
    assert found["grade"] == "mistake", found
    assert found["loss"] >= at_least, found
    assert found["best"] != found["played"]
    assert last["summary"]["top"][0]["index"] == index
    if game_id != "lobo":  # the review samples Lobo's odds more than the Hint does
        for item in items:
            if item["index"] != index:
                assert item["loss"] == 0 and item["grade"] == "good", item


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_better_move_is_judged_no_loss(
    game_id: str, records: dict[str, dict[str, Any]]
) -> None:
    game = GAMES[game_id]
    judge = judge_for(game_id)
    lossy = 0
    for _index, state, move in decisions(game, records[game_id]):
        verdict = judge.judge(game, state, 0, move)
        if verdict is None or verdict.loss_tenths == 0:
            continue
        lossy += 1
        better = judge.judge(game, state, 0, game.parse_move(verdict.best))
        assert better is not None and better.loss_tenths == 0, (verdict, better)
        assert judge.GRADING.grade(better.loss_tenths, forced=better.at_least) == "good"
        if lossy >= 6:
            break
    assert lossy >= 1, "the bots' games have some loss to check"


# -- determinism, chunks and bounds --------------------------------------------------------------


@pytest.mark.parametrize("game_id", ["rummikub", "wizard"])
def test_the_same_review_whatever_the_chunks(
    game_id: str, records: dict[str, dict[str, Any]]
) -> None:
    record = records[game_id]
    whole, last = review(record, budget=MAX_BUDGET)
    tiny, tiny_last = review(record, budget=1)
    counted, counted_last = review(record, count=1)
    assert whole == tiny == counted
    assert last["summary"] == tiny_last["summary"] == counted_last["summary"]
    assert review(record, budget=MAX_BUDGET) == (whole, last)  # and the same the next time


def test_a_chunk_may_start_without_the_state(records: dict[str, dict[str, Any]]) -> None:
    record = records["rummikub"]
    whole, _last = review(record)
    middle = len(record["moves"]) // 2
    answer = call(record=record, start=middle, budget=MAX_BUDGET)["result"]
    assert answer["items"] == [item for item in whole if item["index"] >= middle]


def test_a_long_game_stays_within_the_budget() -> None:
    """Whole Rummikub and Willie games: no chunk goes over its budget except to make one
    decision, and no decision costs more than MAX_DECISION_COST units (Wizard's largest
    positions: the next test; a whole 4-player Wizard game is measured in BENCHMARKS.md)."""
    for game_id, seed in (("rummikub", "LONG"), ("willie", "LONG")):
        game = GAMES[game_id]
        record = make_record(game_id, seed)
        judge = judge_for(game_id)
        for _index, state, _move in decisions(game, record):
            assert judge.cost(game, state, 0) <= MAX_DECISION_COST
        request: dict[str, Any] = {"record": record, "budget": 300}
        while True:
            result = call(**request)["result"]
            assert result["work"] <= 300 or len(result["items"]) <= 1, result["work"]
            if result["next"] is None:
                break
            request.update(start=result["next"], state=result["state"], summary=result["summary"])


def test_the_costs_stay_bounded_in_big_positions() -> None:
    """The largest positions the games allow still cost a bounded number of units: the last
    round of a 3-player Wizard game, and a Willie close with the whole stock left."""
    wizard = GAMES["wizard"]
    state = wizard.new_game("BIG", None, 3)
    while not (state.round == state.rounds and state.phase == "play"):
        seat = wizard.to_move(state)
        cost = judge_for("wizard").cost(wizard, state, seat)
        assert cost <= MAX_DECISION_COST
        state = wizard.apply(state, seat, choose_move(wizard, state, seat, "heuristic", 0))
    assert judge_for("wizard").cost(wizard, state, wizard.to_move(state)) <= MAX_DECISION_COST
    willie = GAMES["willie"]
    start = willie.new_game("BIG", {"hand_size": 8}, 2)
    closing = replace(start, phase="end_turn", turn=0)
    assert judge_for("willie").cost(willie, closing, 0) <= MAX_DECISION_COST


# -- hostile input -------------------------------------------------------------------------------


def test_hostile_requests_get_coded_errors(records: dict[str, dict[str, Any]]) -> None:
    whole = records["rummikub"]
    record = {**whole, "moves": whole["moves"][:8]}  # a chunk reaches every move of it
    moves = record["moves"]
    cases: list[tuple[dict[str, Any], str]] = [
        ({}, "bad_request"),
        ({"record": "x"}, "bad_request"),
        ({"record": {"game": "chess"}}, "unknown_game"),
        ({"record": {**record, "moves": "x"}}, "bad_state"),
        ({"record": {**record, "seed": "bad seed"}}, "bad_state"),
        ({"record": {**record, "moves": [*moves[:3], {"seat": 0}]}}, "bad_state"),
        ({"record": {**record, "moves": [{"seat": 5, "move": "draw"}]}}, "bad_state"),
        ({"record": {**record, "moves": [*moves, moves[-1]]}}, "bad_state"),
        (
            {
                "record": {**whole, "moves": [*whole["moves"], moves[-1]]},
                "budget": MAX_BUDGET,
                "start": len(whole["moves"]),
            },
            "bad_state",
        ),
        ({"record": {**record, "moves": [{"seat": True, "move": "draw"}]}}, "bad_state"),
        ({"record": {**record, "seats": []}}, "bad_request"),
        ({"record": record, "seat": 7}, "bad_request"),
        ({"record": record, "seat": "0"}, "bad_request"),
        ({"record": record, "start": -1}, "bad_request"),
        ({"record": record, "start": len(moves) + 1}, "bad_request"),
        ({"record": record, "budget": 0}, "bad_request"),
        ({"record": record, "budget": 10**9}, "bad_request"),
        ({"record": record, "count": 0}, "bad_request"),
        ({"record": record, "summary": "x"}, "bad_request"),
        ({"record": record, "summary": {"key": "other"}}, "bad_request"),
        ({"record": record, "start": 2, "state": {"v": 1}}, "bad_state"),
        ({"record": record, "start": 2, "state": "x"}, "bad_state"),
    ]
    first = call(record=record, count=1)["result"]["summary"]
    cases += [
        ({"record": record, "summary": {**first, "good": -1}}, "bad_request"),
        ({"record": record, "summary": {**first, "top_tenths": [[1, 2, 3]]}}, "bad_request"),
        ({"record": record, "summary": {**first, "top_tenths": [[1, 1]] * 9}}, "bad_request"),
        ({"record": record, "summary": {**first, "decisions": 99}}, "bad_request"),
    ]
    for request, code in cases:
        answer = call(**request)
        assert not answer["ok"], request
        assert answer["error"]["code"] == code, (request, answer["error"])


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 10**6) | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=50, deadline=None)
@given(
    st.sampled_from(sorted(GAMES)),
    st.dictionaries(
        st.sampled_from(["seat", "start", "count", "summary", "state"]),
        json_values,
        max_size=4,
    ),
    st.lists(st.tuples(st.integers(0, 60), json_values), max_size=3),
)
def test_mutated_requests_never_crash(
    game_id: str, fields: dict[str, Any], damage: list[tuple[int, Any]]
) -> None:
    record = json.loads(json.dumps(FUZZ_RECORDS[game_id]))
    for position, value in damage:
        if record["moves"]:
            record["moves"][position % len(record["moves"])]["move"] = value
    answer = call(**{"record": record, "budget": 20, **fields})
    assert answer["ok"] or answer["error"]["code"] in CODES, answer["error"]


FUZZ_RECORDS = {
    game_id: make_record(game_id, "FUZZ", until=lambda s: getattr(s, "round", 1) > 2)
    for game_id in sorted(GAMES)
}


# -- the command line ----------------------------------------------------------------------------


def test_the_command_line_prints_the_review(
    tmp_path: Any, capsys: pytest.CaptureFixture[str], records: dict[str, dict[str, Any]]
) -> None:
    from tapete.__main__ import main

    path = tmp_path / "game.json"
    path.write_text(json.dumps(records["rummikub"]))
    assert main(["review", str(path)]) == 0
    out = capsys.readouterr().out
    items, last = review(records["rummikub"])
    summary = last["summary"]
    assert f"{summary['decisions']} decisions: {summary['good']} good" in out
    assert len(
        [
            line
            for line in out.splitlines()
            if line.rstrip().endswith(tuple(["good", "inaccuracy", "mistake"]))
        ]
    ) == len(items)
    assert main(["review", str(path), "--seat", "9"]) == 2
    assert "bad_request" in capsys.readouterr().err
    path.write_text("{")
    assert main(["review", str(path)]) == 2


# -- the rules pages state the thresholds ----------------------------------------------------------

STATED = {
    "en": ("a loss under {a} ", "{a} to {b} ", "{b} points or more"),
    "es": ("menos de {a} puntos", "de {a} a {b} puntos", "{b} puntos o más"),
}


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize("lang", sorted(STATED))
def test_the_rules_pages_state_the_thresholds(game_id: str, lang: str) -> None:
    from pathlib import Path

    page = Path(__file__).resolve().parents[1] / "web" / "rules" / f"{game_id}.{lang}.html"
    text = " ".join(page.read_text(encoding="utf-8").split())
    section = text[text.index('id="review"') :]
    grading = judge_for(game_id).GRADING
    numbers = {"a": f"{grading.inaccuracy:g}", "b": f"{grading.mistake:g}"}
    for phrase in STATED[lang]:
        assert phrase.format(**numbers) in section, (game_id, lang, phrase.format(**numbers))


def test_python_m_tapete_runs_its_commands(capsys: pytest.CaptureFixture[str]) -> None:
    from tapete.__main__ import main

    assert main([]) == 2 and "usage" in capsys.readouterr().err
    assert main(["lab", "willie", "--games", "2", "--seed", "CLI"]) == 0
    assert capsys.readouterr().out.strip()
