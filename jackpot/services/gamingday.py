"""The controller's gaming day: one definition for every process, kept with its state.

The first process to start records its JACKPOT_GAMING_DAY_START and JACKPOT_TIME_ZONE with
the controller's state (journaled: gaming_day_set). Every later process, the CLI's included,
takes the recorded definition; one whose environment states another value is refused, naming
both, instead of closing days that overlap the controller's. The definition changes only
through `jackpot accounting gaming-day` (journaled: gaming_day_changed), and only before the
first gaming day is closed: a closed day never changes, so the days after it must follow on.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from jackpot.conflicts import GamingDayClosedError
from jackpot.domain.gamingday import GamingDays
from jackpot.settings import Settings, SettingsError
from jackpot.store.gamingday import GamingDayStore


class GamingDayMismatchError(SettingsError):
    """This process was told another gaming day than the controller's."""


class ControllerGamingDay:
    """The controller's GamingDays for this process, resolved at first use (a process may
    start while the store is down) and kept: a change takes effect when processes restart."""

    def __init__(self, store: GamingDayStore, settings: Settings, who: str) -> None:
        self.store = store
        self._settings = settings
        self._who = who
        self._days: GamingDays | None = None
        self._lock = threading.Lock()

    def forget(self) -> None:
        """Read (or record) the controller's gaming day again at next use."""
        with self._lock:
            self._days = None

    def __call__(self) -> GamingDays:
        if self._days is None:
            with self._lock:
                if self._days is None:
                    self._days = controller_gaming_day(self.store, self._settings, self._who)
        return self._days


def describe(start: str, zone: str) -> str:
    return f"{start} {zone}"


def controller_gaming_day(store: GamingDayStore, settings: Settings, who: str) -> GamingDays:
    """The controller's definition: recorded now from `settings` if it is the first; refused
    (GamingDayMismatchError) where `settings` states another value."""
    start, zone = store.record_first(settings.gaming_day_start, settings.time_zone, who)
    told = {"JACKPOT_GAMING_DAY_START": start, "JACKPOT_TIME_ZONE": zone}
    mine = {
        "JACKPOT_GAMING_DAY_START": settings.gaming_day_start,
        "JACKPOT_TIME_ZONE": settings.time_zone,
    }
    differ = [n for n in settings.gaming_day_stated if mine[n] != told[n]]
    if differ:
        stated = ", ".join(f"{n}={mine[n]}" for n in sorted(differ))
        raise GamingDayMismatchError(
            f"{stated} here, but the controller's gaming day starts at "
            f"{describe(start, zone)} (recorded with its state by its first process): unset "
            f"{' and '.join(sorted(differ))} to take the controller's, or change the "
            "controller's with `jackpot accounting gaming-day` before its first day is closed"
        )
    return GamingDays.of(start, zone)


def change_gaming_day(
    store: GamingDayStore,
    closed_days: Callable[[], list[str]],
    start: str,
    zone: str,
    who: str,
    reason: str,
) -> tuple[str, tuple[str, str]]:
    """Change the controller's definition (journaled), while no gaming day is closed;
    ('changed' | 'unchanged', the definition before), or ('recorded', it) on a store that
    had none yet."""
    # a time and zone as the settings take them, or SettingsError naming the variable
    Settings.from_env({"JACKPOT_GAMING_DAY_START": start, "JACKPOT_TIME_ZONE": zone})
    closed = closed_days()
    if closed:
        raise GamingDayClosedError(closed[-1])
    return store.change(start, zone, who, reason)
