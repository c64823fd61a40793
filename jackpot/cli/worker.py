"""`jackpot worker`: the RQ worker for the controller's background jobs."""

from __future__ import annotations

import argparse
import os

from rq import Queue, Worker

from jackpot.bootstrap import redis_client
from jackpot.cli.runtime import store_url
from jackpot.settings import Settings

# RQ doubles its wait after each failed attempt to reach the store, up to a minute by default;
# a store that restarts is back within seconds, and reports should not wait a minute more.
RECONNECT_MAX_SECONDS = 5.0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("worker", help="run the RQ worker")
    p.add_argument("--burst", action="store_true", help="exit when the queue is empty")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    # a user of the embedded store like every command: it stays up while the worker runs
    with store_url(settings) as url:
        os.environ["JACKPOT_REDIS_URL"] = url  # the jobs' forked processes find the store here
        # RQ stores pickled bytes: its connection must not decode responses.
        connection = redis_client(url, settings, decode=False)
        queue = Queue(settings.queue, connection=connection)
        worker = Worker([queue], connection=connection)
        worker.max_connection_wait_time = RECONNECT_MAX_SECONDS
        # RQ logs through jackpot/logs.py's handlers (configured by `jackpot`'s main)
        worker.work(
            burst=args.burst, with_scheduler=False, logging_level=settings.log_level.upper()
        )
    return 0
