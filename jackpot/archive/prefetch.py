"""A generator's items produced by a thread ahead of their consumer: the archiver reads the
next batch from Redis while the database writes this one."""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from typing import Any, TypeVar

T = TypeVar("T")


def prefetched(items: Iterator[T], depth: int = 1) -> Iterator[T]:
    """`items`, produced by a thread up to `depth` ahead of the consumer (Redis reads and the
    database's writes overlap); the producer's exception is raised in the consumer, and a
    consumer that stops early stops the producer."""
    ahead = _Ahead(items, depth)
    thread = threading.Thread(target=ahead.produce, name="archive-read", daemon=True)
    thread.start()
    try:
        while True:
            more, item = ahead.slots.get()
            if not more:
                if item is not None:
                    raise item
                return
            yield item
    finally:
        ahead.stop.set()
        thread.join()


class _Ahead:
    """The producing side: each item in a slot as (True, item), then (False, None) at the
    end or (False, exception) on a failure; it gives up once the consumer stops."""

    def __init__(self, items: Iterator[Any], depth: int) -> None:
        self.items = items
        self.slots: queue.Queue[tuple[bool, Any]] = queue.Queue(maxsize=depth)
        self.stop = threading.Event()

    def offer(self, slot: tuple[bool, Any]) -> bool:
        while not self.stop.is_set():
            try:
                self.slots.put(slot, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def produce(self) -> None:
        try:
            for item in self.items:
                if not self.offer((True, item)):
                    return
            self.offer((False, None))
        except BaseException as exc:  # noqa: BLE001 - handed to the consumer
            self.offer((False, exc))
