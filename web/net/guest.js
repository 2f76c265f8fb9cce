// A guest's side of a table: answers the host's offer, says hello with the seat's token, sends
// its part of the seed once it has seen the host's commitment, and is the PlayScreen's driver:
// every other seat is "remote" (the host announces its moves), the guest's own move goes to the
// host, which answers with the new view or a coded refusal. At the end it checks the host's
// reveal and replays the whole game with its own engine (verify.js).
//
// A host that falls silent (its phone asleep or busy) is waited for on the open link, as the host
// waits for a silent guest: the guest says so ("silence" event, `hostSilent`) and carries on as
// soon as the host speaks again. It gives up only when the link itself closes (WebRTC reports a
// peer gone for good: its consent checks fail) or after HOST_GONE_MS of silence. A silence
// the guest slept through itself (its own timer came late: a locked phone runs none) is not the
// host's: the host gets a fresh window to be heard.

import { EngineError } from "../engine-client.js";
import { ScreenAwake } from "./awake.js";
import { dealCode, isPart, newPart } from "./commit.js";
import { encodeAnswer } from "./pairing.js";
import { parseHostMessage, PROTOCOL_VERSION } from "./protocol.js";
import { PeerLink, rtcConfig } from "./transport.js";

const PING_MS = 4_000;
const HOST_SILENCE_MS = 15_000;
const HOST_GONE_MS = 120_000;
const REPLY_TIMEOUT_MS = 30_000;
const PARTS_KEY = "tapete.guest.parts";

/** Canonical JSON (sorted keys), so a view hashes the same whoever wrote it. */
export function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

async function digest(value) {
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonical(value))));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function storedParts() {
  try {
    const parts = JSON.parse(localStorage.getItem(PARTS_KEY) || "{}");
    return parts && typeof parts === "object" ? parts : {};
  } catch {
    return {};
  }
}

export class GuestSession extends EventTarget {
  /** @param {{offer: object, name?: string, lang: string, iceServer?: object, now?: () => number, replyTimeoutMs?: number}} p */
  constructor({ offer, name = "", lang, iceServer = null, now = Date.now, replyTimeoutMs = REPLY_TIMEOUT_MS }) {
    super();
    this.offer = offer;
    this.seat = offer.seat;
    this.token = offer.token;
    this.name = name;
    this.lang = lang;
    this.link = new PeerLink(rtcConfig(iceServer));
    this.status = "answering"; // answering | waiting (answer shown) | connected | lost
    this.table = null;
    this.n = 0;
    this.snap = null;
    this.queue = [];
    this.waiter = null;
    this.pendingMove = null;
    this.asks = new Map();
    this.nextAsk = 1;
    // move number -> the hash of the view seen then (a promise: a state is taken at once, in
    // the order it came, and hashed meanwhile)
    this.views = new Map();
    this.part = null;
    this.commitment = null;
    this.parts = null;
    this.reveal = null;
    this.now = now;
    this.replyTimeoutMs = replyTimeoutMs;
    this.lastHeard = now();
    /** Whether the host has said nothing for HOST_SILENCE_MS (the link still open). */
    this.hostSilent = false;
    /** The screen kept on from the link's opening to the game's end (./awake.js). */
    this.awake = new ScreenAwake();
    /** Every message received, as text (tests check each against the other seats' cards). */
    this.received = [];
  }

  changed(kind = "change") {
    this.dispatchEvent(new Event(kind));
  }

  /** Make the answer; returns its code (for the QR code and the text to copy). */
  async answer() {
    const transport = await this.link.answer(this.offer.transport);
    this.answerCode = encodeAnswer({ seat: this.seat, pairing: this.offer.pairing, transport });
    this.status = "waiting";
    this.link.addEventListener("open", () => this.opened());
    this.link.addEventListener("message", (event) => this.receive(event.detail));
    this.link.addEventListener("close", () => this.lost());
    this.changed();
    return this.answerCode;
  }

