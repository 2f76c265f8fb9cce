// The host's table session: one paired data channel per remote seat, the seat tokens, the seed
// commitment, and the PlayScreen driver for remote seats. The host's engine is the only
// authority: a guest's move is checked (channel seat, token, move number, rate) and then
// `apply`ed; each guest gets only `view(state, its seat)` and its legal moves, never the state,
// never another seat's move before the game is over (a hidden bid is a move too).
//
// Seat statuses: "open" (no device yet), "pairing" (an offer is out), "connected", "missing"
// (it was connected and dropped: a fresh pairing for that seat, same token, brings it back).

import { ScreenAwake } from "./awake.js";
import { commitment, dealCode, deriveSeed, isPart, newPart } from "./commit.js";
import { decodeCode, encodeOffer, joinLink, newPairingId, PairingError } from "./pairing.js";
import { checkSender, newToken, parseGuestMessage, PROTOCOL_VERSION, ProtocolError, publicError, RateLimiter } from "./protocol.js";
import { PeerLink, rtcConfig } from "./transport.js";

const SAVE_KEY = "tapete.table";
/** A guest is missing when nothing came from it for this long (it pings every 4 s). */
const SILENCE_MS = 15_000;
/** The host's own clock tick; one this late means the host itself was asleep (a locked phone). */
const TICK_MS = 1_000;
const TICK_LATE_MS = 5_000;
const INPUT_ERRORS = ["illegal_move", "invalid_move", "not_your_turn", "game_over", "bad_request", "bad_state"];

/**
 * @typedef {object} TableSetup
 * @property {string} game
 * @property {object} options
 * @property {number} players
 * @property {{kind: "human"|"bot", remote?: boolean, level?: string, name?: string}[]} seats
 * @property {{missing: "wait"|"bot", timeout_s: number, bot_level: string}} policy
 * @property {{urls: string, username?: string, credential?: string} | null} ice_server
 */

export class HostSession extends EventTarget {
  /**
   * @param {{engine: any, setup: TableSetup, saved?: object, now?: () => number}} p
   */
  constructor({ engine, setup, saved = null, now = () => Date.now() }) {
    super();
    this.engine = engine;
    this.now = now;
    this.setup = setup;
    this.id = saved ? saved.id : newPart().slice(0, 12);
    this.secret = saved ? saved.secret : newPart();
    this.commitment = saved ? saved.commitment : null;
    this.seed = saved ? saved.seed : null;
    this.parts = saved ? saved.parts : null;
    this.dealCode = saved ? saved.deal_code : null;
    /** @type {{record: object, snap: object, viewer: number|null, shown: number|null} | null} */
    this.game = null;
    this.remote = new Map(); // seat -> remote seat state
    setup.seats.forEach((seat, index) => {
      if (!seat.remote) return;
      const kept = saved?.remote?.[index];
      this.remote.set(index, {
        seat: index,
        token: kept ? kept.token : newToken(),
        part: kept ? kept.part : null,
        name: kept ? kept.name : seat.name || "",
        lang: kept ? kept.lang : null,
        status: "open",
        link: null,
        pairing: null,
        code: null,
        lastSeen: 0,
        missingSince: saved ? now() : null,
        limiter: new RateLimiter({ rate: 20, burst: 40, now }),
        replies: new RateLimiter({ rate: 4, burst: 8, now }),
        inbox: null,
        waiter: null,
        botNow: false,
        asking: false,
      });
    });
    this.sendChain = Promise.resolve();
    this.stopped = false;
    this.tampered = null; // tests only: {seat: fields} sent in that seat's reveal instead
    this.lastTick = this.now();
    this.ticker = setInterval(() => this.tick(), TICK_MS);
    // the host's screen stays on while the table lives: every guest waits when it locks
    this.awake = new ScreenAwake();
    this.away = false; // the host's page shows another screen than the table
    this.over = false;
    this.keepAwake();
  }

  async init() {
    if (!this.commitment) this.commitment = await commitment(this.secret);
    return this;
  }

