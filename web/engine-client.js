// The page's side of the worker protocol (docs/CONTRACTS.md): one pending map keyed by request
// id, a watchdog on the request the worker is busy with, and events `boot` (progress), `ready`,
// `snapshot`, `restart` and `fatal`.
//
// The worker answers requests one at a time, in order. The request at the head of the queue may
// go `timeout` ms without answering or reporting progress; past that the worker is stuck: the
// client terminates it, starts a new one (which restores the memory snapshot when there is one),
// rejects that request with code `stuck`, sends the others again, and says `restart`. The page
// keeps the game in progress (it holds the state), tells the player, and goes on.

const BOOT_TIMEOUT_MS = 120_000;
const DEFAULT_TIMEOUT_MS = 30_000;
const QUIET_TIMEOUT_MS = 120_000; // a snapshot's write on a slow disk; sw-update.js waits less
// e2e tests shrink every timeout (a page never sets it); 1 in a real visit
const TIMEOUT_SCALE = Number(globalThis.tapeteTimeoutScale) > 0 ? Number(globalThis.tapeteTimeoutScale) : 1;

/** An error answered by the engine: {code, message, reason?, ...details}. */
export class EngineError extends Error {
  /** @param {{code: string, message?: string, reason?: string}} info */
  constructor(info) {
    super(info.message || info.code);
    this.name = "EngineError";
    this.code = info.code;
    this.reason = info.reason;
    this.info = info;
  }
}

export class EngineClient extends EventTarget {
  /** @param {{workerUrl?: string}} [options] */
  constructor({ workerUrl = "worker.js" } = {}) {
    super();
    this.workerUrl = new URL(workerUrl, document.baseURI);
    /** @type {"booting" | "ready" | "fatal"} */
    this.status = "booting";
    this.info = null;
    /** The worker's last {op: "snapshot", ok, ...} message, if any. */
    this.snapshot = null;
    this.bootStage = { stage: "runtime", done: 0, total: 1 };
    this.nextId = 1;
    /** @type {Map<number, {resolve: Function, reject: Function, timeout: number, timer: any, op: string}>} */
    this.pending = new Map();
    this.worker = null;
    this.bootTimer = null;
    this.watchdog = null;
    /** How many times a stuck worker was replaced. */
    this.restarts = 0;
  }

  start() {
    if (this.worker) return;
    const early = this.takeEarlyWorker();
    this.spawn(early);
    /** Whether boot.js started this worker, before the page's modules had loaded. */
    this.startedEarly = Boolean(early);
  }

  /** Start a worker (or take over boot.js's) and listen to it. */
  spawn(early = null) {
    try {
      this.worker = early ? early.worker : new Worker(this.workerUrl, { type: "module" });
    } catch (error) {
      this.fail(`cannot start the worker: ${error}`);
      return;
    }
    const worker = this.worker;
    worker.onmessage = (event) => {
      if (worker === this.worker) this.receive(event.data);
    };
    worker.onerror = (event) => {
      event.preventDefault?.();
      if (worker === this.worker) this.fail(`worker error: ${event.message || "script failed to load"}`);
    };
    this.bootTimer = setTimeout(() => this.fail("the engine did not start in time"), BOOT_TIMEOUT_MS * TIMEOUT_SCALE);
    if (early) {
      // What the worker said before the page took it over, in the order it said it.
      for (const message of early.messages) this.receive(message);
      if (early.error) this.fail(`worker error: ${early.error}`);
    }
  }

  /**
   * The worker is stuck on request `id`: a new worker takes over; that request fails with
   * code `stuck`, the others are sent again. Listeners of `restart` tell the player.
   */
  restart(id) {
    const stuck = this.pending.get(id);
    clearTimeout(this.watchdog);
    clearTimeout(this.bootTimer);
    this.worker.terminate();
    this.restarts += 1;
    this.status = "booting";
    this.bootStage = { stage: "runtime", done: 0, total: 1 };
    if (stuck) {
      this.pending.delete(id);
      stuck.reject(new EngineError({ code: "stuck", message: `${stuck.op} made no progress for ${stuck.timeout} ms` }));
    }
    this.spawn();
    for (const [, entry] of this.pending) this.worker.postMessage(entry.message);
    this.dispatchEvent(new CustomEvent("restart", { detail: { op: stuck && stuck.op, restarts: this.restarts } }));
  }

