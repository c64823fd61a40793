"""A gaming day's arithmetic: exact cents and remainders, hold %, and a pool's day."""

from __future__ import annotations

from datetime import date

from jackpot.domain.dayclose import (
    HAND_PAY_STEMS,
    hit_register,
    money,
    percent,
    pool_day,
    table_count_row,
    table_days,
    unpaid_before,
    void_register,
)
from jackpot.domain.gamingday import GamingDays


def test_money_is_whole_cents_and_an_exact_remainder() -> None:
    assert money("x", 1_234_567) == {"x_cents": 123, "x_subcent_units": 4_567}
    assert money("x", -1) == {"x_cents": -1, "x_subcent_units": 9_999}
    assert money("x", -10_000) == {"x_cents": -1, "x_subcent_units": 0}


def test_hold_percent_is_rounded_half_away_from_zero_in_integers() -> None:
    assert percent(1, 3) == "33.33"
    assert percent(2, 3) == "66.67"
    assert percent(1, 8) == "12.50"
    assert percent(-1, 8) == "-12.50"
    assert percent(0, 5) == "0.00"
    assert percent(5, 0) == ""


def test_a_pools_day_balances_to_the_unit() -> None:
    opening = {
        "seq": 3,
        "type": "contribution",
        "value_units": 1_000_000_000,
        "reserve_units": 20_000,
    }
    entries = [
        {"seq": 4, "type": "contribution", "to_visible_units": 50_000,
         "to_reserve_units": 10_001, "overflow_units": 1, "value_units": 1_000_050_000,
         "reserve_units": 30_001},
        {"seq": 5, "type": "hit", "payout": "P1", "amount": 100_000, "value_units": 50_000,
         "reserve_units": 30_001},
        {"seq": 6, "type": "reset", "seed_units": 999_950_000, "from_reserve_units": 0,
         "value_units": 1_000_000_000, "reserve_units": 30_001},
        {"seq": 7, "type": "adjustment", "amount_units": -1, "value_units": 1_000_000_000,
         "reserve_units": 30_000},
    ]  # fmt: skip
    day, unpaid = pool_day("main", opening, entries, {"P0": 700})
    assert day.balanced
    assert (day.closing_meter, day.closing_reserve) == (1_000_000_000, 30_000)
    assert unpaid == {"P0": 700, "P1": 100_000}
    row = day.row()
    assert row["liability_cents"] * 10_000 + row["liability_subcent_units"] == (
        1_000_000_000 + 30_000 + (700 + 100_000) * 10_000
    )
    tampered, _ = pool_day("main", opening, entries[:-1] + [{**entries[-1], "amount_units": 0}], {})
    assert not tampered.balanced


def test_a_jackpot_is_owed_until_paid_or_voided_and_an_awaiting_one_is_still_owed() -> None:
    opening = {"seq": 1, "type": "created", "value_units": 0, "reserve_units": 0}
    hits = [
        {"seq": n + 2, "type": "hit", "payout": f"P{n}", "amount": 100 * (n + 1),
         "value_units": 0, "reserve_units": 0}
        for n in range(4)
    ]  # fmt: skip
    steps = [
        {"seq": 10, "type": "payout_paid", "payout": "P0"},
        {"seq": 11, "type": "payout_confirmed", "payout": "P1"},  # awaiting approval
        {"seq": 12, "type": "payout_disputed", "payout": "P2"},
        {"seq": 13, "type": "payout_voided", "payout": "P3"},
    ]
    day, unpaid = pool_day("main", opening, hits + steps, {})
    assert unpaid == {"P1": 200, "P2": 300}
    assert (day.unpaid_count, day.unpaid_cents) == (2, 500)
    without_steps, _ = pool_day("main", opening, hits, {})
    assert day.expected_closing == without_steps.expected_closing, "no step moves money"


def test_a_tables_win_is_handle_less_every_pay() -> None:
    static = {"table": "T1", "spots": [
        {"spot": 1, "outcome": "tie", "wager": 500, "pay": 2500, "envy": 0},
        {"spot": 2, "outcome": "none", "wager": 300, "pay": 0, "envy": 100},
    ]}  # fmt: skip
    [t] = table_days([(static, {"jackpots": [{"amount": 40}]})])
    assert (t.handle_cents, t.win_cents, t.side_bets) == (800, 800 - 2500 - 100 - 40, 2)
    assert t.outcomes == {"tie": 1, "none": 1}


