// Every game kept (issue 15): one entry per game in IndexedDB, written after every move, kept
// when finished, removed only when the player deletes it. An entry that cannot be read is moved
// to the "aside" store with the reason, one record at a time, and reported; it is never deleted
// without the player asking, and it never hides the others.
//
// entry: {id, v: 1, status: "playing" | "finished", created, updated, record, summary, extras}
// aside: {id, at, from, kind, reason, value, reported}   (value: what could not be read, as it was)

import { recordProblem } from "../store.js";
import { STORES, StorageError, openDatabase } from "./db.js";

export const ENTRY_VERSION = 1;
export const STATUSES = ["playing", "finished"];
/** The largest value a feature may keep with a game (`setExtra`), in characters of JSON. */
export const EXTRA_MAX = 256 * 1024;
const ID_RE = /^[a-z][a-z0-9-]{3,40}$/;
const EXTRA_KEY_RE = /^[a-z][a-z0-9_]{0,31}$/;

/** A new entry id: "g" + the time and random digits, base 36. */
export function newId() {
  const bytes = new Uint8Array(6);
  crypto.getRandomValues(bytes);
  const random = Array.from(bytes, (b) => b.toString(36).padStart(2, "0")).join("");
  return `g${Date.now().toString(36)}-${random}`;
}

/** Why a stored value is not a saved entry, or "" when it is one. */
export function entryProblem(entry) {
  if (!entry || typeof entry !== "object" || Array.isArray(entry)) return "not an object";
  if (typeof entry.id !== "string" || !ID_RE.test(entry.id)) return "bad id";
  if (entry.v !== ENTRY_VERSION) return `unknown version ${JSON.stringify(entry.v)?.slice(0, 20)}`;
  if (!STATUSES.includes(entry.status)) return "bad status";
  if (!Number.isFinite(entry.created) || !Number.isFinite(entry.updated)) return "bad dates";
  const problem = recordProblem(entry.record);
  if (problem) return `record: ${problem}`;
  if (entry.summary !== null && (typeof entry.summary !== "object" || Array.isArray(entry.summary))) return "bad summary";
  if (!entry.extras || typeof entry.extras !== "object" || Array.isArray(entry.extras)) return "bad extras";
  return "";
}

/** A new entry for a game record (not stored yet). */
export function makeEntry(record, { status = "playing", summary = null, id = newId(), created = Date.now() } = {}) {
  return { id, v: ENTRY_VERSION, status, created, updated: created, record, summary, extras: {} };
}

async function db() {
  return openDatabase();
}

/** Whether games outlive this tab (false when the browser gave no IndexedDB). */
export async function persistent() {
  return (await db()).persistent;
}

/**
 * Every readable entry, newest first; an unreadable one is set aside (and listed in `setAside`).
 * @returns {Promise<{entries: object[], setAside: object[]}>}
 */
export async function listGames() {
  const base = await db();
  const values = await base.all(STORES.games);
  const entries = [];
  const setAside = [];
  for (const value of values) {
    const problem = entryProblem(value);
    if (!problem) {
      entries.push(value);
      continue;
    }
    try {
      setAside.push(await moveAside(value, problem));
    } catch (error) {
      console.warn("tapete: could not set a record aside:", error);
    }
  }
  entries.sort((a, b) => b.updated - a.updated);
  return { entries, setAside };
}

/** One entry: `{entry}`, `{error}` (it was set aside, reason given) or null (no such game). */
export async function getGame(id) {
  if (typeof id !== "string" || !ID_RE.test(id)) return null;
  const value = await (await db()).get(STORES.games, id);
  if (value === undefined) return null;
  const problem = entryProblem(value);
  if (!problem) return { entry: value };
  const aside = await moveAside(value, problem);
  return { error: problem, aside };
}

/** Store an entry as it is now (after every move: `touch` makes it "last played" now); rejects
 * with a StorageError. */
export async function putGame(entry, { touch = true } = {}) {
  if (touch) entry.updated = Date.now();
  const base = await db();
  await base.transact([STORES.games], "readwrite", async (s, promised) => {
    // a feature's data (setExtra) is written only by setExtra: keep what is stored
    const stored = await promised(s.games.get(entry.id));
    const extras = stored && stored.extras && typeof stored.extras === "object" ? stored.extras : entry.extras;
    s.games.put({ ...entry, extras });
  });
  return entry;
}

