// Module worker: starts Pyodide with the engine installed, and answers requests with
// tapete.api.handle. Only JSON strings cross into Python and back.
//
// Start-up (docs/CONTRACTS.md, "Start-up and snapshots"):
// - the standard library comes precompiled (build.json `stdlib`, passed as stdLibURL), and the
//   engine wheel carries .pyc files too; the wheel is fetched and unzipped here while Pyodide
//   loads, and its files are written into site-packages before Python starts (fsInit);
// - the first start (`start: "plain"`) runs with `_makeSnapshot`; once the worker has been
//   idle for a moment it saves a memory snapshot (engine imported) in the Cache API, under
//   build.json's `snapshot_key` (Pyodide version + stdlib zip + wheel + this file);
// - later starts restore that snapshot (`start: "snapshot"`), after checking its key, length
//   and SHA-256 (reading and checking it overlap with loading Pyodide). Anything wrong with it
//   (missing, other build, corrupt, truncated, refused by the browser, failing to restore)
//   means a plain start and, where it can help, a new snapshot.

const SNAPSHOT_CACHE = "tapete.snapshot"; // not "tapete-*": sw.js deletes those on updates
const SNAPSHOT_REQUEST = new URL("tapete-memory-snapshot", self.location.href).href;
const IDLE_MS = 1000; // no request for this long: the worker may save the snapshot
const MAX_SNAPSHOT_BYTES = 96 * 1024 * 1024; // a heap grown by a long search is not worth saving

/** Requests that arrive before Python is ready wait here, in order. */
const queue = [];
/** @type {((request: string, progress?: Function) => string) | null} */
let handle = null;
let dead = false;
/** Set while a snapshot may still be made: {pyodide, key}. */
let pendingSnapshot = null;
let idleTimer = null;
/** The snapshot being written, if any (a promise that never rejects). */
let saving = null;
/** Set by a "quiet" request: the page is about to reload, so no snapshot is made any more. */
let quieted = false;

// Set before any await: a message sent while we boot must not be lost.
self.onmessage = (event) => {
  if (event.data && event.data.op === "quiet") {
    quiet(event.data.id);
    return;
  }
  if (handle) answer(event.data);
  else queue.push(event.data);
  whenIdle();
};

function post(message) {
  self.postMessage(message);
}

function answer(request) {
  const id = request && typeof request === "object" ? request.id : undefined;
  if (dead) {
    post({ id, ok: false, error: { code: "fatal", message: "the engine has stopped" } });
    return;
  }
  try {
    const progress = (done, total) => post({ op: "progress", id, done, total });
    const text = handle(JSON.stringify(request), progress);
    const reply = JSON.parse(text);
    reply.id = id;
    post(reply);
  } catch (error) {
    const python = error && error.constructor && error.constructor.name === "PythonError";
    post({ id, ok: false, error: { code: "internal", message: String(error && error.message || error) } });
    if (!python) die(`engine crashed: ${error}`);
  }
}

function die(message) {
  if (dead) return;
  dead = true;
  post({ op: "fatal", message });
}

const errorText = (error) => String((error && error.message) || error).split("\n")[0].slice(0, 300);

async function fetchOk(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response;
}

// -- the wheel, unzipped in JS while Pyodide loads ---------------------------------------------

/** The files of a zip archive (stored or deflated entries): [{name, data: Uint8Array}]. */
async function unzip(buffer) {
  const bytes = new Uint8Array(buffer);
  const view = new DataView(buffer);
  let end = bytes.length - 22;
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end--;
  if (end < 0) throw new Error("not a zip archive");
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const files = [];
  for (let i = 0; i < count; i++) {
    if (view.getUint32(at, true) !== 0x02014b50) throw new Error("bad zip directory");
    const method = view.getUint16(at + 10, true);
    const size = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith("/")) continue;
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const raw = bytes.subarray(start, start + size);
    if (method === 0) files.push({ name, data: raw });
    else if (method === 8) files.push({ name, data: inflate(raw) });
    else throw new Error(`zip method ${method} in ${name}`);
  }
  return Promise.all(files.map(async ({ name, data }) => ({ name, data: await data })));
}

/** Raw deflate data, inflated (a writer and a reader: several times faster than via Response). */
async function inflate(raw) {
  const stream = new DecompressionStream("deflate-raw");
  const writer = stream.writable.getWriter();
  writer.write(raw).catch(() => {});
  writer.close().catch(() => {});
  const reader = stream.readable.getReader();
  const chunks = [];
  let size = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    chunks.push(chunk.value);
    size += chunk.value.length;
  }
  if (chunks.length === 1) return chunks[0];
  const data = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    data.set(chunk, at);
    at += chunk.length;
  }
  return data;
}

