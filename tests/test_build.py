"""build.py: dist/ layout, build.json, the service worker's precache list, reproducibility, and
the MIME types of its server (docs/CONTRACTS.md). Builds from a small web/ made here, so these
checks do not depend on the state of the real web/."""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import json
import re
import shutil
import sys
import urllib.request
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tapete import GAMES, __version__
from test_pyodide import load_build

pytestmark = [
    pytest.mark.skipif(sys.platform == "emscripten", reason="builds with subprocesses"),
    pytest.mark.skipif(shutil.which("npm") is None, reason="npm not found: Pyodide comes from npm"),
]

SW = 'const BUILD = "__TAPETE_BUILD__";\nself.addEventListener("install", () => {});\n'
PAGE = (
    '<!doctype html><meta http-equiv="Content-Security-Policy" content="default-src \'self\'; '
    "script-src 'self' 'wasm-unsafe-eval'\"><title>t</title>\n"
    '<script src="boot.js" async></script>\n'
    '  <link rel="stylesheet" href="style.css">\n'
    '  <link rel="stylesheet" href="styles/wizard.css">\n'
    '<script type="module" src="app.js"></script>\n'
)
BOOT = "const START = /* build.json's start fields */ null;\nnew Worker('worker.js');\n"


@pytest.fixture(scope="module")
def tool() -> ModuleType:
    return load_build()


def make_web(folder: Path, sw: str = SW) -> Path:
    (folder / "render").mkdir(parents=True)
    (folder / "index.html").write_text(PAGE, encoding="utf-8")
    (folder / "boot.js").write_text(BOOT, encoding="utf-8")
    (folder / "app.js").write_text(
        'import { seats } from "./render/wizard.js";\nexport const x = seats + 1;\n',
        encoding="utf-8",
    )
    (folder / "render" / "wizard.js").write_text("export const seats = 4;\n", encoding="utf-8")
    (folder / "styles").mkdir()
    (folder / "style.css").write_text("body { margin: 0; }\n", encoding="utf-8")
    (folder / "styles" / "wizard.css").write_text(".card { color: red; }\n", encoding="utf-8")
    (folder / "manifest.webmanifest").write_text("{}\n", encoding="utf-8")
    (folder / ".hidden").write_text("not shipped\n", encoding="utf-8")
    (folder / "sw.js").write_text(sw, encoding="utf-8")
    for lang, word in (("en", "Hello"), ("es", "Hola")):
        (folder / "i18n" / lang).mkdir(parents=True)
        (folder / "i18n" / lang / "core.json").write_text(
            json.dumps({"app.hello": word}), encoding="utf-8"
        )
        (folder / "i18n" / lang / "wizard.json").write_text(
            json.dumps({"wizard.name": "Wizard"}), encoding="utf-8"
        )
    return folder


