"""The link groups read and written as one: what a request about every pool, table, payout,
journal or health asks of each group, merged (lists by id, newest first, one health of
several), and the few writes whose group must be decided first (a new pool or table: the
rules are jackpot.domain.linkgroups). A use case of one pool's or table's group is reached
through `on(...)` (jackpot.services.linkgroups), never through a forwarding method here.
"""

from __future__ import annotations

import builtins
import heapq
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any, TypeVar

from jackpot.archive.archiver import ArchiveRun, ArchiveStatus
from jackpot.domain.auth import ApiKey, authorize_table
from jackpot.domain.config import PoolConfig, TableConfig, TableRecord
from jackpot.domain.journals import EVERYTHING, JournalEntry, Span
from jackpot.domain.linkgroups import MAIN_GROUP, pool_placement, table_placement
from jackpot.domain.meter import PoolState
from jackpot.domain.payoutids import payout_group
from jackpot.domain.report import parse_envelope
from jackpot.domain.requests import RETIRE_REQUEST
from jackpot.errors import LinkGroupError, NotFoundError
from jackpot.integrity import SoftwareCheck
from jackpot.services.linkgroups import Group, LinkGroups
from jackpot.services.payouts import Actor, HandPay
from jackpot.services.pools import Pools, Retired
from jackpot.services.selfcheck import Health
from jackpot.services.tablecounts import TableCounts
from jackpot.services.tables import Tables
from jackpot.services.voids import Voids
from jackpot.store.health import Durability
from jackpot.store.journal import JournalStore
from jackpot.store.payouts import payout_order

T = TypeVar("T")


class GroupedPools:
    """The pools of every link group, as one."""

    def __init__(self, groups: LinkGroups, clock: Callable[[], int]) -> None:
        self._groups = groups
        self._clock = clock

    def put(self, pool: str, body: Any, who: str) -> tuple[str, PoolState]:
        """Create or update a pool. A new pool goes to the link group its `group` names (the
        main group when none is named); a pool stays in the group it was created in."""
        current = self._groups.registry.pool_group(pool)
        state = self._state(current, pool)
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
            if not self._exists(wanted, pool):  # (a concurrent creation's keeps its claim)
                self._groups.registry.release("pool", pool, wanted)
            raise

    def _state(self, group: str, pool: str) -> PoolState | None:
        try:
            return self._groups.of(group).config.pool(pool)
        except NotFoundError:
            return None

    def _exists(self, group: str, pool: str) -> bool:
        return self._state(group, pool) is not None

    def apply_due(self, now_ms: int, who: str = "scheduler") -> dict[str, str]:
        done: dict[str, str] = {}
        for group in self._groups.all():
            done.update(group.pools.apply_due(now_ms, who))
        return done

    def retire(self, pool: str, body: Any, who: str) -> Retired:
        """Retire a pool into another of its own link group (one script, one slot)."""
        group = self._groups.of_pool(pool)
        to = body.get("to") if isinstance(body, dict) else None
        RETIRE_REQUEST.check(body)  # the body first, then the pools (404s before 409s)
        if isinstance(to, str) and to != pool and self._exists(group.name, pool):
            there = self._groups.of_pool(to)
            if there.name != group.name and self._exists(there.name, to):
                raise LinkGroupError(
                    "pool",
                    to,
                    there.name,
                    group.name,
                    "a retired pool's balance goes to a pool of its own link group",
                    field="to",
                )
        return group.pools.retire(pool, body, who)

    def all(self) -> list[PoolState]:
        return every_pool(self._groups)

    def all_public(self) -> list[PoolState]:
        found = (p for g in self._groups.all() for p in g.pools.all_public())
        return sorted(found, key=lambda state: state.pool)

    def on(self, pool: str) -> Pools:
        """The use cases of the pool's link group: `on(pool).adjust(pool, ...)`."""
        return self._groups.on_pool(pool, lambda g: g.pools)

    def group_of(self, pool: str) -> str:
        return self._groups.of_pool(pool).name


