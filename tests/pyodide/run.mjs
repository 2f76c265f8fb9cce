// Runs the tapete wheel inside real Pyodide under Node, fully offline.
//
//   node tests/pyodide/run.mjs CONFIG.json OUT.json
//
// CONFIG: {mode: "loadPackage" | "micropip" | "snapshot",
//          pyodide: dir of the npm package `pyodide`, wheel: path of tapete's wheel,
//          stdlib?: path of the standard library zip (stdLibURL; default: the package's),
//          micropip?: path of micropip's wheel (mode "micropip"),
//          metadata?: false to leave out installed_version and installer (importlib.metadata),
//          requests: [request JSON strings for tapete.api.handle],
//          playouts: [{game, seed, players?, options?, levels: [level per seat], limit?}],
//          python?: Python source run last; its final expression (a string) becomes OUT.python}
// OUT: {pyodide_version, python_version, platform, boot_ms, install_ms, tapete_file,
//       installed_version, installer, responses: [answer JSON strings],
//       playouts: [{moves: [{seat, move}], final: answer JSON string, ms}], python,
//       network: [every non-file URL that was fetched: must stay empty]}
//
// Mode "snapshot" does what web/worker.js does across two visits: a Pyodide started with
// _makeSnapshot unpacks the wheel and imports tapete.api, makes a memory snapshot, and a second
// Pyodide restored from it (wheel files unpacked again, random re-seeded) answers everything.
//
// Like web/worker.js, only JSON strings cross between JS and Python. Python's output and
// Pyodide's messages go to stderr, so nothing but this script's result reaches OUT.

import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [configPath, outPath] = process.argv.slice(2);
if (!configPath || !outPath) {
  console.error("usage: node run.mjs CONFIG.json OUT.json");
  process.exit(2);
}
const config = JSON.parse(readFileSync(configPath, "utf8"));

// Offline: refuse (and record) any fetch that would leave this machine.
const network = [];
const realFetch = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const url = String(input?.url ?? input);
  if (!url.startsWith("file:")) {
    network.push(url);
    throw new Error(`network access refused in tests: ${url}`);
  }
  return realFetch(input, init);
};

const toStderr = (text) => process.stderr.write(`${text}\n`);

async function boot(extra = {}) {
  const indexURL = resolve(config.pyodide) + "/";
  const { loadPyodide } = await import(pathToFileURL(indexURL + "pyodide.mjs").href);
  const stdLibURL = config.stdlib ? resolve(config.stdlib) : undefined;
  return loadPyodide({ indexURL, stdLibURL, stdout: toStderr, stderr: toStderr, ...extra });
}

/** The wheel unpacked into site-packages (what web/worker.js falls back to). */
function unpackWheel(py) {
  const sitePackages = py.runPython("import site; site.getsitepackages()[0]");
  py.unpackArchive(new Uint8Array(readFileSync(resolve(config.wheel))), "wheel", { extractDir: sitePackages });
  py.runPython("import importlib; importlib.invalidate_caches()");
}

/** A Pyodide restored from a snapshot made by another one that had imported tapete.api. */
async function bootFromSnapshot() {
  const first = await boot({ _makeSnapshot: true });
  unpackWheel(first);
  first.runPython("import tapete.api, gc; gc.collect()");
  const snapshot = first.makeMemorySnapshot();
  const py = await boot({ _loadSnapshot: snapshot });
  unpackWheel(py);
  py.runPython("import random; random.seed()");
  return py;
}

async function install(py) {
  const wheel = resolve(config.wheel);
  if (config.mode === "loadPackage") {
    await py.loadPackage(wheel, { messageCallback: toStderr, errorCallback: toStderr });
    return;
  }
  if (config.mode !== "micropip") throw new Error(`unknown mode ${config.mode}`);
  // micropip is not in the npm package: load its wheel by path, never by name (that needs a CDN).
  await py.loadPackage(resolve(config.micropip), { messageCallback: toStderr, errorCallback: toStderr });
  const micropip = py.pyimport("micropip");
  try {
    await micropip.install(pathToFileURL(wheel).href);
  } finally {
    micropip.destroy();
  }
}

function playout(handle, spec) {
  const call = (request) => JSON.parse(handle(JSON.stringify(request)));
  const started = performance.now();
  const moves = [];
  let answer = call({ op: "new_game", game: spec.game, seed: spec.seed, players: spec.players, options: spec.options });
  const limit = spec.limit ?? 20000;
  while (answer.ok && answer.result.to_move !== null && moves.length < limit) {
    const seat = answer.result.to_move;
    answer = call({
      op: "bot_move", game: spec.game, state: answer.result.state, seat,
      level: spec.levels[seat % spec.levels.length], bot_seed: moves.length,
    });
    if (answer.ok) moves.push({ seat, move: answer.result.move });
  }
  return { moves, final: JSON.stringify(answer), ms: performance.now() - started };
}

const t0 = performance.now();
const py = config.mode === "snapshot" ? await bootFromSnapshot() : await boot();
const t1 = performance.now();
if (config.mode !== "snapshot") await install(py);
const t2 = performance.now();

// The installed distribution's metadata, unless told not to look (config.metadata false: the
// app's trimmed standard library has no importlib.metadata beyond what Pyodide's start needs).
const info = JSON.parse(py.runPython(config.metadata === false ? `
import json, sys, tapete, tapete.api
json.dumps({"python_version": sys.version.split()[0], "platform": sys.platform,
            "tapete_file": tapete.__file__})
` : `
import json, sys, importlib.metadata, tapete, tapete.api
json.dumps({"python_version": sys.version.split()[0], "platform": sys.platform,
            "tapete_file": tapete.__file__,
            "installed_version": importlib.metadata.version("tapete"),
            "installer": (importlib.metadata.distribution("tapete").read_text("INSTALLER") or "").strip()})
`));
const api = py.pyimport("tapete.api");
const handle = (request) => api.handle(request);

const result = {
  pyodide_version: py.version,
  ...info,
  boot_ms: t1 - t0,
  install_ms: t2 - t1,
  responses: (config.requests ?? []).map(handle),
  playouts: (config.playouts ?? []).map((spec) => playout(handle, spec)),
  python: config.python ? py.runPython(config.python) : null,
  network,
};
api.destroy();
writeFileSync(outPath, JSON.stringify(result));
