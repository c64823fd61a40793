"""One logging setup for every process: gunicorn's error and access logs, the app, the worker.

With `JACKPOT_LOG_FORMAT=text` (the default) every line reads `ISO-time LEVEL pid=N logger:
message`, and a line written while a round is being served ends with ` table=T round=R`:

    2026-11-22T22:13:01.512+00:00 WARNING pid=4711 jackpot.api: store unavailable table=T1 round=r7

With `JACKPOT_LOG_FORMAT=json` every line is one JSON object (python-json-logger) for a log
store to index: `time`, `level`, `logger`, `pid`, `message`, and while a request is served
its `request_id`, `key` (the API key's public id), `table` and `round` of a round report, and
`code` of a refusal; an exception's traceback in `exception`. The access log is then the
controller's own: one line per request with `method`, `path`, `status` and `duration_ms`.
Never a secret, a player or a request body: ids from a request are shown only when they
look like ids.

`configure(settings)` applies it in a command's process; gunicorn gets the same dictionary
as its `logconfig_dict` (jackpot/entrypoints/gunicorn_conf.py).
"""

from __future__ import annotations

import logging
import logging.config
import re
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime
from typing import Any

from pythonjsonlogger.json import JsonFormatter

from jackpot.settings import Settings

FORMAT = "%(asctime)s %(levelname)s pid=%(process)d %(name)s: %(message)s%(round_context)s"

# (table, round) of the round report this thread is serving
_round: ContextVar[tuple[str, str] | None] = ContextVar("jackpot_round", default=None)
# the request being served: its id, the key's id, a refusal's code
_request: ContextVar[dict[str, str] | None] = ContextVar("jackpot_request", default=None)
ACCESS = logging.getLogger("jackpot.access")  # the controller's own access lines (json format)
# what a log line may show of an id from the request: anything else could forge a line
_SHOWN = re.compile(r"[A-Za-z0-9._:-]{1,128}")


def tag_round(table: object, round_id: object) -> None:
    """Name the round being served on this context's log lines (until `end_request`)."""
    _round.set((_shown(table), _shown(round_id)))


@contextmanager
def round_scope() -> Iterator[None]:
    """A request's span: a round tagged inside it is forgotten when it ends."""
    token = _round.set(None)
    try:
        yield
    finally:
        _round.reset(token)


def begin_request(request_id: str | None) -> str:
    """Start naming a request on this context's log lines: the id it came with (a proxy's
    X-Request-Id) when it looks like one, else a new one. Returns the id."""
    shown = _shown(request_id)
    rid = shown if shown != "?" else uuid.uuid4().hex[:16]
    _request.set({"request_id": rid})
    return rid


def end_request() -> None:
    """The request is answered: this thread's next one may be another round, or none."""
    _request.set(None)
    _round.set(None)


def tag_request(**fields: str) -> None:
    """Add `key` (an API key's public id) or `code` (a refusal's) to the current request."""
    current = _request.get()
    if current is not None:
        current.update({k: _shown(v) for k, v in fields.items()})


def request_field(name: str) -> str | None:
    current = _request.get()
    return None if current is None else current.get(name)


def _shown(value: object) -> str:
    return value if isinstance(value, str) and _SHOWN.fullmatch(value) else "?"


class RoundFilter(logging.Filter):
    """Adds `table`, `round_id` and `round_context` (" table=T round=R" or "") to a record,
    and the request's `request_id`, `key` and `code` when one is being served."""

    def filter(self, record: logging.LogRecord) -> bool:
        tag = _round.get()
        record.table, record.round_id = tag or (None, None)
        record.round_context = f" table={tag[0]} round={tag[1]}" if tag else ""
        request = _request.get() or {}
        record.request_id = request.get("request_id")
        record.key = request.get("key")
        record.code = request.get("code")
        return True


class RoutineFilter(logging.Filter):
    """RQ's INFO lines (a worker listening, each job started and OK, a result kept, the
    registries cleaned, the cron scheduler's enqueues: some 40 a minute) are routine: shown
    as DEBUG, so only at `JACKPOT_LOG_LEVEL=debug`. RQ's warnings and errors (a job failed,
    a worker lost) pass as they are; what an operator acts on the jobs say themselves."""

    def __init__(self, level: str = "INFO") -> None:
        super().__init__()
        self.shown = logging.getLevelNamesMapping()[level.upper()] <= logging.DEBUG

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno != logging.INFO or not (record.name + ".").startswith("rq."):
            return True
        record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return self.shown


