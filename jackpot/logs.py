"""One logging setup for every process: gunicorn's error and access logs, the app, the worker.

Every line reads `ISO-time LEVEL pid=N logger: message`, and a line written while a round
is being served ends with ` table=T round=R`:

    2026-11-22T22:13:01.512+00:00 WARNING pid=4711 jackpot.api: store unavailable table=T1 round=r7

`configure(settings)` applies it in a command's process; gunicorn gets the same dictionary
as its `logconfig_dict` (jackpot/gunicorn_conf.py).
"""

from __future__ import annotations

import logging
import logging.config
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime
from typing import Any

from jackpot.settings import Settings

FORMAT = "%(asctime)s %(levelname)s pid=%(process)d %(name)s: %(message)s%(round_context)s"

# (table, round) of the round report this thread is serving
_round: ContextVar[tuple[str, str] | None] = ContextVar("jackpot_round", default=None)
# what a log line may show of an id from the request: anything else could forge a line
_SHOWN = re.compile(r"[A-Za-z0-9._:-]{1,128}")


def tag_round(table: object, round_id: object) -> None:
    """Name the round being served on this context's log lines (ends with `round_scope`)."""
    _round.set((_shown(table), _shown(round_id)))


def forget_round() -> None:
    """Stop naming a round on this context's log lines."""
    _round.set(None)


@contextmanager
def round_scope() -> Iterator[None]:
    """A request's span: a round tagged inside it is forgotten when it ends."""
    token = _round.set(None)
    try:
        yield
    finally:
        _round.reset(token)


def _shown(value: object) -> str:
    return value if isinstance(value, str) and _SHOWN.fullmatch(value) else "?"


class RoundFilter(logging.Filter):
    """Adds `table`, `round_id` and `round_context` (" table=T round=R" or "") to a record."""

    def filter(self, record: logging.LogRecord) -> bool:
        tag = _round.get()
        record.table, record.round_id = tag or (None, None)
        record.round_context = f" table={tag[0]} round={tag[1]}" if tag else ""
        return True


class Formatter(logging.Formatter):
    """FORMAT with an ISO 8601 local time to the millisecond, offset included."""

    def __init__(self) -> None:
        super().__init__(FORMAT)

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        when = datetime.fromtimestamp(record.created).astimezone()
        return when.isoformat(timespec="milliseconds")

    def format(self, record: logging.LogRecord) -> str:
        if not hasattr(record, "round_context"):  # a handler without RoundFilter
            record.round_context = ""
        return super().format(record)


def config_dict(settings: Settings) -> dict[str, Any]:
    """The logging configuration (logging.config.dictConfig) for `settings`."""
    level = settings.log_level.upper()
    quiet = level if logging.getLevelNamesMapping()[level] >= logging.WARNING else "WARNING"
    line = {"formatter": "jackpot", "filters": ["round"]}
    handlers: dict[str, dict[str, Any]] = {
        "stderr": {"class": "logging.StreamHandler", "stream": "ext://sys.stderr", **line},
    }
    if settings.access_log == "-":
        handlers["access"] = {"class": "logging.StreamHandler", "stream": "ext://sys.stdout"}
    elif settings.access_log:
        # a rotated file (logrotate) is reopened by the next line written
        handlers["access"] = {
            "class": "logging.handlers.WatchedFileHandler",
            "filename": settings.access_log,
        }
    if "access" in handlers:
        handlers["access"].update(line)
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"jackpot": {"()": Formatter}},
        "filters": {"round": {"()": RoundFilter}},
        "handlers": handlers,
        # libraries (httpx, urllib3, ...) say only what goes wrong
        "root": {"level": quiet, "handlers": ["stderr"]},
        "loggers": {
            "jackpot": {"level": level},
            "rq": {"level": level},
            # gunicorn makes its loggers stop propagation: they get the handlers themselves
            "gunicorn.error": {"level": level, "handlers": ["stderr"], "propagate": False},
            "gunicorn.access": {
                "level": "INFO",
                "handlers": ["access"] if "access" in handlers else [],
                "propagate": False,
            },
        },
    }


def configure(settings: Settings) -> None:
    """Apply the logging configuration to this process."""
    logging.config.dictConfig(config_dict(settings))
