"""What the gaming-day close computes: a day's accounting from its journals and rounds (pure:
no store; the close itself, archiving first and recording once, is jackpot.services.dayclose;
a day's bounds are jackpot.domain.gamingday).

A day's statement has four sections, each a list of flat rows (the JSON statement and the
CSV files share them):

* pools (`pool_day`): opening and closing meter and reserve, the day's movements, the
  liability at close, and whether opening + movements = closing to the unit;
* tables (`table_days`): rounds, side bets, handle, pays by kind, win and hold, and counts
  per outcome;
* hits (`hit_register`): every jackpot and hand pay won that day, with its status at close
  and who verified, disputed or voided it;
* table_counts (`table_count_row`): each table's own counts of the day beside the
  controller's, and whether they match.

A jackpot still unpaid at a day's close is carried into the next day (`unpaid_before`), so
each day's liability counts it until it is paid or voided.

Money inside the controller is in units of 1/10,000 cent. A statement gives each amount in whole
cents, and where an amount can hold a fraction of a cent (meters, reserves, contributions,
seed funding, adjustments, overflow) the remainder in units in its own `_subcent_units` column:
cents × 10,000 + subcent units is the exact amount, and no fraction of a cent is lost.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from jackpot.domain.auth import a_tables_key
from jackpot.domain.meter import UNITS_PER_CENT

Entry = Mapping[str, Any]
# 2: the hit register names people (each key's holder) and adds the payer, witness, slip and
# approval; 3: it names each meter hit's level type, and a hidden trigger's reveal (the
# trigger, whole cents, and the commitment it opens); 4: and the salt that, with the trigger,
# opens it, so the register alone checks the reveal; 5: voids apart (D278): the pools' jackpots
# owed at open, paid and voided beside those won (won − paid − voided moves what is owed), the
# jackpots voided rounds put back on the meter as `returned_jackpots` (layouts 1–4 called them
# `voided_jackpots`), each hit's void reason and who asked for it, and a `voids` section: every
# void made in the day with who asked, who approved and why; 6: the hand pays owed rolled
# over the day in the pool whose journal holds them (D300): owed at open + held − paid −
# voided = owed at close, and the statement's `hand_pays_unpaid_at_close` carries them to the
# next day. A day recorded in an earlier layout is computed again in it
LAYOUT_VERSION = 6
LAYOUTS = (1, 2, 3, 4, 5, 6)
#: the first layout with voids apart
VOIDS_APART = 5
#: the first layout with the hand pays owed rolled over the day
HAND_PAYS_OWED = 6

#: a payout's journal entries and the status each leaves it in
VERDICTS = {
    "payout_confirmed": "awaiting_approval",
    "payout_paid": "paid",
    "payout_disputed": "disputed",
    "payout_voided": "void",
}
#: the entries after which a jackpot is no longer owed (a void cancels it)
SETTLED = frozenset({"payout_paid", "payout_voided"})


#: what a closed day's digest covers: its record as the archive keeps it
DAY_FIELDS = ("day", "start_ts", "end_ts", "closed_at", "heads", "report", "version")


def closed_day_digest(row: Mapping[str, Any]) -> str:
    """SHA-256 of a closed day's record (its canonical JSON): journaled when it is closed, so
    a record rewritten afterwards no longer matches (docs/DECISIONS.md D87)."""
    body = json.dumps({k: row[k] for k in DAY_FIELDS}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(body.encode()).hexdigest()


def money(name: str, units: int) -> dict[str, int]:
    """An exact amount in units as whole cents and the sub-cent remainder (0..9,999 units)."""
    cents, rest = divmod(units, UNITS_PER_CENT)
    return {f"{name}_cents": cents, f"{name}_subcent_units": rest}


def percent(part: int, whole: int) -> str:
    """part / whole as a percentage with two decimals, rounded half away from zero, exactly."""
    if whole == 0:
        return ""
    sign = "-" if (part < 0) != (whole < 0) and part != 0 else ""
    hundredths, rest = divmod(abs(part) * 10_000, abs(whole))
    if rest * 2 >= abs(whole):
        hundredths += 1
    return f"{sign}{hundredths // 100}.{hundredths % 100:02d}"


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


#: the figures of what is owed that layout 5 added (and the old `voided_jackpots`' new sense)
OWED_STEMS = ("owed_at_open", "paid_jackpots", "voided_jackpots")
#: the hand pays' figures layout 6 added, each a `_count` and a `_cents`
HAND_PAY_STEMS = (
    "hand_pays_owed_at_open",
    "hand_pays",
    "paid_hand_pays",
    "voided_hand_pays",
    "unpaid_hand_pays",
)


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
    day = PoolDay(pool)
    day.owed_count, day.owed_cents = len(unpaid_before), sum(unpaid_before.values())
    hand = dict(hand_pays_before or {})
    day.hand_owed_count, day.hand_owed_cents = len(hand), sum(hand.values())
    if opening is not None:
        day.opening_meter = day.closing_meter = int(opening["value_units"])
        day.opening_reserve = day.closing_reserve = int(opening.get("reserve_units", 0))
    unpaid = dict(unpaid_before)
    for e in entries:
        day.first_seq = e["seq"] if day.first_seq is None else day.first_seq
        day.last_seq = e["seq"]
        kind = e["type"]
        if kind == "created":
            day.initial_seed += int(e["value_units"]) + int(e.get("reserve_units", 0))
        elif kind == "contribution":
            day.contributions_meter += int(e["to_visible_units"])
            day.contributions_reserve += int(e["to_reserve_units"])
            day.overflow += int(e.get("overflow_units", 0))
        elif kind == "hit":
            day.jackpots += 1
            day.jackpots_cents += int(e["amount"])
            unpaid[str(e["payout"])] = int(e["amount"])
        elif kind == "hand_pay":  # a fixed or envy pay held: no money of the pool's moves
            day.hand_count += 1
            day.hand_cents += int(e["amount"])
            hand[str(e["payout"])] = int(e["amount"])
        elif kind == "reset":
            day.seed_funding += int(e["seed_units"])
        elif kind in ("adjustment", "transfer"):  # a transfer: a retired pool's balance
            day.adjustments += int(e["amount_units"])
        elif kind == "void":  # a voided round, in the day of the void (docs/RULES.md §6)
            day.voided_contributions += int(e["contributions_units"])
            day.returned_jackpots += int(e["jackpots"])
            day.returned_jackpots_cents += int(e["jackpots_cents"])
            day.seed_returned += int(e["seed_returned_units"])
            day.seed_funding += int(e["topup_seed_units"])
        elif kind in SETTLED and str(e["payout"]) in hand:
            held = hand.pop(str(e["payout"]))
            if kind == "payout_paid":
                day.hand_paid_count += 1
                day.hand_paid_cents += held
            else:  # voided while owed: a hand pay paid and then voided was paid
                day.hand_voided_count += 1
                day.hand_voided_cents += held
        elif kind in SETTLED:
            owed = unpaid.pop(str(e["payout"]), None)
            if owed is not None and kind == "payout_paid":
                day.paid_count, day.paid_cents = day.paid_count + 1, day.paid_cents + owed
            elif owed is not None:  # voided while owed: a jackpot paid and then voided was paid
                day.voided_count, day.voided_cents = day.voided_count + 1, day.voided_cents + owed
        if "value_units" in e:
            day.closing_meter = int(e["value_units"])
            day.closing_reserve = int(e.get("reserve_units", 0))
    day.unpaid_count, day.unpaid_cents = len(unpaid), sum(unpaid.values())
    day.hand_unpaid_count, day.hand_unpaid_cents = len(hand), sum(hand.values())
    day.hand_pays_unpaid = hand
    return day, unpaid


@dataclass(slots=True)
class TableDay:
    table: str
    rounds: int = 0
    side_bets: int = 0
    handle_cents: int = 0
    fixed_pays_cents: int = 0
    envy_pays_cents: int = 0
    jackpot_pays_cents: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)
    # voids made this day, of rounds of this day or before (a correction in the day it is made)
    voided_rounds: int = 0  # rounds voided whole
    voided_bets: int = 0
    voided_handle_cents: int = 0
    voided_fixed_pays_cents: int = 0
    voided_envy_pays_cents: int = 0
    voided_jackpot_pays_cents: int = 0

    @property
    def win_cents(self) -> int:
        """The house's win net of the day's voids."""
        played = (
            self.handle_cents
            - self.fixed_pays_cents
            - self.envy_pays_cents
            - self.jackpot_pays_cents
        )
        voided = (
            self.voided_handle_cents
            - self.voided_fixed_pays_cents
            - self.voided_envy_pays_cents
            - self.voided_jackpot_pays_cents
        )
        return played - voided

    @property
    def net_handle_cents(self) -> int:
        return self.handle_cents - self.voided_handle_cents

    def hold_percent(self, layout: int = LAYOUT_VERSION) -> str:
        """The win over the handle net of voids; from layout 5 empty where that handle is 0 or
        less (a later day's voids beyond the day's play: no hold to speak of, D278)."""
        if layout >= VOIDS_APART and self.net_handle_cents <= 0:
            return ""
        return percent(self.win_cents, self.net_handle_cents)

    def row(self, outcome_names: Iterable[str], layout: int = LAYOUT_VERSION) -> dict[str, Any]:
        return {
            "table": self.table,
            "rounds": self.rounds,
            "side_bets": self.side_bets,
            "handle_cents": self.handle_cents,
            "fixed_pays_cents": self.fixed_pays_cents,
            "envy_pays_cents": self.envy_pays_cents,
            "jackpot_pays_cents": self.jackpot_pays_cents,
            "voided_rounds": self.voided_rounds,
            "voided_bets": self.voided_bets,
            "voided_handle_cents": self.voided_handle_cents,
            "voided_fixed_pays_cents": self.voided_fixed_pays_cents,
            "voided_envy_pays_cents": self.voided_envy_pays_cents,
            "voided_jackpot_pays_cents": self.voided_jackpot_pays_cents,
            "win_cents": self.win_cents,
            "hold_percent": self.hold_percent(layout),
            **{f"outcome_{name}": self.outcomes.get(name, 0) for name in outcome_names},
        }


def table_days(
    rounds: Iterable[tuple[Mapping[str, Any], Mapping[str, Any]]],
    voids: Iterable[Entry] = (),
) -> list[TableDay]:
    """Per table, from each round's stored result (static and dynamic parts) and the house
    journal's void entries of the day."""
    tables: dict[str, TableDay] = {}
    for v in voids:
        t = tables.setdefault(str(v["table"]), TableDay(str(v["table"])))
        t.voided_rounds += 1 if int(v["whole"]) else 0
        t.voided_bets += int(v["bets"])
        t.voided_handle_cents += int(v["wagered"])
        t.voided_fixed_pays_cents += int(v["fixed"])
        t.voided_envy_pays_cents += int(v["envy"])
        t.voided_jackpot_pays_cents += int(v["jackpot"])
    for static, dynamic in rounds:
        t = tables.setdefault(str(static["table"]), TableDay(str(static["table"])))
        t.rounds += 1
        for bet in static["spots"]:
            t.side_bets += 1 if int(bet["wager"]) > 0 else 0
            t.handle_cents += int(bet["wager"])
            t.fixed_pays_cents += int(bet["pay"])
            t.envy_pays_cents += int(bet["envy"])
            outcome = str(bet["outcome"])
            t.outcomes[outcome] = t.outcomes.get(outcome, 0) + 1
        t.jackpot_pays_cents += sum(int(jp["amount"]) for jp in dynamic["jackpots"])
    return [tables[k] for k in sorted(tables)]


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