  opened() {
    this.status = "connected";
    this.lastHeard = this.now();
    this.lastTick = this.lastHeard;
    const hello = { type: "hello", v: PROTOCOL_VERSION, seat: this.seat, token: this.token, lang: this.lang };
    if (this.name) hello.name = this.name;
    this.link.send(hello);
    this.pinger = setInterval(() => this.tick(), PING_MS);
    this.awake.hold();
    this.changed();
  }

  /** Every PING_MS while connected: a ping, and the host's silence checked. */
  tick() {
    this.link.send({ type: "ping" });
    const now = this.now();
    if (now - this.lastTick > 2 * PING_MS) this.lastHeard = Math.max(this.lastHeard, now);
    this.lastTick = now;
    const quiet = now - this.lastHeard;
    if (quiet > HOST_GONE_MS) return this.lost();
    if (quiet > HOST_SILENCE_MS && !this.hostSilent) {
      this.hostSilent = true;
      this.changed("silence");
    }
  }

  lost() {
    if (this.status === "lost") return;
    this.status = "lost";
    clearInterval(this.pinger);
    this.awake.release();
    this.link.close();
    const fail = new EngineError({ code: "host_lost" });
    if (this.pendingMove) this.pendingMove.reject(fail);
    this.pendingMove = null;
    for (const entry of this.asks.values()) entry.reject(fail);
    this.asks.clear();
    this.changed();
  }

  stop() {
    clearInterval(this.pinger);
    this.awake.release();
    this.status = "lost";
    this.link.close();
  }

  send(message) {
    return this.link.send({ ...message, seat: this.seat, token: this.token });
  }

  async receive(raw) {
    this.lastHeard = this.now();
    if (this.hostSilent) {
      this.hostSilent = false;
      this.changed("silence");
    }
    let message;
    try {
      message = parseHostMessage(raw);
    } catch {
      return; // nothing a host should send: ignore it
    }
    this.received.push(raw);
    if (message.type === "welcome") return this.welcomed(message);
    if (message.type === "table") return this.tableChanged(message.table);
    if (message.type === "state") return this.stateArrived(message);
    if (message.type === "refused") return this.refused(message);
    if (message.type === "answer") {
      const entry = this.asks.get(message.id);
      this.asks.delete(message.id);
      if (entry) entry.resolve(message.result);
      return;
    }
    if (message.type === "reveal") {
      this.awake.release(); // the game is over
      this.reveal = message;
      this.changed("reveal");
      return;
    }
    if (message.type === "error") {
      this.lastError = message.error;
      this.changed("error");
    }
  }

  async welcomed(message) {
    const first = !this.table || this.table.id !== message.table.id;
    await this.tableChanged(message.table);
    this.n = message.n;
    this.snap = message.snap || null;
    this.latest = this.snap;
    this.queue = [];
    if (this.snap?.view) this.views.set(this.n, digest(this.snap.view));
    if (message.reveal) {
      this.reveal = message.reveal;
      this.awake.release(); // back at a finished game
    }
    this.changed(first ? "welcome" : "resync");
    if (!first) this.changed("welcome");
  }

  async tableChanged(table) {
    if (!table || typeof table !== "object") return;
    this.table = table;
    const key = `${table.id}:${this.seat}`;
    // what this device saw before the deal is kept, so a rejoin still checks the first commitment
    const known = storedParts()[key];
    if (!this.commitment) this.commitment = known && typeof known === "object" && known.commitment ? known.commitment : table.commitment;
    if (table.parts && !this.parts) {
      this.parts = table.parts;
      this.dealCode = await dealCode(this.commitment, table.parts);
    }
    // my part of the seed, sent only after seeing the commitment (kept for a rejoin)
    if (!table.parts && typeof table.commitment === "string" && this.status === "connected") {
      const parts = storedParts();
      if (!parts[key] || !isPart(parts[key].part)) {
        parts[key] = { part: newPart(), commitment: this.commitment };
        // at most a few tables are kept
        for (const old of Object.keys(parts).slice(0, -8)) delete parts[old];
        try {
          localStorage.setItem(PARTS_KEY, JSON.stringify(parts));
        } catch { /* private mode: the part lives in memory */ }
      }
      this.part = parts[key].part;
      if (!this.partSent) {
        this.partSent = true;
        this.send({ type: "part", part: this.part });
      }
    } else if (table.parts && !this.part) {
      this.part = known && isPart(known.part) ? known.part : null;
    }
    this.changed("table");
  }