/**
 * An fsInit hook that writes the wheel's package files (`files`, a promise of unzip's answer)
 * into site-packages before Python starts.
 * Not its .dist-info: Pyodide would list the wheel among its loaded packages at start-up, and
 * that list must be empty for makeMemorySnapshot ("Unexpected hiwire entry at index 6").
 */
function installer(files) {
  return async (FS, { sitePackages }) => {
    mark("fsinit")();
    for (const { name, data } of (await files) || []) {
      if (name.includes(".dist-info/")) continue;
      const path = `${sitePackages}/${name}`;
      FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
      FS.writeFile(path, data);
    }
    mark("installed")();
  };
}

// -- the snapshot in the Cache API --------------------------------------------------------------

// A snapshot is a copy of the whole WebAssembly memory, and more than half of its 4 KiB pages
// are zeros. It is stored without them: "TPS1", page size, length, page count (u32 LE each),
// a bitmap of the pages kept (padded to 4 bytes), then those pages (the last may be short).
const PAGE = 4096;
const PACK_MAGIC = 0x31535054; // "TPS1"

/** `bytes` without their zero pages; the scan yields now and then to waiting requests. */
async function pack(bytes) {
  const pages = Math.ceil(bytes.length / PAGE);
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length >> 2);
  const bitmap = new Uint8Array((Math.ceil(pages / 8) + 3) & ~3);
  let kept = 0;
  for (let page = 0; page < pages; page++) {
    if (page % 1024 === 1023) await new Promise((resolve) => setTimeout(resolve));
    const start = page * PAGE;
    let zero = start + PAGE <= words.length * 4;
    for (let word = start >> 2; zero && word < (start + PAGE) >> 2; word++) zero = words[word] === 0;
    if (!zero) {
      bitmap[page >> 3] |= 1 << (page & 7);
      kept += Math.min(PAGE, bytes.length - start);
    }
  }
  const packed = new Uint8Array(16 + bitmap.length + kept);
  new Uint32Array(packed.buffer, 0, 4).set([PACK_MAGIC, PAGE, bytes.length, pages]);
  packed.set(bitmap, 16);
  let at = 16 + bitmap.length;
  for (let page = 0; page < pages; page++) {
    if (!(bitmap[page >> 3] & (1 << (page & 7)))) continue;
    const chunk = bytes.subarray(page * PAGE, Math.min(bytes.length, (page + 1) * PAGE));
    packed.set(chunk, at);
    at += chunk.length;
  }
  return packed;
}

/** Fill `bytes` (zeros, of the original length) with what `pack` was given; else throw. */
function unpack(packed, bytes) {
  const [magic, pageSize, length, pages] = new Uint32Array(packed.buffer, packed.byteOffset, 4);
  const bitmapSize = (Math.ceil(pages / 8) + 3) & ~3;
  if (magic !== PACK_MAGIC || pageSize !== PAGE || length !== bytes.length || pages !== Math.ceil(length / PAGE)) {
    throw new CorruptSnapshot("not a packed snapshot of the expected size");
  }
  let at = 16 + bitmapSize;
  for (let page = 0; page < pages; page++) {
    if (!(packed[16 + (page >> 3)] & (1 << (page & 7)))) continue;
    const size = Math.min(PAGE, length - page * PAGE);
    if (at + size > packed.length) throw new CorruptSnapshot("truncated snapshot");
    bytes.set(packed.subarray(at, at + size), page * PAGE);
    at += size;
  }
  if (at !== packed.length) throw new CorruptSnapshot("corrupt snapshot (size)");
}

async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

async function snapshotCache() {
  if (!self.caches) throw new Error("no Cache API here");
  return caches.open(SNAPSHOT_CACHE);
}

/**
 * The stored entry, looked up as soon as the worker starts: reading its 30 MB and hashing them
 * overlap with the rest of the boot. {response, body, digest} when there is one (promises),
 * {noStorage, error} when the browser refuses the Cache API, {} when there is none.
 */
async function lookUpSnapshot() {
  try {
    const response = await (await snapshotCache()).match(SNAPSHOT_REQUEST);
    if (!response) return {};
    // Through a Blob: read in one piece, without a task per chunk on this (busy) thread.
    const body = response.blob().then((blob) => blob.arrayBuffer()).then((buffer) => new Uint8Array(buffer));
    const digest = body.then(sha256);
    digest.catch(() => {}); // handled where it is awaited
    return { response, body, digest };
  } catch (error) {
    return { noStorage: true, error: `snapshot storage refused: ${errorText(error)}` };
  }
}