def every_pool(groups: LinkGroups) -> list[PoolState]:
    """Every group's pools by id, each noted where it was found."""
    found = []
    for group in groups.all():
        for state in group.config.pools():
            groups.found("pool", state.pool, group.name)
            found.append(state)
    return sorted(found, key=lambda state: state.pool)


def every_table(groups: LinkGroups) -> list[TableRecord]:
    """Every group's tables by id, each once and noted where it is: while a table moves it
    is in two groups for a moment, and the one the registry names is where it is."""
    named = groups.registry.table_groups()
    found = []
    for group in groups.all():
        for record in group.config.tables():
            if named.get(record.table, MAIN_GROUP) == group.name:
                groups.found("table", record.table, group.name)
                found.append(record)
    return sorted(found, key=lambda record: record.table)


class GroupedTables:
    """The tables of every link group, as one."""

    def __init__(self, groups: LinkGroups, clock: Callable[[], int]) -> None:
        self._groups = groups
        self._clock = clock

    def put(self, table: str, body: Any, who: str) -> tuple[str, TableRecord]:
        """Create or update a table, in the link group of the pools it feeds (all of one
        group); a table changes group only by a move."""
        current = self._groups.registry.table_group(table)
        record = self._record(current, table)
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
            if self._record(wanted, table) is None:  # (a concurrent creation's keeps it)
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

    def _record(self, group: str, table: str) -> TableRecord | None:
        try:
            return self._groups.of(group).tables.get(table)
        except NotFoundError:
            return None

    def all(self) -> list[TableRecord]:
        return every_table(self._groups)

    def online(self, record: TableRecord) -> bool:
        return self._groups.main.tables.online(record)

    def on(self, table: str) -> Tables:
        """The use cases of the table's link group: `on(table).heartbeat(table, key)`."""
        return self._groups.on_table(table, lambda g: g.tables)

    def on_pool(self, pool: str) -> Tables:
        """The tables' use cases of a pool's link group: `on_pool(pool).game(pool)`."""
        return self._groups.on_pool(pool, lambda g: g.tables)

    def group_of(self, table: str) -> str:
        return self._groups.of_table(table).name


class GroupedRounds:
    """Each round settles in its table's link group: one script call in that group's slot."""

    def __init__(self, groups: LinkGroups) -> None:
        self._groups = groups

    def report(self, body: Any, key: ApiKey, secret: str) -> dict[str, Any]:
        table, _ = parse_envelope(body)
        authorize_table(key, table)  # before the registry is asked: a key's own tables only
        return self._groups.routed("table", table, lambda g: g.rounds.report(body, key, secret))

    def stored(self, table: str, round_id: str) -> dict[str, Any] | None:
        found = self._groups.of_table(table).rounds.stored(table, round_id)
        if found is None:  # a moved table's round is copied to its new group first
            found = self._groups.of_table(table, refresh=True).rounds.stored(table, round_id)
        return found


class GroupedTableCounts:
    """A table's counts are compared in its link group, where its rounds are."""

    def __init__(self, groups: LinkGroups) -> None:
        self._groups = groups

    def on(self, table: str) -> TableCounts:
        """The table-counts use cases of the table's link group."""
        return self._groups.on_table(table, lambda g: g.table_counts)

    def compare(self) -> list[dict[str, Any]]:
        """Every group's comparisons due (the worker's job)."""
        return [c for g in self._groups.all() for c in g.table_counts.compare()]

    def checks(self) -> list[dict[str, Any]]:
        return [c for g in self._groups.all() for c in g.table_counts.checks()]

    def of_day(self, day: str) -> list[dict[str, Any]]:
        """Each table's comparison of `day`, made again from its latest counts (a gaming
        day's close), by table."""
        self.compare()
        return sorted((c for c in self.checks() if c["day"] == day), key=lambda c: c["table"])

    def shown(self) -> dict[str, dict[str, Any]]:
        """Each table's comparison to show: the earliest day whose difference is still in
        sight (docs/DECISIONS.md D227), else the latest day it reported."""
        out: dict[str, dict[str, Any]] = {}
        for c in sorted(self.checks(), key=lambda c: c["day"]):
            if not out.get(c["table"], {}).get("in_sight"):
                out[c["table"]] = c
        return out

    def in_sight(self) -> list[dict[str, Any]]:
        """Every comparison whose difference is still in sight, by table and day."""
        return sorted(
            (c for c in self.checks() if c["in_sight"]), key=lambda c: (c["table"], c["day"])
        )


