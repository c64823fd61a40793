"""A gaming day's statement computed from the archive: what the close reads for
jackpot.domain.dayclose to compute (each pool's journal of the day and what it owed at open,
the day's round records, checked against their entries first, the day's voids and their
approvals, who holds each key, and each journal's head at the day's end). Closing a day once,
binding it to the hash chain and serving it is jackpot.services.dayclose."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import TYPE_CHECKING, Any

from jackpot import jsonio
from jackpot.archive.store import Archive
from jackpot.archive.verify import check_rounds
from jackpot.conflicts import BrokenChainError
from jackpot.domain.dayclose import (
    HAND_PAYS_OWED,
    LAYOUT_VERSION,
    VOIDS_APART,
    hit_register,
    outcome_names,
    pool_day,
    table_count_row,
    table_days,
    unpaid_before,
    void_register,
)
from jackpot.domain.gamingday import GamingDays
from jackpot.domain.journals import HOUSE, Span, pool_journal
from jackpot.domain.people import shown
from jackpot.domain.reconcile import BALANCE

if TYPE_CHECKING:
    from jackpot.store.journal import JournalStore


@dataclass(frozen=True, slots=True)
class _Day:
    """What every pool's share of a day's statement is computed with."""

    start: int
    end: int
    layout: int
    iso: Callable[[int], str]
    first: bool  # no day closed before it: what is owed at open is read from the journals
    before: dict[str, Any]  # the statement of the day before ({} on the first)
    voids: list[dict[str, Any]]
    people: dict[str, str]


@dataclass(slots=True)
class _Pools:
    """The pools' share of a day's statement, gathered pool by pool."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    hits: list[dict[str, Any]] = field(default_factory=list)
    unpaid_at_close: dict[str, dict[str, int]] = field(default_factory=dict)
    hands_at_close: dict[str, dict[str, int]] = field(default_factory=dict)
    payout_voids: list[tuple[str, dict[str, Any]]] = field(default_factory=list)