def digests(folder: Path) -> dict[str, str]:
    return {
        path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def precache(dist: Path) -> dict[str, Any]:
    text = (dist / "sw.js").read_text(encoding="utf-8")
    match = re.search(r"const BUILD = (\{.*\});", text)
    assert match, text
    payload: dict[str, Any] = json.loads(match.group(1))
    return payload


@pytest.fixture(scope="module")
def built(
    tool: ModuleType, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, dict[str, Any]]:
    base = tmp_path_factory.mktemp("build")
    web = make_web(base / "web")
    info: dict[str, Any] = tool.build(base / "dist", web)
    return base / "dist", info


def test_dist_layout(built: tuple[Path, dict[str, Any]], tool: ModuleType) -> None:
    dist, info = built
    files = set(digests(dist))
    runtime = {f"pyodide/{name}" for name in tool.PYODIDE_LOADER} | {f"pyodide/{tool.STDLIB_PYC}"}
    wheel = f"engine/tapete-{__version__}-py3-none-any.whl"
    web = {"index.html", "app.js", "render/wizard.js", "manifest.webmanifest", "sw.js"}
    web |= {"style.css", "styles/wizard.css", "app.css"}  # app.css: both, folded
    strings = {"i18n/en.json", "i18n/es.json"}  # web/i18n/<lang>/*.json merged
    # the pinned npm libraries (QR codes), each file where the page loads it
    vendor = {
        f"vendor/{package.name}/{Path(name).name}"
        for package in tool.VENDORED
        for name in package.files
    }
    assert "vendor/lean-qr/index.mjs" in vendor and "vendor/jsqr/jsQR.js" in vendor
    assert files == runtime | web | strings | vendor | {wheel, "build.json"}
    # libraries only the tests use never reach players
    assert not any(package.name in name for package in tool.TEST_VENDORED for name in files)
    assert info["wheel"] == wheel
    es = json.loads((dist / "i18n" / "es.json").read_text(encoding="utf-8"))
    assert es == {"app.hello": "Hola", "wizard.name": "Wizard"}


def test_boot_is_inlined_with_the_start_fields_and_its_hash(
    built: tuple[Path, dict[str, Any]], tool: ModuleType
) -> None:
    dist, info = built
    html = (dist / "index.html").read_text(encoding="utf-8")
    assert 'src="boot.js"' not in html and not (dist / "boot.js").exists()
    match = re.search(r"<script>(.*?)</script>", html, re.S)
    assert match
    code = match.group(1)
    found = re.search(r"const START = (\{.*?\});", code)
    assert found
    fields = ("wheel", "stdlib", "snapshot_key", "engine_version")
    assert tool.START_FIELDS == fields
    assert json.loads(found.group(1)) == {key: info[key] for key in fields}
    digest = base64.b64encode(hashlib.sha256(code.encode("utf-8")).digest()).decode("ascii")
    assert f"script-src 'self' 'sha256-{digest}' 'wasm-unsafe-eval'" in html


def test_the_page_is_one_module_and_one_stylesheet(built: tuple[Path, dict[str, Any]]) -> None:
    """app.js holds the modules it imports (it runs without them); index.html links app.css,
    which is the page's stylesheets in the page's order."""
    dist, _info = built
    code = (dist / "app.js").read_text(encoding="utf-8")
    assert "import " not in code and "var seats = 4;" in code
    html = (dist / "index.html").read_text(encoding="utf-8")
    assert re.findall(r'<link rel="stylesheet" href="([^"]+)">', html) == ["app.css"]
    assert html.index("app.css") < html.index('src="app.js"')
    styles = (dist / "app.css").read_text(encoding="utf-8")
    assert styles.index("body { margin: 0; }") < styles.index(".card { color: red; }")


def test_a_folded_stylesheet_with_a_url_is_a_clear_error(tool: ModuleType, tmp_path: Path) -> None:
    """url() and @import resolve against their stylesheet: in app.css they would miss."""
    web = make_web(tmp_path / "web")
    (web / "styles" / "wizard.css").write_text(".a { background: url(x.png); }\n", "utf-8")
    with pytest.raises(tool.BuildError, match=r"styles/wizard.css: a url\(\) or @import"):
        tool.build(tmp_path / "dist", web)


@pytest.mark.parametrize(
    ("file", "text"),
    [
        ("index.html", "<!doctype html><title>t</title>\n"),
        ("boot.js", "new Worker('worker.js');\n"),
    ],
    ids=["page without boot.js", "boot.js without its start"],
)
def test_boot_that_cannot_be_inlined_is_a_clear_error(
    tool: ModuleType, tmp_path: Path, file: str, text: str
) -> None:
    web = make_web(tmp_path / "web")
    (web / file).write_text(text, encoding="utf-8")
    with pytest.raises(tool.BuildError, match="must contain"):
        tool.build(tmp_path / "dist", web)


def test_a_key_in_two_translation_files_fails_the_build(tool: ModuleType, tmp_path: Path) -> None:
    web = make_web(tmp_path / "web")
    (web / "i18n" / "en" / "lobo.json").write_text('{"app.hello": "Hi"}', encoding="utf-8")
    with pytest.raises(tool.BuildError, match=r"lobo\.json: key 'app.hello' is already defined"):
        tool.build(tmp_path / "dist", web)


def test_build_json(built: tuple[Path, dict[str, Any]], tool: ModuleType) -> None:
    dist, info = built
    on_disk = json.loads((dist / "build.json").read_text(encoding="utf-8"))
    assert on_disk == info
    assert list(info) == [
        "engine_version",
        "pyodide_version",
        "wheel",
        "wheel_sha256",
        "stdlib",
        "stdlib_sha256",
        "snapshot_key",
        "build",
        "games",
    ]
    assert info["engine_version"] == __version__
    assert info["pyodide_version"] == tool.PYODIDE_VERSION
    assert info["games"] == [GAMES[name].catalogue() for name in sorted(GAMES)]
    assert re.fullmatch(r"[0-9a-f]{12}", info["build"])
    assert info["stdlib"] == f"pyodide/{tool.STDLIB_PYC}"
    for name in ("wheel", "stdlib"):
        digest = hashlib.sha256((dist / info[name]).read_bytes()).hexdigest()
        assert info[f"{name}_sha256"] == digest
    assert re.fullmatch(r"[0-9a-f]{16}", info["snapshot_key"])


def test_service_worker_precaches_every_file(
    built: tuple[Path, dict[str, Any]], tool: ModuleType
) -> None:
    """Every file the page can ask for: not the modules and stylesheets folded into app.js and
    app.css (style.css stays: the rules pages link it)."""
    dist, info = built
    payload = precache(dist)
    assert payload["version"] == info["build"]
    assert payload["files"][0] == "./"
    folded = {"render/wizard.js", "styles/wizard.css"}
    assert sorted(payload["files"][1:]) == sorted(set(digests(dist)) - folded)
    assert tool.precached(dist) == payload["files"]
    assert "__TAPETE_BUILD__" not in (dist / "sw.js").read_text(encoding="utf-8")


def test_same_inputs_same_bytes_and_any_change_changes_the_version(
    built: tuple[Path, dict[str, Any]], tool: ModuleType, tmp_path: Path
) -> None:
    dist, info = built
    web = make_web(tmp_path / "web")
    again = tool.build(tmp_path / "dist", web)
    assert digests(tmp_path / "dist") == digests(dist)
    (web / "render" / "wizard.js").write_text("export const seats = 5;\n", encoding="utf-8")
    changed = tool.build(tmp_path / "dist", web)
    assert again["build"] == info["build"] != changed["build"]


@pytest.mark.parametrize("sw", ["self.skipWaiting();\n", SW + SW], ids=["absent", "twice"])
def test_placeholder_must_appear_once(tool: ModuleType, tmp_path: Path, sw: str) -> None:
    web = make_web(tmp_path / "web", sw)
    with pytest.raises(tool.BuildError, match="exactly once"):
        tool.build(tmp_path / "dist", web)


def test_missing_service_worker_is_a_clear_error(tool: ModuleType, tmp_path: Path) -> None:
    web = make_web(tmp_path / "web")
    (web / "sw.js").unlink()
    with pytest.raises(tool.BuildError, match="sw.js is missing"):
        tool.build(tmp_path / "dist", web)


def test_server_mime_types(built: tuple[Path, dict[str, Any]], tool: ModuleType) -> None:
    dist, info = built
    server, url = tool.serve_in_thread(dist, port=0)
    try:
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/", url)
        expected = {
            "": "text/html",
            "pyodide/pyodide.asm.wasm": "application/wasm",
            "pyodide/pyodide.mjs": "text/javascript",
            "app.js": "text/javascript",
            "manifest.webmanifest": "application/manifest+json",
            "build.json": "application/json",
            info["stdlib"]: "application/zip",
            info["wheel"]: "application/octet-stream",
        }
        for path, mime in expected.items():
            with urllib.request.urlopen(url + path, timeout=10) as response:
                assert response.headers.get_content_type() == mime, path
                body = response.read()
            assert body == (dist / (path or "index.html")).read_bytes()
    finally:
        server.shutdown()
        server.server_close()


def test_vendored_files_are_checked(tool: ModuleType, tmp_path: Path) -> None:
    """A vendored library fetched once is reused; a cached file that changed is fetched again
    (its sha256 no longer matches), and a tarball with another integrity is refused."""
    package = tool.VENDORED[0]
    folder = tool.ensure_vendored(package)
    cached = tool.ensure_vendored(package, folder.parent)
    assert cached == folder
    copy = tmp_path / "cache"
    shutil.copytree(folder, copy / folder.name)
    target = copy / folder.name / package.files[0]
    target.write_text("tampered", encoding="utf-8")
    again = tool.ensure_vendored(package, copy)
    assert (
        again.joinpath(package.files[0]).read_bytes()
        == folder.joinpath(package.files[0]).read_bytes()
    )
    bad = dataclasses.replace(package, integrity="sha512-AAAA")
    with pytest.raises(tool.BuildError, match="integrity"):
        tool.ensure_vendored(bad, tmp_path / "other")


def test_axe_core_is_pinned_for_the_tests_only(tool: ModuleType) -> None:
    """axe-core (the e2e accessibility checks) is fetched and checked like the page's libraries,
    and is not one of them: the build never copies it to dist/."""
    assert tool.AXE_CORE in tool.TEST_VENDORED
    assert all(package.name != "axe-core" for package in tool.VENDORED)
    script = tool.axe_core_script()
    assert script.read_text(encoding="utf-8").startswith(f"/*! axe v{tool.AXE_CORE.version}")
