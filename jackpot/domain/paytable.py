"""Paytables: per outcome an odds figure, an optional meter percentage, an optional envy."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from jackpot.domain.fields import Choice, Field, Identifier, Integer, Presence, Record, Rule
from jackpot.domain.outcomes import WINNING_OUTCOMES, Outcome

MAX_ODDS = 1_000_000
FULL_METER_BP = 10_000
MAX_ENVY_MULTIPLE = 100_000
MAX_ENVY_AMOUNT = 100_000_000  # $1M in cents
# The wager a meter pay is for (the seed paytable "reflects a $5 wager"), and what a smaller
# wager wins of it: nothing, or the share scaled by wager / qualifying wager
DEFAULT_QUALIFYING_WAGER = 500
MAX_QUALIFYING_WAGER = 10_000_000  # the largest wager a table may take ($100k)
PROPORTIONAL, NOTHING = "proportional", "nothing"
BELOW_QUALIFYING = (PROPORTIONAL, NOTHING)


POOL_WITH_METER = Rule("pool", "is named only with a non-zero meter_bp")
QUALIFYING_WITH_METER = Rule("qualifying_wager", "is named only with a non-zero meter_bp")
BELOW_WITH_METER = Rule("below_qualifying", "is named only with a non-zero meter_bp")

ENVY = Record(
    {
        "multiple": Field(Integer(1, MAX_ENVY_MULTIPLE), description="× the receiving wager"),
        "amount": Field(Integer(1, MAX_ENVY_AMOUNT), description="a fixed pay, cents"),
    },
    "The envy bonus every other qualifying bet at the table receives.",
    exactly_one="envy is either {'multiple': N} or {'amount': cents}",
)
PAYLINE = Record(
    {
        "odds": Field(Integer(0, MAX_ODDS), Presence.REQUIRED, "pays odds to 1"),
        "meter_bp": Field(
            Integer(0, FULL_METER_BP), description="basis points of the pool's visible meter"
        ),
        "pool": Field(Identifier(), description="the pool paid from; default the table's first"),
        "qualifying_wager": Field(
            Integer(1, MAX_QUALIFYING_WAGER),
            description="the wager (cents) the meter pay is for; default 500 ($5)",
        ),
        "below_qualifying": Field(
            Choice(BELOW_QUALIFYING),
            description="what a smaller wager wins of the meter: `proportional` (default: the "
            "share × wager ÷ qualifying wager) or `nothing`",
        ),
        "envy": Field(ENVY),
    },
    "One outcome's pays.",
    rules=(POOL_WITH_METER, QUALIFYING_WITH_METER, BELOW_WITH_METER),
)
#: A paytable as PUT /v1/tables/{table} gives it: every winning outcome, explicitly.
PAYTABLE = Record(
    {outcome.value: Field(PAYLINE, Presence.REQUIRED) for outcome in WINNING_OUTCOMES},
    "Every winning outcome's pays.",
    missing="every winning outcome must be listed",
    unknown="unknown outcome {key!r}",
    unknown_first=True,
)


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
    qualifying_wager: int = DEFAULT_QUALIFYING_WAGER  # of a meter pay (docs/RULES.md §4)
    below_qualifying: str = PROPORTIONAL

    def meter_scale(self, wager: int) -> tuple[int, int] | None:
        """What a bet of `wager` wins of the meter pay: None the whole share, (wager,
        qualifying wager) that part of it, (0, qualifying wager) nothing."""
        if wager >= self.qualifying_wager:
            return None
        if self.below_qualifying == NOTHING:
            return (0, self.qualifying_wager)
        return (wager, self.qualifying_wager)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"odds": self.odds}
        if self.meter_bp:
            out["meter_bp"] = self.meter_bp
            if self.pool is not None:
                out["pool"] = self.pool
            out["qualifying_wager"] = self.qualifying_wager
            out["below_qualifying"] = self.below_qualifying
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
        return cls.from_checked(PAYTABLE.check(raw, field), field)

    @classmethod
    def from_checked(cls, data: dict[str, Any], field: str = "paytable") -> Paytable:
        """The paytable of a body PAYTABLE has checked; the rules across fields applied."""
        return cls(
            tuple(
                (outcome, _line(data[outcome.value], f"{field}.{outcome.value}"))
                for outcome in WINNING_OUTCOMES
            )
        )


def _line(data: dict[str, Any], field: str) -> PayLine:
    meter_bp = data.get("meter_bp", 0)
    if not meter_bp:
        for rule in (POOL_WITH_METER, QUALIFYING_WITH_METER, BELOW_WITH_METER):
            if rule.field in data:
                raise rule.error(field, f"{rule.field} is named only with meter_bp")
    envy = Envy(**data["envy"]) if "envy" in data else None
    return PayLine(
        data["odds"],
        meter_bp,
        data.get("pool"),
        envy,
        data.get("qualifying_wager", DEFAULT_QUALIFYING_WAGER),
        data.get("below_qualifying", PROPORTIONAL),
    )


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
            # 205 CMR §11: 1000 to 1 plus 100% of the meter; envy $1,000 on a $5 wager. The
            # meter is for a $5 wager (the default): a smaller one wins its share of it.
            line = PayLine(odds[outcome], meter_bp=FULL_METER_BP, envy=Envy(multiple=200))
        else:
            line = PayLine(odds[outcome])
        lines.append((outcome, line))
    return Paytable(tuple(lines))


#: The Massachusetts "Casino War Progressive" paytable (docs/RULES.md §3), the default.
SEED_PAYTABLE = _seed()
