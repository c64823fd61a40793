"""Reconcile a pool over a period from its journal (docs/RULES.md §5):
opening balance + contributions − pays + seed funding ± adjustments = closing balance.
A voided round's entry counts against the movements it takes back (docs/RULES.md §6)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from jackpot.domain.answers import (
    BOOLEAN,
    CENTS,
    INTEGER,
    MS,
    TEXT,
    Derived,
    OrNull,
    Plain,
    answer_field,
)
from jackpot.domain.answers import to_json as write
from jackpot.domain.meter import UNITS_PER_CENT

BALANCE = "value_units"  # an entry with it carries the pool's balances after it
# the balances and movements also answered in whole cents, in this order
CENTS_OF = ("opening", "closing", "contributions", "pays", "seed", "adjustments")


UNITS = Plain("integer", f"exact units, {UNITS_PER_CENT:,} to the cent")
SEQ = OrNull(Plain("integer", "a journal entry's seq"))


def _cents(name: str) -> Derived:
    return Derived(name, CENTS, f"{name}_units in whole cents, rounded down")


@dataclass(frozen=True, slots=True)
class Reconciliation:
    """A period's movements in exact units; `balanced` when the books close. Declared as an
    answer (jackpot.domain.answers): the worker stores its JSON, GET /v1/reports/{id}
    answers it."""

    NAME: ClassVar[str] = "Reconciliation"
    DOC: ClassVar[str] = (
        "a pool's books over [from_ts, to_ts): opening + contributions - pays + seed "
        "+ adjustments = closing"
    )
    DERIVED: ClassVar[tuple[Derived, ...]] = (
        Derived("expected_closing_units", UNITS, "what the movements make of the opening"),
        Derived("balanced", BOOLEAN, "the closing balance is the expected one"),
        *(_cents(name) for name in CENTS_OF),
    )

    pool: str = answer_field(TEXT)
    from_ts: int = answer_field(MS, "the period's start, included")
    to_ts: int = answer_field(MS, "the period's end, left out")
    first_seq: int | None = answer_field(SEQ, "its first entry; null: none in it")
    last_seq: int | None = answer_field(SEQ, "its last entry; null: none in it")
    opening_units: int = answer_field(UNITS, "the balance before it")
    contributions_units: int = answer_field(UNITS, "what wagers put in")
    pays_units: int = answer_field(UNITS, "what was paid out")
    seed_units: int = answer_field(UNITS, "the house's funding of resets")
    adjustments_units: int = answer_field(UNITS, "audited manual movements, net")
    closing_units: int = answer_field(UNITS, "the balance its last entry recorded")
    rounds: int = answer_field(INTEGER, "rounds in it")
    hits: int = answer_field(INTEGER, "hits in it")

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

    @property
    def opening(self) -> int:
        return self.opening_units // UNITS_PER_CENT

    @property
    def closing(self) -> int:
        return self.closing_units // UNITS_PER_CENT

    @property
    def contributions(self) -> int:
        return self.contributions_units // UNITS_PER_CENT

    @property
    def pays(self) -> int:
        return self.pays_units // UNITS_PER_CENT

    @property
    def seed(self) -> int:
        return self.seed_units // UNITS_PER_CENT

    @property
    def adjustments(self) -> int:
        return self.adjustments_units // UNITS_PER_CENT

    def to_json(self) -> dict[str, Any]:
        return write(self)


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
