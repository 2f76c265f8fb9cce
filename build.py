#!/usr/bin/env python3
"""Build, serve, test and benchmark Tapete.

    python3 build.py build                 assemble dist/: wheel, Pyodide runtime, web/, build.json
    python3 build.py serve [--port 8000] [--host 127.0.0.1] [--no-build]
    python3 build.py test [pytest args]    install what tests need, build, lint, run every suite
    python3 build.py bench [name ...]      run bench/<name>.py (all bench/bench_*.py by default)

Standard library only (Python >= 3.11). Needs Node.js >= 18 with npm: the Pyodide runtime comes
from the npm package ``pyodide`` pinned below, the standard library and the engine are compiled
to .pyc by that runtime under Node (tools/precompile.mjs), and the Pyodide tests run under Node.
Downloads and compiled files are cached in .cache/ and reused; dist/ is rebuilt from scratch
each time.

Tests import this file by path (its name clashes with PyPI's ``build`` package)::

    spec = importlib.util.spec_from_file_location("tapete_build", ROOT / "build.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["tapete_build"] = module
    spec.loader.exec_module(module)

and use ``serve_in_thread``, ``ensure_pyodide``, ``ensure_micropip``, ``build_wheel``,
``ensure_stdlib_pyc``, ``ensure_stdlib_trimmed`` and ``precompile_wheel``.
"""

from __future__ import annotations

import argparse
import ast
import base64
import functools
import hashlib
import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import tomllib
import traceback
import urllib.parse
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
DIST = ROOT / "dist"
WEB = ROOT / "web"
ENGINE = ROOT / "engine"
CACHE = ROOT / ".cache"

PYODIDE_VERSION = "314.0.7"
# The npm registry's integrity of pyodide-314.0.7.tgz: a changed tarball is refused.
PYODIDE_INTEGRITY = (
    "sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq"
    "+HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A=="
)
PYODIDE_DIR = CACHE / f"pyodide-{PYODIDE_VERSION}"
# What the page needs at run time (pyodide.js, the CommonJS loader, is for Node tools only).
PYODIDE_RUNTIME = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)

# The page loads every runtime file but the source stdlib: it gets the compiled one instead.
STDLIB_ZIP = "python_stdlib.zip"
STDLIB_PYC = "python_stdlib.pyc.zip"
PYODIDE_LOADER = tuple(name for name in PYODIDE_RUNTIME if name != STDLIB_ZIP)
# tools/precompile.mjs runs tools/precompile.py inside the pinned Pyodide; outputs are cached
# under a key of the Pyodide version and these two files.
PRECOMPILER = (ROOT / "tools" / "precompile.mjs", ROOT / "tools" / "precompile.py")
PYC_CACHE = CACHE / f"pyc-{PYODIDE_VERSION}"
# What the worker itself imports, besides the engine's imports: its runPython snippets, and
# the parts of Pyodide it calls (runPython, unpackArchive when DecompressionStream is missing).
WORKER_IMPORTS = (
    "_pyodide._base",
    "gc",
    "importlib",
    "json",
    "pyodide._package_loader",
    "random",
    "site",
    "sys",
)

# micropip for Pyodide 314; the npm package ships no wheels, so tests load it from this file.
MICROPIP_VERSION = "0.11.1"
MICROPIP_SHA256 = "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3"
WHEELS = CACHE / "wheels"

# Wheel timestamps: the zip epoch (1980-01-01), so the same sources give the same bytes.
SOURCE_DATE_EPOCH = "315532800"
SW_PLACEHOLDER = '"__TAPETE_BUILD__"'
CHROMIUM = Path("/usr/bin/chromium")

MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".wasm": "application/wasm",
    ".whl": "application/octet-stream",
    ".zip": "application/zip",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".md": "text/markdown; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
}


class BuildError(Exception):
    """A step failed for a reason the user can act on; the message says what to do."""


# -- small helpers -----------------------------------------------------------------------------


def log(message: str) -> None:
    print(f"[build.py] {message}", flush=True)


def run(
    command: Sequence[str | Path],
    *,
    cwd: Path = ROOT,
    env: dict[str, str] | None = None,
    capture: bool = False,
) -> subprocess.CompletedProcess[str]:
    """Run a command; raise BuildError (with its output when captured) if it fails."""
    args = [str(part) for part in command]
    try:
        result = subprocess.run(
            args,
            cwd=cwd,
            env={**os.environ, **(env or {})},
            text=True,
            capture_output=capture,
            check=False,
        )
    except FileNotFoundError:
        raise BuildError(f"command not found: {args[0]}") from None
    if result.returncode != 0:
        detail = f"\n{result.stdout}{result.stderr}" if capture else ""
        raise BuildError(f"`{' '.join(args)}` failed (exit {result.returncode}){detail}")
    return result


