// Deal links: `#/<game>?seed=K7QX2M&players=4&bots=1:heuristic,2:random&opt=name:VALUE,...`.
// Everything parsed here is checked for length and pattern; the engine has the final word on
// the values (unknown options, impossible combinations).

export const SEED_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
const MAX_QUERY = 600;
const SEED_RE = /^[A-Za-z0-9_-]{1,32}$/;
const GAME_RE = /^[a-z][a-z0-9_]{0,31}$/;
const LEVEL_RE = /^[a-z][a-z0-9_]{0,31}$/;
const OPTION_NAME_RE = /^[a-z][a-z0-9_]{0,39}$/;
const OPTION_VALUE_RE = /^[A-Za-z0-9_-]{1,40}$/;

/** @typedef {{kind: "human" | "bot", level?: string}} Seat */
/** @typedef {{game: string, seed: string, players: number, seats: Seat[], options: Record<string, any>}} Setup */
/** @typedef {{error: string, params?: Record<string, any>, setup?: Setup}} LinkError  a link with no
 * valid seed but otherwise readable keeps its `setup` (seed "") for the engine to check */

/** A fresh 6-character seed from an unambiguous alphabet. */
export function randomSeed(length = 6) {
  const bytes = new Uint8Array(length);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => SEED_ALPHABET[b % SEED_ALPHABET.length]).join("");
}

/** Levels a new bot seat prefers, in order; else the last (strongest) level the game lists. */
const PREFERRED_LEVELS = ["normal", "heuristic"];

/** The bot level a new seat gets (and a link's bot seat without a level). */
export function defaultBotLevel(catalogue) {
  const levels = catalogue.bot_levels || [];
  return PREFERRED_LEVELS.find((level) => levels.includes(level)) || levels[levels.length - 1] || "random";
}

/** Turn a link's text value into the option's kind (bool, int) when the catalogue knows it. */
export function coerceOption(spec, text) {
  if (!spec) return text;
  if (spec.kind === "bool") return text === "true" || text === "1" ? true : text === "false" || text === "0" ? false : text;
  if (spec.kind === "int" && /^-?\d{1,6}$/.test(text)) return Number(text);
  return text;
}

/**
 * Parse the part after `#/`: "<game>?<query>".
 * @param {string} route e.g. "wizard?seed=ABC&players=3"
 * @param {object[]} catalogues build.json's games (only those with a renderer)
 * @returns {{setup: Setup} | LinkError}  test `"error" in result` first
 */
export function parseDealLink(route, catalogues) {
  if (typeof route !== "string" || route.length > MAX_QUERY + 40) return { error: "link.too_long" };
  const mark = route.indexOf("?");
  const game = mark < 0 ? route : route.slice(0, mark);
  const query = mark < 0 ? "" : route.slice(mark + 1);
  if (!GAME_RE.test(game)) return { error: "link.unknown_game", params: { game: clip(game) } };
  const catalogue = catalogues.find((c) => c.id === game);
  if (!catalogue) return { error: "link.unknown_game", params: { game } };
  if (query.length > MAX_QUERY) return { error: "link.too_long" };

  /** @type {Record<string, string>} */
  const fields = {};
  for (const part of query.split("&")) {
    if (!part) continue;
    const eq = part.indexOf("=");
    if (eq < 1) return { error: "link.malformed" };
    const key = part.slice(0, eq);
    let value;
    try {
      value = decodeURIComponent(part.slice(eq + 1));
    } catch {
      return { error: "link.malformed" };
    }
    if (!/^[a-z]{1,12}$/.test(key)) return { error: "link.malformed" };
    if (key in fields) return { error: "link.malformed" };
    fields[key] = value;
  }

  const min = catalogue.min_players, max = catalogue.max_players;
  let players = catalogue.default_players;
  if ("players" in fields) {
    if (!/^\d{1,2}$/.test(fields.players)) return { error: "link.bad_players", params: { min, max } };
    players = Number(fields.players);
    if (players < min || players > max) return { error: "link.bad_players", params: { min, max } };
  }

  /** @type {Seat[]} */
  const seats = Array.from({ length: players }, () => ({ kind: "human" }));
  if (fields.bots) {
    const levels = catalogue.bot_levels || [];
    const seen = new Set();
    for (const item of fields.bots.split(",")) {
      const m = /^(\d{1,2})(?::([a-z0-9_]{1,32}))?$/.exec(item);
      if (!m) return { error: "link.bad_bots" };
      const seat = Number(m[1]);
      const level = m[2] ?? defaultBotLevel(catalogue);
      if (seat >= players || seen.has(seat)) return { error: "link.bad_bots" };
      if (!LEVEL_RE.test(level) || !levels.includes(level)) return { error: "link.bad_level", params: { level } };
      seen.add(seat);
      seats[seat] = { kind: "bot", level };
    }
  }
  if (!seats.some((s) => s.kind === "human")) return { error: "link.no_human" };

  /** @type {Record<string, any>} */
  const options = {};
  if (fields.opt) {
    for (const item of fields.opt.split(",")) {
      const colon = item.indexOf(":");
      const name = colon < 0 ? item : item.slice(0, colon);
      const value = colon < 0 ? "" : item.slice(colon + 1);
      if (!OPTION_NAME_RE.test(name)) return { error: "link.bad_option", params: { option: clip(name) } };
      if (!OPTION_VALUE_RE.test(value) || name in options) return { error: "link.bad_option", params: { option: name } };
      const spec = (catalogue.options || []).find((o) => o.name === name);
      options[name] = coerceOption(spec, value);
    }
  }
  // The seed is checked last: a link with no deal code still says what else is wrong with it
  // (the app asks the engine about the options of `setup`, which has no seed).
  const seed = fields.seed ?? "";
  if (!SEED_RE.test(seed)) return { error: "link.bad_seed", setup: { game, seed: "", players, seats, options } };
  return { setup: { game, seed, players, seats, options } };
}

/**
 * The hash of a deal link for a setup (bots and every option spelled out).
 * @param {Setup} setup
 */
export function formatDealLink(setup) {
  const bots = setup.seats
    .map((seat, index) => (seat.kind === "bot" ? `${index}:${seat.level}` : null))
    .filter(Boolean)
    .join(",");
  const opts = Object.entries(setup.options || {})
    .map(([name, value]) => `${name}:${value}`)
    .join(",");
  let hash = `#/${setup.game}?seed=${encodeURIComponent(setup.seed)}&players=${setup.players}`;
  if (bots) hash += `&bots=${bots}`;
  if (opts) hash += `&opt=${opts}`;
  return hash;
}

function clip(text) {
  const s = String(text);
  return s.length > 24 ? `${s.slice(0, 21)}...` : s;
}
