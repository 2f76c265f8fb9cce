"""Willie's live meld descriptions (``Game.describe_melds``, the api's ``inspect`` op): kinds,
reasons, the wild picker's choices (only legal declarations) and fixed wilds."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from tapete.api import handle
from tapete.errors import InvalidMoveError
from tapete.willie import GAME, WillieState, is_meld
from tapete.willie.cards import NUMBERS
from test_willie import position


def state_with(table: list[list[str]], hand: list[str], **options: Any) -> WillieState:
    state = position([hand, ["B2"]], table=table, turn=0, phase="meld", draws=1)
    if options:
        state = replace(state, options=tuple(sorted({**state.option, **options}.items())))
    return state


def inspect(state: WillieState, move: Any) -> dict[str, Any]:
    request = {"op": "inspect", "game": "willie", "state": GAME.to_json(state), "seat": 0}
    answer = json.loads(handle(json.dumps({**request, "move": move})))
    assert answer["ok"], answer
    result: dict[str, Any] = answer["result"]
    return result


def test_kinds_values_and_reasons() -> None:
    state = state_with([["R2", "R3", "R4"]], ["J", "Q", "K", "O8", "Y8", "G8"])
    table = [["R2", "R3", "R4"], ["J", "Q", "K"], ["O8", "Y8", "G8"], ["O8", "R2"], [7]]
    melds = GAME.describe_melds(state, 0, table)
    assert [m["valid"] for m in melds] == [True, True, True, False, False]
    assert [m.get("kind") for m in melds[:3]] == ["sequence", "willie", "group"]
    assert [m["value"] for m in melds[:3]] == [3, 10, 3]
    assert [m["changed"] for m in melds[:3]] == [False, True, True]
    assert melds[3]["reason"] == "meld_too_short" and melds[4]["reason"] == "bad_card"
    with pytest.raises(InvalidMoveError):
        GAME.describe_melds(state, 0, "R2 R3")


def test_wild_choices_are_exactly_the_legal_declarations() -> None:
    state = state_with([], ["K", "R7", "R8", "O8"], max_group_size=5)
    melds = GAME.describe_melds(state, 0, [["R7", "R8", "K"], ["R8", "O8", "K"], ["R7", "K"]])
    assert melds[0]["wild"] == 2 and melds[0]["wild_fixed"] is False
    assert melds[0]["wild_choices"] == ["R6", "R9"]
    assert melds[1]["wild_choices"] == ["Y8", "G8", "B8"]
    # every choice makes a valid meld, every other card does not
    for meld, entry in zip((["R7", "R8"], ["R8", "O8"]), melds, strict=False):
        for code in NUMBERS:
            assert is_meld([*meld, f"K:{code}"]) == (code in entry["wild_choices"])
    # a meld of two cards: the declarations it can still grow from
    assert set(melds[2]["wild_choices"]) == {f"R{r}" for r in range(2, 11) if r != 7} | {
        f"{s}7" for s in "OYGB"
    }


def test_group_size_option_limits_the_choices() -> None:
    four = state_with([], ["K", "R8", "O8", "Y8", "G8"])
    five = state_with([], ["K", "R8", "O8", "Y8", "G8"], max_group_size=5)
    table = [["R8", "O8", "Y8", "G8", "K"]]
    assert GAME.describe_melds(four, 0, table)[0]["wild_choices"] == []
    assert GAME.describe_melds(five, 0, table)[0]["wild_choices"] == ["B8"]


def test_an_old_wild_keeps_its_declaration_until_its_real_card_comes() -> None:
    state = state_with([["R7", "K:R8", "R9"]], ["R8", "R10", "B9"])
    kept = GAME.describe_melds(state, 0, [["R7", "K:R8", "R9", "R10"]])[0]
    assert kept["valid"] and kept["wild_fixed"] is True and kept["wild_choices"] == ["R8"]
    freed = GAME.describe_melds(state, 0, [["R7", "R8", "R9"], ["R10", "K"]])
    assert freed[1]["wild_fixed"] is False and "R10" not in freed[1]["wild_choices"]
    assert "R9" in freed[1]["wild_choices"] and "B10" in freed[1]["wild_choices"]


def test_inspect_op_for_willie() -> None:
    state = state_with([["R2", "R3", "R4"]], ["R5", "K", "B9"])
    good = {"play": {"table": [["R2", "R3", "R4", "R5", "K:R6"]], "from_hand": ["R5", "K"]}}
    result = inspect(state, good)
    assert result["legal"] is True and result["melds"][0]["kind"] == "sequence"
    loose = {"play": {"table": [["R2", "R3", "R4", "R5", "K"]], "from_hand": ["R5", "K"]}}
    result = inspect(state, loose)
    assert result["legal"] is False
    assert result["error"]["reason"] == "figure_needs_declaration"
    assert result["melds"][0]["wild_choices"] == ["R6"]
    assert inspect(state, "pass") == {"legal": True}
