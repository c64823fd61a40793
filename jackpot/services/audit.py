"""What auditors read: the journals (one page, or exported whole) and the reconciliation of a
pool over a period, run in the background (a "report" is only ever what a table reports)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import chain
from typing import TYPE_CHECKING, Any

from jackpot.domain.dayclose import void_register
from jackpot.domain.gamingday import DAY, GamingDays, parse_day
from jackpot.domain.journals import EVERYTHING, JournalEntry, Span
from jackpot.domain.linkgroups import MAIN_GROUP
from jackpot.domain.reconcile import BALANCE, Reconciliation, reconcile
from jackpot.domain.requests import ReconcileRequest
from jackpot.domain.validate import parse_identifier, parse_timestamp
from jackpot.errors import NotFoundError, ValidationError
from jackpot.services.fanout import every_pool
from jackpot.store.queue import QueueHealth, ReconciliationJob, ReconciliationQueue

if TYPE_CHECKING:
    from jackpot.services.linkgroups import LinkGroups


# how far before a span the approvals of its voids are looked for first (then further)
LOOK_BACK_MS = 3_600_000


class Audit:
    def __init__(
        self,
        groups: LinkGroups,  # each pool's journal in its group, each group's house journal
        queue: ReconciliationQueue,
        clock: Callable[[], int],
        days: Callable[[], GamingDays],  # the controller's (services.gamingday)
    ) -> None:
        self._groups = groups
        self._queue = queue
        self._clock = clock
        self._days = days

    def span(self, start: str | None, end: str | None, table: str | None) -> Span:
        """A read's time range and table from its query: `from` and `to` are RFC 3339 times
        or gaming days (YYYY-MM-DD: its start in `from`, its end in `to`)."""
        from_ts = None if start is None else self._instant(start, "from", end=False)
        to_ts = None if end is None else self._instant(end, "to", end=True)
        if from_ts is not None and to_ts is not None and to_ts <= from_ts:
            raise ValidationError("to", "must be later than from", "empty_range")
        return Span(from_ts, to_ts, None if table is None else parse_identifier(table, "table"))

    def journal(
        self,
        pool: str | None,
        after: int,
        limit: int,
        span: Span = EVERYTHING,
        group: str = MAIN_GROUP,
    ) -> list[JournalEntry]:
        """A page of a pool's journal (None: the house journal of link group `group`),
        oldest first: the archive and Redis's tail read as one sequence."""
        if pool is not None:
            self._groups.pool(pool)  # 404 for an unknown pool
        return self._groups.journal_of(pool, group).read(pool, after, limit, span)

    def export(
        self, pool: str | None, after: int, span: Span = EVERYTHING, group: str = MAIN_GROUP
    ) -> Iterator[JournalEntry]:
        """Every entry after `after` in `span`; checks the pool before the first is read."""
        if pool is not None:
            self._groups.pool(pool)
        return self._groups.journal_of(pool, group).scan(pool, after, span=span)

    def applied_round_voids(self, span: Span) -> list[dict[str, Any]]:
        """Every round's void applied in `span`, of every link group, oldest first, as the
        day's voids section shows each (who asked, who approved, why, what it took back):
        read from the house journals, Redis's tail included."""
        voids: list[dict[str, Any]] = []
        approvals: list[dict[str, Any]] = []
        for group in self._groups.names():
            entries = self._house_entries(span, group, ("void", "void_approved"))
            applied = [e for e in entries if e["type"] == "void"]
            voids += applied
            given = [e for e in entries if e["type"] == "void_approved"]
            approvals += self._approvals_of(applied, given, span, group)
        cancelled = self._voided_payouts(span) if voids else []
        rows = void_register(voids, cancelled, self._days().iso, {}, approvals)
        return [row for row in rows if row["kind"] == "round"]  # a payout's: its history

    def _house_entries(
        self, span: Span, group: str, kinds: tuple[str, ...]
    ) -> list[dict[str, Any]]:
        """A link group's house journal entries of these types in `span`, in one read."""
        return [
            dict(e.fields)
            for e in self.export(None, 0, span, group)
            if e.fields.get("type") in kinds
        ]

    def _approvals_of(
        self,
        voids: list[dict[str, Any]],
        given: list[dict[str, Any]],
        span: Span,
        group: str,
    ) -> list[dict[str, Any]]:
        """The `void_approved` entries naming the first approvers of `voids` (`given`: those
        in the span). An approval comes before the void it helps apply, by as long as the
        next person took: when one is missing, the approvals are read again from further
        back, each time sixteen times further, the whole journal at most."""
        wanted = _first_approvers(voids)
        reach = LOOK_BACK_MS
        while span.from_ts is not None and not wanted <= _approvers(given):
            start = span.from_ts - reach
            wider = Span(start if start > 0 else None, span.to_ts)
            given = self._house_entries(wider, group, ("void_approved",))
            if wider.from_ts is None:
                break  # the whole journal was read
            reach *= 16
        return given

    def _voided_payouts(self, span: Span) -> list[tuple[str, dict[str, Any]]]:
        """The payouts voided in `span`, each with its pool: a round's void cancels those its
        pools' `payout_voided` entries say (the same time, table and round)."""
        return [
            (pool.pool, dict(e.fields))
            for pool in every_pool(self._groups)
            for e in self.export(pool.pool, 0, span)
            if e.fields.get("type") == "payout_voided"
        ]

    def _instant(self, raw: str, field: str, end: bool) -> int:
        if DAY.fullmatch(raw):
            day = parse_day(raw, field)  # before the gaming day is read, or recorded: a 400
            start, stop = self._days().bounds(day)  # changes nothing
            return stop if end else start
        return parse_timestamp(raw, field)

    def request_reconciliation(self, body: Any, who: str) -> ReconciliationJob:
        """Queue a pool's reconciliation over [from, to) (ms since the epoch)."""
        wanted = ReconcileRequest.from_json(body, self._clock())
        self._groups.pool(wanted.pool)
        return self._queue.enqueue_reconcile(wanted.pool, wanted.from_ts, wanted.to_ts, who)

    def reconciliation(self, job_id: str) -> ReconciliationJob:
        job = self._queue.get(job_id)
        if job is None:
            raise NotFoundError("report", job_id)  # the API calls it a report (its URL)
        return job

    def reconcile(self, pool: str, from_ts: int, to_ts: int) -> Reconciliation:
        """The period's reconciliation from the pool's journal (the worker runs this)."""
        self._groups.pool(pool)  # 404 for an unknown pool
        journal = self._groups.journal_of(pool)
        # the period's entries and the last balance before them: found through the time
        # index, so the cost follows the period's length, not the journal's
        start = journal.seq_at(pool, from_ts)
        opening = next((e for e in journal.before(pool, start) if BALANCE in e.fields), None)
        period = journal.scan(pool, start - 1, span=Span(None, to_ts))
        entries = chain([] if opening is None else [opening], period)
        return reconcile(pool, (e.to_json() for e in entries), from_ts, to_ts)

    def queue_health(self) -> QueueHealth:
        return self._queue.health()


def _first_approvers(voids: list[dict[str, Any]]) -> set[tuple[str, str, str]]:
    """(table, round, key) of each person who approved a void before the one who applied
    it (the void's `approved_first_by`)."""
    named = ((v, str(v.get("approved_first_by") or "")) for v in voids)
    return {
        (str(v["table"]), str(v["round"]), who)
        for v, keys in named
        for who in keys.split(",")
        if who
    }


def _approvers(approvals: list[dict[str, Any]]) -> set[tuple[str, str, str]]:
    return {(str(a["table"]), str(a["round"]), str(a["who"])) for a in approvals}
