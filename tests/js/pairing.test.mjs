// The pairing codec: offers and answers survive the trip through a code, the rebuilt SDP keeps
// what WebRTC needs, and damaged, truncated or hostile codes are refused with a code.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  base32Decode, base32Encode, buildSdp, decodeCode, encodeAnswer, encodeOffer, joinLink,
  MAX_CODE_CHARS, PairingError, parseSdp,
} from "../../web/net/pairing.js";

// An offer and its answer as headless Chromium made them (iceServers: [], mDNS host names).
const OFFER_SDP = [
  "v=0", "o=- 8176714532816057782 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0",
  "a=extmap-allow-mixed", "a=msid-semantic: WMS", "m=application 9 UDP/DTLS/SCTP webrtc-datachannel",
  "c=IN IP4 0.0.0.0",
  "a=candidate:4097426268 1 udp 2113937151 ec7dac4c-4ede-4b2e-b6a7-d333ba8ad12d.local 58058 typ host generation 0 network-cost 999",
  "a=candidate:4081823724 1 udp 2113942271 2a46b4f3-4fd8-4f69-a6c7-90947ad26f61.local 34475 typ host generation 0 network-cost 999",
  "a=candidate:1 1 tcp 1518280447 192.168.1.4 9 typ host tcptype active generation 0",
  "a=ice-ufrag:k/QZ", "a=ice-pwd:GEg9PfeFpLyldywGoX9Vz5Ch", "a=ice-options:trickle",
  "a=fingerprint:sha-256 88:F7:35:93:FA:BE:5D:C2:9D:85:77:55:CD:34:45:BC:19:F5:E5:A7:AB:46:57:27:3F:58:08:AC:B9:0B:E0:EB",
  "a=setup:actpass", "a=mid:0", "a=sctp-port:5000", "a=max-message-size:262144", "",
].join("\r\n");
const ANSWER_SDP = OFFER_SDP.replace("a=setup:actpass", "a=setup:active").replace("k/QZ", "K55k");
const TOKEN = "ABCDEFGHIJKLMNOP";

test("an offer survives the code, without its TCP candidate", () => {
  const transport = parseSdp(OFFER_SDP);
  assert.equal(transport.candidates.length, 2);
  const code = encodeOffer({ seat: 2, pairing: "0badf00d", token: TOKEN, transport });
  assert.match(code, /^[A-Z2-7]+$/);
  assert.ok(code.length < 200, `offer code of ${code.length} characters`);
  const decoded = decodeCode(code);
  assert.equal(decoded.kind, "offer");
  assert.deepEqual(decoded.offer, { seat: 2, pairing: "0badf00d", token: TOKEN, transport });
});

test("an answer keeps its setup role and the rebuilt SDP reads back the same", () => {
  const transport = parseSdp(ANSWER_SDP);
  const code = encodeAnswer({ seat: 1, pairing: "00000001", transport });
  const { kind, answer } = decodeCode(code);
  assert.equal(kind, "answer");
  assert.equal(answer.transport.setup, "active");
  const sdp = buildSdp(answer.transport);
  assert.deepEqual(parseSdp(sdp), transport);
  assert.ok(sdp.includes("m=application 9 UDP/DTLS/SCTP webrtc-datachannel"));
  assert.ok(sdp.endsWith("\r\n"));
});

