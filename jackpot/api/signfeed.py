"""The sign process's fan-out: one reader of the store for every connected sign.

A single loop per process reads the shown pools' meters every `interval` (one pipeline,
whatever the number of signs) and the signs' full states about once a second and at once
after a hit, and hands each change to the signs that show it as a server-sent event:
`state` (everything a sign shows) or `meters` (only values, with the controller's time).
A sign's queue is bounded: one that falls behind is cut off (its screen reconnects and gets
the whole state again) rather than holding memory or slowing anyone. The loop never waits on
a sign, so signs cannot slow the tables; it only reads the store.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from jackpot.services.signboard import SignBoard

log = logging.getLogger("jackpot.signs")

QUEUE = 64  # events a sign may have waiting before it is cut off
FULL_EVERY = 1.0  # seconds between full reads (definitions, link state, tables, winners)


class TooManySigns(Exception):
    """The process holds as many streams as it may."""


@dataclass(eq=False)
class Subscriber:
    sign: str
    events: queue.Queue[tuple[str, str] | None] = field(default_factory=lambda: queue.Queue(QUEUE))
    cut: bool = False  # fell behind: its stream ends, its screen reconnects


class Fanout:
    def __init__(self, board: SignBoard, interval: float, max_subscribers: int) -> None:
        self._board = board
        self._interval = interval
        self._max = max_subscribers
        self._lock = threading.Lock()
        self._subscribers: dict[str, set[Subscriber]] = {}
        self._states: dict[str, str] = {}  # sign -> its newest state (JSON), sent on connect
        self._shown: dict[str, str] = {}  # sign -> its last state sent, without clock or meters
        self._values: dict[str, dict[str, int]] = {}  # sign -> the values last sent
        self._pools: dict[str, list[str]] = {}  # sign -> its pools
        self._hits: dict[str, int] = {}
        self._started = False
        self.up = False  # the last read of the store succeeded

    # -- signs connecting ---------------------------------------------------------------------

    def subscribe(self, sign: str) -> tuple[Subscriber, str | None]:
        """A new stream for `sign` and the state to send first (None: not known yet)."""
        self._start()
        with self._lock:
            if sum(len(s) for s in self._subscribers.values()) >= self._max:
                raise TooManySigns
            sub = Subscriber(sign)
            self._subscribers.setdefault(sign, set()).add(sub)
            return sub, self._states.get(sign)

    def unsubscribe(self, sub: Subscriber) -> None:
        with self._lock:
            self._subscribers.get(sub.sign, set()).discard(sub)

    def connected(self) -> int:
        with self._lock:
            return sum(len(s) for s in self._subscribers.values())

    # -- the loop -----------------------------------------------------------------------------

    def _start(self) -> None:
        with self._lock:
            if self._started:
                return
            self._started = True
        threading.Thread(target=self._run, name="sign-feed", daemon=True).start()

    def _run(self) -> None:
        last_full = 0.0
        while True:
            started = time.monotonic()
            try:
                hit = self._read_meters()
                if hit or started - last_full >= FULL_EVERY or not self.up:
                    self._read_states()
                    last_full = started
                self.up = True
            except Exception:  # noqa: BLE001 - the store is away: the signs go closed, we retry
                if self.up:
                    log.warning(
                        "signs: the store does not answer; signs show closed", exc_info=True
                    )
                self.up = False
            time.sleep(max(0.0, self._interval - (time.monotonic() - started)))

    def _read_meters(self) -> bool:
        """Send each sign its changed values; True when a shown pool has a new hit."""
        pools = sorted({p for ps in self._pools.values() for p in ps})
        if not pools:
            return False
        meters = self._board.meters(pools)
        hit = any(meters.hits.get(p, 0) != self._hits.get(p, 0) for p in pools if p in self._hits)
        self._hits.update(meters.hits)
        for sign, shown in self._pools.items():
            values = {p: meters.values[p] for p in shown if p in meters.values}
            if values != self._values.get(sign):
                self._values[sign] = values
                self._send(sign, "meters", json.dumps({"t": meters.time, "values": values}))
        return hit

    def _read_states(self) -> None:
        signs = self._board.definitions()
        states = self._board.states(signs)
        known = set(states)
        for sign in list(self._states):
            if sign not in known:  # deleted: its screens show closed
                self._states.pop(sign)
                self._shown.pop(sign, None)
                self._pools.pop(sign, None)
                self._send(sign, "state", json.dumps({"sign": None}))
        for sign, state in states.items():
            self._pools[sign] = [lv["pool"] for lv in state["levels"]]
            self._values[sign] = {lv["pool"]: lv["value"] for lv in state["levels"]}
            # a state is sent when what it shows changed, not its clock or its meters (the
            # `meters` events carry those)
            shown = {**state, "time": 0, "levels": [{**lv, "value": 0} for lv in state["levels"]]}
            key = json.dumps(shown)
            if key != self._shown.get(sign):
                self._shown[sign] = key
                self._states[sign] = json.dumps(state)
                self._send(sign, "state", self._states[sign])
            else:
                self._states[sign] = json.dumps(state)  # the newest, for a sign connecting

    def _send(self, sign: str, kind: str, data: str) -> None:
        with self._lock:
            subscribers = list(self._subscribers.get(sign, ()))
        for sub in subscribers:
            if sub.cut:
                continue
            try:
                sub.events.put_nowait((kind, data))
            except queue.Full:
                sub.cut = True  # it fell behind: end its stream; it comes back with a state
                try:
                    sub.events.get_nowait()
                    sub.events.put_nowait(None)
                except (queue.Empty, queue.Full):
                    pass

    def state_of(self, sign: str) -> Any:
        text = self._states.get(sign)
        return None if text is None else json.loads(text)
