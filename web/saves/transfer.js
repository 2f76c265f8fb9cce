// Export every saved game to a JSON file and import one again (merging, no duplicates). An
// imported file is hostile input: its size and count are bounded, every record is checked for
// shape and then rebuilt by the engine's `replay` (the authority) before it is kept; what is
// refused is said, record by record. A feature's extras (a review) are not exported: they are
// made again from the record.
//
// file: {format: "tapete-games", version: 1, exported: ISO date, engine_version,
//        games: [{id, created, updated, record}]}

import { recordProblem } from "../store.js";
import { ENTRY_VERSION, listGames, makeEntry, newId, putMany } from "./saves.js";
import { summarize, youSeat } from "./summary.js";

export const FORMAT = "tapete-games";
export const FORMAT_VERSION = 1;
/** The largest file read, in bytes, and the most games in it. */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;
export const MAX_GAMES = 2000;
/** The largest record, in characters of JSON (the engine takes requests up to 2,000,000). */
export const MAX_RECORD_CHARS = 1_500_000;
const ID_RE = /^[a-z][a-z0-9-]{3,40}$/;
const EARLIEST = Date.UTC(2020, 0, 1);

/** The export of every saved game (newest first). */
export async function exportFile(engineVersion) {
  const { entries } = await listGames();
  return {
    format: FORMAT,
    version: FORMAT_VERSION,
    exported: new Date().toISOString(),
    engine_version: engineVersion,
    games: entries.map((entry) => ({ id: entry.id, created: entry.created, updated: entry.updated, record: entry.record })),
  };
}

/** Offer the export as a download named tapete-games-<date>.json. */
export function download(file) {
  const blob = new Blob([JSON.stringify(file)], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = `tapete-games-${file.exported.slice(0, 10)}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** What makes two records the same game: the deal, the seats and every move. */
function fingerprint(record) {
  return JSON.stringify([record.game, record.seed, record.players, record.options, record.seats, record.moves]);
}

function time(value, fallback) {
  return Number.isFinite(value) && value >= EARLIEST && value <= Date.now() + 86_400_000 ? value : fallback;
}

/**
 * Read an import file's text into candidate games, or refuse the whole file.
 * @returns {{error: string, params?: object} | {games: {index, id, created, updated, record}[], refused: {index, reason, params?}[]}}
 */
export function readImport(text, byteLength = text.length) {
  if (byteLength > MAX_FILE_BYTES) return { error: "too_big", params: { mb: Math.round(MAX_FILE_BYTES / 1048576) } };
  let file;
  try {
    file = JSON.parse(text);
  } catch {
    return { error: "not_json" };
  }
  if (!file || typeof file !== "object" || Array.isArray(file) || file.format !== FORMAT) return { error: "not_ours" };
  if (file.version !== FORMAT_VERSION) return { error: "version", params: { version: String(file.version).slice(0, 12) } };
  if (!Array.isArray(file.games)) return { error: "not_ours" };
  if (file.games.length > MAX_GAMES) return { error: "too_many", params: { max: MAX_GAMES, n: file.games.length } };
  const games = [];
  const refused = [];
  file.games.forEach((item, index) => {
    if (!item || typeof item !== "object" || Array.isArray(item)) return refused.push({ index, reason: "shape", params: { detail: "not an object" } });
    const record = item.record;
    const problem = recordProblem(record);
    if (problem) return refused.push({ index, reason: "shape", params: { detail: problem } });
    if (JSON.stringify(record).length > MAX_RECORD_CHARS) return refused.push({ index, reason: "record_too_big" });
    const now = Date.now();
    const created = time(item.created, now);
    games.push({
      index,
      id: typeof item.id === "string" && ID_RE.test(item.id) ? item.id : null,
      created,
      updated: Math.max(created, time(item.updated, created)),
      // only the fields of a record are kept, copied (nothing else of the file is stored)
      record: {
        game: record.game,
        engine_version: typeof record.engine_version === "string" ? record.engine_version.slice(0, 32) : "",
        seed: record.seed,
        options: record.options,
        players: record.players,
        seats: record.seats.map(({ kind, level, name }) => ({ kind, ...(level === undefined ? {} : { level }), ...(name === undefined ? {} : { name }) })),
        moves: record.moves.map((entry) => ({ seat: entry.seat, move: entry.move })),
      },
    });
  });
  return { games, refused };
}

/**
 * Merge candidate games into the saves: a game already here (same moves) is skipped, a longer
 * copy of a game here replaces it, any other is added; each is rebuilt by the engine first.
 * `onProgress(done, total)`; `stopped()` ends early (nothing checked after it is kept).
 * Resolves with {added, updated, duplicates, refused: [{index, reason, params}], stopped}.
 */
export async function importGames(engine, candidates, { refused = [], games = [], onProgress = () => {}, stopped = () => false, errorText = (e) => e.message } = {}) {
  const { entries } = await listGames();
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  const prints = new Set(entries.map((entry) => fingerprint(entry.record)));
  const keep = [];
  let added = 0;
  let updated = 0;
  let duplicates = 0;
  let done = 0;
  for (const candidate of candidates) {
    if (stopped()) break;
    onProgress(done, candidates.length);
    done += 1;
    const print = fingerprint(candidate.record);
    if (prints.has(print)) {
      duplicates += 1;
      continue;
    }
    if (games.length && !games.includes(candidate.record.game)) {
      refused.push({ index: candidate.index, reason: "unknown_game", params: { game: candidate.record.game.slice(0, 24) } });
      continue;
    }
    let snap;
    try {
      snap = await engine.call("replay", { record: candidate.record, view_seat: youSeat(candidate.record) }, { timeout: 60_000 });
    } catch (error) {
      if (!error || !error.code || ["timeout", "fatal", "internal"].includes(error.code)) throw error;
      refused.push({ index: candidate.index, reason: "engine", params: { detail: errorText(error, candidate.record.game) } });
      continue;
    }
    const status = snap.outcome ? "finished" : "playing";
    const summary = summarize(candidate.record, snap);
    const old = candidate.id ? byId.get(candidate.id) : null;
    const extends_ = old && isPrefix(old.record, candidate.record);
    if (old && !extends_ && isPrefix(candidate.record, old.record)) {
      duplicates += 1; // an older copy of a game played on here
      continue;
    }
    const id = !candidate.id || (old && !extends_) || keep.some((e) => e.id === candidate.id) ? newId() : candidate.id;
    const entry = { ...makeEntry(candidate.record, { id, status, summary, created: candidate.created }), updated: candidate.updated, v: ENTRY_VERSION };
    if (extends_) {
      entry.created = old.created;
      entry.extras = old.extras;
      updated += 1;
    } else {
      added += 1;
    }
    keep.push(entry);
    prints.add(print);
  }
  onProgress(done, candidates.length);
  if (keep.length) await putMany({ games: keep });
  return { added, updated, duplicates, refused, stopped: done < candidates.length };
}

/** Whether record `a` is record `b` cut short (the same deal and seats, fewer moves). */
function isPrefix(a, b) {
  if (fingerprint({ ...a, moves: [] }) !== fingerprint({ ...b, moves: [] })) return false;
  if (a.moves.length > b.moves.length) return false;
  return a.moves.every((entry, i) => JSON.stringify(entry) === JSON.stringify(b.moves[i]));
}
