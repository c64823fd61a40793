"""Table-side reconciliation (docs/RULES.md §5, jackpot/domain/tablecounts.py): tables report
their own counts of what the controller acknowledged to them, per gaming day; the worker
compares them with what the journals hold, and the differences are shown (metric, alert,
console, the gaming-day report).

A table reports only while it has nothing in flight, with `through`: the stamp of the last
thing acknowledged to it that day. The controller counts the table's journal entries stamped
up to then, so a round settled after the table's report never makes them differ; an
acknowledged round the store lost does.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from datetime import date, timedelta
from typing import Any

from jackpot.domain.gamingday import GamingDays
from jackpot.domain.journals import Span
from jackpot.domain.tablecounts import DayCounts, count_journal, differences
from jackpot.store.journal import JournalStore
from jackpot.store.tablecounts import TableCountStore

#: how many gaming days of counts and comparisons are kept
KEEP_DAYS = 7


class TableCounts:
    """One link group's tables."""

    def __init__(
        self,
        store: TableCountStore,
        journal: JournalStore,
        pools: Callable[[], Iterable[str]],
        days: Callable[[], GamingDays],
        clock: Callable[[], int],
    ) -> None:
        self._store = store
        self._journal = journal
        self._pools = pools
        self._days = days
        self._clock = clock

    def report(self, table: str, reported: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Record a table's counts (each day's replaces the one before) and answer the
        controller's latest comparison of each day (`matches` None: not compared yet)."""
        now = self._clock()
        for d in reported:
            self._store.put(
                table,
                d["day"],
                {
                    "table": table,
                    "day": d["day"],
                    "counts": DayCounts.from_json(d).to_json(),
                    "through": d.get("through"),
                    "received": now,
                },
            )
        checks = {(c["table"], c["day"]): c for c in self._store.checks()}
        out = []
        for d in reported:
            check = checks.get((table, d["day"]))
            out.append(
                {
                    "day": d["day"],
                    "matches": None if check is None else not check["differences"],
                    "differences": {} if check is None else check["differences"],
                    "checked_at": None if check is None else check["checked_at"],
                }
            )
        return out

    def compare(self) -> list[dict[str, Any]]:
        """Compare every table's counts received since their last comparison with the
        journals (the worker's job); the comparisons made."""
        checked = {(c["table"], c["day"]): c["received"] for c in self._store.checks()}
        due: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for r in self._store.reported():
            if checked.get((r["table"], r["day"])) != r["received"]:
                due[r["day"]].append(r)
        made = []
        for day, reports in sorted(due.items()):
            ours = self._count(
                date.fromisoformat(day), {r["table"]: r.get("through") for r in reports}
            )
            for r in reports:
                mine = ours.get(r["table"], DayCounts())
                theirs = DayCounts.from_json(r["counts"])
                check = {
                    "table": r["table"],
                    "day": day,
                    "received": r["received"],
                    "through": r.get("through"),
                    "checked_at": self._clock(),
                    "table_counts": theirs.to_json(),
                    "controller_counts": mine.to_json(),
                    "differences": differences(theirs, mine),
                }
                self._store.check(r["table"], day, check)
                made.append(check)
        today = self._days().of_time(self._clock())
        self._store.forget_before((today - timedelta(days=KEEP_DAYS)).isoformat())
        return made

    def checks(self) -> list[dict[str, Any]]:
        """The latest comparison of each table's each day kept."""
        return self._store.checks()

    def _count(self, day: date, through: dict[str, int | None]) -> dict[str, DayCounts]:
        """The controller's figures of these tables' day, each up to its `through` stamp."""
        start, end = self._days().bounds(day)
        span = Span(start, end)
        house: dict[str, list[dict[str, Any]]] = defaultdict(list)
        hits: dict[str, list[dict[str, Any]]] = defaultdict(list)

        def keep(fields: dict[str, Any]) -> str | None:
            table = str(fields.get("table", ""))
            if table not in through:
                return None
            cut = through[table]
            return table if cut is None or int(fields.get("ts", 0)) <= cut else None

        for e in self._journal.scan(None, self._journal.seq_at(None, start) - 1, span=span):
            table = keep(e.fields)
            if table is not None:
                house[table].append(e.fields)
        for pool in self._pools():
            after = self._journal.seq_at(pool, start) - 1
            for e in self._journal.scan(pool, after, span=span):
                table = keep(e.fields) if e.fields.get("type") == "hit" else None
                if table is not None:
                    hits[table].append(e.fields)
        return {t: count_journal(house[t], hits[t]) for t in through}
