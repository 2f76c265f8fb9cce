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


# -- plural forms (issue 18: "1 moves played") --------------------------------------------------

# Strings whose {n} counts nothing a word agrees with, in either language: a name or a place in
# a list ("Player 2", "Meld 3", "move 4 of 9"), a value ("Rack worth 31"), a number drawn or
# left with no noun ("The Wolf draws 2", "and 3 more."), or a count that is never 1.
NOT_COUNTS = {
    "newgame.name.label",
    "seat.player",
    "seat.bot",
    "lab.seat",
    "join.seat",
    "join.in",
    "meld.put_here",
    "meld.meld_name",
    "meld.read_as",
    "willie.meld.put_here",
    "rummikub.reason.meld_invalid",
    "rummikub.reason.table_changed_on_initial_meld",
    "wizard.draw.round",
    "willie.draw.nth",
    "willie.status.you.draw",
    "review.wizard.bid",
    "replay.move.bid",
    "replay.move.bid.you",
    "replay.move_of",
    "replay.mark.good",
    "replay.mark.inaccuracy",
    "replay.mark.mistake",
    "saves.progress.turn",
    "saves.progress.game_of",
    "saves.reason.move",
    "stats.result.place",
    "transfer.checking",
    "transfer.refused.item",
    "rummikub.rack_value",
    "rummikub.sheet.rack",
    "lobo.move.wolf_draws",
    "lobo.deal.wolf_draws",
    "willie.stock",
    "transfer.refused.more",
    "transfer.error.too_many",  # more games than the limit: never one
}
# Counts named otherwise, that are never one: ranges of players ("2–6 players") and the fixed
# grading thresholds and search budgets.
NOT_N = {
    "home.players",
    "lab.error.players",
    "lobo.deal.thinking",
    "lobo.deal.longer",
    "review.note.wizard",
    "review.note.rummikub",
    "review.note.willie",
}
NOUNS = {
    "en": r"cards?|tiles?|games?|moves?|points?|positions?|rounds?|shuffles?|decisions?|"
    r"players?|bots?|members?|tricks?|turns?|melds?|views?",
    "es": r"cartas?|fichas?|partidas?|jugadas?|puntos?|posicion(?:es)?|rondas?|barajadas?|"
    r"decision(?:es)?|jugadores?|bots?|miembros?|bazas?|turnos?|vistas?",
}
# "(4)" or ": 4" at the end: a count shown as a label's value, which nothing agrees with
LABEL_VALUE = re.compile(r"\(\{n\}\)|: \{n\}(?=$|[.)…])")


def test_every_count_has_its_plural_forms() -> None:
    """A count is always {n} (the plural mechanism's), and each string with one has its `.one`
    form in both languages, unless the count is a label's value or not a count at all."""
    langs = {"en": load("en"), "es": load("es")}
    missing, misnamed = [], []
    for key in langs["en"]:
        if key.endswith(".one") or key in NOT_COUNTS:
            continue
        texts = [langs[lang][key] for lang in langs]
        if any("{n}" in text for text in texts):
            if all(LABEL_VALUE.search(text) for text in texts):
                continue
            missing += [f"{lang}: {key}.one" for lang in langs if f"{key}.one" not in langs[lang]]
        for lang, strings in langs.items():
            other = re.search(r"\{(?!n\})(\w+)\}[ ]+(?:" + NOUNS[lang] + r")\b", strings[key])
            if other and key not in NOT_N:
                misnamed.append(f"{lang}: {key} counts {{{other.group(1)}}}")
    assert missing == []
    assert misnamed == []


def test_the_one_forms_fill_only_their_strings_placeholders() -> None:
    for lang in ("en", "es"):
        strings = load(lang)
        for key, text in strings.items():
            if key.endswith(".one") and key[:-4] in strings:
                base = set(re.findall(r"\{(\w+)\}", strings[key[:-4]])) | {"n"}
                assert set(re.findall(r"\{(\w+)\}", text)) <= base, (lang, key)
