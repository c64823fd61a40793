"""A real browser for the pages: Debian's chromium driven by Playwright (CI installs both)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARTEFACTS = Path(__file__).resolve().parents[2] / "build" / "test-artefacts"

needs_chromium = pytest.mark.skipif(
    CHROMIUM is None,
    reason="no chromium here (./dev test installs Debian's chromium)",
)


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium for the length of a test."""
    from playwright.sync_api import sync_playwright  # noqa: PLC0415 - only where pages are

    assert CHROMIUM is not None, "CI must install chromium"
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield launched
        finally:
            launched.close()


def artefacts(name: str) -> Path:
    """The folder a test keeps its screenshots in (build/test-artefacts/<name>)."""
    folder = ARTEFACTS / name
    folder.mkdir(parents=True, exist_ok=True)
    return folder
