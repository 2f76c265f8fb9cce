// The table protocol between a host and its guests over one RTCDataChannel per remote seat.
// Every message is a JSON object `{type, ...}` sent as text. This module holds the shapes, the
// checks (size, JSON, types, unknown fields, bounds), seat tokens and the rate limit; it has no
// DOM and no network (unit tests: tests/js/protocol.test.mjs). The host's engine is the only
// authority: a guest sends what it chose, the host checks it and answers.
//
// Guest -> host
//   hello  {type, v, seat, token, name?, lang?}  after the channel opens
//   part   {type, seat, token, part}   the guest's random part of the seed (32 hex digits),
//          sent once it has seen the host's commitment, before the deal
//   move   {type, seat, token, after, move}   `after`: the number of moves the guest has seen
//   ask    {type, seat, token, id, after, op, move?, tiles?}   inspect / arrange / hint
//   ping   {type}
// Host -> guest
//   welcome {type, v, seat, table, n, snap, moves}   the table (game, options, seats, names,
//          presence, commitment, parts once dealt), the seat's snapshot and the public moves
//   table   {type, table}                    the table changed (someone joined, dropped, named)
//   state   {type, n, last, snap}            after every move: last {seat, move}, the seat's
//          snapshot {view, legal_moves, to_move, outcome} (never the state)
//   refused {type, ref, error}               a move or ask refused: error {code, reason?, ...}
//   answer  {type, id, result}               an ask's answer
//   reveal  {type, secret, seed, parts, moves}  at the end of the game (see commit.js)
//   error   {type, error}                    a message that was not understood
//   pong    {type}

export const PROTOCOL_VERSION = 1;
/** The longest text a guest may send (a Rummikub table of 106 tiles is about 1.5 kB). */
export const MAX_GUEST_CHARS = 16_384;
/** The longest text a host may send (a game-over with every move of a long game). */
export const MAX_HOST_CHARS = 262_144;
/** A move or an ask's argument: bounds of its JSON value. */
export const MOVE_LIMITS = { depth: 6, nodes: 1_200, string: 48, text: 80 };
export const ASK_OPS = ["inspect", "arrange", "hint"];
export const LANGS = ["en", "es"];
const TOKEN_RE = /^[A-Z2-7]{16}$/;
const PART_RE = /^[0-9a-f]{32}$/;

/** Fields each guest message may carry, with their checks. */
const GUEST_FIELDS = {
  hello: { v: "version", seat: "seat", token: "token", name: "name?", lang: "lang?" },
  part: { seat: "seat", token: "token", part: "part" },
  move: { seat: "seat", token: "token", after: "count", move: "move" },
  ask: { seat: "seat", token: "token", id: "count", after: "count", op: "op", move: "move?", tiles: "tiles?" },
  ping: {},
};

/** The coded error of a message that is refused: `net.error.<code>` for the player. */
export class ProtocolError extends Error {
  /** @param {string} code @param {string} message @param {object} [details] */
  constructor(code, message, details = {}) {
    super(message);
    this.name = "ProtocolError";
    this.code = code;
    this.details = details;
  }

  toJSON() {
    return { code: this.code, message: this.message, ...this.details };
  }
}

/** Whether a JSON value stays within the limits (depth, nodes, string lengths). */
export function withinLimits(value, limits = MOVE_LIMITS) {
  let nodes = 0;
  const walk = (item, depth) => {
    nodes += 1;
    if (nodes > limits.nodes || depth > limits.depth) return false;
    if (item === null || typeof item === "boolean") return true;
    if (typeof item === "number") return Number.isFinite(item);
    if (typeof item === "string") return item.length <= limits.string;
    if (Array.isArray(item)) return item.every((x) => walk(x, depth + 1));
    if (typeof item === "object") {
      return Object.entries(item).every(([key, x]) => key.length <= limits.string && walk(x, depth + 1));
    }
    return false;
  };
  return walk(value, 0);
}

function isPlainObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function checkField(kind, value, name) {
  const bad = (why) => new ProtocolError("bad_field", `${name}: ${why}`, { field: name });
  switch (kind) {
    case "version":
      if (value !== PROTOCOL_VERSION) throw new ProtocolError("version", `protocol version ${JSON.stringify(value)}`, { field: name });
      return;
    case "seat":
      if (!Number.isInteger(value) || value < 0 || value > 15) throw bad("a seat number");
      return;
    case "token":
      if (typeof value !== "string" || !TOKEN_RE.test(value)) throw bad("a seat token");
      return;
    case "count":
      if (!Number.isInteger(value) || value < 0 || value > 1_000_000) throw bad("a count");
      return;
    case "part":
      if (typeof value !== "string" || !PART_RE.test(value)) throw bad("a seed part");
      return;
    case "name":
      if (typeof value !== "string" || value.length > 64) throw bad("a name");
      return;
    case "lang":
      if (!LANGS.includes(value)) throw bad("a language");
      return;
    case "op":
      if (!ASK_OPS.includes(value)) throw bad("an op");
      return;
    case "move":
      if (typeof value === "string") {
        if (value.length > MOVE_LIMITS.text) throw bad("a move");
        return;
      }
      if (!isPlainObject(value) || !withinLimits(value)) throw bad("a move");
      return;
    case "tiles":
      if (!Array.isArray(value) || value.length > 120 || !value.every((x) => typeof x === "string" && x.length <= 8)) throw bad("tiles");
      return;
    default:
      throw new Error(`unknown field kind ${kind}`);
  }
}

/**
 * A guest's message as received on the data channel, checked; throws ProtocolError.
 * @param {unknown} raw  what `onmessage` gave (text; anything else is refused)
 */
