// A banner under the header when games cannot be kept: storage full (the game goes on in memory)
// or a browser that gives no storage at all. It stays until a save succeeds again or the player
// closes it.

import { h, mount } from "../dom.js";
import { t } from "../i18n.js";

let shown = "";
/** The kind the player closed: not shown again until a save works. */
let closed = "";

function banner() {
  let el = document.getElementById("storage-banner");
  if (!el) {
    el = h("div", { id: "storage-banner", class: "storage-banner", role: "alert", dataset: { testid: "storage-banner" }, hidden: true });
    const update = document.getElementById("update-banner");
    if (update) update.after(el);
    else document.body.prepend(el);
  }
  return el;
}

/** Show why games are not being kept: "quota", "failed" or "memory". */
export function showStorageProblem(kind) {
  if (shown === kind || closed === kind) return;
  shown = kind;
  const el = banner();
  el.dataset.kind = kind;
  el.hidden = false;
  mount(
    el,
    h("span", null, t(`saves.problem.${kind === "quota" || kind === "memory" ? kind : "failed"}`)),
    h("button", { type: "button", class: "ghost", dataset: { testid: "storage-banner-close" }, onclick: () => clearStorageProblem(true) }, t("common.close")),
  );
}

/** A save worked again (or the player closed the banner). */
export function clearStorageProblem(closedByPlayer = false) {
  if (closedByPlayer) closed = shown;
  else if (shown === "memory") return; // memory stays memory: only the player closes it
  else closed = "";
  if (!shown) return;
  shown = "";
  const el = document.getElementById("storage-banner");
  if (el) el.hidden = true;
}

/** Redraw in the current language. */
export function redrawStorageProblem() {
  const kind = shown;
  if (!kind) return;
  shown = "";
  showStorageProblem(kind);
}
