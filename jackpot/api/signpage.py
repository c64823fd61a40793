"""The sign screens: `/signs/{sign}` (the page), its event stream and its service worker.

Served by the sign process (`jackpot signs`, an async gevent worker: one greenlet per open
stream), not by the API's threads, so a thousand screens hold no thread the tables need.
"""

from __future__ import annotations

import json
import queue
from collections.abc import Iterator

from flask import Blueprint, Response, current_app, jsonify

from jackpot.api.signfeed import Fanout, TooManySigns
from jackpot.domain.validate import parse_identifier

bp = Blueprint("signpage", __name__)

PING_SECONDS = 2.0  # a screen that hears nothing for a few of these shows closed


def fanout() -> Fanout:
    return current_app.extensions["signs"]  # type: ignore[no-any-return]


@bp.get("/signs/<sign>")
def page(sign: str) -> Response:
    parse_identifier(sign, "sign")
    response = current_app.send_static_file("signs/sign.html")
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/signs/sw.js")
def service_worker() -> Response:
    """At /signs/ so that it may keep every sign's page for a boot during an outage."""
    response = current_app.send_static_file("signs/sw.js")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Service-Worker-Allowed"] = "/signs/"
    return response


@bp.get("/signs/<sign>/stream")
def stream(sign: str) -> Response:
    """Server-sent events: the sign's whole state first, then every change it shows."""
    parse_identifier(sign, "sign")
    feed = fanout()
    try:
        sub, first = feed.subscribe(sign)
    except TooManySigns:
        response = jsonify(
            {"error": {"code": "too_many_signs", "message": "this sign process is full"}}
        )
        response.status_code = 503
        response.headers["Retry-After"] = "5"
        return response

    def events() -> Iterator[str]:
        try:
            yield "retry: 2000\n\n"
            if first is not None:
                yield f"event: state\ndata: {first}\n\n"
            while not sub.cut:
                try:
                    item = sub.events.get(timeout=PING_SECONDS)
                except queue.Empty:
                    yield f"event: ping\ndata: {json.dumps({'up': feed.up})}\n\n"
                    continue
                if item is None:
                    break
                kind, data = item
                yield f"event: {kind}\ndata: {data}\n\n"
        finally:
            feed.unsubscribe(sub)

    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return Response(events(), mimetype="text/event-stream", headers=headers)


@bp.get("/healthz")
def healthz() -> Response:
    return jsonify({"status": "ok", "signs": fanout().connected(), "store": fanout().up})
