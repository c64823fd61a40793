"""Reconcile a pool over a period: a journal scan, so it runs on the worker."""

from __future__ import annotations

from typing import Any

from jackpot.jobs.context import services


def reconcile_pool(pool: str, from_ts: int, to_ts: int) -> dict[str, Any]:
    """The period's reconciliation as JSON (balances and movements in exact units)."""
    return services().audit.reconcile(pool, from_ts, to_ts).to_json()
