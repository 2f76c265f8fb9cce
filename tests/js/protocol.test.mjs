// The table protocol: every guest message is checked for size, JSON, type, fields and bounds;
// seat tokens lock seats; stale and early moves are refused; the rate limit holds.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  checkSender, MAX_GUEST_CHARS, newToken, parseGuestMessage, parseHostMessage, ProtocolError,
  publicError, RateLimiter, tokensEqual, withinLimits,
} from "../../web/net/protocol.js";

const TOKEN = "ABCDEFGHIJKLMNOP";
const codeOf = (fn) => {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof ProtocolError, String(error));
    return error.code;
  }
  return "accepted";
};
const guest = (message) => codeOf(() => parseGuestMessage(typeof message === "string" ? message : JSON.stringify(message)));

test("well-formed guest messages are accepted as they are", () => {
  const hello = { type: "hello", v: 1, seat: 2, token: TOKEN, name: "Ana", lang: "es" };
  assert.deepEqual(parseGuestMessage(JSON.stringify(hello)), hello);
  assert.equal(guest({ type: "part", seat: 2, token: TOKEN, part: "0123456789abcdef0123456789abcdef" }), "accepted");
  assert.equal(guest({ type: "move", seat: 0, token: TOKEN, after: 7, move: "play R13" }), "accepted");
  const play = { play: { table: [["R1", "R2", "R3"], { group: ["K5", "R5", "B5"] }], from_hand: ["R1"] } };
  assert.equal(guest({ type: "move", seat: 1, token: TOKEN, after: 0, move: play }), "accepted");
  assert.equal(guest({ type: "ask", seat: 1, token: TOKEN, id: 3, after: 0, op: "inspect", move: play }), "accepted");
  assert.equal(guest({ type: "ask", seat: 1, token: TOKEN, id: 4, after: 0, op: "arrange", tiles: ["R1", "*"] }), "accepted");
  assert.equal(guest({ type: "ping" }), "accepted");
});

test("garbage, huge, unknown and malformed messages get their codes", () => {
  assert.equal(codeOf(() => parseGuestMessage(new ArrayBuffer(8))), "bad_message");
  assert.equal(codeOf(() => parseGuestMessage(undefined)), "bad_message");
  assert.equal(guest("\u0000\u00ff garbage"), "bad_message");
  assert.equal(guest("[1, 2]"), "bad_message");
  assert.equal(guest("null"), "bad_message");
  assert.equal(guest("x".repeat(MAX_GUEST_CHARS + 1)), "too_large");
  assert.equal(guest({ type: "state", n: 1 }), "unknown_type");
  assert.equal(guest({ type: "__proto__" }), "unknown_type");
  assert.equal(guest({ type: "toString" }), "unknown_type");
  assert.equal(guest({ type: "ping", extra: 1 }), "unknown_field");
  assert.equal(guest({ type: "move", seat: 0, token: TOKEN, after: 1 }), "missing_field");
  assert.equal(guest({ type: "move", seat: -1, token: TOKEN, after: 1, move: "draw" }), "bad_field");
  assert.equal(guest({ type: "move", seat: 0.5, token: TOKEN, after: 1, move: "draw" }), "bad_field");
  assert.equal(guest({ type: "move", seat: 0, token: "abc", after: 1, move: "draw" }), "bad_field");
  assert.equal(guest({ type: "move", seat: 0, token: TOKEN, after: "1", move: "draw" }), "bad_field");
  assert.equal(guest({ type: "move", seat: 0, token: TOKEN, after: 1, move: ["draw"] }), "bad_field");
  assert.equal(guest({ type: "move", seat: 0, token: TOKEN, after: 1, move: "x".repeat(81) }), "bad_field");
  assert.equal(guest({ type: "hello", v: 2, seat: 0, token: TOKEN }), "version");
  assert.equal(guest({ type: "hello", v: 1, seat: 0, token: TOKEN, lang: "fr" }), "bad_field");
  assert.equal(guest({ type: "part", seat: 0, token: TOKEN, part: "XYZ" }), "bad_field");
  assert.equal(guest({ type: "hello", v: 1, seat: 0, token: TOKEN, part: "0123456789abcdef0123456789abcdef" }), "unknown_field");
  assert.equal(guest({ type: "ask", seat: 0, token: TOKEN, id: 1, after: 0, op: "new_game" }), "bad_field");
  let deep = "R1";
  for (let i = 0; i < 10; i++) deep = [deep];
  assert.equal(guest({ type: "move", seat: 0, token: TOKEN, after: 0, move: { play: { table: deep } } }), "bad_field");
  const wide = { play: { table: Array.from({ length: 100 }, () => Array(20).fill("R1")) } };
  assert.equal(guest({ type: "move", seat: 0, token: TOKEN, after: 0, move: wide }), "bad_field");
});