def hit_register(
    pool: str,
    rows: Iterable[Entry],
    iso: Callable[[int], str],
    people: Mapping[str, str] | None = None,
    layout: int = LAYOUT_VERSION,
    round_voids: Iterable[Entry] = (),
) -> list[dict[str, Any]]:
    """The hits section of a pool's day, from its journal entries of the day: each hit (a
    meter hit, or a hand pay: a large fixed or envy pay) with its status at close, who
    verified it (confirmed or paid it) and, apart, who disputed or voided it. From layout 2
    each person is named as a person (`people`: a key's `who` -> its holder, the key's label;
    the key itself when it has none), with the pay's payer, witness and slip, and who
    approved it and when. From layout 3 each meter hit names its level's type (`hand`,
    `must_hit_by`, `mystery`) and a trigger level's hit the trigger it revealed (cents) and
    the commitment that trigger opens; from layout 4 the salt it opens it with too; from
    layout 5 a voided one's reason and who asked for its void (of a jackpot voided with its
    round, who asked for the round's: `round_voids`, the house journals' void entries)."""
    rows = list(rows)
    # a round's void asked by one person and applied by another: its jackpots' entries are the
    # applier's, at the house entry's time
    round_askers = {
        (str(v["table"]), str(v["round"]), int(v["ts"])): str(v.get("requested_by") or v["who"])
        for v in round_voids
    }
    verdicts: dict[str, Entry] = {}  # the last step of each payout
    steps: dict[str, dict[str, Entry]] = {}  # its last step of each kind
    for e in rows:
        if e["type"] in VERDICTS:
            verdicts[str(e["payout"])] = e
            steps.setdefault(str(e["payout"]), {})[str(e["type"])] = e
    if layout == 1:
        people = None
    named: Callable[[str], str] = (
        (lambda who: who) if people is None else (lambda who: people.get(who) or who)
    )
    out = []
    for e in rows:
        if e["type"] not in ("hit", "hand_pay"):
            continue
        verdict = verdicts.get(str(e["payout"]))
        status = "pending" if verdict is None else VERDICTS[str(verdict["type"])]
        mine = steps.get(str(e["payout"]), {})
        paid, confirmed = mine.get("payout_paid"), mine.get("payout_confirmed")
        row = {
            "time": iso(int(e["ts"])),
            "pool": pool,
            "kind": e.get("kind", "meter"),
            "payout": e["payout"],
            "table": e["table"],
            "round": e["round"],
            "spot": e["spot"],
            "player": e.get("player", ""),
            "outcome": e["outcome"],
            "amount_cents": e["amount"],
            "status_at_close": status,
        }
        if layout == 1:
            row |= _step("verified", paid or confirmed, iso, named)
        else:
            # approved: a paid entry that names its confirmer (a second person approved it)
            approved = paid if paid is not None and paid.get("confirmed_by") else None
            if approved is not None and confirmed is None:
                # confirmed on an earlier day: the approval's entry names who confirmed it
                confirmed = {**approved, "who": approved["confirmed_by"]}
            verified = confirmed if approved is not None else paid or confirmed
            row |= _step("verified", verified, iso, named)
            pay = paid or confirmed or {}
            row |= {
                "paid_by": str(pay.get("paid_by", "")),
                "witness": str(pay.get("witness", "")),
                "slip": str(pay.get("slip", "")),
            }
            row |= _step("approved", approved, iso, named)
        row |= _step("disputed", mine.get("payout_disputed"), iso, named)
        row |= _step("voided", mine.get("payout_voided"), iso, named)
        if layout >= 3:
            trigger = e.get("trigger_cents")
            row |= {
                "level": "" if e["type"] == "hand_pay" else str(e.get("level") or "hand"),
                "trigger": None if trigger is None else int(trigger),
                "commitment": str(e.get("commitment") or ""),
            }
        if layout >= 4:
            row["salt"] = str(e.get("salt") or "")
        if layout >= VOIDS_APART:
            voided = mine.get("payout_voided")
            asker = ""
            if voided is not None:
                at = (str(voided["table"]), str(voided["round"]), int(voided["ts"]))
                asker = round_askers.get(at) or str(voided.get("requested_by") or voided["who"])
            row["void_asked_by"] = named_as(asker, people or {}) if asker else ""
            row["void_reason"] = "" if voided is None else str(voided.get("note") or "")
        out.append(row)
    return out


