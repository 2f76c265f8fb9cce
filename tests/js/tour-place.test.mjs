// Where the guided tour's bubble goes (web/ui/tour-place.js): beside its element, never over it
// when both fit on the screen, inside the screen, the arrow at the element's middle, scrolling
// the least it can.
import assert from "node:assert/strict";
import { test } from "node:test";

import { overlaps, placeBubble } from "../../web/ui/tour-place.js";

const DESKTOP = { left: 0, top: 0, width: 1280, height: 800 };
const PHONE = { left: 0, top: 0, width: 390, height: 844 };
const bubble = { width: 360, height: 220 };

function box(spot) {
  return { left: spot.left, top: spot.top, width: bubble.width, height: bubble.height };
}

/** The bubble is inside the view that the placement scrolls to, `margin` from its edges. */
function inView(spot, view, margin = 12) {
  return spot.left >= view.left + margin - 0.01 && spot.left + bubble.width <= view.left + view.width - margin + 0.01
    && spot.top >= spot.scrollY + margin - 0.01 && spot.top + bubble.height <= spot.scrollY + view.height - margin + 0.01;
}

test("below a wide element near the top, centred on it, with no scrolling", () => {
  const target = { left: 20, top: 100, width: 1240, height: 100 };
  const spot = placeBubble({ target, bubble, view: DESKTOP, page: { width: 1280, height: 800 } });
  assert.equal(spot.side, "below");
  assert.equal(spot.scrollY, 0);
  assert.equal(spot.top, 214);
  assert.equal(spot.left, 640 - 180);
  assert.equal(spot.arrow, 180);
  assert.ok(!overlaps(box(spot), target) && inView(spot, DESKTOP));
});

test("above an element at the bottom of a page that does not scroll", () => {
  const target = { left: 6, top: 748, width: 1268, height: 46 }; // the table bar, lit
  const spot = placeBubble({ target, bubble, view: DESKTOP, page: { width: 1280, height: 800 } });
  assert.equal(spot.side, "above");
  assert.equal(spot.scrollY, 0);
  assert.equal(spot.top, 748 - 14 - 220);
  assert.ok(!overlaps(box(spot), target) && inView(spot, DESKTOP));
});

test("an element touching the top of the page (the ⚙ button) gets the bubble below it", () => {
  const target = { left: 336, top: -1, width: 50, height: 50 };
  const spot = placeBubble({ target, bubble, view: PHONE, page: { width: 390, height: 844 } });
  assert.equal(spot.side, "below");
  assert.equal(spot.left, 390 - 12 - 360); // kept on screen
  // pointing at the button (its middle, but off the bubble's rounded corner)
  const at = spot.left + spot.arrow;
  assert.ok(at > target.left && at < target.left + target.width, `${at}`);
  assert.equal(spot.arrow, bubble.width - 20);
  assert.ok(!overlaps(box(spot), target) && inView(spot, PHONE));
});

test("the arrow stays off the bubble's rounded corners", () => {
  const target = { left: 0, top: 300, width: 20, height: 20 };
  const spot = placeBubble({ target, bubble, view: DESKTOP, page: { width: 1280, height: 800 } });
  assert.equal(spot.left, 12);
  assert.equal(spot.arrow, 20);
});

test("a page that must scroll: the least scrolling that shows both", () => {
  // the rack far down a long phone page, the view at the top
  const target = { left: 8, top: 1200, width: 374, height: 100 };
  const page = { width: 390, height: 1400 };
  const spot = placeBubble({ target, bubble, view: PHONE, page });
  // below would run off the page's end: above, scrolled just enough to show the rack whole
  assert.equal(spot.side, "above");
  assert.equal(spot.scrollY, 1300 - 844);
  assert.ok(!overlaps(box(spot), target) && inView(spot, PHONE));
});

test("when neither below nor above fits, beside it (right first, then left)", () => {
  const tall = { left: 100, top: 20, width: 300, height: 760 };
  const right = placeBubble({ target: tall, bubble, view: DESKTOP, page: { width: 1280, height: 800 } });
  assert.equal(right.side, "right");
  assert.equal(right.left, 414);
  assert.ok(!overlaps(box(right), tall) && inView(right, DESKTOP));
  assert.equal(right.arrow, 400 - right.top);
  const onTheRight = { left: 880, top: 20, width: 300, height: 760 };
  const left = placeBubble({ target: onTheRight, bubble, view: DESKTOP, page: { width: 1280, height: 800 } });
  assert.equal(left.side, "left");
  assert.equal(left.left + bubble.width, 880 - 14);
  assert.ok(!overlaps(box(left), onTheRight));
});

test("an element too big to share the screen: its top in view, the bubble over its lower part", () => {
  const huge = { left: 0, top: 400, width: 390, height: 1000 };
  const spot = placeBubble({ target: huge, bubble, view: PHONE, page: { width: 390, height: 2000 } });
  assert.equal(spot.side, "over");
  assert.equal(spot.arrow, null);
  assert.equal(spot.scrollY, 388);
  assert.ok(inView(spot, PHONE));
});

test("every element of a phone-sized page gets a bubble that covers nothing of it", () => {
  const page = { width: 390, height: 1100 };
  for (let top = 0; top <= 1000; top += 25) {
    for (const height of [30, 80, 160, 300]) {
      if (top + height > page.height) continue;
      const target = { left: 8, top, width: 374, height };
      for (const viewTop of [0, 256]) {
        const view = { ...PHONE, top: viewTop };
        const spot = placeBubble({ target, bubble, view, page });
        assert.notEqual(spot.side, "over", `top ${top} height ${height}`);
        assert.ok(!overlaps(box(spot), target), `top ${top} height ${height}`);
        assert.ok(inView(spot, view), `top ${top} height ${height}`);
        assert.ok(spot.scrollY >= 0 && spot.scrollY <= page.height - PHONE.height);
      }
    }
  }
});
