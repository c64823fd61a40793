"""A real browser for the pages: Debian's chromium driven by Playwright (CI installs both).

Every page a test opens is watched (`Chromium`): the test fails if a page's
Content-Security-Policy refused anything, or if an answer from the service came without its
security headers (docs/DECISIONS.md D244)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARTEFACTS = Path(__file__).resolve().parents[2] / "build" / "test-artefacts"
SECURITY_HEADERS = ("content-security-policy", "x-frame-options", "x-content-type-options")

needs_chromium = pytest.mark.skipif(
    CHROMIUM is None,
    reason="no chromium here (./dev test installs Debian's chromium)",
)

# each refusal as an event too, in the page's console (Chromium also writes its own line)
_REPORT_REFUSALS = """
addEventListener("securitypolicyviolation", (e) => console.error(
  "securitypolicyviolation: " + e.effectiveDirective + " refused " + (e.blockedURI || "?")
  + " at " + (e.sourceFile || location.href) + ":" + e.lineNumber));
"""


class Chromium:
    """A launched Chromium whose contexts record what their pages' policies refused and the
    answers that came without the security headers."""

    def __init__(self, launched: Any) -> None:
        self._launched = launched
        self.refused: list[str] = []  # console lines about the policy
        self.unprotected: list[str] = []  # answers missing a header, with what they miss

    def new_context(self, **options: Any) -> Any:
        context = self._launched.new_context(**options)
        context.add_init_script(_REPORT_REFUSALS)
        context.on("console", self._console)
        context.on("response", self._response)
        return context

    def new_page(self, **options: Any) -> Any:
        return self.new_context(**options).new_page()

    def _console(self, message: Any) -> None:
        text = str(message.text)
        if "Content Security Policy" in text or text.startswith("securitypolicyviolation"):
            self.refused.append(text)

    def _response(self, response: Any) -> None:
        if not response.url.startswith("http") or response.from_service_worker:
            return  # a worker's copy carries what its original carried
        missing = [h for h in SECURITY_HEADERS if h not in response.headers]
        if missing:
            self.unprotected.append(f"{response.url}: no {', '.join(missing)}")

    def assert_obeyed(self) -> None:
        refused, unprotected = "\n".join(self.refused), "\n".join(self.unprotected)
        assert not refused, f"a page's Content-Security-Policy refused:\n{refused}"
        assert not unprotected, f"answers without their security headers:\n{unprotected}"

    def test_done(self) -> None:
        """A test's end on a Chromium the tests of a module share: every context the test
        opened closed (its pages, cookies, storage and service workers with it), and what its
        pages met checked, as at the end of a Chromium of its own; the next test starts with
        no context and nothing recorded."""
        for context in self._launched.contexts:
            context.close()
        try:
            self.assert_obeyed()
        finally:
            self.refused, self.unprotected = [], []

    @contextmanager
    def watching(self) -> Iterator[Chromium]:
        """One test of several sharing this browser, as a block: `test_done` at its end."""
        try:
            yield self
        finally:
            self.test_done()


@contextmanager
def chromium() -> Iterator[Chromium]:
    """A headless Chromium for the length of the block (a test, or a module's tests, each
    ended by Chromium.test_done); at its end (if the block passed), no page broke its policy
    and every answer carried the security headers."""
    from playwright.sync_api import sync_playwright  # only where pages are

    assert CHROMIUM is not None, "CI must install chromium"
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        watched = Chromium(launched)
        try:
            yield watched
        finally:
            launched.close()
    watched.assert_obeyed()


def artefacts(name: str) -> Path:
    """The folder a test keeps its screenshots in (build/test-artefacts/<name>)."""
    folder = ARTEFACTS / name
    folder.mkdir(parents=True, exist_ok=True)
    return folder