  /** The worker boot.js started while the page's modules loaded, if it is this client's. */
  takeEarlyWorker() {
    const early = globalThis.tapeteEarlyWorker;
    if (!early || this.workerUrl.href !== new URL("worker.js", document.baseURI).href) return null;
    delete globalThis.tapeteEarlyWorker;
    return early;
  }

  /** A promise resolved when the engine is ready (rejected if it dies). */
  whenReady() {
    if (this.status === "ready") return Promise.resolve(this.info);
    if (this.status === "fatal") return Promise.reject(new EngineError({ code: "fatal", message: this.fatalMessage }));
    return new Promise((resolve, reject) => {
      this.addEventListener("ready", () => resolve(this.info), { once: true });
      this.addEventListener("fatal", () => reject(new EngineError({ code: "fatal", message: this.fatalMessage })), { once: true });
    });
  }

  /**
   * Before the page reloads into a new version: the worker makes no memory snapshot any more
   * and finishes the one it is writing (resolves then; at once when the engine is not ready).
   */
  quiet() {
    if (this.status !== "ready") return Promise.resolve();
    return this.call("quiet", {}, { timeout: QUIET_TIMEOUT_MS }).then(() => undefined, () => undefined);
  }

  /**
   * Send one request; resolves with `result`, rejects with an EngineError.
   * @param {string} op
   * @param {object} [payload]
   * @param {{timeout?: number}} [options]
   */
  call(op, payload = {}, { timeout = DEFAULT_TIMEOUT_MS } = {}) {
    if (this.status === "fatal") {
      return Promise.reject(new EngineError({ code: "fatal", message: this.fatalMessage }));
    }
    this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const message = { ...payload, id, op };
      const entry = { resolve, reject, timeout: timeout * TIMEOUT_SCALE, op, message };
      this.pending.set(id, entry);
      this.worker.postMessage(message);
      if (this.pending.size === 1) this.watch();
    });
  }

  /** Arm the watchdog on the request the worker is busy with (the oldest pending one), once the
   * engine is ready; an answer or a progress message of it re-arms it. */
  watch() {
    clearTimeout(this.watchdog);
    if (this.status !== "ready" || !this.pending.size) return;
    const [id, entry] = this.pending.entries().next().value;
    this.watchdog = setTimeout(() => this.restart(id), entry.timeout);
  }

  receive(data) {
    if (!data || typeof data !== "object") return;
    if (data.op === "boot") {
      this.bootStage = { stage: data.stage, done: data.done, total: data.total };
      this.dispatchEvent(new CustomEvent("boot", { detail: this.bootStage }));
      return;
    }
    if (data.op === "ready") {
      clearTimeout(this.bootTimer);
      this.status = "ready";
      this.info = {
        engine_version: data.engine_version,
        pyodide_version: data.pyodide_version,
        start: data.start,
        snapshot_error: data.snapshot_error,
        timings: data.timings,
        fetches: data.fetches,
        games_loaded: data.games_loaded || [],
      };
      this.watch();
      this.dispatchEvent(new CustomEvent("ready", { detail: this.info }));
      return;
    }
    if (data.op === "fatal") {
      this.fail(data.message || "the engine stopped");
      return;
    }
    if (data.op === "snapshot") {
      this.snapshot = data; // the worker saved (or could not save) its memory snapshot
      this.dispatchEvent(new CustomEvent("snapshot", { detail: data }));
      return;
    }
    if (data.op === "progress") {
      if (this.pending.keys().next().value === data.id) this.watch(); // it is moving
      this.dispatchEvent(new CustomEvent("progress", { detail: data }));
      return;
    }
    const entry = this.pending.get(data.id);
    if (!entry) return; // given up earlier
    this.pending.delete(data.id);
    this.watch();
    if (data.ok) entry.resolve(data.result);
    else entry.reject(new EngineError(data.error || { code: "internal", message: "no error details" }));
  }

  fail(message) {
    if (this.status === "fatal") return;
    clearTimeout(this.bootTimer);
    clearTimeout(this.watchdog);
    this.status = "fatal";
    this.fatalMessage = message;
    for (const entry of this.pending.values()) entry.reject(new EngineError({ code: "fatal", message }));
    this.pending.clear();
    this.dispatchEvent(new CustomEvent("fatal", { detail: { message } }));
  }
}