test("bounds of a move's JSON value", () => {
  assert.ok(withinLimits({ a: [1, "b", null, true] }));
  assert.ok(!withinLimits({ a: "x".repeat(49) }));
  assert.ok(!withinLimits({ ["k".repeat(49)]: 1 }));
  assert.ok(!withinLimits({ a: Infinity }));
});

test("seat tokens: fresh, 80 bits, compared in full", () => {
  const seen = new Set(Array.from({ length: 200 }, () => newToken()));
  assert.equal(seen.size, 200);
  for (const token of seen) assert.match(token, /^[A-Z2-7]{16}$/);
  assert.ok(tokensEqual(TOKEN, "ABCDEFGHIJKLMNOP"));
  assert.ok(!tokensEqual(TOKEN, "ABCDEFGHIJKLMNOQ"));
  assert.ok(!tokensEqual(TOKEN, "ABCDEFGHIJKLMNO"));
  assert.ok(!tokensEqual(TOKEN, undefined));
});

test("a message is for its channel's seat, with its token, after the moves played", () => {
  const expected = { seat: 1, token: TOKEN, moves: 5 };
  assert.equal(codeOf(() => checkSender({ seat: 1, token: TOKEN, after: 5 }, expected)), "accepted");
  assert.equal(codeOf(() => checkSender({ seat: 2, token: TOKEN, after: 5 }, expected)), "wrong_seat");
  assert.equal(codeOf(() => checkSender({ seat: 1, token: "ABCDEFGHIJKLMNOQ", after: 5 }, expected)), "bad_token");
  assert.equal(codeOf(() => checkSender({ seat: 1, token: TOKEN, after: 4 }, expected)), "stale_move");
  assert.equal(codeOf(() => checkSender({ seat: 1, token: TOKEN, after: 6 }, expected)), "early_move");
  assert.equal(codeOf(() => checkSender({ seat: 1, token: TOKEN }, { seat: 1, token: TOKEN })), "accepted");
});

test("the rate limit lets a burst through, then refills at its rate", () => {
  let now = 0;
  const limiter = new RateLimiter({ rate: 10, burst: 5, now: () => now });
  const taken = Array.from({ length: 8 }, () => limiter.take());
  assert.deepEqual(taken, [true, true, true, true, true, false, false, false]);
  now += 200; // two tokens back
  assert.deepEqual([limiter.take(), limiter.take(), limiter.take()], [true, true, false]);
});

test("host messages are checked too", () => {
  const host = (message) => codeOf(() => parseHostMessage(JSON.stringify(message)));
  assert.equal(host({ type: "state", n: 3, snap: {} }), "accepted");
  assert.equal(host({ type: "state", n: -1, snap: {} }), "bad_field");
  assert.equal(host({ type: "state" }), "missing_field");
  assert.equal(host({ type: "eval" }), "unknown_type");
  assert.equal(host({ type: "refused", error: "x" }), "bad_field");
  assert.equal(codeOf(() => parseHostMessage("{")), "bad_message");
});

test("a guest gets an engine error's code, reason and small details, never a trace", () => {
  const error = publicError({ code: "illegal_move", reason: "must_follow_suit", suit: "R", message: "m".repeat(500), trace: "secret", tiles: ["R1", "B2"], nested: { hand: ["R5"] } });
  assert.deepEqual(Object.keys(error).sort(), ["code", "message", "reason", "suit", "tiles"]);
  assert.equal(error.message.length, 240);
  assert.deepEqual(publicError(null), { code: "internal" });
});
