"""The service's wall clock, in ms since the epoch (journal times come from Redis)."""

from __future__ import annotations

import time


def now_ms() -> int:
    return time.time_ns() // 1_000_000
