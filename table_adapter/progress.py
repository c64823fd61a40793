"""A one-line progress bar for a terminal (plain text on stderr, redrawn in place)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, TextIO

from table_adapter.display import dollars

if TYPE_CHECKING:
    from table_adapter.simulator import Floor

WIDTH = 24
REDRAW_SECONDS = 0.1


class Progress:
    """Draws the floor's progress: rounds, rate, meter, backlog and side-bet state."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self._last = 0.0
        self._started = time.monotonic()
        self._drawn = False

    def __call__(self, floor: Floor) -> None:
        now = time.monotonic()
        if now - self._last < REDRAW_SECONDS:
            return
        self._last = now
        self.stream.write("\r" + line(floor, now - self._started) + "\x1b[K")
        self.stream.flush()
        self._drawn = True

    def close(self) -> None:
        """End the line so later output starts on a fresh one."""
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()


def line(floor: Floor, elapsed: float) -> str:
    """The progress line for `floor` after `elapsed` seconds."""
    plan, tally = floor.plan, floor.tally
    links = floor.statuses()
    rounds = tally.rounds
    if plan.rounds:
        total = plan.tables * plan.rounds
        filled = WIDTH * min(rounds, total) // total
        head = f"[{'#' * filled}{'.' * (WIDTH - filled)}] {rounds:,}/{total:,}"
    else:
        head = f"{rounds:,}"
    rate = rounds / elapsed if elapsed > 0 else 0.0
    meter = tally.pools.get(plan.pool_id)
    closed = sum(not s.side_bets_open for s in links)
    states = sorted({s.state.value for s in links})
    parts = [
        f"{head} rounds",
        f"{rate:,.0f}/s",
        f"{plan.pool_id} {dollars(meter)}" if meter is not None else plan.pool_id,
        f"backlog {sum(s.pending for s in links):,}",
        f"side bets closed at {closed}" if closed else "side bets open",
        "/".join(states),
    ]
    return "  ".join(parts)
