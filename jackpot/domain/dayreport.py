"""What a closed gaming day's printed report draws beside its statement: each pool's meter
over the day, and the day's corrections (voided rounds, adjustments, transfers) with who made
them and why. The statement's figures themselves are jackpot.domain.dayclose's.

A meter moves on every round; a day of 50,000 rounds is drawn from at most a few hundred
points a pool: the meter at the end of each slice of the day, and at every step a reader
looks for (a hit and its reset, an adjustment, a void), so no drop or jump is smoothed away.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from jackpot.domain.meter import UNITS_PER_CENT

SLICES = 288  # five minutes of a 24-hour day
#: the pool entries drawn at their own instant, not only at their slice's end
MARKED = frozenset({"hit", "reset", "adjustment", "transfer", "void", "created"})


def meter_series(
    opening_units: int | None,
    entries: Iterable[Mapping[str, Any]],
    start: int,
    end: int,
    slices: int = SLICES,
) -> list[list[int]]:
    """[[ms, cents], ...] of a pool's meter over [start, end): where it opened, its value at
    the end of each slice that saw it move, just before and after each marked entry, and
    where it closed (whole cents, rounded down as the meter shows them)."""
    drawing = _Drawing(start, max((end - start) // slices, 1), opening_units)
    for e in entries:
        if "value_units" in e:
            drawing.move(int(e["ts"]), int(e["value_units"]), e.get("type") in MARKED)
    return drawing.closed(end)


class _Drawing:
    """A pool's meter as drawn so far: its points, its value (None: not known yet), and the
    end of the slice of the day that last saw it move (None: no slice open)."""

    def __init__(self, start: int, width: int, opening_units: int | None) -> None:
        self.start, self.width = start, width
        self.value = opening_units
        self.points: list[list[int]] = []
        self.slice_end: int | None = None
        self._draw(start)

    def move(self, ts: int, after: int, marked: bool) -> None:
        """The meter moves to `after` units at `ts`: a marked entry is drawn at its instant,
        another opens the slice it falls in, if none is open."""
        self._close_slice(ts)
        if marked:
            self._draw(ts)
            self.points.append([ts, after // UNITS_PER_CENT])
            self.slice_end = None
        elif self.slice_end is None or ts >= self.slice_end:
            self.slice_end = self.start + ((ts - self.start) // self.width + 1) * self.width
        self.value = after

    def closed(self, end: int) -> list[list[int]]:
        """The points drawn, the meter's close at `end` last."""
        self._draw(end)
        return _without_repeats(self.points)

    def _close_slice(self, ts: int) -> None:
        if self.slice_end is not None and ts >= self.slice_end:
            self._draw(self.slice_end - 1)  # the slice's last value

    def _draw(self, ts: int) -> None:
        """A point of the meter's value (whole cents, rounded down) at `ts`, if it has one."""
        if self.value is not None:
            self.points.append([ts, self.value // UNITS_PER_CENT])


def _without_repeats(points: list[list[int]]) -> list[list[int]]:
    """The points where something changes: a run of equal values keeps its first and last,
    and a point is never drawn twice."""
    out: list[list[int]] = []
    for p in points:
        if out and out[-1] == p:
            continue
        if len(out) >= 2 and out[-1][1] == p[1] == out[-2][1]:
            out[-1] = p
        else:
            out.append(p)
    return out


def pool_corrections(
    pool: str, entries: Iterable[Mapping[str, Any]], people: Mapping[str, str]
) -> list[dict[str, Any]]:
    """The day's adjustments and transfers of a pool's meter or reserve, each with its
    amount (whole cents and sub-cent units), who made it and why."""
    out = []
    for e in entries:
        if e.get("type") not in ("adjustment", "transfer"):
            continue
        cents, rest = divmod(int(e["amount_units"]), UNITS_PER_CENT)
        who = str(e.get("who", ""))
        out.append(
            {
                "ts": int(e["ts"]),
                "kind": str(e["type"]),
                "pool": pool,
                "table": None,
                "round": None,
                "target": str(e.get("target", "")),
                "amount_cents": cents,
                "amount_subcent_units": rest,
                "who": who,
                "person": people.get(who) or who,
                "reason": str(e.get("reason") or e.get("note") or ""),
            }
        )
    return out


def void_corrections(
    voids: Iterable[Mapping[str, Any]], people: Mapping[str, str]
) -> list[dict[str, Any]]:
    """The day's voided rounds (house journals' `void` entries): the round and spots, the
    wagers and pays taken back (cents), who asked, who approved, and why."""
    return [_void_correction(v, people) for v in voids]


def _void_correction(v: Mapping[str, Any], people: Mapping[str, str]) -> dict[str, Any]:
    return {
        "ts": int(v["ts"]),
        "kind": "void",
        "pool": None,
        "table": str(v.get("table", "")),
        "round": str(v.get("round", "")),
        "target": "whole round" if str(v.get("whole")) == "1" else f"spots {v['spots']}",
        "wagered_cents": int(v.get("wagered") or 0),
        "pays_cents": _void_pays_cents(v),
        **_asked_and_approved(v, people),
        "reason": str(v.get("reason", "")),
    }


def _asked_and_approved(v: Mapping[str, Any], people: Mapping[str, str]) -> dict[str, Any]:
    """Who asked for a void (`who`, and their name) and who approved it, if someone else."""
    who = str(v.get("who", ""))
    asked = str(v.get("requested_by") or who)
    return {
        "who": asked,
        "person": people.get(asked) or asked,
        "approver": (people.get(who) or who) if asked != who else None,
    }


def _void_pays_cents(v: Mapping[str, Any]) -> int:
    """The pays a void takes back: its fixed, envy and jackpot pays, in cents."""
    return sum(int(v.get(k) or 0) for k in ("fixed", "envy", "jackpot"))
