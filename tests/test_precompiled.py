"""The precompiled standard library and wheel (tools/precompile.mjs, build.py) and the memory
snapshot, inside real Pyodide under Node, offline: same answers as CPython, byte for byte.

The browser side (web/worker.js: the snapshot kept in the Cache API, its checks and fallbacks)
is tested in e2e/test_startup.py.
"""

from __future__ import annotations

import json
import shutil
import sys
import zipfile
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tapete.api import handle
from test_pyodide import NODE, all_requests, load_build, run_in_pyodide

pytestmark = [
    pytest.mark.skipif(sys.platform == "emscripten", reason="already inside Pyodide"),
    pytest.mark.skipif(NODE is None, reason="node not found: install Node.js 18+ to run these"),
]

# Where modules came from, and a module imported afresh (lazy imports find the wheel's files).
WHERE = """
import json, sys, tapete.api
sys.modules.pop("tapete.rng")
import tapete.rng
json.dumps({"json": json.__spec__.origin, "api": tapete.api.__spec__.cached,
            "fresh": tapete.rng.__spec__.cached,
            "stdlib_on_path": [p for p in sys.path if ".zip" in p]})
"""


@pytest.fixture(scope="module")
def tool() -> ModuleType:
    return load_build()


@pytest.fixture(scope="module")
def stdlib(tool: ModuleType) -> Path:
    path: Path = tool.ensure_stdlib_pyc()
    return path


@pytest.fixture(scope="module")
def shipped_stdlib(tool: ModuleType) -> Path:
    """The standard library the app ships: the precompiled one, trimmed to what it imports."""
    path: Path = tool.ensure_stdlib_trimmed()
    return path


@pytest.fixture(scope="module")
def wheels(tool: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the wheel as built, the same wheel precompiled)."""
    source = tool.build_wheel(tmp_path_factory.mktemp("source"))
    compiled = tmp_path_factory.mktemp("compiled") / source.name
    shutil.copyfile(source, compiled)
    tool.precompile_wheel(compiled)
    return source, compiled


def test_stdlib_zip_holds_bytecode_for_every_module(tool: ModuleType, stdlib: Path) -> None:
    with zipfile.ZipFile(tool.ensure_pyodide() / tool.STDLIB_ZIP) as original:
        names = original.namelist()
    with zipfile.ZipFile(stdlib) as compiled:
        infos = compiled.infolist()
        assert [info.filename for info in infos] == sorted(
            name + "c" if name.endswith(".py") else name for name in names
        )
        assert {info.date_time for info in infos} == {(1980, 1, 1, 0, 0, 0)}
        header = compiled.read("json/__init__.pyc")[:8]
    assert header[2:4] == b"\r\n" and header[4:8] == (1).to_bytes(4, "little")  # unchecked hash


def test_trimmed_stdlib_is_a_part_of_the_whole_with_every_import_of_the_app(
    tool: ModuleType, stdlib: Path, shipped_stdlib: Path
) -> None:
    with zipfile.ZipFile(stdlib) as whole, zipfile.ZipFile(shipped_stdlib) as part:
        kept = part.infolist()
        for info in kept:  # the same entries, byte for byte, in the same order
            assert whole.read(info.filename) == part.read(info), info.filename
        names = [info.filename for info in kept]
        every = whole.namelist()
        assert names == [name for name in every if name in set(names)]
    assert shipped_stdlib.stat().st_size < stdlib.stat().st_size / 2
    for module in tool.stdlib_roots():  # every one that is not built into the interpreter
        path = module.replace(".", "/")
        if f"{path}.pyc" in every or f"{path}/__init__.pyc" in every:
            assert f"{path}.pyc" in names or f"{path}/__init__.pyc" in names, module
    # Every codec (found by name at run time); what Pyodide's start, the worker's calls
    # (unpackArchive, importlib.invalidate_caches) and the engine's modules load lazily.
    assert all(n in names for n in every if n.startswith("encodings/"))
    for module in (
        "pyodide/__init__",
        "_pyodide/_base",
        "tarfile",
        "importlib/metadata/__init__",
        "email/__init__",
        "decimal",
    ):
        assert f"{module}.pyc" in names, module
    assert "unittest/__init__.pyc" not in names and "http/client.pyc" not in names


def test_engine_imports_are_found_in_its_sources(tool: ModuleType) -> None:
    imports = tool.engine_imports()
    assert {"json", "hashlib", "dataclasses", "fractions"} <= set(imports)
    assert not [name for name in imports if name.split(".")[0] == "tapete"]


def test_precompiled_wheel_adds_bytecode_and_is_reproducible(
    tool: ModuleType, wheels: tuple[Path, Path], tmp_path: Path
) -> None:
    source, compiled = wheels
    with zipfile.ZipFile(source) as plain, zipfile.ZipFile(compiled) as pyc:
        modules = [n for n in plain.namelist() if n.endswith(".py")]
        extra = sorted(set(pyc.namelist()) - set(plain.namelist()))
        for name in plain.namelist():
            if not name.endswith("RECORD"):
                assert pyc.read(name) == plain.read(name), name
        record = pyc.read(next(n for n in pyc.namelist() if n.endswith("RECORD"))).decode()
    assert len(extra) == len(modules) and all(".cpython-314.pyc" in name for name in extra)
    assert all(f"\n{name},sha256=" in "\n" + record for name in extra)
    again = tmp_path / source.name
    tool.precompile("wheel", source, again, tool.ensure_pyodide())  # not from the cache
    assert again.read_bytes() == compiled.read_bytes()


@pytest.mark.parametrize("mode", ["loadPackage", "snapshot"])
def test_answers_match_cpython(
    tool: ModuleType,
    shipped_stdlib: Path,
    wheels: tuple[Path, Path],
    mode: str,
    tmp_path: Path,
) -> None:
    """The shipped stdlib (precompiled and trimmed) and the precompiled wheel; in mode
    "snapshot", from a restored memory snapshot."""
    config: dict[str, Any] = {
        "mode": mode,
        "pyodide": str(tool.ensure_pyodide()),
        "wheel": str(wheels[1]),
        "stdlib": str(shipped_stdlib),
        "metadata": False,
        "requests": all_requests(),
        "python": WHERE,
    }
    result = run_in_pyodide(tmp_path, config)
    assert result["network"] == []
    for request, got in zip(all_requests(), result["responses"], strict=True):
        assert got == handle(request), request
    where = json.loads(result["python"])
    assert where["json"].endswith("/json/__init__.pyc"), where
    assert where["api"].endswith("/tapete/__pycache__/api.cpython-314.pyc"), where
    assert where["fresh"] == where["api"].replace("api.", "rng."), where
    assert where["stdlib_on_path"] == ["/lib/python314.zip"]
