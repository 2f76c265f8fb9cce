"""Option specs as the new-game screen sees them: every knob is described, and a knob that only
matters for some values of another says so (``applies_when``) with names that exist."""

from __future__ import annotations

import pytest

from tapete import GAMES
from tapete.core import OptionSpec
from tapete.errors import BadOptionError


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_applies_when_names_an_enum_option_and_its_values(game_id: str) -> None:
    specs = {spec["name"]: spec for spec in GAMES[game_id].catalogue()["options"]}
    for spec in specs.values():
        condition = spec.get("applies_when")
        if condition is None:
            continue
        control = specs[condition["option"]]
        assert control["kind"] == "enum", spec["name"]
        assert condition["values"] and set(condition["values"]) <= set(control["choices"])


def test_known_conditions_are_published() -> None:
    wizard = {s["name"]: s for s in GAMES["wizard"].catalogue()["options"]}
    assert wizard["even_bid_restriction"]["applies_when"] == {
        "option": "bidding_mode",
        "values": ["OPEN_SEQUENTIAL"],
    }
    lobo = {s["name"]: s for s in GAMES["lobo"].catalogue()["options"]}
    assert lobo["classic_target"]["applies_when"] == {"option": "mode", "values": ["CLASSIC_LOBO"]}
    assert "applies_when" not in lobo["difficulty"]


def test_a_hidden_knob_left_at_its_default_is_a_valid_game() -> None:
    """What the new-game screen sends when bidding is hidden: the restriction at its default."""
    game = GAMES["wizard"]
    state = game.new_game("OPT1", {"bidding_mode": "HIDDEN_SIMULTANEOUS"}, 4)
    assert game.to_json(state)["options"]["even_bid_restriction"] == "NONE"
    with pytest.raises(BadOptionError):
        game.new_game(
            "OPT1",
            {"bidding_mode": "HIDDEN_SIMULTANEOUS", "even_bid_restriction": "ALWAYS_DEALER"},
            4,
        )


def test_spec_json_round_trip() -> None:
    spec = OptionSpec("target", 100, minimum=1, maximum=9, applies_when=("mode", ("A", "B")))
    assert spec.to_json() == {
        "name": "target",
        "kind": "int",
        "default": 100,
        "min": 1,
        "max": 9,
        "applies_when": {"option": "mode", "values": ["A", "B"]},
    }


def refusal(game_id: str, options: dict[str, object]) -> dict[str, object]:
    """The error JSON the page gets for a new game with ``options``."""
    with pytest.raises(BadOptionError) as info:
        GAMES[game_id].new_game("OPT1", options, GAMES[game_id].default_players)
    return info.value.to_json()


@pytest.mark.parametrize(
    ("game_id", "options", "expected"),
    [
        (
            "wizard",
            {"bidding_mode": "XYZ"},
            {
                "option": "bidding_mode",
                "reason": "not_a_choice",
                "got": "XYZ",
                "choices": ["OPEN_SEQUENTIAL", "HIDDEN_SIMULTANEOUS", "DELAYED_REVEAL"],
            },
        ),
        ("wizard", {"colours": "1"}, {"option": "colours", "reason": "unknown_option"}),
        ("willie", {"willie_enabled": "maybe"}, {"option": "willie_enabled", "reason": "not_bool"}),
        ("willie", {"hand_size": "ten"}, {"option": "hand_size", "reason": "not_whole"}),
        (
            "willie",
            {"close_threshold": "99"},
            {"option": "close_threshold", "reason": "out_of_range", "got": 99},
        ),
    ],
)
def test_a_refused_option_says_which_and_why(
    game_id: str, options: dict[str, object], expected: dict[str, object]
) -> None:
    """What the page words in the player's language (a link's bad option, issue 18)."""
    error = refusal(game_id, options)
    assert error["code"] == "bad_option"
    assert {key: error.get(key) for key in expected} == expected


def test_a_refused_value_is_quoted_short() -> None:
    error = refusal("wizard", {"bidding_mode": "Q" * 500})
    assert error["got"] == "Q" * 37 + "..."
    assert refusal("willie", {"willie_enabled": [1, 2]})["got"] == "[1, 2]"
