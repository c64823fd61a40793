"""What the operator's commands print: money to the cent with integer arithmetic, exact units,
rates, times in the casino's zone, ages and aligned tables; where they find the controller
and the key."""

from __future__ import annotations

from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from jackpot.cli.formatting import age, cell, exact, fields, money, rate, table, when
from jackpot.cli.payouts import payout_detail, pool_of, won_by
from jackpot.cli.pools import pool_detail
from jackpot.cli.remote import UsageError, api_key, base_url
from jackpot.cli.tables import counts_cell, counts_detail


@pytest.mark.parametrize(
    ("cents", "shown"),
    [
        (0, "$0.00"),
        (5, "$0.05"),
        (99, "$0.99"),
        (100, "$1.00"),
        (123_456, "$1,234.56"),
        (100_000_000_01, "$100,000,000.01"),
        (-5, "-$0.05"),
        (-123_456, "-$1,234.56"),
        # beyond a float's 53 bits a float would round the cents away
        (2**62 + 1, "$46,116,860,184,273,879.05"),
    ],
)
def test_money_is_dollars_and_cents_with_thousands_separators(cents: int, shown: str) -> None:
    assert money(cents) == shown


def test_exact_units_are_dollars_to_the_millionth() -> None:
    assert exact(0) == "$0.000000"
    assert exact(60_000) == "$0.060000"  # 6 cents
    assert exact(1) == "$0.000001"  # 1/10,000 cent
    assert exact(1_000_050_000) == "$1,000.050000"
    assert exact(-999_990_001) == "-$999.990001"


def test_rates_are_percentages_of_basis_points() -> None:
    assert [rate(bp) for bp in (0, 1, 20, 400, 10_000, -250)] == [
        "0.00%",
        "0.01%",
        "0.20%",
        "4.00%",
        "100.00%",
        "-2.50%",
    ]


def test_times_show_in_the_casinos_zone_with_its_abbreviation() -> None:
    ms = 1_795_600_000_999  # 2026-11-25T09:46:40.999Z: the seconds are not rounded up
    assert when(ms, ZoneInfo("UTC")) == "2026-11-25 09:46:40 UTC"
    assert when(ms, ZoneInfo("America/New_York")) == "2026-11-25 04:46:40 EST"
    summer = 1_783_000_000_000  # 2026-07-02T13:46:40Z
    assert when(summer, ZoneInfo("America/New_York")) == "2026-07-02 09:46:40 EDT"
    assert when(None, ZoneInfo("UTC")) == "-"


def test_ages_show_their_two_largest_units() -> None:
    now = 10_000_000_000
    assert age(now, now) == "0s"
    assert age(now - 45_999, now) == "45s"
    assert age(now - 187_000, now) == "3m07s"
    assert age(now - (2 * 3600 + 5 * 60) * 1000, now) == "2h05m"
    assert age(now - (3 * 86400 + 4 * 3600 + 59) * 1000, now) == "3d04h"
    assert age(now + 5000, now) == "0s", "a clock ahead is no negative age"
    assert age(None, now) == "-"


def test_tables_align_their_columns_and_numbers_to_the_right() -> None:
    text = table(
        ["ID", "AMOUNT", "STATUS"],
        [["P1", "$1,000.05", "pending"], ["P000002", "$5.00", "paid"]],
        right={1},
    )
    assert text.splitlines() == [
        "ID          AMOUNT  STATUS",
        "P1       $1,000.05  pending",
        "P000002      $5.00  paid",
    ]
    assert fields([("pool", "main"), ("reset", "$1.00")]) == "pool   main\nreset  $1.00"
    assert [cell(v) for v in (None, True, False, ["a", "b"], [], 7)] == [
        "-", "yes", "no", "a,b", "-", "7",
    ]  # fmt: skip


def test_the_controllers_url_comes_from_the_option_the_variable_or_the_bind() -> None:
    assert base_url("http://h:1/", {"JACKPOT_URL": "http://x:2"}) == "http://h:1"
    assert base_url(None, {"JACKPOT_URL": "https://x:2"}) == "https://x:2"
    assert base_url(None, {"JACKPOT_BIND": "10.0.0.5:9000"}) == "http://10.0.0.5:9000"
    assert base_url(None, {"JACKPOT_BIND": "0.0.0.0:9000"}) == "http://127.0.0.1:9000"
    assert base_url(None, {}) == "http://127.0.0.1:8000"
    assert base_url("localhost:8000", {}) == "http://localhost:8000"
    with pytest.raises(UsageError, match="http"):
        base_url("ftp://h", {})


def test_the_key_comes_from_the_option_a_file_or_the_variables(tmp_path: Path) -> None:
    named = tmp_path / "key"
    named.write_text("jpk_from_file\nignored\n")
    env = {"JACKPOT_KEY": "jpk_env", "JACKPOT_KEY_FILE": str(named)}
    assert api_key("jpk_option", None, env) == "jpk_option"
    assert api_key(None, named, env) == "jpk_from_file", "a file named on the command line"
    assert api_key(None, None, env) == "jpk_env"
    assert api_key(None, None, {"JACKPOT_KEY_FILE": str(named)}) == "jpk_from_file"
    assert api_key(None, None, {}) is None, "public reads need no key"
    with pytest.raises(UsageError, match="cannot read"):
        api_key(None, tmp_path / "missing", {})
    (tmp_path / "empty").write_text("\n")
    with pytest.raises(UsageError, match="no key"):
        api_key(None, tmp_path / "empty", {})