async function deleteSnapshot() {
  await snapshotCache().then((cache) => cache.delete(SNAPSHOT_REQUEST)).catch(() => {});
}

/**
 * What the stored entry offers this build (`key`): {memory, packed, verified} for a snapshot
 * of it (`memory`: its unpacked size; promises: `packed` checks the length, `verified` the
 * SHA-256, both reject with CorruptSnapshot and delete the entry when a check fails), {failed}
 * when one failed to restore before (no new one is made), {error} when it belonged to another
 * build (deleted), {noStorage}, or {} when there is none.
 */
async function checkSnapshot(stored, key) {
  if (!stored.response) return stored;
  const headers = stored.response.headers;
  if (headers.get("x-tapete-key") !== key) {
    await deleteSnapshot();
    return { error: "snapshot of another build discarded" };
  }
  if (headers.get("x-tapete-failed")) return { failed: true, error: "snapshots failed to restore for this build" };
  const memory = Number(headers.get("x-tapete-memory"));
  if (!Number.isSafeInteger(memory) || memory <= 0 || memory > 2 ** 31) {
    await deleteSnapshot();
    return { error: "snapshot without a valid size discarded" };
  }
  const packed = checked(stored.body, (body) => {
    if (String(body.length) !== headers.get("x-tapete-length")) throw new CorruptSnapshot(`truncated snapshot (${body.length} bytes)`);
    return body;
  });
  const verified = checked(stored.digest, (digest) => {
    if (digest !== headers.get("x-tapete-sha256")) throw new CorruptSnapshot("corrupt snapshot (SHA-256 mismatch)");
    return true;
  });
  return { memory, packed, verified };
}

/** A stored snapshot whose bytes failed their checks (it has been deleted). */
class CorruptSnapshot extends Error {}

/** `check(await promise)` (it throws if something is wrong); otherwise the entry is deleted. */
function checked(promise, check) {
  const result = (async () => {
    try {
      const value = check(await promise);
      return value;
    } catch (error) {
      await deleteSnapshot();
      throw error instanceof CorruptSnapshot ? error : new CorruptSnapshot(`unreadable snapshot: ${errorText(error)}`);
    }
  })();
  result.catch(() => {}); // handled where it is awaited, through loadPyodide
  return result;
}

/** Replace the stored snapshot: `bytes` (packed, with their checks) or a "failed" marker. */
async function writeSnapshot(key, bytes, memory) {
  const cache = await snapshotCache();
  const headers = { "content-type": "application/octet-stream", "x-tapete-key": key };
  if (!bytes) {
    await cache.put(SNAPSHOT_REQUEST, new Response("", { headers: { ...headers, "x-tapete-failed": "1" } }));
    return;
  }
  headers["x-tapete-length"] = String(bytes.length);
  headers["x-tapete-memory"] = String(memory);
  headers["x-tapete-sha256"] = await sha256(bytes);
  await cache.put(SNAPSHOT_REQUEST, new Response(bytes, { headers }));
}

/** After `IDLE_MS` with no request (and none waiting), import the games not imported yet, one
 * per step, then save the snapshot once. */
function whenIdle(delay = IDLE_MS) {
  if (!pendingSnapshot) return;
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    if (!pendingSnapshot || queue.length || !handle || dead) return;
    const { pyodide, key } = pendingSnapshot;
    let more = false;
    try {
      more = importOneGame(pyodide);
    } catch {
      // a game that fails to import answers with its error when it is used
    }
    if (more) {
      whenIdle(0); // the next step waits for any request that came meanwhile
      return;
    }
    pendingSnapshot = null;
    saving = saveSnapshot(pyodide, key);
  }, delay);
}

/**
 * The page is about to hand itself to a new version and reload (sw-update.js): start no
 * snapshot from now on, and answer once a snapshot being written is stored. A reload that cut
 * the 30 MB write short while the new service worker deleted the old version's cache now and
 * then left Chromium's Cache Storage hung, and with it the reloaded page (seen in e2e).
 */
async function quiet(id) {
  quieted = true;
  pendingSnapshot = null;
  clearTimeout(idleTimer);
  await saving;
  post({ id, ok: true, result: { quiet: true } });
}

/**
 * The engine imports a game when it is first used, and a start from the snapshot lists them all:
 * import one game not imported yet (a request waits for one game at most); false when none is
 * left.
 */
function importOneGame(pyodide) {
  return pyodide.runPython(`import sys, tapete
missing = [game for game in tapete.GAMES if "tapete." + game not in sys.modules]
if missing:
    tapete.GAMES[missing[0]]
bool(missing)`);
}

