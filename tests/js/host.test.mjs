// The host's table session without a browser: a fake engine and fake data channels. Moves for
// another seat, with a wrong token, for an old or a future move number, out of turn, twice at
// once, or refused by the engine change nothing; a valid move is applied by the engine; a
// missing seat is played by a bot when the host chose so; garbage gets rate-limited replies.
import assert from "node:assert/strict";
import { test } from "node:test";

const store = new Map();
globalThis.localStorage = {
  getItem: (key) => (store.has(key) ? store.get(key) : null),
  setItem: (key, value) => store.set(key, String(value)),
  removeItem: (key) => store.delete(key),
};

const { HostSession, loadTable } = await import("../../web/net/host.js");
const { encodeAnswer, parseSdp } = await import("../../web/net/pairing.js");
const { PROTOCOL_VERSION } = await import("../../web/net/protocol.js");
const { ScreenAwake } = await import("../../web/net/awake.js");

class FakeEngine {
  constructor() {
    this.calls = [];
    this.refuse = null;
  }
  async call(op, fields) {
    this.calls.push({ op, ...fields });
    if (op === "apply" && this.refuse) {
      const error = Object.assign(new Error(this.refuse), { code: "illegal_move", info: { code: "illegal_move", reason: this.refuse, trace: "x" } });
      this.refuse = null;
      throw error;
    }
    const to_move = (fields.seat + 1) % 3;
    const snap = { state: { after: fields.move ?? "bot" }, to_move, outcome: null, view: { seat: fields.seat }, legal_moves: [] };
    return op === "bot_move" ? { ...snap, move: "bid 1" } : snap;
  }
}

class FakeLink {
  constructor() {
    this.sent = [];
  }
  send(message) {
    this.sent.push(typeof message === "string" ? JSON.parse(message) : message);
    return true;
  }
  close() {}
  of(type) {
    return this.sent.filter((m) => m.type === type);
  }
}

function table({ missing = "wait" } = {}) {
  let clock = 1_000_000;
  const engine = new FakeEngine();
  const host = new HostSession({
    engine,
    now: () => clock,
    setup: {
      game: "wizard", options: {}, players: 3,
      seats: [{ kind: "human", remote: true }, { kind: "human", remote: true }, { kind: "bot", level: "random" }],
      policy: { missing, timeout_s: 10, bot_level: "random" },
      ice_server: null,
    },
  });
  const links = [new FakeLink(), new FakeLink()];
  for (const [index, link] of links.entries()) {
    const seat = host.remote.get(index);
    seat.link = link;
    seat.status = "connected";
    seat.lastSeen = clock;
  }
  host.game = { record: { game: "wizard", seed: "S", moves: [] }, snap: { state: {}, to_move: 0, outcome: null }, viewer: null, shown: null };
  const send = (index, message) => host.receive(host.remote.get(index), links[index], typeof message === "string" ? message : JSON.stringify(message));
  const token = (index) => host.remote.get(index).token;
  // time passing with the host awake: its clock ticks every second (`tick` jumps at once)
  const elapse = (ms, each = () => {}) => {
    for (let step = 0; step < ms; step += 1_000) {
      clock += 1_000;
      each();
      host.tick();
    }
  };
  return { host, engine, links, send, token, elapse, tick: (ms) => { clock += ms; } };
}

test("forged, stale, early and out-of-turn moves are refused with codes and change nothing", async () => {
  const { host, links, send, token } = table();
  send(1, { type: "move", seat: 0, token: token(1), after: 0, move: "bid 0" });
  send(1, { type: "move", seat: 1, token: token(0), after: 0, move: "bid 0" });
  assert.deepEqual(links[1].of("error").map((m) => m.error.code), ["wrong_seat", "bad_token"]);
  send(1, { type: "move", seat: 1, token: token(1), after: 0, move: "bid 0" });
  host.game.record.moves.push({ seat: 2, move: "bid 0" });
  send(0, { type: "move", seat: 0, token: token(0), after: 0, move: "bid 0" });
  send(0, { type: "move", seat: 0, token: token(0), after: 4, move: "bid 0" });
  assert.deepEqual(links[1].of("refused").map((m) => m.error.code), ["not_your_turn"]);
  assert.deepEqual(links[0].of("refused").map((m) => [m.ref, m.error.code]), [[0, "stale_move"], [4, "early_move"]]);
  assert.equal(host.remote.get(0).inbox, null);
  host.stop();
});