def test_a_gaming_day_follows_the_local_clock_across_a_change() -> None:
    days = GamingDays.of("06:00", "America/New_York")
    start, end = days.bounds(date(2026, 10, 31))  # clocks go back the next night
    assert (end - start) == 25 * 3_600_000
    assert days.iso(start) == "2026-10-31T06:00:00.000-04:00"
    assert days.of_time(start) == date(2026, 10, 31)
    assert days.of_time(start - 1) == date(2026, 10, 30)


def test_a_days_name_is_its_calendars_whichever_instants_came_before() -> None:
    """name_of keeps the last day it found: an instant in it, before it, after it, across a
    change of the clocks and at each bound, is still named by the calendar."""
    days = GamingDays.of("06:00", "America/New_York")
    start, end = days.bounds(date(2026, 10, 31))
    spring, _ = days.bounds(date(2026, 3, 8))
    instants = [start, start - 1, end - 1, end, start + 1, spring - 1, spring, end + 3_600_000,
                start - 86_400_000, end - 1, 0, start]  # fmt: skip
    for ms in instants:
        assert days.name_of(ms) == days.of_time(ms).isoformat(), ms


def _hit(seq: int, payout: str, entry_type: str = "hit", **more: object) -> dict[str, object]:
    return {
        "seq": seq,
        "ts": 1_000 * seq,
        "type": entry_type,
        "payout": payout,
        "table": "T1",
        "round": f"r{seq}",
        "spot": 3,
        "outcome": "suited_four_of_a_kind",
        "amount": 250_000,
        **more,
    }


def _step(seq: int, kind: str, payout: str, who: str) -> dict[str, object]:
    return {"seq": seq, "ts": 1_000 * seq, "type": kind, "payout": payout, "who": who}


def test_the_hit_register_names_who_verified_apart_from_who_disputed() -> None:
    rows = [
        _hit(1, "P1", player="T1-p3"),
        _hit(2, "P2", entry_type="hand_pay", kind="envy"),
        {"seq": 3, "ts": 3_000, "type": "contribution"},
        _step(4, "payout_confirmed", "P1", "Ann Lee (operator:a1)"),
        _step(5, "payout_disputed", "P1", "Bob Ray (operator:b2)"),
        _step(6, "payout_confirmed", "P2", "Ann Lee (operator:a1)"),
        _step(7, "payout_paid", "P2", "Cy Ho (operator:c3)"),
        _hit(8, "P3"),
    ]
    register = hit_register("main", rows, lambda ts: f"t{ts}")
    by = {h["payout"]: h for h in register}
    assert [h["payout"] for h in register] == ["P1", "P2", "P3"]  # hits only, in order
    assert by["P1"]["status_at_close"] == "disputed"
    assert (by["P1"]["verified_by"], by["P1"]["verified_at"]) == ("Ann Lee (operator:a1)", "t4000")
    assert (by["P1"]["disputed_by"], by["P1"]["disputed_at"]) == ("Bob Ray (operator:b2)", "t5000")
    assert by["P2"]["status_at_close"] == "paid"
    assert by["P2"]["kind"] == "envy" and by["P2"]["verified_by"] == "Cy Ho (operator:c3)"
    assert by["P3"]["status_at_close"] == "pending"
    assert by["P3"]["verified_by"] == by["P3"]["voided_by"] == ""
    assert by["P1"]["kind"] == "meter" and by["P1"]["player"] == "T1-p3"


def test_a_jackpot_unpaid_before_a_day_is_carried_until_paid_or_voided() -> None:
    rows = [
        _hit(1, "P1"),
        _hit(2, "P2"),
        _hit(3, "P3"),
        _step(4, "payout_confirmed", "P1", "a"),
        _step(5, "payout_paid", "P2", "a"),
        _step(6, "payout_voided", "P3", "a"),
    ]
    assert unpaid_before(rows) == {"P1": 250_000}


def test_a_table_counts_row_puts_both_counts_side_by_side() -> None:
    check = {
        "table": "T1",
        "differences": {"rounds": 2},
        "table_counts": {"rounds": 12, "side_bets": 30},
        "controller_counts": {"rounds": 10, "side_bets": 30},
        "checked_at": 9_000,
        "through": 8_500,
    }
    assert table_count_row(check, lambda ts: f"t{ts}") == {
        "table": "T1",
        "matches": False,
        "table_rounds": 12,
        "table_side_bets": 30,
        "controller_rounds": 10,
        "controller_side_bets": 30,
        "counted_through": "t8500",  # as of: what both sides counted to (layout 5)
        "checked_at": "t9000",
    }
    assert "counted_through" not in table_count_row(check, lambda ts: f"t{ts}", 4)


