"""The pools section: each pool's day from its journal (`pool_day`), and what a pool owes
across days (`unpaid_before`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from jackpot.domain.dayclose.amounts import money
from jackpot.domain.dayclose.layouts import (
    HAND_PAYS_OWED,
    LAYOUT_VERSION,
    OWED_STEMS,
    VOIDS_APART,
    Entry,
)
from jackpot.domain.meter import UNITS_PER_CENT

#: the entries after which a jackpot is no longer owed (a void cancels it)
SETTLED = frozenset({"payout_paid", "payout_voided"})


@dataclass(slots=True)
class PoolDay:
    """One pool over one gaming day, in units (cents for jackpot amounts)."""

    pool: str
    opening_meter: int = 0
    opening_reserve: int = 0
    closing_meter: int = 0
    closing_reserve: int = 0
    contributions_meter: int = 0  # to the visible meter
    contributions_reserve: int = 0  # to the hidden reserve, overflow included
    overflow: int = 0  # the part of contributions_reserve diverted by the cap
    jackpots: int = 0
    jackpots_cents: int = 0
    seed_funding: int = 0  # house money topping a reset up
    initial_seed: int = 0  # the pool's starting balance, when it was created this day
    adjustments: int = 0
    voided_contributions: int = 0  # contributions voided rounds took back (units)
    returned_jackpots: int = 0  # jackpots of voided rounds, back on the meter
    returned_jackpots_cents: int = 0
    seed_returned: int = 0  # reset funding of voided hits given back to the house (units)
    # what is owed (jackpots won, this day or before, not yet paid): at open, paid and voided
    # in the day, and at close; owed at open + won − paid − voided = owed at close
    owed_count: int = 0
    owed_cents: int = 0
    paid_count: int = 0
    paid_cents: int = 0
    voided_count: int = 0  # voided while owed (a round's void or the jackpot's own)
    voided_cents: int = 0
    unpaid_count: int = 0  # jackpots won (this day or before) not yet paid at close
    unpaid_cents: int = 0
    # the hand pays (fixed and envy pays held for verification, journaled in this pool's
    # journal; they move none of its money) rolled the same way: owed at open + held − paid
    # − voided = owed at close (layout 6, D300)
    hand_owed_count: int = 0
    hand_owed_cents: int = 0
    hand_count: int = 0  # held this day
    hand_cents: int = 0
    hand_paid_count: int = 0
    hand_paid_cents: int = 0
    hand_voided_count: int = 0  # voided while owed (a round's void or the hand pay's own)
    hand_voided_cents: int = 0
    hand_unpaid_count: int = 0
    hand_unpaid_cents: int = 0
    first_seq: int | None = None
    last_seq: int | None = None
    # the hand pays not yet paid at close (payout: cents): carried to the next day
    hand_pays_unpaid: dict[str, int] = field(default_factory=dict)

    @property
    def expected_closing(self) -> int:
        return (
            self.opening_meter
            + self.opening_reserve
            + self.contributions_meter
            + self.contributions_reserve
            - self.jackpots_cents * UNITS_PER_CENT
            + self.seed_funding
            + self.initial_seed
            + self.adjustments
            - self.voided_contributions
            + self.returned_jackpots_cents * UNITS_PER_CENT
            - self.seed_returned
        )

    @property
    def balanced(self) -> bool:
        return self.expected_closing == self.closing_meter + self.closing_reserve

    def row(self, layout: int = LAYOUT_VERSION) -> dict[str, Any]:
        if layout < VOIDS_APART:
            return self._row_before_voids_apart()
        row = self._row_with_voids_apart()
        if layout >= HAND_PAYS_OWED:  # after every figure before it: an import by position
            row |= {
                "hand_pays_owed_at_open_count": self.hand_owed_count,
                "hand_pays_owed_at_open_cents": self.hand_owed_cents,
                "hand_pays_count": self.hand_count,
                "hand_pays_cents": self.hand_cents,
                "paid_hand_pays_count": self.hand_paid_count,
                "paid_hand_pays_cents": self.hand_paid_cents,
                "voided_hand_pays_count": self.hand_voided_count,
                "voided_hand_pays_cents": self.hand_voided_cents,
                "unpaid_hand_pays_count": self.hand_unpaid_count,
                "unpaid_hand_pays_cents": self.hand_unpaid_cents,
            }
        return row

    def _row_with_voids_apart(self) -> dict[str, Any]:
        """The row of layout 5: what the pool owes beside what moved its meter."""
        liability = self.closing_meter + self.closing_reserve + self.unpaid_cents * UNITS_PER_CENT
        return {
            "pool": self.pool,
            **money("opening_meter", self.opening_meter),
            **money("opening_reserve", self.opening_reserve),
            **money("contributions_meter", self.contributions_meter),
            **money("contributions_reserve", self.contributions_reserve),
            **money("overflow", self.overflow),
            "jackpots_count": self.jackpots,
            "jackpots_cents": self.jackpots_cents,
            **money("seed_funding", self.seed_funding),
            **money("initial_seed", self.initial_seed),
            **money("adjustments", self.adjustments),
            **money("voided_contributions", self.voided_contributions),
            "returned_jackpots_count": self.returned_jackpots,
            "returned_jackpots_cents": self.returned_jackpots_cents,
            **money("seed_returned", self.seed_returned),
            **money("closing_meter", self.closing_meter),
            **money("closing_reserve", self.closing_reserve),
            "owed_at_open_count": self.owed_count,
            "owed_at_open_cents": self.owed_cents,
            "paid_jackpots_count": self.paid_count,
            "paid_jackpots_cents": self.paid_cents,
            "voided_jackpots_count": self.voided_count,
            "voided_jackpots_cents": self.voided_cents,
            "unpaid_jackpots_count": self.unpaid_count,
            "unpaid_jackpots_cents": self.unpaid_cents,
            **money("liability", liability),
            **money("expected_closing", self.expected_closing),
            "balanced": self.balanced,
            "first_seq": self.first_seq,
            "last_seq": self.last_seq,
        }

    def _row_before_voids_apart(self) -> dict[str, Any]:
        """The row of layouts 1–4: voided rounds' jackpots back on the meter under
        `voided_jackpots`, and nothing of what was owed at open, paid or voided."""
        unrecorded = {f"{s}_{p}" for s in OWED_STEMS for p in ("count", "cents")}
        old = {"returned_jackpots_count": "voided_jackpots_count",
               "returned_jackpots_cents": "voided_jackpots_cents"}  # fmt: skip
        row = self._row_with_voids_apart()
        return {old.get(k, k): v for k, v in row.items() if k not in unrecorded}


def pool_day(
    pool: str,
    opening: Entry | None,
    entries: Iterable[Entry],
    unpaid_before: Mapping[str, int],
    hand_pays_before: Mapping[str, int] | None = None,
) -> tuple[PoolDay, dict[str, int]]:
    """The day of `pool` from its last balance entry before the day (`opening`) and the
    day's entries in order; `unpaid_before` maps jackpots unpaid at the day's start to their
    cents, `hand_pays_before` the hand pays. Returns the day and the jackpots unpaid at its
    close (the hand pays unpaid at close are the day's `hand_pays_unpaid`).

    A hand pay rolls as a jackpot does, from the same entries: held by its `hand_pay` entry,
    paid by `payout_paid`, voided while owed by `payout_voided` (its own void, or its round's,
    which writes the same entry); one paid and then voided was paid (D287), and is not voided
    again."""
    walk = _PoolWalk(_opened(pool, opening, unpaid_before, hand_pays_before or {}))
    walk.unpaid = dict(unpaid_before)
    for e in entries:
        walk.feed(e)
    return walk.closed()


def _opened(
    pool: str, opening: Entry | None, unpaid: Mapping[str, int], hand: Mapping[str, int]
) -> PoolDay:
    """The pool's day at its open: its balances, and the jackpots and hand pays it owes."""
    day = PoolDay(pool, hand_pays_unpaid=dict(hand))
    day.owed_count, day.owed_cents = len(unpaid), sum(unpaid.values())
    day.hand_owed_count, day.hand_owed_cents = len(hand), sum(hand.values())
    if opening is not None:
        day.opening_meter = day.closing_meter = int(opening["value_units"])
        day.opening_reserve = day.closing_reserve = int(opening.get("reserve_units", 0))
    return day


@dataclass(slots=True)
class _PoolWalk:
    """A pool's day fed its entries in order: the movements summed, what is owed rolled (the
    hand pays held in the day's `hand_pays_unpaid`, the jackpots in `unpaid`)."""

    day: PoolDay
    unpaid: dict[str, int] = field(default_factory=dict)  # jackpots owed: payout -> cents

    def feed(self, e: Entry) -> None:
        day = self.day
        day.first_seq = e["seq"] if day.first_seq is None else day.first_seq
        day.last_seq = e["seq"]
        kind = e["type"]
        if kind in SETTLED:
            self._settled(kind, str(e["payout"]))
        elif kind in _MOVES:
            _MOVES[kind](self, e)
        if "value_units" in e:
            day.closing_meter = int(e["value_units"])
            day.closing_reserve = int(e.get("reserve_units", 0))

    def closed(self) -> tuple[PoolDay, dict[str, int]]:
        """The day at its close, and the jackpots still owed then."""
        day, hand = self.day, self.day.hand_pays_unpaid
        day.unpaid_count, day.unpaid_cents = len(self.unpaid), sum(self.unpaid.values())
        day.hand_unpaid_count, day.hand_unpaid_cents = len(hand), sum(hand.values())
        return day, self.unpaid

    def _created(self, e: Entry) -> None:
        self.day.initial_seed += int(e["value_units"]) + int(e.get("reserve_units", 0))

    def _contribution(self, e: Entry) -> None:
        self.day.contributions_meter += int(e["to_visible_units"])
        self.day.contributions_reserve += int(e["to_reserve_units"])
        self.day.overflow += int(e.get("overflow_units", 0))

    def _hit(self, e: Entry) -> None:
        self.day.jackpots += 1
        self.day.jackpots_cents += int(e["amount"])
        self.unpaid[str(e["payout"])] = int(e["amount"])

    def _hand_pay(self, e: Entry) -> None:
        """A fixed or envy pay held: no money of the pool's moves."""
        self.day.hand_count += 1
        self.day.hand_cents += int(e["amount"])
        self.day.hand_pays_unpaid[str(e["payout"])] = int(e["amount"])

    def _reset(self, e: Entry) -> None:
        self.day.seed_funding += int(e["seed_units"])

    def _adjustment(self, e: Entry) -> None:
        """An adjustment, or a transfer: a retired pool's balance."""
        self.day.adjustments += int(e["amount_units"])

    def _void(self, e: Entry) -> None:
        """A voided round, in the day of the void (docs/RULES.md §6)."""
        day = self.day
        day.voided_contributions += int(e["contributions_units"])
        day.returned_jackpots += int(e["jackpots"])
        day.returned_jackpots_cents += int(e["jackpots_cents"])
        day.seed_returned += int(e["seed_returned_units"])
        day.seed_funding += int(e["topup_seed_units"])

    def _settled(self, kind: str, payout: str) -> None:
        """A payout paid or voided: no longer owed. Voided while owed only: a hand pay or a
        jackpot paid and then voided was paid."""
        day, hand = self.day, self.day.hand_pays_unpaid
        if payout in hand:
            held = hand.pop(payout)
            if kind == "payout_paid":
                day.hand_paid_count += 1
                day.hand_paid_cents += held
            else:
                day.hand_voided_count += 1
                day.hand_voided_cents += held
            return
        owed = self.unpaid.pop(payout, None)
        if owed is not None and kind == "payout_paid":
            day.paid_count, day.paid_cents = day.paid_count + 1, day.paid_cents + owed
        elif owed is not None:
            day.voided_count, day.voided_cents = day.voided_count + 1, day.voided_cents + owed


#: what each kind of pool entry moves in its day (a payout's steps: `_PoolWalk._settled`)
_MOVES: dict[str, Callable[[_PoolWalk, Entry], None]] = {
    "created": _PoolWalk._created,
    "contribution": _PoolWalk._contribution,
    "hit": _PoolWalk._hit,
    "hand_pay": _PoolWalk._hand_pay,
    "reset": _PoolWalk._reset,
    "adjustment": _PoolWalk._adjustment,
    "transfer": _PoolWalk._adjustment,
    "void": _PoolWalk._void,
}


def unpaid_before(entries: Iterable[Entry], held: str = "hit") -> dict[str, int]:
    """The jackpots a pool's journal leaves unpaid (payout: amount in cents), from its
    entries up to a day's start: where a pool's first closed day takes its liability from;
    with `held` "hand_pay", the hand pays it leaves unpaid (where the first day of layout 6
    takes the hand pays owed at its open)."""
    unpaid: dict[str, int] = {}
    for e in entries:
        kind = e.get("type")
        if kind == held:
            unpaid[str(e["payout"])] = int(e["amount"])
        elif kind in SETTLED:
            unpaid.pop(str(e["payout"]), None)
    return unpaid