def require_tool(name: str, hint: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise BuildError(f"`{name}` not found on PATH: {hint}")
    return path


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def files_under(directory: Path) -> list[Path]:
    """Every regular file below ``directory``, sorted by its POSIX relative path."""
    found = [path for path in directory.rglob("*") if path.is_file()]
    return sorted(found, key=lambda path: path.relative_to(directory).as_posix())


# -- Python packages ---------------------------------------------------------------------------


def pip_install(*requirements: str) -> None:
    """``python -m pip install`` with the interpreter running this file."""
    log(f"pip install {' '.join(requirements)}")
    command = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    try:
        run([*command, *requirements], env={"PIP_ROOT_USER_ACTION": "ignore"})
    except BuildError as error:
        raise BuildError(
            f"{error}\nIf this Python is externally managed (PEP 668), use a virtual environment: "
            "python3 -m venv .venv && . .venv/bin/activate && python build.py ..."
        ) from None


def ensure_module(module: str, requirement: str) -> None:
    """Install ``requirement`` unless ``module`` can already be imported."""
    if importlib.util.find_spec(module) is None:
        pip_install(requirement)
        importlib.invalidate_caches()


def test_requirements() -> list[str]:
    """The ``test`` extra of pyproject.toml."""
    with (ROOT / "pyproject.toml").open("rb") as handle:
        project = tomllib.load(handle)["project"]
    requirements: list[str] = project["optional-dependencies"]["test"]
    return requirements


# -- the wheel ---------------------------------------------------------------------------------


def engine_version() -> str:
    """``__version__`` of engine/tapete/__init__.py, read without importing it."""
    text = (ENGINE / "tapete" / "__init__.py").read_text(encoding="utf-8")
    match = re.search(r'^__version__\s*=\s*"([^"]+)"', text, re.MULTILINE)
    if match is None:
        raise BuildError('engine/tapete/__init__.py has no __version__ = "..." line')
    return match.group(1)


def build_wheel(out_dir: Path) -> Path:
    """Build the py3-none-any wheel of tapete into ``out_dir`` (created) and return its path.

    Calls the PEP 517 backend (hatchling) directly in a subprocess: no isolated build
    environment to download each time, and SOURCE_DATE_EPOCH makes the bytes reproducible.
    """
    ensure_module("hatchling", "hatchling")
    out_dir.mkdir(parents=True, exist_ok=True)
    for old in out_dir.glob("tapete-*.whl"):
        old.unlink()
    backend = "import sys, hatchling.build as b; b.build_wheel(sys.argv[1])"
    try:
        run(
            [sys.executable, "-c", backend, out_dir],
            env={"SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH},
            capture=True,
        )
    except BuildError as error:
        raise BuildError(f"building the wheel failed: {error}") from None
    wheels = list(out_dir.glob("tapete-*-py3-none-any.whl"))
    if len(wheels) != 1:
        raise BuildError(f"expected one tapete wheel in {out_dir}, found {len(wheels)}")
    return wheels[0]


# -- the Pyodide runtime -----------------------------------------------------------------------


def npm_integrity(path: Path) -> str:
    digest = hashlib.sha512(path.read_bytes()).digest()
    return "sha512-" + base64.b64encode(digest).decode("ascii")


def pyodide_cache_ok(directory: Path) -> bool:
    """True when every file listed in the cache's manifest is there with its recorded size."""
    manifest = directory / ".manifest.json"
    if not manifest.is_file():
        return False
    sizes: dict[str, int] = json.loads(manifest.read_text(encoding="utf-8"))
    if not set(PYODIDE_RUNTIME) <= set(sizes):
        return False
    for name, size in sizes.items():
        path = directory / name
        if not path.is_file() or path.stat().st_size != size:
            return False
    return True


def npm_pack(name: str, version: str, integrity: str, workdir: Path) -> Path:
    """``npm pack NAME@VERSION`` into ``workdir``; returns the tarball, checked against the
    pinned npm ``integrity`` (a changed tarball is refused)."""
    npm = require_tool("npm", "install Node.js 18 or later (it brings npm)")
    run([npm, "pack", f"{name}@{version}", "--pack-destination", workdir, "--silent"], capture=True)
    tarball = workdir / f"{name}-{version}.tgz"
    if not tarball.is_file():
        raise BuildError(f"npm pack did not produce {tarball.name}")
    if npm_integrity(tarball) != integrity:
        raise BuildError(f"{tarball.name} does not match the pinned integrity hash")
    return tarball


def npm_pack_pyodide(workdir: Path) -> Path:
    """``npm pack pyodide@VERSION`` into ``workdir``; returns the checked tarball."""
    return npm_pack("pyodide", PYODIDE_VERSION, PYODIDE_INTEGRITY, workdir)


def extract_npm_tarball(tarball: Path, target: Path) -> None:
    """Unpack an npm tarball (every member under ``package/``) into ``target``."""
    with tarfile.open(tarball, "r:gz") as archive:
        members = []
        for member in archive.getmembers():
            if not member.name.startswith("package/") or not member.isfile():
                continue
            member.name = member.name.removeprefix("package/")
            members.append(member)
        archive.extractall(target, members=members, filter="data")


def ensure_pyodide(cache: Path = PYODIDE_DIR) -> Path:
    """The unpacked npm package ``pyodide`` at the pinned version, fetched once into .cache/."""
    if pyodide_cache_ok(cache):
        return cache
    log(f"fetching the Pyodide runtime {PYODIDE_VERSION} (npm pack)")
    cache.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache.parent) as temp:
        work = Path(temp)
        unpacked = work / "package"
        extract_npm_tarball(npm_pack_pyodide(work), unpacked)
        missing = [name for name in PYODIDE_RUNTIME if not (unpacked / name).is_file()]
        if missing:
            raise BuildError(f"the pyodide npm package lacks {', '.join(missing)}")
        sizes = {
            path.relative_to(unpacked).as_posix(): path.stat().st_size
            for path in files_under(unpacked)
        }
        (unpacked / ".manifest.json").write_text(json.dumps(sizes, indent=1), encoding="utf-8")
        shutil.rmtree(cache, ignore_errors=True)
        unpacked.rename(cache)
    return cache


def ensure_micropip(cache: Path = WHEELS) -> Path:
    """micropip's wheel for Pyodide 314 (Python 3.14), downloaded once with pip."""
    wheel = cache / f"micropip-{MICROPIP_VERSION}-py3-none-any.whl"
    if wheel.is_file() and sha256_file(wheel) == MICROPIP_SHA256:
        return wheel
    log(f"downloading micropip {MICROPIP_VERSION} for Pyodide")
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache) as temp:
        run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                f"micropip=={MICROPIP_VERSION}",
                "--no-deps",
                "--only-binary=:all:",
                "--python-version",
                "3.14",
                "--disable-pip-version-check",
                "--quiet",
                "-d",
                temp,
            ]
        )
        downloaded = Path(temp) / wheel.name
        if not downloaded.is_file() or sha256_file(downloaded) != MICROPIP_SHA256:
            raise BuildError(f"{wheel.name} is missing or does not match its pinned sha256")
        downloaded.replace(wheel)
    return wheel


