"""The link groups' registry: which link group each pool and table is in.

A link group is a set of pools and the tables that feed them; a round touches the pools of
one group only, so each group's keys share one hash tag (one slot on a Redis Cluster) and
independent groups may live on different shards. The registry is kept with the main group's
keys. A pool or table created outside the main group is registered there before its own keys
are written, so every process finds it; one created in the main group is registered too, so
two concurrent creations in different groups cannot both succeed. A pool or table with no
entry (made before there were link groups) is in the main group.
"""

from __future__ import annotations

import json
from typing import Any

from redis import Redis
from redis.exceptions import WatchError

from jackpot.conflicts import LinkGroupError
from jackpot.domain.linkgroups import MAIN_GROUP
from jackpot.store.keys import Keys


class GroupRegistry:
    """Reads and writes the registry, over the client of the main group's keys."""

    def __init__(self, client: Redis, keys: Keys) -> None:
        self._r = client
        self._k = keys

    def groups(self) -> list[str]:
        """Every link group: the main group first, then the others by name."""
        return [MAIN_GROUP, *sorted(self._r.hkeys(self._k.groups))]

    def add(self, group: str, who: str, now: int) -> bool:
        """Register a link group; True when it is new."""
        if group == MAIN_GROUP:
            return False
        made = json.dumps({"created": now, "who": who}, sort_keys=True)
        return bool(self._r.hsetnx(self._k.groups, group, made))

    def pool_group(self, pool: str) -> str:
        return self.entry("pool", pool) or MAIN_GROUP

    def table_group(self, table: str) -> str:
        return self.entry("table", table) or MAIN_GROUP

    def entry(self, kind: str, ident: str) -> str | None:
        """The group the registry names for a pool or table (None: it names none, so the
        pool or table is in the main group if it exists at all)."""
        key = self._k.pool_groups if kind == "pool" else self._k.table_groups
        found = self._r.hget(key, ident)
        return None if found is None else str(found)

    def table_groups(self) -> dict[str, str]:
        return dict(self._r.hgetall(self._k.table_groups))

    def claim_pool(self, pool: str, group: str) -> None:
        """Put a new pool in `group`; LinkGroupError when it is already in another."""
        self._claim(self._k.pool_groups, "pool", pool, group, "a pool stays in its link group")

    def claim_table(self, table: str, group: str) -> None:
        """Put a new table in `group`; LinkGroupError when it is already in another."""
        self._claim(
            self._k.table_groups,
            "table",
            table,
            group,
            "move the table between link groups with POST /tables/{id}/move",
        )

    def release(self, kind: str, ident: str, group: str) -> None:
        """Drop a new pool's or table's claim when its creation failed after all (the caller
        has found it absent from `group`: a concurrent creation there keeps the claim)."""
        key = self._k.pool_groups if kind == "pool" else self._k.table_groups
        with self._r.pipeline(transaction=True) as pipe:
            try:
                pipe.watch(key)
                if pipe.hget(key, ident) == group:
                    pipe.multi()
                    pipe.hdel(key, ident)
                    pipe.execute()
            except WatchError:
                pass  # changed meanwhile: someone else's claim, left as it is

    def set_table(self, table: str, group: str) -> None:
        """Where a moved table is from now on (the move's switch)."""
        self._r.hset(self._k.table_groups, table, group)

    def move_of(self, table: str) -> dict[str, Any] | None:
        """The table's move under way, if one is."""
        raw = self._r.hget(self._k.moves, table)
        return None if raw is None else dict(json.loads(raw))

    def begin_move(self, table: str, move: dict[str, Any]) -> dict[str, Any]:
        """Record a move; the one recorded (another request's, when it was first)."""
        if self._r.hsetnx(self._k.moves, table, json.dumps(move, sort_keys=True)):
            return move
        return self.move_of(table) or self.begin_move(table, move)

    def end_move(self, table: str) -> None:
        self._r.hdel(self._k.moves, table)

    def _claim(self, key: str, kind: str, ident: str, group: str, hint: str) -> None:
        if self._r.hsetnx(key, ident, group):
            return
        found = str(self._r.hget(key, ident))
        if found != group:
            raise LinkGroupError(kind, ident, found, group, hint)
