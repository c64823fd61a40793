"""The link groups read as one: what a request about every pool, table, payout, void, table
count, activity or health asks of each group, merged (lists by id or newest first, one
health of several, one archive run over every group). Only merges live here: the group of
one pool, table or payout is jackpot.services.linkgroups's (the router), and the group a new
pool or table joins is jackpot.services.placement's.
"""

from __future__ import annotations

import builtins
import heapq
from dataclasses import replace
from typing import Any

from jackpot.archive.runreports import ArchiveRun, ArchiveStatus
from jackpot.domain.config import TableRecord
from jackpot.domain.linkgroups import MAIN_GROUP
from jackpot.domain.meter import PoolState
from jackpot.domain.payout import Payout
from jackpot.domain.payoutids import payout_group
from jackpot.integrity import SoftwareCheck
from jackpot.services.linkgroups import LinkGroups
from jackpot.services.selfcheck import Health
from jackpot.store.health import Durability
from jackpot.store.payouts import payout_order, void_order


class GroupedPools:
    """The pools of every link group, as one."""

    def __init__(self, groups: LinkGroups) -> None:
        self._groups = groups

    def apply_due(self, now_ms: int, who: str = "scheduler") -> dict[str, str]:
        done: dict[str, str] = {}
        for group in self._groups.all():
            done.update(group.pools.apply_due(now_ms, who))
        return done

    def all(self) -> list[PoolState]:
        return every_pool(self._groups)

    def all_public(self) -> list[PoolState]:
        found = (p for g in self._groups.all() for p in g.pools.all_public())
        return sorted(found, key=lambda state: state.pool)


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


class GroupedTableCounts:
    """Every link group's comparisons of the tables' own counts with the controller's, as
    one (a table's own use cases: LinkGroups.counts_of)."""

    def __init__(self, groups: LinkGroups) -> None:
        self._groups = groups

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
    """The round voids of every link group awaiting people's approval."""

    def __init__(self, groups: LinkGroups) -> None:
        self._groups = groups

    def awaiting(self) -> builtins.list[dict[str, Any]]:
        """Every void awaiting approval, of every link group (each named), oldest first."""
        found = [
            {**v, "group": name}
            for name in self._groups.names()
            for v in self._groups.of(name).voids.awaiting()
        ]
        return sorted(found, key=lambda v: (v["at"], v["table"], v["round"]))


class GroupedPayouts:
    """The payouts of every link group; a payout's id names its group (east:P000001)."""

    def __init__(self, groups: LinkGroups) -> None:
        self._groups = groups

    def list(self, status: str | None, limit: int) -> builtins.list[Payout]:
        found = [g.payouts.list(status, limit) for g in self._groups.all()]
        if len(found) == 1:
            return found[0]
        merged = heapq.merge(*found, key=payout_order, reverse=True)
        return [p for _, p in zip(range(limit), merged, strict=False)]

    def unsettled(self) -> builtins.list[Payout]:
        return [p for g in self._groups.all() for p in g.payouts.unsettled()]

    def live(self) -> builtins.list[Payout]:
        return [p for g in self._groups.all() for p in g.payouts.live()]

    def awaiting_voids(self) -> builtins.list[Payout]:
        """Every payout void awaiting a second person, of every link group, oldest first."""
        found = [p for g in self._groups.all() for p in g.payouts.awaiting_voids()]
        return sorted(found, key=void_order)

    def many(self, ids: builtins.list[str]) -> builtins.list[Payout]:
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


class GroupedConfig:
    """What readers (signs, reports, accounting) read of pools and tables, over every group."""

    def __init__(self, groups: LinkGroups) -> None:
        self._groups = groups

    def pool_ids(self) -> list[str]:
        return sorted(p for g in self._groups.all() for p in g.config.pool_ids())

    def pools(self) -> list[PoolState]:
        return every_pool(self._groups)

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
        return ArchiveStatus(
            last_run=_oldest([s.last_run for s in found]),
            last_success=_oldest([s.last_success for s in found]),
            last_problems=sum(s.last_problems for s in found),
            journals={j: v for s in found for j, v in s.journals.items()},
            repeats=sum(s.repeats for s in found),
        )


def _oldest(times: list[int | None]) -> int | None:
    """The earliest of the groups' times: how far behind the slowest group is; None while a
    group has none."""
    return None if None in times else min(t for t in times if t is not None)


class GroupedActivity:
    """The operators' steps of every group, newest first."""

    def __init__(self, groups: LinkGroups) -> None:
        self._groups = groups

    def recent(self, limit: int) -> list[dict[str, Any]]:
        found = [g.activity.recent(limit) for g in self._groups.all()]
        merged = heapq.merge(*found, key=lambda e: int(e["ts"]), reverse=True)
        return [e for _, e in zip(range(limit), merged, strict=False)]
