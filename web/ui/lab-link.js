// Playtest-lab links: `#/lab/<game>?seed=LAB&games=200&players=2,3&levels=normal&a=knob:VALUE,...&b=...`.
// `a` and `b` list the knobs of settings A and B that differ from the game's defaults; `b`
// present (even empty) means "compare with a second setting". Everything is checked here
// against the game's catalogue (build.json); the engine still has the final word.

export const LAB_GAMES = ["willie"];
export const MAX_LAB_GAMES = 20000;
export const DEFAULT_LAB_GAMES = 100;
export const LAB_SEED_RE = /^[A-Za-z0-9_-]{1,24}$/;
const MAX_QUERY = 1200;
const FIELDS = ["seed", "games", "players", "levels", "a", "b"];

/**
 * @typedef {{seed: string, games: number, players: number[], levels: string[],
 *   a: Record<string, any>, b: Record<string, any> | null}} LabSetting
 * @typedef {{error: string, params?: Record<string, any>}} LabLinkError
 */

/** The setting a lab starts with: defaults everywhere, no B. */
export function defaultSetting(catalogue) {
  const levels = catalogue.bot_levels || [];
  return {
    seed: "LAB",
    games: DEFAULT_LAB_GAMES,
    players: [catalogue.default_players],
    levels: [levels.includes("normal") ? "normal" : levels[levels.length - 1]],
    a: {},
    b: null,
  };
}

/**
 * Parse the query of a lab link (the part after `?`).
 * @returns {{setting: LabSetting} | LabLinkError}
 */
export function parseLabQuery(query, catalogue) {
  if (typeof query !== "string" || query.length > MAX_QUERY) return { error: "lab.error.too_long" };
  /** @type {Record<string, string>} */
  const fields = {};
  for (const part of query.split("&")) {
    if (!part) continue;
    const eq = part.indexOf("=");
    const key = eq < 0 ? part : part.slice(0, eq);
    if (!FIELDS.includes(key) || key in fields) return { error: "lab.error.malformed" };
    try {
      fields[key] = decodeURIComponent(eq < 0 ? "" : part.slice(eq + 1));
    } catch {
      return { error: "lab.error.malformed" };
    }
  }
  const setting = defaultSetting(catalogue);
  if ("seed" in fields) {
    if (!LAB_SEED_RE.test(fields.seed)) return { error: "lab.error.seed" };
    setting.seed = fields.seed;
  }
  if ("games" in fields) {
    const games = /^\d{1,6}$/.test(fields.games) ? Number(fields.games) : 0;
    if (games < 1 || games > MAX_LAB_GAMES) return { error: "lab.error.games", params: { max: MAX_LAB_GAMES } };
    setting.games = games;
  }
  if ("players" in fields) {
    const players = parsePlayers(fields.players, catalogue);
    if (!players) return { error: "lab.error.players", params: { min: catalogue.min_players, max: catalogue.max_players } };
    setting.players = players;
  }
  if ("levels" in fields) {
    const levels = fields.levels.split(",");
    const known = catalogue.bot_levels || [];
    const bad = levels.find((level) => !known.includes(level));
    if (bad !== undefined || levels.length > catalogue.max_players) {
      return { error: "lab.error.level", params: { level: clip(bad ?? fields.levels) } };
    }
    setting.levels = levels;
  }
  for (const side of ["a", "b"]) {
    if (!(side in fields)) continue;
    const knobs = parseKnobs(fields[side], catalogue);
    if ("error" in knobs) return knobs;
    setting[side] = knobs.knobs;
  }
  return { setting };
}

/** "2", "3" or "2,3": player counts the game allows, rising; else null. */
export function parsePlayers(text, catalogue) {
  const parts = String(text).split(",");
  if (parts.length > 6 || parts.some((p) => !/^\d{1,2}$/.test(p))) return null;
  const counts = parts.map(Number);
  const ok = counts.every((n, i) => n >= catalogue.min_players && n <= catalogue.max_players && (i === 0 || n > counts[i - 1]));
  return ok ? counts : null;
}

/** "knob:VALUE,knob2:VALUE" -> {knobs: {knob: value}} (values of the option's kind) or an error. */
function parseKnobs(text, catalogue) {
  /** @type {Record<string, any>} */
  const knobs = {};
  if (!text) return { knobs };
  for (const item of text.split(",")) {
    const colon = item.indexOf(":");
    const name = colon < 0 ? item : item.slice(0, colon);
    const spec = (catalogue.options || []).find((o) => o.name === name);
    const value = spec && colon > 0 ? knobValue(spec, item.slice(colon + 1)) : undefined;
    if (value === undefined || name in knobs) return { error: "lab.error.knob", params: { knob: clip(item) } };
    knobs[name] = value;
  }
  return { knobs };
}

/** The value of a knob from its text, or undefined when the catalogue says it is impossible. */
export function knobValue(spec, text) {
  if (spec.kind === "bool") return text === "true" ? true : text === "false" ? false : undefined;
  if (spec.kind === "enum") return (spec.choices || []).includes(text) ? text : undefined;
  if (!/^-?\d{1,7}$/.test(text)) return undefined;
  const number = Number(text);
  if ((spec.min !== undefined && number < spec.min) || (spec.max !== undefined && number > spec.max)) return undefined;
  return number;
}

/** The knobs of a side that differ from the defaults, in catalogue order. */
export function changedKnobs(knobs, catalogue) {
  /** @type {Record<string, any>} */
  const out = {};
  for (const spec of catalogue.options || []) {
    if (spec.name in knobs && knobs[spec.name] !== spec.default) out[spec.name] = knobs[spec.name];
  }
  return out;
}

/** The hash of a lab link for a setting. */
export function formatLabLink(game, setting, catalogue) {
  const knobs = (side) =>
    Object.entries(changedKnobs(side, catalogue))
      .map(([name, value]) => `${name}:${value}`)
      .join(",");
  let hash = `#/lab/${game}?seed=${encodeURIComponent(setting.seed)}&games=${setting.games}`;
  hash += `&players=${setting.players.join(",")}&levels=${setting.levels.join(",")}`;
  hash += `&a=${knobs(setting.a)}`;
  if (setting.b) hash += `&b=${knobs(setting.b)}`;
  return hash;
}

/** The command line that prints the same table (B as changes to A, as `--vs` wants). */
export function commandLine(game, setting, catalogue) {
  const a = changedKnobs(setting.a, catalogue);
  const words = ["python -m tapete.lab", game, "--players", setting.players.join(","), "--games", String(setting.games)];
  words.push("--seed", setting.seed, "--levels", setting.levels.join(","));
  for (const [name, value] of Object.entries(a)) words.push("--set", `${name}=${value}`);
  if (setting.b) {
    const b = { ...defaultsOf(catalogue), ...setting.b };
    const base = { ...defaultsOf(catalogue), ...setting.a };
    const changes = Object.keys(b).filter((name) => b[name] !== base[name]);
    for (const name of changes) words.push("--vs", `${name}=${b[name]}`);
    if (!changes.length) words.push("--vs", `${catalogue.options[0].name}=${base[catalogue.options[0].name]}`);
  }
  return words.join(" ");
}

function defaultsOf(catalogue) {
  return Object.fromEntries((catalogue.options || []).map((spec) => [spec.name, spec.default]));
}

function clip(text) {
  const s = String(text);
  return s.length > 32 ? `${s.slice(0, 29)}...` : s;
}
