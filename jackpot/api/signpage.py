"""The sign screens: `/signs/{sign}` (the page), its event stream and its service worker.

Served by the sign process (`jackpot signs`, an async gevent worker: one greenlet per open
stream), not by the API's threads, so a thousand screens hold no thread the tables need.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator

from flask import Blueprint, Response, current_app, jsonify, request

from jackpot.api.signfeed import Channel, Fanout, Screen, chunk
from jackpot.api.signlimits import TooManySignsError, TooManyStreamsError, client_of
from jackpot.domain.answers import to_json
from jackpot.domain.errorbody import ErrorBody, ErrorDetail
from jackpot.domain.validate import parse_identifier

bp = Blueprint("signpage", __name__)

SEND_TIMEOUT = 20.0  # a screen whose socket takes nothing for this long is cut off
SEND_BUFFER = 64 * 1024  # bytes the kernel may hold for one screen (it doubles this)
RETRY = b"retry: 2000\n\n"  # how soon a screen's browser reconnects


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
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    if request.method == "HEAD":  # the head only: no stream, so no place taken
        return Response(mimetype="text/event-stream", headers=headers)
    feed = fanout()
    client = client_of(
        request.environ.get("REMOTE_ADDR", ""),
        request.headers.get("X-Forwarded-For"),
        current_app.extensions["signs_proxies"],
    )
    try:
        channel = feed.subscribe(sign, client)
    except TooManyStreamsError as exc:
        return refusal(429, "too_many_streams", str(exc))
    except TooManySignsError:
        return refusal(503, "too_many_signs", "this sign process is full")
    opened = _Stream(feed, sign, client, channel, _bounded(request.environ.get("gunicorn.socket")))
    # direct_passthrough: the events are bytes already, framed once for all the screens
    response = Response(
        opened.events(), mimetype="text/event-stream", headers=headers, direct_passthrough=True
    )
    response.call_on_close(opened.release)
    return response


def _bounded(sock: socket.socket | None) -> socket.socket | None:
    """gunicorn's socket of the screen (None elsewhere), made so that a screen that stops
    reading is cut off, not waited on for ever, and what the kernel holds for it is bounded
    (a thousand stuck screens: 128 MiB at most)."""
    if sock is not None:
        sock.settimeout(SEND_TIMEOUT)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
    return sock


class _Stream:
    """One screen's stream and its place in the feed, given back once."""

    def __init__(
        self, feed: Fanout, sign: str, client: str, channel: Channel, sock: socket.socket | None
    ) -> None:
        self._feed = feed
        self._sign = sign
        self._client = client
        self._channel = channel
        self._sock = sock
        self._released = False

    def events(self) -> Iterator[bytes]:
        """Under gunicorn's gevent worker: the answer's head and the newest events through
        gunicorn, then every later event written by the feed itself (Screen), this greenlet
        only catching the screen up when a write could not be made at once. Elsewhere: every
        event through the server, this greenlet waking on each change."""
        channel = self._channel
        seen = channel.seq
        first = RETRY + channel.since(0)
        screen = None
        try:
            yield first  # the server writes the head and these, then asks for more
            if self._sock is None:
                yield from self._through_server(seen)
            else:
                screen = Screen(self._sock, seen, behind=channel.seq > seen)
                channel.direct.add(screen)
                self._catch_up(screen, self._sock)
        finally:
            if screen is not None:
                channel.direct.discard(screen)
            self.release()

    def _through_server(self, seen: int) -> Iterator[bytes]:
        """Every change, yielded to the server as it comes: never returns."""
        channel = self._channel
        while True:
            changed = channel.changed  # before reading: a change after this wakes us
            news = channel.since(seen)
            if news:
                seen = channel.seq
                yield news
            else:  # the feed pings every channel that is silent: this never hangs
                changed.wait()

    def _catch_up(self, screen: Screen, sock: socket.socket) -> None:
        """Write to the screen whatever the feed could not write at once, until it is gone."""
        channel = self._channel
        while True:
            if not screen.behind:
                screen.wake.wait()
                screen.wake.clear()
                continue
            if screen.gone:
                return
            if screen.pending:
                rest, screen.pending = screen.pending, b""
                sock.sendall(rest)  # waits up to SEND_TIMEOUT, then the stream ends
            latest = channel.seq
            news = channel.since(screen.seen)
            if news:
                sock.sendall(chunk(news))
                screen.seen = latest
            # the feed skipped this screen while it was behind: caught up only when the
            # channel has published nothing since what was just written
            screen.behind = channel.seq != screen.seen

    def release(self) -> None:
        """Give the place back, once: when the stream ends, or when the answer is closed
        without its events ever being asked for (a generator never started runs no
        `finally`)."""
        if not self._released:
            self._released = True
            self._feed.unsubscribe(self._sign, self._client)


def refusal(status: int, code: str, message: str) -> Response:
    """A stream not opened: the error body, and when to ask again."""
    response = jsonify(to_json(ErrorBody(ErrorDetail(code, message))))
    response.status_code = status
    response.headers["Retry-After"] = "5"
    return response


@bp.get("/healthz")
def healthz() -> Response:
    return jsonify({"status": "ok", "signs": fanout().connected(), "store": fanout().up})
