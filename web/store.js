// Settings in localStorage, and the shape of a game record (docs/CONTRACTS.md) and of a player's
// name. The games themselves are kept in IndexedDB by web/saves/ (which also moves the
// single-slot saves of earlier versions, "tapete.autosave" and "tapete.last", into it).

const SETTINGS = "tapete.settings";

/** @typedef {{kind: "human" | "bot", level?: string, name?: string}} Seat */

/** The longest player name, in characters. */
export const NAME_MAX = 16;

/**
 * A player's name as typed, made safe to keep and show: control and format characters made spaces
 * (no bidi tricks), runs of spaces made one, trimmed, cut to NAME_MAX characters. "" = no name.
 * Names are only ever shown as text (never as HTML).
 */
export function cleanName(text) {
  if (typeof text !== "string") return "";
  const plain = text.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, " ").replace(/\s+/g, " ").trim();
  return [...plain].slice(0, NAME_MAX).join("").trim();
}

/** @typedef {{game: string, engine_version: string, seed: string, options: object, players: number, seats: Seat[], moves: {seat: number, move: string|object}[]}} GameRecord */

function read(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

function write(key, value) {
  try {
    localStorage.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}

/** Why a value is not a game record, or "" when it has the right shape. */
export function recordProblem(record) {
  if (!record || typeof record !== "object" || Array.isArray(record)) return "not an object";
  if (typeof record.game !== "string" || !/^[a-z][a-z0-9_]{0,31}$/.test(record.game)) return "bad game";
  if (typeof record.seed !== "string" || record.seed.length > 32) return "bad seed";
  if (!Number.isInteger(record.players) || record.players < 1 || record.players > 16) return "bad players";
  if (!record.options || typeof record.options !== "object" || Array.isArray(record.options)) return "bad options";
  if (!Array.isArray(record.seats) || record.seats.length !== record.players) return "bad seats";
  for (const seat of record.seats) {
    if (!seat || (seat.kind !== "human" && seat.kind !== "bot")) return "bad seat";
    if (seat.kind === "bot" && typeof seat.level !== "string") return "bad bot level";
    // an optional name, exactly as the new-game form keeps it (a hand-edited one is set aside)
    if ("name" in seat && (typeof seat.name !== "string" || !seat.name || seat.name !== cleanName(seat.name))) return "bad seat name";
  }
  if (!record.seats.some((seat) => seat.kind === "human")) return "no human seat";
  if (!Array.isArray(record.moves)) return "bad moves";
  for (const entry of record.moves) {
    // a move is its text form, or an object for a table of melds ({play: {table, from_hand}})
    const move = entry && entry.move;
    const readable = typeof move === "string" || (move !== null && typeof move === "object" && !Array.isArray(move));
    if (!entry || !Number.isInteger(entry.seat) || !readable) return "bad move";
  }
  return "";
}

/** Reduced motion: follow the system, always, never (web/motion.js). */
const MOTION = ["auto", "on", "off"];

/** The games whose guided tour was shown (web/ui/tour.js): game ids, a few at most. */
function toursSeen(value) {
  if (!Array.isArray(value)) return [];
  return [...new Set(value.filter((id) => typeof id === "string" && /^[a-z][a-z0-9_]{0,31}$/.test(id)))].slice(0, 32);
}

/** @returns {{fastBots: boolean, showHints: boolean, motion: "auto" | "on" | "off", toursSeen: string[]}} */
export function loadSettings() {
  const defaults = { fastBots: false, showHints: false, motion: "auto", toursSeen: [] };
  try {
    const saved = JSON.parse(read(SETTINGS) || "{}");
    const motion = MOTION.includes(saved.motion) ? saved.motion : "auto";
    return { ...defaults, fastBots: saved.fastBots === true, showHints: saved.showHints === true, motion, toursSeen: toursSeen(saved.toursSeen) };
  } catch {
    return defaults;
  }
}

export function saveSettings(settings) {
  write(SETTINGS, JSON.stringify(settings));
}
