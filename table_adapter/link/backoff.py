"""Capped exponential backoff with jitter, for resending a report the controller did not answer."""

from __future__ import annotations

import random
from dataclasses import dataclass

MAX_DOUBLINGS = 30


@dataclass(frozen=True, slots=True)
class Backoff:
    """Wait `base` × 2^(failures-1) seconds, at most `cap`, with up to half of it as jitter."""

    base: float = 0.1
    cap: float = 5.0

    def __post_init__(self) -> None:
        if not 0 < self.base <= self.cap:
            raise ValueError("backoff needs 0 < base <= cap")

    def delay(self, failures: int, rng: random.Random, retry_after: float | None = None) -> float:
        """Seconds before the next attempt after `failures` in a row; honours Retry-After."""
        ceiling = min(self.cap, self.base * 2 ** min(max(failures, 1) - 1, MAX_DOUBLINGS))
        # Jitter spreads the tables of a floor apart when the controller comes back.
        wait = rng.uniform(ceiling / 2, ceiling)
        if retry_after is not None:
            wait = max(wait, min(retry_after, self.cap))
        return wait
