"""The gaming day's files as an accounting system imports them (docs/OPERATIONS.md, "The
gaming day's files"): each section of a closed day's statement as CSV columns in a fixed order.

* The identifying columns first: `gaming_day`, then the pool or the table, then, where rows are
  events (the hit register), the time.
* The figures in the order the statement builds them (jackpot.domain.dayclose), each amount of
  money as dollars and cents (`1234.56`: its whole cents; a negative amount in units floors, as
  the JSON's cents do), then the exact figures: each amount's `_cents` and, where the controller
  keeps smaller units, its `_subcent_units` (0..9,999 of 1/10,000 cent).
* A header row always, an empty day's included; a totals row (`TOTAL` in the identifying
  column) where sums make sense (pools, tables, hits), each money figure summed exactly.
* Text a spreadsheet would run as a formula is written with a leading quote; booleans as
  `true`/`false`; numbers as numbers.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from jackpot.conflicts import SectionNotRecordedError
from jackpot.domain.csvcells import csv_text
from jackpot.domain.dayclose import (
    HAND_PAY_STEMS,
    HAND_PAYS_OWED,
    OWED_STEMS,
    VOIDS_APART,
    PoolDay,
    TableDay,
    hit_register,
    percent,
    void_row,
)
from jackpot.domain.meter import UNITS_PER_CENT
from jackpot.domain.outcomes import Outcome
from jackpot.domain.tablecounts import FIGURES as COUNT_FIGURES

TOTAL = "TOTAL"


class Kind(StrEnum):
    TEXT = "text"
    COUNT = "count"  # summed in the totals row
    NUMBER = "number"  # a number not summed (a spot, a journal seq)
    CENTS = "cents"  # money in whole cents (`<key>`)
    UNITS = "units"  # money in cents and sub-cent units (`<stem>_cents`, `<stem>_subcent_units`)
    PERCENT = "percent"
    BOOL = "bool"


@dataclass(frozen=True, slots=True)
class Column:
    name: str  # the header; a money figure's dollars column
    key: str  # the statement row's field (UNITS: the stem of its two fields)
    kind: Kind

    @property
    def money(self) -> bool:
        return self.kind in (Kind.CENTS, Kind.UNITS)

    def exact(self) -> list[str]:
        """The exact columns that follow the figures: a money figure's cents (and units)."""
        if self.kind is Kind.CENTS:
            return [f"{self.name}_cents"]
        if self.kind is Kind.UNITS:
            return [f"{self.name}_cents", f"{self.name}_subcent_units"]
        return []

    @property
    def field(self) -> str:
        """The row's field that holds the figure (a UNITS figure's: its cents)."""
        return f"{self.key}_cents" if self.kind is Kind.UNITS else self.key

    def recorded(self, row: Mapping[str, Any]) -> bool:
        """Whether `row` holds this figure: a day closed in an earlier layout gives a figure it
        did not record as None (jackpot.domain.dayfiles.section_rows); a figure a row leaves
        out (an outcome no bet had) is its zero."""
        return self.field not in row or row[self.field] is not None

    def units(self, row: Mapping[str, Any]) -> int:
        """A money figure of `row` in units of 1/10,000 cent."""
        if self.kind is Kind.CENTS:
            return int(row.get(self.key) or 0) * UNITS_PER_CENT
        cents = int(row.get(f"{self.key}_cents") or 0)
        return cents * UNITS_PER_CENT + int(row.get(f"{self.key}_subcent_units") or 0)

    def exact_cells(self, row: Mapping[str, Any]) -> list[Any]:
        """The cells of the exact columns (`exact`) of `row`'s figure."""
        if not self.recorded(row):  # a figure its day's layout did not record: empty
            return [""] * len(self.exact())
        if self.kind is Kind.UNITS:
            return list(divmod(self.units(row), UNITS_PER_CENT))
        if self.kind is Kind.CENTS:
            return [self.units(row) // UNITS_PER_CENT]
        return []


@dataclass(frozen=True, slots=True)
class Section:
    """One section's file: identifying columns (after `gaming_day`) and figures, in order."""

    name: str
    ident: tuple[Column, ...]
    figures: tuple[Column, ...]
    totals: bool

    @property
    def header(self) -> list[str]:
        exact = [name for c in self.figures for name in c.exact()]
        return [
            "gaming_day",
            *(c.name for c in self.ident),
            *(c.name for c in self.figures),
            *exact,
        ]

    def rows(self, day: str, rows: Iterable[Mapping[str, Any]]) -> list[list[Any]]:
        """The file's lines for `day` under its header, totals last where they make sense."""
        rows = list(rows)
        out = [self._line(day, row) for row in rows]
        if self.totals:
            out.append(self._totals(day, rows))
        return out

    def _line(self, day: str, row: Mapping[str, Any]) -> list[Any]:
        cells: list[Any] = [day]
        cells += [_cell(c, row) for c in (*self.ident, *self.figures)]
        for c in self.figures:
            cells += c.exact_cells(row)
        return cells

    def _totals(self, day: str, rows: list[Mapping[str, Any]]) -> list[Any]:
        total: dict[str, Any] = {self.ident[0].key: TOTAL}
        for c in self.figures:
            total.update(_column_total(c, rows))
        if self.name == "tables":
            total["hold_percent"] = _floor_hold(total)
        line = self._line(day, total)
        # figures that do not add up (a spot, a journal seq, a time, a status) stay empty
        for i, c in enumerate((*self.ident, *self.figures), start=1):
            if c.key not in total and not c.money:
                line[i] = ""
        return line


def _column_total(column: Column, rows: list[Mapping[str, Any]]) -> Mapping[str, int | None]:
    """A figure's fields in the totals row: summed exactly; none for a figure that does not
    add up."""
    if rows and not any(column.recorded(r) for r in rows):
        # a figure no row's layout recorded: empty, as in its rows
        return {column.field: None}
    add_up = _TOTALS.get(column.kind)
    return add_up(column, rows) if add_up else {}


def _whole_total(column: Column, rows: list[Mapping[str, Any]]) -> dict[str, int]:
    return {column.key: sum(int(r.get(column.key) or 0) for r in rows)}


def _units_total(column: Column, rows: list[Mapping[str, Any]]) -> dict[str, int]:
    cents, rest = divmod(sum(column.units(r) for r in rows), UNITS_PER_CENT)
    return {f"{column.key}_cents": cents, f"{column.key}_subcent_units": rest}


# how each kind of figure adds up in the totals row (counts and money: exactly)
_TOTALS: dict[Kind, Callable[[Column, list[Mapping[str, Any]]], dict[str, int]]] = {
    Kind.COUNT: _whole_total,
    Kind.CENTS: _whole_total,
    Kind.UNITS: _units_total,
}


def _floor_hold(total: Mapping[str, Any]) -> str:
    """The floor's hold: its win over its handle net of voids."""
    net = total["handle_cents"] - total["voided_handle_cents"]
    return percent(total["win_cents"], net) if net > 0 else ""


def csv_file(rows: list[list[Any]]) -> str:
    """Rows as CSV text (RFC 4180 line ends)."""
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\r\n").writerows(rows)
    return buf.getvalue()


def dollars(cents: int) -> str:
    """Whole cents as dollars and cents: `-1234.05`."""
    sign = "-" if cents < 0 else ""
    whole, rest = divmod(abs(cents), 100)
    return f"{sign}{whole}.{rest:02d}"


def _cell(column: Column, row: Mapping[str, Any]) -> Any:
    if column.kind in _FIGURES_RECORDED and not column.recorded(row):
        return ""  # not recorded in its day's layout: no figure, rather than a made-up 0
    return _CELLS[column.kind](column, row)


def _dollars_cell(column: Column, row: Mapping[str, Any]) -> Any:
    return dollars(column.units(row) // UNITS_PER_CENT)


def _count_cell(column: Column, row: Mapping[str, Any]) -> Any:
    return int(row.get(column.key) or 0)


def _flag_cell(column: Column, row: Mapping[str, Any]) -> Any:
    value = row.get(column.key)
    return "" if value is None else ("true" if value else "false")


def _text_cell(column: Column, row: Mapping[str, Any]) -> Any:
    value = row.get(column.key)
    return "" if value is None else csv_text(value)


# the kinds a day's layout may not have recorded, shown empty then
_FIGURES_RECORDED = frozenset({Kind.CENTS, Kind.UNITS, Kind.COUNT})

_CELLS: dict[Kind, Callable[[Column, Mapping[str, Any]], Any]] = {
    Kind.CENTS: _dollars_cell,
    Kind.UNITS: _dollars_cell,
    Kind.COUNT: _count_cell,
    Kind.BOOL: _flag_cell,
    Kind.TEXT: _text_cell,
    Kind.NUMBER: _text_cell,
    Kind.PERCENT: _text_cell,
}


def _figures(row: Mapping[str, Any], ident: set[str], not_summed: set[str]) -> list[Column]:
    """A statement row's figures in its order, each column's kind by the row's naming: a
    `<stem>_cents` with a `<stem>_subcent_units` is money in units, another `_cents` money in
    cents, an integer a count (unless not summed), a bool a flag, `_percent` a percentage."""
    return [
        _figure(key, value, row, not_summed)
        for key, value in row.items()
        if key not in ident and not key.endswith("_subcent_units")
    ]


def _figure(key: str, value: Any, row: Mapping[str, Any], not_summed: set[str]) -> Column:
    if key.endswith("_cents"):
        stem = key.removesuffix("_cents")
        if f"{stem}_subcent_units" in row:
            return Column(stem, stem, Kind.UNITS)
        return Column(stem, key, Kind.CENTS)
    if isinstance(value, bool):
        return Column(key, key, Kind.BOOL)
    if key.endswith("_percent"):
        return Column(key, key, Kind.PERCENT)
    if isinstance(value, int) or value is None:
        return Column(key, key, Kind.NUMBER if key in not_summed else Kind.COUNT)
    return Column(key, key, Kind.TEXT)


def _pools() -> Section:
    row = PoolDay("").row()
    figures = _figures(row, {"pool"}, {"first_seq", "last_seq"})
    return Section("pools", (Column("pool", "pool", Kind.TEXT),), tuple(figures), totals=True)


def _tables() -> Section:
    # every outcome, so the columns are the same on every day
    row = TableDay("").row(o.value for o in Outcome)
    figures = _figures(row, {"table"}, set())
    return Section("tables", (Column("table", "table", Kind.TEXT),), tuple(figures), totals=True)


def _hits() -> Section:
    # the register's row as jackpot.domain.dayclose.hit_register builds it, of a hit
    hit = {"type": "hit", "ts": 0, "payout": "", "table": "", "round": "", "spot": 0}
    (row,) = hit_register("", [{**hit, "outcome": "", "amount": 0}], lambda _ms: "")
    ident = (Column("pool", "pool", Kind.TEXT), Column("time", "time", Kind.TEXT))
    figures = _figures(row, {"pool", "time"}, {"spot", "trigger"})
    return Section("hits", ident, tuple(figures), totals=True)


# the table counts' figures in money (the others are counts)
COUNT_MONEY = frozenset({"handle", "fixed", "envy", "jackpot"})


def _table_counts() -> Section:
    figures = [Column("matches", "matches", Kind.BOOL)]
    for side in ("table", "controller"):
        for figure in COUNT_FIGURES:
            kind = Kind.CENTS if figure in COUNT_MONEY else Kind.COUNT
            figures.append(Column(f"{side}_{figure}", f"{side}_{figure}", kind))
    figures.append(Column("counted_through", "counted_through", Kind.TEXT))
    figures.append(Column("checked_at", "checked_at", Kind.TEXT))
    ident = (Column("table", "table", Kind.TEXT),)
    return Section("table_counts", ident, tuple(figures), totals=False)


def _voids() -> Section:
    ident = (Column("table", "table", Kind.TEXT), Column("time", "time", Kind.TEXT))
    figures = _figures(void_row("", "", "", ""), {"table", "time"}, set())
    return Section("voids", ident, tuple(figures), totals=True)


FILES: dict[str, Section] = {
    s.name: s for s in (_pools(), _tables(), _hits(), _table_counts(), _voids())
}


#: the pools' figures layouts 1–4 did not record
UNRECORDED_BEFORE_VOIDS_APART = tuple(
    f"{stem}_{part}" for stem in OWED_STEMS for part in ("count", "cents")
)
#: the pools' figures layouts 1–5 did not record: the hand pays owed, rolled over the day
UNRECORDED_BEFORE_HAND_PAYS_OWED = tuple(
    f"{stem}_{part}" for stem in HAND_PAY_STEMS for part in ("count", "cents")
)


def section_rows(statement: Mapping[str, Any], section: str) -> list[Mapping[str, Any]]:
    """A closed day's rows of `section` in today's columns. A day closed in an earlier
    statement layout keeps its record: its pools' `voided_jackpots` (the jackpots voided
    rounds put back on the meter) are today's `returned_jackpots`, and the figures it did not
    record (what was owed at open, paid and voided; before layout 6, the hand pays owed) are
    empty cells, never a made-up zero; a section it did not record at all is 409
    `section_not_recorded`."""
    layout = int(statement.get("layout_version") or 1)
    if section not in statement:
        raise SectionNotRecordedError(str(statement["day"]), section, layout)
    rows = statement[section]
    if section != "pools" or layout >= HAND_PAYS_OWED:
        return list(rows)
    return [_earlier_pool_row(row, layout) for row in rows]


def _earlier_pool_row(row: Mapping[str, Any], layout: int) -> dict[str, Any]:
    """A pool's row of a day closed before layout 6 in today's columns."""
    out = dict(row)
    if layout < VOIDS_APART:
        for stem in ("count", "cents"):
            out[f"returned_jackpots_{stem}"] = out.pop(f"voided_jackpots_{stem}")
        out.update(dict.fromkeys(UNRECORDED_BEFORE_VOIDS_APART))
    out.update(dict.fromkeys(UNRECORDED_BEFORE_HAND_PAYS_OWED))
    return out


def day_csv(section: str, days: Iterable[tuple[str, list[Mapping[str, Any]]]]) -> str:
    """One section of one or more closed days as one file: the header once, each day's rows
    and its totals row, in the order given."""
    spec = FILES[section]
    lines: list[list[Any]] = [spec.header]
    for day, rows in days:
        lines += spec.rows(day, rows)
    return csv_file(lines)


def numbers(statement: Mapping[str, Any]) -> dict[str, Any]:
    """The statement as the JSON answers it: a percentage is a number (two decimals), or null
    where there is nothing to divide by; the record keeps its text, which its digest covers."""
    out = dict(statement)
    for section in FILES:
        if section in out:
            out[section] = [_numbers(row) for row in out[section]]
    return out


def _numbers(row: Mapping[str, Any]) -> dict[str, Any]:
    return {
        k: (None if v == "" else float(v)) if k.endswith("_percent") and isinstance(v, str) else v
        for k, v in row.items()
    }
