// Modal layers: one at a time, above the table, with focus moved into them.

import { h } from "../dom.js";

let current = null;
let titles = 0;

/**
 * Show a modal panel; resolves with the value passed to `close`.
 * @param {(close: (value?: any) => void) => HTMLElement} build
 * Escape closes it with `opts.escapeValue` (what its cancel button gives) unless `escape` is
 * false; an opaque layer (the hand-over, which hides a hand) ignores Escape unless told. On
 * closing, the focus goes back where it was.
 * @param {{testid?: string, opaque?: boolean, className?: string, escape?: boolean, escapeValue?: any}} [opts]
 */
export function showOverlay(build, opts = {}) {
  closeOverlay();
  const before = document.activeElement;
  const escape = opts.escape === undefined ? !opts.opaque : opts.escape;
  return new Promise((resolve) => {
    const layer = h("div", {
      class: ["overlay", opts.opaque ? "opaque" : null, opts.className],
      role: "dialog",
      "aria-modal": "true",
      dataset: { testid: opts.testid || "overlay" },
    });
    const onKey = (event) => {
      if (event.key !== "Escape" || !escape) return;
      event.preventDefault();
      close(opts.escapeValue);
    };
    const close = (value) => {
      if (!layer.isConnected) return;
      if (current && current.layer === layer) current = null;
      document.removeEventListener("keydown", onKey);
      layer.remove();
      // the page may have redrawn meanwhile: then the control of the same test id stands in
      const testid = before && before.dataset ? before.dataset.testid : null;
      const back = before && before.isConnected ? before : testid ? document.querySelector(`[data-testid="${CSS.escape(testid)}"]`) : null;
      if (back && typeof back.focus === "function") back.focus({ preventScroll: true });
      resolve(value);
    };
    document.addEventListener("keydown", onKey);
    layer.append(build(close));
    // a dialog is named by its heading (screen readers announce it on opening)
    const heading = layer.querySelector("h1, h2, h3");
    if (heading) {
      heading.id ||= `overlay-title-${++titles}`;
      layer.setAttribute("aria-labelledby", heading.id);
    }
    document.getElementById("overlays").append(layer);
    current = { layer, close };
    const focus = layer.querySelector("[autofocus], button");
    if (focus) focus.focus();
  });
}

export function closeOverlay() {
  if (current) current.close(undefined);
}
