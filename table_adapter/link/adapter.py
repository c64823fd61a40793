"""One table's link to the controller: journal every round first, then deliver them in order.

The dealer calls `play_round`: the round is dealt, its report committed to the journal (a
round that cannot be journaled is void and the table deals no more), and the sender thread
is woken. The sender delivers the table's pending reports strictly in journal order, one at
a time, resending the same text after timeouts, connection errors, 5xx and unparseable
answers with capped exponential backoff. A report the controller faults (4xx) is `rejected`
and logged at ERROR; one it refuses for when it was dealt (422 round_expired, 400
in_future) is `quarantined` for an operator and logged at ERROR; neither is resent, and
delivery goes on with the next. A refusal of the table itself (bad key, unknown or disabled
table) holds delivery, the report pending, and probes again every `hold_seconds`.

Every report carries `dealt_at`, stamped once when it is journaled (report.stamped), so a
resend repeats the journaled text byte for byte.

Side bets close when the controller has been unreachable for `grace_seconds`, or the table
is held, or its clock is ahead of the controller's (a report answered 400 in_future), and
reopen once the backlog is delivered (and, for the clock, a report is acknowledged).
"""

from __future__ import annotations

import json
import logging
import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from jackpot.domain.tablecounts import DayCounts
from table_adapter.game.bets import Bet
from table_adapter.game.engine import Table
from table_adapter.game.irregularities import Irregularity, Mishap
from table_adapter.game.records import Round, VoidRound
from table_adapter.game.report import round_report, stamped
from table_adapter.link.answers import IN_FUTURE, PROGRESSIVE_CLOSED, RoundAnswer
from table_adapter.link.backoff import Backoff
from table_adapter.link.client import ControllerClient, Delivery, Verdict
from table_adapter.link.journal import (
    DayCount,
    Entry,
    Journal,
    JournalError,
    State,
    void_key,
)

log = logging.getLogger("table_adapter")

Settled = Callable[[Entry, RoundAnswer | None], None]


def wall_ms() -> int:
    """Milliseconds since the epoch."""
    return time.time_ns() // 1_000_000


@dataclass(frozen=True, slots=True)
class LinkSettings:
    """Timing of delivery; seconds."""

    grace_seconds: float = 10.0  # unreachable this long: side bets close
    heartbeat_seconds: float = 5.0  # idle this long: send a heartbeat
    hold_seconds: float = 30.0  # a held table (or failed journal) tries again after this
    answer_wait_seconds: float = 10.0  # the dealer waits this long for an answer while up
    counts_seconds: float = 15.0  # idle this long since: report the table's own counts
    backoff: Backoff = field(default_factory=Backoff)


class LinkState(StrEnum):
    """How delivery stands."""

    UP = "up"  # the controller answers
    DOWN = "down"  # it does not: resending with backoff
    HELD = "held"  # it refuses the table itself: waiting for an operator
    JOURNAL_FAILED = "journal_failed"  # the journal cannot be written: no more rounds


@dataclass(frozen=True, slots=True)
class LinkStatus:
    """A snapshot of one table's link."""

    table: str
    state: LinkState
    side_bets_open: bool
    pending: int
    acked: int  # this process's acknowledgements, replays included
    replayed: int  # of which the controller had already settled (a resend after a crash)
    rejected: int  # this process's, less those requeued: each needs an operator
    quarantined: int  # the same, for reports refused for when they were dealt
    retries: int
    down_seconds: float | None
    last_error: str | None


# The verdicts that settle a report, and the journal state each leaves it in.
SETTLING = {
    Verdict.ACKED: State.ACKED,
    Verdict.REJECTED: State.REJECTED,
    Verdict.QUARANTINED: State.QUARANTINED,
}


