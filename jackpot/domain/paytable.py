"""Paytables: per outcome an odds figure, an optional meter percentage, an optional envy."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from jackpot.domain.outcomes import WINNING_OUTCOMES, Outcome
from jackpot.domain.validate import expect_int, expect_keys, expect_object, parse_identifier
from jackpot.errors import ValidationError

MAX_ODDS = 1_000_000
FULL_METER_BP = 10_000
MAX_ENVY_MULTIPLE = 100_000
MAX_ENVY_AMOUNT = 100_000_000  # $1M in cents


@dataclass(frozen=True, slots=True)
class Envy:
    """An envy pay: `multiple` × the receiving bet's wager, or a fixed `amount` in cents."""

    multiple: int = 0
    amount: int = 0

    def pay_for(self, wager: int) -> int:
        return self.amount if self.amount else self.multiple * wager

    def to_json(self) -> dict[str, int]:
        return {"amount": self.amount} if self.amount else {"multiple": self.multiple}


@dataclass(frozen=True, slots=True)
class PayLine:
    """One outcome's pays. `meter_bp` is basis points of `pool`'s visible meter."""

    odds: int
    meter_bp: int = 0
    pool: str | None = None  # None: the table's first pool
    envy: Envy | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"odds": self.odds}
        if self.meter_bp:
            out["meter_bp"] = self.meter_bp
            if self.pool is not None:
                out["pool"] = self.pool
        if self.envy is not None:
            out["envy"] = self.envy.to_json()
        return out


@dataclass(frozen=True, slots=True)
class Paytable:
    lines: tuple[tuple[Outcome, PayLine], ...]
    _by_outcome: dict[Outcome, PayLine] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_outcome", dict(self.lines))

    def line(self, outcome: Outcome) -> PayLine | None:
        return self._by_outcome.get(outcome)

    def resolved(self, first_pool: str) -> Paytable:
        """The paytable with every meter pay naming its pool (the default made explicit)."""
        return Paytable(
            tuple(
                (outcome, replace(line, pool=line.pool or first_pool) if line.meter_bp else line)
                for outcome, line in self.lines
            )
        )

    def meter_pools(self, first_pool: str) -> frozenset[str]:
        """Pools this paytable pays percentages of."""
        return frozenset(line.pool or first_pool for _, line in self.lines if line.meter_bp)

    def to_json(self) -> dict[str, Any]:
        return {outcome.value: line.to_json() for outcome, line in self.lines}

    @classmethod
    def from_json(cls, raw: Any, field: str = "paytable") -> Paytable:
        """Validate a paytable given on the wire; every winning outcome must be listed."""
        data = expect_object(raw, field)
        names = {o.value for o in WINNING_OUTCOMES}
        for key in data:
            if key not in names:
                raise ValidationError(f"{field}.{key}", f"unknown outcome {key!r}", "unknown_field")
        lines = []
        for outcome in WINNING_OUTCOMES:
            if outcome.value not in data:
                raise ValidationError(
                    f"{field}.{outcome.value}", "every winning outcome must be listed", "missing"
                )
            lines.append(
                (outcome, _line_from_json(data[outcome.value], f"{field}.{outcome.value}"))
            )
        return cls(tuple(lines))


def _line_from_json(raw: Any, field: str) -> PayLine:
    data = expect_object(raw, field)
    expect_keys(data, field, required={"odds"}, optional={"meter_bp", "pool", "envy"})
    odds = expect_int(data["odds"], f"{field}.odds", 0, MAX_ODDS)
    meter_bp = expect_int(data.get("meter_bp", 0), f"{field}.meter_bp", 0, FULL_METER_BP)
    pool = None
    if "pool" in data:
        pool = parse_identifier(data["pool"], f"{field}.pool")
        if not meter_bp:
            raise ValidationError(f"{field}.pool", "a pool is named only with meter_bp")
    envy = None
    if "envy" in data:
        envy = _envy_from_json(data["envy"], f"{field}.envy")
    return PayLine(odds=odds, meter_bp=meter_bp, pool=pool, envy=envy)


def _envy_from_json(raw: Any, field: str) -> Envy:
    data = expect_object(raw, field)
    expect_keys(data, field, required=set(), optional={"multiple", "amount"})
    if len(data) != 1:
        raise ValidationError(field, "envy is either {'multiple': N} or {'amount': cents}")
    if "multiple" in data:
        return Envy(
            multiple=expect_int(data["multiple"], f"{field}.multiple", 1, MAX_ENVY_MULTIPLE)
        )
    return Envy(amount=expect_int(data["amount"], f"{field}.amount", 1, MAX_ENVY_AMOUNT))


def _seed() -> Paytable:
    odds: Mapping[Outcome, int] = {
        Outcome.SUITED_FOUR_OF_A_KIND: 1000,
        Outcome.SUITED_DOUBLE_TIE: 200,
        Outcome.FOUR_OF_A_KIND: 150,
        Outcome.DOUBLE_TIE: 30,
        Outcome.SUITED_TIE: 15,
        Outcome.TIE: 5,
    }
    lines = []
    for outcome in WINNING_OUTCOMES:
        if outcome is Outcome.SUITED_FOUR_OF_A_KIND:
            # 205 CMR §11: 1000 to 1 plus 100% of the meter; envy $1,000 on a $5 wager.
            line = PayLine(odds[outcome], meter_bp=FULL_METER_BP, envy=Envy(multiple=200))
        else:
            line = PayLine(odds[outcome])
        lines.append((outcome, line))
    return Paytable(tuple(lines))


#: The Massachusetts "Casino War Progressive" paytable (docs/RULES.md §3), the default.
SEED_PAYTABLE = _seed()
