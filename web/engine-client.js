// The page's side of the worker protocol (docs/CONTRACTS.md): one pending map keyed by request
// id, a timeout per request (counted from the moment the engine is ready), and events
// `boot` (progress), `ready`, `snapshot` and `fatal`.

const BOOT_TIMEOUT_MS = 120_000;
const DEFAULT_TIMEOUT_MS = 30_000;

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
  }

  start() {
    if (this.worker) return;
    const early = this.takeEarlyWorker();
    try {
      this.worker = early ? early.worker : new Worker(this.workerUrl, { type: "module" });
    } catch (error) {
      this.fail(`cannot start the worker: ${error}`);
      return;
    }
    this.worker.onmessage = (event) => this.receive(event.data);
    this.worker.onerror = (event) => {
      event.preventDefault?.();
      this.fail(`worker error: ${event.message || "script failed to load"}`);
    };
    this.bootTimer = setTimeout(() => this.fail("the engine did not start in time"), BOOT_TIMEOUT_MS);
    /** Whether boot.js started this worker, before the page's modules had loaded. */
    this.startedEarly = Boolean(early);
    if (early) {
      // What the worker said before the page took it over, in the order it said it.
      for (const message of early.messages) this.receive(message);
      if (early.error) this.fail(`worker error: ${early.error}`);
    }
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
      const entry = { resolve, reject, timeout, timer: null, op };
      this.pending.set(id, entry);
      if (this.status === "ready") this.arm(id, entry);
      this.worker.postMessage({ ...payload, id, op });
    });
  }

  arm(id, entry) {
    entry.timer = setTimeout(() => {
      this.pending.delete(id);
      entry.reject(new EngineError({ code: "timeout", message: `${entry.op} took longer than ${entry.timeout} ms` }));
    }, entry.timeout);
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
        games_loaded: data.games_loaded || [],
      };
      for (const [id, entry] of this.pending) this.arm(id, entry);
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
      this.dispatchEvent(new CustomEvent("progress", { detail: data }));
      return;
    }
    const entry = this.pending.get(data.id);
    if (!entry) return; // timed out earlier
    this.pending.delete(data.id);
    clearTimeout(entry.timer);
    if (data.ok) entry.resolve(data.result);
    else entry.reject(new EngineError(data.error || { code: "internal", message: "no error details" }));
  }

  fail(message) {
    if (this.status === "fatal") return;
    clearTimeout(this.bootTimer);
    this.status = "fatal";
    this.fatalMessage = message;
    for (const entry of this.pending.values()) {
      clearTimeout(entry.timer);
      entry.reject(new EngineError({ code: "fatal", message }));
    }
    this.pending.clear();
    this.dispatchEvent(new CustomEvent("fatal", { detail: { message } }));
  }
}