def named_as(who: str, people: Mapping[str, str], shown: str = "") -> str:
    """The holder of key `who` as the day's records name them: a person by name and number, a
    table's key by its label marked as a device (`pit 3 adapters (table key)`, D288), else the
    name shown when the step was taken, else the key."""
    name = people.get(who) or shown or who
    return f"{name} (table key)" if a_tables_key(who) and not name.endswith("(table key)") else name


def void_register(
    house_voids: Iterable[Entry],
    payout_voids: Iterable[tuple[str, Entry]],
    iso: Callable[[int], str],
    people: Mapping[str, str],
    approvals: Iterable[Entry] = (),
) -> list[dict[str, Any]]:
    """The voids section (layout 5): every void applied in the day, in time order, with who
    asked, who approved (a second person: empty when one person's void applied it) and why.

    * A round's void (`kind` round; the house journals' `void` entries): the round, the spots
      this void covered (`whole`: the round is void whole after it, a first void of every
      spot or the rest after some), the bets, handle and pays it took back, and how many
      jackpots it cancelled.
    * A payout's own void (`kind` payout; a pool journal's `payout_voided` entry that no
      round's void of the day wrote): the payout, its amount and the status it was voided
      from (a jackpot voided after it was paid was paid: nothing is taken back). A jackpot
      voided with its round is in its round's row, not again.

    `payout_voids` pairs each pool with its entry; a round's void writes its jackpots'
    entries with the same time, table and round as its house entry, which is how they are
    told apart (one script writes both). A void approved by several people (a table's,
    D226) names each in order, with each note: `approvals` are the house journals'
    `void_approved` entries up to the day's end."""

    def person(who: str, shown: str = "") -> str:
        return named_as(who, people, shown)

    # the approvals given before the one that applied a void (the house journals'
    # `void_approved` entries the void names in `approved_first_by`), each with its note
    earlier: dict[tuple[str, str, str], Entry] = {}
    for a in sorted(approvals, key=lambda a: int(a["ts"])):
        earlier[(str(a["table"]), str(a["round"]), str(a["who"]))] = a

    rounds = {(str(v["table"]), str(v["round"]), int(v["ts"])) for v in house_voids}
    cancelled: dict[tuple[str, str, int], int] = {}
    out: list[tuple[int, dict[str, Any]]] = []
    for pool, e in payout_voids:
        at = (str(e["table"]), str(e["round"]), int(e["ts"]))
        if at in rounds:
            cancelled[at] = cancelled.get(at, 0) + 1
            continue
        asker = str(e.get("requested_by") or "")
        out.append(
            (
                int(e["ts"]),
                void_row(
                    iso(int(e["ts"])),
                    "payout",
                    str(e["table"]),
                    str(e["round"]),
                    spots=str(e.get("spot", "")),
                    pool=pool,
                    payout=str(e["payout"]),
                    voided_from=str(e.get("from") or ""),
                    payout_cents=int(e["amount"]),
                    asked_by=person(asker, str(e.get("requester") or ""))
                    if asker
                    else person(str(e["who"])),
                    approved_by=person(str(e["who"]), str(e.get("approver") or ""))
                    if asker
                    else "",
                    reason=str(e.get("note") or ""),
                    approval_note=str(e.get("approval_note") or ""),
                ),
            )
        )
    for v in house_voids:
        who = str(v["who"])
        asker = str(v.get("requested_by") or who)
        at = (str(v["table"]), str(v["round"]), int(v["ts"]))
        # every person who approved it, in order, each note beside its approver
        firsts = [f for f in str(v.get("approved_first_by") or "").split(",") if f]
        approvers, notes = [], []
        for first in firsts:
            given = earlier.get((at[0], at[1], first), {})
            approvers.append(person(first, str(given.get("person") or "")))
            if given.get("note"):
                notes.append(f"{approvers[-1]}: {given['note']}")
        if asker != who:
            approvers.append(person(who, str(v.get("approver") or "")))
            if v.get("note"):
                notes.append(f"{approvers[-1]}: {v['note']}" if firsts else str(v["note"]))
        out.append(
            (
                int(v["ts"]),
                void_row(
                    iso(int(v["ts"])),
                    "round",
                    str(v["table"]),
                    str(v["round"]),
                    spots=" ".join(str(v.get("spots", "")).split(",")),
                    whole=str(v.get("whole")) == "1",
                    bets=int(v.get("bets") or 0),
                    handle_cents=int(v.get("wagered") or 0),
                    fixed_cents=int(v.get("fixed") or 0),
                    envy_cents=int(v.get("envy") or 0),
                    jackpot_cents=int(v.get("jackpot") or 0),
                    jackpots=cancelled.get(at, 0),
                    asked_by=person(asker, str(v.get("person") or "")),
                    approved_by=", then ".join(approvers),
                    reason=str(v.get("reason") or ""),
                    approval_note="; ".join(notes),
                ),
            )
        )
    out.sort(key=lambda pair: (pair[0], pair[1]["kind"], pair[1]["table"], pair[1]["payout"]))
    return [row for _, row in out]


