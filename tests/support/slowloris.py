"""Slow clients for the tests of the controller and its proxy: sockets that send a request
head a byte at a time and never finish it, for as long as a block runs."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager

HEAD = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: "


@contextmanager
def trickling(sockets: list[socket.socket], every: float) -> Iterator[None]:
    """Start a request head on each of `sockets` and send it one more byte every `every`
    seconds until the block ends; a socket the server cut off is left alone (what a
    deadline is for)."""
    stop = threading.Event()

    def trickle() -> None:
        for s in sockets:
            s.sendall(HEAD)
        while not stop.wait(every):
            for s in sockets:
                try:
                    s.sendall(b"a")
                except OSError:
                    pass

    thread = threading.Thread(target=trickle, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=5)
