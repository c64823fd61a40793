"""A payout's record folded from its journal entries, and the criteria of a search."""

from __future__ import annotations

from datetime import date

import pytest

from jackpot.domain.gamingday import GamingDays
from jackpot.domain.payout import Payout
from jackpot.domain.payoutanswers import PayoutStep
from jackpot.domain.payoutrecord import (
    PayoutQuery,
    changed_at,
    cursor_text,
    fold,
    history_query,
    order,
    parse_cursor,
    people,
    wanted_people,
)
from jackpot.errors import ValidationError

DAYS = GamingDays.of("06:00", "America/New_York")
MADE = {"type": "hand_pay", "ts": "1000", "who": "table:t1", "payout": "east:P000012",
        "kind": "envy", "table": "T1", "round": "r9", "spot": "3", "player": "",
        "outcome": "suited_war", "amount": "250000"}  # fmt: skip


def entry(kind: str, ts: int, who: str = "operator:a1", **fields: str) -> dict[str, str]:
    return {"type": kind, "ts": str(ts), "who": who, "payout": "east:P000012", "table": "T1",
            "round": "r9", "spot": "3", "amount": "250000", "note": "", **fields}  # fmt: skip


def test_a_hand_pay_confirmed_then_approved_folds_to_the_live_record() -> None:
    made = fold(None, "east-top", MADE)
    assert made == {"id": "east:P000012", "pool": "east-top", "table": "T1", "round": "r9",
                    "spot": 3, "player": None, "outcome": "suited_war", "amount": 250000,
                    "status": "pending", "created": 1000, "kind": "envy"}  # fmt: skip
    confirmed = fold(
        made,
        "east-top",
        entry("payout_confirmed", 2000, paid_by="Dana", witness="Lee", slip="HP-1"),
    )
    assert confirmed["status"] == "awaiting_approval"
    assert (confirmed["paid_by"], confirmed["witness"], confirmed["slip"]) == (
        "Dana",
        "Lee",
        "HP-1",
    )
    approved = fold(
        confirmed,
        "east-top",
        entry("payout_paid", 3000, "operator:b2", approver="Sam", confirmed_by="operator:a1"),
    )
    assert approved["status"] == "paid"
    assert (approved["approved_by"], approved["approver"], approved["paid_at"]) == (
        "operator:b2",
        "Sam",
        3000,
    )
    assert approved["confirmed_by"] == "operator:a1" and approved["confirmed_at"] == 2000
    assert made["status"] == "pending", "the record before is never changed"
    assert changed_at(Payout.of(approved)) == 3000
    assert people(Payout.of(approved)) == {"dana", "lee", "operator:a1", "operator:b2"}


def test_a_dispute_and_a_void_keep_their_reason_and_where_the_payout_was() -> None:
    made = fold(None, "main", MADE)
    disputed = fold(made, "main", entry("payout_disputed", 1500, note="camera check"))
    voided = fold(
        disputed, "main", entry("payout_voided", 1600, note="misdeal", **{"from": "disputed"})
    )
    assert (voided["status"], voided["voided_from"], voided["note"]) == (
        "void",
        "disputed",
        "misdeal",
    )
    assert voided["disputed_by"] == "operator:a1" and voided["disputed_at"] == 1500
    assert [
        PayoutStep.of(e, 0, None, None).step
        for e in (MADE, entry("payout_voided", 1, **{"from": "paid"}))
    ] == [
        "held",
        "voided",
    ]


def test_a_step_before_the_payout_was_made_is_an_error() -> None:
    with pytest.raises(ValueError, match="before the payout was made"):
        fold(None, "main", entry("payout_paid", 1))
    with pytest.raises(ValueError, match="not a step"):
        fold(fold(None, "main", MADE), "main", entry("contribution", 1))


def test_a_person_is_looked_for_by_name_and_by_every_key_they_hold() -> None:
    holders = {"operator:a1": "Dana Reyes", "operator:b2": "dana reyes", "operator:c3": ""}
    assert wanted_people("  DANA\u200b Reyes ", holders) == {
        "danareyes",
        "operator:a1",
        "operator:b2",
    }
    assert wanted_people("operator:c3", holders) == {"operator:c3"}


