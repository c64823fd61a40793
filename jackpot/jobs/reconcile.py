"""Reconcile a pool over a period: a journal scan, so it runs on the worker."""

from __future__ import annotations

from functools import cache
from typing import Any

from jackpot.bootstrap import Services, bootstrap
from jackpot.settings import Settings


@cache
def _services() -> Services:
    settings = Settings.from_env()
    if settings.redis_url is None:
        raise RuntimeError("the worker sets JACKPOT_REDIS_URL for its jobs")
    return bootstrap(settings, settings.redis_url)


def reconcile_pool(pool: str, from_ts: int, to_ts: int) -> dict[str, Any]:
    """The period's reconciliation as JSON (balances and movements in exact units)."""
    return _services().reports.reconcile(pool, from_ts, to_ts).to_json()