  stop() {
    this.stopped = true;
    clearInterval(this.ticker);
    this.awake.release();
    for (const seat of this.remote.values()) seat.link?.close();
  }

  /**
   * Hold the screen on while the table lives, until its game is over, and while the table is
   * shown or a guest has joined it (a guest waits for a host whose screen locks). A host who
   * went back to the home screen with nobody paired lets the screen lock again.
   */
  keepAwake() {
    const joined = [...this.remote.values()].some((seat) => seat.status === "connected" || seat.status === "missing");
    if (!this.stopped && !this.over && (!this.away || joined)) this.awake.hold();
    else this.awake.release();
  }

  /** The table's screen was left for another (`away`), or shown again. */
  setAway(away) {
    this.away = away;
    this.keepAwake();
  }

  changed() {
    this.keepAwake();
    this.dispatchEvent(new Event("change"));
  }

  // -- pairing ---------------------------------------------------------------------------------

  /** A fresh offer for a remote seat (the old link of that seat stops working). */
  async pairSeat(index) {
    const seat = this.remote.get(index);
    if (!seat) throw new Error(`seat ${index} is not remote`);
    seat.link?.close();
    const link = new PeerLink(rtcConfig(this.setup.ice_server));
    seat.link = link;
    seat.pairing = newPairingId();
    seat.status = seat.status === "connected" || seat.status === "missing" || this.game ? "missing" : "pairing";
    if (seat.status === "missing" && !seat.missingSince) seat.missingSince = this.now();
    const transport = await link.offer();
    if (seat.link !== link) return seat; // paired again meanwhile
    seat.code = encodeOffer({ seat: index, pairing: seat.pairing, token: seat.token, transport });
    seat.joinUrl = joinLink(location.href, seat.code);
    link.addEventListener("message", (event) => this.receive(seat, link, event.detail));
    link.addEventListener("close", () => {
      if (seat.link !== link) return;
      if (seat.status === "connected") {
        seat.status = "missing";
        seat.missingSince = this.now();
        this.publishTable();
      }
      this.changed();
    });
    this.changed();
    return seat;
  }

  /** Take a guest's answer (scanned or pasted); returns the seat it paired. Throws PairingError. */
  async acceptAnswer(text) {
    const decoded = decodeCode(text);
    if (decoded.kind !== "answer") throw new PairingError("not_answer", "this is a join link, not an answer");
    const { answer } = decoded;
    const seat = this.remote.get(answer.seat);
    if (!seat || !seat.link) throw new PairingError("unknown_seat", "no offer is out for that seat");
    if (answer.pairing !== seat.pairing) throw new PairingError("stale_answer", "an answer to an older link of that seat");
    if (seat.link.pc.signalingState !== "have-local-offer") throw new PairingError("used_answer", "that seat's link was answered already");
    await seat.link.accept(answer.transport);
    // The guest's hello may come before accept() resolves: the data channel can open (and its
    // first message arrive) before setRemoteDescription's promise settles, on a loaded device
    // most of all. A seat that said hello meanwhile stays connected.
    if (seat.status !== "connected") seat.status = seat.status === "missing" ? "missing" : "pairing";
    this.changed();
    const link = seat.link;
    link.opened().catch(() => {
      if (seat.link === link && seat.status !== "connected") {
        seat.failed = true;
        this.changed();
      }
    });
    return answer.seat;
  }

  // -- messages from guests ---------------------------------------------------------------------

  reply(seat, link, message, { limited = false } = {}) {
    if (limited && !seat.replies.take()) return;
    link.send(message);
  }

