"""What the operator's commands print: money, rates, times and aligned plain-text tables.

Money is an int of cents (or of exact units, 1/10,000 cent) and is formatted with integer
arithmetic only; times are the API's epoch milliseconds shown in the casino's time zone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from jackpot.domain.meter import UNITS_PER_CENT

UNITS_PER_DOLLAR = 100 * UNITS_PER_CENT


def money(cents: int) -> str:
    """Whole cents as dollars: 123456 -> `$1,234.56`, -5 -> `-$0.05`."""
    sign, cents = ("-", -cents) if cents < 0 else ("", cents)
    return f"{sign}${cents // 100:,}.{cents % 100:02d}"


def exact(units: int) -> str:
    """Exact units (1/10,000 cent) as dollars to the unit: 60000 -> `$0.060000`."""
    sign, units = ("-", -units) if units < 0 else ("", units)
    whole, part = divmod(units, UNITS_PER_DOLLAR)
    return f"{sign}${whole:,}.{part:06d}"


def rate(bp: int) -> str:
    """Basis points as a percentage: 400 -> `4.00%`."""
    sign, bp = ("-", -bp) if bp < 0 else ("", bp)
    return f"{sign}{bp // 100}.{bp % 100:02d}%"


def when(ms: int | None, zone: ZoneInfo) -> str:
    """Epoch milliseconds in `zone`: `2026-11-24 10:33:50 EST`; `-` for none."""
    if ms is None:
        return "-"
    return datetime.fromtimestamp(ms // 1000, zone).strftime("%Y-%m-%d %H:%M:%S %Z")


def age(then_ms: int | None, now_ms: int) -> str:
    """How long ago, to the two largest units: `45s`, `3m07s`, `2h05m`, `3d04h`."""
    if then_ms is None:
        return "-"
    seconds = max(0, now_ms - then_ms) // 1000
    minutes, s = divmod(seconds, 60)
    hours, m = divmod(minutes, 60)
    days, h = divmod(hours, 24)
    if days:
        return f"{days}d{h:02d}h"
    if hours:
        return f"{hours}h{m:02d}m"
    if minutes:
        return f"{minutes}m{s:02d}s"
    return f"{s}s"


def cell(value: Any) -> str:
    """A plain value as a table shows it: none as `-`, booleans as yes/no."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ",".join(cell(v) for v in value) or "-"
    return str(value)


def table(headers: Sequence[str], rows: Iterable[Sequence[str]], right: Iterable[int] = ()) -> str:
    """Aligned columns under their headers; the columns numbered in `right` align right."""
    body = [list(r) for r in rows]
    widths = [max([len(h), *(len(r[i]) for r in body)]) for i, h in enumerate(headers)]
    flush_right = set(right)

    def line(cells: Sequence[str]) -> str:
        out = [
            c.rjust(w) if i in flush_right else c.ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  ".join(out).rstrip()

    return "\n".join([line(headers), *(line(r) for r in body)])


def fields(pairs: Iterable[tuple[str, str]]) -> str:
    """`name  value` lines, the values aligned."""
    listed = list(pairs)
    width = max((len(name) for name, _ in listed), default=0)
    return "\n".join(f"{name.ljust(width)}  {value}".rstrip() for name, value in listed)
