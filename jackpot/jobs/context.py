"""The services a job runs with: built once per worker process, from the environment."""

from __future__ import annotations

from functools import cache

from jackpot.bootstrap import Services, bootstrap
from jackpot.settings import Settings


@cache
def services() -> Services:
    settings = Settings.from_env()
    if settings.store is None:
        raise RuntimeError("the worker sets JACKPOT_REDIS_URL for its jobs")
    return bootstrap(settings, settings.store)