class Adapter:
    """A table (or, with `table=None`, just its backlog) feeding the controller."""

    def __init__(
        self,
        name: str,
        journal: Journal,
        client: ControllerClient,
        settings: LinkSettings | None = None,
        *,
        table: Table | None = None,
        on_settled: Settled | None = None,
        clock: Callable[[], float] = time.monotonic,
        rng: random.Random | None = None,
    ) -> None:
        if table is not None and table.name != name:
            raise ValueError(f"table {table.name!r} is not {name!r}")
        self.name = name
        self.table = table
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

    # the dealer's side ---------------------------------------------------------------------

    def play_round(self, bets: Sequence[Bet], mishap: Mishap | None = None) -> Round | VoidRound:
        """Deal a round (`mishap` going wrong in it) and journal its report with its
        irregularities; raise JournalError rather than deal unjournaled. A round whose hands
        were all void is not reported: its irregularities are journaled alone."""
        if self.table is None:
            raise ValueError(f"{self.name}: this adapter only replays a backlog")
        with self._cond:
            fault = self._journal_fault
        if fault is not None:
            raise JournalError(f"table {self.name} deals no round: its journal failed ({fault})")
        if not self.side_bets_open():
            bets = [replace(b, side=0) for b in bets]
        played = self.table.play_round(bets, mishap)
        now = wall_ms()
        noted = [i.to_json() for i in played.irregularities]
        if isinstance(played, VoidRound):
            try:
                self.journal.note(self.name, played.round_id, noted, now)
            except JournalError as exc:
                self._fail_journal(exc)
                raise
            return played
        body = json.dumps(stamped(round_report(played), now), separators=(",", ":"))
        try:
            self.journal.append(self.name, played.round_id, body, now, noted)
        except JournalError as exc:
            self._fail_journal(exc)
            raise JournalError(
                f"table {self.name}: round {played.round_id} could not be journaled, so it is "
                f"void (wagers returned) and the table deals no more rounds: {exc}"
            ) from exc
        with self._cond:
            self._pending += 1
        self._wake.set()
        return played

    def void_round(
        self,
        round_id: str,
        reason: str,
        spots: Sequence[int] | None = None,
        irregularity: Irregularity | None = None,
    ) -> Entry:
        """Ask the controller to void a round this table reported (whole, or the bets of
        `spots`): journaled first, with the irregularity that voids it, and delivered in order
        after the round's report, like a report, so it survives a restart and an outage. A
        person at the controller approves it. The same void asked again is the journaled one."""
        wanted = None if spots is None else tuple(sorted(set(spots)))
        body: dict[str, Any] = {"reason": reason}
        if wanted is not None:
            body["spots"] = list(wanted)
        key = void_key(round_id, wanted)
        found = self.journal.find(self.name, key)
        if found is not None:
            return found
        noted = () if irregularity is None else (irregularity.to_json(),)
        entry = self.journal.append(
            self.name, key, json.dumps(body, separators=(",", ":")), wall_ms(), noted
        )
        with self._cond:
            self._pending += 1
        self._wake.set()
        return entry

    def requeue(self, seq: int) -> Entry:
        """Send a rejected or quarantined report again, byte for byte as journaled (an
        operator's decision once the cause is fixed, e.g. the table's clock). It keeps its
        place in journal order, so it goes before the table's later pending reports."""
        before = self.journal.get(seq)
        if before.table != self.name:
            raise ValueError(f"report {seq} is table {before.table}'s, not {self.name}'s")
        if before.state not in (State.REJECTED, State.QUARANTINED):
            return before
        entry = self.journal.requeue(seq)
        with self._cond:
            self._pending += 1
            # the counts say what waits for an operator: this one no longer does
            if before.state is State.REJECTED:
                self._rejected = max(0, self._rejected - 1)
            else:
                self._quarantined = max(0, self._quarantined - 1)
        self._wake.set()
        return entry

    def side_bets_open(self) -> bool:
        """Whether new rounds may take progressive side wagers."""
        with self._cond:
            self._update_side_bets(self._clock())
            return self._side_open

    @property
    def up(self) -> bool:
        """The controller is answering this table's reports."""
        return self.state is LinkState.UP

    @property
    def state(self) -> LinkState:
        """How delivery stands now."""
        with self._cond:
            return self._state()

    def wait_idle(self, timeout: float, only_while_up: bool = False) -> bool:
        """Wait until every journaled report is settled.

        False on timeout, at once if the table is held or its journal failed (nothing will
        move until someone acts), and with `only_while_up` as soon as the link is not up.
        """
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._pending > 0:
                state = self._state()
                if state in (LinkState.HELD, LinkState.JOURNAL_FAILED):
                    return False
                if only_while_up and state is not LinkState.UP:
                    return False
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(min(left, 0.5))
            return True

    def status(self) -> LinkStatus:
        """A snapshot of the link."""
        with self._cond:
            now = self._clock()
            self._update_side_bets(now)
            return LinkStatus(
                table=self.name,
                state=self._state(),
                side_bets_open=self._side_open,
                pending=self._pending,
                acked=self._acked,
                replayed=self._replayed,
                rejected=self._rejected,
                quarantined=self._quarantined,
                retries=self._retries,
                down_seconds=None if self._down_since is None else now - self._down_since,
                last_error=self._last_error,
            )

    # the sender's side ---------------------------------------------------------------------

    def start(self) -> Adapter:
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
        replayed = delivery.answer is not None and delivery.answer.replayed
        with self._cond:
            if self._held is not None:
                log.warning("%s: the controller takes the table's reports again", self.name)
            self._pending -= 1
            self._acked += state is State.ACKED
            self._replayed += replayed
            self._rejected += state is State.REJECTED
            self._quarantined += state is State.QUARANTINED
            if state is State.QUARANTINED:
                self._last_error = delivery.reason
            if state is State.QUARANTINED and delivery.error and delivery.error.code == IN_FUTURE:
                # The table's clock: its later rounds would be refused too, and progressive
                # wagers the controller cannot settle must not be taken meanwhile.
                self._clock_fault = delivery.reason
            elif state is State.ACKED and self._clock_fault is not None:
                log.warning("%s: the controller takes the table's dealt_at again", self.name)
                self._clock_fault = None
            if (
                state is State.QUARANTINED
                and delivery.error
                and delivery.error.code == PROGRESSIVE_CLOSED
            ):
                # closed until a heartbeat says the link runs again (asked every heartbeat
                # interval meanwhile, however busy the table is)
                self._link_closed = delivery.error.message
            self._contact(now)
            self._cond.notify_all()
        if state is State.QUARANTINED:
            log.error(
                "%s: round %s QUARANTINED: %s; it stays in the journal as quarantined (seq %d), "
                "is not resent, and needs an operator",
                self.name,
                entry.round,
                delivery.reason,
                entry.seq,
            )
        if state is State.REJECTED:
            log.error(
                "%s: round %s REJECTED by the controller (%s); it stays in the journal as "
                "rejected (seq %d) and is not resent",
                self.name,
                entry.round,
                delivery.reason,
                entry.seq,
            )
        if self._on_settled is not None:
            self._on_settled(settled, delivery.answer)
        return 0.0

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
        try:
            days = json.loads(text)["days"]
            differ = "; ".join(
                f"{d['day']}: "
                + ", ".join(
                    f"{name} {v['table']} here, {v['controller']} at the controller"
                    for name, v in sorted(d["differences"].items())
                )
                for d in days
                if d.get("matches") is False
            )
        except (ValueError, KeyError, TypeError, AttributeError):
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
            found = answer.get("pools")
            pools: dict[Any, Any] = found if isinstance(found, dict) else {}
            closed = sorted(str(p) for p, state in pools.items() if state != "running")
            if self._link_closed is None:
                self._link_closed = (
                    f"the controller has the progressive closed (pool {', '.join(closed)})"
                    if closed
                    else "the controller has the table's progressive closed"
                )
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
        down = self._down_since is not None and now - self._down_since >= (
            self.settings.grace_seconds
        )
        faults = self._held is not None or self._clock_fault is not None
        if self._side_open and (down or faults or self._link_closed is not None):
            self._side_open = False
            if self._held is not None:
                why = "table held"
            elif self._clock_fault is not None:
                why = "the table's clock is ahead of the controller's"
            elif self._link_closed is not None:
                why = self._link_closed
            else:
                why = "controller unreachable"
            log.warning("%s: progressive side bet CLOSED (%s)", self.name, why)
        elif (
            not self._side_open
            and self._held is None
            and self._down_since is None
            and self._clock_fault is None
            and self._link_closed is None
            and self._pending == 0
        ):
            self._side_open = True
            log.warning("%s: progressive side bet reopened: backlog delivered", self.name)


