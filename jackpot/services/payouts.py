"""Jackpot payouts awaiting verification (hand pays): pending -> paid | disputed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jackpot.store.payouts import PayoutStore


@dataclass(frozen=True, slots=True)
class HandPay:
    """What a confirmation records of the hand pay (empty: not given)."""

    paid_by: str  # a person: who paid it
    witness: str
    slip: str  # the hand-pay slip or reference number
    note: str


class Payouts:
    def __init__(self, store: PayoutStore) -> None:
        self._store = store

    def list(self, status: str | None, limit: int) -> list[dict[str, Any]]:
        """Payouts, newest first, optionally of one status."""
        return self._store.list(status, limit)

    def get(self, payout: str) -> dict[str, Any]:
        return self._store.get(payout)

    def confirm(self, payout: str, who: str, hand_pay: HandPay) -> dict[str, Any]:
        """Mark a pending jackpot paid by hand, with who paid it, the witness and the slip."""
        return self._store.set_status(
            payout, "paid", who, hand_pay.note, (hand_pay.paid_by, hand_pay.witness, hand_pay.slip)
        )

    def dispute(self, payout: str, who: str, reason: str) -> dict[str, Any]:
        """Hold a pending jackpot back, with the reason."""
        return self._store.set_status(payout, "disputed", who, reason)