def void_row(
    time: str,
    kind: str,
    table: str,
    round_id: str,
    *,
    spots: str = "",
    whole: bool = False,
    pool: str = "",
    payout: str = "",
    voided_from: str = "",
    bets: int = 0,
    handle_cents: int = 0,
    fixed_cents: int = 0,
    envy_cents: int = 0,
    jackpot_cents: int = 0,
    jackpots: int = 0,
    payout_cents: int = 0,
    asked_by: str = "",
    approved_by: str = "",
    reason: str = "",
    approval_note: str = "",
) -> dict[str, Any]:
    """One row of the voids section, every row with every field (the CSV's columns)."""
    return {
        "time": time,
        "kind": kind,
        "table": table,
        "round": round_id,
        "spots": spots,
        "whole": whole,
        "pool": pool,
        "payout": payout,
        "voided_from": voided_from,
        "bets": bets,
        "jackpots": jackpots,
        "handle_cents": handle_cents,
        "fixed_pays_cents": fixed_cents,
        "envy_pays_cents": envy_cents,
        "jackpot_pays_cents": jackpot_cents,
        "payout_amount_cents": payout_cents,
        "asked_by": asked_by,
        "approved_by": approved_by,
        "reason": reason,
        "approval_note": approval_note,
    }


def _step(
    name: str, entry: Entry | None, iso: Callable[[int], str], named: Callable[[str], str]
) -> dict[str, str]:
    """`<name>_by` (the person) and `<name>_at` of a payout's step ('' when not taken)."""
    if entry is None:
        return {f"{name}_by": "", f"{name}_at": ""}
    return {f"{name}_by": named(str(entry["who"])), f"{name}_at": iso(int(entry["ts"]))}