test("a valid move is applied by the engine; its refusal goes back to the guest", async () => {
  const { host, engine, links, send, token } = table();
  const game = host.game;
  engine.refuse = "bad_bid";
  send(0, { type: "move", seat: 0, token: token(0), after: 0, move: "bid 9" });
  send(0, { type: "move", seat: 0, token: token(0), after: 0, move: "bid 8" });
  assert.deepEqual(links[0].of("refused").map((m) => m.error.code), ["busy"]);
  const step = host.remoteMove(0, game);
  await new Promise((resolve) => setTimeout(resolve, 10));
  const refused = links[0].of("refused").at(-1);
  assert.deepEqual(refused, { type: "refused", ref: 0, error: { code: "illegal_move", reason: "bad_bid" } });
  send(0, { type: "move", seat: 0, token: token(0), after: 0, move: "bid 1" });
  const done = await step;
  assert.equal(done.move, "bid 1");
  assert.deepEqual(engine.calls.filter((c) => c.op === "apply").map((c) => [c.seat, c.move, c.view_public]), [[0, "bid 9", true], [0, "bid 1", true]]);
  host.stop();
});

test("a missing seat waits, or a bot plays it after the timeout when the host chose so", async () => {
  for (const missing of ["wait", "bot"]) {
    const { host, engine, tick } = table({ missing });
    const seat = host.remote.get(0);
    seat.status = "missing";
    seat.missingSince = 1_000_000;
    let result = null;
    host.remoteMove(0, host.game).then((value) => { result = value; });
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(result, null);
    tick(11_000);
    host.tick();
    await new Promise((resolve) => setTimeout(resolve, 10));
    if (missing === "wait") assert.equal(result, null);
    else {
      assert.equal(result.move, "bid 1");
      assert.equal(engine.calls.at(-1).op, "bot_move");
    }
    host.stop();
  }
});

test("a silent guest becomes missing; the host's button lets a bot play at once", async () => {
  const { host, elapse } = table();
  elapse(14_000);
  assert.equal(host.remote.get(1).status, "connected");
  elapse(2_000);
  assert.equal(host.remote.get(1).status, "missing");
  const step = host.remoteMove(1, { ...host.game, snap: { ...host.game.snap, to_move: 1 } });
  host.letBotPlay(1);
  assert.equal((await step).move, "bid 1");
  host.stop();
});

test("a seat marked missing for its silence is back when its own link speaks: a fresh welcome", async () => {
  const { host, links, send, elapse } = table();
  host.game.record.moves.push({ seat: 2, move: "bid 0" });
  elapse(16_000, () => {
    host.remote.get(1).lastSeen = host.now(); // seat 1 kept talking
  });
  assert.equal(host.remote.get(0).status, "missing");
  assert.equal(host.remote.get(1).status, "connected");
  links[1].sent.length = 0;
  send(0, { type: "ping" });
  assert.equal(host.remote.get(0).status, "connected");
  assert.equal(host.remote.get(0).missingSince, null);
  await new Promise((resolve) => setTimeout(resolve, 10));
  const [welcome] = links[0].of("welcome");
  assert.equal(welcome.n, 1);
  assert.deepEqual(welcome.snap.view, { seat: 0 });
  assert.equal(links[0].of("pong").length, 1);
  // the others hear that the seat is present again; a later move reaches it
  assert.ok(links[1].of("table").at(-1).table.seats[0].present);
  host.stop();
});

test("a silence the host slept through is not the guests': they get a fresh window", () => {
  const { host, elapse, tick } = table();
  elapse(3_000);
  tick(60_000); // the host's phone locked for a minute: no tick ran
  host.tick();
  assert.equal(host.remote.get(0).status, "connected");
  assert.equal(host.remote.get(1).status, "connected");
  elapse(14_000, () => {
    host.remote.get(1).lastSeen = host.now(); // seat 1's queued pings arrive; seat 0's never do
  });
  assert.equal(host.remote.get(0).status, "connected");
  elapse(2_000, () => {
    host.remote.get(1).lastSeen = host.now();
  });
  assert.equal(host.remote.get(0).status, "missing");
  assert.equal(host.remote.get(1).status, "connected");
  host.stop();
});

test("a burst of garbage gets few, coded replies", () => {
  const { host, links, send } = table();
  for (let i = 0; i < 200; i++) send(1, i % 2 ? "{" : `{"type":"move","seat":1}`);
  const replies = links[1].of("error");
  assert.ok(replies.length > 0 && replies.length <= 10, `${replies.length} replies`);
  assert.ok(replies.every((m) => ["bad_message", "missing_field", "rate_limited"].includes(m.error.code)));
  assert.equal(host.game.record.moves.length, 0);
  host.stop();
});