def test_a_void_asked_for_says_it_awaits_another_person() -> None:
    """`jackpot payouts void` from the approval threshold up: the jackpot keeps its status,
    and the answer says the void is only asked for (D226)."""
    from jackpot.cli.payouts.steps import _stepped

    shown = _stepped(
        {
            "id": "P000001",
            "status": "disputed",
            "amount": 100_005,
            "changed": True,
            "void_request": {
                "requested_by": "operator:ab12",
                "person": "Dana Reyes",
                "reason": "misdeal",
                "at": 1_700_000_000_000,
                "from": "disputed",
            },
        }
    )
    head, asked = shown.splitlines()[:2]
    assert head == "payout P000001 is disputed: $1,000.05"
    assert "void asked by Dana Reyes" in asked and "approve-void" in asked
    assert "from disputed: misdeal; awaits another person's approval" in shown


def test_a_pool_shows_why_its_staged_change_was_refused() -> None:
    pool = {"pool": "main", "state": "suspended", "value": 100_000, "reset": 100_000,
            "cap": None, "rate_bp": 200, "policy": "cap", "hits": 0,
            "staged": {"effective_at": None, "reset": 100_000, "cap": None, "rate_bp": 2_554,
                       "reserve_rate_bp": 20, "policy": "cap", "who": "operator:a",
                       "reason": "max"},
            "staged_refused": "not applied: table T1: a bet would return 100.48%"}  # fmt: skip
    shown = pool_detail(pool, ZoneInfo("UTC"))
    assert "REFUSED" in shown and "100.48%" in shown
    assert "REFUSED" not in pool_detail({**pool, "staged_refused": None}, ZoneInfo("UTC"))


def test_a_payout_says_what_won_it_and_which_pool_pays_it() -> None:
    jackpot = {"id": "P1", "pool": "main", "outcome": "suited_four_of_a_kind", "amount": 100_005}
    assert (won_by(jackpot), pool_of(jackpot)) == ("suited_four_of_a_kind", "main")
    # a must-hit-by level is won at its trigger, whatever the hand (often none)
    level = {"pool": "mhb", "outcome": "none", "level": "must_hit_by", "trigger": 49_873}
    assert (won_by(level), pool_of(level)) == ("must-hit-by trigger $498.73", "mhb")
    assert won_by({**level, "level": "mystery"}) == "mystery trigger $498.73"
    # a fixed or envy pay held as a hand pay is the table rack's, not its first pool's
    fixed = {"pool": "main", "outcome": "suited_tie", "kind": "fixed", "amount": 500_000}
    assert (won_by(fixed), pool_of(fixed)) == ("fixed pay: suited_tie", "-")
    shown = payout_detail({"id": "P2", **fixed}, ZoneInfo("UTC"))
    assert "outcome  fixed pay: suited_tie" in shown
    assert "pool     none: paid at the table (journaled in main)" in shown
    assert "amount   $5,000.00" in shown
    assert "trigger  $498.73" in payout_detail({"id": "P3", **level}, ZoneInfo("UTC"))


def test_a_tables_own_counts_are_shown_with_what_differs_and_as_of_when() -> None:
    utc = ZoneInfo("UTC")
    assert (counts_cell(None), counts_detail(None, utc)) == ("-", "none reported yet")
    counts = {"rounds": 1_591, "side_bets": 3_000, "handle": 1_234_500}
    match = {
        "day": "2026-11-27",
        "through": 1_795_800_000_000,
        "checked_at": 1_795_800_015_000,
        "table_counts": counts,
        "controller_counts": counts,
        "differences": {},
    }
    assert counts_cell(match) == "2026-11-27 match"
    assert counts_detail(match, utc) == (
        "gaming day 2026-11-27: match (1,591 rounds through 2026-11-27 17:20:00 UTC; "
        "checked 2026-11-27 17:20:15 UTC)"
    )
    differ = {
        **match,
        "differences": {
            "rounds": {"table": 1_591, "controller": 1_594},
            "handle": {"table": 1_234_500, "controller": 1_235_000},
        },
    }
    assert counts_cell(differ) == "2026-11-27 DIFFER"
    assert counts_detail(differ, utc).startswith(
        "gaming day 2026-11-27: DIFFER: rounds table 1,591 controller 1,594; handle table "
        "$12,345.00 controller $12,350.00 (through 2026-11-27 17:20:00 UTC;"
    )
    acked = {**differ, "acknowledged": {"who": "E1042", "reason": "late round, counted next day"}}
    assert counts_cell(acked) == "2026-11-27 DIFFER (acknowledged)"
    assert counts_detail(acked, utc).endswith(
        "; acknowledged by E1042: late round, counted next day"
    )