  receive(seat, link, raw) {
    if (this.stopped || seat.link !== link) return;
    seat.lastSeen = this.now();
    if (!seat.limiter.take()) {
      this.reply(seat, link, { type: "error", error: { code: "rate_limited" } }, { limited: true });
      return;
    }
    let message;
    try {
      message = parseGuestMessage(raw);
      if (message.type !== "ping") checkSender(message, { seat: seat.seat, token: seat.token });
    } catch (error) {
      const info = error instanceof ProtocolError ? error.toJSON() : { code: "bad_message" };
      this.reply(seat, link, { type: "error", error: publicError(info) }, { limited: true });
      return;
    }
    // A seat marked missing because it fell silent (a busy or throttled phone), whose own link
    // speaks again: it is back, and gets the whole table afresh (it missed what was sent).
    if (seat.status === "missing" && message.type !== "hello") this.back(seat, link);
    if (message.type === "ping") return this.reply(seat, link, { type: "pong" });
    if (message.type === "hello") return this.hello(seat, link, message);
    if (message.type === "part") return this.takePart(seat, link, message);
    if (message.type === "move") return this.takeMove(seat, link, message);
    if (message.type === "ask") return this.answerAsk(seat, link, message);
  }

  async hello(seat, link, message) {
    if (message.name !== undefined) {
      const { cleanName } = await import("../store.js");
      seat.name = cleanName(message.name) || seat.name;
    }
    if (message.lang) seat.lang = message.lang;
    seat.status = "connected";
    seat.failed = false;
    seat.missingSince = null;
    seat.botNow = false;
    link.send(await this.welcome(seat.seat));
    this.publishTable(seat.seat);
    this.save();
    this.changed();
  }

  /** A silent seat heard from again on its link: connected, resynchronised with a welcome. */
  async back(seat, link) {
    seat.status = "connected";
    seat.missingSince = null;
    seat.botNow = false;
    const welcome = await this.welcome(seat.seat);
    if (seat.link === link) link.send(welcome);
    this.publishTable(seat.seat);
    this.changed();
  }

  takePart(seat, link, message) {
    if (this.parts) {
      if (seat.part === message.part) return;
      return this.reply(seat, link, { type: "error", error: { code: "too_late" } }, { limited: true });
    }
    if (seat.part && seat.part !== message.part) return this.reply(seat, link, { type: "error", error: { code: "part_locked" } }, { limited: true });
    seat.part = message.part;
    this.save();
    this.changed();
  }

  takeMove(seat, link, message) {
    const refuse = (error) => this.reply(seat, link, { type: "refused", ref: message.after, error: publicError(error) }, { limited: true });
    const game = this.game;
    if (!game) return refuse({ code: "not_started" });
    try {
      checkSender(message, { seat: seat.seat, token: seat.token, moves: game.record.moves.length });
    } catch (error) {
      return refuse(error.toJSON());
    }
    if (game.snap.outcome) return refuse({ code: "game_over" });
    if (game.snap.to_move !== seat.seat) return refuse({ code: "not_your_turn" });
    if (seat.inbox) return refuse({ code: "busy" });
    seat.inbox = { move: message.move, after: message.after };
    this.wake(seat);
  }

  async answerAsk(seat, link, message) {
    const refuse = (error) => this.reply(seat, link, { type: "refused", ref: message.id, ask: true, error: publicError(error) }, { limited: true });
    const game = this.game;
    if (!game) return refuse({ code: "not_started" });
    if (seat.asking) return refuse({ code: "busy" });
    try {
      checkSender(message, { seat: seat.seat, token: seat.token, moves: game.record.moves.length });
    } catch (error) {
      return refuse(error.toJSON());
    }
    seat.asking = true;
    try {
      const fields = { game: game.record.game, state: game.snap.state, seat: seat.seat };
      if (message.move !== undefined) fields.move = message.move;
      if (message.tiles !== undefined) fields.tiles = message.tiles;
      const result = await this.engine.call(message.op, fields, { timeout: 60_000 });
      if (seat.link === link) link.send({ type: "answer", id: message.id, result });
    } catch (error) {
      refuse(error.info || { code: error.code || "internal" });
    } finally {
      seat.asking = false;
    }
  }

  // -- the table as guests see it -----------------------------------------------------------------

  publicTable() {
    return {
      id: this.id,
      game: this.setup.game,
      options: this.game ? this.game.record.options : this.setup.options,
      players: this.setup.players,
      seats: this.setup.seats.map((seat, index) => {
        const remote = this.remote.get(index);
        const out = { kind: seat.kind, remote: Boolean(remote) };
        if (seat.kind === "bot") out.level = seat.level;
        const name = remote ? remote.name : seat.name;
        if (name) out.name = name;
        if (remote) out.present = remote.status === "connected";
        return out;
      }),
      commitment: this.commitment,
      parts: this.parts,
      deal_code: this.dealCode,
      started: Boolean(this.game),
    };
  }

