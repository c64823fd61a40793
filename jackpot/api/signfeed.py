"""The sign process's fan-out: one reader of the store for every connected sign.

A single loop per process reads the shown pools' meters every `interval` (one pipeline,
whatever the number of signs) and the signs' full states about once a second and at once
after a hit. Each change is framed once per sign as a server-sent event — `state`
(everything a sign shows) or `meters` (only values, with the controller's time) — and kept in
that sign's `Channel`, which wakes the sign's screens.

Both events are snapshots, not deltas: a screen needs only the newest of each to be right
(a hit stays in the state's recent winners, so one that wakes late still announces it). So a
channel keeps just the newest two, a screen that falls behind skips straight to them, and
nothing queues up for a slow or stuck screen: the loop never waits on a sign and a sign costs
the same memory whether it reads or not. A screen whose socket stays blocked is cut off by
the stream's send timeout (signpage.SEND_TIMEOUT) and reconnects to the newest state.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from jackpot.api.signlimits import Places
from jackpot.services.signboard import Meters, SignBoard

log = logging.getLogger("jackpot.signs")

FULL_EVERY = 1.0  # seconds between full reads (definitions, link state, tables, winners)
PING_SECONDS = 2.0  # a sign hears at least this often (a screen that hears nothing, closes)


def frame(kind: str, data: str) -> bytes:
    return f"event: {kind}\ndata: {data}\n\n".encode()


def chunk(data: bytes) -> bytes:
    """`data` as one chunk of HTTP/1.1 chunked coding: how gunicorn frames a stream's body."""
    return b"%X\r\n%s\r\n" % (len(data), data)


@dataclass(eq=False)
class Screen:
    """One open stream that the feed writes to itself, once its answer has begun: one `send`
    per event, with no greenlet woken. While `behind` (a send that would have waited, or a
    part left over) the feed leaves it alone and the stream's own greenlet catches it up
    from the channel's newest events."""

    sock: Any
    seen: int  # the channel's publications it has been sent
    behind: bool = True
    gone: bool = False  # its connection failed: its greenlet ends the stream
    pending: bytes = b""  # the rest of a chunk the socket took only part of
    wake: threading.Event = field(default_factory=threading.Event)

    def send(self, data: bytes, seq: int) -> None:
        """The feed's write: all at once or not at all, never waiting."""
        try:
            sent = self.sock.send(data, 0, 0.0)  # gevent: a timeout of 0 never waits
        except BlockingIOError:
            self.behind = True
        except OSError:
            self.behind = self.gone = True
        else:
            self.seen = seq
            if sent < len(data):
                self.pending, self.behind = data[sent:], True
        if self.behind:
            self.wake.set()


@dataclass(eq=False)
class Channel:
    """What one sign's screens are sent: the newest `state`, `meters` and `ping` events,
    framed, each with the number of the publication that set it (so that they are written in
    the order they were made); the screens the feed writes to itself; and an event that wakes
    the streams that write for themselves."""

    slots: dict[str, tuple[int, bytes]] = field(default_factory=dict)
    seq: int = 0
    at: float = 0.0  # when it last published (monotonic)
    screens: int = 0
    direct: set[Screen] = field(default_factory=set)
    changed: threading.Event = field(default_factory=threading.Event)

    def publish(self, kind: str, data: str) -> None:
        self.seq += 1
        framed = frame(kind, data)
        self.slots[kind] = (self.seq, framed)
        self.at = time.monotonic()
        if self.direct:
            body = chunk(framed)
            for screen in list(self.direct):
                if not screen.behind:
                    screen.send(body, self.seq)
        # waiters hold the event they waited on: a new one for the next change, then wake all
        changed, self.changed = self.changed, threading.Event()
        changed.set()

    def since(self, seen: int) -> bytes:
        """What a screen that has been sent publication `seen` still needs, oldest first."""
        return b"".join(data for s, data in sorted(self.slots.values()) if s > seen)


