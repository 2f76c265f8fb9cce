"""Compile Python sources to .pyc inside Pyodide (run by tools/precompile.mjs, never by CPython),
and trim the compiled standard library to what the app imports.

Python 3.14's standard library ships as source in the npm package ``pyodide``, so every start
compiles what it imports. These functions write the same files as bytecode, made by the very
interpreter that will run them. Every .pyc is an *unchecked hash-based* pyc (PEP 552): its bytes
depend only on the source, so the same input always gives the same output, and it is used
without looking for the source. Zip entries are written in sorted order with the zip epoch as
their date, so the output is reproducible byte for byte.
"""

from __future__ import annotations

import ast
import base64
import hashlib
import importlib
import importlib.util
import marshal
import sys
import zipfile

EPOCH = (1980, 1, 1, 0, 0, 0)
STDLIB_PREFIX = "/lib/python314.zip/"  # where Pyodide mounts the standard library zip
SITE_PACKAGES = f"/lib/python{sys.version_info[0]}.{sys.version_info[1]}/site-packages/"
CACHE_TAG = sys.implementation.cache_tag  # "cpython-314"


def pyc(source: bytes, filename: str) -> bytes:
    """An unchecked hash-based .pyc of ``source``; tracebacks will name ``filename``."""
    code = compile(source, filename, "exec", dont_inherit=True, optimize=0)
    header = importlib.util.MAGIC_NUMBER + (0b01).to_bytes(4, "little")
    return header + importlib.util.source_hash(source) + marshal.dumps(code)


def entry(name: str, compress: int) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=EPOCH)
    info.compress_type = compress
    info.external_attr = (0o40755 << 16) | 0x10 if name.endswith("/") else 0o100644 << 16
    return info


def stdlib(source_zip: str, out_zip: str, compress: int = zipfile.ZIP_DEFLATED) -> int:
    """The standard library zip with every ``x.py`` replaced by ``x.pyc``; returns the count."""
    count = 0
    with zipfile.ZipFile(source_zip) as src, zipfile.ZipFile(out_zip, "w") as out:
        for name in sorted(src.namelist()):
            data = src.read(name)
            if name.endswith(".py"):
                data, name = pyc(data, STDLIB_PREFIX + name), name + "c"
                count += 1
            out.writestr(entry(name, compress), data)
    return count


def record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}\n"


def wheel(source_wheel: str, out_wheel: str) -> int:
    """The wheel plus ``__pycache__/<module>.<tag>.pyc`` for each module (listed in RECORD)."""
    with zipfile.ZipFile(source_wheel) as src:
        infos = src.infolist()
        files = {info.filename: src.read(info) for info in infos}
    record = next(name for name in files if name.endswith(".dist-info/RECORD"))
    compiled: dict[str, bytes] = {}
    for name in sorted(files):
        if name.endswith(".py") and ".dist-info/" not in name:
            folder, _, module = name.rpartition("/")
            target = f"{folder}/__pycache__/{module[:-3]}.{CACHE_TAG}.pyc".lstrip("/")
            compiled[target] = pyc(files[name], SITE_PACKAGES + name)
    lines = files[record].decode().splitlines(keepends=True)
    lines += [record_line(name, data) for name, data in compiled.items()]
    with zipfile.ZipFile(out_wheel, "w") as out:
        for info in infos:
            if info.filename != record:
                out.writestr(info, files[info.filename])
        for name, data in compiled.items():
            out.writestr(entry(name, zipfile.ZIP_DEFLATED), data)
        record_info = next(info for info in infos if info.filename == record)
        out.writestr(record_info, "".join(sorted(lines, key=lambda line: line.split(",")[0])))
    return len(compiled)


# -- the standard library the app needs ---------------------------------------------------------


def imported_names(source: str) -> set[str]:
    """Every module an ``import`` statement of ``source`` names, at any depth (inside functions
    too), absolute imports only, with their parent packages."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        else:
            continue
        for name in found:
            parts = name.split(".")
            names.update(".".join(parts[:end]) for end in range(1, len(parts) + 1))
    return names


def import_quietly(name: str) -> None:
    try:
        importlib.import_module(name)
    except Exception:  # not a module (``from x import function``), or not on this platform
        pass


def needed_modules(roots: list[str]) -> set[str]:
    """What an app that imports ``roots`` (the engine's and the worker's own imports of the
    standard library) loads in this Pyodide: the modules of Pyodide's own start (already in
    ``sys.modules``), each root and what importing it imports, one level down every module a
    root's own functions import lazily, and what ``importlib.invalidate_caches`` loads (the
    worker calls it when it unpacks the wheel with Python)."""
    for name in roots:
        import_quietly(name)
    for name in roots:
        try:
            module = sys.modules[name]
            source = module.__spec__.loader.get_source(module.__spec__.name)
        except Exception:  # built in, frozen, or an alias (collections.abc): no source here
            source = None
        for lazy in sorted(imported_names(source or "")):
            import_quietly(lazy)
    importlib.invalidate_caches()
    return set(sys.modules)


def module_of(path: str) -> str:
    """The module a zip entry belongs to: "json/decoder.pyc" -> "json.decoder",
    "json/__init__.pyc" -> "json", "encodings/" -> "encodings"."""
    name = path.rstrip("/").removesuffix(".pyc").removesuffix("/__init__")
    return name.replace("/", ".")


# Packages kept whole: ``encodings`` finds a codec by its name, at run time.
WHOLE = ("encodings",)


def trim(compiled_zip: str, out_zip: str, roots: str) -> int:
    """``compiled_zip`` (the whole standard library as .pyc) with only the modules the app
    needs (``needed_modules`` of the comma-separated ``roots``), their packages' folders, and
    the packages of ``WHOLE``; entries byte for byte as they were. Returns the number of files
    kept."""
    needed = needed_modules([name for name in roots.split(",") if name])
    kept = 0
    with zipfile.ZipFile(compiled_zip) as src, zipfile.ZipFile(out_zip, "w") as out:
        for info in src.infolist():
            name = info.filename
            if name.split("/")[0] in WHOLE or module_of(name) in needed:
                out.writestr(info, src.read(info))
                kept += 0 if name.endswith("/") else 1
    return kept
