// The guided tour over the real table (issue 18, first-time help): a bubble beside one element
// of the live table at a time (the hand, the table, the other players, how to move, the hint,
// the rules), with that element lit and the rest dimmed. What it shows per game is data
// (./tour-steps.js); this module only finds those elements, places the bubble (./tour-place.js)
// and runs the dialog. No game logic here.
//
// A modal dialog (role=dialog, aria-modal, named by its title, described by its text): the page
// behind it is inert while it is open, the focus goes to its Next button and comes back to the
// table when it ends. Next / Back (the arrow keys too) and Skip; Escape skips; Tab stays inside.
// The play screen (./play.js) opens it by itself on the player's first turn of a game they have
// never toured (kept in the settings: `toursSeen`), redraws it after each redraw of the table
// (`refresh`), and the ⚙ menu's "Show the tour" opens it again.

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { reducedMotion } from "../motion.js";
import { saveSettings } from "../store.js";
import { focusOn, homeIn, usingKeyboard } from "./focus.js";
import { placeBubble } from "./tour-place.js";
import { TOURS } from "./tour-steps.js";

/** The bubble's widths, in pixels: the first, else a wider one where only that fits. */
const WIDTHS = [360, 460, 560];
/** Room around the lit element, in pixels. */
const RING_PAD = 6;
/** The page behind the open tour: made inert (no clicks, no focus, hidden from screen readers). */
const BEHIND = ["#app", "header.topbar", "#update-banner"];

let titles = 0;

/** Whether the player has seen this game's tour on this device. */
export function tourSeen(settings, game) {
  return Array.isArray(settings.toursSeen) && settings.toursSeen.includes(game);
}

/** Remember that this game's tour was shown (it does not open by itself again). */
export function markTourSeen(settings, game) {
  if (tourSeen(settings, game)) return;
  settings.toursSeen = [...(Array.isArray(settings.toursSeen) ? settings.toursSeen : []), game];
  saveSettings(settings);
}

/** Whether the tour should open by itself now: the game has one, not seen yet, and nothing on
 * the table asks it to wait (a running turn timer). */
export function tourDue(settings, game) {
  const plan = TOURS[game];
  if (!plan || tourSeen(settings, game)) return false;
  return !(plan.skipWhen && document.querySelector(plan.skipWhen));
}

/** The ⚙ menu's "Show the tour": shown while a table with a tour is on screen. */
export function offerTourButton(onClick) {
  const button = document.getElementById("show-tour");
  if (!button) return;
  button.hidden = false;
  button.onclick = () => {
    button.closest("details")?.removeAttribute("open");
    onClick();
  };
}

export function withdrawTourButton() {
  const button = document.getElementById("show-tour");
  if (!button) return;
  button.hidden = true;
  button.onclick = null;
}

function visible(el) {
  const box = el.getBoundingClientRect();
  return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== "hidden";
}

/** A step's element on the page now (the first of its targets shown), or null. */
function findTarget(step) {
  for (const selector of step.target) {
    const el = document.querySelector(selector);
    if (el && visible(el)) return { el, selector };
  }
  return null;
}

/** The box to light: the element's, or (a `tight` step) the one around what it holds. */
function litBox(el, tight) {
  const own = el.getBoundingClientRect();
  if (!tight) return own;
  const parts = [...el.children].map((child) => child.getBoundingClientRect()).filter((box) => box.width > 0 && box.height > 0);
  if (!parts.length) return own;
  const left = Math.min(...parts.map((box) => box.left));
  const top = Math.min(...parts.map((box) => box.top));
  return { left, top, width: Math.max(...parts.map((box) => box.right)) - left, height: Math.max(...parts.map((box) => box.bottom)) - top };
}

/** The text of a step: a variant's when its element is on the page. */
function stepKey(step) {
  for (const variant of step.variants || []) if (document.querySelector(variant.when)) return variant.key;
  return step.key;
}