def table_count_row(
    check: Mapping[str, Any], iso: Callable[[int], str], layout: int = LAYOUT_VERSION
) -> dict[str, Any]:
    """A row of the table_counts section: the table's own counts of the day, the
    controller's, and whether they match (docs/RULES.md §5). From layout 5, `counted_through`:
    the time both sides counted to (the table's last answered round when it reported; the
    controller's figures are counted to the same time, so a round after it is in neither,
    while the tables section has the whole day), empty when the table named none."""
    row: dict[str, Any] = {"table": check["table"], "matches": not check["differences"]}
    for name, value in check["table_counts"].items():
        row[f"table_{name}"] = value
    for name, value in check["controller_counts"].items():
        row[f"controller_{name}"] = value
    if layout >= VOIDS_APART:
        through = check.get("through")
        row["counted_through"] = "" if through is None else iso(int(through))
    row["checked_at"] = iso(int(check["checked_at"]))
    return row


def outcome_names(days: Iterable[TableDay]) -> list[str]:
    return sorted({name for d in days for name in d.outcomes})


# the sections of a closed day's statement that are its figures, each row named by its key
FIGURES = {"pools": "pool", "tables": "table", "hits": "payout"}
#: sections whose rows are events in time order, compared whole (layout 5's voids)
EVENTS = ("voids",)