# the record's fields a JSON line carries, under these names, when they are set
JSON_FIELDS = {"request_id": "request_id", "key": "key", "table": "table", "round_id": "round",
               "code": "code", "method": "method", "path": "path", "status": "status",
               "duration_ms": "duration_ms"}  # fmt: skip


class JsonLines(JsonFormatter):
    """One JSON object per line: time, level, logger, pid, message, then the context."""

    def __init__(self) -> None:
        super().__init__(json_ensure_ascii=False)

    def add_fields(
        self, log_data: dict[str, Any], record: logging.LogRecord, message_dict: dict[str, Any]
    ) -> None:
        when = datetime.fromtimestamp(record.created).astimezone()
        log_data["time"] = when.isoformat(timespec="milliseconds")
        log_data["level"] = record.levelname
        log_data["logger"] = record.name
        log_data["pid"] = record.process
        log_data["message"] = record.getMessage()
        for attribute, name in JSON_FIELDS.items():
            value = getattr(record, attribute, None)
            if value is not None:
                log_data[name] = value
        if record.exc_info:
            log_data["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            log_data["exception"] = record.exc_text

    def format(self, record: logging.LogRecord) -> str:
        record.message = record.getMessage()
        log_data: dict[str, Any] = {}
        self.add_fields(log_data, record, {})
        return self.serialize_log_record(log_data)


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
    json_lines = settings.log_format == "json"
    line = {"formatter": "json" if json_lines else "jackpot", "filters": ["round", "routine"]}
    handlers: dict[str, dict[str, Any]] = {
        "stderr": {"class": "logging.StreamHandler", "stream": "ext://sys.stderr", **line},
    }
    access = _access_handler(settings.access_log)
    if access is not None:
        handlers["access"] = {**access, **line}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"jackpot": {"()": Formatter}, "json": {"()": JsonLines}},
        "filters": {
            "round": {"()": RoundFilter},
            "routine": {"()": RoutineFilter, "level": level},
        },
        "handlers": handlers,
        # libraries (httpx, urllib3, ...) say only what goes wrong
        "root": {"level": quiet, "handlers": ["stderr"]},
        "loggers": _loggers(level, access is not None, json_lines),
    }


def _access_handler(access_log: str | None) -> dict[str, str] | None:
    """Where the access log goes (JACKPOT_ACCESS_LOG): stdout for "-", else a file; none."""
    if access_log == "-":
        return {"class": "logging.StreamHandler", "stream": "ext://sys.stdout"}
    if access_log:
        # a rotated file (logrotate) is reopened by the next line written
        return {"class": "logging.handlers.WatchedFileHandler", "filename": access_log}
    return None


def _loggers(level: str, access: bool, json_lines: bool) -> dict[str, dict[str, object]]:
    """The controller's, its libraries' and gunicorn's loggers; the access log's handler goes
    to the one that writes the access log in this format."""
    return {
        "jackpot": {"level": level},
        "rq": {"level": level},
        # gunicorn makes its loggers stop propagation: they get the handlers themselves
        "gunicorn.error": {"level": level, "handlers": ["stderr"], "propagate": False},
        # the access log: gunicorn's line in text, the controller's own fields in json
        "gunicorn.access": {
            "level": "INFO",
            "handlers": ["access"] if access and not json_lines else [],
            "propagate": False,
        },
        "jackpot.access": {
            "level": "INFO",
            "handlers": ["access"] if access and json_lines else [],
            "propagate": False,
        },
    }


def access_line(method: str, path: str, status: int, seconds: float) -> None:
    """The controller's access line for the request being served (json format only)."""
    if ACCESS.handlers:
        ACCESS.info(
            "%s %s %d",
            method,
            path,
            status,
            extra={
                "method": method,
                "path": path,
                "status": status,
                "duration_ms": round(seconds * 1000, 3),
            },  # fmt: skip
        )


def configure(settings: Settings) -> None:
    """Apply the logging configuration to this process."""
    logging.config.dictConfig(config_dict(settings))
