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

This module is the dealer's side; the sender's is sender.py, the link's settings and status
status.py.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from table_adapter.game.bets import Bet
from table_adapter.game.engine import Table
from table_adapter.game.irregularities import Irregularity, Mishap
from table_adapter.game.records import Round, VoidRound
from table_adapter.game.report import round_report, stamped
from table_adapter.link.client import ControllerClient
from table_adapter.link.journal import Entry, Journal, JournalError, State, void_key
from table_adapter.link.sender import Sender, Settled, wall_ms
from table_adapter.link.status import LinkSettings, LinkState, LinkStatus


class Adapter(Sender):
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
        super().__init__(
            name, journal, client, settings, on_settled=on_settled, clock=clock, rng=rng
        )
        self.table = table

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
            self._journal_void_round(played, noted, now)
        else:
            self._journal_report(played, noted, now)
        return played

    def _journal_void_round(self, played: VoidRound, noted: list[dict[str, Any]], now: int) -> None:
        """Journal the irregularities of a round whose hands were all void."""
        try:
            self.journal.note(self.name, played.round_id, noted, now)
        except JournalError as exc:
            self._fail_journal(exc)
            raise

    def _journal_report(self, played: Round, noted: list[dict[str, Any]], now: int) -> None:
        """Journal a round's report, stamped now, for the sender to deliver."""
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