# -- vendored npm libraries (QR codes for the page; axe-core for the tests) ----------------


@dataclass(frozen=True)
class Vendored:
    """An npm package the page uses, pinned: its files go to dist/vendor/<name>/."""

    name: str
    version: str
    integrity: str  # the npm registry's sha512 of the tarball
    files: tuple[str, ...]  # paths inside the package (under package/)


VENDORED = (
    # QR codes of the join links and answers (ES module, no dependencies)
    Vendored(
        "lean-qr",
        "2.7.4",
        "sha512-tlMPFfqhAAZN7+j/djRSvl/2+AYT2+7RRuyq8bvcbV8gMiENiscquQ9WTfCSyeEdxsVaEB+tU7e9nFZC63BFnQ==",
        ("index.mjs", "LICENSE"),
    ),
    # reads a QR code from camera frames (classic script, run in web/net/scan-worker.js)
    Vendored(
        "jsqr",
        "1.4.0",
        "sha512-dxLob7q65Xg2DvstYkRpkYtmKm2sPJ9oFhrhmudT1dZvNFFTlroai3AWSpLey/w5vMcLBXRgOJsbXpdN9HzU/A==",
        ("dist/jsQR.js", "LICENSE"),
    ),
)
VENDOR_CACHE = CACHE / "vendor"


def ensure_vendored(package: Vendored, cache: Path = VENDOR_CACHE) -> Path:
    """The package's files, fetched once with ``npm pack`` into .cache/vendor/<name>-<version>/
    (a cached file is checked against the sha256 recorded when it was fetched)."""
    folder = cache / f"{package.name}-{package.version}"
    manifest = folder / ".sha256.json"
    if manifest.is_file():
        sums: dict[str, str] = json.loads(manifest.read_text(encoding="utf-8"))
        if set(sums) == set(package.files) and all(
            (folder / name).is_file() and sha256_file(folder / name) == digest
            for name, digest in sums.items()
        ):
            return folder
    log(f"fetching {package.name} {package.version} (npm pack)")
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache) as temp:
        work = Path(temp)
        unpacked = work / "package"
        tarball = npm_pack(package.name, package.version, package.integrity, work)
        extract_npm_tarball(tarball, unpacked)
        missing = [name for name in package.files if not (unpacked / name).is_file()]
        if missing:
            raise BuildError(f"the {package.name} npm package lacks {', '.join(missing)}")
        sums = {name: sha256_file(unpacked / name) for name in package.files}
        (unpacked / ".sha256.json").write_text(json.dumps(sums, indent=1), encoding="utf-8")
        shutil.rmtree(folder, ignore_errors=True)
        unpacked.rename(folder)
    return folder


# Libraries only the tests use: fetched like the page's, never copied to dist/ (no player
# downloads them). The e2e accessibility checks (e2e/test_a11y.py) inject axe-core's script
# into the page from the test side.
AXE_CORE = Vendored(
    "axe-core",
    "4.14.1",
    "sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ==",
    ("axe.min.js", "LICENSE"),
)
TEST_VENDORED = (AXE_CORE,)

# The bundler of the page's modules (build.py only; see bundle_page). The WebAssembly build:
# one package for every platform, run by the same Node.js that precompiles the stdlib.
ESBUILD = Vendored(
    "esbuild-wasm",
    "0.28.2",
    "sha512-GccVwhv3mmOUVQHCQm2Ox/rby8n/EqUwvZxE6Pjfikrq/lWw9g9WX/u9EykWnpot3Ko6j426DgQdea2xWKIAQA==",
    ("bin/esbuild", "esbuild.wasm", "wasm_exec.js", "wasm_exec_node.js", "LICENSE.md"),
)


def axe_core_script(cache: Path = VENDOR_CACHE) -> Path:
    """axe-core's browser script (.cache/vendor/axe-core-<version>/axe.min.js), fetched once."""
    return ensure_vendored(AXE_CORE, cache) / "axe.min.js"


def copy_vendored(dist: Path) -> None:
    """Every vendored package's files into dist/vendor/<name>/ (flat: index.mjs, jsQR.js)."""
    for package in VENDORED:
        source = ensure_vendored(package)
        target = dist / "vendor" / package.name
        target.mkdir(parents=True, exist_ok=True)
        for name in package.files:
            shutil.copyfile(source / name, target / Path(name).name)


# -- the page's modules and stylesheets, each as one file -----------------------------------

PAGE_MODULE = "app.js"
PAGE_STYLES = "app.css"
STYLESHEET_LINK = re.compile(r'[ \t]*<link rel="stylesheet" href="([^"]+)">\n')


