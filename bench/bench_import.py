"""How long importing the engine takes, in CPython and in Pyodide under Node, for one or more
copies of the engine side by side (say, before and after a change).

    python3 bench/bench_import.py [--repeats 7] [--engine LABEL=DIR ...]

``DIR`` holds the package ``tapete`` (default: ``now=engine``). Each repeat starts a fresh
interpreter per engine (interleaved) and times, in that order:

- import: ``import tapete.api`` (what web/worker.js does before ``ready``);
- games:  then the ``games`` op (the catalogue of every game; the worker asks for it after
  restoring a snapshot);
- deals:  then a ``new_game`` of every game in turn (the first use of each).

Pyodide runs as web/worker.js runs it: the pinned runtime from .cache/, the standard library
precompiled to .pyc (``build.ensure_stdlib_pyc``) and the engine's modules as unchecked
hash-based .pyc (compiled by Pyodide itself, as ``build.precompile_wheel`` does). CPython reads
.pyc files written by a warm-up run. Prints medians in ms and each engine's ratio to the first.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import benchlib

ROOT = Path(__file__).resolve().parents[1]
STEPS = ("import", "games", "deals")

# Run inside the interpreter being measured, with the engine's folder first on sys.path.
PROBE = """
import json, sys, time
sys.path.insert(0, ENGINE)
started = time.perf_counter()
import tapete.api
imported = time.perf_counter()
catalogue = json.loads(tapete.api.handle('{"op": "games"}'))["result"]["games"]
listed = time.perf_counter()
for game in catalogue:
    request = {"op": "new_game", "game": game["id"], "seed": "BENCH", "view_seat": 0}
    assert json.loads(tapete.api.handle(json.dumps(request)))["ok"]
dealt = time.perf_counter()
result = json.dumps({"import": (imported - started) * 1e3, "games": (listed - imported) * 1e3,
                     "deals": (dealt - listed) * 1e3, "modules": len(sys.modules)})
result
"""

# node SCRIPT PYODIDE_DIR STDLIB compile|measure DIR [OUT]: "compile" adds unchecked hash-based
# __pycache__/*.pyc files to the tree DIR (written to OUT); "measure" prints PROBE's result.
NODE_SCRIPT = r"""
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [runtime, stdlib, mode, tree, out] = process.argv.slice(2);
const indexURL = resolve(runtime) + "/";
const { loadPyodide } = await import(pathToFileURL(indexURL + "pyodide.mjs").href);
const quiet = () => {};
const options = { indexURL, stdLibURL: resolve(stdlib), stdout: quiet, stderr: quiet };
const py = await loadPyodide(options);

const walk = (dir) => readdirSync(dir).flatMap((name) => {
  const path = join(dir, name);
  return statSync(path).isDirectory() ? walk(path) : [path];
});
for (const path of walk(tree)) {
  const target = "/eng/" + relative(tree, path);
  py.FS.mkdirTree(dirname(target));
  py.FS.writeFile(target, readFileSync(path));
}
if (mode === "compile") {
  const written = py.runPython(`
import importlib.util, marshal, os, sys
pyc_name = "{}." + sys.implementation.cache_tag + ".pyc"
written = []
for folder, _, names in os.walk("/eng"):
    for name in names:
        if name.endswith(".py"):
            path = os.path.join(folder, name)
            source = open(path, "rb").read()
            code = compile(source, path, "exec", dont_inherit=True, optimize=0)
            header = importlib.util.MAGIC_NUMBER + (1).to_bytes(4, "little")
            data = header + importlib.util.source_hash(source) + marshal.dumps(code)
            target = os.path.join(folder, "__pycache__", pyc_name.format(name[:-3]))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            open(target, "wb").write(data)
            written.append(target)
written
`).toJs();
  for (const path of written) {
    const target = join(out, relative("/eng", path));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, py.FS.readFile(path));
  }
} else {
  py.globals.set("ENGINE", "/eng");
  console.log(py.runPython(readFileSync(0, "utf8")));
}
"""


load_build = benchlib.load_build


def copy_engine(source: Path, target: Path) -> None:
    """The package ``tapete`` of ``source`` without any cached bytecode."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(source / "tapete", target / "tapete", ignore=ignore)


