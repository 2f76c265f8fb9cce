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
  // the focus was on the table that is gone (or nowhere): it starts on the heading
  const lost = !document.activeElement || document.activeElement === document.body || root.contains(document.activeElement);
  mount(
    root,
    h(
      "div",
      { class: "gameover", dataset: { testid: "game-over" } },
      h(
        "section",
        { class: "panel wide" },
        h("h2", { tabindex: "-1", dataset: { testid: "over-title" } }, t("over.title")),
        headline(p.renderer, outcome, view, p.names),
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
  if (lost) root.querySelector("[data-testid=over-title]")?.focus({ preventScroll: true });
}

/** Who won (the game's own headline where it has one: Lobo's won or lost). */
function headline(renderer, outcome, view, names) {
  if (renderer.renderHeadline) return renderer.renderHeadline(outcome, view, t);
  const winners = outcome.winners.map((seat) => names[seat]);
  return h("p", { class: "winners", dataset: { testid: "winners" } }, t(winners.length > 1 ? "over.winners" : "over.winner_is", { names: winners.join(", ") }));
}

/** The end of a game in words, for the live region: "Game over. Winner: Bot 2". */
export function gameOverText(renderer, snap, names) {
  return `${t("over.title")}. ${headline(renderer, snap.outcome, snap.view, names).textContent}`;
}