test("the table is saved with its tokens and secret, and a finished game is not", () => {
  const { host } = table();
  host.save();
  const saved = loadTable();
  assert.equal(saved.secret, host.secret);
  assert.equal(saved.remote[0].token, host.remote.get(0).token);
  host.game.snap.outcome = { scores: [1, 2, 3], winners: [2] };
  host.save();
  assert.equal(loadTable(), null);
  host.stop();
});

// An answer's SDP as headless Chromium made it (iceServers: [], an mDNS host name).
const ANSWER_SDP = [
  "v=0", "o=- 8176714532816057782 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0",
  "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0",
  "a=candidate:4097426268 1 udp 2113937151 ec7dac4c-4ede-4b2e-b6a7-d333ba8ad12d.local 58058 typ host generation 0 network-cost 999",
  "a=ice-ufrag:K55k", "a=ice-pwd:GEg9PfeFpLyldywGoX9Vz5Ch",
  "a=fingerprint:sha-256 88:F7:35:93:FA:BE:5D:C2:9D:85:77:55:CD:34:45:BC:19:F5:E5:A7:AB:46:57:27:3F:58:08:AC:B9:0B:E0:EB",
  "a=setup:active", "a=mid:0", "a=sctp-port:5000", "a=max-message-size:262144", "",
].join("\r\n");

test("a guest whose hello comes before the host's accept() resolves stays connected", async (t) => {
  // On a loaded device the data channel can open, and the guest's hello arrive, before
  // setRemoteDescription's promise settles; the seat must not fall back to "pairing" then.
  const { host } = table();
  const seat = host.remote.get(0);
  seat.status = "pairing";
  seat.pairing = "0badf00d";
  let settle;
  const link = new FakeLink();
  link.pc = { signalingState: "have-local-offer" };
  link.accept = () => new Promise((resolve) => { settle = resolve; });
  link.opened = () => Promise.resolve();
  seat.link = link;
  const answer = encodeAnswer({ seat: 0, pairing: "0badf00d", transport: parseSdp(ANSWER_SDP) });
  t.after(() => host.stop());
  const accepted = host.acceptAnswer(answer);
  const hello = { type: "hello", v: PROTOCOL_VERSION, seat: 0, token: seat.token, lang: "es" };
  host.receive(seat, link, JSON.stringify(hello));
  await new Promise((resolve) => setTimeout(resolve, 0)); // the hello's welcome is sent
  assert.equal(seat.status, "connected");
  assert.equal(link.of("welcome").length, 1);
  settle();
  assert.equal(await accepted, 0);
  assert.equal(seat.status, "connected");
});

test("the host's screen stays on while the table is shown or a guest joined, until the end", async (t) => {
  const { host } = table();
  t.after(() => host.stop());
  const requests = [];
  const sentinels = [];
  const document = Object.assign(new EventTarget(), { visibilityState: "visible" });
  const navigator = {
    wakeLock: {
      request: async () => {
        requests.push("screen");
        const sentinel = Object.assign(new EventTarget(), { released: false, release: async () => { sentinel.released = true; } });
        sentinels.push(sentinel);
        return sentinel;
      },
    },
  };
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  host.awake = new ScreenAwake({ navigator, document });
  for (const seat of host.remote.values()) seat.status = "pairing";
  host.keepAwake();
  await settle();
  assert.equal(host.awake.held, true, "the table's screen is shown");
  host.setAway(true); // back to the home screen, nobody paired yet
  await settle();
  assert.equal(host.awake.held, false);
  assert.equal(sentinels[0].released, true);
  host.setAway(false);
  await settle();
  assert.equal(host.awake.held, true, "the table shown again");
  host.remote.get(1).status = "connected";
  host.changed();
  host.setAway(true); // a guest waits at this table: the screen stays on
  await settle();
  assert.equal(host.awake.held, true);
  host.remote.get(1).status = "missing";
  host.changed();
  await settle();
  assert.equal(host.awake.held, true, "a guest that went quiet is still at the table");
  host.broadcast({ ...host.game, snap: { ...host.game.snap, outcome: { winners: [0] } } });
  await settle();
  assert.equal(host.awake.held, false, "the game is over");
  host.setAway(false);
  await settle();
  assert.equal(host.awake.held, false);
  assert.equal(requests.length, 2, "asked once per time it was let go");
});