def test_a_query_matches_as_the_archive_filters() -> None:
    record = Payout.of(fold(None, "main", MADE))
    assert PayoutQuery().matches(record)
    assert PayoutQuery(table="T1", pool="main", statuses=frozenset({"pending"})).matches(record)
    assert not PayoutQuery(table="T2").matches(record)
    assert PayoutQuery(created=(1000, 1001)).matches(record)
    assert not PayoutQuery(created=(None, 1000)).matches(record)
    assert not PayoutQuery(people=frozenset({"dana"})).matches(record)
    assert PayoutQuery(before=(1000, 13, "")).matches(record)
    assert not PayoutQuery(before=order(record)).matches(record)


def test_the_criteria_of_a_request() -> None:
    asked = {"payout": "12", "status": "paid, void", "from": "2026-11-23", "to": "2026-11-23",
             "changed_from": "2026-11-23T08:00:00-05:00", "person": "Dana"}  # fmt: skip
    query = history_query(asked, DAYS, lambda: {"operator:a1": "dana"})
    assert query.payout == "P000012"
    assert query.statuses == {"paid", "void"}
    assert query.created == DAYS.bounds(date(2026, 11, 23))
    assert query.changed == (DAYS.bounds(date(2026, 11, 23))[0] + 2 * 3_600_000, None)
    assert query.people == {"dana", "id DANA", "operator:a1"}  # a name, or an id
    assert history_query({"payout": "east:p000012"}, DAYS, dict).payout == "east:P000012"
    assert history_query({"payout": "east:12"}, DAYS, dict).payout == "east:P000012"
    assert history_query({"payout": "P0000012"}, DAYS, dict).payout == "P000012"
    at = (1000, 12, "east:P000012")
    assert parse_cursor(cursor_text(at)) == at


@pytest.mark.parametrize(
    ("given", "field"),
    [
        ({"status": "won"}, "status"),
        ({"to": "2026-02-30"}, "to"),
        (
            {"changed_from": "2026-11-23T08:00:00Z", "changed_to": "2026-11-23T08:00:00Z"},
            "changed_to",
        ),
        ({"changed_to": "tomorrow"}, "changed_to"),
        # a time as every field takes one: RFC 3339, 1970 to 9998 (an examiner, 2026-11-29,
        # found these taken with a 200)
        ({"changed_from": "9999-01-01T00:00:00Z"}, "changed_from"),
        ({"changed_from": "1969-12-31T23:59:59Z"}, "changed_from"),
        ({"changed_to": "2026-11-27T14:00:00+0000"}, "changed_to"),
        ({"person": "\u200b"}, "person"),
        ({"payout": "P/1"}, "payout"),
        # payouts are numbered from 1: 0 and -1 name none (they were searched for, finding none)
        ({"payout": "0"}, "payout"),
        ({"payout": "-1"}, "payout"),
        ({"payout": "P000000"}, "payout"),
        ({"payout": "east:0"}, "payout"),
        ({"payout": "lobby"}, "payout"),
        # an empty status is not every status
        ({"status": ","}, "status"),
        ({"status": "paid,"}, "status"),
        ({"status": "paid,,void"}, "status"),
        ({"before": "12.x"}, "before"),
    ],
)
def test_bad_criteria_name_their_field(given: dict[str, str], field: str) -> None:
    with pytest.raises(ValidationError) as caught:
        history_query(given, DAYS, dict)
    assert caught.value.field == field


@pytest.mark.parametrize(
    "edited",
    ["P000103x", "P000103.extra", "garbage", "p000103", "P0000103", "main:P000103", "P103"],
)
def test_a_cursor_with_its_payout_id_edited_is_refused(edited: str) -> None:
    """An examiner's find: a cursor whose id was edited shifted the page silently."""
    assert parse_cursor(cursor_text((1795960975730, 103, "P000103")))[2] == "P000103"
    assert parse_cursor("1795960975730.103.east:P000103")[2] == "east:P000103"
    with pytest.raises(ValidationError) as refused:
        parse_cursor(f"1795960975730.103.{edited}")
    assert refused.value.field == "before"
