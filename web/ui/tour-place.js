// Where the guided tour's bubble goes beside the element it explains: plain geometry, no DOM
// (tests/js/tour-place.test.mjs). Every box is in page coordinates (the document's, scroll
// included). The bubble never covers its element when the two fit on the screen together: it
// sits below, above, right or left of it (that order, the first that needs no scrolling, else
// the one that scrolls least), kept inside the screen, its arrow pointing at the element's
// middle. Only an element too big to share the screen with the bubble gets the bubble over its
// lower part ("over").

/** @typedef {{left: number, top: number, width: number, height: number}} Box */

/**
 * @typedef {object} Placement
 * @property {"below" | "above" | "right" | "left" | "over"} side where the bubble is
 * @property {number} left the bubble's left edge (page coordinates)
 * @property {number} top the bubble's top edge
 * @property {number} scrollY the page's scroll position that shows both (the view's top)
 * @property {number | null} arrow where the arrow points along the bubble's edge facing the
 *           element (from the bubble's left for below/above, from its top for right/left);
 *           null for "over"
 */

const SIDES = ["below", "above", "right", "left"];
/** The arrow keeps this far from the bubble's corners (its rounded edge). */
const ARROW_INSET = 20;

function clamp(value, low, high) {
  return Math.min(Math.max(value, low), Math.max(low, high));
}

/**
 * @param {object} at
 * @param {Box} at.target the element explained
 * @param {{width: number, height: number}} at.bubble the bubble's size
 * @param {Box} at.view the visible part of the page now (left/top: the scroll position)
 * @param {{width: number, height: number}} at.page the whole page's size (how far it scrolls)
 * @param {number} [at.gap] room between the element and the bubble (the arrow sits in it)
 * @param {number} [at.margin] room kept between the bubble and the screen's edges
 * @returns {Placement}
 */
export function placeBubble({ target, bubble, view, page, gap = 14, margin = 12 }) {
  const maxScroll = Math.max(0, page.height - view.height);
  const right = target.left + target.width;
  const bottom = target.top + target.height;
  const middleX = target.left + target.width / 2;
  const middleY = target.top + target.height / 2;
  const viewRight = view.left + view.width;
  // the element's part inside the page (its lit ring may stick out of the page's edge)
  const shownTop = Math.max(0, target.top);
  const shownBottom = Math.min(page.height, bottom);

  /** The scroll position nearest the current one that shows the element whole and, if given,
   * the bubble from `top` (`height` tall) with `margin` to spare; null if none does. */
  const scrollFor = (top = shownTop + margin, height = 0) => {
    const from = Math.max(0, top + height + margin - view.height, shownBottom - view.height);
    const to = Math.min(maxScroll, top - margin, shownTop);
    if (from > to) return null;
    return clamp(view.top, from, to);
  };

  const tries = [];
  for (const side of SIDES) {
    if (side === "below" || side === "above") {
      const top = side === "below" ? bottom + gap : target.top - gap - bubble.height;
      const scrollY = scrollFor(top, bubble.height);
      if (scrollY === null || bubble.width > view.width - 2 * margin) continue;
      const left = clamp(middleX - bubble.width / 2, view.left + margin, viewRight - margin - bubble.width);
      tries.push({ side, left, top, scrollY, arrow: clamp(middleX - left, ARROW_INSET, bubble.width - ARROW_INSET) });
    } else {
      const left = side === "right" ? right + gap : target.left - gap - bubble.width;
      if (left < view.left + margin || left + bubble.width > viewRight - margin) continue;
      // level with the element's middle, slid up or down to stay on screen beside it
      const wanted = middleY - bubble.height / 2;
      const scrollY = scrollFor();
      if (scrollY === null || bubble.height > view.height - 2 * margin) continue;
      const top = clamp(wanted, scrollY + margin, scrollY + view.height - margin - bubble.height);
      tries.push({ side, left, top, scrollY, arrow: clamp(middleY - top, ARROW_INSET, bubble.height - ARROW_INSET) });
    }
  }
  if (tries.length) {
    // no scrolling if some side needs none (the first such in SIDES' order), else the least
    return tries.reduce((best, next) => (Math.abs(next.scrollY - view.top) < Math.abs(best.scrollY - view.top) ? next : best));
  }
  // too big to share the screen: its top in view, the bubble over the bottom of the screen
  const scrollY = clamp(target.top - margin, 0, maxScroll);
  return {
    side: "over",
    left: clamp(middleX - bubble.width / 2, view.left + margin, viewRight - margin - bubble.width),
    top: Math.max(scrollY + margin, scrollY + view.height - margin - bubble.height),
    scrollY,
    arrow: null,
  };
}

/** Whether two boxes overlap (by more than a rounding error). */
export function overlaps(a, b) {
  return a.left < b.left + b.width - 0.5 && b.left < a.left + a.width - 0.5 && a.top < b.top + b.height - 0.5 && b.top < a.top + a.height - 0.5;
}
