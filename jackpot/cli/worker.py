"""`jackpot worker`: the RQ worker for the controller's background jobs, and their schedule."""

from __future__ import annotations

import argparse
import logging
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from redis import Redis
from redis.exceptions import RedisError
from rq import Queue, Worker
from rq.cron import CronScheduler
from rq.exceptions import StopRequested

from jackpot.cli.runtime import store_url, with_controller_gaming_day
from jackpot.jobs.archive import apply_staged, archive_run, close_days, compare_tables
from jackpot.jobs.checkpoints import make_checkpoint
from jackpot.settings import GAMING_DAY_VARIABLES, Settings
from jackpot.store.connect import redis_client

log = logging.getLogger(__name__)

# RQ doubles its wait after each failed attempt to reach the store, up to a minute by default;
# a store that restarts is back within seconds, and reports should not wait a minute more.
RECONNECT_MAX_SECONDS = 5.0
# A run catching up on a long archive outage moves about 10,000 entries a second
# (docs/PERFORMANCE.md); an hour covers weeks of a floor's history.
ARCHIVE_JOB_TIMEOUT = 3600
# Gaming days are closed within this long of their end (plus the clock skew allowed).
CLOSE_EVERY_SECONDS = 300
# a staged parameter change takes effect within this many seconds of its time
STAGED_EVERY_SECONDS = 10
# tables report their own counts every 15 s while idle: compared within this long of it
COMPARE_EVERY_SECONDS = 15
# How often the schedule looks at the clock, at most (and how fast it stops).
TICK_SECONDS = 5.0
# RQ's loop ends, rather than waits, when the store fails in the middle of a job (a Sentinel
# failover while a job runs); the worker starts it again after this long.
RESTART_SECONDS = 2.0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("worker", help="run the RQ worker and the scheduled jobs")
    p.add_argument("--burst", action="store_true", help="exit when the queue is empty")
    p.add_argument(
        "--no-schedule",
        action="store_true",
        help="run queued jobs only; leave the schedule (the archive) to another worker",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    # a user of the embedded store like every command: it stays up while the worker runs
    with store_url(settings) as url:
        os.environ["JACKPOT_REDIS_URL"] = url  # the jobs' forked processes find the store here
        # the controller's gaming day, which the gaming-day close job closes days by
        settings = with_controller_gaming_day(settings, url)
        os.environ.update((n, v) for n, v in settings.to_env().items() if n in GAMING_DAY_VARIABLES)
        worker, scheduling = queue_clients(settings, url)
        queue = Queue(settings.queue, connection=worker)
        with schedule(scheduling, settings, enabled=not (args.burst or args.no_schedule)):
            work_until_stopped(queue, settings, burst=args.burst)
    return 0


def queue_clients(settings: Settings, url: str) -> tuple[Redis, Redis]:
    """The worker's client of the queue's store and the schedule's, apart. RQ waits for a
    job with a blocking pop of minutes and raises its client's socket timeout above that,
    but only for the connections made after: one the schedule's thread had made with the
    controller's short timeout, handed to the pop from a shared pool, timed out between
    jobs (ERROR "Timeout reading from socket", nothing wrong). The schedule's loop keeps the
    short timeout, to notice a store gone. RQ stores pickled bytes: neither decodes."""
    store = settings.queue_store(url)
    return (
        redis_client(store, settings, decode=False),
        redis_client(store, settings, decode=False),
    )


def work_until_stopped(queue: Queue, settings: Settings, burst: bool) -> None:
    """RQ's worker on `queue` until it is asked to stop (or, in a burst, the queue is empty).
    RQ ends its loop quietly, or raises, when the store fails in the middle of a job (a
    Sentinel failover); the worker is started again then, not left ended."""
    while True:
        try:
            worker = ControllerWorker([queue], connection=queue.connection)
        except RedisError as exc:  # RQ names itself to the store as it starts
            log.warning("the worker cannot reach the store: %s", exc)
            if not _pause():
                break
            continue
        worker.max_connection_wait_time = RECONNECT_MAX_SECONDS
        try:
            # RQ logs through jackpot/logs.py's handlers (configured by `jackpot`'s main)
            worker.work(
                burst=burst,
                with_scheduler=False,
                logging_level=settings.log_level.upper(),
            )
        except RedisError as exc:  # its teardown, recording its end, failed too
            log.warning("the worker could not record its end: %s", exc)
        if burst or worker.stop_requested:
            break
        log.warning(
            "the worker's loop ended without being asked to (the store failed in the "
            "middle of a job); starting it again"
        )
        if not _pause():
            break


def _pause() -> bool:
    """Wait RESTART_SECONDS before starting the worker again; False when a SIGTERM came
    meanwhile (RQ's handler, still installed, raises StopRequested)."""
    try:
        time.sleep(RESTART_SECONDS)
    except StopRequested:
        return False
    return True


class ControllerWorker(Worker):
    """RQ's worker, remembering whether it was asked to stop (SIGTERM, SIGINT): RQ ends its
    loop the same quiet way when the store fails in the middle of a job, and only the first
    should end `jackpot worker`.

    An idle RQ worker stops by raising StopRequested from the signal handler, and Python
    swallows an exception raised while it runs a weakref callback or a finaliser ("Exception
    ignored in ..."): a SIGTERM landing in SQLAlchemy's garbage collection was lost, and the
    worker ran on for good (CI, 2026-11-29). The flag RQ's loop checks before each wait is
    set too, so a stop whose exception is lost still ends the loop at its next turn."""

    stop_requested = False

    def request_stop(self, signum: int, frame: object) -> None:
        self.stop_requested = True
        self._stop_requested = True  # RQ's own, checked at the top of its loop
        super().request_stop(signum, frame)  # type: ignore[no-untyped-call]


def scheduler(connection: Redis, settings: Settings) -> CronScheduler:
    """RQ's cron scheduler with the controller's periodic jobs. Every worker may run one:
    a run of each job is idempotent and serialised by its own lock."""
    cron = CronScheduler(connection, logging_level=settings.log_level.upper())
    cron.register(
        archive_run,
        settings.queue,
        interval=settings.archive_interval_seconds,
        job_timeout=ARCHIVE_JOB_TIMEOUT,
        name="archive",
    )
    cron.register(
        close_days,
        settings.queue,
        interval=CLOSE_EVERY_SECONDS,
        job_timeout=ARCHIVE_JOB_TIMEOUT,
        name="close-days",
    )
    cron.register(
        apply_staged,
        settings.queue,
        interval=STAGED_EVERY_SECONDS,
        job_timeout=ARCHIVE_JOB_TIMEOUT,
        name="apply-staged",
    )
    cron.register(
        compare_tables,
        settings.queue,
        interval=COMPARE_EVERY_SECONDS,
        job_timeout=ARCHIVE_JOB_TIMEOUT,
        name="compare-tables",
    )
    cron.register(
        make_checkpoint,
        settings.queue,
        interval=settings.checkpoint_interval_seconds,
        job_timeout=ARCHIVE_JOB_TIMEOUT,
        name="checkpoint",
    )
    return cron


@contextmanager
def schedule(connection: Redis, settings: Settings, enabled: bool) -> Iterator[None]:
    """Enqueue the periodic jobs from a thread while the worker runs in the main one.

    RQ's CronScheduler.start() would take the process's signal handlers, which belong to the
    worker (a warm shutdown finishes the job at hand); so the thread drives the scheduler's
    own steps instead: enqueue what is due, save, heartbeat, sleep."""
    if not enabled:
        yield
        return
    cron = scheduler(connection, settings)
    stop = threading.Event()
    thread = threading.Thread(target=_tick, args=(cron, stop), name="schedule", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(TICK_SECONDS * 2)


def _tick(cron: CronScheduler, stop: threading.Event) -> None:
    born = False
    while not stop.is_set():
        try:
            if not born:
                cron.register_birth()
                born = True
            if cron.enqueue_jobs():
                cron.save()
            cron.heartbeat()
            wait = min(cron.calculate_sleep_interval(), TICK_SECONDS)
        except RedisError as exc:
            # the store restarting: the worker waits for it too; the schedule resumes after
            log.warning("the schedule could not reach the store: %s", exc)
            wait = TICK_SECONDS
        stop.wait(wait)
    if born:
        try:
            cron.register_death()
        except RedisError:
            log.warning("the schedule could not record its end: the store did not answer")
