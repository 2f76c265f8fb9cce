// The guest's side of a table without a browser: a fake clock and a fake link. A host that falls
// silent is waited for on the open link (the guest says so, and carries on when the host speaks
// again); the guest gives up only when the link closes or after a long silence.
import assert from "node:assert/strict";
import { test } from "node:test";

globalThis.localStorage = { getItem: () => null, setItem: () => {}, removeItem: () => {} };
// GuestSession makes its PeerLink at once; these tests swap in a fake link before it is used.
globalThis.RTCPeerConnection = class {
  createDataChannel() {
    return {};
  }
  addEventListener() {}
  close() {}
};

const { GuestSession } = await import("../../web/net/guest.js");
const { PROTOCOL_VERSION } = await import("../../web/net/protocol.js");

class FakeLink extends EventTarget {
  constructor() {
    super();
    this.sent = [];
    this.closedByUs = false;
  }
  send(message) {
    this.sent.push(message);
    return true;
  }
  close() {
    this.closedByUs = true;
  }
  hear(message) {
    this.dispatchEvent(new CustomEvent("message", { detail: JSON.stringify(message) }));
  }
}

function connected({ replyTimeoutMs = 30_000 } = {}) {
  let clock = 5_000_000;
  const guest = new GuestSession({ offer: { seat: 1, token: "t".repeat(32) }, lang: "en", now: () => clock, replyTimeoutMs });
  const link = new FakeLink();
  guest.link = link;
  link.addEventListener("message", (event) => guest.receive(event.detail));
  link.addEventListener("close", () => guest.lost());
  guest.opened();
  clearInterval(guest.pinger); // the test calls tick() itself
  const events = [];
  for (const kind of ["silence", "change", "resync"]) guest.addEventListener(kind, () => events.push(`${kind}:${guest.hostSilent}:${guest.status}`));
  // time passing with the guest awake: its timer ticks every 4 s (`pass` jumps at once)
  const wait = (ms) => {
    for (let step = 0; step < ms; step += 4_000) {
      clock += 4_000;
      guest.tick();
    }
  };
  return { guest, link, events, wait, pass: (ms) => { clock += ms; } };
}

test("a silent host is waited for on the open link, and the game goes on when it speaks", () => {
  const { guest, link, events, wait } = connected();
  assert.equal(link.sent[0].type, "hello");
  assert.equal(link.sent[0].v, PROTOCOL_VERSION);
  wait(12_000);
  assert.equal(guest.hostSilent, false);
  wait(4_000); // 16 s without a word from the host (its phone asleep)
  assert.equal(guest.hostSilent, true);
  assert.equal(guest.status, "connected");
  assert.equal(link.closedByUs, false);
  assert.deepEqual(events, ["silence:true:connected"]);
  wait(32_000); // still silent: said once, the link kept, pings still going out
  assert.equal(events.length, 1);
  assert.equal(link.sent.filter((m) => m.type === "ping").length, 12);
  link.hear({ type: "pong" });
  assert.equal(guest.hostSilent, false);
  assert.equal(guest.status, "connected");
  assert.deepEqual(events, ["silence:true:connected", "silence:false:connected"]);
  guest.stop();
});

test("a move sent while the host is silent still goes out on the link", async () => {
  const { guest, link, wait } = connected();
  wait(20_000);
  assert.equal(guest.hostSilent, true);
  const reply = guest.apply(1, "bid 2").catch((error) => error);
  assert.equal(link.sent.at(-1).type, "move");
  assert.equal(link.sent.at(-1).move, "bid 2");
  guest.lost(); // the link fails after all: the move is answered with host_lost, not left hanging
  assert.equal((await reply).code, "host_lost");
});

test("the guest gives up when the link closes, or after two minutes of silence", () => {
  const one = connected();
  one.link.dispatchEvent(new CustomEvent("close", { detail: { wasOpen: true } }));
  assert.equal(one.guest.status, "lost");

  const two = connected();
  two.wait(120_000);
  assert.equal(two.guest.status, "connected");
  two.wait(4_000);
  assert.equal(two.guest.status, "lost");
  assert.equal(two.link.closedByUs, true);
  assert.equal(two.events.at(-1), "change:true:lost");
});

test("a silence the guest slept through is not the host's: it gets a fresh window", () => {
  const { guest, events, wait, pass } = connected();
  wait(8_000);
  pass(300_000); // the guest's phone locked for five minutes: no timer ran
  guest.tick();
  assert.equal(guest.status, "connected");
  assert.equal(guest.hostSilent, false);
  wait(12_000);
  assert.equal(guest.hostSilent, false);
  wait(4_000); // and still nothing from the host 16 s after waking: now it is the host's
  assert.equal(guest.hostSilent, true);
  assert.deepEqual(events, ["silence:true:connected"]);
  guest.stop();
});

const later = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const snap = (n, toMove) => ({ state: { n }, to_move: toMove, outcome: null, view: { seat: 1, n }, legal_moves: [] });

test("a move waits for a silent host past the reply time, and is answered when it wakes", async () => {
  const { guest, link, wait } = connected({ replyTimeoutMs: 20 });
  link.hear({ type: "state", n: 3, snap: snap(3, 1) });
  await later(5);
  wait(16_000);
  assert.equal(guest.hostSilent, true);
  let outcome = null;
  guest.apply(1, "draw").then((value) => { outcome = value; }, (error) => { outcome = error; });
  await later(80); // four reply times: still waiting, not refused
  assert.equal(outcome, null);
  link.hear({ type: "state", n: 4, snap: snap(4, 0), last: { seat: 1, move: "draw" } });
  await later(5);
  assert.equal(outcome.move, "draw");
  assert.equal(guest.n, 4);
  guest.stop();
});

test("a host that speaks but does not answer a move: no_reply; its late answer restarts the table", async () => {
  const { guest, link, events } = connected({ replyTimeoutMs: 20 });
  link.hear({ type: "state", n: 3, snap: snap(3, 1) });
  await later(5);
  const reply = guest.apply(1, "draw").catch((error) => error);
  assert.equal((await reply).code, "no_reply");
  assert.equal(guest.pendingMove, null);
  events.length = 0;
  // the host took the move after all: the table must not keep showing my turn
  link.hear({ type: "state", n: 4, snap: snap(4, 0), last: { seat: 1, move: "draw" } });
  await later(5);
  assert.deepEqual(events, ["resync:false:connected"]);
  assert.equal(guest.n, 4);
  assert.equal(guest.snap.to_move, 0);
  assert.equal(guest.queue.length, 0);
  // another seat's move after it is queued as usual
  link.hear({ type: "state", n: 5, snap: snap(5, 1), last: { seat: 0, move: "pass" } });
  await later(5);
  assert.equal(guest.queue.length, 1);
  guest.stop();
});
