"""Gaming days: the casino's accounting day, from a local start time to the next day's.

A gaming day is named by the date it starts on. With a 06:00 start in America/New_York,
2026-11-23 runs from 2026-11-23T06:00-05:00 to 2026-11-24T06:00-05:00. On a day the clocks
change it is 23 or 25 hours long: its bounds are local wall times, never a fixed 24 h.
What a day's close computes is jackpot.domain.dayclose.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from jackpot.domain.validate import check_date
from jackpot.errors import ValidationError

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
MILLISECOND = timedelta(milliseconds=1)
DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


@dataclass(frozen=True, slots=True)
class GamingDays:
    start: time  # local time a gaming day begins
    zone: ZoneInfo
    # the last day `name_of` found, as ((start, end) in epoch ms, its name): one tuple, so a
    # thread reads a whole one
    _last: list[tuple[tuple[int, int], str]] = field(
        default_factory=lambda: [((0, 0), "")], init=False, repr=False, compare=False
    )

    @classmethod
    def of(cls, start: str, zone: str) -> GamingDays:
        return cls(time.fromisoformat(start), ZoneInfo(zone))

    def bounds(self, day: date) -> tuple[int, int]:
        """[start, end) of the gaming day `day`, in epoch ms."""
        return self._at(day), self._at(day + timedelta(days=1))

    def of_time(self, ms: int) -> date:
        """The gaming day an instant (epoch ms) belongs to."""
        local = (EPOCH + ms * MILLISECOND).astimezone(self.zone)
        day = local.date()
        return day if self._at(day) <= ms else day - timedelta(days=1)

    def name_of(self, ms: int) -> str:
        """`of_time(ms)` as YYYY-MM-DD; every round names its day, so the last day found is
        kept and an instant inside it is named without the calendar."""
        (start, end), name = self._last[0]
        if start <= ms < end:
            return name
        day = self.of_time(ms)
        self._last[0] = (self.bounds(day), day.isoformat())
        return day.isoformat()

    def iso(self, ms: int) -> str:
        """An instant as ISO 8601 in the casino's zone, to the millisecond."""
        return (EPOCH + ms * MILLISECOND).astimezone(self.zone).isoformat(timespec="milliseconds")

    def _at(self, day: date) -> int:
        # fold=0: in the hour repeated when clocks go back, the first of the two
        local = datetime.combine(day, self.start, self.zone)
        return (local - EPOCH) // MILLISECOND


def parse_day(raw: str, field: str) -> date:
    """A gaming day named as YYYY-MM-DD."""
    try:
        if not DAY.fullmatch(raw):
            raise ValueError
        day = date.fromisoformat(raw)
    except ValueError:
        raise ValidationError(field, "must be a gaming day such as 2026-11-23", "invalid") from None
    return check_date(day, field)
