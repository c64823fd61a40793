"""Where the store is: JACKPOT_REDIS_URL, or the embedded default store under the data dir."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

from jackpot.bootstrap import Services, bootstrap
from jackpot.settings import GAMING_DAY_VARIABLES, Settings
from jackpot.store.connect import STORE_DOWN
from jackpot.store.embedded import attach_or_start

log = logging.getLogger("jackpot.cli")


@contextmanager
def store_url(settings: Settings) -> Iterator[str]:
    """The store's URL for the length of a command; starts the embedded one if needed."""
    if settings.store:
        yield settings.store
        return
    embedded = attach_or_start(settings.data_dir, settings.redis_server)
    try:
        yield embedded.url
    finally:
        embedded.stop()


@contextmanager
def services(settings: Settings) -> Iterator[Services]:
    """The controller's services over its store, for the length of a command."""
    with store_url(settings) as url:
        built = bootstrap(settings, url)
        try:
            yield built
        finally:
            built.close()


def with_controller_gaming_day(settings: Settings, url: str) -> Settings:
    """`settings` with the controller's gaming day (recorded now if this is the controller's
    first process); GamingDayMismatchError, a SettingsError naming both, where `settings`
    state another. While the store does not answer, `settings` as they are: each process
    then takes the controller's at its first use of a gaming day."""
    built = bootstrap(settings, url)
    try:
        days = built.days()
    except STORE_DOWN as exc:
        log.warning("the controller's gaming day is not known yet (%s): read at first use", exc)
        return settings
    finally:
        built.close()
    return replace(
        settings,
        gaming_day_start=days.start.strftime("%H:%M"),
        time_zone=days.zone.key,
        gaming_day_stated=frozenset(GAMING_DAY_VARIABLES),
    )
