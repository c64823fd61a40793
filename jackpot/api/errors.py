"""Every failure becomes the API.md error body: {"error": {"code", "message", "field"}}."""

from __future__ import annotations

import logging

import redis
from flask import Flask, Response, jsonify
from werkzeug.exceptions import HTTPException

from jackpot.errors import JackpotError, StoreUnavailableError

log = logging.getLogger("jackpot.api")


def error_body(status: int, code: str, message: str, field: str | None = None) -> Response:
    error: dict[str, str] = {"code": code, "message": message}
    if field is not None:
        error["field"] = field
    response = jsonify({"error": error})
    response.status_code = status
    if status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="jackpot"'
    return response


def register(app: Flask) -> None:
    @app.errorhandler(JackpotError)
    def on_domain(exc: JackpotError) -> Response:
        if exc.status >= 500:
            log.error("%s: %s", type(exc).__name__, exc.message)
        response = error_body(exc.status, exc.code, exc.message, exc.field)
        if exc.status == 503:
            response.headers["Retry-After"] = "1"
        return response

    @app.errorhandler(redis.ConnectionError)
    @app.errorhandler(redis.TimeoutError)
    @app.errorhandler(redis.BusyLoadingError)
    def on_store_down(exc: redis.RedisError) -> Response:
        log.warning("store unavailable: %s", exc)
        # A timeout may come after the script ran: say so, and that a resend is safe.
        err = StoreUnavailableError(
            "the meter store did not answer; resend the same request: rounds and adjustments "
            "are idempotent, so a resend applies them at most once"
        )
        response = error_body(err.status, err.code, err.message)
        response.headers["Retry-After"] = "1"
        return response

    @app.errorhandler(HTTPException)
    def on_http(exc: HTTPException) -> Response:
        status = exc.code or 500
        code = (exc.name or "error").lower().replace(" ", "_")
        return error_body(status, code, exc.description or exc.name)