def counted(entry: Entry, delivery: Delivery) -> DayCount | None:
    """What an acknowledgement adds to the table's counts of the controller's gaming day it
    names: a round (its side bets, handle and pays), or a void the table asked for and the
    controller holds for a person; None for anything else (or an older controller's answer,
    which names no day)."""
    if delivery.verdict is not Verdict.ACKED:
        return None
    answer = delivery.answer
    if entry.void_of is None:
        if answer is None or answer.gaming_day is None or answer.settled_at is None:
            return None
        side = [b for b in answer.bets if b.wager > 0]
        return DayCount(
            answer.gaming_day,
            answer.settled_at,
            DayCounts(
                rounds=1,
                side_bets=len(side),
                handle=sum(b.wager for b in side),
                fixed=sum(b.pay for b in answer.bets),
                envy=sum(b.envy for b in answer.bets),
                jackpot=sum(b.jackpot for b in answer.bets),
            ),
        )
    try:
        body = json.loads(delivery.text)
        held = body["awaiting_approval"] if body["result"] == "awaiting_approval" else None
        if held is None or not str(held["requested_by"]).startswith("table:"):
            return None  # applied, void already, or another's request: nothing the table asked
        return DayCount(str(body["gaming_day"]), int(body["at"]), DayCounts(voids=1))
    except (ValueError, KeyError, TypeError):
        return None
