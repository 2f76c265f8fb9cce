// The pairing code: a WebRTC offer or answer shrunk to what cannot be rebuilt, packed in bytes
// and written in base32 (letters and digits: QR codes store them in their compact alphanumeric
// mode, and a URL hash carries them as they are). No DOM, no network: round-trip tested under
// Node (tests/js/pairing.test.mjs).
//
// Glossary
//   offer     the host's half, one per remote seat: it travels in the join link (#/join/<code>)
//             with the seat, a pairing id and the seat's secret token.
//   answer    the guest's half, shown as a QR code and as text; the host scans or pastes it.
//   pairing id  four random bytes naming one offer: an answer carries it back, so the host
//             knows which seat's offer it answers and refuses an answer to an older offer.
//   minimal SDP  a data-channel-only session description rebuilt from the ICE user fragment and
//             password, the DTLS fingerprint, the setup role and the UDP candidates; everything
//             else in a browser's SDP is the same in every data-channel offer.
//
// Bytes: [version<<4 | kind] header, ICE (lengths + 6-bit characters), fingerprint (hash id +
// digest), candidates (count, then flags, priority, port, address each), and a 16-bit
// checksum (Fletcher-16) so a mistyped or truncated code is refused before WebRTC sees it.

export const CODE_VERSION = 1;
export const KIND_OFFER = 1;
export const KIND_ANSWER = 2;
export const TOKEN_BYTES = 10;
export const PAIRING_ID_BYTES = 4;
/** The longest code accepted, in characters (a real one is about 200). */
export const MAX_CODE_CHARS = 1200;
const MAX_CANDIDATES = 8;
const MAX_SEAT = 15;

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const ICE_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const HASHES = [["sha-1", 20], ["sha-224", 28], ["sha-256", 32], ["sha-384", 48], ["sha-512", 64]];
const TYPES = ["host", "srflx", "prflx", "relay"];
const SETUPS = ["active", "passive"];
const ADDR_IPV4 = 0;
const ADDR_IPV6 = 1;
const ADDR_MDNS = 2;
const ADDR_NAME = 3;
const MDNS_RE = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})\.local$/;
const HOSTNAME_RE = /^[A-Za-z0-9.-]{1,63}$/;

/** A pairing code that cannot be read: `code` says why (for the player: `net.pair.<code>`). */
export class PairingError extends Error {
  /** @param {string} code @param {string} message */
  constructor(code, message) {
    super(message);
    this.name = "PairingError";
    this.code = code;
  }
}

// -- base32 -------------------------------------------------------------------------------------

/** @param {Uint8Array} bytes */
export function base32Encode(bytes) {
  let out = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(buffer >> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32[(buffer << (5 - bits)) & 31];
  return out;
}

/** Case-insensitive; throws PairingError("bad_code") on any other character. */
export function base32Decode(text) {
  const out = [];
  let buffer = 0;
  let bits = 0;
  for (const char of text.toUpperCase()) {
    const value = BASE32.indexOf(char);
    if (value < 0) throw new PairingError("bad_code", `not a base32 character: ${JSON.stringify(char)}`);
    buffer = (buffer << 5) | value;
    bits += 5;
    if (bits >= 8) {
      out.push((buffer >> (bits - 8)) & 255);
      bits -= 8;
    }
    buffer &= (1 << bits) - 1;
  }
  return Uint8Array.from(out);
}

// -- bytes --------------------------------------------------------------------------------------

class Writer {
  constructor() {
    /** @type {number[]} */ this.bytes = [];
  }
  u8(value) {
    this.bytes.push(value & 255);
  }
  u16(value) {
    this.u8(value >> 8);
    this.u8(value);
  }
  u32(value) {
    this.u16(Math.floor(value / 65536));
    this.u16(value % 65536);
  }
  raw(bytes) {
    for (const byte of bytes) this.u8(byte);
  }
}

class Reader {
  /** @param {Uint8Array} bytes */
  constructor(bytes) {
    this.bytes = bytes;
    this.at = 0;
  }
  need(count) {
    if (this.at + count > this.bytes.length) throw new PairingError("truncated", "the code is cut short");
  }
  u8() {
    this.need(1);
    return this.bytes[this.at++];
  }
  u16() {
    return this.u8() * 256 + this.u8();
  }
  u32() {
    return this.u16() * 65536 + this.u16();
  }
  raw(count) {
    this.need(count);
    const out = this.bytes.slice(this.at, this.at + count);
    this.at += count;
    return out;
  }
}

function fletcher16(bytes) {
  let a = 0;
  let b = 0;
  for (const byte of bytes) {
    a = (a + byte) % 255;
    b = (b + a) % 255;
  }
  return (b << 8) | a;
}

function hexToBytes(hex) {
  const out = [];
  for (let i = 0; i < hex.length; i += 2) out.push(parseInt(hex.slice(i, i + 2), 16));
  return out;
}

function bytesToHex(bytes, separator = "") {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(separator);
}

// -- IP addresses -------------------------------------------------------------------------------

function parseIpv4(text) {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return null;
  return parts.map(Number);
}

function parseIpv6(text) {
  if (!/^[0-9a-fA-F:]{2,39}$/.test(text)) return null;
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groups = (part) => (part ? part.split(":") : []);
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  const missing = 8 - head.length - tail.length;
  if ((halves.length === 1 && missing !== 0) || missing < 0) return null;
  const all = [...head, ...Array(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (all.length !== 8 || !all.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return null;
  return all.flatMap((g) => {
    const value = parseInt(g, 16);
    return [value >> 8, value & 255];
  });
}

function formatIpv6(bytes) {
  const groups = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] << 8) | bytes[i + 1]).toString(16));
  return groups.join(":");
}