/**
 * Give a stored entry the summary made from its record of `moves` moves, unless the record
 * changed meanwhile (a move played in another tab or screen wins). Resolves true if written.
 */
export async function updateSummary(id, moves, summary, status) {
  const base = await db();
  return base.transact([STORES.games], "readwrite", async (s, promised) => {
    const entry = await promised(s.games.get(id));
    if (!entry || entryProblem(entry) || entry.record.moves.length !== moves) return false;
    s.games.put({ ...entry, summary, status });
    return true;
  });
}

/**
 * Store several entries, aside records and facts in one transaction (an import, a migration):
 * all or none. `meta` is `{key: value}`.
 */
export async function putMany({ games = [], aside = [], meta = {} }) {
  const base = await db();
  await base.transact([STORES.games, STORES.aside, STORES.meta], "readwrite", (s) => {
    for (const entry of games) s.games.put(entry);
    for (const item of aside) s.aside.put(item);
    for (const [key, value] of Object.entries(meta)) s.meta.put({ key, value });
  });
}

export async function deleteGame(id) {
  await (await db()).delete(STORES.games, id);
}

/** Move an entry (or any stored value) aside with the reason; returns the aside record. */
export async function moveAside(value, reason, from = "games", kind = "shape") {
  const base = await db();
  const aside = asideRecord(value, reason, from, kind);
  await base.transact([STORES.games, STORES.aside], "readwrite", (s) => {
    s.aside.put(aside);
    const id = value && typeof value === "object" ? value.id : undefined;
    if (from === "games" && (typeof id === "string" || typeof id === "number")) s.games.delete(id);
  });
  return aside;
}

/** Set aside a saved game whose record the engine refused (reason: the engine's message). */
export async function setAsideGame(id, reason) {
  const value = await (await db()).get(STORES.games, id);
  if (value === undefined) return null;
  return moveAside(value, reason, "games", "engine");
}

/**
 * An aside record for `value`, not stored yet. `kind`: "shape" (`reason` says which field, in
 * English), "engine" (`reason` is the engine's refusal in the player's language) or "legacy"
 * (set aside by an earlier version).
 */
export function asideRecord(value, reason, from, kind = "shape") {
  return {
    id: `a${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`,
    at: Date.now(),
    from,
    kind,
    reason: String(reason).slice(0, 300),
    value,
    reported: false,
  };
}

/** Every aside record, oldest first. */
export async function listAside() {
  const values = await (await db()).all(STORES.aside);
  return values.filter((v) => v && typeof v === "object" && typeof v.id === "string").sort((a, b) => a.at - b.at);
}

/** Mark aside records as reported to the player (each is told once, on its own). */
export async function markReported(ids) {
  const base = await db();
  await base.transact([STORES.aside], "readwrite", async (s, promised) => {
    for (const id of ids) {
      const value = await promised(s.aside.get(id));
      if (value) s.aside.put({ ...value, reported: true });
    }
  });
}

export async function deleteAside(id) {
  await (await db()).delete(STORES.aside, id);
}

export async function getMeta(key) {
  const item = await (await db()).get(STORES.meta, key);
  return item ? item.value : undefined;
}

export async function setMeta(key, value) {
  await (await db()).put(STORES.meta, { key, value });
}

/** A feature's data kept with a game (e.g. "review"), or undefined. */
export async function getExtra(id, key) {
  const found = await getGame(id);
  return found && found.entry ? found.entry.extras[key] : undefined;
}

/** Keep a feature's JSON data with a game (deleted with it); rejects with a StorageError. */
export async function setExtra(id, key, value) {
  if (typeof key !== "string" || !EXTRA_KEY_RE.test(key)) throw new TypeError(`bad extra key ${String(key).slice(0, 40)}`);
  const text = JSON.stringify(value);
  if (text === undefined || text.length > EXTRA_MAX) throw new RangeError(`extra ${key} is over ${EXTRA_MAX} characters`);
  const base = await db();
  await base.transact([STORES.games], "readwrite", async (s, promised) => {
    const entry = await promised(s.games.get(id));
    if (!entry) throw new StorageError("failed", new Error(`no game ${id}`));
    entry.extras = { ...(entry.extras || {}), [key]: JSON.parse(text) };
    s.games.put(entry);
  });
}
