"""The pools as a meter sign sees them (GET /v1/pools/{pool}), read by one thread in order.

Round answers carry the meter too, but answers to different tables arrive on different
threads in no particular order, and nothing in them says which the controller settled
last: the newest meter is the one read last, by a single reader.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol, TypeGuard


@dataclass(frozen=True, slots=True)
class Hit:
    """One of a pool's last hits as the public read shows it, with its payout's status."""

    id: str
    table: str
    spot: int
    outcome: str
    amount: int
    created: int  # ms since the epoch
    status: str  # pending, paid, disputed


@dataclass(frozen=True, slots=True)
class PoolReading:
    """A pool's visible meter and its last hits (newest first), in cents."""

    pool: str
    value: int
    reset: int
    hits: int
    last_hits: tuple[Hit, ...] = ()


class PoolSource(Protocol):
    def pool(self, pool: str) -> PoolReading | None: ...


class MeterWatch:
    """Reads the pools every `interval` seconds on its own thread; `latest()` is the newest."""

    def __init__(self, source: PoolSource, pools: Iterable[str], interval: float = 0.5) -> None:
        self.source = source
        self.interval = interval
        self._pools = dict.fromkeys(pools)
        self._latest: dict[str, PoolReading] = {}
        self._read_at: dict[str, float] = {}  # monotonic time of each pool's last reading
        self._lock = threading.Lock()
        self._reading = threading.Lock()  # one read at a time: a later read is a newer one
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def add(self, pool: str) -> None:
        """Watch another pool too."""
        with self._lock:
            self._pools.setdefault(pool)

    def pools(self) -> list[str]:
        """The watched pools, in the order they were added."""
        with self._lock:
            return list(self._pools)

    def latest(self) -> dict[str, PoolReading]:
        """The newest reading of each watched pool that could be read."""
        with self._lock:
            return dict(self._latest)

    def read(self) -> dict[str, PoolReading]:
        """Read every watched pool now; keep and return the readings."""
        with self._reading:
            for pool in self.pools():
                reading = self.source.pool(pool)
                if reading is not None:
                    with self._lock:
                        self._latest[pool] = reading
                        self._read_at[pool] = time.monotonic()
        return self.latest()

    def age(self) -> float | None:
        """Seconds since the oldest of the latest readings (None before any)."""
        with self._lock:
            oldest = min(self._read_at.values(), default=None)
        return None if oldest is None else time.monotonic() - oldest

    def start(self) -> MeterWatch:
        """Read at once, then every `interval` seconds until `stop()`."""
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="meter-watch", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop reading (an unfinished read finishes first)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def _run(self) -> None:
        while not self._stop.is_set():
            self.read()
            self._stop.wait(self.interval)


def parse_pool(data: Any) -> PoolReading | None:
    """A PoolReading from the public read's JSON; None when it is not one."""
    if not isinstance(data, dict):
        return None
    pool, value, reset, hits = (data.get(k) for k in ("pool", "value", "reset", "hits"))
    if not isinstance(pool, str) or not (_cents(value) and _cents(reset) and _cents(hits)):
        return None
    return PoolReading(pool, value, reset, hits, _last_hits(data.get("last_hits", [])))


def _last_hits(last: Any) -> tuple[Hit, ...]:
    """The pool's last hits that read as hits (none when `last` is not a list)."""
    parsed = [_hit(h) for h in last] if isinstance(last, list) else []
    return tuple(h for h in parsed if h is not None)


def _hit(data: Any) -> Hit | None:
    if not isinstance(data, dict):
        return None
    hit_id, table, outcome, status = (data.get(k) for k in ("id", "table", "outcome", "status"))
    spot, amount, created = data.get("spot"), data.get("amount"), data.get("created", 0)
    if not (
        isinstance(hit_id, str)
        and isinstance(table, str)
        and isinstance(outcome, str)
        and isinstance(status, str)
    ):
        return None
    if not (_cents(spot) and _cents(amount)):
        return None
    return Hit(hit_id, table, spot, outcome, amount, created if _cents(created) else 0, status)


def _cents(value: object) -> TypeGuard[int]:
    # bool is an int in Python; a float is never money
    return type(value) is int and value >= 0