class GroupedVoids:
    """A round is voided in its table's link group, where it was settled."""

    def __init__(self, groups: LinkGroups) -> None:
        self._groups = groups

    def on(self, table: str) -> Voids:
        """The voids' use cases of the table's link group: `on(table).state(table, round)`."""
        return self._groups.on_table(table, lambda g: g.voids)

    def awaiting(self) -> builtins.list[dict[str, Any]]:
        """Every void awaiting approval, of every link group (each named), oldest first."""
        found = [
            {**v, "group": name}
            for name in self._groups.names()
            for v in self._groups.of(name).voids.awaiting()
        ]
        return sorted(found, key=lambda v: (v["at"], v["table"], v["round"]))

    def void(
        self,
        table: str,
        round_id: str,
        reason: str,
        spots: Any,
        actor: Actor,
    ) -> tuple[str, dict[str, Any]]:
        """A void asked by a table's key waits for people's approval (void_round.lua)."""
        return self._groups.of_table(table).voids.void(table, round_id, reason, spots, actor)

    def approve(
        self, table: str, round_id: str, actor: Actor, note: str = ""
    ) -> tuple[str, dict[str, Any]]:
        """Approve the void of the round held for approval, against the threshold now."""
        return self.on(table).approve(table, round_id, actor, note)

    def refuse(
        self, table: str, round_id: str, actor: Actor, reason: str
    ) -> tuple[str, dict[str, Any]]:
        return self.on(table).refuse(table, round_id, actor, reason)


class GroupedPayouts:
    """The payouts of every link group; a payout's id names its group (east:P000001)."""

    def __init__(self, groups: LinkGroups) -> None:
        self._groups = groups

    def list(self, status: str | None, limit: int) -> builtins.list[dict[str, Any]]:
        found = [g.payouts.list(status, limit) for g in self._groups.all()]
        if len(found) == 1:
            return found[0]
        merged = heapq.merge(*found, key=payout_order, reverse=True)
        return [p for _, p in zip(range(limit), merged, strict=False)]

    def get(self, payout: str) -> dict[str, Any]:
        return self._of(payout).payouts.get(payout)

    def unsettled(self) -> builtins.list[dict[str, Any]]:
        return [p for g in self._groups.all() for p in g.payouts.unsettled()]

    def live(self) -> builtins.list[dict[str, Any]]:
        return [p for g in self._groups.all() for p in g.payouts.live()]

    def awaiting_voids(self) -> builtins.list[dict[str, Any]]:
        """Every payout void awaiting a second person, of every link group, oldest first."""
        found = [p for g in self._groups.all() for p in g.payouts.awaiting_voids()]
        return sorted(found, key=lambda p: (int(p["void_request"]["at"]), payout_order(p)))

    def confirm(
        self, payout: str, actor: Actor, hand_pay: HandPay, expect: str = ""
    ) -> tuple[bool, dict[str, Any]]:
        return self._of(payout).payouts.confirm(payout, actor, hand_pay, expect)

    def step(
        self, payout: str, step: str, actor: Actor, note: str, expect: str = ""
    ) -> tuple[bool, dict[str, Any]]:
        return self._of(payout).payouts.step(payout, step, actor, note, expect)

    def many(self, ids: builtins.list[str]) -> builtins.list[dict[str, Any]]:
        """The payouts with these ids that exist (for the signs' last hits)."""
        by_group: dict[str, builtins.list[str]] = {}
        for payout in ids:
            by_group.setdefault(payout_group(payout), []).append(payout)
        names = self._groups.names() if by_group.keys() - {MAIN_GROUP} else [MAIN_GROUP]
        return [
            p
            for name, wanted in by_group.items()
            if name in names
            for p in self._groups.of(name).payout_store.many(wanted)
        ]

    def _of(self, payout: str) -> Group:
        name = payout_group(payout)
        if name not in self._groups.names():
            raise NotFoundError("payout", payout)
        return self._groups.of(name)


