"""`POST /v1/rounds` served ahead of Flask's dispatch: the hot path.

Nearly every request a controller answers is a round report, and the routing, request
context and hooks Flask wraps around a view cost as much CPU as settling the round itself.
This WSGI middleware answers exactly `POST /v1/rounds`, as written, with the `report_round` the
Flask view calls, the same error bodies (`jackpot.api.errors`), headers and request metrics;
every other request, `/v1/rounds` with any other method included, goes on to Flask.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from http import HTTPStatus
from typing import TYPE_CHECKING, Any

from flask import Flask
from werkzeug.exceptions import ClientDisconnected, InternalServerError, RequestEntityTooLarge

from jackpot import jsonio, logs
from jackpot.api.body import MAX_BODY_BYTES, UNREADABLE, unreadable
from jackpot.api.errors import domain_error, http_error, store_down
from jackpot.api.rounds import report_round
from jackpot.api.securityheaders import API_HEADERS
from jackpot.bootstrap import Services
from jackpot.domain.answers import to_json
from jackpot.errors import JackpotError
from jackpot.metrics import observe_request
from jackpot.services.faults import STORE_DOWN

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

log = logging.getLogger("jackpot.api")

ROUTE = "/v1/rounds"
_STATUS_LINES = {s.value: f"{s.value} {s.phrase}" for s in HTTPStatus}


class RoundsHotPath:
    def __init__(self, app: Flask, services: Services) -> None:
        self._next: WSGIApplication = app.wsgi_app
        self._services = services

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        if (
            environ.get("PATH_INFO") != ROUTE
            or environ.get("REQUEST_METHOD") != "POST"
            # as written, too: Flask answers anything else (/v1%2Frounds: a 400, pathsegments)
            or environ.get("RAW_URI", ROUTE) != ROUTE
        ):
            return self._next(environ, start_response)
        started = time.perf_counter()
        request_id = logs.begin_request(environ.get("HTTP_X_REQUEST_ID"))
        try:
            with logs.round_scope():  # the round named on log lines is this request's only
                status, body, headers = self._answer(environ)
                data = jsonio.dumps(body) + b"\n"
                start_response(
                    _STATUS_LINES[status],
                    [("Content-Type", "application/json"), ("Content-Length", str(len(data))),
                     ("X-Request-Id", request_id), *API_HEADERS, *headers],
                )  # fmt: skip
                seconds = time.perf_counter() - started
                observe_request("POST", ROUTE, status, seconds)
                logs.access_line("POST", ROUTE, status, seconds)
        finally:
            logs.end_request()
        return [data]

    def _answer(self, environ: WSGIEnvironment) -> tuple[int, Any, tuple[tuple[str, str], ...]]:
        try:
            raw = _read_body(environ)
            if raw is None:
                reply = http_error(RequestEntityTooLarge())
            else:
                authorization = environ.get("HTTP_AUTHORIZATION")
                return 200, to_json(report_round(self._services, authorization, raw)), ()
        except JackpotError as exc:
            reply = domain_error(exc)
        except STORE_DOWN as exc:
            reply = store_down(exc)
        except Exception:
            log.exception("Exception on %s [POST]", ROUTE)
            reply = http_error(InternalServerError())
        return reply.status, reply.body, reply.headers


def _read_body(environ: WSGIEnvironment) -> bytes | None:
    """The body, or None when it is longer than MAX_BODY_BYTES (as Werkzeug reads it: by
    Content-Length, else to the end of a terminated stream such as a chunked one); one the
    server cannot deliver (a malformed chunk, a connection cut short) is a 400."""
    try:
        return _read_stream(environ)
    except UNREADABLE as exc:
        raise unreadable(exc) from None


def _read_stream(environ: WSGIEnvironment) -> bytes | None:
    stream = environ["wsgi.input"]
    length = environ.get("CONTENT_LENGTH")
    if length:
        try:
            size = int(length)
        except ValueError:
            size = -1
        if size < 0:
            return b""
        if size > MAX_BODY_BYTES:
            return None
        raw = bytes(stream.read(size))
        if len(raw) < size:
            raise ClientDisconnected()  # as Werkzeug's stream says of a body cut short
        return raw
    if environ.get("wsgi.input_terminated"):
        raw = bytes(stream.read(MAX_BODY_BYTES + 1))
        return None if len(raw) > MAX_BODY_BYTES else raw
    return b""


def mount(app: Flask, services: Services) -> None:
    """Put the hot path in front of the app's own WSGI callable (the test client goes
    through it too)."""
    app.wsgi_app = RoundsHotPath(app, services)  # type: ignore[method-assign]
