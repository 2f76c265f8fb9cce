// The single-slot saves of earlier versions (localStorage: "tapete.autosave", the game in
// progress; "tapete.last", the last finished game; "tapete.broken.<time>", records set aside)
// become saved entries. They are removed from localStorage only once IndexedDB holds them, so a
// failed migration is tried again on the next load. Their ids come from the slot and the deal, so an
// old tab still writing the autosave updates the same entry instead of adding one per load.

import { recordProblem } from "../store.js";
import { persistent, asideRecord, getGame, makeEntry, putMany } from "./saves.js";

export const LEGACY_AUTOSAVE = "tapete.autosave";
export const LEGACY_LAST = "tapete.last";
export const LEGACY_BROKEN = "tapete.broken.";

function legacyKeys() {
  const keys = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key === LEGACY_AUTOSAVE || key === LEGACY_LAST || (key && key.startsWith(LEGACY_BROKEN))) keys.push(key);
    }
  } catch { /* storage blocked: nothing to migrate */ }
  return keys.sort();
}

/** A short stable hash (FNV-1a, 32 bits, base 36) of a text. */
function hash(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36);
}

/** The entry id of a legacy save: its slot and deal (a deal played again in the other slot is
 * another game). */
function legacyId(key, record) {
  const slot = key === LEGACY_LAST ? "last" : "auto";
  return `legacy-${slot}-${hash(JSON.stringify([record.game, record.seed, record.players, record.options, record.seats]))}`;
}

/**
 * Move every legacy save into IndexedDB. Returns what was done: `{games, aside}` (counts), or
 * null when there was nothing to move. Never throws: a failure leaves localStorage as it was.
 */
export async function migrateLegacy() {
  const keys = legacyKeys();
  if (!keys.length) return null;
  if (!(await persistent())) return null; // memory only: leave the old saves where they last
  const games = [];
  const aside = [];
  for (const key of keys) {
    let text = null;
    try { text = localStorage.getItem(key); } catch { /* ignore */ }
    if (text === null) continue;
    if (key.startsWith(LEGACY_BROKEN)) {
      // already set aside (and reported) by the old version: keep it, listed, not told again
      aside.push({ ...asideRecord(text, key, `localStorage:${key}`, "legacy"), reported: true });
      continue;
    }
    let record;
    let problem = "";
    try {
      record = JSON.parse(text);
      problem = recordProblem(record);
    } catch (error) {
      problem = `not JSON: ${error.message}`;
    }
    if (problem) {
      aside.push(asideRecord(text, problem, `localStorage:${key}`));
      continue;
    }
    const id = legacyId(key, record);
    const found = await getGame(id).catch(() => null);
    const old = found && found.entry;
    // the same deal saved again: keep the longer record (an old tab may have played on)
    if (old && old.record.moves.length >= record.moves.length) continue;
    const status = key === LEGACY_LAST ? "finished" : "playing";
    const entry = makeEntry(record, { id, status, created: old ? old.created : Date.now() });
    if (old) entry.extras = old.extras;
    games.push(entry);
  }
  try {
    await putMany({ games, aside });
  } catch (error) {
    console.warn("tapete: the old saves could not be moved yet:", error);
    return null;
  }
  for (const key of keys) {
    try { localStorage.removeItem(key); } catch { /* ignore */ }
  }
  return { games: games.length, aside: aside.length };
}