test("IPv4, IPv6, host-name and relay candidates round-trip", () => {
  const transport = {
    ufrag: "abcd", pwd: "0123456789abcdefghijkl+/", hash: "sha-256",
    fingerprint: parseSdp(OFFER_SDP).fingerprint, setup: "actpass",
    candidates: [
      { type: "host", priority: 2122260223, address: "192.168.1.20", port: 50000 },
      { type: "host", priority: 2122194687, address: "fe80:0:0:0:1:2:3:4", port: 1 },
      { type: "srflx", priority: 1686052607, address: "203.0.113.9", port: 65535 },
      { type: "relay", priority: 41885439, address: "turn.example.org", port: 3478 },
    ],
  };
  const { offer } = decodeCode(encodeOffer({ seat: 0, pairing: "ffffffff", token: TOKEN, transport }));
  assert.deepEqual(offer.transport, transport);
  assert.ok(buildSdp(offer.transport).includes("typ relay raddr 0.0.0.0 rport 0"));
  const compressed = parseSdp(buildSdp({ ...transport, candidates: [{ ...transport.candidates[1], address: "::1" }] }));
  assert.equal(decodeCode(encodeOffer({ seat: 0, pairing: "ffffffff", token: TOKEN, transport: compressed })).offer.transport.candidates[0].address, "0:0:0:0:0:0:0:1");
});

test("a code is read from a whole link, in lower case, with spaces and line breaks", () => {
  const code = encodeOffer({ seat: 3, pairing: "12345678", token: TOKEN, transport: parseSdp(OFFER_SDP) });
  const link = joinLink("https://example.org/tapete/index.html#/play", code);
  assert.equal(link, `https://example.org/tapete/index.html#/join/${code}`);
  assert.equal(decodeCode(link).offer.seat, 3);
  const messy = ` ${code.slice(0, 40).toLowerCase()}\n${code.slice(40)} `;
  assert.equal(decodeCode(messy).offer.pairing, "12345678");
});

test("damaged, truncated, foreign and hostile codes are refused with a code", () => {
  const code = encodeOffer({ seat: 3, pairing: "12345678", token: TOKEN, transport: parseSdp(OFFER_SDP) });
  const codeOf = (text) => {
    try {
      decodeCode(text);
    } catch (error) {
      assert.ok(error instanceof PairingError, String(error));
      return error.code;
    }
    return "accepted";
  };
  const flipped = code.slice(0, 30) + (code[30] === "A" ? "B" : "A") + code.slice(31);
  assert.equal(codeOf(flipped), "checksum");
  assert.equal(codeOf(code.slice(0, -6)), "checksum");
  assert.equal(codeOf(""), "empty");
  assert.equal(codeOf("AB"), "truncated");
  assert.equal(codeOf("not a code!"), "bad_code");
  assert.equal(codeOf("A".repeat(MAX_CODE_CHARS + 1)), "too_long");
  assert.equal(codeOf(42), "bad_code");
  // a well-formed code of another version
  const bytes = base32Decode(code);
  const body = bytes.slice(0, -2);
  body[0] = (2 << 4) | 1;
  let a = 0;
  let b = 0;
  for (const byte of body) {
    a = (a + byte) % 255;
    b = (b + a) % 255;
  }
  assert.equal(codeOf(base32Encode(Uint8Array.from([...body, b, a]))), "version");
  // random bytes with a right checksum never crash the reader
  for (let trial = 0; trial < 500; trial++) {
    const junk = crypto.getRandomValues(new Uint8Array(8 + (trial % 120)));
    let x = 0;
    let y = 0;
    for (const byte of junk) {
      x = (x + byte) % 255;
      y = (y + x) % 255;
    }
    const result = codeOf(base32Encode(Uint8Array.from([...junk, y, x])));
    assert.ok(typeof result === "string");
  }
});

test("SDP the code cannot carry is refused when encoding", () => {
  const transport = parseSdp(OFFER_SDP);
  assert.throws(() => encodeOffer({ seat: 0, pairing: "00000000", token: TOKEN, transport: { ...transport, ufrag: "bad ufrag" } }), PairingError);
  assert.throws(() => encodeOffer({ seat: 0, pairing: "00000000", token: TOKEN, transport: { ...transport, hash: "md5" } }), PairingError);
  assert.throws(() => encodeOffer({ seat: 99, pairing: "00000000", token: TOKEN, transport }), PairingError);
  assert.throws(() => encodeOffer({ seat: 0, pairing: "00000000", token: "short", transport }), PairingError);
  assert.throws(() => parseSdp("v=0\r\n"), PairingError);
});