  /** A new state from the host (synchronous: states are taken in the order they came). */
  stateArrived(message) {
    this.latest = message.snap;
    if (message.snap.view) this.views.set(message.n, digest(message.snap.view));
    // my own move, taken by the host after this guest stopped waiting for it (no_reply): the
    // table shows it is still my turn, so start over from this state, as after a jump
    const late = !this.pendingMove && message.last?.seat === this.seat && message.n === this.n + this.queue.length + 1;
    if (this.snap === null || message.n !== this.n + this.queue.length + 1 || late) {
      // the first deal, or a jump (the host reloaded): start over from this state
      this.n = message.n;
      this.snap = message.snap;
      this.queue = [];
      this.changed("resync");
      return;
    }
    const step = { seat: message.last?.seat ?? null, move: message.last?.move ?? null, result: message.snap, n: message.n };
    if (this.pendingMove && message.n === this.pendingMove.after + 1) {
      const pending = this.pendingMove;
      this.pendingMove = null;
      this.n = message.n;
      pending.resolve({ move: step.move ?? pending.move, result: step.result });
      return;
    }
    this.queue.push(step);
    const waiter = this.waiter;
    this.waiter = null;
    if (waiter) waiter();
  }

  refused(message) {
    if (message.ask) {
      const entry = this.asks.get(message.ref);
      this.asks.delete(message.ref);
      if (entry) entry.reject(new EngineError(message.error));
      return;
    }
    if (this.pendingMove && message.ref === this.pendingMove.after) {
      const pending = this.pendingMove;
      this.pendingMove = null;
      pending.reject(new EngineError(message.error));
      return;
    }
    this.lastError = message.error;
    this.changed("error");
  }

  /** Calls `fail` when a request has had no answer for the reply time while the host spoke
   * (a host that answers pings but not this). While the host is silent the request waits on:
   * its link is open and the host answers once awake; the link's close, or HOST_GONE_MS of
   * silence, rejects it (lost()). Returns the function that cancels the timer. */
  replyTimer(fail) {
    let timer;
    const arm = () => {
      timer = setTimeout(() => (this.hostSilent && this.status === "connected" ? arm() : fail()), this.replyTimeoutMs);
    };
    arm();
    return () => clearTimeout(timer);
  }

  // -- the PlayScreen driver ------------------------------------------------------------------

  async remoteMove() {
    while (!this.queue.length) {
      await new Promise((resolve) => {
        this.waiter = resolve;
      });
    }
    const step = this.queue.shift();
    this.n = step.n;
    return step;
  }

  apply(seat, move) {
    if (this.status !== "connected") return Promise.reject(new EngineError({ code: "host_lost" }));
    const after = this.n;
    return new Promise((resolve, reject) => {
      const cancel = this.replyTimer(() => {
        if (this.pendingMove?.after === after) this.pendingMove = null;
        reject(new EngineError({ code: "no_reply" }));
      });
      this.pendingMove = {
        after,
        move,
        resolve: (value) => { cancel(); resolve(value); },
        reject: (error) => { cancel(); reject(error); },
      };
      this.send({ type: "move", after, move });
    });
  }

  ask(op, fields = {}) {
    if (this.status !== "connected") return Promise.reject(new EngineError({ code: "host_lost" }));
    const id = this.nextAsk++;
    return new Promise((resolve, reject) => {
      const cancel = this.replyTimer(() => {
        this.asks.delete(id);
        reject(new EngineError({ code: "no_reply" }));
      });
      this.asks.set(id, {
        resolve: (value) => { cancel(); resolve(value); },
        reject: (error) => { cancel(); reject(error); },
      });
      const message = { type: "ask", id, after: this.n, op };
      if (fields.move !== undefined) message.move = fields.move;
      if (fields.tiles !== undefined) message.tiles = fields.tiles;
      this.send(message);
    });
  }

  committed() {}
}

export { digest as viewDigest };
