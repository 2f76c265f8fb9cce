// The home screen: the games that have a renderer, the games in progress (`kept`, a panel made by
// ui/games.js), rules links, and any message (a broken link, a save that could not be restored).

import { h, mount } from "../dom.js";
import { has, language, t } from "../i18n.js";
import { glyph } from "../render/cards.js";

/**
 * @param {HTMLElement} root
 * @param {{games: object[], kept: HTMLElement | null, messages: string[], onLanguage: (lang: string) => void}} p
 */
export function renderHome(root, p) {
  const messages = p.messages.map((text) =>
    h("div", { class: "notice", role: "alert", dataset: { testid: "home-message" } }, text),
  );
  const games = h(
    "section",
    { class: "games" },
    p.games.map((game) =>
      h(
        "article",
        { class: "game-tile", dataset: { testid: `game-${game.id}` } },
        h("div", { class: "game-art", "aria-hidden": "true" }, p.art?.(game.id) || (game.id === "lobo"
          ? ["♠", "♥", "♦", "♣"].map((sign, i) => h("span", { class: ["lobo-art", i === 1 || i === 2 ? "red" : null] }, sign))
          : ["Z", "R", "B", "G", "Y"].map((kind) => glyph(kind, `glyph art-${kind}`)))),
        h("h2", null, t(`game.${game.id}.name`)),
        h("p", { class: "tagline" }, t(`game.${game.id}.tagline`)),
        // a game's tip for a first game, where it has one (Willie: how to lengthen its rounds)
        has(`game.${game.id}.tip`) ? h("p", { class: "tip", dataset: { testid: `tip-${game.id}` } }, t(`game.${game.id}.tip`)) : null,
        h("p", { class: "meta" }, game.max_players === 1 ? t("home.solo") : t("home.players", { min: game.min_players, max: game.max_players })),
        h(
          "div",
          { class: "tile-actions" },
          // each link names its game for a screen reader's list of links
          h("a", { class: "button primary", href: `#/new/${game.id}`, "aria-label": t("home.new_game_of", { game: t(`game.${game.id}.name`) }), dataset: { testid: `new-${game.id}` } }, t("home.new_game")),
          h("a", { class: "button ghost", href: `rules/${game.id}.${language()}.html`, "aria-label": t("home.rules_of", { game: t(`game.${game.id}.name`) }), dataset: { testid: `rules-${game.id}` } }, t("home.rules")),
        ),
      ),
    ),
  );
  const langs = h(
    "div",
    { class: "lang-switch", role: "group", "aria-label": t("settings.language") },
    ["en", "es"].map((lang) =>
      h(
        "button",
        { type: "button", class: ["ghost", language() === lang ? "active" : null], "aria-pressed": String(language() === lang), dataset: { testid: `lang-${lang}` }, onclick: () => p.onLanguage(lang) },
        t(`lang.${lang}`),
      ),
    ),
  );
  mount(
    root,
    h(
      "div",
      { class: "home", dataset: { testid: "home" } },
      h("section", { class: "hero" }, h("h1", null, t("app.name")), h("p", null, t("home.tagline"))),
      messages,
      p.kept || null,
      games,
      h(
        "footer",
        { class: "home-footer" },
        langs,
        h("p", null, h("a", { class: "button ghost", href: "#/lab/willie", dataset: { testid: "lab-home-link" } }, t("lab.home_link"))),
        h("p", { class: "small" }, t("home.offline_note")),
      ),
    ),
  );
}