def _register_rows(*steps: dict[str, object]) -> list[dict[str, object]]:
    hit = {"type": "hit", "ts": 1, "payout": "P1", "table": "T1", "round": "r1", "spot": 2,
           "player": "p", "outcome": "tie", "amount": 5_000}  # fmt: skip
    return [hit, *({"payout": "P1", "ts": 2 + i, **s} for i, s in enumerate(steps))]


PEOPLE = {"operator:aaa": "Dana Reyes", "operator:bbb": "Lee Chan"}
PAY = {"paid_by": "Ana Ruiz", "witness": "Sam Okafor", "slip": "HP-7"}


def test_the_register_names_the_people_of_a_confirmed_and_approved_hand_pay() -> None:
    iso = str
    confirmed = {"type": "payout_confirmed", "who": "operator:aaa", **PAY}
    approved = {"type": "payout_paid", "who": "operator:bbb", "confirmed_by": "operator:aaa",
                "approver": "Lee Chan", **PAY}  # fmt: skip
    (row,) = hit_register("main", _register_rows(confirmed, approved), iso, PEOPLE)
    assert row["status_at_close"] == "paid"
    assert (row["verified_by"], row["approved_by"]) == ("Dana Reyes", "Lee Chan")
    assert (row["paid_by"], row["witness"], row["slip"]) == ("Ana Ruiz", "Sam Okafor", "HP-7")
    # confirmed on an earlier day: the approval's entry names who confirmed
    (later,) = hit_register("main", _register_rows(approved), iso, PEOPLE)
    assert (later["verified_by"], later["approved_by"]) == ("Dana Reyes", "Lee Chan")
    # a key without a label is named by itself; layout 1 named keys and had no pay fields
    (keyed,) = hit_register("main", _register_rows({**confirmed, "type": "payout_paid"}), iso, {})
    assert keyed["verified_by"] == "operator:aaa" and keyed["approved_by"] == ""
    (old,) = hit_register("main", _register_rows(confirmed, approved), iso, PEOPLE, layout=1)
    assert old["verified_by"] == "operator:bbb" and "slip" not in old and "approved_by" not in old


def test_the_register_marks_each_level_type_and_a_trigger_s_reveal() -> None:
    (hand,) = hit_register("main", _register_rows(), str, PEOPLE)
    assert (hand["level"], hand["trigger"], hand["commitment"]) == ("hand", None, "")
    assert hand["salt"] == ""
    reveal = {"level": "must_hit_by", "trigger_cents": 5_020, "commitment": "ab" * 32,
              "salt": "cd" * 16}  # fmt: skip
    rows = _register_rows()
    rows[0] = {**rows[0], **reveal}
    (won,) = hit_register("mhb", rows, str, PEOPLE)
    assert (won["level"], won["trigger"], won["commitment"]) == ("must_hit_by", 5_020, "ab" * 32)
    assert won["salt"] == "cd" * 16
    (earlier,) = hit_register("mhb", rows, str, PEOPLE, layout=2)
    assert "level" not in earlier, "a day recorded in layout 2 is computed again in it"
    (three,) = hit_register("mhb", rows, str, PEOPLE, layout=3)
    assert "salt" not in three and three["commitment"] == "ab" * 32, "layout 3 had no salt"


def test_what_is_owed_rolls_over_the_day_and_a_paid_jackpot_voided_was_paid() -> None:
    """Owed at open + won − paid − voided = owed at close (D278): a jackpot carried in and
    paid, one won and voided while owed, one won, paid and then voided (paid: not voided
    again), one won and still owed."""
    hits = [
        {"seq": n + 1, "type": "hit", "payout": f"P{n}", "amount": 100 * (n + 1)} for n in range(3)
    ]
    steps = [
        {"seq": 10, "type": "payout_paid", "payout": "P-old"},
        {"seq": 11, "type": "payout_voided", "payout": "P0"},
        {"seq": 12, "type": "payout_paid", "payout": "P1"},
        {"seq": 13, "type": "payout_voided", "payout": "P1"},
    ]
    day, unpaid = pool_day("main", None, hits + steps, {"P-old": 5_000})
    assert (day.owed_count, day.owed_cents) == (1, 5_000)
    assert (day.jackpots, day.jackpots_cents) == (3, 600)
    assert (day.paid_count, day.paid_cents) == (2, 5_200)
    assert (day.voided_count, day.voided_cents) == (1, 100)
    assert unpaid == {"P2": 300}
    assert day.owed_cents + day.jackpots_cents - day.paid_cents - day.voided_cents == 300
    row = day.row()
    assert (row["voided_jackpots_count"], row["returned_jackpots_count"]) == (1, 0)
    old = day.row(4)  # layouts 1–4: voided_jackpots were those back on the meter
    assert old["voided_jackpots_count"] == 0 and "owed_at_open_count" not in old