async function saveSnapshot(pyodide, key) {
  const started = performance.now();
  try {
    const heap = pyodide._module.HEAP8.length;
    if (heap > MAX_SNAPSHOT_BYTES) throw new Error(`heap too large to save (${heap} bytes)`);
    // The one stretch that holds up requests: a garbage collection and a copy of the memory.
    pyodide.runPython("import gc; gc.collect()");
    const snapshot = pyodide.makeMemorySnapshot();
    const blocked = performance.now() - started;
    const bytes = await pack(snapshot);
    await writeSnapshot(key, bytes, snapshot.length);
    const ms = Math.round(performance.now() - started);
    post({ op: "snapshot", ok: true, bytes: bytes.length, memory: snapshot.length, blocked_ms: Math.round(blocked), ms });
  } catch (error) {
    post({ op: "snapshot", ok: false, error: errorText(error) });
  }
}

// -- boot ---------------------------------------------------------------------------------------

/**
 * A Pyodide restored from a stored snapshot, checked: it must answer like the engine it was
 * made from. loadPyodide only needs the snapshot's size to create the WebAssembly memory and
 * reads its bytes once the module factory is done: it gets zeros of the right size at once,
 * and the factory fills them (reading, hashing and unpacking overlap with compiling
 * WebAssembly), so no Python runs before the checks have passed.
 */
async function restore(loadPyodide, options, found, version) {
  let memory = new Uint8Array(found.memory);
  let { packed, verified } = found;
  packed.then(mark("read"), () => {});
  verified.then(mark("verified"), () => {});
  const factory = options.createPyodideModule;
  const createPyodideModule = async (settings) => {
    const module = await factory(settings);
    unpack(await packed, memory);
    await verified;
    mark("unpacked")();
    memory = packed = verified = null; // loadPyodide keeps its options for good, not 30 MB
    return module;
  };
  const snapshot = { then: (resolve) => resolve(memory) };
  const pyodide = await loadPyodide({ ...options, createPyodideModule, _loadSnapshot: snapshot });
  mark("restored")();
  // The snapshot froze the random state: draw fresh entropy. Directory listings cached by the
  // import system predate the files just written: forget them (not with
  // importlib.invalidate_caches, which also re-reads the stdlib zip's directory: 50 ms).
  pyodide.runPython(`import random, sys
random.seed()
for finder in list(sys.path_importer_cache.values()):
    if type(finder).__name__ == "FileFinder":
        finder.invalidate_caches()`);
  mark("reseeded")();
  const games = JSON.parse(pyodide.pyimport("tapete.api").handle('{"op": "games"}'));
  if (!games.ok || games.result.engine_version !== version) throw new Error("the restored engine does not answer");
  return pyodide;
}

/** Milliseconds since this worker started (`origin`: then, in ms since 1970), per step of the
 * boot, sent with `ready`. */
const timings = { origin: Math.round(performance.timeOrigin) };
const mark = (name) => (value) => {
  timings[name] = Math.round(performance.now());
  return value;
};

/**
 * build.json's fields the start needs (`wheel`, `stdlib`, `snapshot_key`, `engine_version`):
 * from this worker's name, where boot.js puts them (build.py writes them into it), so
 * loadPyodide need not wait for build.json; else from build.json.
 */
async function bootInfo(here) {
  try {
    const start = JSON.parse(self.name);
    if (start && typeof start === "object" && typeof start.wheel === "string") return start;
  } catch {
    // no name (the page started this worker itself), or not ours
  }
  return (await fetchOk(here("build.json"))).json();
}

