// The end of a game: ranks and winners (from the engine's outcome), the full score sheet, and
// "play this deal again", "new deal", "share this deal".

import { h, mount } from "../dom.js";
import { t } from "../i18n.js";

/**
 * @param {HTMLElement} root
 * @param {{renderer: object, snap: object, names: string[], onAgain: Function, onNewDeal: Function, onShare: Function, engine?: object, links?: HTMLElement[]}} p
 */
export function renderGameOver(root, p) {
  const { outcome, view } = p.snap;
  const winners = outcome.winners.map((seat) => p.names[seat]);
  mount(
    root,
    h(
      "div",
      { class: "gameover", dataset: { testid: "game-over" } },
      h(
        "section",
        { class: "panel wide" },
        h("h2", null, t("over.title")),
        p.renderer.renderHeadline
          ? p.renderer.renderHeadline(outcome, view, t)
          : h("p", { class: "winners", dataset: { testid: "winners" } }, t(winners.length > 1 ? "over.winners" : "over.winner_is", { names: winners.join(", ") })),
        p.renderer.renderRanking(outcome, p.names, t),
        h(
          "div",
          { class: "panel-actions" },
          h("button", { type: "button", class: "primary", dataset: { testid: "again" }, onclick: () => p.onAgain() }, t("over.again")),
          h("button", { type: "button", class: "primary", dataset: { testid: "new-deal" }, onclick: () => p.onNewDeal() }, t("over.new_deal")),
          h("button", { type: "button", class: "ghost", dataset: { testid: "share" }, onclick: () => p.onShare() }, t("over.share")),
          p.links || null,
          h("a", { class: "button ghost", href: "#/", dataset: { testid: "home-link" } }, t("common.home")),
        ),
      ),
      // a game's own panel, if it has one (Lobo: "was this deal winnable?", asked on request)
      p.renderer.renderOverExtra ? p.renderer.renderOverExtra({ snap: p.snap, engine: p.engine, t }) : null,
      h("section", { class: "panel wide" }, h("h2", null, t("sheet.title")), p.renderer.renderScoreSheet(view, p.names, t)),
    ),
  );
}