def test_the_voids_register_counts_a_jackpot_voided_with_its_round_once() -> None:
    """A round's void and the payout entries it wrote: one row, its jackpot counted in it; a
    payout's own void asked by one person and applied by another: a row naming both."""
    people = {"operator:a": "Dana Reyes (E1)", "operator:b": "Sam Okafor (E2)"}
    house = [
        {"ts": 2_000, "table": "T1", "round": "r7", "who": "operator:b",
         "requested_by": "operator:a", "whole": "1", "spots": "1,2", "bets": 2,
         "wagered": 1_000, "fixed": 0, "envy": 50, "jackpot": 90_000,
         "reason": "second face-up card", "note": "seen on camera"},
    ]  # fmt: skip
    payouts = [
        ("main", {"ts": 2_000, "table": "T1", "round": "r7", "who": "operator:b",
                  "payout": "P1", "amount": 90_000, "note": "round voided: second face-up card",
                  "from": "pending"}),
        ("main", {"ts": 1_000, "table": "T2", "round": "r3", "who": "operator:a",
                  "requested_by": "operator:b", "requester": "Sam Okafor (E2)",
                  "payout": "P0", "amount": 17_306, "note": "misdeal, review 88",
                  "from": "disputed", "approval_note": ""}),
    ]  # fmt: skip
    rows = void_register(house, payouts, str, people)
    assert [(r["kind"], r["round"]) for r in rows] == [("payout", "r3"), ("round", "r7")]
    payout, whole = rows
    assert (payout["asked_by"], payout["approved_by"], payout["reason"]) == (
        "Sam Okafor (E2)",
        "Dana Reyes (E1)",
        "misdeal, review 88",
    )
    assert (payout["payout_amount_cents"], payout["voided_from"]) == (17_306, "disputed")
    assert (whole["spots"], whole["whole"], whole["jackpots"]) == ("1 2", True, 1)
    assert whole["jackpot_pays_cents"] == 90_000
    assert (whole["asked_by"], whole["approved_by"], whole["approval_note"]) == (
        "Dana Reyes (E1)",
        "Sam Okafor (E2)",
        "seen on camera",
    )
    assert sum(r["payout_amount_cents"] + r["jackpot_pays_cents"] for r in rows) == 107_306


def test_a_void_of_the_rest_of_a_round_names_the_spots_it_covered() -> None:
    """Spot 1 voided, then the rest: the second row covers spots 2 and 3 (an examiner read
    `all` there), and says the round is void whole after it."""
    first = {"ts": 1, "table": "T1", "round": "r1", "who": "operator:a", "whole": "0",
             "spots": "1", "bets": 1, "wagered": 500, "fixed": 0, "envy": 0, "jackpot": 0,
             "reason": "no card to spot 1"}  # fmt: skip
    rest = {**first, "ts": 2, "whole": "1", "spots": "2,3", "bets": 2, "reason": "malfunction"}
    rows = void_register([first, rest], [], str, {})
    assert [(r["spots"], r["whole"], r["bets"]) for r in rows] == [
        ("1", False, 1),
        ("2 3", True, 2),
    ]


def test_no_hold_is_given_on_a_handle_voids_took_below_nothing() -> None:
    """A later day's voids beyond the day's play: the net handle is negative and a hold on it
    means nothing (from layout 5 it is empty, D278); layouts before keep what they gave."""
    from jackpot.domain.dayclose import TableDay

    day = TableDay("T1", handle_cents=800, voided_handle_cents=1_000, voided_fixed_pays_cents=900)
    assert day.win_cents == 800 - 1_000 + 900
    assert day.hold_percent() == "" and day.row([])["hold_percent"] == ""
    assert day.hold_percent(4) == "-350.00"


