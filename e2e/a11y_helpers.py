"""axe-core in the e2e tests: inject the pinned script into a page, audit what it shows.

The script is the npm package ``axe-core`` pinned in build.py (``AXE_CORE``), fetched with
``npm pack`` into .cache/vendor/ and checked there; it never ships in dist/. The page's CSP
allows only its own scripts, so the text goes in through Playwright's ``evaluate`` (the
DevTools protocol, which the CSP does not govern), never as a script tag.

The audit (e2e/a11y_audit.js) runs every axe rule and keeps the serious and critical
violations. axe cannot measure text contrast over a CSS gradient (it reports "needs review",
not a violation), and nearly every screen here sits on the felt's gradients, so the audit first
replaces each gradient with its least favourable solid colour for the element's text (its
lightest or darkest stops, composited over what lies under them) and puts the page back
afterwards: a pass means the text reads everywhere on the gradient. It also measures what axe
does not read: the card indices, drawn by CSS (a card face is a picture named by its
aria-label), and text the colour of its background, which axe only leaves for review.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ui_helpers import load_build_module

# What counts: WCAG and best-practice rules of these impacts. Nothing is disabled.
IMPACTS = ("serious", "critical")

# Nodes that a rule cannot apply to, each with the reason: (rule id, CSS target) -> why.
# Empty unless a rule truly does not apply somewhere; never a whole rule.
EXCLUDED: dict[tuple[str, str], str] = {}

# The audit itself (a function of the impacts that count), evaluated in the page.
AUDIT = (Path(__file__).resolve().parent / "a11y_audit.js").read_text(encoding="utf-8")


def axe_script() -> str:
    """The text of axe-core's browser script, fetched (npm pack) and checked by build.py.

    A missing or tampered file is fetched again; if that fails, build.py raises BuildError and
    the test errors: an accessibility test never passes without axe.
    """
    build = sys.modules.get("tapete_build") or load_build_module()
    path: Path = build.axe_core_script()
    text = path.read_text(encoding="utf-8")
    if not text.startswith("/*! axe v"):
        raise AssertionError(f"{path} is not axe-core's script")
    return text


@dataclass
class Audit:
    """Audits of one page, screen by screen; ``report()`` lists every violation found, each
    node once with the screens it was seen on."""

    page: Any
    script: str
    where: str  # the language and the viewport, named in the report
    screens: list[str] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)
    # (rule, impact, help) -> target -> (what axe says, the node's HTML, screens)
    violations: dict[tuple[str, str, str], dict[str, tuple[str, str, list[str]]]] = field(
        default_factory=dict
    )

    def check(self, screen: str) -> None:
        """Audit what the page shows now, under the name ``screen``."""
        started = time.perf_counter()
        if not self.page.evaluate("() => typeof window.axe === 'object'"):
            self.page.evaluate(self.script)
        name = f"{screen} [{self.where}]"
        self.screens.append(name)
        for violation in self.page.evaluate(AUDIT, list(IMPACTS)):
            rule = (violation["id"], violation["impact"], violation["help"])
            for node in violation["nodes"]:
                if (violation["id"], node["target"]) in EXCLUDED:
                    continue
                seen = self.violations.setdefault(rule, {})
                entry = seen.setdefault(node["target"], (node["summary"], node["html"], []))
                entry[2].append(name)
        self.seconds[name] = time.perf_counter() - started

    @property
    def found(self) -> bool:
        return bool(self.violations)

    def report(self) -> str:
        """Every violation: rule, impact, each target with axe's words and its screens."""
        lines = [f"serious or critical axe violations on {len(self.screens)} screens:"]
        for (rule, impact, help_text), nodes in self.violations.items():
            lines.append(f"{rule} ({impact}): {help_text}")
            for target, (summary, html, screens) in nodes.items():
                lines.append(f"  {target}\n    {summary}\n    {html}")
                lines.append(f"    on: {'; '.join(screens)}")
        return "\n".join(lines)