// -- SDP ----------------------------------------------------------------------------------------

/**
 * @typedef {object} Candidate
 * @property {"host"|"srflx"|"prflx"|"relay"} type
 * @property {number} priority
 * @property {string} address  an IPv4 or IPv6 address, an mDNS name, or a host name
 * @property {number} port
 */

/**
 * @typedef {object} Transport  what a minimal SDP is rebuilt from
 * @property {string} ufrag
 * @property {string} pwd
 * @property {string} hash       "sha-256"
 * @property {string} fingerprint  upper-case hex pairs joined by ":"
 * @property {"actpass"|"active"|"passive"} setup
 * @property {Candidate[]} candidates
 */

/** The parts of a browser's SDP that a minimal SDP needs (UDP candidates of component 1). */
export function parseSdp(sdp) {
  if (typeof sdp !== "string" || sdp.length > 20_000) throw new PairingError("bad_sdp", "not an SDP text");
  const lines = sdp.split(/\r?\n/);
  const value = (prefix) => {
    const line = lines.find((l) => l.startsWith(prefix));
    return line === undefined ? null : line.slice(prefix.length).trim();
  };
  const ufrag = value("a=ice-ufrag:");
  const pwd = value("a=ice-pwd:");
  const fingerprint = value("a=fingerprint:");
  const setup = value("a=setup:");
  if (!ufrag || !pwd || !fingerprint || !setup) throw new PairingError("bad_sdp", "the SDP lacks ICE or DTLS lines");
  const [hash, digest] = fingerprint.split(/\s+/);
  const candidates = [];
  for (const line of lines) {
    if (!line.startsWith("a=candidate:")) continue;
    const f = line.slice("a=candidate:".length).trim().split(/\s+/);
    if (f.length < 8 || f[1] !== "1" || f[2].toLowerCase() !== "udp" || f[6] !== "typ") continue;
    const type = f[7];
    if (!TYPES.includes(type)) continue;
    candidates.push({ type, priority: Number(f[3]), address: f[4], port: Number(f[5]) });
  }
  return { ufrag, pwd, hash: hash.toLowerCase(), fingerprint: digest.toUpperCase(), setup, candidates };
}

/** A data-channel-only SDP from a Transport (the rebuilt offer or answer). */
export function buildSdp(transport) {
  const lines = [
    "v=0",
    "o=- 4611731400430051336 2 IN IP4 127.0.0.1",
    "s=-",
    "t=0 0",
    "a=group:BUNDLE 0",
    "a=msid-semantic: WMS",
    "m=application 9 UDP/DTLS/SCTP webrtc-datachannel",
    "c=IN IP4 0.0.0.0",
  ];
  transport.candidates.forEach((c, i) => {
    const related = c.type === "host" ? "" : " raddr 0.0.0.0 rport 0";
    lines.push(`a=candidate:${i + 1} 1 udp ${c.priority} ${c.address} ${c.port} typ ${c.type}${related} generation 0`);
  });
  lines.push(
    `a=ice-ufrag:${transport.ufrag}`,
    `a=ice-pwd:${transport.pwd}`,
    "a=ice-options:trickle",
    `a=fingerprint:${transport.hash} ${transport.fingerprint}`,
    `a=setup:${transport.setup}`,
    "a=mid:0",
    "a=sctp-port:5000",
    "a=max-message-size:262144",
  );
  return lines.join("\r\n") + "\r\n";
}

// -- packing ------------------------------------------------------------------------------------

