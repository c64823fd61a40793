"""The service as users run it: `jackpot serve` in a subprocess, over real HTTP."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.browser import Chromium, chromium
from tests.support.service import Service, start_service


@pytest.fixture
def workers() -> int:
    """The `service` fixture's JACKPOT_WORKERS: two, so that a change one worker makes is
    read by the other, which cached what it read before. A module whose tests check each
    request's own handling overrides it with one: a worker is a second of CPU to start."""
    return 2


@pytest.fixture
def service(tmp_path: Path, redis_server: object, redis: object, workers: int) -> Iterator[Service]:
    """`jackpot serve` over the session's redis-server (flushed by the `redis` fixture)."""
    url = redis_server.url  # type: ignore[attr-defined]
    svc = start_service(tmp_path, {"JACKPOT_REDIS_URL": url, "JACKPOT_WORKERS": str(workers)})
    yield svc
    svc.halt()


@pytest.fixture(scope="module")
def module_chromium() -> Iterator[Chromium]:
    """A headless Chromium (Debian's, driven by Playwright) the page tests of a module share:
    Playwright's driver and the browser take seconds to start, a context of its own none."""
    with chromium() as launched:
        yield launched


@pytest.fixture
def browser(module_chromium: Chromium) -> Iterator[Any]:
    """A headless Chromium for a page's test: the module's, the test's contexts (each as
    fresh as a new browser's) closed at its end, when what its pages met is checked."""
    yield module_chromium
    module_chromium.test_done()