  async seatSnap(seat) {
    const game = this.game;
    const result = await this.engine.call("view", { game: game.record.game, state: game.snap.state, seat });
    const { state: _state, ...snap } = result;
    return snap;
  }

  async welcome(seat) {
    const message = { type: "welcome", v: PROTOCOL_VERSION, seat, table: this.publicTable(), n: 0 };
    if (this.game) {
      message.n = this.game.record.moves.length;
      message.snap = await this.seatSnap(seat);
      if (this.game.snap.outcome) message.reveal = this.revealMessage(seat);
    }
    return message;
  }

  /** Tell every connected guest (but `except`) who is at the table. */
  publishTable(except = -1) {
    const table = this.publicTable();
    for (const seat of this.remote.values()) {
      if (seat.seat !== except && seat.status === "connected") seat.link.send({ type: "table", table });
    }
  }

  /** Whether every remote seat has a device and has sent its part of the seed. */
  readyToDeal() {
    return [...this.remote.values()].every((seat) => seat.status === "connected" && isPart(seat.part));
  }

  /** The seed from every part; the engine deals. Returns the new game's snapshot request. */
  async deal() {
    this.parts = [...this.remote.values()].map((seat) => [seat.seat, seat.part]);
    this.seed = await deriveSeed(this.secret, this.parts);
    this.dealCode = await dealCode(this.commitment, this.parts);
    return this.seed;
  }

  /** The game the PlayScreen plays (after the deal, or restored). */
  attach(game) {
    this.game = game;
    this.save();
    this.publishTable();
    this.broadcast(game);
  }

  /** The end of the game: the secret, the seed, and every move (all public now). */
  revealMessage(seat = null) {
    const reveal = { type: "reveal", secret: this.secret, seed: this.seed, parts: this.parts, moves: this.game.record.moves, outcome: this.game.snap.outcome };
    const tampered = this.tampered && seat !== null ? this.tampered[seat] : null; // tests: a lying host
    return tampered ? { ...reveal, ...tampered } : reveal;
  }

  /** After every move: each connected guest gets its own view, in move order. */
  broadcast(game) {
    const n = game.record.moves.length;
    const last = n ? game.record.moves[n - 1] : null;
    const state = game.snap.state;
    const over = Boolean(game.snap.outcome);
    if (over) {
      this.over = true;
      this.keepAwake();
    }
    const targets = [...this.remote.values()].filter((seat) => seat.status === "connected");
    this.sendChain = this.sendChain.then(async () => {
      for (const seat of targets) {
        try {
          const result = await this.engine.call("view", { game: game.record.game, state, seat: seat.seat });
          const { state: _state, ...snap } = result;
          // another seat's move stays unknown until the end (a hidden bid is a move)
          const shown = last ? (last.seat === seat.seat ? { seat: last.seat, move: last.move } : { seat: last.seat }) : null;
          seat.link.send({ type: "state", n, last: shown, snap });
          if (over) seat.link.send(this.revealMessage(seat.seat));
        } catch (error) {
          console.error("tapete: a view for a guest failed", error);
        }
      }
    });
    return this.sendChain;
  }

  // -- the PlayScreen driver ------------------------------------------------------------------

  viewFields(game) {
    return game.viewer === null ? { view_public: true } : { view_seat: game.viewer };
  }

  wake(seat) {
    const waiter = seat.waiter;
    seat.waiter = null;
    if (waiter) waiter();
  }

  /** Whether a bot should play this seat now (its device is missing and the host chose so). */
  botPlays(seat) {
    if (seat.status === "connected") return false;
    if (seat.botNow) return true;
    const policy = this.setup.policy;
    return policy.missing === "bot" && seat.missingSince !== null && this.now() - seat.missingSince >= policy.timeout_s * 1000;
  }

