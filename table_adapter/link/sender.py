"""The sender's side of a table's link: deliver its journaled reports strictly in order.

One report at a time, the same text resent after timeouts, connection errors, 5xx and
unparseable answers with capped exponential backoff; a report the controller faults or
quarantines is settled so and not resent; a refusal of the table itself holds delivery. While
nothing is in flight it sends heartbeats and the table's own day counts. It keeps the link's
state, and with it whether the progressive side bet is open (adapter.py is the dealer's side).
"""

from __future__ import annotations

import json
import logging
import random
import threading
import time
from collections.abc import Callable
from typing import Any, Self

from table_adapter.link.answers import IN_FUTURE, PROGRESSIVE_CLOSED, RoundAnswer
from table_adapter.link.client import ControllerClient, Delivery, Verdict
from table_adapter.link.daycounts import counted, differences
from table_adapter.link.journal import Entry, Journal, JournalError, State
from table_adapter.link.status import LinkSettings, LinkState

log = logging.getLogger("table_adapter")

Settled = Callable[[Entry, RoundAnswer | None], None]


def wall_ms() -> int:
    """Milliseconds since the epoch."""
    return time.time_ns() // 1_000_000


# The verdicts that settle a report, and the journal state each leaves it in.
SETTLING = {
    Verdict.ACKED: State.ACKED,
    Verdict.REJECTED: State.REJECTED,
    Verdict.QUARANTINED: State.QUARANTINED,
}


# What the log says of a report settled without being taken: neither is resent.
REFUSED_LOG = {
    State.QUARANTINED: "%s: round %s QUARANTINED: %s; it stays in the journal as quarantined "
    "(seq %d), is not resent, and needs an operator",
    State.REJECTED: "%s: round %s REJECTED by the controller (%s); it stays in the journal as "
    "rejected (seq %d) and is not resent",
}


