"""Reconcile a pool over a period: a journal scan, so it runs on the worker."""

from __future__ import annotations

from functools import cache
from typing import Any

from jackpot.app import create_controller
from jackpot.domain.reconcile import reconcile
from jackpot.services import Controller
from jackpot.settings import Settings


@cache
def _controller() -> Controller:
    settings = Settings.from_env()
    if settings.redis_url is None:
        raise RuntimeError("the worker sets JACKPOT_REDIS_URL for its jobs")
    return create_controller(settings, settings.redis_url)


def reconcile_pool(pool: str, from_ts: int, to_ts: int) -> dict[str, Any]:
    """The period's reconciliation as JSON (balances and movements in exact units)."""
    controller = _controller()
    controller.pool(pool)
    stream = controller.journal.pool_stream(pool)
    entries = (e.to_json() for e in controller.journal.scan(stream))
    return reconcile(pool, entries, from_ts, to_ts).to_json()
