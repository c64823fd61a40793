"""A sign screen's event stream (`jackpot signs`), read as a browser's EventSource reads it."""

from __future__ import annotations

import http.client
import json
import time
from typing import Any

from tests.support.service import Service


class Screen:
    """One sign screen's stream, read as a browser's EventSource reads it."""

    def __init__(self, signs: Service, sign: str = "lobby") -> None:
        self.conn = http.client.HTTPConnection(signs.host, signs.port, timeout=10)
        self.conn.request("GET", f"/signs/{sign}/stream")
        self.response = self.conn.getresponse()

    def next(self, seconds: float = 5.0) -> tuple[str, Any]:
        """The next event: (its kind, its data)."""
        deadline = time.monotonic() + seconds
        kind, data = "", None
        while time.monotonic() < deadline:
            raw = self.response.readline()
            if not raw:
                raise AssertionError(f"the stream ended (after event {kind!r})")
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: "):
                data = json.loads(line[6:])
            elif not line and kind:
                return kind, data
        raise AssertionError("no event in time")

    def until(self, wanted: Any, seconds: float = 5.0) -> tuple[str, Any]:
        """The first event for which `wanted(kind, data)` holds."""
        deadline = time.monotonic() + seconds
        while True:
            kind, data = self.next(max(0.1, deadline - time.monotonic()))
            if wanted(kind, data):
                return kind, data
            assert time.monotonic() < deadline, "not seen in time"

    def close(self) -> None:
        self.conn.close()


def value_of(kind: str, data: Any, pool: str = "main") -> int | None:
    if kind == "meters":
        return data["values"].get(pool)  # type: ignore[no-any-return]
    if kind == "state" and data.get("sign"):
        return next((lv["value"] for lv in data["levels"] if lv["pool"] == pool), None)
    return None
