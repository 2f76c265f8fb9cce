"""Chromium's arguments for timing a page: the tests' own, and the browser's omnibox popup off.

A fresh browser's first tab makes it load its own omnibox popup, a WebUI page (409 requests,
0.7-1.7 s of main-thread time in a renderer of its own, traced), while the page under test
starts: on two cores that is noise in every first visit a benchmark times. Chromium keeps only
the last ``--disable-features`` it is given, and Playwright passes its own list, which a second
switch would silently replace. So :func:`quiet_args` reads the list this Playwright passes (a
probe launch, its command line read back from ``/proc``) and gives one switch with both.

Glossary:
- probe: a browser launched once with a unique marker argument, to read its command line;
- quiet features: the features this module turns off on top of Playwright's.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

QUIET_FEATURES = ("WebUIOmniboxAimPopup", "WebUIOmniboxPopup", "WebUIOmniboxFullPopup")
SWITCH = "--disable-features="


def command_lines_with(marker: str) -> list[list[str]]:
    """The command lines of the running processes that carry ``marker`` (Linux ``/proc``)."""
    lines = []
    for entry in Path("/proc").iterdir():
        try:
            args = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        words = [arg.decode(errors="replace") for arg in args if arg]
        if marker in words:
            lines.append(words)
    return lines


def launcher_features(launch: Any) -> list[str]:
    """The features the browser launcher disables: ``launch(args)`` starts a browser and returns
    something with ``close()``. Empty when the command line cannot be read."""
    marker = f"--tapete-probe={uuid.uuid4().hex}"
    browser = launch([marker])
    try:
        lines = command_lines_with(marker)
    finally:
        browser.close()
    for words in lines:
        switches = [word for word in words if word.startswith(SWITCH)]
        if switches:
            return [name for name in switches[-1][len(SWITCH) :].split(",") if name]
    return []


def quiet_args(base: list[str], launch: Any) -> tuple[list[str], str]:
    """``base`` plus one ``--disable-features`` with the launcher's features and the quiet ones,
    and a line that says what was done."""
    if not Path("/proc/self/cmdline").exists():
        return base, "the omnibox popup left on (no /proc to read the launcher's features from)"
    theirs = launcher_features(launch)
    if not theirs:
        return base, "the omnibox popup left on (the launcher's --disable-features not found)"
    merged = theirs + [name for name in QUIET_FEATURES if name not in theirs]
    return [*base, SWITCH + ",".join(merged)], (
        f"the omnibox popup off (--disable-features: the launcher's {len(theirs)} and "
        f"{len(merged) - len(theirs)} more)"
    )