def measure_cpython(tree: Path, cache: Path) -> dict[str, float]:
    env = {**os.environ, "PYTHONPYCACHEPREFIX": str(cache)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    source = f"ENGINE = {str(tree)!r}\n{PROBE}print(result)\n"
    done = subprocess.run([sys.executable, "-c", source], env=env, check=True, capture_output=True)
    result: dict[str, float] = json.loads(done.stdout)
    return result


def measure_pyodide(
    node: str, script: Path, runtime: Path, stdlib: Path, tree: Path
) -> dict[str, float]:
    command = [node, str(script), str(runtime), str(stdlib), "measure", str(tree)]
    done = subprocess.run(command, input=PROBE.encode(), check=True, capture_output=True)
    result: dict[str, float] = json.loads(done.stdout.decode().strip().splitlines()[-1])
    return result


def table(title: str, labels: list[str], runs: dict[str, list[dict[str, float]]]) -> str:
    first = labels[0]
    lines = [
        f"{title} (median ms; ratio to {first})",
        "",
        "| engine | import | games | deals | total | modules |",
        "|---|---|---|---|---|---|",
    ]
    base = {step: statistics.median(run[step] for run in runs[first]) for step in STEPS}
    base_total = statistics.median(sum(run[step] for step in STEPS) for run in runs[first])
    for label in labels:
        cells = []
        for step in STEPS:
            value = statistics.median(run[step] for run in runs[label])
            cells.append(f"{value:.0f} ({value / base[step]:.2f}x)")
        total = statistics.median(sum(run[step] for step in STEPS) for run in runs[label])
        modules = statistics.median(run["modules"] for run in runs[label])
        cells.append(f"{total:.0f} ({total / base_total:.2f}x)")
        lines.append(f"| {label} | " + " | ".join(cells) + f" | {modules:.0f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--engine", action="append", default=[], metavar="LABEL=DIR")
    parser.add_argument("--no-pyodide", action="store_true", help="CPython only")
    args = parser.parse_args()
    engines = dict(item.split("=", 1) for item in args.engine) or {"now": str(ROOT / "engine")}
    labels = list(engines)
    node = shutil.which("node")
    use_pyodide = not args.no_pyodide
    if use_pyodide and node is None:
        raise SystemExit("node not found: install Node.js 18+ or pass --no-pyodide")
    with tempfile.TemporaryDirectory(prefix="bench-import-") as temp:
        work = Path(temp)
        script = work / "probe.mjs"
        script.write_text(NODE_SCRIPT, encoding="utf-8")
        trees = {}
        for label, folder in engines.items():
            trees[label] = work / "src" / label
            copy_engine(Path(folder), trees[label])
        cpython: dict[str, list[dict[str, float]]] = {label: [] for label in labels}
        pyodide: dict[str, list[dict[str, float]]] = {label: [] for label in labels}
        if use_pyodide:
            assert node is not None
            tool = load_build()
            runtime, stdlib = tool.ensure_pyodide(), tool.ensure_stdlib_pyc()
            for label in labels:
                tree = str(trees[label])
                command = [node, str(script), str(runtime), str(stdlib), "compile", tree, tree]
                subprocess.run(command, check=True, capture_output=True)
        for label in labels:  # warm-up: CPython writes its .pyc files
            measure_cpython(trees[label], work / "pycache" / label)
        for _ in range(args.repeats):
            for label in labels:
                cpython[label].append(measure_cpython(trees[label], work / "pycache" / label))
                if use_pyodide:
                    assert node is not None
                    result = measure_pyodide(node, script, runtime, stdlib, trees[label])
                    pyodide[label].append(result)
    print(table(f"CPython {sys.version.split()[0]}", labels, cpython))
    if use_pyodide:
        print()
        print(table(f"Pyodide {tool.PYODIDE_VERSION} under Node", labels, pyodide))
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"\n{args.repeats} repeats, interleaved; load average {load}")
    print("command: python3 bench/bench_import.py " + " ".join(sys.argv[1:]))


if __name__ == "__main__":
    main()
