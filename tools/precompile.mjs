// Precompile Python to .pyc with the pinned Pyodide itself, under Node, offline.
//
//   node tools/precompile.mjs PYODIDE_DIR stdlib IN.zip OUT.zip [stored]
//   node tools/precompile.mjs PYODIDE_DIR wheel  IN.whl OUT.whl
//   node tools/precompile.mjs PYODIDE_DIR trim   IN.zip OUT.zip ROOTS   (IN: the stdlib as .pyc;
//        ROOTS: the modules the app imports, comma-separated)
//
// The work is done by tools/precompile.py inside Pyodide; this script only moves bytes between
// the host and Pyodide's in-memory file system. Prints one JSON line: {kind, files, ms}.

import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const [runtime, kind, input, output, mode] = process.argv.slice(2);
if (!runtime || !["stdlib", "wheel", "trim"].includes(kind) || !input || !output) {
  console.error("usage: node precompile.mjs PYODIDE_DIR stdlib|wheel|trim IN OUT [stored|ROOTS]");
  process.exit(2);
}
globalThis.fetch = async (url) => {
  throw new Error(`no network while precompiling: ${url}`);
};
const started = performance.now();
const indexURL = resolve(runtime) + "/";
const { loadPyodide } = await import(pathToFileURL(indexURL + "pyodide.mjs").href);
const toStderr = (text) => process.stderr.write(`${text}\n`);
const py = await loadPyodide({ indexURL, stdout: toStderr, stderr: toStderr });
py.FS.writeFile("/tmp/in", new Uint8Array(readFileSync(input)));
const here = dirname(fileURLToPath(import.meta.url));
const tools = py.runPython(readFileSync(join(here, "precompile.py"), "utf8") + "\nglobals()");
const compress = mode === "stored" ? 0 : 8;
const files = kind === "stdlib"
  ? tools.get("stdlib")("/tmp/in", "/tmp/out", compress)
  : kind === "trim"
    ? tools.get("trim")("/tmp/in", "/tmp/out", mode || "")
    : tools.get("wheel")("/tmp/in", "/tmp/out");
writeFileSync(output, py.FS.readFile("/tmp/out"));
console.log(JSON.stringify({ kind, files, ms: Math.round(performance.now() - started) }));
