// Keyboard focus on the play screen, which draws its whole table again after every move, hint
// and pause: the control that had the focus gets it back on the new table (the same card, bid,
// tile or button, known by its data-focus or its test id and the card it stands for), so the
// focus is never dropped on <body>. A control that went away (a card just played, a bid row
// after the bidding) leaves the focus on a quiet spot before the table (the "park"), and when
// the player's turn comes, a keyboard player's focus moves from there to the turn's first
// action: the area a renderer marks `data-focus-home` (its first legal, else first enabled,
// control). A mouse or touch player's focus is only put back, never moved. In a row marked
// `data-arrows` (a hand, the bids) the left and right arrows (Home, End) go from card to card.

import { h } from "../dom.js";

/** Whether the last input was a key (Tab, Enter, arrows...) rather than a pointer. */
let keyboard = false;
if (typeof document !== "undefined") {
  const MODIFIERS = ["Shift", "Control", "Alt", "Meta", "CapsLock"];
  document.addEventListener("keydown", (event) => { if (!MODIFIERS.includes(event.key)) keyboard = true; }, true);
  document.addEventListener("pointerdown", () => { keyboard = false; }, true);
}

export function usingKeyboard() {
  return keyboard;
}

/** What a control stands for, the same on every redraw: "focus:<data-focus>", or its test id
 * with the card, bid, suit, move or code it carries; null for an element with neither. */
export function focusKey(el) {
  const data = el && el.dataset;
  if (!data) return null;
  if (data.focus) return `focus:${data.focus}`;
  if (!data.testid) return null;
  return [data.testid, data.card, data.bid, data.suit, data.move, data.code].map((v) => v ?? "").join("|");
}

/** The element of `scope` with that key, or null. */
export function findByKey(scope, key) {
  if (!key || !scope) return null;
  for (const el of scope.querySelectorAll("[data-focus], [data-testid]")) if (focusKey(el) === key) return el;
  return null;
}

const ENABLED = "button:not(:disabled):not([aria-disabled=true]), a[href], input:not(:disabled), select:not(:disabled)";

/** The first legal (else enabled) control of the first area marked `data-focus-home` that has
 * one, the areas taken by the mark's number (1 first; the page's order among equals). */
export function homeIn(scope) {
  const areas = [...scope.querySelectorAll("[data-focus-home]")].sort((a, b) => (Number(a.dataset.focusHome) || 1) - (Number(b.dataset.focusHome) || 1));
  for (const area of areas) {
    if (area.matches(ENABLED)) return area;
    const el = area.querySelector(`button.legal:not(:disabled):not([aria-disabled=true])`) || area.querySelector(ENABLED);
    if (el) return el;
  }
  return null;
}

/** Focus `el` if it can take it; a keyboard player also sees it scrolled into view. */
export function focusOn(el) {
  if (!el || el.disabled || typeof el.focus !== "function") return false;
  el.focus({ preventScroll: true });
  if (document.activeElement !== el) return false;
  if (keyboard) el.scrollIntoView({ block: "nearest", inline: "nearest" });
  return true;
}

/** Left / right (Home / End) inside a row marked data-arrows: the previous / next control. */
function arrowKey(event) {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const row = event.target.closest && event.target.closest("[data-arrows]");
  if (!row) return;
  const items = [...row.querySelectorAll("button")].filter((el) => !el.disabled);
  const at = items.indexOf(event.target);
  const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: items.length - 1 }[event.key];
  if (at < 0 || to === undefined) return;
  event.preventDefault();
  if (items[to]) focusOn(items[to]);
}

export class FocusKeeper {
  /**
   * @param {HTMLElement} root the element the play screen redraws
   * @param {string} label what the park says when a screen reader lands on it (the game's name)
   */
  constructor(root, label) {
    this.root = root;
    this.park = h("div", { class: "visually-hidden focus-park", tabindex: "-1", dataset: { testid: "focus-park" } }, label);
    root.before(this.park);
    this.held = null;
    this.onKey = (event) => arrowKey(event);
    root.addEventListener("keydown", this.onKey);
    /** A control that was disabled on a redraw: it gets the focus back if it is enabled again
     * before the next move, e.g. the hint button once the hint is ready. */
    this.wanted = null;
  }

  /** Before a redraw: remember the control of the play screen that has the focus. */
  hold() {
    const el = document.activeElement;
    const lost = !el || el === document.body;
    const ours = el === this.park || (!lost && this.root.contains(el));
    this.held = ours || (lost && keyboard) ? { el, key: ours && el !== this.park ? focusKey(el) : null } : null;
  }

  /**
   * After a redraw: the same control again, else one wanted back, else (the player's turn, by
   * keyboard) the turn's first action, else the park.
   * @param {{moment: number, turn: boolean}} at moment: the number of moves so far; turn: the
   *        player here may move now
   */
  restore({ moment, turn }) {
    const held = this.held;
    this.held = null;
    if (this.wanted && this.wanted.moment !== moment) this.wanted = null;
    if (!held) return;
    if (held.key) {
      const again = findByKey(this.root, held.key);
      if (focusOn(again)) {
        this.wanted = null;
        return;
      }
      // disabled for now (the hint button while the hint is searched): wanted back; gone (the
      // card just played): not, even if the next deal has a card of the same code
      this.wanted = again ? { key: held.key, moment } : null;
    }
    if (this.wanted && focusOn(findByKey(this.root, this.wanted.key))) {
      this.wanted = null;
      return;
    }
    if (turn && keyboard && focusOn(homeIn(this.root))) return;
    if (document.activeElement !== this.park) this.park.focus({ preventScroll: true });
  }

  /** The play screen closed: the park goes (the next screen places the focus itself). */
  remove() {
    this.park.remove();
    this.root.removeEventListener("keydown", this.onKey);
  }
}
