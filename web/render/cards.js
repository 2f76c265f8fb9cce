// Drawing Wizard cards with CSS and inline SVG glyphs. Each suit has a colour AND a shape
// (R triangle, B drop, G clover, Y star), so colour-blind players can tell them apart.
// Card codes (from the engine): R1..R13, B.., G.., Y.., Wizards Z1..Z4, Jesters N1..N4.

import { h, svg } from "../dom.js";

export const SUITS = ["R", "B", "G", "Y"];

const GLYPHS = {
  R: '<path d="M12 2.5 22.5 20.5H1.5Z"/>',
  B: '<path d="M12 1.5C9.2 6.4 4.8 10.6 4.8 15.2a7.2 7.2 0 0 0 14.4 0c0-4.6-4.4-8.8-7.2-13.7Z"/>',
  G: '<circle cx="12" cy="7" r="4.6"/><circle cx="6.8" cy="14.2" r="4.6"/><circle cx="17.2" cy="14.2" r="4.6"/><path d="M11 14h2l1 8.5h-4Z"/>',
  Y: '<path d="M12 1.5l3 6.9 7.4.6-5.6 4.9 1.7 7.3L12 17.3l-6.5 3.9 1.7-7.3L1.6 9l7.4-.6Z"/>',
  Z: '<path d="M12 1 19.5 18.5h-15Z"/><path d="M2.5 18.5h19v3h-19Z"/><path fill="#fff6c8" d="M12 8.2l1 2.2 2.4.2-1.8 1.6.6 2.4-2.2-1.3-2.2 1.3.6-2.4-1.8-1.6 2.4-.2Z"/>',
  N: '<path d="M4 17.5C4 12.5 3.2 8.8 1.6 6 6 6.8 9.6 10.2 12 14.2 14.4 10.2 18 6.8 22.4 6 20.8 8.8 20 12.5 20 17.5Z"/><path d="M3.5 17.5h17v4h-17Z"/><circle cx="1.9" cy="4.8" r="2"/><circle cx="22.1" cy="4.8" r="2"/><circle cx="12" cy="19.5" r="1.2" fill="#f4f1ea"/>',
};

/** An SVG glyph for a suit (R/B/G/Y) or for Wizards (Z) and Jesters (N). */
export function glyph(kind, className = "glyph") {
  return svg(
    `<svg class="${className} glyph-${kind}" viewBox="0 0 24 24" aria-hidden="true" focusable="false">${GLYPHS[kind] || ""}</svg>`,
  );
}

/** "R13" -> {kind: "R", rank: 13}; "Z2" -> {kind: "Z", rank: null}. Display only. */
export function parseCode(code) {
  const kind = String(code || "?")[0];
  if (kind === "Z" || kind === "N") return { kind, rank: null };
  const rank = Number(String(code).slice(1));
  return { kind, rank: Number.isFinite(rank) ? rank : null };
}

/** The name of a card for screen readers and messages: "blue 13", "Wizard". */
export function cardName(code, t) {
  const { kind, rank } = parseCode(code);
  if (kind === "Z") return t("card.wizard");
  if (kind === "N") return t("card.jester");
  return t("card.numbered", { suit: t(`suit.${kind}`), rank });
}

/**
 * A card face (a button when `onClick` is given). The face is a picture named by its
 * aria-label ("blue 13"); the corner indices are part of the picture, drawn by CSS from
 * data-rank (style.css `[data-rank]::before`), so a speech user says the card's name and a
 * screen reader reads it once.
 * @param {string} code
 * @param {(key: string, params?: object) => string} t
 * @param {{onClick?: Function, className?: string, testid?: string, dataset?: object, label?: string}} [opts]
 */
export function cardFace(code, t, opts = {}) {
  const { kind, rank } = parseCode(code);
  const special = kind === "Z" || kind === "N";
  const corner = special ? t(kind === "Z" ? "card.wizard.short" : "card.jester.short") : String(rank);
  const tag = opts.onClick ? "button" : "div";
  return h(
    tag,
    {
      class: ["card", `card-${kind}`, opts.className],
      type: opts.onClick ? "button" : null,
      onclick: opts.onClick || null,
      "aria-label": opts.label || cardName(code, t),
      role: opts.onClick ? null : "img",
      dataset: { card: code, testid: opts.testid || "card", ...(opts.dataset || {}) },
    },
    h("span", { class: "card-corner" }, h("span", { class: "card-rank", dataset: { rank: corner } }), glyph(kind, "glyph card-corner-glyph")),
    h("span", { class: "card-pip" }, glyph(kind, "glyph card-pip-glyph")),
    h("span", { class: "card-corner card-corner-end" }, h("span", { class: "card-rank", dataset: { rank: corner } })),
  );
}

/** The back of a card. */
export function cardBack(className = "") {
  return h("div", { class: ["card", "card-back", className], "aria-hidden": "true" }, h("span", { class: "card-back-mark" }, "T"));
}

/** A small chip naming a suit with its glyph: used for trump and the trump chooser. */
export function suitChip(suit, t) {
  return h("span", { class: ["suit-chip", `suit-${suit}`] }, glyph(suit), h("span", null, t(`suit.${suit}.name`)));
}

/** Hand order for display: Wizards, the trump suit, the other suits by rank, Jesters last. */
export function sortHand(hand, trump) {
  const order = (code) => {
    const { kind, rank } = parseCode(code);
    if (kind === "Z") return [0, 0];
    if (kind === "N") return [9, 0];
    const suitIndex = kind === trump ? 1 : 2 + SUITS.indexOf(kind);
    return [suitIndex, -(rank || 0)];
  };
  return [...hand].sort((a, b) => {
    const x = order(a), y = order(b);
    return x[0] - y[0] || x[1] - y[1] || (a < b ? -1 : a > b ? 1 : 0);
  });
}