class DayStatements:
    def __init__(
        self,
        archive: Archive,
        journal: Callable[[str | None], JournalStore],  # a pool's, or the house's
        houses: Callable[[], list[str]],
        table_checks: Callable[[str], list[dict[str, Any]]],
        pools: Callable[[], list[str]],
    ) -> None:
        self._archive = archive
        self._journal = journal
        self._houses = houses  # every link group's house journal, as the archive names it
        self._table_checks = table_checks  # tables' own counts of a day, compared
        self._pools = pools

    def compute(
        self,
        day: date,
        start: int,
        end: int,
        now: int,
        days: GamingDays,
        pool_ids: list[str],
        records_checked: bool = False,
        layout: int = LAYOUT_VERSION,
    ) -> dict[str, Any]:
        """The day's statement from the archive, in statement `layout`. Its round records are
        checked against the entries that settled them first (a forged or edited one stops
        it), unless the caller has (`records_checked`)."""
        previous = self._archive.day((day - timedelta(days=1)).isoformat())
        before = json.loads(previous["report"]) if previous else {}
        voids = self.voids(start, end)
        the_day = _Day(
            start, end, layout, days.iso, previous is None, before, voids, self.people(end)
        )
        pools = _Pools()
        for pool in pool_ids:
            self._add_pool(pools, pool, the_day)
        if not records_checked:
            self._check_records(start, end)
        counted = [
            table_count_row(c, days.iso, layout) for c in self._table_checks(day.isoformat())
        ]
        tables = self._tables(start, end, voids, layout)
        pools.hits.sort(key=lambda h: (h["time"], h["payout"]))
        return {
            **_heading(day, days, start, end, now, layout),
            "balanced": all(p["balanced"] for p in pools.rows),
            # the tables' own counts against the controller's: a separate line, for a day's
            # pools balance to the unit over what the controller holds, and a table told of
            # rounds it does not hold is a difference beside them (docs/DECISIONS.md D227)
            "table_counts_balanced": all(row["matches"] for row in counted),
            "pools": pools.rows,
            "tables": tables,
            "hits": pools.hits,
            "table_counts": counted,
            **self._apart(pools, the_day),
            "heads": self.heads(end),
            "unpaid_at_close": pools.unpaid_at_close,
        }

    def _add_pool(self, pools: _Pools, pool: str, day: _Day) -> None:
        """One pool's day: its row, its hits, what it owes at close, its payouts' voids."""
        journal = self._journal(pool)
        begin = journal.seq_at(pool, day.start)
        opening = next((e for e in journal.before(pool, begin) if BALANCE in e.fields), None)
        unpaid, hands = _owed_at_open(journal, pool, day)
        entries = list(journal.scan(pool, begin - 1, span=Span(None, day.end)))
        rows = [e.to_json() for e in entries]
        computed, still_unpaid = pool_day(
            pool, None if opening is None else opening.to_json(), rows, unpaid, hands
        )
        pools.rows.append(computed.row(day.layout))
        pools.unpaid_at_close[pool] = still_unpaid
        pools.hands_at_close[pool] = computed.hand_pays_unpaid
        pools.hits += hit_register(pool, rows, day.iso, day.people, day.layout, day.voids)
        pools.payout_voids += [(pool, r) for r in rows if r["type"] == "payout_voided"]

    def _tables(
        self, start: int, end: int, voids: list[dict[str, Any]], layout: int
    ) -> list[dict[str, Any]]:
        """The tables section: each table's rounds recorded in the day, and its voids."""
        records = self._archive.rounds_between(start, end)
        rounds = [(jsonio.loads(r.static), jsonio.loads(r.dynamic)) for r in records if r.digest]
        tables = table_days(rounds, voids)
        names = outcome_names(tables)
        return [t.row(names, layout) for t in tables]

    def _check_records(self, start: int, end: int) -> None:
        """Every record counted is the one its journal entry settled: a forged or edited one
        stops the close (jackpot verify names it)."""
        forged, _ = check_rounds(self._archive, self._houses(), start, end)
        if forged:
            raise BrokenChainError("; ".join(str(f) for f in forged[:3]))

    def _apart(self, pools: _Pools, day: _Day) -> dict[str, Any]:
        """The sections and figures later layouts added: the hand pays unpaid at close (layout
        6), every void of the day (layout 5)."""
        apart: dict[str, Any] = {}
        if day.layout >= HAND_PAYS_OWED:  # carried to the next day as owed at its open
            apart["hand_pays_unpaid_at_close"] = pools.hands_at_close
        if day.layout >= VOIDS_APART:  # every void of the day, with who asked, approved and why
            approvals = [
                dict(e.by_name())
                for journal in self._houses()
                for e in self._archive.entries_of_type(journal, "void_approved", None, day.end)
            ]
            apart["voids"] = void_register(
                day.voids, pools.payout_voids, day.iso, day.people, approvals
            )
        return apart

    def people(self, end: int) -> dict[str, str]:
        """Each API key made before `end`, by the `who` its steps are journaled under, to its
        holder, for the hit register to name people: the person it was issued to, as name
        and number with the name they had at `end` (D235), or, for a key made before the
        register, the label it was made with. All of it is read from the main group's house
        journal, where keys and the register are journaled."""
        names = self._registered(end)

        def holder(person: str) -> str:
            return shown(names[person], person) if person in names else person

        people, whos = {}, {}
        for e in self._archive.entries_of_type(HOUSE, "key_created", None, end):
            fields = e.by_name()
            who = whos[str(fields["key"])] = f"{fields['role']}:{fields['key']}"
            if fields.get("issued_to"):
                people[who] = holder(str(fields["issued_to"]))
            elif fields.get("label"):
                people[who] = str(fields["label"])
        for e in self._archive.entries_of_type(HOUSE, "key_assigned", None, end):
            fields = e.by_name()  # a key made before the register, given to its person
            if str(fields["key"]) in whos:
                people[whos[str(fields["key"])]] = holder(str(fields["issued_to"]))
        return people

    def _registered(self, end: int) -> dict[str, str]:
        """Each person in the register before `end`, to the name they had then."""
        named: list[tuple[int, str, str]] = []  # (seq, person, name) as the register had them
        for kind in ("person_registered", "person_changed"):
            for e in self._archive.entries_of_type(HOUSE, kind, None, end):
                fields = e.by_name()
                named.append((e.seq, str(fields["staff_id"]), str(fields["name"])))
        return {person: name for _, person, name in sorted(named)}

    def voids(self, start: int, end: int) -> list[dict[str, Any]]:
        """The void entries of every house journal in [start, end): voids are counted in the
        day they were made, whatever the day of their round (a correction)."""
        return [
            dict(e.by_name())
            for journal in self._houses()
            for e in self._archive.entries_of_type(journal, "void", start, end)
        ]

    def heads(self, end: int) -> dict[str, list[Any]]:
        """Each journal's last entry before the day's end: [seq, hash] (0, '' if none)."""
        heads: dict[str, list[Any]] = {}
        for journal in self._houses() + [pool_journal(p) for p in sorted(self._pools())]:
            last = self._archive.last_before(journal, end)
            heads[journal] = [0, ""] if last is None else [last[0].seq, last[1]]
        return heads


def _owed_at_open(
    journal: JournalStore, pool: str, day: _Day
) -> tuple[dict[str, int], dict[str, int]]:
    """What a pool owed at the day's open: the jackpots the day before left unpaid (on the
    first day, from the journal), and the hand pays: the day before's, from layout 6; after
    a day of an earlier layout (which recorded none) or on the first day, from the journal
    (D300)."""
    hands_carried: dict[str, dict[str, int]] | None = day.before.get("hand_pays_unpaid_at_close")
    earlier: list[Any] = []
    if day.first or (day.layout >= HAND_PAYS_OWED and hands_carried is None):
        earlier = [e.fields for e in journal.scan(pool, 0, span=Span(None, day.start))]
    carried: dict[str, dict[str, int]] = day.before.get("unpaid_at_close", {})
    unpaid = unpaid_before(earlier) if day.first else carried.get(pool, {})
    hands = (
        unpaid_before(earlier, "hand_pay") if hands_carried is None else hands_carried.get(pool, {})
    )
    return unpaid, hands


def _heading(
    day: date, days: GamingDays, start: int, end: int, now: int, layout: int
) -> dict[str, Any]:
    """A statement's first lines: the day, its zone and bounds, when it was closed, and in
    which layout."""
    return {
        "day": day.isoformat(),
        "time_zone": days.zone.key,
        "gaming_day_start": days.start.strftime("%H:%M"),
        "start": days.iso(start),
        "end": days.iso(end),
        "closed_at": days.iso(now),
        "layout_version": layout,
    }
