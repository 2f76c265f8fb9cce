// A deal nobody could rig: the host commits to a secret part of the seed before the deal, each
// guest adds a random part after seeing that commitment, the seed is derived from all parts,
// and at the end the host reveals its part so every guest checks the whole game.
//
//   commitment  SHA-256("tapete-commit:" + secret), shown before any guest sends its part
//   parts       [[seat, part], ...] of the remote seats in seat order (32 hex digits each)
//   seed        base32 of SHA-256("tapete-seed:" + secret + ":" + seat=part,...), 24 characters
//   deal code   6 characters of SHA-256 of the commitment and the parts: every device shows it,
//               so the players can see that they all got the same parts
//
// A host that learns the guests' parts can no longer change its own (it is committed), and a
// guest finds its own part in the list; so no one alone chose the deal. No DOM (unit tests:
// tests/js/commit.test.mjs); it needs crypto.subtle (a secure context: https or 127.0.0.1).

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const PART_RE = /^[0-9a-f]{32}$/;

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

async function sha256(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return new Uint8Array(digest);
}

/** 16 random bytes as 32 hex digits: the host's secret or a guest's part. */
export function newPart() {
  return hex(crypto.getRandomValues(new Uint8Array(16)));
}

export function isPart(text) {
  return typeof text === "string" && PART_RE.test(text);
}

/** The commitment to the host's secret part (64 hex digits). */
export async function commitment(secret) {
  return hex(await sha256(`tapete-commit:${secret}`));
}

function partsText(parts) {
  return parts.map(([seat, part]) => `${seat}=${part}`).join(",");
}

/** Parts in canonical order (by seat), each checked. Throws on a bad list. */
export function normalParts(parts) {
  if (!Array.isArray(parts) || parts.length > 16) throw new Error("parts must be a list");
  const out = parts.map((entry) => {
    if (!Array.isArray(entry) || entry.length !== 2 || !Number.isInteger(entry[0]) || !isPart(entry[1])) throw new Error("a part is [seat, 32 hex digits]");
    return [entry[0], entry[1]];
  });
  out.sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < out.length; i++) if (out[i][0] === out[i - 1][0]) throw new Error("two parts for one seat");
  return out;
}

/** The deal's seed from the host's secret and the guests' parts. */
export async function deriveSeed(secret, parts) {
  const digest = await sha256(`tapete-seed:${secret}:${partsText(normalParts(parts))}`);
  let out = "";
  for (let i = 0; i < 24; i++) out += BASE32[digest[i] & 31];
  return out;
}

/** A short code every device shows once the parts are in (the same on all of them). */
export async function dealCode(commitmentHex, parts) {
  const digest = await sha256(`tapete-deal:${commitmentHex}:${partsText(normalParts(parts))}`);
  let out = "";
  for (let i = 0; i < 6; i++) out += BASE32[digest[i] & 31];
  return out;
}

/**
 * A guest's check of the host's reveal, before replaying the game: what is wrong, or null.
 * @param {{commitment: string, parts: Array, seat: number, part: string | null}} known
 *        what the guest saw before the deal and the part it sent (null if it never sent one)
 * @param {{secret: string, seed: string, parts: Array}} reveal
 * @returns {Promise<string | null>} "commitment" | "parts" | "own_part" | "seed" | null
 */
export async function checkReveal(known, reveal) {
  if (!isPart(reveal.secret) || (await commitment(reveal.secret)) !== known.commitment) return "commitment";
  let parts;
  try {
    parts = normalParts(reveal.parts);
  } catch {
    return "parts";
  }
  if (known.parts && partsText(normalParts(known.parts)) !== partsText(parts)) return "parts";
  if (known.part !== null) {
    const mine = parts.find(([seat]) => seat === known.seat);
    if (!mine || mine[1] !== known.part) return "own_part";
  }
  if ((await deriveSeed(reveal.secret, parts)) !== reveal.seed) return "seed";
  return null;
}