class GroupedConfig:
    """What readers (signs, reports, accounting) read of pools and tables, over every group."""

    def __init__(self, groups: LinkGroups) -> None:
        self._groups = groups

    def pool(self, pool: str) -> PoolState:
        return self._groups.routed("pool", pool, lambda g: g.config.pool(pool))

    def pool_ids(self) -> list[str]:
        return sorted(p for g in self._groups.all() for p in g.config.pool_ids())

    def pools(self) -> list[PoolState]:
        return every_pool(self._groups)

    def table(self, table: str) -> TableRecord:
        return self._groups.routed("table", table, lambda g: g.config.table(table))

    def tables(self) -> list[TableRecord]:
        return every_table(self._groups)

    def meter_fields(
        self, pools: list[str], fields: tuple[str, ...]
    ) -> dict[str, list[str | None]]:
        by_group: dict[str, list[str]] = {}
        for pool in pools:
            by_group.setdefault(self._groups.of_pool(pool).name, []).append(pool)
        out: dict[str, list[str | None]] = {}
        for name, wanted in by_group.items():
            found = self._groups.of(name).config.meter_fields(wanted, fields)
            for pool, values in found.items():
                if any(v is not None for v in values):
                    self._groups.found("pool", pool, name)
            out.update(found)
        return {pool: out[pool] for pool in pools}

    def last_hits(self, pool: str) -> list[dict[str, object]]:
        return self._groups.of_pool(pool).config.last_hits(pool)


class GroupedJournal:
    """The journals of every group: a pool's in its group, each group's house journal."""

    def __init__(self, groups: LinkGroups) -> None:
        self._groups = groups

    def read(
        self,
        pool: str | None,
        after: int,
        limit: int,
        span: Span = EVERYTHING,
        group: str = MAIN_GROUP,
    ) -> list[JournalEntry]:
        return self._of(pool, group).read(pool, after, limit, span)

    def seq_at(self, pool: str | None, ts: int, group: str = MAIN_GROUP) -> int:
        return self._of(pool, group).seq_at(pool, ts)

    def before(self, pool: str | None, seq: int, group: str = MAIN_GROUP) -> Iterator[JournalEntry]:
        return self._of(pool, group).before(pool, seq)

    def scan(
        self,
        pool: str | None,
        after: int = 0,
        batch: int = 1000,
        span: Span = EVERYTHING,
        group: str = MAIN_GROUP,
    ) -> Iterator[JournalEntry]:
        return self._of(pool, group).scan(pool, after, batch, span)

    def _of(self, pool: str | None, group: str) -> JournalStore:
        if pool is not None:
            return self._groups.of_pool(pool).journal
        if group not in self._groups.names():
            raise NotFoundError("group", group, "group")
        return self._groups.of(group).journal


