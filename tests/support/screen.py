"""A sign screen's event stream (`jackpot signs`), read as a browser's EventSource reads it."""

from __future__ import annotations

import http.client
import json
import time
from typing import Any, Protocol


class Server(Protocol):
    """Where a screen connects: the sign process, or the proxy in front of it."""

    @property
    def host(self) -> str: ...

    @property
    def port(self) -> int: ...


class Screen:
    """One sign screen's stream, read as a browser's EventSource reads it."""

    def __init__(
        self,
        signs: Server,
        sign: str = "lobby",
        source: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        """`source`: the loopback address it connects from (127.0.0.2, ...: another client
        on this machine); `headers`: sent with its request (X-Forwarded-For, ...)."""
        where = (source, 0) if source else None
        self.conn = http.client.HTTPConnection(
            signs.host, signs.port, timeout=10, source_address=where
        )
        self.conn.request("GET", f"/signs/{sign}/stream", headers=headers or {})
        self.response = self.conn.getresponse()

    def refusal(self) -> tuple[int, dict[str, Any], str | None]:
        """A refused stream's status, its JSON error, and its Retry-After."""
        body = json.loads(self.response.read())
        return self.response.status, body["error"], self.response.getheader("Retry-After")

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
