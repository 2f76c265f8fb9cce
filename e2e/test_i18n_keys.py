"""The two languages have the same keys, and every literal t("key") in web/ exists."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from ui_helpers import load_build_module

WEB = Path(__file__).resolve().parent.parent / "web"
CALL = re.compile(r"""\bt\(\s*["']([A-Za-z0-9_.]+)["']""")
ATTR = re.compile(r"""data-i18n(?:-[a-z]+)?="([A-Za-z0-9_.]+)\"""")


def load(lang: str) -> dict[str, str]:
    build = sys.modules.get("tapete_build") or load_build_module()
    strings: dict[str, str] = build.load_translations(WEB / "i18n", lang)
    return strings


def test_languages_have_the_same_keys() -> None:
    en, es = load("en"), load("es")
    assert sorted(set(en) - set(es)) == []
    assert sorted(set(es) - set(en)) == []
    assert all(isinstance(v, str) and v.strip() for v in [*en.values(), *es.values()])


def test_placeholders_match_between_languages() -> None:
    en, es = load("en"), load("es")
    holes = re.compile(r"\{(\w+)\}")
    for key in en:
        assert set(holes.findall(en[key])) == set(holes.findall(es[key])), key


def test_every_literal_key_exists() -> None:
    en = load("en")
    used: set[str] = set()
    for path in WEB.rglob("*.js"):
        used |= set(CALL.findall(path.read_text(encoding="utf-8")))
    used |= set(ATTR.findall((WEB / "index.html").read_text(encoding="utf-8")))
    assert used, "found no t() calls: the pattern is out of date"
    missing = sorted(key for key in used if key not in en)
    assert missing == []


def test_engine_reasons_and_options_are_translated() -> None:
    en = load("en")
    for reason in (
        "must_follow_suit",
        "not_in_hand",
        "bad_bid",
        "even_bid",
        "not_bidding",
        "not_playing",
        "not_choosing_trump",
        "must_choose_trump",
        "generic",
    ):
        assert f"reason.{reason}" in en
    for code in engine().errors.error_codes() | {"internal"}:  # internal: the worker's own
        assert f"error.{code}" in en


def engine() -> Any:
    """The tapete package from engine/ (imported once)."""
    sys.path.insert(0, str(WEB.parent / "engine"))
    try:
        import tapete
        import tapete.errors
    finally:
        sys.path.pop(0)
    return tapete


def test_every_catalogue_option_is_translated() -> None:
    tapete = engine()
    en = load("en")
    for game_id, game in tapete.GAMES.items():
        if not (WEB / "render" / f"{game_id}.js").is_file():
            continue  # the page offers only games it can draw
        catalogue = game.catalogue()
        assert f"game.{game_id}.name" in en
        for level in catalogue["bot_levels"]:
            assert f"bot.level.{level}" in en
        for option in catalogue["options"]:
            assert f"opt.{game_id}.{option['name']}" in en
            for choice in option.get("choices", []):
                assert f"opt.{game_id}.{option['name']}.{choice}" in en
