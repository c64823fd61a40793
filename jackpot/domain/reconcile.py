"""Reconcile a pool over a period from its journal (docs/RULES.md §5):
opening balance + contributions − pays + seed funding ± adjustments = closing balance.
A voided round's entry counts against the movements it takes back (docs/RULES.md §6)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from jackpot.domain.meter import UNITS_PER_CENT

BALANCE = "value_units"  # an entry with it carries the pool's balances after it


@dataclass(frozen=True, slots=True)
class Reconciliation:
    """A period's movements in exact units; `balanced` when the books close."""

    pool: str
    from_ts: int
    to_ts: int
    first_seq: int | None
    last_seq: int | None
    opening_units: int
    contributions_units: int
    pays_units: int
    seed_units: int
    adjustments_units: int
    closing_units: int
    rounds: int
    hits: int

    @property
    def expected_closing_units(self) -> int:
        return (
            self.opening_units
            + self.contributions_units
            - self.pays_units
            + self.seed_units
            + self.adjustments_units
        )

    @property
    def balanced(self) -> bool:
        return self.expected_closing_units == self.closing_units

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["expected_closing_units"] = self.expected_closing_units
        out["balanced"] = self.balanced
        for name in ("opening", "closing", "contributions", "pays", "seed", "adjustments"):
            out[name] = out[f"{name}_units"] // UNITS_PER_CENT  # whole cents, rounded down
        return out


def reconcile(
    pool: str, entries: Iterable[Mapping[str, Any]], from_ts: int, to_ts: int
) -> Reconciliation:
    """Sum the journal entries with from_ts <= ts < to_ts; balances come from the entries."""
    period = _Period()
    for e in entries:
        balance = _balance(e)
        ts = int(e["ts"])
        if ts < from_ts:
            if balance is not None:
                period.opening = period.closing = balance
            continue
        if ts >= to_ts:
            break
        period.count(e, balance)
    return Reconciliation(
        pool,
        from_ts,
        to_ts,
        period.first,
        period.last,
        period.opening,
        period.contributions,
        period.pays,
        period.seed,
        period.adjustments,
        period.closing,
        period.rounds,
        period.hits,
    )


@dataclass(slots=True)
class _Period:
    """A period's sums so far, in units, fed its entries in order."""

    opening: int = 0
    closing: int = 0
    contributions: int = 0
    pays: int = 0
    seed: int = 0
    adjustments: int = 0
    rounds: int = 0
    hits: int = 0
    first: int | None = None
    last: int | None = None

    def count(self, e: Mapping[str, Any], balance: int | None) -> None:
        """An entry of the period: its movements summed, its balance the closing one."""
        self.first = e["seq"] if self.first is None else self.first
        self.last = e["seq"]
        if e["type"] == "created":
            # the pool's initial seed is its opening balance, not a movement
            self.opening = self.closing = balance or 0
            return
        move = _MOVES.get(e["type"])
        if move is not None:
            move(self, e)
        if balance is not None:
            self.closing = balance

    def _contribution(self, e: Mapping[str, Any]) -> None:
        self.contributions += int(e["to_visible_units"]) + int(e["to_reserve_units"])
        self.rounds += 1

    def _hit(self, e: Mapping[str, Any]) -> None:
        self.pays += int(e["amount"]) * UNITS_PER_CENT
        self.hits += 1

    def _reset(self, e: Mapping[str, Any]) -> None:
        self.seed += int(e["seed_units"])

    def _adjustment(self, e: Mapping[str, Any]) -> None:
        """An adjustment, or a transfer: a retired pool's balance."""
        self.adjustments += int(e["amount_units"])

    def _void(self, e: Mapping[str, Any]) -> None:
        """A voided round's: its contributions out, its jackpots back."""
        self.contributions -= int(e["contributions_units"])
        self.pays -= int(e["jackpots_cents"]) * UNITS_PER_CENT
        self.seed += int(e["topup_seed_units"]) - int(e["seed_returned_units"])


#: what each kind of entry moves in a period's sums
_MOVES: dict[str, Callable[[_Period, Mapping[str, Any]], None]] = {
    "contribution": _Period._contribution,
    "hit": _Period._hit,
    "reset": _Period._reset,
    "adjustment": _Period._adjustment,
    "transfer": _Period._adjustment,
    "void": _Period._void,
}


def _balance(entry: Mapping[str, Any]) -> int | None:
    if BALANCE not in entry:
        return None
    return int(entry["value_units"]) + int(entry.get("reserve_units", 0))
