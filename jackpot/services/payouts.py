"""Jackpot payouts awaiting verification (hand pays): pending -> paid | disputed."""

from __future__ import annotations

from typing import Any

from jackpot.store.payouts import PayoutStore


class Payouts:
    def __init__(self, store: PayoutStore) -> None:
        self._store = store

    def list(self, status: str | None, limit: int) -> list[dict[str, Any]]:
        """Payouts, newest first, optionally of one status."""
        return self._store.list(status, limit)

    def get(self, payout: str) -> dict[str, Any]:
        return self._store.get(payout)

    def confirm(self, payout: str, who: str, note: str) -> dict[str, Any]:
        """Mark a pending jackpot paid by hand."""
        return self._store.set_status(payout, "paid", who, note)

    def dispute(self, payout: str, who: str, reason: str) -> dict[str, Any]:
        """Hold a pending jackpot back, with the reason."""
        return self._store.set_status(payout, "disputed", who, reason)
