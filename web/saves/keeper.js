// The page's side of keeping games: the game on the table is written after every move, a new
// game gets an entry of its own (never replacing another), a finished one stays with its
// summary. A refused write (storage full) is reported once and the game goes on in memory.

import { migrateLegacy } from "./migrate.js";
import { clearStorageProblem, showStorageProblem } from "./notice.js";
import { getGame, listGames, makeEntry, persistent, putGame, setAsideGame, updateSummary } from "./saves.js";
import { needsSummary, summarize } from "./summary.js";

let starting = null;

/** Open the saves once per page load: migrate the legacy single slot, say if nothing lasts. */
export function startSaves() {
  if (!starting) {
    starting = (async () => {
      const migrated = await migrateLegacy().catch(() => null);
      if (!(await persistent())) showStorageProblem("memory");
      return migrated;
    })();
  }
  return starting;
}

async function write(entry) {
  try {
    await putGame(entry);
    clearStorageProblem();
    return null;
  } catch (error) {
    console.warn("tapete: the game could not be saved:", error);
    showStorageProblem(error.kind || "failed");
    return error.kind || "failed";
  }
}

/**
 * The entry of a game on the table (`game.entry`), made for a new game: a new id, so starting a
 * game never removes another. Resolves with null or the kind of storage problem.
 */
export function keepNewGame(game) {
  game.entry = makeEntry(game.record, { summary: summarize(game.record, game.snap) });
  game.id = game.entry.id; // known at once: the page navigates to #/play/<id> before the write
  return startSaves().then(() => write(game.entry));
}

/** After every move (and undo): the record as it is now, with its summary. */
export async function keepMove(game) {
  if (!game.entry) return keepNewGame(game);
  game.entry.record = game.record;
  game.entry.summary = summarize(game.record, game.snap);
  game.entry.status = game.snap.outcome ? "finished" : "playing";
  return write(game.entry);
}

/** A game that is over stays, marked finished. */
export async function keepFinished(game) {
  if (game.entry && game.entry.status === "finished" && !needsSummary(game.entry)) return null;
  return keepMove(game);
}

/** A saved game by id: `{entry}`, `{error, aside}` when it was set aside, or null. */
export async function loadKept(id) {
  await startSaves();
  return getGame(id);
}

/** The saved games (newest first) and the records set aside while reading them. */
export async function listKept() {
  await startSaves();
  return listGames();
}

/** Set aside a saved game the engine refused to rebuild. */
export function setAsideKept(id, reason) {
  return setAsideGame(id, reason);
}

/**
 * Summaries made again where missing (migrated or imported records, a new summary version):
 * each record is rebuilt by the engine's `replay`; one it refuses is set aside with the reason.
 * Resolves with `{updated, setAside}` (counts of entries changed).
 */
export async function summarizePending(engine, entries, { errorText = (e) => e.message } = {}) {
  let updated = 0;
  const setAside = [];
  for (const entry of entries) {
    if (!needsSummary(entry)) continue;
    let snap;
    try {
      snap = await engine.call("replay", { record: entry.record, view_seat: entry.record.seats.findIndex((s) => s.kind === "human") }, { timeout: 90_000 });
    } catch (error) {
      if (!error || !["bad_state", "unknown_game", "bad_option", "bad_request"].includes(error.code)) throw error;
      const aside = await setAsideGame(entry.id, errorText(error, entry.record.game));
      if (aside) setAside.push(aside);
      continue;
    }
    const summary = summarize(entry.record, snap);
    const status = snap.outcome ? "finished" : "playing";
    try {
      // a summary is not a move: "last played" stays; a record changed meanwhile is left alone
      if (await updateSummary(entry.id, entry.record.moves.length, summary, status)) updated += 1;
    } catch (error) {
      showStorageProblem(error.kind || "failed");
      break;
    }
  }
  return { updated, setAside };
}
