// "Share this deal": the link goes to the clipboard when the browser allows it, and is always
// shown in a text box to copy by hand.

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { formatDealLink } from "../deal-link.js";
import { showOverlay } from "./overlay.js";

/** The absolute URL of this page with the deal link's hash. */
export function dealUrl(setup) {
  return location.href.split("#")[0] + formatDealLink(setup);
}

/** @param {{game: string, seed: string, players: number, seats: object[], options: object}} setup */
export function shareDeal(setup) {
  const url = dealUrl(setup);
  const status = h("p", { class: "share-status", role: "status", dataset: { testid: "share-status" } }, t("share.copy_by_hand"));
  const box = h("input", { type: "text", readonly: true, class: "share-url", value: url, "aria-label": t("share.link"), dataset: { testid: "share-url" }, onfocus: (e) => e.target.select() });
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(url).then(
      () => { status.textContent = t("share.copied"); },
      () => { status.textContent = t("share.copy_by_hand"); },
    );
  }
  return showOverlay(
    (close) =>
      h(
        "div",
        { class: "panel" },
        h("h2", null, t("share.title")),
        h("p", null, t("share.body", { seed: setup.seed })),
        box,
        status,
        h("div", { class: "panel-actions" }, h("button", { type: "button", class: "primary", dataset: { testid: "share-close" }, onclick: () => close() }, t("common.close"))),
      ),
    { testid: "share-dialog" },
  );
}
