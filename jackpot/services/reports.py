"""The journal for accounting, and reconciliation reports run in the background."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from jackpot.domain.reconcile import Reconciliation, reconcile
from jackpot.domain.requests import ReconcileRequest
from jackpot.errors import NotFoundError
from jackpot.store.config import ConfigStore
from jackpot.store.journal import JournalEntry, JournalStore
from jackpot.store.queue import ReportJob, ReportQueue


class Reports:
    def __init__(
        self,
        config: ConfigStore,
        journal: JournalStore,
        queue: ReportQueue,
        clock: Callable[[], int],
    ) -> None:
        self._config = config
        self._journal = journal
        self._queue = queue
        self._clock = clock

    def journal(self, pool: str | None, after: int, limit: int) -> list[JournalEntry]:
        """A page of a pool's journal (None: the house journal), oldest first."""
        if pool is not None:
            self._config.pool(pool)  # 404 for an unknown pool
        return self._journal.read(pool, after, limit)

    def export(self, pool: str | None, after: int) -> Iterator[JournalEntry]:
        """Every entry after `after`; checks the pool before the first entry is read."""
        if pool is not None:
            self._config.pool(pool)
        return self._journal.scan(pool, after)

    def request_reconciliation(self, body: Any, who: str) -> ReportJob:
        """Queue a pool's reconciliation over [from, to) (ms since the epoch)."""
        wanted = ReconcileRequest.from_json(body, self._clock())
        self._config.pool(wanted.pool)
        return self._queue.enqueue_reconcile(wanted.pool, wanted.from_ts, wanted.to_ts, who)

    def report(self, report_id: str) -> ReportJob:
        job = self._queue.get(report_id)
        if job is None:
            raise NotFoundError("report", report_id)
        return job

    def reconcile(self, pool: str, from_ts: int, to_ts: int) -> Reconciliation:
        """The period's reconciliation from the pool's journal (the worker runs this)."""
        self._config.pool(pool)
        entries = (e.to_json() for e in self._journal.scan(pool))
        return reconcile(pool, entries, from_ts, to_ts)