class Sender:
    """Delivers one table's journaled reports to the controller, in a thread of its own."""

    def __init__(
        self,
        name: str,
        journal: Journal,
        client: ControllerClient,
        settings: LinkSettings | None = None,
        *,
        on_settled: Settled | None = None,
        clock: Callable[[], float] = time.monotonic,
        rng: random.Random | None = None,
    ) -> None:
        self.name = name
        self.journal = journal
        self.client = client
        self.settings = settings or LinkSettings()
        self._on_settled = on_settled
        self._clock = clock
        self._rng = rng or random.Random()
        self._cond = threading.Condition()
        self._pending = journal.counts(name).pending
        self._acked = self._replayed = self._rejected = self._quarantined = self._retries = 0
        self._clock_fault: str | None = None  # a report was answered in_future
        # the controller closed the progressive (an operator suspended a pool's link): a
        # report was answered progressive_closed, or a heartbeat said the side bet is closed
        self._link_closed: str | None = None
        self._last_link_check = float("-inf")
        self._failures = 0
        self._down_since: float | None = None
        self._held: Delivery | None = None
        self._journal_fault: str | None = None
        self._last_error: str | None = None
        self._side_open = True
        self._next_attempt = 0.0
        self._last_contact = float("-inf")
        self._next_counts = 0.0
        self._counts_differ: str | None = None  # what the controller's comparison last said
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> Self:
        """Start the sender thread."""
        if self._thread is None:
            self._thread = threading.Thread(
                target=self._run, name=f"adapter-{self.name}", daemon=True
            )
            self._thread.start()
        return self

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the sender thread (pending reports stay journaled for the next start)."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def step(self) -> float:
        """Do the next piece of delivery that is due; the seconds until more may be due."""
        now = self._clock()
        with self._cond:
            wait = self._next_attempt - now
        if wait > 0:
            return wait
        try:
            entry = self.journal.next_pending(self.name)
        except JournalError as exc:
            self._fail_journal(exc)
            return self._wait_after(now)
        if entry is None:
            # nothing in flight: what the table was acknowledged is what it counted
            counts = self._counts_if_due(now)
            return min(counts, self._heartbeat_if_due(now))
        if entry.void_of is not None:
            delivery = self.client.void(entry.body, entry.table, entry.void_of)
        else:
            delivery = self.client.report(entry.body, entry.table, entry.round)
        return self._record(entry, delivery)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                wait = self.step()
            except Exception:  # a bug must not silently stop delivery: log, pause, go on
                log.exception("%s: delivery step failed", self.name)
                wait = self.settings.backoff.cap
            if wait > 0:
                self._wake.wait(wait)
            self._wake.clear()

    def _record(self, entry: Entry, delivery: Delivery) -> float:
        now = self._clock()
        if delivery.verdict in SETTLING:
            return self._settle(entry, delivery, now)
        if delivery.verdict is Verdict.HELD:
            with self._cond:
                first = self._held is None
                self._held = delivery
                self._down_since = None
                self._last_contact = now
                self._last_error = delivery.reason
                self._next_attempt = now + self.settings.hold_seconds
                self._update_side_bets(now)
                self._cond.notify_all()
            if first:
                log.error(
                    "%s: the controller refuses the table (%s); round %s and later stay "
                    "pending, side bets closed; retrying every %ss",
                    self.name,
                    delivery.reason,
                    entry.round,
                    self.settings.hold_seconds,
                )
            return self.settings.hold_seconds
        try:
            self.journal.failed_attempt(entry.seq, delivery.reason)
        except JournalError as exc:
            self._fail_journal(exc)
        return self._retry_later(now, delivery, entry.round)

    def _settle(self, entry: Entry, delivery: Delivery, now: float) -> float:
        state = SETTLING[delivery.verdict]
        assert delivery.status is not None
        try:
            settled = self.journal.settle(
                entry.seq,
                state,
                delivery.status,
                delivery.text,
                wall_ms(),
                counted(entry, delivery),
            )
        except JournalError as exc:
            # The controller holds the round; on restart the resend is answered as a replay.
            self._fail_journal(exc)
            return self._wait_after(now)
        with self._cond:
            if self._held is not None:
                log.warning("%s: the controller takes the table's reports again", self.name)
            self._pending -= 1
            self._count_settled(state, delivery)
            self._follow_refusal(state, delivery)
            self._contact(now)
            self._cond.notify_all()
        if state in REFUSED_LOG:
            log.error(REFUSED_LOG[state], self.name, entry.round, delivery.reason, entry.seq)
        if self._on_settled is not None:
            self._on_settled(settled, delivery.answer)
        return 0.0

    def _count_settled(self, state: State, delivery: Delivery) -> None:
        """Count a settled report in this process's tallies (the lock is held)."""
        self._acked += state is State.ACKED
        self._replayed += delivery.answer is not None and delivery.answer.replayed
        self._rejected += state is State.REJECTED
        self._quarantined += state is State.QUARANTINED
        if state is State.QUARANTINED:
            self._last_error = delivery.reason

    def _follow_refusal(self, state: State, delivery: Delivery) -> None:
        """What a settled report says of the table's clock and of the progressive's link (the
        lock is held)."""
        code = delivery.error.code if state is State.QUARANTINED and delivery.error else None
        if code == IN_FUTURE:
            # The table's clock: its later rounds would be refused too, and progressive
            # wagers the controller cannot settle must not be taken meanwhile.
            self._clock_fault = delivery.reason
        elif state is State.ACKED and self._clock_fault is not None:
            log.warning("%s: the controller takes the table's dealt_at again", self.name)
            self._clock_fault = None
        if code == PROGRESSIVE_CLOSED:
            assert delivery.error is not None
            # closed until a heartbeat says the link runs again (asked every heartbeat
            # interval meanwhile, however busy the table is)
            self._link_closed = delivery.error.message

    def _counts_if_due(self, now: float) -> float:
        """Report the table's own counts of its latest gaming days, every `counts_seconds`
        while nothing is in flight; the seconds until the next report."""
        if now < self._next_counts:
            return self._next_counts - now
        self._next_counts = now + self.settings.counts_seconds
        try:
            days = self.journal.day_counts(self.name)
        except JournalError as exc:
            self._fail_journal(exc)
            return self.settings.counts_seconds
        if days:
            delivery = self.client.counts(self.name, [d.to_json() for d in days])
            if delivery.verdict is Verdict.ACKED:
                self._compared(delivery.text)
        return self.settings.counts_seconds

    def _compared(self, text: str) -> None:
        """Log the controller's comparison when it changes: what the table was told and what
        the controller holds differ (ERROR), or agree again."""
        differ = differences(text)
        if differ is None:
            return
        if differ and differ != self._counts_differ:
            log.error(
                "%s: the controller does not hold what it acknowledged: %s", self.name, differ
            )
        elif not differ and self._counts_differ:
            log.warning("%s: the controller's counts agree with the table's again", self.name)
        self._counts_differ = differ or None

    def _heartbeat_if_due(self, now: float) -> float:
        with self._cond:
            due = self._last_contact + self.settings.heartbeat_seconds
            if self._link_closed is not None:
                # while the controller has the progressive closed, ask every interval
                due = min(due, self._last_link_check + self.settings.heartbeat_seconds)
        if now < due:
            return due - now
        delivery = self.client.heartbeat(self.name)
        if delivery.verdict is Verdict.RETRY:
            return self._retry_later(now, delivery, None)
        with self._cond:
            self._last_link_check = now
            if delivery.verdict is Verdict.ACKED:
                if self._pending == 0:
                    self._contact(now)
                self._last_contact = now
                self._link_from_heartbeat(delivery.text)
            else:
                if self._held is None:
                    log.error("%s: heartbeat refused (%s)", self.name, delivery.reason)
                self._held = delivery
                self._last_contact = now
                self._last_error = delivery.reason
            self._update_side_bets(now)
            self._cond.notify_all()
        return self.settings.heartbeat_seconds

    def _link_from_heartbeat(self, text: str) -> None:
        """Follow the heartbeat's `side_bet_open` (the lock is held); an answer without it
        (an older controller) changes nothing."""
        try:
            answer = json.loads(text)
        except ValueError:
            return
        if not isinstance(answer, dict) or not isinstance(answer.get("side_bet_open"), bool):
            return
        if not answer["side_bet_open"]:
            if self._link_closed is None:
                self._link_closed = _closed_progressive(answer.get("pools"))
        elif self._link_closed is not None:
            log.warning("%s: the controller opened the progressive again", self.name)
            self._link_closed = None

    def _retry_later(self, now: float, delivery: Delivery, round_id: str | None) -> float:
        with self._cond:
            self._failures += 1
            self._retries += 1
            first = self._down_since is None
            if first:
                self._down_since = now
            delay = self.settings.backoff.delay(self._failures, self._rng, delivery.retry_after)
            self._next_attempt = now + delay
            self._last_error = delivery.reason
            self._update_side_bets(now)
            self._cond.notify_all()
        what = f"round {round_id}" if round_id else "heartbeat"
        level = logging.WARNING if first else logging.DEBUG
        log.log(
            level,
            "%s: %s not delivered (%s); retrying in %.2fs",
            self.name,
            what,
            delivery.reason,
            delay,
        )
        return delay

    def _contact(self, now: float) -> None:
        """The controller answered: reset the failure state (the lock is held)."""
        if self._down_since is not None:
            log.warning(
                "%s: controller reachable again after %.1fs", self.name, now - self._down_since
            )
        self._failures = 0
        self._down_since = None
        self._held = None
        self._next_attempt = 0.0
        self._last_contact = now
        self._update_side_bets(now)

    def _fail_journal(self, exc: JournalError) -> None:
        with self._cond:
            first = self._journal_fault is None
            self._journal_fault = str(exc)
            self._last_error = str(exc)
            self._update_side_bets(self._clock())
            self._cond.notify_all()
        if first:
            log.error("%s: JOURNAL FAILED, the table deals no more rounds: %s", self.name, exc)

    def _wait_after(self, now: float) -> float:
        with self._cond:
            self._next_attempt = now + self.settings.hold_seconds
        return self.settings.hold_seconds

    def _state(self) -> LinkState:
        if self._journal_fault is not None:
            return LinkState.JOURNAL_FAILED
        if self._held is not None:
            return LinkState.HELD
        if self._down_since is not None:
            return LinkState.DOWN
        return LinkState.UP

    def _update_side_bets(self, now: float) -> None:
        """Close or reopen the side bet (the lock is held)."""
        why = self._side_bets_closed_because(now)
        if self._side_open and why is not None:
            self._side_open = False
            log.warning("%s: progressive side bet CLOSED (%s)", self.name, why)
        elif (
            not self._side_open and why is None and self._down_since is None and self._pending == 0
        ):
            self._side_open = True
            log.warning("%s: progressive side bet reopened: backlog delivered", self.name)

    def _side_bets_closed_because(self, now: float) -> str | None:
        """Why the side bet must be closed now, or None (the lock is held)."""
        if self._held is not None:
            return "table held"
        if self._clock_fault is not None:
            return "the table's clock is ahead of the controller's"
        if self._link_closed is not None:
            return self._link_closed
        if self._down_since is not None and now - self._down_since >= self.settings.grace_seconds:
            return "controller unreachable"
        return None


def _closed_progressive(found: Any) -> str:
    """Why the side bet is closed, naming the pools a heartbeat says are not running."""
    pools: dict[Any, Any] = found if isinstance(found, dict) else {}
    closed = sorted(str(p) for p, state in pools.items() if state != "running")
    if closed:
        return f"the controller has the progressive closed (pool {', '.join(closed)})"
    return "the controller has the table's progressive closed"
