"""Link groups: each group's stores and use cases (`Group`), built on first use, and the one
way to reach the group that holds a pool or a table (`LinkGroups.routed`, `on_pool`,
`on_table`): a call goes to the group this process last found the pool or table in, and once
more to the group the registry names now when it is not there (a table moved).

A link group is a set of pools and the tables feeding them. A round touches one group's keys
only (one hash tag: one slot, one script call), so on a Redis Cluster independent groups live
on different shards. The main group's keys are the keys of a controller without groups.

Which group holds a pool or table is in the registry (jackpot.store.groups); which group a
new one joins is decided by jackpot.domain.linkgroups; what every group holds, read as one,
is jackpot.services.fanout. A pool never leaves its group. A table leaves its group only by a
move (jackpot.services.moves), which deletes it from the old group's keys last: a process
that still sends its rounds there finds the table gone (the round script answers stale, the
table is not found) and looks it up again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from redis import Redis

from jackpot.archive.archiver import Archiver
from jackpot.archive.verify import (
    Verifier,
)
from jackpot.domain.linkgroups import MAIN_GROUP
from jackpot.errors import NotFoundError
from jackpot.services.payouts import Payouts
from jackpot.services.pools import Pools
from jackpot.services.rounds import Rounds
from jackpot.services.selfcheck import SelfCheck
from jackpot.services.tablecounts import TableCounts
from jackpot.services.tables import Tables
from jackpot.services.voids import Voids
from jackpot.store.activity import ActivityStore
from jackpot.store.config import ConfigStore
from jackpot.store.groups import GroupRegistry
from jackpot.store.health import HealthStore
from jackpot.store.journal import JournalStore
from jackpot.store.keys import Keys
from jackpot.store.payouts import PayoutStore

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Group:
    """One link group's stores and use cases, over the client of its slot."""

    name: str
    keys: Keys
    client: Redis
    config: ConfigStore
    pools: Pools
    tables: Tables
    rounds: Rounds
    payouts: Payouts
    payout_store: PayoutStore
    voids: Voids
    table_counts: TableCounts
    journal: JournalStore
    health: SelfCheck
    health_store: HealthStore
    archiver: Archiver
    verifier: Verifier
    activity: ActivityStore


class LinkGroups:
    """Every link group, each built on first use; where each pool and table is."""

    def __init__(
        self,
        registry: GroupRegistry,
        build: Callable[[str], Group],
        on_new_group: Callable[[Group], object],
    ) -> None:
        self.registry = registry
        self._build = build
        self._on_new_group = on_new_group
        self._groups: dict[str, Group] = {}
        # pool or table -> its group, as this process last found it
        self._known: dict[str, dict[str, str]] = {"pool": {}, "table": {}}
        self._lock = threading.Lock()

    def forget(self) -> None:
        """Drop the groups built (their cached tables and self-checks) and where each pool
        and table was found: the next use reads the store again."""
        with self._lock:
            self._groups.clear()
            for known in self._known.values():
                known.clear()

    def of(self, name: str) -> Group:
        group = self._groups.get(name)
        if group is None:
            with self._lock:
                group = self._groups.get(name)
                if group is None:
                    group = self._groups[name] = self._build(name)
        return group

    @property
    def main(self) -> Group:
        return self.of(MAIN_GROUP)

    def names(self) -> list[str]:
        return self.registry.groups()

    def all(self) -> list[Group]:
        return [self.of(name) for name in self.names()]

    def opened(self) -> list[Group]:
        """The groups this process has built."""
        return list(self._groups.values())

    def others(self) -> list[Group]:
        """Every group but the main one (where the API keys are copied to)."""
        return [self.of(name) for name in self.names() if name != MAIN_GROUP]

    def of_pool(self, pool: str, refresh: bool = False) -> Group:
        return self._find("pool", pool, refresh)

    def of_table(self, table: str, refresh: bool = False) -> Group:
        return self._find("table", table, refresh)

    def found(self, kind: str, ident: str, group: str) -> None:
        """A read found the pool or table in `group`: keep it."""
        self._known[kind][ident] = group

    def forget_table(self, table: str) -> None:
        self._known["table"].pop(table, None)

    def _find(self, kind: str, ident: str, refresh: bool) -> Group:
        """The group of a pool or table, as this process knows it or the registry says. What
        the registry names is kept; the main group, which it need not name (pools and tables
        made before there were groups), is kept once a call there found it (routed)."""
        known = self._known[kind]
        name = None if refresh else known.get(ident)
        if name is None:
            name = self.registry.entry(kind, ident)
            if name is not None:
                known[ident] = name
        return self.of(name or MAIN_GROUP)

    def add(self, name: str, who: str, now: int) -> Group:
        """Make sure a group is registered and holds a copy of every API key, before a pool
        is created in it. Registered first: a key made meanwhile is copied by its maker,
        who reads the registry after writing the key; copied each time, so a copy a crash
        left undone is made by the next pool's creation."""
        group = self.of(name)
        if name != MAIN_GROUP:
            self.registry.add(name, who, now)
            self._on_new_group(group)
        return group

    def on_pool(self, pool: str, part: Callable[[Group], T]) -> T:
        """`part` (a use case) of the pool's link group: each of its methods called through
        this goes to that group (routed). One way to reach any use case by a pool, so a new
        use case needs no forwarding twin here."""
        return cast(T, _Routed(self, "pool", pool, part))

    def on_table(self, table: str, part: Callable[[Group], T]) -> T:
        """`part` of the table's link group, each call routed there (routed)."""
        return cast(T, _Routed(self, "table", table, part))

    def routed(self, kind: str, ident: str, call: Callable[[Group], T]) -> T:
        """`call` on the group of a pool or table; once more on its group as the registry
        says now when the group this process knew does not have it (a table moved)."""
        group = self._find(kind, ident, False)
        try:
            result = call(group)
        except NotFoundError as exc:
            if exc.code != f"unknown_{kind}":
                raise
            again = self._find(kind, ident, True)
            if again.name == group.name:
                raise
            result, group = call(again), again
        self.found(kind, ident, group.name)  # it is there
        return result


class _Routed:
    """Stands for a use case of one pool's or table's link group: every method called on it
    runs on that group through LinkGroups.routed (and once more where the registry says the
    pool or table is now, after a move)."""

    __slots__ = ("_groups", "_kind", "_ident", "_part")

    def __init__(
        self, groups: LinkGroups, kind: str, ident: str, part: Callable[[Group], object]
    ) -> None:
        self._groups = groups
        self._kind = kind
        self._ident = ident
        self._part = part

    def __getattr__(self, name: str) -> Callable[..., Any]:
        groups, kind, ident, part = self._groups, self._kind, self._ident, self._part

        def call(*args: Any, **kwargs: Any) -> Any:
            return groups.routed(kind, ident, lambda g: getattr(part(g), name)(*args, **kwargs))

        return call
