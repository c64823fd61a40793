"""`jackpot verify` over every link group: each group's journals, then the round records and
the closed days against them (jackpot.archive.verify holds the checks), for all of history
or from a gaming day on, its cost the period's (docs/PERFORMANCE.md "Verifying history")."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

from jackpot.archive.verify import (
    Finding,
    Verification,
    check_closed_days,
    check_day_heads,
    check_repeats,
    check_rounds,
)
from jackpot.domain.gamingday import GamingDays
from jackpot.domain.journals import house_journal
from jackpot.services.linkgroups import LinkGroups

ClosedDay = dict[str, Any]  # a closed gaming day's row in the archive (Archive.days)


class PeriodNotBegunError(ValueError):
    """verify --since a gaming day that has not begun by the controller clock (D263)."""

    def __init__(self, day: date) -> None:
        super().__init__(f"gaming day {day.isoformat()} has not begun yet")
        self.day = day


class GroupedVerifier:
    """Verifies every group's journals, the round records and the closed days against the
    archive: all of history, or from a gaming day on (cost in proportion to the period)."""

    def __init__(
        self,
        groups: LinkGroups,
        days: Callable[[], GamingDays],
        recompute: Callable[[dict[str, Any]], list[str] | None] = lambda row: None,
        checkpoints: Callable[[int | None], list[Finding]] = lambda since: [],
    ) -> None:
        self._checkpoints = checkpoints  # the archive's own signed checkpoints (D258)
        self._groups = groups
        self._days = days  # the controller's gaming days: where a --since day starts
        self._recompute = recompute  # a closed day's figures again, from the archive

    def run(self, since: date | None = None) -> Verification:
        """Every group's journals, every archived round record against the entry that
        settled it (in whichever group's house journal), every closed day against its
        journaled digest, the day before it, its recorded heads and its figures recomputed."""
        archive = self._groups.main.verifier.archive
        start, before, days = self._period(since, archive.days())
        out = self._merged([g.verifier.run(start) for g in self._groups.all()])
        out.since = None if since is None else since.isoformat()
        houses = [house_journal(name) for name in self._groups.names()]
        found, out.rounds = check_rounds(archive, houses, start or 0)
        out.findings += found
        out.findings += check_repeats(archive, houses)
        out.findings += check_day_heads(archive, days)
        out.findings += check_closed_days(days, out.closed, before, out.since)
        self._recompute_days(out, days)
        out.days = len(days)
        out.findings += self._checkpoints(start)
        return out

    def _period(
        self, since: date | None, days: list[ClosedDay]
    ) -> tuple[int | None, ClosedDay | None, list[ClosedDay]]:
        """Where a check from gaming day `since` starts (the time), the closed day before it,
        and the closed `days` from it on; without `since`, all of history."""
        if since is None:
            return None, None, days
        start = self._start(since, days)
        day = since.isoformat()
        before = next((d for d in reversed(days) if d["day"] < day), None)
        return start, before, [d for d in days if d["day"] >= day]

    def _start(self, since: date, days: list[ClosedDay]) -> int:
        """When gaming day `since` began: as closed, else by the controller's gaming days."""
        day = since.isoformat()
        closed = next((d for d in days if d["day"] == day), None)
        start = int(closed["start_ts"]) if closed else self._days().bounds(since)[0]
        if start > self._groups.main.verifier.clock():  # no period to check yet
            raise PeriodNotBegunError(since)
        return start

    def _recompute_days(self, out: Verification, days: list[ClosedDay]) -> None:
        """Each closed day's figures again, from the archive: a difference is a finding."""
        for row in days:
            differences = self._recompute(row)
            if differences is None:  # an older report layout: its digest and heads only
                continue
            out.recomputed += 1
            out.findings += [
                Finding(
                    "gaming_days",
                    None,
                    f"closed day {row['day']}: its figures are not the archive's: {difference}",
                )
                for difference in differences
            ]

    def tail(self, count: int = 64) -> Verification:
        return self._merged([g.verifier.tail(count) for g in self._groups.all()])

    @staticmethod
    def _merged(found: list[Verification]) -> Verification:
        out = Verification()
        for done in found:
            out.checked.update(done.checked)
            out.findings += done.findings
            out.closed += done.closed
        return out
