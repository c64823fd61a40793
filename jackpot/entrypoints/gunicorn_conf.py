"""gunicorn settings for `jackpot serve` (gevent workers with client deadlines), from Settings."""

from typing import Any

from gunicorn.glogging import Logger
from prometheus_client import multiprocess

from jackpot import logs
from jackpot.settings import Settings

settings = Settings.from_env()

bind = settings.bind
workers = settings.workers
# a greenlet per connection, the head and body read under a deadline (gunicorn_worker.py)
worker_class = "jackpot.entrypoints.gunicorn_worker.ApiWorker"
worker_connections = settings.max_connections
# A round is one script call of well under a millisecond; 30 s means a stuck worker.
timeout = 30
graceful_timeout = 20
# gunicorn's gevent worker reads every request head within keepalive seconds (and closes an
# idle kept-alive connection after as long); ApiWorker reads the body within as long
keepalive = settings.client_deadline_seconds
max_requests = 0
# gunicorn's error log, its access log and the app's loggers share jackpot/logs.py's format
errorlog = "-"
loglevel = settings.log_level
logconfig_dict = logs.config_dict(settings)
proc_name = "jackpot"
# gunicorn >= 25 opens a control socket at one fixed path per user; several services
# (tests, benchmarks) on one machine would fight over it.
control_socket_disable = True


class AccessLogger(Logger):  # type: ignore[misc]
    """gunicorn's logger, minus the access line's cost when JACKPOT_ACCESS_LOG is unset."""

    def access(self, resp: Any, req: Any, environ: Any, request_time: Any) -> None:
        # with a logconfig_dict gunicorn would format every request's line only to drop it
        if self.access_log.handlers:
            super().access(resp, req, environ, request_time)


logger_class = AccessLogger


def child_exit(server, worker):  # type: ignore[no-untyped-def]
    # a dead worker's live gauges must leave the multiprocess metrics
    multiprocess.mark_process_dead(worker.pid)  # type: ignore[no-untyped-call]
