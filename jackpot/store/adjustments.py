"""Adjustments as stored: one adjust_pool script call, applied once per adjustment id."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from redis import Redis

from jackpot.conflicts import AdjustmentError, PoolStateError
from jackpot.domain.adjustment import Adjustment
from jackpot.errors import NotFoundError
from jackpot.store.keys import Keys
from jackpot.store.scripts import Scripts

# the script's refusals: (message, field at fault)
REFUSALS = {
    "conflict": ("was already applied with another body", "id"),
    "negative": ("would make the meter or reserve negative", "amount"),
    "over_cap": ("would lift the meter above its cap", "amount"),
    "hidden_trigger": (
        "would raise a must-hit-by or mystery level's meter, which only wagers raise (toward "
        "its hidden trigger): adjust its reserve",
        "target",
    ),
}

# the retire script's refusals of a transfer: (message, field at fault)
TRANSFER_REFUSALS = {
    "conflict": ("was already applied with another body", "id"),
    "over_limit": ("would pass the bound of exact sums", "to"),
}


@dataclass(frozen=True, slots=True)
class AppliedAdjustment:
    replayed: bool  # the same adjustment was applied before: nothing moved now


@dataclass(frozen=True, slots=True)
class Transfer:
    """A retired pool's balance moved to another pool (None amounts: a replay)."""

    replayed: bool
    moved_value_units: int | None = None
    moved_reserve_units: int | None = None


class AdjustmentStore:
    def __init__(self, client: Redis, keys: Keys, scripts: Scripts) -> None:
        self._r = client
        self._k = keys
        self._s = scripts

    def apply(self, adjustment: Adjustment, who: str) -> AppliedAdjustment:
        """Move the money once; raises AdjustmentError or NotFoundError, moving nothing."""
        k, pool = self._k, adjustment.pool
        result = self._s.adjust_pool(
            keys=[
                k.pool(pool),
                k.pool_journal(pool),
                k.adjustments,
                k.counters,
                k.journal,
                k.activity,
            ],
            args=[
                adjustment.adjustment,
                adjustment.digest,
                adjustment.target.value,
                adjustment.total_units,
                adjustment.reason,
                who,
                pool,
            ],
        )
        status = result[0]
        if status in REFUSALS:
            message, field = REFUSALS[status]
            raise AdjustmentError(adjustment.adjustment, message, field)
        if status == "missing":
            raise NotFoundError("pool", pool)
        if status == "retired":
            raise PoolStateError(
                pool, "retired", "its balance went to another pool: adjust that one", "pool"
            )
        return AppliedAdjustment(replayed=status == "replay")

    def retire(
        self,
        transfer: str,
        digest: str,
        pool: str,
        to: str,
        seen_version: str,
        reason: str,
        who: str,
    ) -> Transfer | None:
        """Retire `pool` and move its balance to `to` in one step, once per transfer id;
        None when a table configuration changed since `seen_version` (check again)."""
        k = self._k
        result = self._s.retire_pool(
            keys=[
                k.pool(pool),
                k.pool_journal(pool),
                k.pool(to),
                k.pool_journal(to),
                k.counters,
                k.adjustments,
                k.journal,
                k.activity,
            ],
            args=[transfer, digest, seen_version, reason, who, pool, to],
        )
        status = result[0]
        if status == "stale":
            return None
        if status == "replay":
            return Transfer(replayed=True)
        if status in TRANSFER_REFUSALS:
            message, field = TRANSFER_REFUSALS[status]
            raise AdjustmentError(transfer, message, field)
        _refuse_pool_gone(status, result, pool)
        return Transfer(False, int(result[1]), int(result[2]))


def _refuse_pool_gone(status: str, result: list[Any], pool: str) -> None:
    """The retiring pool, or the one its balance goes to (named in `result[1]`), that the
    script found missing or retired."""
    if status not in ("missing", "retired"):
        return
    named = result[1]
    field = "pool" if named == pool else "to"
    if status == "missing":
        raise NotFoundError("pool", str(named), field)
    raise PoolStateError(str(named), "retired", "it was retired before", field)