def figure_differences(recorded: Mapping[str, Any], recomputed: Mapping[str, Any]) -> list[str]:
    """Where a closed day's recorded figures and the same figures computed again from the
    archive differ, each as 'section row field: recorded X, the archive gives Y' (at most
    one line per row, the first field that differs)."""
    out = []
    for section, key in FIGURES.items():
        mine = {str(r[key]): r for r in recorded.get(section, [])}
        again = {str(r[key]): r for r in recomputed.get(section, [])}
        for name in sorted(mine.keys() | again.keys()):
            a, b = mine.get(name), again.get(name)
            if a is None:
                out.append(f"{section} {name}: not recorded, the archive has it")
            elif b is None:
                out.append(f"{section} {name}: recorded, the archive has no such {key}")
            elif a != b:
                field = next(f for f in sorted(a.keys() | b.keys()) if a.get(f) != b.get(f))
                out.append(
                    f"{section} {name} {field}: recorded {a.get(field)!r}, "
                    f"the archive gives {b.get(field)!r}"
                )
    for section in EVENTS:
        mine_rows, again_rows = recorded.get(section) or [], recomputed.get(section) or []
        if mine_rows != again_rows:
            pairs = zip(mine_rows, again_rows, strict=False)
            first = next((i for i, (a, b) in enumerate(pairs) if a != b), None)
            out.append(
                f"{section}: recorded {len(mine_rows)} row(s), the archive gives "
                f"{len(again_rows)}" + ("" if first is None else f" (row {first + 1} differs)")
            )
    for section in ("unpaid_at_close", "hand_pays_unpaid_at_close", "balanced"):
        if recorded.get(section) != recomputed.get(section):
            out.append(
                f"{section}: recorded {recorded.get(section)!r}, "
                f"the archive gives {recomputed.get(section)!r}"
            )
    return out
