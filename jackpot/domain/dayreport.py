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
    width = max((end - start) // slices, 1)
    value = opening_units
    points: list[list[int]] = [] if value is None else [[start, value // UNITS_PER_CENT]]
    slice_end: int | None = None
    for e in entries:
        if "value_units" not in e:
            continue
        ts = int(e["ts"])
        after = int(e["value_units"])
        if slice_end is not None and ts >= slice_end and value is not None:
            points.append([slice_end - 1, value // UNITS_PER_CENT])  # the slice's last value
        if e.get("type") in MARKED:
            if value is not None:
                points.append([ts, value // UNITS_PER_CENT])
            points.append([ts, after // UNITS_PER_CENT])
            slice_end = None
        elif slice_end is None or ts >= slice_end:
            slice_end = start + ((ts - start) // width + 1) * width
        value = after
    if value is not None:
        points.append([end, value // UNITS_PER_CENT])
    return _without_repeats(points)


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
    out = []
    for v in voids:
        who = str(v.get("who", ""))
        asked = str(v.get("requested_by") or who)
        out.append(
            {
                "ts": int(v["ts"]),
                "kind": "void",
                "pool": None,
                "table": str(v.get("table", "")),
                "round": str(v.get("round", "")),
                "target": "whole round" if str(v.get("whole")) == "1" else f"spots {v['spots']}",
                "wagered_cents": int(v.get("wagered") or 0),
                "pays_cents": sum(int(v.get(k) or 0) for k in ("fixed", "envy", "jackpot")),
                "who": asked,
                "person": people.get(asked) or asked,
                "approver": (people.get(who) or who) if asked != who else None,
                "reason": str(v.get("reason", "")),
            }
        )
    return out
