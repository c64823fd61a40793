"""Moves settled history from Redis to the archive, then trims Redis to the retention window.

One run, for every journal (the house journal and each pool's), in batches:

1. read the archive's tip (last seq and hash) and the Redis entries after it;
2. check they continue the archived chain (a broken chain is never archived nor trimmed:
   the run stops and says where, for `jackpot verify` and an operator);
3. insert them, and for the house journal's round entries the rounds' stored results, in one
   transaction: a killed archiver leaves all of a batch or none of it, and the next run
   starts from the archive's tip again, so there is no gap and no duplicate;
4. only then trim: entries that are archived *and* older than the retention window leave
   the stream, and a round's idempotency record leaves with its house entry.

An archive that cannot be written stops step 3, so nothing is trimmed and Redis keeps
everything (its memory grows, and `jackpot_archive_*` metrics show how far behind it is).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.context import ForkContext
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from redis import Redis

from jackpot.archive.batches import BatchReader
from jackpot.archive.prefetch import prefetched
from jackpot.archive.runreports import (
    Apart,
    ArchiveChainError,
    ArchiveRun,
    ArchiveStatus,
    journal_status,
    opt_int,
    reported,
)
from jackpot.archive.store import Archive
from jackpot.domain.journals import house_journal, pool_journal
from jackpot.errors import ArchiveUnavailableError
from jackpot.store.forgotten import ForgottenRounds
from jackpot.store.keys import Keys

log = logging.getLogger(__name__)
T = TypeVar("T")

BATCH = 10_000  # entries per transaction: a commit (an fsync) per batch
# A run archives the journals whose backlogs are at least this long in processes of their
# own, side by side (a catch-up after an outage, or a busy floor on a many-core machine);
# shorter ones, in the run's own process.
PARALLEL_BACKLOG = 2 * BATCH
# A run renews its lock after every batch (seconds each): a killed run holds the others up
# for at most this long.
LOCK_SECONDS = 60


class Archiver:
    def __init__(
        self,
        client: Redis,
        keys: Keys,
        archive: Archive,
        retention_seconds: int,
        skew_seconds: int,
        clock: Callable[[], int],
        batch: int = BATCH,
        parallel_backlog: int | None = PARALLEL_BACKLOG,
    ) -> None:
        self._r = client
        self._k = keys
        self._archive = archive
        # A round's record may leave Redis only once no resend of it can take the fast path:
        # the round path looks in the archive for rounds dealt before now - retention + skew,
        # and a round is dealt at most `skew` after it is stamped. One more skew of margin
        # covers the clocks of this machine, the service's and Redis's disagreeing by up to
        # half of it (docs/DECISIONS.md D71, the retention window).
        self._keep_ms = (retention_seconds + skew_seconds) * 1000
        self._clock = clock
        self._batch = batch
        # None: never in processes of their own (nor on a system without fork)
        fork = "fork" in multiprocessing.get_all_start_methods()
        self._parallel_backlog = parallel_backlog if fork else None
        self._lock: Any = None
        self._batches = BatchReader(client, keys, batch)
        self._forgotten = ForgottenRounds(client, keys)

    def streams(self) -> list[tuple[str, str]]:
        """(archive journal name, Redis stream) of every journal."""
        pools = sorted(self._r.smembers(self._k.pools))
        return [(house_journal(self._k.group), self._k.journal)] + [
            (pool_journal(p), self._k.pool_journal(p)) for p in pools
        ]

    def status(self) -> ArchiveStatus:
        """What the last runs left in Redis, and how far each journal is ahead of them: read
        from Redis alone, so /metrics answers while the archive is down."""
        recorded = self._r.hgetall(self._k.archive_status)
        streams = self.streams()
        pipe = self._r.pipeline(transaction=False)
        for _, stream in streams:
            pipe.xrevrange(stream, count=1)
            pipe.xlen(stream)
        replies = pipe.execute()
        journals = {
            journal: journal_status(recorded, journal, replies[2 * i], replies[2 * i + 1])
            for i, (journal, _) in enumerate(streams)
        }
        return ArchiveStatus(
            opt_int(recorded.get("last_run")),
            opt_int(recorded.get("last_success")),
            int(recorded.get("last_problems", 0)),
            journals,
            int(recorded.get("round_repeats", 0)),
        )

    def run(self, trim: bool = True) -> ArchiveRun:
        """Archive everything settled so far, then trim; one run at a time per controller."""
        lock = self._r.lock(
            self._k.archive_lock, timeout=LOCK_SECONDS, blocking_timeout=LOCK_SECONDS
        )
        if not lock.acquire():
            raise TimeoutError("another archive run held the lock for too long")
        self._lock = lock
        try:
            return self._run(trim)
        finally:
            try:
                lock.release()
            except Exception:  # noqa: BLE001 - an expired lock is released already
                log.warning("the archive lock had expired before the run ended")

    def _run(self, trim: bool) -> ArchiveRun:
        run = ArchiveRun()
        started = self._clock()
        if trim:
            self._remember_archived()
        streams = self.streams()
        done = self._archive_apart(streams)
        for journal, stream in streams:
            self._archive_into(run, journal, stream, done.get(journal), trim)
        self._record_run(run, started, trim)
        return run

    def _archive_into(
        self, run: ArchiveRun, journal: str, stream: str, apart: Apart | None, trim: bool
    ) -> None:
        """One journal archived (in a process apart, or here) into the run, then trimmed."""
        try:
            if apart is not None:
                archived, rounds, tip, repeats = apart.result()
            else:
                archived, rounds, tip, repeats = self._archive_journal(journal, stream)
        except ArchiveChainError as exc:
            run.problems += [str(p) for p in exc.problems]
            log.error("archive stopped for %s: %s", journal, exc)
            return
        run.archived[journal], run.rounds = archived, run.rounds + rounds
        run.repeats += repeats
        self._r.hset(self._k.archive_status, f"seq:{journal}", tip)
        if trim:
            trimmed, forgotten = self._trim(journal, stream, tip, self._clock() - self._keep_ms)
            run.trimmed[journal] = trimmed
            run.forgotten_rounds += forgotten

    def _record_run(self, run: ArchiveRun, started: int, trim: bool) -> None:
        """The run's status, for the metrics and the next run."""
        status = {"last_run": started, "last_problems": len(run.problems)}
        if not run.problems:
            status["last_success"] = started
            if trim:
                # every journal's entries from before the run's start are archived now: so
                # are the steps that settled the payouts the settled index holds from before
                # the window ending there
                cutoff = started - self._keep_ms
                self._r.zremrangebyscore(self._k.payouts_settled, "-inf", f"({cutoff}")
        self._r.hset(self._k.archive_status, mapping=status)

    def _remember_archived(self) -> None:
        """Once, on a controller whose archive began before the filters of forgotten rounds
        (D225): every archived round of this group's tables into its table's filter, so that
        none trimmed by an older version is settled again either."""
        if self._r.hget(self._k.archive_status, "forgotten_filled"):
            return
        tables = sorted(self._r.smembers(self._k.tables))
        remembered = 0
        for batch in self._archive.round_ids(tables, self._batch):
            self._forgotten.call("remember", batch)
            remembered += len(batch)
            self._hold()
        self._r.hset(self._k.archive_status, "forgotten_filled", self._clock())
        if remembered:
            log.info("%d archived rounds put into their tables' filters", remembered)

    def _archive_apart(self, streams: list[tuple[str, str]]) -> dict[str, Apart]:
        """Archive the journals with long backlogs at once, each in a forked process of its
        own (the work is Python's, one core per process); wait for all of them.

        Each child archives its journal exactly as the run would (its own batches, each one
        transaction), so a killed child, like a killed run, leaves no gap and no duplicate.
        Trimming stays in this process, after every child has finished.
        """
        long = self._long_backlogs(streams)
        if len(long) < 2:
            return {}
        self._archive.ensure()  # migrated once, here, not by children racing each other
        # No database connection may cross the fork: a child closing an inherited SQLite
        # connection could checkpoint and remove the WAL under this process. The pool is
        # emptied here (it reconnects when next used) and each child opens its own.
        self._archive.engine.dispose()
        context = multiprocessing.get_context("fork")
        children = [self._fork(context, journal, stream) for journal, stream in long]
        return {journal: reported(journal, child, receive) for journal, child, receive in children}

    def _long_backlogs(self, streams: list[tuple[str, str]]) -> list[tuple[str, str]]:
        """The journals whose backlogs are long enough to archive apart (none: not at all)."""
        if self._parallel_backlog is None:
            return []
        backlog = self.status().journals
        return [
            (journal, stream)
            for journal, stream in streams
            if journal in backlog and backlog[journal].unarchived >= self._parallel_backlog
        ]

    def _fork(
        self, context: ForkContext, journal: str, stream: str
    ) -> tuple[str, BaseProcess, Connection]:
        """A child process archiving one journal, started, and the end it reports to."""
        receive, send = context.Pipe(duplex=False)
        child = context.Process(
            target=self._archive_child,
            args=(journal, stream, send),
            name=f"archive {journal}",
            daemon=True,
        )
        child.start()
        send.close()
        return journal, child, receive

    def _archive_child(self, journal: str, stream: str, send: Any) -> None:
        """In a forked child: archive one journal with connections of its own, report back."""
        self._archive.engine.dispose(close=False)  # (empty: the parent emptied it)
        self._r.connection_pool.reset()  # the parent's sockets stay the parent's
        try:
            outcome: tuple[Any, ...] = ("ok", *self._archive_journal(journal, stream))
        except ArchiveChainError as exc:
            outcome = ("chain", exc.problems)
        except ArchiveUnavailableError as exc:
            outcome = ("unavailable", str(exc))
        except BaseException as exc:  # noqa: BLE001 - reported to the parent, which raises it
            outcome = ("error", f"{type(exc).__name__}: {exc}")
        try:
            send.send(outcome)
        finally:
            send.close()
            os._exit(0)  # no atexit handlers, no flushing of the parent's buffers

    def _hold(self) -> None:
        """Keep the run's lock for another LOCK_SECONDS: a long catch-up stays the only run
        (a lock lost meanwhile raises LockNotOwnedError and stops this run, never two)."""
        self._lock.reacquire()

    def _archive_journal(self, journal: str, stream: str) -> tuple[int, int, int, int]:
        seq, head = self._archive.tip(journal)
        archived = rounds_archived = repeated = 0
        # the next batch is read from Redis and checked while this one is written
        for batch, found, problems in prefetched(self._batches.read(journal, stream, seq, head)):
            if batch:
                repeats = self._archive.append_rows(batch, found)
                if repeats:
                    self._repeated(repeats)
                    repeated += len(repeats)
                self._hold()
                archived, rounds_archived = archived + len(batch), rounds_archived + len(found)
                seq = batch[-1][1]
            if problems:
                self._r.hset(self._k.archive_status, f"seq:{journal}", seq)
                raise ArchiveChainError(problems)
        return archived, rounds_archived, seq, repeated

    def _repeated(self, repeats: list[tuple[Any, ...]]) -> None:
        """Rounds settled again under an archived id: archived beside the first (the archive
        goes on), counted for the metric and its alert, and each one logged (D225)."""
        self._r.hincrby(self._k.archive_status, "round_repeats", len(repeats))
        for row in repeats:
            log.error(
                "round %s/%s was settled again (house entry %s) after its first settlement "
                "was archived: kept in round_repeats; jackpot verify reports it",
                row[0],
                row[1],
                row[-1],
            )

    def _trim(
        self, journal: str, stream: str, archived_seq: int, cutoff_ms: int
    ) -> tuple[int, int]:
        """Drop entries archived and older than the cutoff; the house journal's rounds too."""
        trimmed = forgotten = 0
        while True:
            rows = self._r.xrange(stream, min="-", max="+", count=self._batch)
            done = _trimmable(rows, archived_seq, cutoff_ms)
            if not done:
                return trimmed, forgotten
            if journal == house_journal(self._k.group):
                # records first, each id into its table's filter in the same call: a report
                # finds the record or the id, never neither (D225). A crash before XTRIM leaves
                # entries whose records are gone, and the next run forgets them again
                forgotten += self._forgotten.call("trim", _rounds_of(done))
            self._r.xtrim(stream, minid=f"{done[-1][0] + 1}-0", approximate=False)
            self._hold()
            trimmed += len(done)
            if len(done) < len(rows):
                return trimmed, forgotten


def _trimmable(
    rows: list[tuple[str, dict[str, str]]], archived_seq: int, cutoff_ms: int
) -> list[tuple[int, dict[str, str]]]:
    """(seq, fields) of the oldest entries read that are archived and older than the cutoff."""
    done = []
    for entry_id, fields in rows:
        seq = int(entry_id.split("-", 1)[0])
        if seq > archived_seq or int(fields.get("ts", "0")) >= cutoff_ms:
            break
        done.append((seq, fields))
    return done


def _rounds_of(done: list[tuple[int, dict[str, str]]]) -> list[tuple[str, str]]:
    """(table, round id) of the house journal's round entries among `done`."""
    return [(f.get("table", ""), f.get("round", "")) for _, f in done if f.get("type") == "round"]


def wall_ms() -> int:
    return time.time_ns() // 1_000_000
