"""Placement: the link group a new pool or table joins, decided before anything is written
(the rules are jackpot.domain.linkgroups's), and the writes that need it decided first:
creating or changing a pool or a table, and retiring a pool into another of its own group.
Every other use case of one pool or table is reached through its group
(jackpot.services.linkgroups); a table changes group only by a move (services/moves.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jackpot.conflicts import LinkGroupError
from jackpot.domain.config import PoolConfig, TableConfig, TableRecord
from jackpot.domain.linkgroups import MAIN_GROUP, pool_placement, table_placement
from jackpot.domain.meter import PoolState
from jackpot.domain.poolanswers import PoolRetired
from jackpot.domain.requests import RETIRE_REQUEST
from jackpot.errors import NotFoundError
from jackpot.services.linkgroups import LinkGroups


class Placement:
    """Pools and tables created or changed where they belong."""

    def __init__(self, groups: LinkGroups, clock: Callable[[], int]) -> None:
        self._groups = groups
        self._clock = clock

    def put_pool(self, pool: str, body: Any, who: str) -> tuple[str, PoolState]:
        """Create or update a pool. A new pool goes to the link group its `group` names (the
        main group when none is named); a pool stays in the group it was created in."""
        current = self._groups.registry.pool_group(pool)
        state = self._pool(current, pool)
        # the body first (400 naming its field), before anything is written or refused
        PoolConfig.from_json(body, None if state is None else state.config)
        wanted = pool_placement(pool, body.get("group"), None if state is None else current)
        if state is not None:
            return self._groups.of(current).pools.put(pool, body, who)
        self._groups.registry.claim_pool(pool, wanted)  # another group's claim: 409, unwritten
        try:
            group = self._groups.add(wanted, who, self._clock())
            return group.pools.put(pool, body, who)
        except Exception:
            if not self._has_pool(wanted, pool):  # (a concurrent creation's keeps its claim)
                self._groups.registry.release("pool", pool, wanted)
            raise

    def _pool(self, group: str, pool: str) -> PoolState | None:
        try:
            return self._groups.of(group).config.pool(pool)
        except NotFoundError:
            return None

    def _has_pool(self, group: str, pool: str) -> bool:
        return self._pool(group, pool) is not None

    def retire_pool(self, pool: str, body: Any, who: str) -> PoolRetired:
        """Retire a pool into another of its own link group (one script, one slot)."""
        group = self._groups.of_pool(pool)
        to = body.get("to") if isinstance(body, dict) else None
        RETIRE_REQUEST.check(body)  # the body first, then the pools (404s before 409s)
        if isinstance(to, str) and to != pool and self._has_pool(group.name, pool):
            there = self._groups.of_pool(to)
            if there.name != group.name and self._has_pool(there.name, to):
                raise LinkGroupError(
                    "pool",
                    to,
                    there.name,
                    group.name,
                    "a retired pool's balance goes to a pool of its own link group",
                    field="to",
                )
        return group.pools.retire(pool, body, who)

    def put_table(self, table: str, body: Any, who: str) -> tuple[str, TableRecord]:
        """Create or update a table, in the link group of the pools it feeds (all of one
        group); a table changes group only by a move."""
        current = self._groups.registry.table_group(table)
        record = self._table(current, table)
        config = TableConfig.from_json(body, None if record is None else record.config)
        wanted = table_placement(
            table, self.pools_groups(config.pools), None if record is None else current
        )
        if record is not None:
            return self._groups.of(current).tables.put(table, body, who)
        group = self._groups.of(wanted)
        group.tables.check(table, config)  # refused before anything is written
        self._groups.registry.claim_table(table, wanted)
        self._groups.forget_table(table)
        try:
            return group.tables.put(table, body, who)
        except Exception:
            if self._table(wanted, table) is None:  # (a concurrent creation's keeps it)
                self._groups.registry.release("table", table, wanted)
            raise

    def pools_groups(self, pools: tuple[str, ...]) -> list[tuple[str, str | None]]:
        """Each pool with its link group, None for a pool that does not exist (the registry
        need not name the main group's pools made before there were groups)."""
        out: list[tuple[str, str | None]] = []
        for pool in pools:
            name = self._groups.registry.entry("pool", pool)
            if name is None:  # in the main group, if anywhere
                try:
                    self._groups.main.config.pool(pool)
                    name = MAIN_GROUP
                except NotFoundError:
                    pass
            out.append((pool, name))
            if name is None:
                break  # the first unknown one is the answer (404)
        return out

    def _table(self, group: str, table: str) -> TableRecord | None:
        try:
            return self._groups.of(group).tables.get(table)
        except NotFoundError:
            return None
