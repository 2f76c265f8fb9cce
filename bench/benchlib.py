"""What the bench scripts share: loading build.py and one another as modules.

The scripts run as ``python3 bench/<name>.py``, so this folder is on ``sys.path`` and they
``import benchlib``; the project's build.py and the other scripts are not packages, so they are
loaded from their files.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load_module(name: str, path: Path) -> ModuleType:
    """The Python file ``path`` imported as module ``name`` (registered in ``sys.modules``, as
    dataclasses need)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def load_build() -> ModuleType:
    """The project's build.py (``build``, ``serve_in_thread``, the pinned Pyodide...)."""
    return load_module("tapete_build", ROOT / "build.py")


def load_bench(name: str) -> ModuleType:
    """Another bench script, e.g. ``load_bench("bench_engine")``."""
    return load_module(name, ROOT / "bench" / f"{name}.py")