async function boot() {
  const total = 3;
  post({ op: "boot", stage: "runtime", done: 0, total });
  const here = (path) => new URL(path, self.location.href).href;
  const runtime = import("./pyodide/pyodide.mjs").then(mark("runtime"));
  // Pyodide would import its 1.2 MB Emscripten module only once loadPyodide runs: start now.
  // loadPyodide does not wait for it (createPyodideModule below does): it asks for the 9.6 MB
  // WebAssembly as it starts, which a first visit then downloads while this module compiles.
  const emscripten = import("./pyodide/pyodide.asm.mjs").then(mark("asm"));
  const build = await bootInfo(here).then(mark("build"));
  if (!build || typeof build.wheel !== "string") throw new Error("build.json names no wheel");
  const wheel = fetchOk(here(build.wheel)).then((response) => response.arrayBuffer());
  // Unzipped in JS while Pyodide loads; without DecompressionStream, unpacked by Python later.
  const files = wheel.then(unzip).then(mark("wheel")).catch(() => null);
  const key = typeof build.snapshot_key === "string" && self.caches ? build.snapshot_key : null;
  const stored = await storedSnapshot;
  storedSnapshot = null; // the promises below hold the bytes only as long as they are needed
  const found = key ? await checkSnapshot(stored, key).then(mark("found")) : {};
  const { loadPyodide } = await runtime;

  const options = {
    indexURL: here("pyodide/"),
    fsInit: installer(files),
    // Marks when Emscripten's glue asks for the WebAssembly ("wasm"), when it is compiled and
    // instantiated ("instantiated"), and when the module is ready, before Python starts
    // ("compiled"; the file system is set up in between).
    createPyodideModule: (settings) => {
      const instantiate = settings.instantiateWasm;
      if (instantiate) {
        settings.instantiateWasm = (imports, done) => {
          mark("wasm")();
          return instantiate(imports, (instance, module) => done(mark("instantiated")(instance), module));
        };
      }
      return emscripten.then((module) => module.default(settings)).then(mark("compiled"));
    },
  };
  if (build.stdlib) options.stdLibURL = here(build.stdlib);
  let pyodide = null;
  let start = "plain";
  let snapshotError = found.error;
  let makeSnapshot = Boolean(key) && !found.failed && !found.noStorage;
  if (found.packed) {
    try {
      pyodide = await restore(loadPyodide, options, found, build.engine_version);
      start = "snapshot";
      makeSnapshot = false;
    } catch (error) {
      if (error instanceof CorruptSnapshot) {
        snapshotError = errorText(error);
        await deleteSnapshot(); // a new one is made
      } else {
        snapshotError = `snapshot restore failed: ${errorText(error)}`;
        makeSnapshot = false;
        await writeSnapshot(key, null).catch(() => {}); // not again for this build
      }
    }
  }
  if (!pyodide) pyodide = await loadPyodide({ ...options, _makeSnapshot: makeSnapshot });
  mark("python")();
  if (!(await files)) {
    const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
    pyodide.unpackArchive(new Uint8Array(await wheel), "wheel", { extractDir: sitePackages });
    pyodide.runPython("import importlib; importlib.invalidate_caches()");
  }
  post({ op: "boot", stage: "engine", done: 1, total });
  const api = pyodide.pyimport("tapete.api");
  const version = String(pyodide.pyimport("tapete").__version__);
  post({ op: "boot", stage: "engine", done: 2, total });
  handle = api.handle;
  post({ op: "boot", stage: "engine", done: 3, total });
  mark("ready")();
  const ready = { op: "ready", engine_version: version, pyodide_version: pyodide.version, start, timings };
  // What this worker fetched, and when (ms after it started): [start, end] by file name.
  ready.fetches = Object.fromEntries(performance.getEntriesByType("resource").map((entry) => [
    entry.name.split("/").pop(), [Math.round(entry.startTime), Math.round(entry.responseEnd)],
  ]));
  // Games already imported (none on a plain start: they load on first use; all of them in a
  // snapshot, which is made only after the idle imports).
  ready.games_loaded = JSON.parse(pyodide.runPython(`import json, sys, tapete
json.dumps([game for game in tapete.GAMES if "tapete." + game in sys.modules])`));
  if (snapshotError) ready.snapshot_error = snapshotError;
  post(ready);
  if (makeSnapshot && !quieted) pendingSnapshot = { pyodide, key };
  while (queue.length && !dead) answer(queue.shift());
  whenIdle();
}

// The WebAssembly (9.6 MB, a first visit's longest download) is asked for at once. Pyodide
// asks for it only when loadPyodide runs, once its runtime is imported (150-250 ms later), and
// by then the wheel, the standard library and the page's files share the network with it;
// Python's start waits for its last byte. Pyodide's own request (a fetch of this URL) takes
// this response; any other fetch goes through unchanged.
const WASM_URL = new URL("pyodide/pyodide.asm.wasm", self.location.href).href;
let earlyWasm = fetch(WASM_URL);
earlyWasm.catch(() => {}); // a failure is Pyodide's to report, when it asks
const plainFetch = self.fetch.bind(self);
self.fetch = (input, init) => {
  if (earlyWasm && String(input instanceof Request ? input.url : input) === WASM_URL) {
    const response = earlyWasm;
    earlyWasm = null;
    return response;
  }
  return plainFetch(input, init);
};

// Looked up first of all: the snapshot's bytes are read while the rest of the boot goes on.
let storedSnapshot = self.caches ? lookUpSnapshot() : Promise.resolve({});
boot().catch((error) => die(`the engine could not start: ${error && error.message || error}`));
