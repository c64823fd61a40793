"""The gaming day's files (jackpot/domain/dayfiles.py): columns as docs/OPERATIONS.md lists
them, dollars and cents, exact totals, a header on an empty day."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest

from jackpot.domain.dayclose import money
from jackpot.domain.dayfiles import FILES, TOTAL, Kind, day_csv, dollars, numbers

DOCS = Path(__file__).resolve().parents[2] / "docs" / "OPERATIONS.md"


def test_the_columns_are_the_ones_operations_md_lists() -> None:
    listed = dict(re.findall(r"`(\w+)\.csv`:\n\n```\n([^\n]+)\n```", DOCS.read_text()))
    assert {name: header.split(",") for name, header in listed.items()} == {
        name: spec.header for name, spec in FILES.items()
    }


def test_dollars_and_cents_of_whole_cents() -> None:
    assert [dollars(c) for c in (0, 5, 100, 123456, -1, -123405)] == [
        "0.00", "0.05", "1.00", "1234.56", "-0.01", "-1234.05",
    ]  # fmt: skip


def read(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_totals_carry_sub_cent_units_exactly_and_an_empty_day_has_its_header() -> None:
    rows = [
        {"pool": "a", **money("adjustments", 7_500), **money("opening_meter", -1)},
        {"pool": "b", **money("adjustments", 2_500), **money("opening_meter", 0)},
    ]
    lines = read(day_csv("pools", [("2026-11-23", rows)]))
    assert [r["pool"] for r in lines] == ["a", "b", TOTAL]
    a, _, total = lines
    # -1 unit: whole cents rounded down, then its exact cents and units
    assert (a["opening_meter"], a["opening_meter_cents"], a["opening_meter_subcent_units"]) == (
        "-0.01", "-1", "9999",
    )  # fmt: skip
    # 0.75 + 0.25 cents make one whole cent in the total
    assert (total["adjustments"], total["adjustments_cents"]) == ("0.01", "1")
    assert total["adjustments_subcent_units"] == "0" and total["balanced"] == ""
    empty = day_csv("hits", [("2026-11-24", [])])
    assert empty.splitlines()[0].split(",") == FILES["hits"].header
    assert [r["pool"] for r in read(empty)] == [TOTAL]
    assert "table_counts" in FILES and not FILES["table_counts"].totals


def test_text_that_would_run_as_a_formula_is_quoted_and_hold_is_a_number() -> None:
    row = {"table": "=cmd", "handle_cents": 100, "win_cents": -5, "hold_percent": "-5.00"}
    (line, total) = read(day_csv("tables", [("2026-11-23", [row])]))
    assert line["table"] == "'=cmd" and line["hold_percent"] == "-5.00"
    assert total["hold_percent"] == "-5.00" and total["win"] == "-0.05"
    statement = {"day": "2026-11-23", "tables": [row, {**row, "hold_percent": ""}]}
    assert [t["hold_percent"] for t in numbers(statement)["tables"]] == [-5.0, None]


def test_whole_numbers_that_may_be_empty_are_named_for_the_import() -> None:
    """A number not summed is empty on the totals row, and `trigger` on a hand level's hit:
    OPERATIONS.md names each such column's type for a reader that makes empty cells NaN, and
    every cell of them that is not empty is a whole number (D250)."""
    found = re.findall(r"dtype=\{([^}]+)\}\)?`\s+for\s+`(\w+)\.csv`", DOCS.read_text())
    hinted = {csv_name: types for types, csv_name in found}
    named = {
        name: sorted(re.findall(r'"(\w+)": "Int64"', hinted.get(name, "")))
        for name in ("pools", "hits")
    }
    numbers_not_summed = {
        name: sorted(c.name for c in FILES[name].figures if c.kind is Kind.NUMBER)
        for name in ("pools", "hits")
    }
    assert named == numbers_not_summed
    rows = [
        {"pool": "a", "first_seq": 1, "last_seq": 9, **money("adjustments", 0)},
        {"pool": "b", "first_seq": 3, "last_seq": 4, **money("adjustments", 0)},
    ]
    for line in read(day_csv("pools", [("2026-11-23", rows)])):
        cells = [line["first_seq"], line["last_seq"]]
        assert all(c == "" or int(c) >= 0 for c in cells), line
        assert (line["pool"] == TOTAL) == (cells == ["", ""]), line


def test_a_day_closed_before_voids_apart_keeps_its_figures_under_todays_columns() -> None:
    """A layout-4 day: its voided rounds' jackpots back on the meter are today's
    `returned_jackpots`; what it never recorded (owed at open, paid, voided) is an empty
    cell, never a made-up zero; it has no voids file (409 naming the section)."""
    from jackpot.conflicts import SectionNotRecordedError
    from jackpot.domain.dayclose import PoolDay
    from jackpot.domain.dayfiles import section_rows

    day = PoolDay("main", returned_jackpots=1, returned_jackpots_cents=12_345)
    old = {"day": "2026-11-01", "layout_version": 4, "pools": [day.row(4)]}
    assert "returned_jackpots_count" not in old["pools"][0]
    [row] = section_rows(old, "pools")
    assert (row["returned_jackpots_count"], row["returned_jackpots_cents"]) == (1, 12_345)
    [line, total] = csv.DictReader(io.StringIO(day_csv("pools", [("2026-11-01", [row])])))
    assert (line["returned_jackpots_count"], line["returned_jackpots"]) == ("1", "123.45")
    for name in ("owed_at_open_count", "owed_at_open", "paid_jackpots", "voided_jackpots"):
        assert line[name] == "" and total[name] == "", name
    with pytest.raises(SectionNotRecordedError) as refused:
        section_rows(old, "voids")
    assert refused.value.field == "section" and "layout 4" in str(refused.value)


def test_a_day_closed_before_hand_pays_owed_leaves_their_columns_empty() -> None:
    """A layout-5 day recorded no hand pays owed: its pools.csv has the layout-6 columns
    empty (never a made-up zero), on its rows and its totals row, while a layout-6 day's
    foot: owed at open + held − paid − voided = owed at close."""
    from jackpot.domain.dayclose import HAND_PAY_STEMS, PoolDay
    from jackpot.domain.dayfiles import section_rows

    day = PoolDay("main", hand_owed_count=1, hand_owed_cents=7_000, hand_count=2,
                  hand_cents=300_000, hand_paid_count=1, hand_paid_cents=7_000,
                  hand_voided_count=1, hand_voided_cents=100_000, hand_unpaid_count=1,
                  hand_unpaid_cents=200_000)  # fmt: skip
    old = {"day": "2026-11-01", "layout_version": 5, "pools": [day.row(5)]}
    [row] = section_rows(old, "pools")
    [line, total] = csv.DictReader(io.StringIO(day_csv("pools", [("2026-11-01", [row])])))
    for stem in HAND_PAY_STEMS:
        for name in (f"{stem}_count", stem, f"{stem}_cents"):
            assert line[name] == "" and total[name] == "", name
    assert line["owed_at_open_count"] == "0", "layout 5's own figures are still there"
    new = {"day": "2026-11-02", "layout_version": 6, "pools": [day.row(6)]}
    [line, total] = csv.DictReader(
        io.StringIO(day_csv("pools", [("2026-11-02", section_rows(new, "pools"))]))
    )
    counts = [int(total[f"{s}_count"]) for s in HAND_PAY_STEMS]
    cents = [int(total[f"{s}_cents"]) for s in HAND_PAY_STEMS]
    assert counts[0] + counts[1] - counts[2] - counts[3] == counts[4] == 1
    assert cents[0] + cents[1] - cents[2] - cents[3] == cents[4] == 200_000
    assert (line["unpaid_hand_pays"], line["liability"]) == ("2000.00", "0.00")
