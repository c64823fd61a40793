"""The API's gunicorn worker: gevent, a greenlet per connection, and a deadline on all a
client sends, so that slow or idle clients reaching `jackpot serve` directly cost a few
kilobytes each instead of a worker (docs/DECISIONS.md D173, D174).

* **The head:** gunicorn's gevent worker reads each request head, the first and every
  later one on a kept-alive connection, under `gevent.Timeout(keepalive)`, and closes the
  connection when it is late; `jackpot/entrypoints/gunicorn_conf.py` sets keepalive to
  JACKPOT_CLIENT_DEADLINE_SECONDS.
* **The body:** the app would read it with no deadline. This worker reads it first, whole
  (up to MAX_BODY_BYTES and one byte more), under the same deadline, and hands the app the
  bytes. A body that is late is answered 408 `request_timeout` and the connection closed,
  as the recommended nginx (deploy/nginx) answers it; nothing reached the app.
"""

from __future__ import annotations

import io
from typing import Any

import gevent
from gunicorn.http.body import LengthReader
from gunicorn.workers.ggevent import GeventWorker

from jackpot.api.body import MAX_BODY_BYTES, UNREADABLE

CONTINUE = b"HTTP/1.1 100 Continue\r\n\r\n"
# the body nginx answers a late request with (deploy/nginx), its length counted from it
LATE_JSON = (
    b'{"error": {"code": "request_timeout", "message": "the request did not arrive in time"}}\n'
)
LATE_BODY = (
    b"HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json\r\nConnection: close\r\n"
    b"Content-Length: %d\r\n\r\n%s" % (len(LATE_JSON), LATE_JSON)
)


class ApiWorker(GeventWorker):  # type: ignore[misc]
    """gunicorn's gevent worker, reading each request's body under the client deadline."""

    def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> Any:
        if req.body is not None:
            self._take_body(req, sock)
        return super().handle_request(listener_name, req, sock, addr)

    def _take_body(self, req: Any, sock: Any) -> None:
        """Read `req`'s body whole before the app runs, under the client deadline, and
        hand the app what was read (or, for one too large, nothing)."""
        reader = req.body.reader
        if isinstance(reader, LengthReader) and reader.length > MAX_BODY_BYTES:
            # the app answers 413 from the header alone; the body stays unread, so the
            # connection cannot carry another request
            req.must_close = True
            req.body = io.BytesIO()
            return
        if req._expected_100_continue:
            # the client waits for this before it sends the body; gunicorn would send
            # it only once the app starts, after the body it is waiting for
            sock.sendall(CONTINUE)
            req._expected_100_continue = False
        try:
            data = self._read_body(req.body, reader)
        except gevent.Timeout:
            sock.sendall(LATE_BODY)
            raise StopIteration() from None  # gunicorn closes the connection
        except UNREADABLE as exc:
            # a malformed chunk, a connection cut short: the app answers it (400
            # unreadable_body) as it would have on reading it, and the rest of the
            # connection cannot be trusted
            req.must_close = True
            req.body = Unreadable(exc)
        else:
            if len(data) > MAX_BODY_BYTES:
                req.must_close = True  # a chunked body over the limit: the rest unread
            req.body = io.BytesIO(data)

    def _read_body(self, body: Any, reader: Any) -> bytes:
        """Up to one byte past the limit: at once when it arrived with the head, else
        within the client deadline (gevent.Timeout past it)."""
        data: bytes
        if _buffered(reader):  # arrived with the head: read with no wait
            data = body.read(MAX_BODY_BYTES + 1)
        else:
            with gevent.Timeout(self.cfg.keepalive):
                data = body.read(MAX_BODY_BYTES + 1)
        return data


def _buffered(reader: Any) -> bool:
    """Whether a body of known length is already whole in the parser's buffer (a round
    report nearly always is: it arrives in the packet of its head), so that reading it
    cannot wait on the client and needs no deadline (a timer a request less)."""
    if not isinstance(reader, LengthReader):
        return False
    buf = getattr(reader.unreader, "buf", None)
    if not isinstance(buf, io.BytesIO):
        return False
    return bool(buf.getbuffer().nbytes >= reader.length)


class Unreadable(io.RawIOBase):
    """A body the worker could not read: reading it raises what reading it raised."""

    def __init__(self, error: BaseException) -> None:
        super().__init__()
        self._error = error

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        raise self._error

    def readline(self, size: int | None = -1) -> bytes:
        raise self._error
