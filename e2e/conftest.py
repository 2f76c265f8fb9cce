"""E2E fixtures: build dist/ once into a temporary folder, serve it on 127.0.0.1, drive Chromium.

Every browser context records every request it makes; a test fails if any request leaves the
server's origin. Screenshots go to e2e/screenshots/ (gitignored) for a person to look at.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from ui_helpers import CHROMIUM_ARGS, FAST_BOTS, NO_TOURS, load_build_module

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """pytest-playwright's launch arguments: Debian's Chromium when there is one."""
    args = {**browser_type_launch_args, "args": CHROMIUM_ARGS}
    if CHROMIUM.exists():
        args["executable_path"] = str(CHROMIUM)
    return args


@pytest.fixture(scope="session")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh build of the app (never the shared dist/, which others may be serving)."""
    build = load_build_module()
    target = tmp_path_factory.mktemp("dist")
    build.build(target)
    return target


@pytest.fixture(scope="session")
def app_url(dist: Path) -> Iterator[str]:
    build = sys.modules["tapete_build"]
    server, url = build.serve_in_thread(dist, port=0)
    try:
        yield url
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def build_info(dist: Path) -> dict[str, Any]:
    return json.loads((dist / "build.json").read_text())


class Recorder:
    """Every request of a context, to prove that none leaves the app's origin."""

    def __init__(self, origin: str) -> None:
        self.origin = origin
        self.urls: list[str] = []

    def __call__(self, request: Any) -> None:
        self.urls.append(request.url)

    def foreign(self) -> list[str]:
        out = []
        for url in self.urls:
            parts = urlsplit(url)
            if parts.scheme in ("data", "blob", "about"):
                continue
            if f"{parts.scheme}://{parts.netloc}" != self.origin:
                out.append(url)
        return out


@pytest.fixture
def new_context(browser: Any, app_url: str) -> Iterator[Callable[..., Any]]:
    """Make browser contexts (fast bots on, requests recorded); checks them at teardown."""
    made: list[tuple[Any, Recorder]] = []
    origin = app_url.rstrip("/")

    def make(
        *, fast: bool = True, tours: bool = False, service_worker: bool = False, **options: Any
    ) -> Any:
        """A new context; the service worker is blocked unless a test is about it (speed).

        Every game's guided tour counts as seen unless ``tours`` (then not with ``fast``, whose
        script writes the settings afresh at every load).
        """
        if fast and tours:
            raise ValueError("tours=True needs fast=False (add FAST_BOTS_ONCE for fast bots)")
        options.setdefault("viewport", {"width": 1280, "height": 800})
        options.setdefault("service_workers", "allow" if service_worker else "block")
        options.setdefault("locale", "en-US")
        context = browser.new_context(**options)
        recorder = Recorder(origin)
        context.on("request", recorder)
        if fast:
            context.add_init_script(FAST_BOTS)
        elif not tours:
            context.add_init_script(NO_TOURS)
        context.set_default_timeout(30_000)
        made.append((context, recorder))
        return context

    yield make
    foreign = [url for _, recorder in made for url in recorder.foreign()]
    for context, _ in made:
        context.close()
    assert not foreign, f"requests left {origin}: {foreign[:5]}"