def bundle_page(dist: Path) -> set[str]:
    """Make dist/app.js one module with every module it imports, and the page's stylesheets one
    file (app.css, in the page's order); return the files folded in (relative paths).

    web/ stays plain ES modules, each file read and tested on its own; the page loads two
    files instead of 56 modules and 10 stylesheets, which made a first visit 150-200 ms faster
    (BENCHMARKS.md, "One module, one stylesheet"). The folded files stay in dist/ for tools
    and tests that import one of them, but the service worker does not precache them: the
    page never asks for them. Unminified: what the browser runs reads like web/."""
    node = require_tool("node", "install Node.js 18 or later")
    esbuild = ensure_vendored(ESBUILD) / "bin" / "esbuild"
    with tempfile.TemporaryDirectory() as temp:
        meta = Path(temp) / "meta.json"
        result = run(
            [
                node,
                str(esbuild),
                PAGE_MODULE,
                "--bundle",
                "--format=esm",
                "--charset=utf8",
                "--log-level=warning",
                f"--metafile={meta}",
                f"--outfile={PAGE_MODULE}",
                "--allow-overwrite",
            ],
            cwd=dist,
            capture=True,
        )
        if result.stderr.strip():  # esbuild's warnings: a build that warns is refused
            raise BuildError(f"bundling {PAGE_MODULE} warned:\n{result.stderr}")
        inputs = json.loads(meta.read_text(encoding="utf-8"))["inputs"]
    folded = {name for name in inputs if name != PAGE_MODULE}
    page = dist / "index.html"
    html = page.read_text(encoding="utf-8")
    sheets = STYLESHEET_LINK.findall(html)
    if not sheets:
        return folded
    parts = []
    for name in sheets:
        text = (dist / name).read_text(encoding="utf-8")
        if "/" in name and ("url(" in text or "@import" in text):
            raise BuildError(f"{name}: a url() or @import would change its base in {PAGE_STYLES}")
        parts.append(f"/* {name} */\n{text.rstrip()}\n")
    (dist / PAGE_STYLES).write_text("\n".join(parts), encoding="utf-8")
    first = STYLESHEET_LINK.search(html)
    assert first is not None
    link = f'{first.group(0).split("<")[0]}<link rel="stylesheet" href="{PAGE_STYLES}">\n'
    html = html[: first.start()] + link + STYLESHEET_LINK.sub("", html[first.start() :])
    page.write_text(html, encoding="utf-8")
    # style.css stays precached: the rules pages link it
    return folded | {name for name in sheets if "/" in name}


# -- precompiled Python (.pyc made by the pinned Pyodide under Node) ---------------------------


def precompiler_key() -> str:
    """A short hash of the precompiler's own files: a change to them recompiles everything."""
    digest = hashlib.sha256()
    for path in PRECOMPILER:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def precompile(kind: str, source: Path, target: Path, runtime: Path, *extra: str) -> None:
    """Run ``tools/precompile.mjs`` (``kind`` stdlib, wheel or trim) into ``target``,
    atomically."""
    node = require_tool("node", "install Node.js 18 or later")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f"{target.name}.{os.getpid()}.partial")  # builds may overlap
    try:
        run([node, PRECOMPILER[0], runtime, kind, source, partial, *extra], capture=True)
    except BuildError as error:
        partial.unlink(missing_ok=True)
        raise BuildError(f"precompiling {source.name} failed: {error}") from None
    partial.replace(target)


def prune(paths: Sequence[Path], keep: int) -> None:
    """Delete all but the ``keep`` most recently modified of ``paths`` (files or folders)."""

    def modified(path: Path) -> float:
        try:
            return path.stat().st_mtime
        except OSError:  # deleted meanwhile by another build
            return 0.0

    newest_first = sorted(paths, key=modified, reverse=True)
    for old in newest_first[keep:]:
        if old.is_dir():
            shutil.rmtree(old, ignore_errors=True)
        else:
            old.unlink(missing_ok=True)


def ensure_stdlib_pyc(runtime: Path | None = None) -> Path:
    """Pyodide's standard library zip with every module as an unchecked-hash .pyc (cached).

    Made once per Pyodide version (about 4 s): the runtime compiles its own standard library.
    """
    runtime = runtime or ensure_pyodide()
    target = PYC_CACHE / f"{precompiler_key()}-{STDLIB_PYC}"
    if not target.is_file():
        log(f"compiling Pyodide's standard library to .pyc ({STDLIB_PYC})")
        precompile("stdlib", runtime / STDLIB_ZIP, target, runtime)
        prune(list(PYC_CACHE.glob(f"*-{STDLIB_PYC}")), keep=1)
    return target