def test_a_tables_void_names_every_approver_and_marks_the_device() -> None:
    """An examiner's day (issue 40): a table's key asks a $27,001.20 void, Dana approves
    ("seen on camera"), Lee's approval applies it ("agree"): the row names both approvers in
    order with their notes, and the table's key as a device, never as a person."""
    people = {"table:t1": "pit 3 adapters", "operator:a": "Dana Reyes (E1)",
              "operator:b": "Lee Park (E2)"}  # fmt: skip
    approved = {"ts": 5, "table": "T2", "round": "r6", "who": "operator:a",
                "person": "Dana Reyes (E1)", "requested_by": "table:t1",
                "note": "seen on camera"}  # fmt: skip
    void = {"ts": 9, "table": "T2", "round": "r6", "who": "operator:b", "requested_by": "table:t1",
            "approved_first_by": "operator:a", "whole": "1", "spots": "1", "bets": 1,
            "wagered": 500, "fixed": 0, "envy": 0, "jackpot": 2_700_120, "reason": "malfunction",
            "note": "agree"}  # fmt: skip
    [row] = void_register([void], [], str, people, [approved])
    assert row["asked_by"] == "pit 3 adapters (table key)"
    assert row["approved_by"] == "Dana Reyes (E1), then Lee Park (E2)"
    assert row["approval_note"] == "Dana Reyes (E1): seen on camera; Lee Park (E2): agree"
    # one person's approval of a person's void: the note alone, as before
    one = {**void, "requested_by": "operator:a", "approved_first_by": ""}
    [row] = void_register([one], [], str, people)
    assert (row["asked_by"], row["approved_by"], row["approval_note"]) == (
        "Dana Reyes (E1)",
        "Lee Park (E2)",
        "agree",
    )


def test_hand_pays_owed_roll_over_the_day_apart_from_the_pools_jackpots() -> None:
    """Owed at open + held − paid − voided = owed at close for the hand pays (D300): one
    carried in and paid, one held and voided while owed (a round's void writes the same
    entry), one held, paid and then voided (paid: not voided again), one held and still
    owed. None is a jackpot of the pool's, and none moves its money."""

    def held(seq: int, payout: str, cents: int) -> dict[str, object]:
        return {"seq": seq, "type": "hand_pay", "payout": payout, "kind": "fixed",
                "amount": cents}  # fmt: skip

    rows = [
        held(1, "H0", 100_000),
        held(2, "H1", 200_000),
        held(3, "H2", 300_000),
        {"seq": 4, "type": "hit", "payout": "P0", "amount": 50_000},
        {"seq": 10, "type": "payout_paid", "payout": "H-old"},
        {"seq": 11, "type": "payout_voided", "payout": "H0"},
        {"seq": 12, "type": "payout_paid", "payout": "H1"},
        {"seq": 13, "type": "payout_voided", "payout": "H1"},
    ]
    day, unpaid = pool_day("main", None, rows, {}, {"H-old": 7_000})
    assert (day.hand_owed_count, day.hand_owed_cents) == (1, 7_000)
    assert (day.hand_count, day.hand_cents) == (3, 600_000)
    assert (day.hand_paid_count, day.hand_paid_cents) == (2, 207_000)
    assert (day.hand_voided_count, day.hand_voided_cents) == (1, 100_000)
    assert (day.hand_unpaid_count, day.hand_unpaid_cents) == (1, 300_000)
    assert day.hand_pays_unpaid == {"H2": 300_000}
    # the pool's own jackpots and money are untouched by them
    assert unpaid == {"P0": 50_000}
    assert (day.jackpots, day.paid_count, day.voided_count) == (1, 0, 0)
    alone, _ = pool_day("main", None, [r for r in rows if r["type"] == "hit"], {})
    assert day.expected_closing == alone.expected_closing, "no hand pay moves the pool's money"
    row = day.row()
    assert [row[f"{s}_count"] for s in HAND_PAY_STEMS] == [1, 3, 2, 1, 1]
    assert [row[f"{s}_cents"] for s in HAND_PAY_STEMS] == [7_000, 600_000, 207_000, 100_000,
                                                           300_000]  # fmt: skip
    assert row["liability_cents"] == 50_000, "the pool's liability: its jackpots, not the pays"
    # a day recorded in layout 5 is computed again without them (its record has none)
    assert not any(k.startswith(HAND_PAY_STEMS) for k in day.row(5))
    assert "paid_hand_pays_count" not in day.row(4)


def test_hand_pays_unpaid_before_a_day_are_found_in_the_journal() -> None:
    rows = [
        {"type": "hand_pay", "payout": "H1", "amount": 100_000},
        {"type": "hand_pay", "payout": "H2", "amount": 200_000},
        {"type": "hit", "payout": "P1", "amount": 5_000},
        _step(4, "payout_paid", "H1", "a"),
    ]
    assert unpaid_before(rows, "hand_pay") == {"H2": 200_000}
    assert unpaid_before(rows) == {"P1": 5_000}