function writeIce(w, ufrag, pwd) {
  for (const [name, text] of [["ufrag", ufrag], ["pwd", pwd]]) {
    if (text.length < 1 || text.length > 255 || [...text].some((c) => !ICE_CHARS.includes(c))) {
      throw new PairingError("bad_sdp", `ICE ${name} has characters a code cannot carry`);
    }
  }
  w.u8(ufrag.length);
  w.u8(pwd.length);
  let buffer = 0;
  let bits = 0;
  for (const char of ufrag + pwd) {
    buffer = (buffer << 6) | ICE_CHARS.indexOf(char);
    bits += 6;
    while (bits >= 8) {
      w.u8(buffer >> (bits - 8));
      bits -= 8;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) w.u8(buffer << (8 - bits));
}

function readIce(r) {
  const lengths = [r.u8(), r.u8()];
  if (lengths[0] < 1 || lengths[1] < 1) throw new PairingError("bad_code", "empty ICE credentials");
  const total = lengths[0] + lengths[1];
  const bytes = r.raw(Math.ceil((total * 6) / 8));
  let text = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 6 && text.length < total) {
      text += ICE_CHARS[(buffer >> (bits - 6)) & 63];
      bits -= 6;
    }
    buffer &= (1 << bits) - 1;
  }
  return { ufrag: text.slice(0, lengths[0]), pwd: text.slice(lengths[0]) };
}

function writeFingerprint(w, hash, fingerprint) {
  const id = HASHES.findIndex(([name]) => name === hash);
  const bytes = hexToBytes(fingerprint.replaceAll(":", ""));
  if (id < 0 || bytes.length !== HASHES[id][1] || bytes.some(Number.isNaN)) {
    throw new PairingError("bad_sdp", `unsupported DTLS fingerprint ${hash}`);
  }
  w.u8(id);
  w.raw(bytes);
}

function readFingerprint(r) {
  const id = r.u8();
  if (id >= HASHES.length) throw new PairingError("bad_code", "unknown fingerprint hash");
  const [hash, size] = HASHES[id];
  return { hash, fingerprint: bytesToHex(r.raw(size), ":").toUpperCase() };
}

function writeCandidates(w, candidates) {
  const usable = candidates.filter((c) => Number.isInteger(c.port) && c.port > 0 && c.port < 65536 && Number.isInteger(c.priority) && c.priority >= 0 && c.priority < 2 ** 32);
  const kept = usable.slice(0, MAX_CANDIDATES);
  w.u8(kept.length);
  for (const c of kept) {
    const type = TYPES.indexOf(c.type);
    const ipv4 = parseIpv4(c.address);
    const ipv6 = ipv4 ? null : parseIpv6(c.address);
    const mdns = MDNS_RE.exec(c.address);
    let kind;
    let address;
    if (ipv4) [kind, address] = [ADDR_IPV4, ipv4];
    else if (ipv6) [kind, address] = [ADDR_IPV6, ipv6];
    else if (mdns) [kind, address] = [ADDR_MDNS, hexToBytes(mdns.slice(1).join(""))];
    else if (HOSTNAME_RE.test(c.address)) [kind, address] = [ADDR_NAME, [c.address.length, ...[...c.address].map((ch) => ch.charCodeAt(0))]];
    else throw new PairingError("bad_sdp", "a candidate address a code cannot carry");
    w.u8((type << 2) | kind);
    w.u32(c.priority);
    w.u16(c.port);
    w.raw(address);
  }
}