def engine_imports(engine: Path = ENGINE) -> list[str]:
    """Every module outside the engine that an ``import`` statement of engine/tapete names, at
    any depth (the engine has no dependencies: these are standard library modules)."""
    names: set[str] = set()
    for path in sorted((engine / "tapete").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                names.add(node.module)
    return sorted(name for name in names if name.split(".")[0] != "tapete")


def stdlib_roots() -> list[str]:
    """The standard library modules the app imports itself: the engine's and the worker's."""
    return sorted({*engine_imports(), *WORKER_IMPORTS})


def ensure_stdlib_trimmed(runtime: Path | None = None) -> Path:
    """The precompiled standard library with only what the app loads (cached): Pyodide's own
    start, the engine's and the worker's imports and theirs (tools/precompile.py, ``trim``).
    Under half of the whole: a first visit fetches and stores 2.5 MB less."""
    runtime = runtime or ensure_pyodide()
    full = ensure_stdlib_pyc(runtime)
    roots = ",".join(stdlib_roots())
    key = hashlib.sha256(f"{precompiler_key()}\0{roots}".encode()).hexdigest()[:12]
    target = PYC_CACHE / "trimmed" / f"{key}-{STDLIB_PYC}"
    if not target.is_file():
        log(f"trimming the standard library to what the app imports ({STDLIB_PYC})")
        precompile("trim", full, target, runtime, roots)
        prune(list(target.parent.glob(f"*-{STDLIB_PYC}")), keep=4)
    return target


def precompile_wheel(wheel: Path, runtime: Path | None = None) -> None:
    """Add ``__pycache__/*.cpython-314.pyc`` files to ``wheel`` in place (cached by its hash)."""
    runtime = runtime or ensure_pyodide()
    key = f"{precompiler_key()}-{sha256_file(wheel)[:16]}"
    cached = PYC_CACHE / "wheels" / key / wheel.name
    if not cached.is_file():
        log(f"compiling {wheel.name} to .pyc")
        precompile("wheel", wheel, cached, runtime)
        prune(list(cached.parent.parent.iterdir()), keep=10)
    shutil.copyfile(cached, wheel)


# -- assembling dist/ --------------------------------------------------------------------------


@dataclass(frozen=True)
class Start:
    """How the app starts; every field on is the shipped app (bench/bench_boot.py turns them
    off to measure the plain start beside it)."""

    precompiled_stdlib: bool = True
    trimmed_stdlib: bool = True
    precompiled_wheel: bool = True
    snapshots: bool = True


def copy_web(web: Path, dist: Path) -> None:
    if not (web / "sw.js").is_file():
        raise BuildError(
            f"{web / 'sw.js'} is missing: the service worker is part of the app "
            f"and must contain {SW_PLACEHOLDER} once"
        )
    ignore = shutil.ignore_patterns(".*", "__pycache__", "*.pyc", "*~")
    shutil.copytree(web, dist, ignore=ignore, dirs_exist_ok=True)
    merge_translations(web / "i18n", dist / "i18n")


BOOT_TAG = '<script src="boot.js" async></script>'
CSP_SCRIPT_SRC = "script-src 'self'"
BOOT_START = "/* build.json's start fields */ null"
# What the worker needs of build.json before loadPyodide (web/worker.js, bootInfo).
START_FIELDS = ("wheel", "stdlib", "snapshot_key", "engine_version")


def inline_boot(dist: Path, info: dict[str, Any]) -> None:
    """Put boot.js into index.html, with its hash in the page's CSP, and drop the file; give it
    ``info``'s fields the worker's start needs (they go in the worker's name).

    The worker boot.js starts is a first visit's longest wait; as a file, boot.js came in
    behind the page's stylesheets and modules on the same connections, and the worker then
    waited for build.json (BENCHMARKS.md, "The engine's download starts sooner"). web/ keeps
    boot.js a file of its own, to read and test."""
    page, boot = dist / "index.html", dist / "boot.js"
    html, code = page.read_text(encoding="utf-8"), boot.read_text(encoding="utf-8")
    if html.count(BOOT_TAG) != 1 or html.count(CSP_SCRIPT_SRC) != 1:
        raise BuildError(f"{page} must contain {BOOT_TAG} and {CSP_SCRIPT_SRC} once each")
    if code.count(BOOT_START) != 1:
        raise BuildError(f"{boot} must contain {BOOT_START} once")
    start = json.dumps({field: info[field] for field in START_FIELDS}, separators=(",", ":"))
    code = code.replace(BOOT_START, start.replace("<", "\\u003c"))
    if "</script" in code.lower():
        raise BuildError(f"{boot} cannot be inlined: it contains </script")
    digest = base64.b64encode(hashlib.sha256(code.encode("utf-8")).digest()).decode("ascii")
    html = html.replace(CSP_SCRIPT_SRC, f"{CSP_SCRIPT_SRC} 'sha256-{digest}'")
    page.write_text(html.replace(BOOT_TAG, f"<script>{code}</script>"), encoding="utf-8")
    boot.unlink()


def load_translations(source: Path, lang: str) -> dict[str, str]:
    """One language's strings: every ``<source>/<lang>/*.json`` (one file per area: core, and
    one per game) merged; a key defined twice is a build error."""
    strings: dict[str, str] = {}
    files = sorted((source / lang).glob("*.json"))
    if not files:
        raise BuildError(f"no translations in {source / lang}")
    for path in files:
        try:
            part = json.loads(path.read_text(encoding="utf-8"))
        except ValueError as error:
            raise BuildError(f"{path}: not JSON: {error}") from error
        if not isinstance(part, dict):
            raise BuildError(f"{path}: must be an object of key -> string")
        for key, text in part.items():
            if key in strings:
                raise BuildError(f"{path}: key {key!r} is already defined in another file")
            if not isinstance(text, str):
                raise BuildError(f"{path}: {key!r} must be a string")
            strings[key] = text
    return strings


def merge_translations(source: Path, target: Path) -> None:
    """dist/i18n/<lang>.json from web/i18n/<lang>/*.json (the page loads one file per language)."""
    for folder in sorted(path for path in source.iterdir() if path.is_dir()):
        merged = load_translations(source, folder.name)
        shutil.rmtree(target / folder.name, ignore_errors=True)
        (target / f"{folder.name}.json").write_text(
            json.dumps(merged, ensure_ascii=False, indent=1, sort_keys=True) + "\n",
            encoding="utf-8",
        )


def copy_pyodide(runtime: Path, dist: Path, stdlib: Path) -> str:
    """The runtime files and the standard library ``stdlib``; returns its URL in dist/."""
    target = dist / "pyodide"
    target.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_LOADER:
        shutil.copyfile(runtime / name, target / name)
    name = STDLIB_ZIP if stdlib.name == STDLIB_ZIP else STDLIB_PYC
    shutil.copyfile(stdlib, target / name)
    return f"pyodide/{name}"


def games_catalogue() -> list[dict[str, Any]]:
    """``[GAMES[id].catalogue() for id in sorted(GAMES)]`` of the engine in engine/."""
    sys.path.insert(0, str(ENGINE))
    try:
        import tapete
    except Exception as error:
        raise BuildError(f"importing tapete from {ENGINE} failed: {error!r}") from error
    finally:
        sys.path.remove(str(ENGINE))
    source = Path(tapete.__file__).resolve()
    if not source.is_relative_to(ENGINE):
        raise BuildError(f"imported tapete from {source}, not from {ENGINE}: uninstall that copy")
    return [tapete.GAMES[game_id].catalogue() for game_id in sorted(tapete.GAMES)]


def snapshot_key(dist: Path, stdlib: str, wheel: str) -> str:
    """What a memory snapshot depends on: the runtime, the stdlib zip (Python caches its
    directory), the wheel, and the worker that makes and restores it."""
    worker = dist / "worker.js"
    parts = [
        PYODIDE_VERSION,
        sha256_file(dist / stdlib),
        sha256_file(dist / wheel),
        sha256_file(worker) if worker.is_file() else "",
    ]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:16]


