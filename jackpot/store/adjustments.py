"""Adjustments as stored: one adjust_pool script call, applied once per adjustment id."""

from __future__ import annotations

from dataclasses import dataclass

from redis import Redis

from jackpot.domain.adjustment import Adjustment
from jackpot.errors import AdjustmentError, NotFoundError
from jackpot.store.keys import Keys
from jackpot.store.scripts import Scripts

# the script's refusals: (message, field at fault)
REFUSALS = {
    "conflict": ("was already applied with another body", "id"),
    "negative": ("would make the meter or reserve negative", "amount"),
    "over_cap": ("would lift the meter above its cap", "amount"),
}


@dataclass(frozen=True, slots=True)
class AppliedAdjustment:
    replayed: bool  # the same adjustment was applied before: nothing moved now


class AdjustmentStore:
    def __init__(self, client: Redis, keys: Keys, scripts: Scripts) -> None:
        self._r = client
        self._k = keys
        self._s = scripts

    def apply(self, adjustment: Adjustment, who: str) -> AppliedAdjustment:
        """Move the money once; raises AdjustmentError or NotFoundError, moving nothing."""
        k, pool = self._k, adjustment.pool
        result = self._s.adjust_pool(
            keys=[k.pool(pool), k.pool_journal(pool), k.adjustments, k.counters],
            args=[
                adjustment.adjustment,
                adjustment.digest,
                adjustment.target.value,
                adjustment.total_units,
                adjustment.reason,
                who,
            ],
        )
        status = result[0]
        if status in REFUSALS:
            message, field = REFUSALS[status]
            raise AdjustmentError(adjustment.adjustment, message, field)
        if status == "missing":
            raise NotFoundError("pool", pool)
        return AppliedAdjustment(replayed=status == "replay")