class GroupedHealth:
    """The self-check of every link group. A group whose store or meters fail is inoperable
    (its rounds are refused); the controller reports every group's problems, each naming
    its group, and is ready only while every group is operable."""

    def __init__(self, groups: LinkGroups) -> None:
        self._groups = groups

    @property
    def wait_replicas(self) -> int:
        return self._groups.main.health.wait_replicas

    @property
    def software(self) -> SoftwareCheck:
        return self._groups.main.health.software

    def durability(self) -> Durability:
        return self._groups.main.health.durability()

    def run(self) -> Health:
        return self.merged({g.name: g.health.run() for g in self._groups.all()})

    def latest(self) -> Health:
        return self.merged(self.by_group())

    def current(self) -> Health:
        """The state rounds are settled by, as `/readyz` must tell it: this process's newest
        checks, unless another process has recorded a group's store inoperable since; then
        that group is checked now, as a round refused by the script would have it checked
        (ready exactly while rounds settle)."""
        found = self.by_group()
        for g in self._groups.all():
            if found[g.name].operable and not g.health.settles():
                found[g.name] = g.health.run()
        return self.merged(found)

    def by_group(self) -> dict[str, Health]:
        """Each link group's newest self-check result."""
        return {g.name: g.health.latest() for g in self._groups.all()}

    def settles(self, table: str | None = None) -> bool:
        group = self._groups.main if table is None else self._groups.of_table(table)
        return group.health.settles()

    def inoperable_pools(self, pools: builtins.list[str]) -> set[str]:
        """Of these pools, those whose link group a self-check recorded inoperable (what a
        sign shows closed)."""
        by_group: dict[str, builtins.list[str]] = {}
        for pool in pools:
            by_group.setdefault(self._groups.of_pool(pool).name, []).append(pool)
        out: set[str] = set()
        for name, wanted in by_group.items():
            recorded = self._groups.of(name).health_store.recorded()
            if recorded is not None and recorded.state == "inoperable":
                out.update(wanted)
        return out

    @staticmethod
    def merged(found: dict[str, Health]) -> Health:
        """One result: the main group's problems, then each other group's, naming it."""
        found = dict(found)
        main = found.pop(MAIN_GROUP)
        problems = list(main.problems)
        for name, health in found.items():
            problems += [
                replace(p, message=f"link group {name}: {p.message}")
                for p in health.problems
                if p.check != "software"  # the process's own: the same in every group
            ]
        checked = min([main.checked, *(h.checked for h in found.values())])
        return Health(main.software, tuple(problems), checked)


class GroupedArchiver:
    """Archives every group's journals (each group under its own lock and status)."""

    def __init__(self, groups: LinkGroups) -> None:
        self._groups = groups

    def run(self, trim: bool = True) -> ArchiveRun:
        """Every group in turn; a group that cannot be archived now (its master down, the
        archive refusing) does not hold the others back: the first such failure is raised
        once they are done."""
        out, failed = ArchiveRun(), None
        for group in self._groups.all():
            try:
                done = group.archiver.run(trim=trim)
            except Exception as exc:  # noqa: BLE001 - raised below, after the other groups
                failed = failed or exc
                continue
            out.archived.update(done.archived)
            out.trimmed.update(done.trimmed)
            out.rounds += done.rounds
            out.forgotten_rounds += done.forgotten_rounds
            out.repeats += done.repeats
            out.problems += done.problems
        if failed is not None:
            raise failed
        return out

    def status(self) -> ArchiveStatus:
        found = [g.archiver.status() for g in self._groups.all()]
        runs = [s.last_run for s in found]
        successes = [s.last_success for s in found]
        return ArchiveStatus(
            last_run=None if None in runs else min(r for r in runs if r is not None),
            last_success=None if None in successes else min(s for s in successes if s),
            last_problems=sum(s.last_problems for s in found),
            journals={j: v for s in found for j, v in s.journals.items()},
            repeats=sum(s.repeats for s in found),
        )


class GroupedActivity:
    """The operators' steps of every group, newest first."""

    def __init__(self, groups: LinkGroups) -> None:
        self._groups = groups

    def recent(self, limit: int) -> list[dict[str, Any]]:
        found = [g.activity.recent(limit) for g in self._groups.all()]
        merged = heapq.merge(*found, key=lambda e: int(e["ts"]), reverse=True)
        return [e for _, e in zip(range(limit), merged, strict=False)]