class Fanout:
    def __init__(self, board: SignBoard, interval: float, places: Places) -> None:
        self._board = board
        self._interval = interval
        self._places = places
        self._lock = threading.Lock()
        self._channels: dict[str, Channel] = {}
        self._shown: dict[str, str] = {}  # sign -> its last state sent, without clock or meters
        self._values: dict[str, dict[str, int]] = {}  # sign -> the values last sent
        self._pools: dict[str, list[str]] = {}  # sign -> its pools
        self._hits: dict[str, int] = {}
        self._started = False
        self.up = False  # the last read of the store succeeded

    # -- signs connecting ---------------------------------------------------------------------

    def subscribe(self, sign: str, client: str) -> Channel:
        """The channel a new stream of `client`'s for `sign` reads (raises
        TooManyStreamsError or TooManySignsError: jackpot.api.signlimits)."""
        self.start()
        with self._lock:
            self._places.take(client)
            channel = self._channel(sign)
            channel.screens += 1
            return channel

    def unsubscribe(self, sign: str, client: str) -> None:
        with self._lock:
            self._places.give_back(client)
            self._channels[sign].screens -= 1

    def connected(self) -> int:
        return self._places.held

    def _channel(self, sign: str) -> Channel:
        channel = self._channels.get(sign)
        if channel is None:
            channel = self._channels[sign] = Channel()
        return channel

    # -- the loop -----------------------------------------------------------------------------

    def start(self) -> None:
        """Begin reading the store (once; the sign process starts it with the app, so that
        its /healthz says whether it reads the store before any screen connects)."""
        with self._lock:
            if self._started:
                return
            self._started = True
        threading.Thread(target=self._run, name="sign-feed", daemon=True).start()

    def _run(self) -> None:
        last_full = 0.0
        while True:
            started, up = time.monotonic(), self.up
            try:
                hit = self._read_meters()
                if hit or started - last_full >= FULL_EVERY or not self.up:
                    self._read_states()
                    last_full = started
                self.up = True
            except Exception:  # the store is away: the signs go closed, we retry
                if self.up:
                    log.warning(
                        "signs: the store does not answer; signs show closed", exc_info=True
                    )
                self.up = False
            self._ping(up)
            time.sleep(max(0.0, self._interval - (time.monotonic() - started)))

    def _ping(self, was_up: bool) -> None:
        """A `ping` (is the store answering?) to every sign that heard nothing for a while,
        and to all of them at once when the answer changed."""
        now = time.monotonic()
        data = json.dumps({"up": self.up})
        with self._lock:
            channels = list(self._channels.values())
        for channel in channels:
            if self.up != was_up or now - channel.at >= PING_SECONDS:
                channel.publish("ping", data)

    def _read_meters(self) -> bool:
        """Send each sign its changed values; True when a shown pool has a new hit."""
        pools = sorted({p for ps in self._pools.values() for p in ps})
        if not pools:
            return False
        meters = self._board.meters(pools)
        hit = any(meters.hits.get(p, 0) != self._hits.get(p, 0) for p in pools if p in self._hits)
        self._hits.update(meters.hits)
        self._send_values(meters)
        return hit

    def _send_values(self, meters: Meters) -> None:
        """Each sign whose shown pools' values changed: its `meters` event."""
        for sign, shown in self._pools.items():
            values = {p: meters.values[p] for p in shown if p in meters.values}
            if values != self._values.get(sign):
                self._values[sign] = values
                self._send(sign, "meters", json.dumps({"t": meters.time, "values": values}))

    def _read_states(self) -> None:
        signs = self._board.definitions()
        states = self._board.states(signs)
        self._forget_deleted(states)
        for sign, state in states.items():
            self._send_state(sign, state)
        for sign in self._unknown_watched(states):
            self._send(sign, "state", json.dumps({"sign": None}))

    def _forget_deleted(self, states: dict[str, dict[str, Any]]) -> None:
        """The signs no longer in `states` are deleted: their screens show closed."""
        for sign in list(self._pools):
            if sign not in states:
                self._shown.pop(sign, None)
                self._pools.pop(sign)
                self._values.pop(sign, None)
                self._send(sign, "state", json.dumps({"sign": None}))

    def _send_state(self, sign: str, state: dict[str, Any]) -> None:
        self._pools[sign] = [lv["pool"] for lv in state["levels"]]
        # a state is sent when what it shows changed, not its clock or its meters (the
        # `meters` events carry those); a screen connecting gets it with the newest values
        shown = {**state, "time": 0, "levels": [{**lv, "value": 0} for lv in state["levels"]]}
        key = json.dumps(shown)
        if key != self._shown.get(sign):
            self._shown[sign] = key
            self._values[sign] = {lv["pool"]: lv["value"] for lv in state["levels"]}
            self._send(sign, "state", json.dumps(state))

    def _unknown_watched(self, states: dict[str, dict[str, Any]]) -> list[str]:
        """The watched signs not in `states` whose screens were not yet told; the channels of
        those watched by no one are forgotten."""
        with self._lock:
            # a screen watching a sign the controller does not know is told so once (its
            # screen then says so to whoever installs it, not that the progressive is closed)
            unknown = [
                sign
                for sign, c in self._channels.items()
                if c.screens and sign not in states and "state" not in c.slots
            ]
            # forget the channels of signs that are gone and watched by no one
            for sign in [s for s, c in self._channels.items() if not c.screens]:
                if sign not in states:
                    del self._channels[sign]
        return unknown

    def _send(self, sign: str, kind: str, data: str) -> None:
        with self._lock:
            channel = self._channel(sign)
        channel.publish(kind, data)
