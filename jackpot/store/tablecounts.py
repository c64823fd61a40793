"""Table-side counts and the controller's comparisons of them: a view kept in Redis (the
journals stay the record), in the table's link group; and the people's acknowledgements of a
difference, written only through the table_counts_acknowledged script (journaled)."""

from __future__ import annotations

import json
from typing import Any

from redis import Redis

from jackpot import jsonio
from jackpot.store.keys import Keys
from jackpot.store.scripts import Scripts


class TableCountStore:
    def __init__(self, client: Redis, keys: Keys, scripts: Scripts) -> None:
        self._r = client
        self._k = keys
        self._s = scripts

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

    def acknowledge(
        self, table: str, day: str, checked_at: int | None, who: str, reason: str
    ) -> tuple[str, dict[str, Any] | None]:
        """Journal a person's acknowledgement of the difference the latest comparison of a
        table's day shows, once: (status, the acknowledgement or, for 'changed', the
        comparison); status 'acknowledged', 'unchanged', 'matches', 'none' or 'changed'."""
        k = self._k
        status, found = self._s.table_counts_acknowledged(
            keys=[k.table_checks, k.table_acks, k.counters, k.journal, k.activity],
            args=[table, day, "" if checked_at is None else str(checked_at), who, reason],
        )
        return str(status), json.loads(found) if found else None

    def acks(self) -> list[dict[str, Any]]:
        """The acknowledgements in force, of every table's each day kept."""
        return _all(self._r, self._k.table_acks)

    def forget(self, fields: list[str]) -> None:
        """Drop the records of these '<table>/<day>'s."""
        if fields:
            for key in (self._k.table_counts, self._k.table_checks, self._k.table_acks):
                self._r.hdel(key, *fields)


def _all(client: Redis, key: str) -> list[dict[str, Any]]:
    return [json.loads(raw) for _, raw in client.hscan_iter(key, count=1000)]
