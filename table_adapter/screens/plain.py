"""The floor as plain lines, for a log, a pipe or CI: what happened, and a status line now
and then. No escape codes; one thread writes, one whole line at a time."""

from __future__ import annotations

import os
import sys
import time
from typing import TYPE_CHECKING, TextIO

from table_adapter.screens.board import (
    Heading,
    Snapshot,
    clock,
    hit_text,
    snapshot,
    status_line,
    win_text,
)
from table_adapter.screens.wins import WinFeed

if TYPE_CHECKING:
    from table_adapter.floor.simulator import Floor


class PlainView:
    """Prints each notable win, each jackpot's pending and paid, and a periodic status line."""

    def __init__(
        self, stream: TextIO, feed: WinFeed, heading: Heading, status_seconds: float = 10.0
    ) -> None:
        self.stream = stream
        self.feed = feed
        self.heading = heading
        self.status_seconds = status_seconds
        self._started_ms = time.time_ns() // 1_000_000
        self._seen_win = 0
        self._hits: dict[str, str] = {}  # payout id -> status last shown
        self._last_status = time.monotonic()

    def start(self) -> PlainView:
        """Say what is running."""
        lines = [f"{self.heading.title}: {self.heading.note}" if self.heading.note else ""]
        if self.heading.label:
            lines.append(self.heading.label)
        self._write([line for line in lines if line])
        return self

    def __call__(self, floor: Floor) -> None:
        self.show(snapshot(floor, self.feed, self.heading))

    def show(self, s: Snapshot) -> None:
        """Print what happened since the last call, and the status line when it is due."""
        lines = self.events(s)
        now = time.monotonic()
        if now - self._last_status >= self.status_seconds:
            self._last_status = now
            lines.append(f"{clock(s.now)}  {status_line(s)}")
        self._write(lines)

    def events(self, s: Snapshot) -> list[str]:
        """Lines for what happened since the last call: wins, then jackpots' changes."""
        lines = []
        for win in self.feed.since(self._seen_win):
            lines.append(f"{clock(win.at)}  {win_text(win)}")
            self._seen_win = win.seq
        for hit in reversed(s.hits):  # oldest first
            shown = self._hits.get(hit.id)
            self._hits[hit.id] = hit.status
            if hit.status == shown or (shown is None and hit.created < self._started_ms):
                continue  # nothing new, or a hit from before this run
            lines.append(f"{clock(s.now)}  {hit_text(hit)} (payout {hit.id})")
        return lines

    def close(self, floor: Floor | None = None) -> None:
        """The last events and a final status line."""
        if floor is not None:
            s = snapshot(floor, self.feed, self.heading)
            self._write([*self.events(s), f"{clock(s.now)}  {status_line(s)}"])

    def _write(self, lines: list[str]) -> None:
        if not lines:
            return
        text = "".join(f"{line}\n" for line in lines)
        try:
            self.stream.write(text)
            self.stream.flush()
        except BrokenPipeError:
            # the reader is gone (piped, and Ctrl-C ended it too: `| tee`): the rest, the
            # run's summary with it, goes to stderr, and the dead pipe is never written again
            os.dup2(os.open(os.devnull, os.O_WRONLY), self.stream.fileno())
            self.stream = sys.stderr
            self.stream.write(text)
            self.stream.flush()

    def say(self, text: str) -> None:
        """A line of the run's own (its summary), where the view writes."""
        self._write([text])
