"""Link groups: each group's stores and use cases (`Group`), built on first use, and the one
router: the group that holds a pool, a table or a payout (`LinkGroups.routed`, `on_pool`,
`on_table`, `of_payout`, and the named accessors `pools_of`, `tables_of`, `voids_of`, ...):
a call goes to the group this process last found the pool or table in, and once more to the
group the registry names now when it is not there (a table moved); a payout's id names its
group (jackpot.domain.payoutids). The API and the CLI reach a group's use case through here.

A link group is a set of pools and the tables feeding them. A round touches one group's keys
only (one hash tag: one slot, one script call), so on a Redis Cluster independent groups live
on different shards. The main group's keys are the keys of a controller without groups.

Which group holds a pool or table is in the registry (jackpot.store.groups); which group a
new one joins is decided by jackpot.domain.linkgroups (jackpot.services.placement applies
it); what every group holds, read as one, is jackpot.services.fanout (merges only). A pool
never leaves its group. A table leaves its group only by a move (jackpot.services.moves),
which deletes it from the old group's keys last: a process that still sends its rounds there
finds the table gone (the round script answers stale, the table is not found) and looks it
up again.
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
from jackpot.domain.auth import ApiKey, authorize_table
from jackpot.domain.config import TableRecord
from jackpot.domain.linkgroups import MAIN_GROUP
from jackpot.domain.meter import PoolState
from jackpot.domain.payoutids import payout_group
from jackpot.domain.report import parse_envelope
from jackpot.domain.roundanswers import RoundResult
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

    def of_payout(self, payout: str) -> Group:
        """The group a payout's id names (P000123: the main group, east:P000123: east); 404
        for a group there is not."""
        name = payout_group(payout)
        if name not in self.names():
            raise NotFoundError("payout", payout)
        return self.of(name)

    # --- a group's use case, by what it is about ------------------------------------------

    def pools_of(self, pool: str) -> Pools:
        """The pools' use cases of the pool's group: `pools_of(pool).adjust(pool, ...)`."""
        return self.on_pool(pool, _pools)

    def tables_of(self, table: str) -> Tables:
        """The tables' use cases of the table's group: `tables_of(table).heartbeat(...)`."""
        return self.on_table(table, _tables)

    def tables_of_pool(self, pool: str) -> Tables:
        """The tables' use cases of a pool's group: `tables_of_pool(pool).game(pool)`."""
        return self.on_pool(pool, _tables)

    def voids_of(self, table: str) -> Voids:
        """The round voids' use cases of the table's group, where its rounds were settled."""
        return self.on_table(table, _voids)

    def counts_of(self, table: str) -> TableCounts:
        """The table-counts use cases of the table's group, where its rounds are."""
        return self.on_table(table, _table_counts)

    def payouts_of(self, payout: str) -> Payouts:
        """The payouts' use cases of the group a payout's id names."""
        return self.of_payout(payout).payouts

    def journal_of(self, pool: str | None, group: str = MAIN_GROUP) -> JournalStore:
        """A pool's journal in its group, or (no pool) the house journal of `group`."""
        if pool is not None:
            return self.of_pool(pool).journal
        if group not in self.names():
            raise NotFoundError("group", group, "group")
        return self.of(group).journal

    def pool(self, pool: str) -> PoolState:
        """A pool's configuration and meters, read in its group."""
        return self.routed("pool", pool, lambda g: g.config.pool(pool))

    def table(self, table: str) -> TableRecord:
        """A table's record, read in its group."""
        return self.routed("table", table, lambda g: g.config.table(table))

    def report_round(self, body: Any, key: ApiKey, secret: str) -> RoundResult:
        """Settle a round report in its table's group (one script call there). The envelope
        is read and the key's table authorised here, once for the round, before the registry
        is asked (a key's own tables only); the group's Rounds takes both as given."""
        table, round_id = parse_envelope(body)
        authorize_table(key, table)
        return self.routed(
            "table", table, lambda g: g.rounds.report(table, round_id, body, key, secret)
        )

    def stored_round(self, table: str, round_id: str) -> RoundResult | None:
        """A reported round's first result, or None: from the table's group, and from the
        group the registry names now when not there (a moved table's rounds are copied to
        its new group before it leaves the old one)."""
        found = self.of_table(table).rounds.stored(table, round_id)
        if found is None:
            found = self.of_table(table, refresh=True).rounds.stored(table, round_id)
        return found

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


def _pools(g: Group) -> Pools:
    return g.pools


def _tables(g: Group) -> Tables:
    return g.tables


def _voids(g: Group) -> Voids:
    return g.voids


def _table_counts(g: Group) -> TableCounts:
    return g.table_counts


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
