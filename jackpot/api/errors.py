"""Every failure becomes the docs/API.md error body: {"error": {"code", "message", "field"}}.

The mapping from an exception to its answer is plain data (`ErrorReply`), so the Flask
handlers and the WSGI hot path for round reports (`jackpot.api.hotpath`) answer alike.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import redis
from flask import Flask, Response, jsonify
from werkzeug.exceptions import HTTPException

from jackpot import logs
from jackpot.domain.answers import to_json
from jackpot.domain.errorbody import ErrorBody, ErrorDetail
from jackpot.errors import ArchiveUnavailableError, JackpotError
from jackpot.metrics.instruments import count_refusal
from jackpot.services.faults import unavailable

log = logging.getLogger("jackpot.api")


@dataclass(frozen=True, slots=True)
class ErrorReply:
    status: int
    body: dict[str, Any]
    headers: tuple[tuple[str, str], ...]


def error_reply(
    status: int, code: str, message: str, field: str | None = None, retry_after: int = 1
) -> ErrorReply:
    count_refusal(code, status)
    logs.tag_request(code=code)
    if status < 500:  # faults are logged where they are met, with what went wrong
        log.info("refused %d %s%s", status, code, f" field={field}" if field else "")
    body = to_json(ErrorBody(ErrorDetail(code, message, field)))
    headers: tuple[tuple[str, str], ...] = ()
    if status == 401:
        headers = (("WWW-Authenticate", 'Bearer realm="jackpot"'),)
    elif status == 503:
        headers = (("Retry-After", str(retry_after)),)
    return ErrorReply(status, body, headers)


def domain_error(exc: JackpotError) -> ErrorReply:
    reply = error_reply(exc.status, exc.code, exc.message, exc.field, exc.retry_after)
    if exc.status >= 500:
        log.error("%s: %s", type(exc).__name__, exc.message)
    return reply


def store_down(exc: redis.RedisError) -> ErrorReply:
    err = unavailable(exc)
    reply = error_reply(err.status, err.code, err.message)
    log.warning("store unavailable: %s", exc)
    return reply


def http_error(exc: HTTPException) -> ErrorReply:
    status = exc.code or 500
    code = (exc.name or "error").lower().replace(" ", "_")
    return error_reply(status, code, exc.description or exc.name)


def as_response(reply: ErrorReply) -> Response:
    response = jsonify(reply.body)
    response.status_code = reply.status
    for name, value in reply.headers:
        response.headers[name] = value
    return response


def register(app: Flask) -> None:
    @app.errorhandler(JackpotError)
    def on_domain(exc: JackpotError) -> Response:
        return as_response(domain_error(exc))

    @app.errorhandler(redis.ConnectionError)
    @app.errorhandler(redis.TimeoutError)
    @app.errorhandler(redis.BusyLoadingError)
    def on_store_down(exc: redis.RedisError) -> Response:
        return as_response(store_down(exc))

    @app.errorhandler(ArchiveUnavailableError)
    def on_archive_down(exc: ArchiveUnavailableError) -> Response:
        # the history and the closed days are read from the archive: nothing was changed
        log.warning("archive unavailable: %s", exc)
        message = "the archive did not answer; nothing was changed; ask again"
        return as_response(error_reply(503, "archive_unavailable", message, retry_after=5))

    @app.errorhandler(HTTPException)
    def on_http(exc: HTTPException) -> Response:
        return as_response(http_error(exc))
