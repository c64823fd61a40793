"""Table-side counts and the controller's comparisons of them: a view kept in Redis (the
journals stay the record), in the table's link group."""

from __future__ import annotations

import json
from typing import Any

from redis import Redis

from jackpot import jsonio
from jackpot.store.keys import Keys


class TableCountStore:
    def __init__(self, client: Redis, keys: Keys) -> None:
        self._r = client
        self._k = keys

    def put(self, table: str, day: str, record: dict[str, Any]) -> None:
        """Record a table's counts of a day, replacing the ones it sent before."""
        self._r.hset(self._k.table_counts, f"{table}/{day}", jsonio.dumps(record))

    def reported(self) -> list[dict[str, Any]]:
        """Every table's counts of every day kept, as reported."""
        return _all(self._r, self._k.table_counts)

    def check(self, table: str, day: str, record: dict[str, Any]) -> None:
        """Record the comparison of a table's counts of a day (it names the report it
        compared by the time the report was received)."""
        self._r.hset(self._k.table_checks, f"{table}/{day}", jsonio.dumps(record))

    def checks(self) -> list[dict[str, Any]]:
        return _all(self._r, self._k.table_checks)

    def forget_before(self, day: str) -> None:
        """Drop the records of days before `day`."""
        for key in (self._k.table_counts, self._k.table_checks):
            old = [f for f, _ in self._r.hscan_iter(key, count=1000)
                   if f.rpartition("/")[2] < day]  # fmt: skip
            if old:
                self._r.hdel(key, *old)


def _all(client: Redis, key: str) -> list[dict[str, Any]]:
    return [json.loads(raw) for _, raw in client.hscan_iter(key, count=1000)]
