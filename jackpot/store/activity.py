"""The activity stream: a capped copy of the operators' journaled steps, newest first.

Every script of an operator's step (configuration, link control, adjustments, transfers,
payout steps, key events) copies the journal entries it appends to `{ns}/activity` in the
same call (chain.lua), capped at about a thousand. It is what the console shows as recent
activity; the journals, and the archive after them, stay the record.
"""

from __future__ import annotations

from typing import Any

from redis import Redis

from jackpot.domain.linkgroups import MAIN_GROUP
from jackpot.store.keys import Keys


class ActivityStore:
    def __init__(self, client: Redis, keys: Keys) -> None:
        self._r = client
        self._k = keys

    def recent(self, limit: int) -> list[dict[str, Any]]:
        """The newest `limit` steps: each journal entry's fields, with `journal` named as
        the journals API names it (`house`, or the pool's id) and its `seq`."""
        out = []
        house = self._k.journal
        pool_prefix, pool_suffix = self._k.pool(""), "/journal"
        for _, fields in self._r.xrevrange(self._k.activity, count=limit):
            entry: dict[str, Any] = dict(fields)
            stream = entry.pop("journal")
            if stream == house:
                entry["journal"] = "house"
            else:
                entry["journal"] = "pool"
                entry["pool"] = stream.removeprefix(pool_prefix).removesuffix(pool_suffix)
            if self._k.group != MAIN_GROUP:
                entry["group"] = self._k.group
            entry["seq"] = int(entry["seq"])
            entry["ts"] = int(entry["ts"])
            out.append(entry)
        return out
