// Module worker: boots Pyodide, installs the engine wheel named in build.json, and answers
// requests with tapete.api.handle. Only JSON strings cross into Python and back.

/** Requests that arrive before Python is ready wait here, in order. */
const queue = [];
/** @type {((request: string, progress?: Function) => string) | null} */
let handle = null;
let dead = false;

// Set before any await: a message sent while we boot must not be lost.
self.onmessage = (event) => {
  if (handle) answer(event.data);
  else queue.push(event.data);
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

async function boot() {
  const total = 3;
  post({ op: "boot", stage: "runtime", done: 0, total });
  const pyodideUrl = new URL("pyodide/", self.location.href).href;
  const { loadPyodide } = await import("./pyodide/pyodide.mjs");
  const [pyodide, build] = await Promise.all([
    loadPyodide({ indexURL: pyodideUrl }),
    fetch(new URL("build.json", self.location.href)).then((response) => {
      if (!response.ok) throw new Error(`build.json: HTTP ${response.status}`);
      return response.json();
    }),
  ]);
  post({ op: "boot", stage: "engine", done: 1, total });
  if (!build || typeof build.wheel !== "string") throw new Error("build.json names no wheel");
  const wheelUrl = new URL(build.wheel, self.location.href).href;
  await pyodide.loadPackage(wheelUrl, { messageCallback: () => {}, errorCallback: (m) => console.warn(m) });
  post({ op: "boot", stage: "engine", done: 2, total });
  const api = pyodide.pyimport("tapete.api");
  const version = pyodide.pyimport("tapete").__version__;
  handle = api.handle;
  post({ op: "boot", stage: "engine", done: 3, total });
  post({ op: "ready", engine_version: String(version), pyodide_version: pyodide.version });
  while (queue.length && !dead) answer(queue.shift());
}

boot().catch((error) => die(`the engine could not start: ${error && error.message || error}`));