export class Tour {
  /**
   * @param {string} game the game's id (its plan in TOURS)
   * @param {{scope: HTMLElement}} opts scope: the play screen's root (the focus comes back to it)
   */
  constructor(game, { scope }) {
    this.game = game;
    this.scope = scope;
    this.steps = (TOURS[game]?.steps || []).filter((step) => findTarget(step));
    this.index = -1;
    this.open = false;
    /** Resolves when the tour ends: "done", "skipped" or "stopped". */
    this.closed = new Promise((resolve) => { this.resolve = resolve; });
    this.onKey = (event) => this.key(event);
    this.onResize = () => this.refresh();
  }

  /** Open on the first step; false (and nothing shown) if no step's element is on the page. */
  start() {
    if (!this.steps.length) return false;
    this.before = document.activeElement;
    const n = ++titles;
    this.title = h("h2", { id: `tour-title-${n}`, class: "tour-title" });
    this.body = h("p", { id: `tour-body-${n}`, class: "tour-body" });
    this.count = h("p", { class: "tour-count", dataset: { testid: "tour-count" } });
    this.back = h("button", { type: "button", class: "ghost", dataset: { testid: "tour-back" }, onclick: () => this.go(-1) }, t("tour.back"));
    this.next = h("button", { type: "button", class: "primary", dataset: { testid: "tour-next" }, onclick: () => this.go(1) });
    this.skip = h("button", { type: "button", class: "tour-skip", dataset: { testid: "tour-skip" }, onclick: () => this.close("skipped") }, t("tour.skip"));
    this.arrow = h("span", { class: "tour-arrow", "aria-hidden": "true" });
    this.bubble = h(
      "div",
      { class: "tour-bubble", role: "dialog", "aria-modal": "true", "aria-labelledby": this.title.id, "aria-describedby": this.body.id, dataset: { testid: "tour" } },
      this.arrow,
      this.count,
      // a new step is read out as it comes (the focus stays on the button pressed)
      h("div", { class: "tour-text", "aria-live": "polite" }, this.title, this.body),
      h("div", { class: "tour-actions" }, this.skip, h("span", { class: "tour-space" }), this.back, this.next),
    );
    this.ring = h("div", { class: "tour-ring", "aria-hidden": "true", dataset: { testid: "tour-ring" } });
    this.layer = h("div", { class: "tour-layer" }, this.ring, this.bubble);
    (document.getElementById("overlays") || document.body).append(this.layer);
    for (const selector of BEHIND) document.querySelector(selector)?.setAttribute("inert", "");
    document.addEventListener("keydown", this.onKey, true);
    window.addEventListener("resize", this.onResize);
    this.open = true;
    this.go(1);
    return true;
  }

  /** To the next (+1) or previous (-1) step whose element is on the page; past the last: done. */
  go(by) {
    let index = this.index + by;
    while (index >= 0 && index < this.steps.length && !findTarget(this.steps[index])) index += by;
    if (index >= this.steps.length) return this.close("done");
    if (index < 0) return;
    const hadFocus = this.bubble.contains(document.activeElement);
    this.index = index;
    const step = this.steps[index];
    const key = stepKey(step);
    this.title.textContent = t(`${key}.title`);
    this.body.textContent = t(`${key}.body`, { dealer: t("table.dealer.short") }); // the plates' chip
    this.count.textContent = t("tour.count", { step: index + 1, total: this.steps.length });
    const last = index === this.steps.length - 1;
    this.next.textContent = t(last ? "tour.done" : "tour.next");
    const first = index === 0;
    if (first && document.activeElement === this.back) this.next.focus();
    this.back.hidden = first;
    this.bubble.dataset.step = String(index);
    this.bubble.dataset.key = key;
    this.place(true);
    if (!hadFocus) this.next.focus({ preventScroll: true });
  }

  /** The table was drawn again (or the window resized): follow the step's new element. */
  refresh() {
    if (this.open) this.place(false);
  }

