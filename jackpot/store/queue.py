"""Reconciliations on the RQ queue: what the API enqueues and the worker runs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from redis import Redis
from rq import Queue, Worker
from rq.exceptions import NoSuchJobError
from rq.job import Job
from rq.registry import FailedJobRegistry

from jackpot.domain.reportanswers import Report

RECONCILE_JOB = "jackpot.jobs.reconcile.reconcile_pool"
KEEP_SECONDS = 30 * 24 * 3600  # results and failures stay a month for accounting


@dataclass(frozen=True, slots=True)
class ReconciliationJob:
    id: str
    kind: str
    status: str  # queued, started, finished, failed, ...
    pool: str
    from_ts: int
    to_ts: int
    result: Any = None  # once finished

    def answer(self) -> Report:
        """What the API answers of it: the result once finished."""
        return Report(
            id=self.id,
            kind=self.kind,
            status=self.status,
            pool=self.pool,
            from_ts=self.from_ts,
            to_ts=self.to_ts,
            result=self.result if self.status == "finished" else None,
        )


# A reconciliation reads its period's entries only (about 50,000 a day on a busy link, read
# at tens of thousands a second): a minute to start, and ten seconds more per day of period.
RECONCILE_BASE_SECONDS = 60
RECONCILE_SECONDS_PER_DAY = 10
DAY_MS = 86_400_000


def reconcile_timeout(from_ts: int, to_ts: int) -> int:
    """The job's time limit in seconds, suited to the length of its period."""
    days = -(-max(to_ts - from_ts, 0) // DAY_MS)
    return RECONCILE_BASE_SECONDS + RECONCILE_SECONDS_PER_DAY * days


@dataclass(frozen=True, slots=True)
class QueueHealth:
    """What monitoring needs of the background queue."""

    name: str
    queued: int  # jobs waiting
    failed: int  # jobs in RQ's failed registry
    workers: int  # workers registered on the queue (a worker's key expires with its heartbeat)
    last_heartbeat: float | None  # seconds since the epoch: the newest worker heartbeat


class ReconciliationQueue:
    def __init__(self, client: Redis, name: str) -> None:
        self._r = client  # RQ keeps pickles: a client that does not decode replies
        self._name = name

    def enqueue_reconcile(self, pool: str, from_ts: int, to_ts: int, who: str) -> ReconciliationJob:
        job = Queue(self._name, connection=self._r).enqueue(
            RECONCILE_JOB,
            pool,
            from_ts,
            to_ts,
            job_timeout=reconcile_timeout(from_ts, to_ts),
            result_ttl=KEEP_SECONDS,
            failure_ttl=KEEP_SECONDS,
            meta={"requested_by": who, "kind": "reconcile"},
        )
        return ReconciliationJob(job.id, "reconcile", "queued", pool, from_ts, to_ts)

    def get(self, job_id: str) -> ReconciliationJob | None:
        try:
            job = Job.fetch(job_id, connection=self._r)
        except (NoSuchJobError, ValueError):  # rq refuses ids it could never have made
            return None
        pool, from_ts, to_ts = job.args
        status = job.get_status().value
        return ReconciliationJob(
            id=job.id,
            kind=job.meta.get("kind", "reconcile"),
            status=status,
            pool=pool,
            from_ts=from_ts,
            to_ts=to_ts,
            result=job.return_value() if status == "finished" else None,
        )

    def health(self, hostname: str | None = None) -> QueueHealth:
        """The queue's depth, its failed jobs and its live workers, or only those running on
        `hostname` (listing them, RQ forgets the workers whose key expired with their last
        heartbeat)."""
        queue = Queue(self._name, connection=self._r)
        failed = FailedJobRegistry(queue=queue)
        queued, failed_count = self._r.llen(queue.key), self._r.zcard(failed.key)
        workers = [w for w in Worker.all(queue=queue) if hostname is None or w.hostname == hostname]
        beats = [w.last_heartbeat.timestamp() for w in workers if w.last_heartbeat]
        return QueueHealth(
            self._name, int(queued), int(failed_count), len(workers), max(beats, default=None)
        )
