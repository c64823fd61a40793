"""The service as users run it: `jackpot serve` in a subprocess, over real HTTP."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.browser import chromium
from tests.support.service import Service, start_service


@pytest.fixture
def service(tmp_path: Path, redis_server: object, redis: object) -> Iterator[Service]:
    """`jackpot serve` over the session's redis-server (flushed by the `redis` fixture)."""
    svc = start_service(tmp_path, {"JACKPOT_REDIS_URL": redis_server.url})  # type: ignore[attr-defined]
    yield svc
    svc.halt()


@pytest.fixture
def browser() -> Iterator[Any]:
    """A headless Chromium (Debian's, driven by Playwright) for a page's test."""
    with chromium() as launched:
        yield launched