  /** Light the step's element and put the bubble beside it, scrolling if both need it. */
  place(scroll) {
    const found = findTarget(this.steps[this.index]);
    const root = document.documentElement;
    const view = { left: window.scrollX, top: window.scrollY, width: root.clientWidth, height: root.clientHeight };
    const size = (width) => {
      this.bubble.style.width = `${Math.min(width, view.width - 24)}px`;
      return { width: this.bubble.offsetWidth, height: this.bubble.offsetHeight };
    };
    let bubble = size(WIDTHS[0]);
    if (!found) {
      // its element went away under a redraw: the bubble waits in the middle of the screen
      this.ring.hidden = true;
      this.bubble.dataset.side = "none";
      this.bubble.dataset.target = "";
      this.bubble.style.left = `${view.left + (view.width - bubble.width) / 2}px`;
      this.bubble.style.top = `${view.top + Math.max(12, (view.height - bubble.height) / 2)}px`;
      return;
    }
    const box = litBox(found.el, this.steps[this.index].tight);
    const target = { left: box.left + view.left - RING_PAD, top: box.top + view.top - RING_PAD, width: box.width + 2 * RING_PAD, height: box.height + 2 * RING_PAD };
    const page = { width: root.scrollWidth, height: Math.max(root.scrollHeight, document.body.scrollHeight) };
    let spot = placeBubble({ target, bubble, view, page });
    // no room above or below a big element: a wider (so shorter) bubble may fit beside it
    for (const width of WIDTHS.slice(1)) {
      if (spot.side !== "over" || width > view.width - 24) break;
      bubble = size(width);
      spot = placeBubble({ target, bubble, view, page });
    }
    if (Math.abs(spot.scrollY - view.top) > 1 && (scroll || spot.side !== "over")) {
      window.scrollTo({ top: spot.scrollY, behavior: reducedMotion() ? "auto" : "smooth" });
    }
    this.ring.hidden = false;
    Object.assign(this.ring.style, { left: `${target.left}px`, top: `${target.top}px`, width: `${target.width}px`, height: `${target.height}px` });
    Object.assign(this.bubble.style, { left: `${spot.left}px`, top: `${spot.top}px` });
    this.bubble.dataset.side = spot.side;
    this.bubble.dataset.target = found.selector;
    this.arrow.hidden = spot.arrow === null;
    if (spot.arrow !== null) this.arrow.style.setProperty("--at", `${spot.arrow}px`);
  }

  key(event) {
    if (!this.open) return;
    if (event.key === "Escape") {
      event.preventDefault();
      event.stopImmediatePropagation();
      this.close("skipped");
      return;
    }
    const inside = this.bubble.contains(document.activeElement);
    if (event.key === "Tab") {
      // the focus stays in the bubble: round its buttons
      const buttons = [...this.bubble.querySelectorAll("button")].filter((b) => !b.hidden && !b.disabled);
      const at = buttons.indexOf(document.activeElement);
      const to = inside ? (at + (event.shiftKey ? -1 : 1) + buttons.length) % buttons.length : 0;
      event.preventDefault();
      buttons[to]?.focus();
      return;
    }
    if (!inside || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
      event.preventDefault();
      this.go(event.key === "ArrowRight" ? 1 : -1);
    }
  }

  /** End the tour: the page is live again and the focus goes back to the table. */
  close(reason) {
    if (!this.open) return;
    this.open = false;
    document.removeEventListener("keydown", this.onKey, true);
    window.removeEventListener("resize", this.onResize);
    for (const selector of BEHIND) document.querySelector(selector)?.removeAttribute("inert");
    this.layer.remove();
    if (reason !== "stopped") this.giveFocusBack();
    this.resolve(reason);
  }

  /** Where the focus was (a control of the table), else the turn's first move for a keyboard
   * player, else the quiet spot before the table. */
  giveFocusBack() {
    const before = this.before;
    if (before && before.isConnected && before !== document.body && this.scope.contains(before) && typeof before.focus === "function") {
      before.focus({ preventScroll: true });
      if (document.activeElement === before) return;
    }
    if (usingKeyboard() && focusOn(homeIn(this.scope))) return;
    document.querySelector("[data-testid=focus-park]")?.focus({ preventScroll: true });
  }
}
