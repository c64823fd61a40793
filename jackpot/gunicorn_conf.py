"""gunicorn settings for `jackpot serve` (threaded workers, bounded timeouts)."""

import os

from prometheus_client import multiprocess

bind = os.environ.get("JACKPOT_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("JACKPOT_WORKERS", "2"))
worker_class = "gthread"
threads = int(os.environ.get("JACKPOT_THREADS", "8"))
# A round is one script call of well under a millisecond; 30 s means a stuck worker.
timeout = 30
graceful_timeout = 20
keepalive = 5
max_requests = 0
accesslog = os.environ.get("JACKPOT_ACCESS_LOG") or None
errorlog = "-"
loglevel = os.environ.get("JACKPOT_LOG_LEVEL", "info")
proc_name = "jackpot"
# gunicorn >= 25 opens a control socket at one fixed path per user; several services
# (tests, benchmarks) on one machine would fight over it.
control_socket_disable = True


def child_exit(server, worker):  # type: ignore[no-untyped-def]
    # a dead worker's live gauges must leave the multiprocess metrics
    multiprocess.mark_process_dead(worker.pid)  # type: ignore[no-untyped-call]
