"""Adjustments: audited manual movements of a pool's money (RULES §4)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from jackpot.domain.meter import UNITS_PER_CENT
from jackpot.domain.validate import (
    expect_int,
    expect_keys,
    expect_object,
    expect_str,
    parse_identifier,
)
from jackpot.errors import ValidationError

MAX_ADJUSTMENT_CENTS = 10**13
MAX_REASON = 500


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
        data = expect_object(raw, None)
        expect_keys(data, None, required={"id", "amount", "reason"}, optional={"target", "units"})
        adjustment = parse_identifier(data["id"], "id")
        amount = expect_int(data["amount"], "amount", -MAX_ADJUSTMENT_CENTS, MAX_ADJUSTMENT_CENTS)
        units = expect_int(data.get("units", 0), "units", -(UNITS_PER_CENT - 1), UNITS_PER_CENT - 1)
        if amount == 0 and units == 0:
            raise ValidationError("amount", "an adjustment moves a non-zero amount")
        reason = expect_str(data["reason"], "reason", MAX_REASON)
        target = data.get("target", Target.VISIBLE.value)
        if target not in {t.value for t in Target}:
            raise ValidationError("target", "must be 'visible' or 'reserve'")
        request = json.dumps({"pool": pool, **data}, sort_keys=True)
        return cls(
            adjustment=adjustment,
            pool=pool,
            amount=amount,
            units=units,
            reason=reason,
            target=Target(target),
            digest=hashlib.sha256(request.encode()).hexdigest(),
        )
