"""Where the store is: JACKPOT_REDIS_URL, or the embedded default store under the data dir."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from jackpot.bootstrap import Services, bootstrap
from jackpot.settings import Settings
from jackpot.store.embedded import attach_or_start


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