function readCandidates(r) {
  const count = r.u8();
  if (count > MAX_CANDIDATES) throw new PairingError("bad_code", "too many candidates");
  const out = [];
  for (let i = 0; i < count; i++) {
    const flags = r.u8();
    if (flags > 15) throw new PairingError("bad_code", "bad candidate flags");
    const type = TYPES[flags >> 2];
    const kind = flags & 3;
    const priority = r.u32();
    const port = r.u16();
    if (port === 0) throw new PairingError("bad_code", "a candidate without a port");
    let address;
    if (kind === ADDR_IPV4) address = Array.from(r.raw(4)).join(".");
    else if (kind === ADDR_IPV6) address = formatIpv6(r.raw(16));
    else if (kind === ADDR_MDNS) {
      const hex = bytesToHex(r.raw(16));
      address = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}.local`;
    } else {
      const length = r.u8();
      address = String.fromCharCode(...r.raw(length));
      if (!HOSTNAME_RE.test(address)) throw new PairingError("bad_code", "a bad candidate host name");
    }
    out.push({ type, priority, address, port });
  }
  return out;
}

// -- codes --------------------------------------------------------------------------------------

/**
 * @typedef {object} Offer
 * @property {number} seat
 * @property {string} pairing  the pairing id, 8 hex digits
 * @property {string} token    the seat's secret, 16 base32 characters
 * @property {Transport} transport
 */

/**
 * @typedef {object} Answer
 * @property {number} seat
 * @property {string} pairing
 * @property {Transport} transport  its setup is "active" or "passive"
 */

function header(w, kind, seat, pairing) {
  if (!Number.isInteger(seat) || seat < 0 || seat > MAX_SEAT) throw new PairingError("bad_code", "bad seat");
  if (!/^[0-9a-f]{8}$/.test(pairing)) throw new PairingError("bad_code", "bad pairing id");
  w.u8((CODE_VERSION << 4) | kind);
  w.u8(seat);
  w.raw(hexToBytes(pairing));
}

function finish(w) {
  w.u16(fletcher16(w.bytes));
  return base32Encode(Uint8Array.from(w.bytes));
}

function writeTransport(w, transport) {
  writeIce(w, transport.ufrag, transport.pwd);
  writeFingerprint(w, transport.hash, transport.fingerprint);
  writeCandidates(w, transport.candidates);
}

/** @param {Offer} offer @returns {string} */
export function encodeOffer(offer) {
  const w = new Writer();
  header(w, KIND_OFFER, offer.seat, offer.pairing);
  const token = base32Decode(offer.token);
  if (offer.token.length !== 16 || token.length !== TOKEN_BYTES) throw new PairingError("bad_code", "bad token");
  w.raw(token);
  writeTransport(w, { ...offer.transport, setup: "actpass" });
  return finish(w);
}

/** @param {Answer} answer @returns {string} */
export function encodeAnswer(answer) {
  const w = new Writer();
  header(w, KIND_ANSWER, answer.seat, answer.pairing);
  const setup = SETUPS.indexOf(answer.transport.setup);
  if (setup < 0) throw new PairingError("bad_sdp", `an answer's setup is active or passive, not ${answer.transport.setup}`);
  w.u8(setup);
  writeTransport(w, answer.transport);
  return finish(w);
}

/**
 * Read a code (or text holding one: a whole join link, spaces, line breaks).
 * @returns {{kind: "offer", offer: Offer} | {kind: "answer", answer: Answer}}  throws PairingError
 */
export function decodeCode(text) {
  if (typeof text !== "string") throw new PairingError("bad_code", "a code is text");
  if (text.length > MAX_CODE_CHARS * 4) throw new PairingError("too_long", "far too long for a code");
  let code = text.trim();
  const mark = code.lastIndexOf("/join/");
  if (mark >= 0) code = code.slice(mark + "/join/".length);
  code = code.replace(/\s+/g, "");
  if (!code) throw new PairingError("empty", "no code");
  if (code.length > MAX_CODE_CHARS) throw new PairingError("too_long", "too long for a code");
  const bytes = base32Decode(code);
  if (bytes.length < 8) throw new PairingError("truncated", "the code is cut short");
  const body = bytes.slice(0, -2);
  const sum = bytes[bytes.length - 2] * 256 + bytes[bytes.length - 1];
  if (fletcher16(body) !== sum) throw new PairingError("checksum", "the code is damaged or incomplete");
  const r = new Reader(body);
  const first = r.u8();
  if (first >> 4 !== CODE_VERSION) throw new PairingError("version", "a code of another version of Tapete");
  const kind = first & 15;
  const seat = r.u8();
  if (seat > MAX_SEAT) throw new PairingError("bad_code", "bad seat");
  const pairing = bytesToHex(r.raw(PAIRING_ID_BYTES));
  let result;
  if (kind === KIND_OFFER) {
    const token = base32Encode(r.raw(TOKEN_BYTES));
    const ice = readIce(r);
    const fp = readFingerprint(r);
    const candidates = readCandidates(r);
    result = { kind: "offer", offer: { seat, pairing, token, transport: { ...ice, ...fp, setup: "actpass", candidates } } };
  } else if (kind === KIND_ANSWER) {
    const setup = SETUPS[r.u8()];
    if (!setup) throw new PairingError("bad_code", "bad setup role");
    const ice = readIce(r);
    const fp = readFingerprint(r);
    const candidates = readCandidates(r);
    result = { kind: "answer", answer: { seat, pairing, transport: { ...ice, ...fp, setup, candidates } } };
  } else {
    throw new PairingError("bad_code", "neither an offer nor an answer");
  }
  if (r.at !== body.length) throw new PairingError("bad_code", "extra bytes after the code");
  return result;
}

// -- links --------------------------------------------------------------------------------------

/** The join link of an offer: the page's own address with `#/join/<code>`. */
export function joinLink(pageUrl, code) {
  const base = String(pageUrl).split("#")[0];
  return `${base}#/join/${code}`;
}

/** 8 random hex digits (a pairing id). */
export function newPairingId() {
  return bytesToHex(crypto.getRandomValues(new Uint8Array(PAIRING_ID_BYTES)));
}