export function parseGuestMessage(raw) {
  if (typeof raw !== "string") throw new ProtocolError("bad_message", "a message is text");
  if (raw.length > MAX_GUEST_CHARS) throw new ProtocolError("too_large", `a message of ${raw.length} characters`, { max: MAX_GUEST_CHARS });
  let message;
  try {
    message = JSON.parse(raw);
  } catch {
    throw new ProtocolError("bad_message", "not JSON");
  }
  if (!isPlainObject(message)) throw new ProtocolError("bad_message", "not a JSON object");
  const fields = Object.hasOwn(GUEST_FIELDS, message.type) ? GUEST_FIELDS[message.type] : null;
  if (!fields) throw new ProtocolError("unknown_type", `unknown message type ${JSON.stringify(String(message.type)).slice(0, 40)}`);
  for (const key of Object.keys(message)) {
    if (key !== "type" && !Object.hasOwn(fields, key)) throw new ProtocolError("unknown_field", `unknown field ${JSON.stringify(key.slice(0, 40))}`, { field: key.slice(0, 40) });
  }
  for (const [name, spec] of Object.entries(fields)) {
    const optional = spec.endsWith("?");
    if (!Object.hasOwn(message, name) || message[name] === undefined) {
      if (optional) continue;
      throw new ProtocolError("missing_field", `missing field ${name}`, { field: name });
    }
    checkField(optional ? spec.slice(0, -1) : spec, message[name], name);
  }
  return message;
}

/**
 * A host's message as received by a guest: text within bounds, a JSON object with a known
 * type. The guest trusts its host for the game (it verifies the deal at the end) but never
 * breaks on garbage. Throws ProtocolError.
 */
export function parseHostMessage(raw) {
  if (typeof raw !== "string") throw new ProtocolError("bad_message", "a message is text");
  if (raw.length > MAX_HOST_CHARS) throw new ProtocolError("too_large", `a message of ${raw.length} characters`);
  let message;
  try {
    message = JSON.parse(raw);
  } catch {
    throw new ProtocolError("bad_message", "not JSON");
  }
  if (!isPlainObject(message) || typeof message.type !== "string") throw new ProtocolError("bad_message", "not a message");
  const needs = {
    welcome: ["seat", "table", "n"],
    table: ["table"],
    state: ["n", "snap"],
    refused: ["error"],
    answer: ["id", "result"],
    reveal: ["secret", "seed", "parts"],
    error: ["error"],
    pong: [],
  };
  if (!Object.hasOwn(needs, message.type)) throw new ProtocolError("unknown_type", "unknown message type");
  for (const field of needs[message.type]) {
    if (!Object.hasOwn(message, field)) throw new ProtocolError("missing_field", `missing field ${field}`, { field });
  }
  if ("n" in message && (!Number.isInteger(message.n) || message.n < 0)) throw new ProtocolError("bad_field", "n", { field: "n" });
  if ("error" in message && (!isPlainObject(message.error) || typeof message.error.code !== "string")) throw new ProtocolError("bad_field", "error", { field: "error" });
  return message;
}

// -- seat tokens --------------------------------------------------------------------------------

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** A fresh secret seat token: 80 random bits as 16 base32 characters. */
export function newToken() {
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  let bits = 0;
  let buffer = 0;
  let out = "";
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(buffer >> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  return out;
}

/** Compare two tokens without stopping at the first difference. */
export function tokensEqual(a, b) {
  if (typeof a !== "string" || typeof b !== "string" || a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * Who may send this message: the seat of the channel, with that seat's token; a move must come
 * after exactly the moves played so far. Throws ProtocolError (wrong_seat, bad_token,
 * stale_move, early_move).
 * @param {{seat: number, token?: string, after?: number}} message
 * @param {{seat: number, token: string, moves?: number}} expected
 */
export function checkSender(message, expected) {
  if (message.seat !== expected.seat) throw new ProtocolError("wrong_seat", `a message for seat ${message.seat} on seat ${expected.seat}'s channel`, { seat: message.seat });
  if (!tokensEqual(message.token, expected.token)) throw new ProtocolError("bad_token", "the seat's token does not match");
  if (expected.moves !== undefined && message.after !== undefined) {
    if (message.after < expected.moves) throw new ProtocolError("stale_move", `a move after ${message.after} moves; ${expected.moves} have been played`, { after: message.after, moves: expected.moves });
    if (message.after > expected.moves) throw new ProtocolError("early_move", `a move after ${message.after} moves; only ${expected.moves} have been played`, { after: message.after, moves: expected.moves });
  }
}

// -- rate ---------------------------------------------------------------------------------------

/** A token bucket: `take()` is false once a sender goes over `rate` per second (burst `burst`). */
export class RateLimiter {
  constructor({ rate = 20, burst = 40, now = () => Date.now() } = {}) {
    this.rate = rate;
    this.burst = burst;
    this.now = now;
    this.tokens = burst;
    this.at = now();
  }

  take() {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) / 1000) * this.rate);
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

// -- what a guest may see of an engine error ----------------------------------------------------

/**
 * An engine error as a guest gets it: the code, reason and message, and the details that are
 * scalars or short lists of codes (what its wording needs); never a trace or a nested object.
 * The e2e tests check every refusal a guest receives against the other seats' hidden cards.
 */
export function publicError(info) {
  const out = {};
  for (const [key, value] of Object.entries(isPlainObject(info) ? info : {}).slice(0, 24)) {
    if (key === "trace" || key.length > 24) continue;
    if (typeof value === "string") out[key] = value.slice(0, key === "message" ? 240 : 48);
    else if (Number.isInteger(value) || typeof value === "boolean") out[key] = value;
    else if (Array.isArray(value) && value.length <= 24 && value.every((x) => typeof x === "string" && x.length <= 8)) out[key] = [...value];
  }
  if (typeof out.code !== "string") out.code = "internal";
  return out;
}
