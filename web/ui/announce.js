// What a screen reader hears of the game: one polite live region (a log), outside the table the
// play screen redraws, so a redraw never repeats anything. The play screen writes a line for
// each other player's move, the trick's winner, a round's result, the player's turn, a refused
// move and the end of the game (web/ui/announce-moves.js words them); the last lines stay in it
// (visually hidden) and a new game clears it. A line only the player who moved may hear (the
// card they drew) is a secret: a hot-seat hand-over removes the secrets before the next player.

import { h } from "../dom.js";

/** Lines kept in the region (older ones are removed, which a screen reader does not read). */
const KEEP = 24;

let region = null;
/** Lines said so far on this page (each line carries its number, data-n). */
let count = 0;

/** The live region, made once (at import: a region must exist before it changes to be heard). */
function live() {
  if (region && region.isConnected) return region;
  region = h("div", { id: "announcer", class: "visually-hidden", role: "log", "aria-live": "polite", dataset: { testid: "announcer" } });
  document.body.append(region);
  return region;
}
if (typeof document !== "undefined" && document.body) live();

/** A line for the player who moved alone ("You drew red 5"). */
export function secret(text) {
  return { text, secret: true };
}

/** Say each non-empty line (a text or a secret), in order (a polite region waits for the
 * screen reader to finish the one before). */
export function announce(...lines) {
  const el = live();
  for (const line of lines.flat()) {
    const text = typeof line === "string" ? line.trim() : line && typeof line.text === "string" ? line.text.trim() : "";
    if (text) el.append(h("p", { dataset: { n: ++count, secret: line.secret ? "true" : null } }, text));
  }
  while (el.childElementCount > KEEP) el.firstElementChild.remove();
}

/** Remove the secrets said so far (the device goes to another player). */
export function forgetSecrets() {
  for (const el of live().querySelectorAll("[data-secret]")) el.remove();
}

/** Forget what was said (a new game starts). */
export function clearAnnouncements() {
  live().replaceChildren();
}
