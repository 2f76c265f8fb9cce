"""Lobo: whole games under every option (random and greedy playouts), move enumeration against
a brute force, views, and saved states (garbage in, ``bad_state`` out)."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tapete.bots import choose_move
from tapete.errors import BadStateError, EngineError, IllegalMoveError
from tapete.lobo import GAME, Rules, make_position
from tapete.lobo import rules as R
from tapete.lobo.cards import MEMBERS
from tapete.rng import Rng

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"difficulty": "EASY"},
    {"difficulty": "HARD"},
    {"final_trigger": "AFTER_DEAL", "short_deal_order": "PLAYER_FIRST"},
    {"reserve_is_wild_in_final": True, "score_includes_reserve": True, "difficulty": "EASY"},
    {"mode": "CLASSIC_LOBO", "classic_target": 40},
    {"mode": "CLASSIC_LOBO", "suits": 5, "difficulty": "HARD", "classic_target": 30},
]


def roundtrip(state: R.LoboState) -> R.LoboState:
    return GAME.from_json(json.loads(json.dumps(GAME.to_json(state))))


def check_position(state: R.LoboState, cards: Counter[str], step: int) -> None:
    assert roundtrip(state) == state
    assert Counter(GAME.seat_cards(state)) == cards, "a card appeared or vanished"
    view = GAME.view(state, 0)
    assert {**view, "seat": None} == GAME.view(state, None)
    json.dumps(view)
    hidden = set(state.pile[1:])
    flat = json.dumps(view)
    for card in hidden:
        assert f'"{card}"' not in flat, f"the view shows the hidden card {card}"
    if GAME.to_move(state) is not None:
        world = GAME.sample_world(state, 0, Rng.derive("world", step))
        assert GAME.view(world, 0) == view
        assert Counter(GAME.seat_cards(world)) == cards


@pytest.mark.parametrize(
    "options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default"
)
@pytest.mark.parametrize("level", ["random", "greedy"])
def test_whole_games(options: dict[str, Any], level: str) -> None:
    for n in range(5):
        seed = f"P{n}"
        state = GAME.new_game(seed, options)
        cards = Counter(GAME.seat_cards(state))
        steps = 0
        while (seat := GAME.to_move(state)) is not None:
            if steps % 3 == 0:
                check_position(state, cards, steps)
            legal = GAME.legal_moves(state, seat)
            texts = [m.text() for m in legal]
            assert len(set(texts)) == len(texts), "a move is listed twice"
            for move in legal:
                GAME.check(state, seat, move)
                assert GAME.parse_move(GAME.move_to_json(move)) == move
            move = choose_move(GAME, state, seat, level, (seed, steps))
            before = GAME.to_json(state)
            state = GAME.apply(state, seat, move)
            assert GAME.to_json(GAME.from_json(before)) == before
            steps += 1
            assert steps < 3000
        check_position(state, cards, steps)
        outcome = GAME.outcome(state)
        assert outcome is not None and len(outcome.scores) == 1
        assert GAME.legal_moves(state, 0) == []
        json.dumps(outcome.to_json())


# -- move enumeration against a brute force -------------------------------------------------


def brute_moves(state: R.LoboState) -> set[str]:
    """Every combination of cards, checked one by one."""
    if state.phase == R.CHOICE:
        candidates = [f"reserve {c}" for c in state.rules.deck] + [f"revive {m}" for m in MEMBERS]
        candidates.append("skip")
    else:
        pool, wolf = state.pool, state.wolf
        candidates = ["fold"]
        for p, w in itertools.product(pool, wolf):
            candidates += [f"perfect {p}>{w}", f"over {p}>{w}", f"wild {p}>{w}"]
        for k in range(2, len(pool) + 1):
            for group in itertools.combinations(pool, k):
                candidates += [f"sum {'+'.join(group)}>{w}" for w in wolf]
        for k in range(2, len(wolf) + 1):
            for group in itertools.combinations(wolf, k):
                candidates += [f"split {p}>{'+'.join(group)}" for p in pool]
        candidates += [f"sacrifice {m}>{w}" for m in MEMBERS for w in wolf]
    legal = set()
    for text in candidates:
        move = R.parse_move(text)
        try:
            GAME.check(state, 0, move)
        except IllegalMoveError:
            continue
        legal.add(move.text())
    return legal


small_positions = st.builds(
    lambda data: data,
    st.fixed_dictionaries(
        {
            "cards": st.permutations(Rules(difficulty="EASY").deck),
            "hand": st.integers(0, 4),
            "wolf": st.integers(1, 5),
            "pile": st.integers(0, 6),
            "reserve": st.integers(0, 2),
            "members": st.tuples(st.booleans(), st.booleans(), st.booleans()),
            "final": st.booleans(),
            "wild": st.booleans(),
            "classic": st.booleans(),
        }
    ),
)


def build(data: dict[str, Any]) -> R.LoboState:
    cards = list(data["cards"])
    h, w, p, r = data["hand"], data["wolf"], data["pile"], data["reserve"]
    classic = data["classic"]
    rules = Rules(
        difficulty="EASY",
        mode=R.CLASSIC if classic else R.VANGUARD,
        reserve_is_wild_in_final=data["wild"],
    )
    members = data["members"] if any(data["members"]) else (True, False, False)
    return make_position(
        hand=cards[:h],
        wolf=cards[h : h + w],
        pile=cards[h + w : h + w + p],
        reserve=[] if classic else cards[h + w + p : h + w + p + r],
        members=members,
        final=False if classic else (data["final"] or p == 0),
        rules=rules,
    )


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions)
def test_legal_moves_match_a_brute_force(data: dict[str, Any]) -> None:
    state = build(data)
    listed = [m.text() for m in GAME.legal_moves(state, 0)]
    assert len(listed) == len(set(listed))
    assert set(listed) == brute_moves(state)
    won = replace(state, phase=R.CHOICE, discard=state.discard + state.wolf, wolf=(), final=False)
    if state.pile and not state.rules.classic:
        listed = [m.text() for m in GAME.legal_moves(won, 0)]
        assert set(listed) == brute_moves(won) and len(listed) == len(set(listed))


@settings(max_examples=80, deadline=None)
@given(small_positions, st.data())
def test_every_legal_move_keeps_the_cards(data: dict[str, Any], draw: st.DataObject) -> None:
    state = build(data)
    cards = Counter(GAME.seat_cards(state))
    move = draw.draw(st.sampled_from(GAME.legal_moves(state, 0)))
    after = GAME.apply(state, 0, move)
    assert Counter(GAME.seat_cards(after)) == cards
    assert roundtrip(after) == after


def test_forced_fold_lists_fold_alone() -> None:
    state = make_position(
        hand=["2C"], wolf=["9D"], pile=[], final=True, members=(True, False, False)
    )
    assert [m.text() for m in GAME.legal_moves(state, 0)] == ["fold"]
    assert GAME.view(state, 0)["forced_fold"] is True


def test_identical_ranks_in_other_suits_are_distinct_moves() -> None:
    state = make_position(hand=["5H", "5D"], wolf=["5S", "5C"], pile=["AS", "2S"])
    perfects = [m.text() for m in GAME.legal_moves(state, 0) if m.kind == "perfect"]
    assert perfects == ["perfect 5H>5S", "perfect 5H>5C", "perfect 5D>5S", "perfect 5D>5C"]


# -- views --------------------------------------------------------------------------------------


def test_view_shows_the_top_card_and_size_only() -> None:
    state = GAME.new_game("VIEW")
    view = GAME.view(state, 0)
    assert view["pile_top"] == state.pile[0] and view["pile_size"] == len(state.pile)
    assert view["hand"] == list(state.hand) and view["wolf"] == list(state.wolf)
    assert view["members"] == [{"card": m, "active": True} for m in MEMBERS]
    assert "pile" not in view
    world = GAME.sample_world(state, 0, Rng(7))
    assert world.pile[0] == state.pile[0] and world.pile != state.pile
    assert sorted(world.pile) == sorted(state.pile)


# -- saved states -------------------------------------------------------------------------------


def valid_json() -> dict[str, Any]:
    return GAME.to_json(GAME.new_game("SAVE"))


@pytest.mark.parametrize(
    ("path", "value"),
    [
        ("seed", 5),
        ("seed", "bad seed!"),
        ("options", {"mode": "X"}),
        ("options", []),
        ("round", 0),
        ("round", True),
        ("round", "1"),
        ("phase", "bidding"),
        ("phase", None),
        ("pile", "AS"),
        ("pile", ["ZZ"]),
        ("pile", [None]),
        ("hand", ["AS", "AS"]),
        ("members", [True, True]),
        ("members", [1, 1, 1]),
        ("final", "no"),
        ("scores", [0]),
        ("scores", [-1, 0]),
        ("scores", [0, 1.5]),
        ("history", [{}]),
        ("history", [{"round": 1, "won": True, "wolf_left": 0, "members_lost": 9, "points": 0}]),
        ("history", "none"),
        ("result", "draw"),
        ("result", "won"),
        ("wolf", []),
        ("discard", ["AS"]),
        ("discard", "AS"),
    ],
)
def test_broken_fields_are_bad_state(path: str, value: Any) -> None:
    data = valid_json()
    data[path] = value
    with pytest.raises(BadStateError) as caught:
        GAME.from_json(data)
    assert caught.value.code == "bad_state"


@pytest.mark.parametrize("missing", list(valid_json()))
def test_missing_fields_are_bad_state(missing: str) -> None:
    data = valid_json()
    del data[missing]
    with pytest.raises(BadStateError):
        GAME.from_json(data)


def test_inconsistent_phases_are_bad_state() -> None:
    state = GAME.new_game("SAVE")
    cases = [
        replace(state, phase=R.CHOICE),  # the Wolf still has cards
        replace(state, members=(False, False, False)),
        replace(state, pile=(), discard=state.discard + state.pile),  # not final, no pile
        replace(state, phase=R.OVER),  # no result
    ]
    for broken in cases:
        with pytest.raises(BadStateError):
            GAME.from_json(GAME.to_json(broken))


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 50)
    | st.floats(allow_nan=False)
    | st.text(max_size=6)
    | st.sampled_from(["AS", "10H", "JS", "play", "VANGUARD"]),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5)
    ),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_garbage_is_bad_state(garbage: Any) -> None:
    with pytest.raises(BadStateError):
        GAME.from_json(garbage)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(list(valid_json())), json_values)
def test_a_garbage_field_is_bad_state_or_still_valid(field: str, garbage: Any) -> None:
    data = valid_json()
    data[field] = garbage
    try:
        state = GAME.from_json(data)
    except EngineError as error:
        assert error.code == "bad_state"
    else:  # a garbage seed can be a valid seed ("0"): the state is then that seed's
        assert GAME.to_json(state)["seed"] == (garbage if field == "seed" else "SAVE")


# -- through the API, as the page calls it ------------------------------------------------------


def call(**request: Any) -> dict[str, Any]:
    from tapete.api import handle

    answer: dict[str, Any] = json.loads(handle(json.dumps(request)))
    return answer


def test_api_new_game_apply_hint_and_errors() -> None:
    started = call(
        op="new_game", game="lobo", seed="API", options={"difficulty": "EASY"}, view_seat=0
    )
    assert started["ok"], started
    snapshot = started["result"]
    assert snapshot["to_move"] == 0 and snapshot["legal_moves"][-1] == "fold"
    hinted = call(op="hint", game="lobo", state=snapshot["state"], seat=0)
    assert hinted["ok"] and hinted["result"]["move"] in snapshot["legal_moves"]
    applied = call(
        op="apply", game="lobo", state=snapshot["state"], seat=0, move=hinted["result"]["move"]
    )
    assert applied["ok"], applied
    bad = call(op="apply", game="lobo", state=snapshot["state"], seat=0, move="perfect 7X>7S")
    assert bad["error"]["code"] == "invalid_move"
    hand, wolf = snapshot["state"]["hand"], snapshot["state"]["wolf"]
    wrong = call(
        op="apply",
        game="lobo",
        state=snapshot["state"],
        seat=0,
        move=f"perfect {hand[0]}>{wolf[0]}",
    )
    assert wrong["ok"] or wrong["error"]["code"] == "illegal_move"
    broken = call(op="view", game="lobo", state={"seed": "API"}, seat=0)
    assert broken["error"]["code"] == "bad_state"
    option = call(op="new_game", game="lobo", seed="API", options={"suits": 9})
    assert option["error"]["code"] == "bad_option"


def test_api_replay_rebuilds_a_record() -> None:
    state = GAME.new_game("REC")
    moves = []
    for step in range(6):
        if GAME.to_move(state) is None:
            break
        move = choose_move(GAME, state, 0, "greedy", step)
        moves.append({"seat": 0, "move": move.text()})
        state = GAME.apply(state, 0, move)
    record = {"game": "lobo", "seed": "REC", "options": {}, "players": 1, "moves": moves}
    answer = call(op="replay", record=record)
    assert answer["ok"] and answer["result"]["state"] == GAME.to_json(state)