def content_version(dist: Path, extra: bytes) -> str:
    """A short sha256 over every file of ``dist`` (names and bytes) and ``extra``."""
    digest = hashlib.sha256()
    for path in files_under(dist):
        name = path.relative_to(dist).as_posix()
        digest.update(f"{name}\0{sha256_file(path)}\n".encode())
    digest.update(extra)
    return digest.hexdigest()[:12]


def precache_list(dist: Path, folded: Collection[str] = ()) -> list[str]:
    """Relative URLs of every file of dist/ but the ``folded`` ones (``bundle_page``), with "./"
    (the page itself) first."""
    names = [path.relative_to(dist).as_posix() for path in files_under(dist)]
    return ["./", *(urllib.parse.quote(name) for name in names if name not in folded)]


def precached(dist: Path) -> list[str]:
    """The precache list a built dist/'s service worker holds (``inject_precache``)."""
    text = (dist / "sw.js").read_text(encoding="utf-8")
    match = re.search(r"const BUILD = (\{.*?\});", text)
    if not match:
        raise BuildError(f"{dist / 'sw.js'} holds no precache list: is {dist} built?")
    files: list[str] = json.loads(match.group(1))["files"]
    return files


def inject_precache(sw: Path, version: str, files: list[str]) -> None:
    text = sw.read_text(encoding="utf-8")
    count = text.count(SW_PLACEHOLDER)
    if count != 1:
        raise BuildError(f"{sw} must contain {SW_PLACEHOLDER} exactly once; found {count}")
    payload = json.dumps({"version": version, "files": files})
    sw.write_text(text.replace(SW_PLACEHOLDER, payload), encoding="utf-8")


def build(dist: Path = DIST, web: Path = WEB, start: Start = Start()) -> dict[str, Any]:
    """Assemble ``dist`` from scratch out of ``web``; return the build.json written there."""
    started = time.perf_counter()
    if not web.is_dir():
        raise BuildError(f"{web} is missing")
    runtime = ensure_pyodide()
    if not start.precompiled_stdlib:
        stdlib = runtime / STDLIB_ZIP
    elif start.trimmed_stdlib:
        stdlib = ensure_stdlib_trimmed(runtime)
    else:
        stdlib = ensure_stdlib_pyc(runtime)
    shutil.rmtree(dist, ignore_errors=True)
    dist.mkdir(parents=True)
    copy_web(web, dist)
    copy_vendored(dist)
    stdlib_url = copy_pyodide(runtime, dist, stdlib)
    wheel = build_wheel(dist / "engine")
    if start.precompiled_wheel:
        precompile_wheel(wheel, runtime)
    wheel_url = wheel.relative_to(dist).as_posix()
    info: dict[str, Any] = {
        "engine_version": engine_version(),
        "pyodide_version": PYODIDE_VERSION,
        "wheel": wheel_url,
        "wheel_sha256": sha256_file(wheel),
        "stdlib": stdlib_url,
        "stdlib_sha256": sha256_file(dist / stdlib_url),
        "snapshot_key": snapshot_key(dist, stdlib_url, wheel_url) if start.snapshots else None,
    }
    inline_boot(dist, info)
    folded = bundle_page(dist)
    games = games_catalogue()
    version = content_version(dist, json.dumps({**info, "games": games}, sort_keys=True).encode())
    info = {**info, "build": version, "games": games}
    (dist / "build.json").write_text(json.dumps(info, indent=1) + "\n", encoding="utf-8")
    inject_precache(dist / "sw.js", version, precache_list(dist, folded))
    size = sum(path.stat().st_size for path in files_under(dist))
    log(
        f"built {dist} in {time.perf_counter() - started:.1f} s: version {version}, "
        f"{len(files_under(dist))} files, {size / 1e6:.1f} MB"
    )
    return info


# -- serving dist/ -----------------------------------------------------------------------------


