"""Reconcile a pool over a period from its journal (docs/RULES.md §5):
opening balance + contributions − pays + seed funding ± adjustments = closing balance.
A voided round's entry counts against the movements it takes back (docs/RULES.md §6)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
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
    opening = closing = 0
    contributions = pays = seed = adjustments = rounds = hits = 0
    first = last = None
    for e in entries:
        balance = _balance(e)
        ts = int(e["ts"])
        if ts < from_ts:
            if balance is not None:
                opening = closing = balance
            continue
        if ts >= to_ts:
            break
        first = e["seq"] if first is None else first
        last = e["seq"]
        kind = e["type"]
        if kind == "created":
            # the pool's initial seed is its opening balance, not a movement
            opening = closing = balance or 0
            continue
        if kind == "contribution":
            contributions += int(e["to_visible_units"]) + int(e["to_reserve_units"])
            rounds += 1
        elif kind == "hit":
            pays += int(e["amount"]) * UNITS_PER_CENT
            hits += 1
        elif kind == "reset":
            seed += int(e["seed_units"])
        elif kind in ("adjustment", "transfer"):  # a transfer: a retired pool's balance
            adjustments += int(e["amount_units"])
        elif kind == "void":  # a voided round's: its contributions out, its jackpots back
            contributions -= int(e["contributions_units"])
            pays -= int(e["jackpots_cents"]) * UNITS_PER_CENT
            seed += int(e["topup_seed_units"]) - int(e["seed_returned_units"])
        if balance is not None:
            closing = balance
    return Reconciliation(
        pool,
        from_ts,
        to_ts,
        first,
        last,
        opening,
        contributions,
        pays,
        seed,
        adjustments,
        closing,
        rounds,
        hits,
    )


def _balance(entry: Mapping[str, Any]) -> int | None:
    if BALANCE not in entry:
        return None
    return int(entry["value_units"]) + int(entry.get("reserve_units", 0))
