// Modal layers: one at a time, above the table, with focus moved into them.

import { h } from "../dom.js";

let current = null;

/**
 * Show a modal panel; resolves with the value passed to `close`.
 * @param {(close: (value?: any) => void) => HTMLElement} build
 * @param {{testid?: string, opaque?: boolean, className?: string}} [opts]
 */
export function showOverlay(build, opts = {}) {
  closeOverlay();
  return new Promise((resolve) => {
    const layer = h("div", {
      class: ["overlay", opts.opaque ? "opaque" : null, opts.className],
      role: "dialog",
      "aria-modal": "true",
      dataset: { testid: opts.testid || "overlay" },
    });
    const close = (value) => {
      if (current && current.layer === layer) current = null;
      layer.remove();
      resolve(value);
    };
    layer.append(build(close));
    document.getElementById("overlays").append(layer);
    current = { layer, close };
    const focus = layer.querySelector("[autofocus], button");
    if (focus) focus.focus();
  });
}

export function closeOverlay() {
  if (current) current.close(undefined);
}