class DistHandler(SimpleHTTPRequestHandler):
    """Static files with the MIME types Pyodide needs; every answer revalidates."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
    quiet = False

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        if not self.quiet:
            super().log_message(format, *args)


def make_server(dist: Path, host: str, port: int, quiet: bool) -> ThreadingHTTPServer:
    if not (dist / "index.html").is_file():
        raise BuildError(f"{dist} has no index.html: run `python3 build.py build` first")
    handler = type("Handler", (DistHandler,), {"quiet": quiet})
    return ThreadingHTTPServer((host, port), functools.partial(handler, directory=str(dist)))


def server_url(server: ThreadingHTTPServer) -> str:
    host, port = server.server_address[:2]
    return f"http://{host!s}:{port}/"


def serve_in_thread(
    dist: Path = DIST, port: int = 0, host: str = "127.0.0.1"
) -> tuple[ThreadingHTTPServer, str]:
    """Serve ``dist`` from a daemon thread (``port=0``: a free port); return (server, url).

    Stop it with ``server.shutdown(); server.server_close()``.
    """
    server = make_server(Path(dist), host, port, quiet=True)
    threading.Thread(target=server.serve_forever, name="tapete-serve", daemon=True).start()
    return server, server_url(server)


def stop_on_sigterm(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def serve(dist: Path, host: str, port: int) -> None:
    server = make_server(dist, host, port, quiet=False)
    signal.signal(signal.SIGTERM, stop_on_sigterm)
    print(f"Serving {dist} at {server_url(server)}  (Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("\nstopped", flush=True)
    finally:
        server.server_close()


# -- test --------------------------------------------------------------------------------------


@dataclass
class Stage:
    """One step of ``build.py test`` and what came of it."""

    name: str
    ok: bool = False
    seconds: float = 0.0
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    note: str = ""
    is_suite: bool = False

    def line(self) -> str:
        if self.is_suite:
            text = f"{self.passed} passed, {self.failed} failed, {self.skipped} skipped"
            text += f" ({self.note})" if self.note else ""
        else:
            text = self.note or ("ok" if self.ok else "FAILED")
        return f"  {self.name:<8} {self.seconds:7.1f} s  {text}"


def ensure_browser() -> str:
    """Make sure a Chromium for Playwright exists; returns what was found or done."""
    if CHROMIUM.exists():
        return f"{CHROMIUM}"
    apt = shutil.which("apt-get")
    if apt and hasattr(os, "geteuid") and os.geteuid() == 0:
        log("installing Debian's chromium (apt-get)")
        env = {"DEBIAN_FRONTEND": "noninteractive"}
        run([apt, "update", "-qq"], env=env, capture=True)
        run([apt, "install", "-y", "-qq", "chromium"], env=env, capture=True)
        return f"{CHROMIUM} (installed)"
    log(f"no {CHROMIUM}: trying Playwright's own Chromium (python -m playwright install chromium)")
    try:
        run([sys.executable, "-m", "playwright", "install", "chromium"])
    except BuildError as error:
        raise BuildError(
            f"no browser for the e2e tests ({error}). Install one: as root "
            "`apt-get install chromium` (Debian), or `python3 -m playwright install chromium`"
        ) from None
    return "Playwright's chromium"


def install_test_tools() -> str:
    """Everything the suites need; a missing browser is reported, for e2e alone needs it."""
    pip_install(*test_requirements())
    ensure_micropip()
    ensure_pyodide()
    for package in TEST_VENDORED:
        ensure_vendored(package)
    try:
        return ensure_browser()
    except BuildError as error:
        print(f"install: {error}", file=sys.stderr, flush=True)
        return "no browser: e2e will fail"


def stage(name: str, action: Callable[[Stage], object], *, is_suite: bool = False) -> Stage:
    """Time ``action(stage)``: it passes unless it returns False or raises BuildError."""
    result = Stage(name, is_suite=is_suite)
    print(f"\n===== {name} =====", flush=True)
    started = time.perf_counter()
    try:
        outcome = action(result)
        result.ok = outcome is None or bool(outcome)
    except BuildError as error:
        print(f"{name}: {error}", file=sys.stderr, flush=True)
        result.ok, result.note = False, result.note or "FAILED"
    except Exception:  # a bug in this script: show it, keep going to the summary
        traceback.print_exc()
        result.ok, result.note = False, "crashed (see the traceback above)"
    result.seconds = time.perf_counter() - started
    return result


def has_tests(folder: Path) -> bool:
    patterns = ("test_*.py", "*_test.py")
    return any(path for pattern in patterns for path in folder.rglob(pattern))


def junit_counts(report: Path) -> tuple[int, int, int]:
    """(passed, failed, skipped) from a pytest JUnit XML report; failed counts errors too."""
    root = ElementTree.parse(report).getroot()
    suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
    tests = failures = errors = skipped = 0
    for suite in suites:
        tests += int(suite.get("tests", 0))
        failures += int(suite.get("failures", 0))
        errors += int(suite.get("errors", 0))
        skipped += int(suite.get("skipped", 0))
    return tests - failures - errors - skipped, failures + errors, skipped


# two pytest workers (pytest-xdist): CI has two cores, and the e2e tests wait on the browser
# about half of their time; the whole suite then fits its 20 minutes with room to grow
WORKERS = ["-n", "2", "--dist", "worksteal"]


def run_pytest(folder: str, extra: Sequence[str], result: Stage, allow_empty: bool) -> bool:
    """``pytest <folder>``; fills result's counts. No tests at all fails unless allowed."""
    if not has_tests(ROOT / folder):
        result.note = f"skipped: no tests in {folder}/ yet"
        if allow_empty:
            return True
        raise BuildError(f"no tests found in {folder}/")
    with tempfile.TemporaryDirectory() as temp:
        report = Path(temp) / "junit.xml"
        workers = [] if any(a.startswith(("-n", "--numprocesses")) for a in extra) else WORKERS
        command = [sys.executable, "-m", "pytest", folder, f"--junitxml={report}", *workers, *extra]
        code = subprocess.run(command, cwd=ROOT, check=False).returncode
        if report.is_file():
            result.passed, result.failed, result.skipped = junit_counts(report)
    if code == 5 and not allow_empty:
        raise BuildError(f"pytest collected no tests in {folder}/")
    if code not in (0, 5) and result.failed == 0:
        result.failed = 1  # an interrupted or unusable run (usage error, crash) is a failure
        result.note = f"pytest exit {code}"
    return code == 0 or (code == 5 and allow_empty)


