"""The bodies of the accounting requests: a pool's adjustment, a reconciliation's span."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jackpot.domain.fields import (
    MAX_REASON,
    Choice,
    Field,
    Identifier,
    Integer,
    Presence,
    Record,
    Rule,
    Text,
)
from jackpot.domain.meter import UNITS_PER_CENT

MAX_ADJUSTMENT_CENTS = 10**13
MAX_TIMESTAMP_MS = 2**53

ADJUSTMENT_MOVES_MONEY = Rule("amount", "an adjustment moves a non-zero amount")

#: The body of POST /v1/pools/{pool}/adjustments.
ADJUSTMENT_REQUEST = Record(
    {
        "id": Field(Identifier(), Presence.REQUIRED, "applied once: a retry repeats it"),
        "amount": Field(
            Integer(-MAX_ADJUSTMENT_CENTS, MAX_ADJUSTMENT_CENTS),
            Presence.REQUIRED,
            "signed cents",
        ),
        "units": Field(
            Integer(-(UNITS_PER_CENT - 1), UNITS_PER_CENT - 1),
            description="signed 1/10,000 cents added to amount (default 0)",
        ),
        "target": Field(
            Choice(("visible", "reserve")), description="the balance moved (default visible)"
        ),
        "reason": Field(Text(MAX_REASON), Presence.REQUIRED, "why, for the journal"),
    },
    "An audited manual movement of a pool's money.",
    rules=(ADJUSTMENT_MOVES_MONEY,),
    notes=(
        "The same id with another body, or on another pool, is 409 `adjustment_refused` "
        "naming `id`; making a balance negative or lifting the meter above its cap is 409 "
        "`adjustment_refused` naming `amount`.",
    ),
)


@dataclass(frozen=True, slots=True)
class Adjustment:
    id: str
    amount: int  # cents
    units: int  # 1/10,000 cents on top of amount
    target: str
    reason: str

    @classmethod
    def from_json(cls, raw: Any) -> Adjustment:
        """Validate an adjustment body."""
        data = ADJUSTMENT_REQUEST.check(raw)
        amount, units = data["amount"], data.get("units", 0)
        if amount == 0 and units == 0:
            raise ADJUSTMENT_MOVES_MONEY.error()
        return cls(data["id"], amount, units, data.get("target", "visible"), data["reason"])


TO_AFTER_FROM = Rule("to", "must be after from", "out_of_range")
TIMESTAMP = Integer(0, MAX_TIMESTAMP_MS)

#: The body of POST /v1/reports/reconcile.
RECONCILE_REQUEST = Record(
    {
        "pool": Field(Identifier(), Presence.REQUIRED),
        "from": Field(TIMESTAMP, description="ms since the epoch, inclusive (default 0)"),
        "to": Field(TIMESTAMP, description="ms since the epoch, exclusive (default now)"),
    },
    "A pool's reconciliation over [from, to), queued for the worker.",
    rules=(TO_AFTER_FROM,),
    notes=("An unknown pool is 404 `unknown_pool`.",),
)


@dataclass(frozen=True, slots=True)
class ReconcileRequest:
    pool: str
    from_ts: int
    to_ts: int

    @classmethod
    def from_json(cls, raw: Any, now_ms: int) -> ReconcileRequest:
        """Validate a reconciliation request; `to` defaults to just after `now_ms`."""
        data = RECONCILE_REQUEST.check(raw)
        from_ts, to_ts = data.get("from", 0), data.get("to", now_ms + 1)
        if to_ts <= from_ts:
            raise TO_AFTER_FROM.error()
        return cls(data["pool"], from_ts, to_ts)