  /** The next move of a remote seat: its guest's, checked by the engine, or a bot's. */
  async remoteMove(index, game) {
    const seat = this.remote.get(index);
    for (;;) {
      if (this.stopped) return new Promise(() => {});
      if (seat.inbox) {
        const entry = seat.inbox;
        seat.inbox = null;
        try {
          const result = await this.engine.call("apply", { game: game.record.game, state: game.snap.state, seat: index, move: entry.move, ...this.viewFields(game) });
          return { seat: index, move: entry.move, result };
        } catch (error) {
          if (!INPUT_ERRORS.includes(error.code)) throw error;
          if (seat.link) this.reply(seat, seat.link, { type: "refused", ref: entry.after, error: publicError(error.info || { code: error.code }) });
          continue;
        }
      }
      if (this.botPlays(seat)) {
        const result = await this.engine.call("bot_move", {
          game: game.record.game, state: game.snap.state, seat: index, level: this.setup.policy.bot_level,
          bot_seed: game.record.moves.length, ...this.viewFields(game),
        }, { timeout: 180_000 });
        return { seat: index, move: result.move, result };
      }
      this.waitingFor = index;
      this.changed();
      await new Promise((resolve) => {
        seat.waiter = resolve;
      });
      this.waitingFor = null;
    }
  }

  /** A move of a player at the host device. */
  async apply(seat, move, game) {
    const result = await this.engine.call("apply", { game: game.record.game, state: game.snap.state, seat, move, ...this.viewFields(game) });
    return { move, result };
  }

  ask(op, fields, game) {
    return this.engine.call(op, { game: game.record.game, state: game.snap.state, seat: game.viewer, ...fields }, op === "hint" ? { timeout: 120_000 } : {});
  }

  committed(game) {
    this.save();
    this.broadcast(game);
    this.changed();
  }

  /** Let a bot play a missing seat now (the host's button), until its player is back. */
  letBotPlay(index) {
    const seat = this.remote.get(index);
    if (!seat || seat.status === "connected") return;
    seat.botNow = true;
    this.wake(seat);
    this.changed();
  }

  tick() {
    if (this.stopped) return;
    const now = this.now();
    // A silence the host slept through is its own, not the guests': each gets a fresh window
    // (their pings, queued while it slept, arrive now) instead of being marked missing at once.
    const slept = now - this.lastTick > TICK_LATE_MS;
    this.lastTick = now;
    for (const seat of this.remote.values()) {
      if (slept && seat.status === "connected") seat.lastSeen = Math.max(seat.lastSeen, now);
      if (seat.status === "connected" && now - seat.lastSeen > SILENCE_MS) {
        seat.status = "missing";
        seat.missingSince = now;
        this.publishTable();
        this.changed();
      }
      if (seat.waiter && this.botPlays(seat)) this.wake(seat);
    }
  }

  // -- saving -----------------------------------------------------------------------------------

  toJSON() {
    const remote = {};
    for (const [index, seat] of this.remote) remote[index] = { token: seat.token, part: seat.part, name: seat.name, lang: seat.lang };
    return {
      id: this.id, setup: this.setup, secret: this.secret, commitment: this.commitment, seed: this.seed,
      parts: this.parts, deal_code: this.dealCode, remote, record: this.game ? this.game.record : null,
    };
  }

  save() {
    if (this.game?.snap.outcome) return clearTable();
    try {
      localStorage.setItem(SAVE_KEY, JSON.stringify(this.toJSON()));
    } catch { /* storage full or blocked: the game goes on */ }
  }
}

/** The saved table of this device (a host reload resumes it), or null. */
export function loadTable() {
  let saved;
  try {
    saved = JSON.parse(localStorage.getItem(SAVE_KEY) || "null");
  } catch {
    return null;
  }
  if (!saved || typeof saved !== "object" || !saved.setup || !Array.isArray(saved.setup.seats) || typeof saved.secret !== "string") return null;
  return saved;
}

export function clearTable() {
  try {
    localStorage.removeItem(SAVE_KEY);
  } catch { /* ignore */ }
}