def run_node_tests(folder: str, result: Stage) -> bool:
    """``node --test`` on the plain-JS unit tests of ``folder`` (the page's modules that need no
    DOM: the table protocol, the pairing codec, the seed commitment); fills result's counts."""
    node = require_tool("node", "install Node.js 18 or later")
    tests = sorted(str(path.relative_to(ROOT)) for path in (ROOT / folder).glob("*.test.mjs"))
    if not tests:
        raise BuildError(f"no *.test.mjs in {folder}/")
    print("$ node --test " + " ".join(tests), flush=True)
    completed = subprocess.run(
        [node, "--test", *tests], cwd=ROOT, check=False, capture_output=True, text=True
    )
    print(completed.stdout + completed.stderr, end="", flush=True)
    counts = dict(re.findall(r"^# (pass|fail|skipped) (\d+)$", completed.stdout, re.MULTILINE))
    result.passed = int(counts.get("pass", 0))
    result.failed = int(counts.get("fail", 0))
    result.skipped = int(counts.get("skipped", 0))
    if completed.returncode != 0 and result.failed == 0:
        result.failed = 1
    return completed.returncode == 0


def run_check(command: Sequence[str]) -> bool:
    print("$ " + " ".join(command), flush=True)
    return subprocess.run([sys.executable, "-m", *command], cwd=ROOT, check=False).returncode == 0


def summarize(stages: list[Stage]) -> bool:
    """Print one line per stage and the totals; True when everything passed."""
    print("\n===== summary =====")
    for item in stages:
        print(item.line())
    checks = [item for item in stages if not item.is_suite]
    passed = sum(item.passed for item in stages) + sum(item.ok for item in checks)
    failed = sum(item.failed for item in stages) + sum(not item.ok for item in checks)
    skipped = sum(item.skipped for item in stages)
    failed += sum(1 for item in stages if item.is_suite and not item.ok and item.failed == 0)
    print(
        f"  (checks install/build/ruff/mypy count as one test each; "
        f"total {sum(item.seconds for item in stages):.0f} s)"
    )
    print(f"total: {passed} passed, {failed} failed, {skipped} skipped", flush=True)
    return failed == 0


def test(pytest_args: Sequence[str]) -> bool:
    """Install, build, lint and run every suite; True when all of it passed."""
    stages = [stage("install", lambda s: setattr(s, "note", install_test_tools()))]
    if not stages[0].ok:
        return summarize(stages)
    built = stage("build", lambda s: setattr(s, "note", f"version {build()['build']}"))
    stages.append(built)
    linted = ["engine", "tests", "e2e", "bench", "tools", "build.py"]
    stages.append(
        stage(
            "ruff",
            lambda s: (
                run_check(["ruff", "check", *linted])
                and run_check(["ruff", "format", "--check", *linted])
            ),
        )
    )
    stages.append(stage("mypy", lambda s: run_check(["mypy"])))
    stages.append(
        stage("unit", lambda s: run_pytest("tests", pytest_args, s, False), is_suite=True)
    )
    stages.append(stage("js", lambda s: run_node_tests("tests/js", s), is_suite=True))
    if built.ok:
        stages.append(
            stage("e2e", lambda s: run_pytest("e2e", pytest_args, s, True), is_suite=True)
        )
    else:
        stages.append(Stage("e2e", note="not run: the build failed", is_suite=True, failed=1))
    return summarize(stages)


# -- bench -------------------------------------------------------------------------------------


def bench_scripts(names: Sequence[str]) -> Iterator[Path]:
    folder = ROOT / "bench"
    if not names:
        yield from sorted(folder.glob("bench_*.py"))
        return
    for name in names:
        path = folder / (name if name.endswith(".py") else f"{name}.py")
        if not path.is_file():
            path = folder / f"bench_{name}.py"
        if not path.is_file():
            raise BuildError(f"no benchmark {name!r} in bench/")
        yield path


def bench(names: Sequence[str]) -> bool:
    ok = True
    for script in bench_scripts(names):
        print(f"\n===== {script.relative_to(ROOT)} =====", flush=True)
        ok = subprocess.run([sys.executable, script], cwd=ROOT, check=False).returncode == 0 and ok
    return ok


# -- command line ------------------------------------------------------------------------------


def parse_args(argv: Sequence[str]) -> tuple[argparse.Namespace, list[str]]:
    parser = argparse.ArgumentParser(prog="build.py", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("build", help="assemble dist/")
    serve_parser = commands.add_parser("serve", help="build, then serve dist/")
    serve_parser.add_argument("--port", type=int, default=8000)
    serve_parser.add_argument("--host", default="127.0.0.1")
    serve_parser.add_argument("--no-build", action="store_true", help="serve dist/ as it is")
    commands.add_parser(
        "test",
        help="install, build, lint and run every suite (extra arguments go to each pytest run)",
    )
    bench_parser = commands.add_parser("bench", help="run benchmarks in bench/")
    bench_parser.add_argument("names", nargs="*", help="e.g. engine boot (default: all)")
    return parser.parse_known_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args, rest = parse_args(sys.argv[1:] if argv is None else argv)
    if rest and args.command != "test":
        print(f"build.py {args.command}: unexpected arguments {' '.join(rest)}", file=sys.stderr)
        return 2
    try:
        if args.command == "build":
            build()
            return 0
        if args.command == "serve":
            if not args.no_build:
                build()
            serve(DIST, args.host, args.port)
            return 0
        if args.command == "test":
            return 0 if test(rest) else 1
        return 0 if bench(args.names) else 1
    except BuildError as error:
        print(f"build.py {args.command}: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
