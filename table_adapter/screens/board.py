"""What the floor's views show, taken at one moment: meters, tables, totals, last wins.

`snapshot(floor, ...)` reads a running floor; the views (live.py on a terminal, plain.py
elsewhere) only format a Snapshot, so they can be checked without a floor.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from table_adapter.link.meters import Hit, PoolReading
from table_adapter.link.status import LinkState, LinkStatus
from table_adapter.screens.display import dollars
from table_adapter.screens.wins import Win, WinFeed

if TYPE_CHECKING:
    from table_adapter.floor.simulator import Floor

LINK_NAMES = {
    LinkState.UP: "online",
    LinkState.DOWN: "DOWN",
    LinkState.HELD: "HELD",
    LinkState.JOURNAL_FAILED: "JOURNAL FAILED",
}
STALE_SECONDS = 3.0  # the meters are read twice a second: older than this, they are stale
PAYOUT_NAMES = {"pending": "pending verification", "paid": "paid", "disputed": "DISPUTED"}


@dataclass(frozen=True, slots=True)
class Heading:
    """What the view is of: a title, a note (where the meter page is) and a label."""

    title: str = "war-floor"
    note: str = ""
    label: str = ""  # e.g. the DEMO paytable's warning


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The floor at one moment; money in cents."""

    heading: Heading
    pools: tuple[PoolReading, ...]
    missing: tuple[str, ...]  # pools fed but not read yet (controller unreachable)
    links: tuple[LinkStatus, ...]
    rounds: int
    total: int | None  # rounds the run will deal; None: until stopped
    elapsed: float
    side_bets: int
    handle: int
    paid: int  # fixed + meter + envy, this run
    wins: tuple[Win, ...]  # newest first
    now: float  # wall clock
    meter_age: float | None = None  # seconds since the meters were read

    @property
    def meters_stale(self) -> bool:
        """The meters could not be read lately (the controller is away): say so."""
        return self.meter_age is not None and self.meter_age > STALE_SECONDS

    @property
    def rate(self) -> float:
        """Rounds per second since the start."""
        return self.rounds / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def hits(self) -> list[Hit]:
        """The controller's last hits on the floor's pools, newest first."""
        hits = [h for p in self.pools for h in p.last_hits]
        return sorted(hits, key=lambda h: h.created, reverse=True)


def snapshot(floor: Floor, feed: WinFeed, heading: Heading | None = None) -> Snapshot:
    """The floor now."""
    plan, tally = floor.plan, floor.tally
    readings = floor.meters()
    watched = floor.watch.pools()
    return Snapshot(
        heading=heading or Heading(),
        pools=tuple(readings[p] for p in watched if p in readings),
        missing=tuple(p for p in watched if p not in readings),
        links=tuple(floor.statuses()),
        rounds=tally.rounds,
        total=plan.tables * plan.rounds if plan.rounds else None,
        elapsed=floor.elapsed,
        side_bets=tally.side_bets,
        handle=tally.handle,
        paid=tally.fixed + tally.jackpot + tally.envy,
        wins=tuple(feed.last(20)),
        now=time.time(),
        meter_age=floor.watch.age(),
    )


def status_line(s: Snapshot) -> str:
    """One line (under 80 columns on a small floor) for logs and plain output."""
    done = f"{s.rounds:,}/{s.total:,}" if s.total else f"{s.rounds:,}"
    meters = _meter_parts(s)
    closed = sum(not link.side_bets_open for link in s.links)
    quarantined = sum(link.quarantined for link in s.links)
    parts = [
        f"{done} rounds {s.rate:,.0f}/s",
        *meters,
        f"backlog {sum(link.pending for link in s.links):,}",
        f"side bets closed at {closed}" if closed else "side bets open",
        links_summary(s.links),
    ]
    if quarantined:
        parts.append(quarantine_text(quarantined))
    return "  ".join(parts)


def _meter_parts(s: Snapshot) -> list[str]:
    """Each pool's meter (`?` for one not read yet); how old, after the last, when stale."""
    meters = [f"{p.pool} {dollars(p.value)}" for p in s.pools] + [f"{p} ?" for p in s.missing]
    if s.meters_stale and s.meter_age is not None:
        age = f"({s.meter_age:.0f}s old)"
        if meters:
            meters[-1] += f" {age}"
        else:  # no pool known yet: the floor has not read a meter since it started
            meters.append(f"meters {age}")
    return meters


def quarantine_text(n: int) -> str:
    """Quarantined reports for an operator: `2 QUARANTINED (not settled: needs an operator)`."""
    return f"{n:,} QUARANTINED (not settled: needs an operator)"


def links_summary(links: tuple[LinkStatus, ...]) -> str:
    """How many tables are in each link state, e.g. `3 online` or `2 online, 1 DOWN`."""
    counts: dict[str, int] = {}
    for link in links:
        name = LINK_NAMES[link.state]
        counts[name] = counts.get(name, 0) + 1
    return ", ".join(f"{n} {name}" for name, n in counts.items()) or "no tables"


def outcome_name(outcome: str) -> str:
    """`suited_four_of_a_kind` as `suited four of a kind`."""
    return outcome.replace("_", " ")


def clock(at: float) -> str:
    """Wall-clock seconds as local `HH:MM:SS`."""
    return time.strftime("%H:%M:%S", time.localtime(at))


def win_text(w: Win) -> str:
    """A win for a person: `DEMO-1 spot 3 suited tie wins $75.00 on $5.00 (envy $5.00)`."""
    bet, extra = w.bet, []
    if bet.jackpot:
        extra.append(f"meter {dollars(bet.jackpot)}")
    if bet.envy:
        extra.append(f"envy {dollars(bet.envy)}")
    tail = f" ({', '.join(extra)})" if extra else ""
    what = "envy" if bet.outcome == "none" else outcome_name(bet.outcome)
    return f"{w.table} spot {bet.spot} {what} wins {dollars(bet.won)} on {dollars(bet.wager)}{tail}"


def hit_text(h: Hit) -> str:
    """A jackpot for a person: `JACKPOT $1,234.56 DEMO-2 spot 4 four of a kind: paid`."""
    status = PAYOUT_NAMES.get(h.status, h.status)
    return (
        f"JACKPOT {dollars(h.amount)} {h.table} spot {h.spot} {outcome_name(h.outcome)}: {status}"
    )
