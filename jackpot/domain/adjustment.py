"""Adjustments: audited manual movements of a pool's money (RULES §4)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from jackpot.domain.meter import UNITS_PER_CENT
from jackpot.domain.requests import Adjustment as AdjustmentRequest


class Target(StrEnum):
    """Which balance an adjustment moves."""

    VISIBLE = "visible"
    RESERVE = "reserve"


@dataclass(frozen=True, slots=True)
class Adjustment:
    adjustment: str  # the operator's id: an adjustment is applied once per id
    pool: str
    amount: int  # cents, signed
    units: int  # sub-cent units, signed, |units| < one cent
    reason: str
    target: Target
    digest: str  # of the request, the pool included: the same id elsewhere is a conflict

    @property
    def total_units(self) -> int:
        return self.amount * UNITS_PER_CENT + self.units

    @classmethod
    def from_json(cls, pool: str, raw: Any) -> Adjustment:
        """Validate a `POST /v1/pools/{pool}/adjustments` body."""
        checked = AdjustmentRequest.from_json(raw)
        request = json.dumps({"pool": pool, **raw}, sort_keys=True)
        return cls(
            adjustment=checked.id,
            pool=pool,
            amount=checked.amount,
            units=checked.units,
            reason=checked.reason,
            target=Target(checked.target),
            digest=hashlib.sha256(request.encode()).hexdigest(),
        )
