"""The controller's gaming day as stored: one string with the main group's keys, written
only through the gaming_day script (journaled: gaming_day_set, gaming_day_changed)."""

from __future__ import annotations

import json

from redis import Redis

from jackpot.domain.linkgroups import MAIN_GROUP
from jackpot.store.keys import Keys
from jackpot.store.scripts import Scripts


class GamingDayStore:
    def __init__(self, client: Redis, keys: Keys, scripts: Scripts) -> None:
        self._r = client
        self._k = keys
        self._s = scripts

    def get(self) -> tuple[str, str] | None:
        """(start, zone) as recorded, or None before the controller's first process."""
        raw = self._r.get(self._k.gaming_day)
        return None if raw is None else _parse(raw)

    def record_first(self, start: str, zone: str, who: str) -> tuple[str, str]:
        """Record (start, zone) unless a definition is there already; the one there. A read
        first: every process asks once, and only the first writes (nor waits for replicas)."""
        found = self.get()
        if found is not None:
            return found
        _, definition = self._write(start, zone, who, "first", "")
        return definition

    def change(self, start: str, zone: str, who: str, reason: str) -> tuple[str, tuple[str, str]]:
        """('changed' | 'unchanged', the definition before), or ('recorded', the new one)
        where there was none."""
        return self._write(start, zone, who, "change", reason)

    def _write(
        self, start: str, zone: str, who: str, mode: str, reason: str
    ) -> tuple[str, tuple[str, str]]:
        k = self._k.of_group(MAIN_GROUP)  # the house journal beside it: one slot
        body = json.dumps({"start": start, "zone": zone}, sort_keys=True, separators=(",", ":"))
        status, definition = self._s.gaming_day(
            keys=[k.gaming_day, k.counters, k.journal, k.activity], args=[body, who, mode, reason]
        )
        return str(status), _parse(definition)

    def journal_closed(self, day: str, digest: str, prev: str, who: str) -> str:
        """Journal a closed day's digest (and the day before it's) in the house journal, once;
        the digest journaled for the day (the first, if it was journaled before)."""
        k = self._k.of_group(MAIN_GROUP)  # the house journal beside it: one slot
        _, found = self._s.day_closed(
            keys=[k.closed_days, k.counters, k.journal, k.activity], args=[day, digest, prev, who]
        )
        return str(found)

    def closed_digests(self) -> dict[str, str]:
        """Every closed day's journaled digest, in one read."""
        return {str(d): str(v) for d, v in self._r.hgetall(self._k.closed_days).items()}

    def closed_digest(self, day: str) -> str | None:
        """The digest journaled for a closed day, or None."""
        found = self._r.hget(self._k.closed_days, day)
        return None if found is None else str(found)


def _parse(raw: str | bytes) -> tuple[str, str]:
    found = json.loads(raw)
    return str(found["start"]), str(found["zone"])
