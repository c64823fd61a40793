"""Table-side reconciliation (docs/RULES.md §5, jackpot/domain/tablecounts.py): tables report
their own counts of what the controller acknowledged to them, per gaming day; the worker
compares them with what the journals hold, and the differences are shown (metric, alert,
console, the gaming-day report).

A table reports only while it has nothing in flight, with `through`: the stamp of the last
thing acknowledged to it that day. The controller counts the table's journal entries stamped
up to then, so a round settled after the table's report never makes them differ; an
acknowledged round the store lost does.

A difference stays in sight (metric, alert, console) until its day is closed and a person
acknowledged it (docs/DECISIONS.md D227): each day's comparison is kept, a later day's does
not replace it, and a day's records are forgotten after KEEP_DAYS only once nothing of it is
in sight.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable, Iterable
from datetime import date, timedelta
from typing import Any

from jackpot.conflicts import TableCountsAckError
from jackpot.domain.gamingday import GamingDays
from jackpot.domain.journals import Span
from jackpot.domain.tableanswers import DayCheck
from jackpot.domain.tablecounts import DayCounts, acknowledges, count_journal, differences, in_sight
from jackpot.errors import ArchiveUnavailableError, NotFoundError
from jackpot.store.journal import JournalStore
from jackpot.store.tablecounts import TableCountStore

log = logging.getLogger(__name__)

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
        closed: Callable[[], set[str]] = set,
        kept_ms: int | None = None,
    ) -> None:
        # the days starting within `kept_ms` of now are counted from Redis's tail alone (the
        # archiver trims nothing stamped since now - retention - skew): the comparison goes
        # on while the archive is down (docs/DECISIONS.md D227)
        self._kept_ms = kept_ms
        self._closed = closed  # the closed gaming days (kept in Redis: no archive needed)
        self._store = store
        self._journal = journal
        self._pools = pools
        self._days = days
        self._clock = clock

    def report(self, table: str, reported: list[dict[str, Any]]) -> list[DayCheck]:
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
        return [DayCheck.of(d["day"], checks.get((table, d["day"]))) for d in reported]

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
            try:
                ours = self._count(
                    date.fromisoformat(day), {r["table"]: r.get("through") for r in reports}
                )
            except ArchiveUnavailableError as exc:
                # a day older than Redis's tail: compared once the archive answers again
                log.warning("table counts of gaming day %s not compared: %s", day, exc)
                continue
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
        self._forget()
        return made

    def checks(self) -> list[dict[str, Any]]:
        """The latest comparison of each table's each day kept, each with `acknowledged`
        (the person's acknowledgement of its difference, or None), `closed` (its day is)
        and `in_sight` (it differs, and its day is not both closed and acknowledged)."""
        acks = {(a["table"], a["day"]): a for a in self._store.acks()}
        closed = self._closed()
        out = []
        for c in self._store.checks():
            ack = acks.get((c["table"], c["day"]))
            ack = ack if acknowledges(ack, c) else None
            shut = c["day"] in closed
            out.append(
                {**c, "acknowledged": ack, "closed": shut, "in_sight": in_sight(c, shut, ack)}
            )
        return out

    def acknowledge(
        self, table: str, day: str, checked_at: int | None, who: str, reason: str
    ) -> tuple[str, dict[str, Any]]:
        """A person acknowledges the difference of a table's day as compared: journaled once
        ('acknowledged'; 'unchanged' when that difference was acknowledged before)."""
        status, found = self._store.acknowledge(table, day, checked_at, who, reason)
        if status == "none":
            raise NotFoundError("counts", f"{table}/{day}", "day")
        if status == "matches":
            raise TableCountsAckError(
                table, day, "counts_match", "its counts match: nothing to acknowledge", "day"
            )
        if status == "changed":
            raise TableCountsAckError(
                table,
                day,
                "counts_changed",
                f"its counts were compared again since (checked_at "
                f"{found and found['checked_at']}): read them, then acknowledge those",
                "checked_at",
            )
        assert found is not None
        return status, found

    def _forget(self) -> None:
        """Drop the records of days before the kept ones, but never one still in sight."""
        today = self._days().of_time(self._clock())
        cut = (today - timedelta(days=KEEP_DAYS)).isoformat()
        keep = {(c["table"], c["day"]) for c in self.checks() if c["in_sight"]}
        self._store.forget(
            [
                f"{r['table']}/{r['day']}"
                for r in self._store.reported()
                if r["day"] < cut and (r["table"], r["day"]) not in keep
            ]
        )

    def _count(self, day: date, through: dict[str, int | None]) -> dict[str, DayCounts]:
        """The controller's figures of these tables' day, each up to its `through` stamp."""
        start, end = self._days().bounds(day)
        span = Span(start, end)
        pools = list(self._pools())
        journal = self._journal_from(start, pools)
        house: dict[str, list[dict[str, Any]]] = defaultdict(list)
        hits: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for e in journal.scan(None, journal.seq_at(None, start) - 1, span=span):
            table = _counted_for(e.fields, through)
            if table is not None:
                house[table].append(e.fields)
        for pool in pools:
            after = journal.seq_at(pool, start) - 1
            for e in journal.scan(pool, after, span=span):
                table = _counted_for(e.fields, through) if e.fields.get("type") == "hit" else None
                if table is not None:
                    hits[table].append(e.fields)
        return {t: count_journal(house[t], hits[t]) for t in through}

    def _journal_from(self, start: int, pools: list[str]) -> JournalStore:
        """Redis's tail alone when it holds the day from `start` in every journal, else the
        journals with the archive behind them."""
        kept = (self._kept_ms is not None and start >= self._clock() - self._kept_ms) or all(
            self._journal.tail_holds(p, start) for p in [None, *pools]
        )
        return self._journal.tail() if kept else self._journal


def _counted_for(fields: dict[str, Any], through: dict[str, int | None]) -> str | None:
    """The table an entry is counted for: one of the tables compared, stamped up to its
    `through` (None: not counted)."""
    table = str(fields.get("table", ""))
    if table not in through:
        return None
    cut = through[table]
    return table if cut is None or int(fields.get("ts", 0)) <= cut else None
