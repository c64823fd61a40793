"""The gaming-day close: each day closed once from the archive, kept immutable, bound to the
hash chain, served to accounting (what it computes: jackpot.domain.dayclose).

Closing a day first archives everything settled so far (so the day's history is in the
archive whole), refuses to close over a broken hash chain, computes the day's statement
(jackpot.domain.dayclose, from what jackpot.services.daystatement reads) and records it with
each journal's head at the day's end. A day is closed once: closing it again answers the recorded
statement, never a recomputed one.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Any, Protocol

from jackpot.archive.store import Archive
from jackpot.conflicts import (
    BrokenChainError,
    DayBoundsError,
    DayNotClosedError,
    DayNotJournaledError,
    DayNotOverError,
)
from jackpot.domain.dayclose import LAYOUT_VERSION, LAYOUTS, closed_day_digest, figure_differences
from jackpot.domain.dayreport import meter_series, pool_corrections, void_corrections
from jackpot.domain.gamingday import EPOCH, MILLISECOND, GamingDays
from jackpot.domain.journals import HOUSE, pool_journal
from jackpot.domain.meter import UNITS_PER_CENT
from jackpot.errors import NotFoundError
from jackpot.services.daystatement import DayStatements

if TYPE_CHECKING:
    from jackpot.services.fanout import GroupedArchiver
    from jackpot.store.journal import JournalStore


SECTIONS = ("pools", "tables", "hits", "table_counts", "voids")


class Accounting:
    def __init__(
        self,
        archive: Archive,
        archiver: GroupedArchiver,
        journal: Callable[[str | None], JournalStore],  # a pool's, or the house's
        pools: Callable[[], list[str]],
        days: Callable[[], GamingDays],  # the controller's (services.gamingday)
        clock: Callable[[], int],
        grace_ms: int,
        houses: Callable[[], list[str]] = lambda: [HOUSE],
        table_checks: Callable[[str], list[dict[str, Any]]] = lambda day: [],
        closed_days: ClosedDays | None = None,
        signed_close: Callable[[str], object] = lambda day: None,
    ) -> None:
        # signs a checkpoint at a day's close, whatever closed it (services.checkpoints, D265)
        self._signed_close = signed_close
        self._closed_days = closed_days  # where a closed day's digest is journaled
        # what a day's statement is computed from
        self._statements = DayStatements(archive, journal, houses, table_checks, pools)
        self._archive = archive
        self._archiver = archiver
        self._journal = journal
        self._pools = pools
        self._days = days
        self._clock = clock
        self._grace_ms = grace_ms  # how long after a day's end its last round may still land

    def statement(self, day: date) -> dict[str, Any]:
        """A closed day's statement (the archive's `report` column); 409 for a day not over
        or not closed, 404 before history, 409 for a record that is not the one journaled
        when the day was closed."""
        found = self._archive.day(day.isoformat())
        if found is not None:
            self._vouched(found)
            return dict(json.loads(found["report"]))
        start, end = self._days().bounds(day)
        if self._clock() < end + self._grace_ms:
            raise DayNotOverError(
                day.isoformat(), self._days().iso(end), self._days().iso(end + self._grace_ms)
            )
        first = self.first_day()
        if first is None or day < first:
            raise NotFoundError("day", day.isoformat())
        raise DayNotClosedError(day.isoformat())

    def timeline(self, day: date) -> dict[str, Any]:
        """What a closed day's report draws beside its statement: each pool's meter over the
        day and the day's corrections (voids, adjustments, transfers) with who and why, read
        from the entries the statement counted (each pool's `first_seq`..`last_seq`)."""
        statement = self.statement(day)  # a closed day, vouched for; else 404 or 409
        start, end = (_ms(statement[k]) for k in ("start", "end"))
        people = self._statements.people(end)
        meters, corrections = {}, []
        for row in statement["pools"]:
            pool = str(row["pool"])
            entries = []
            if row["first_seq"] is not None:
                for e in self._journal(pool).scan(pool, int(row["first_seq"]) - 1):
                    if e.seq > int(row["last_seq"]):
                        break
                    entries.append(e.fields)
            opening = (
                row["opening_meter_cents"] * UNITS_PER_CENT + row["opening_meter_subcent_units"]
            )
            meters[pool] = meter_series(opening, entries, start, end)
            corrections += pool_corrections(pool, entries, people)
        corrections += void_corrections(self._statements.voids(start, end), people)
        corrections.sort(key=lambda c: (c["ts"], c["kind"]))
        return {
            "day": statement["day"],
            "time_zone": statement["time_zone"],
            "start_ms": start,
            "end_ms": end,
            "meters": meters,
            "corrections": corrections,
        }

    def closed(self) -> list[dict[str, Any]]:
        """Every closed day: its name, bounds, when it was closed and whether it balanced."""
        out = []
        for row in self._archive.days():
            statement = json.loads(row["report"])
            out.append(
                {
                    "day": row["day"],
                    "start": statement["start"],
                    "end": statement["end"],
                    "closed_at": statement["closed_at"],
                    "balanced": statement["balanced"],
                    # None: closed before the day's statement said it
                    "table_counts_balanced": statement.get("table_counts_balanced"),
                }
            )
        return out

    def close(self, day: date) -> dict[str, Any]:
        """Close `day` (idempotent: a closed day's statement is answered as recorded)."""
        found = self._archive.day(day.isoformat())
        if found is not None:
            self._journal_closed(found)  # journaled, if a crash came between
            self._signed_close(found["day"])  # signed, if it was not (no key, a crash)
            return dict(json.loads(found["report"]))
        start, end = self._days().bounds(day)
        now = self._clock()
        if now < end + self._grace_ms:
            raise DayNotOverError(
                day.isoformat(), self._days().iso(end), self._days().iso(end + self._grace_ms)
            )
        self._check_bounds(day, start, end)
        run = self._archiver.run(trim=False)
        if run.problems:
            raise BrokenChainError("; ".join(run.problems[:3]))
        statement = self._statements.compute(
            day, start, end, now, self._days(), sorted(self._pools())
        )
        self._archive.add_day(
            {
                "day": day.isoformat(),
                "start_ts": start,
                "end_ts": end,
                "closed_at": now,
                "heads": json.dumps(statement["heads"], sort_keys=True),
                "report": json.dumps(statement, sort_keys=True),
                "version": LAYOUT_VERSION,
            }
        )
        # a close that raced another answers the one recorded first
        recorded = self._archive.day(day.isoformat())
        assert recorded is not None
        mine = recorded["report"] == json.dumps(statement, sort_keys=True)
        self._journal_closed(recorded, computed=mine)
        self._signed_close(recorded["day"])
        return dict(json.loads(recorded["report"]))

    def _journal_closed(self, row: dict[str, Any], computed: bool = False) -> None:
        """Bind the closed day's record to the hash chain: its digest, and the day before
        it's, in the house journal (once; a record found changed since is refused). A record
        this process did not just compute (another's close, one closed before records were
        bound, one a crash left unbound) is bound only once its figures are the archive's:
        a day inserted by hand is never laundered into the chain."""
        if self._closed_days is None:
            return
        if not computed and self._closed_days.closed_digest(row["day"]) is None:
            differences = self.recompute(row)
            if differences:
                raise BrokenChainError(
                    f"closed day {row['day']} was not closed from the archive's history "
                    f"({differences[0]}); it is not bound to the journal nor served"
                )
        digest = closed_day_digest(row)
        before = self._archive.day((date.fromisoformat(row["day"]) - timedelta(days=1)).isoformat())
        prev = closed_day_digest(before) if before is not None else ""
        journaled = self._closed_days.journal_closed(row["day"], digest, prev, "accounting")
        if journaled != digest:
            raise BrokenChainError(_rewritten(row["day"]))

    def _vouched(self, row: dict[str, Any]) -> None:
        """A closed day's record is the one journaled when it was closed (BrokenChainError)."""
        if self._closed_days is None:
            return
        journaled = self._closed_days.closed_digest(row["day"])
        if journaled is None:  # the worker's next run checks and binds it (close_due)
            raise DayNotJournaledError(row["day"])
        if journaled != closed_day_digest(row):
            raise BrokenChainError(_rewritten(row["day"]))

    def _check_bounds(self, day: date, start: int, end: int) -> None:
        """Days follow one another: the day before ends where this one starts, the day after
        starts where it ends (a process with other gaming-day settings would close a day
        overlapping a closed one, or leave hours in no day)."""
        for neighbour, mine, theirs in (
            (day - timedelta(days=1), start, "end_ts"),
            (day + timedelta(days=1), end, "start_ts"),
        ):
            found = self._archive.day(neighbour.isoformat())
            if found is not None and int(found[theirs]) != mine:
                raise DayBoundsError(
                    day.isoformat(),
                    f"{self._days().iso(start)} to {self._days().iso(end)}",
                    neighbour.isoformat(),
                    f"{self._days().iso(int(found['start_ts']))} to "
                    f"{self._days().iso(int(found['end_ts']))}",
                )

    def close_due(self) -> list[str]:
        """Close every day that is over and not closed yet, oldest first (the worker's job)."""
        first = self.first_day()
        if first is None:
            return []
        rows = self._archive.days()
        self._journal_unbound(rows)
        closed = {d["day"] for d in rows}
        done = []
        day = first
        while self._days().bounds(day)[1] + self._grace_ms <= self._clock():
            if day.isoformat() not in closed:
                self.close(day)
                done.append(day.isoformat())
            day += timedelta(days=1)
        return done

    def _journal_unbound(self, rows: list[dict[str, Any]]) -> None:
        """Bind the days closed before days were journaled, now."""
        if self._closed_days is None:
            return
        journaled = self._closed_days.closed_digests()  # one read, not one a day
        for row in rows:
            if row["day"] not in journaled:
                self._journal_closed(row)

    def first_day(self) -> date | None:
        """The gaming day of the controller's first journal entry."""
        first = self._journal(None).read(None, 0, 1)
        return None if not first else self._days().of_time(int(first[0].fields["ts"]))

    # --- the statement -------------------------------------------------------------------

    def recompute(self, row: dict[str, Any], records_checked: bool = False) -> list[str] | None:
        """A closed day's figures computed again from the archive, as when it was closed (its
        bounds, zone and pools), against its record: where they differ. None for a day
        recorded in another statement layout, which this code cannot redo. The day's round
        records are checked against their entries first (BrokenChainError), unless the
        caller has (`records_checked`: jackpot verify)."""
        layout = int(row["version"])
        if layout not in LAYOUTS:
            return None
        recorded = json.loads(row["report"])
        start, end = int(row["start_ts"]), int(row["end_ts"])
        named = {str(p["pool"]) for p in recorded["pools"]}
        pools = named | {
            p for p in self._pools() if self._archive.last_before(pool_journal(p), end)
        }
        days = GamingDays.of(recorded["gaming_day_start"], recorded["time_zone"])
        day = date.fromisoformat(row["day"])
        again = self._statements.compute(
            day, start, end, int(row["closed_at"]), days, sorted(pools), records_checked, layout
        )
        return figure_differences(recorded, again)


class ClosedDays(Protocol):
    """Where a closed day's digest is journaled (jackpot.store.gamingday)."""

    def journal_closed(self, day: str, digest: str, prev: str, who: str) -> str: ...

    def closed_digest(self, day: str) -> str | None: ...

    def closed_digests(self) -> dict[str, str]: ...


def _ms(iso: str) -> int:
    """An ISO 8601 instant with its offset, as a statement writes it, in epoch ms."""
    return (datetime.fromisoformat(iso) - EPOCH) // MILLISECOND


def _rewritten(day: str) -> str:
    return (
        f"closed day {day}: its record is not the one journaled when it was closed (rewritten "
        "or replaced); it is not served: jackpot verify names it"
    )
