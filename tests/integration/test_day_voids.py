"""Voids apart in the gaming day (issue 40, D278): a day's statement and files count the
jackpots voided apart from those won, paid and still owed (owed at open + won − paid − voided
= owed at close), and list every void of the day with who asked, who approved and why; a
jackpot voided with its round is counted once, in its round's row."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from jackpot.domain.auth import Role
from jackpot.domain.dayfiles import FILES, TOTAL, dollars
from tests.support.accounting_day import ZONE, get, play, today
from tests.support.archive_world import ARCHIVES, World, world_on
from tests.support.people import issue

APPROVAL = 50_000  # from $500 a jackpot's void needs a second person


@pytest.fixture(params=ARCHIVES)
def world(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[World]:
    with world_on(
        request,
        tmp_path,
        gaming_day_start="06:00",
        time_zone=ZONE,
        handpay_approval_cents=APPROVAL,
    ) as w:
        yield w


OPERATOR = "operator of the tests (OPERATOR-OF-THE-TESTS)"
DANA = "Dana Reyes (DANA-REYES)"


def post(w: World, path: str, key: str, **body: Any) -> Any:
    r = w.api.client.post(path, json=body, headers={"Authorization": f"Bearer {key}"})
    assert r.status_code in (200, 202), r.get_json()  # 202: held for a second person
    return r.get_json()


def sheet(w: World, path: str) -> list[dict[str, str]]:
    r = get(w, path)
    assert r.status_code == 200, r.get_data(as_text=True)
    return list(csv.DictReader(io.StringIO(r.get_data(as_text=True))))


def test_a_jackpot_voided_by_two_people_is_counted_apart_with_who_and_why(world: World) -> None:
    """The examiner's day: a jackpot voided on review ("misdeal … review 88") by one person
    and approved by another, and a round voided by one: the pool counts the jackpot won and
    voided, not paid nor owed; the register and the voids file say who asked, who approved
    and why; every file foots."""
    w = world
    operator = w.api.keys.operator
    dana = issue(w.services, Role.OPERATOR, (), "Dana Reyes")
    answers = play(w)
    [jackpot] = [jp for a in answers for jp in a["jackpots"]]
    assert jackpot["amount"] >= APPROVAL
    reason = "misdeal found on camera review 88"
    post(w, f"/v1/payouts/{jackpot['id']}/dispute", operator, reason="review 88")
    asked = post(w, f"/v1/payouts/{jackpot['id']}/void", operator, reason=reason)
    assert asked["status"] == "disputed", "from the threshold a void is only asked for"
    post(w, f"/v1/payouts/{jackpot['id']}/void/approve", dana, reason="seen the tape")
    d2 = next(a for a in answers if a["round"] == "d2")
    post(w, "/v1/rounds/T1/d2/void", operator, reason="card not dealt to the wager")
    day = today(w)
    w.clock.pass_days(2)
    statement = w.services.accounting.close(day)
    assert statement["layout_version"] == 5 and statement["balanced"] is True

    [pool] = statement["pools"]
    assert (pool["jackpots_count"], pool["jackpots_cents"]) == (1, jackpot["amount"])
    assert (pool["voided_jackpots_count"], pool["voided_jackpots_cents"]) == (
        1,
        jackpot["amount"],
    )
    assert (pool["paid_jackpots_count"], pool["unpaid_jackpots_count"]) == (0, 0)
    assert pool["returned_jackpots_count"] == 0, "a payout's own void moves no money (D52)"
    # what is owed rolls forward: owed at open + won − paid − voided = owed at close
    assert (
        pool["owed_at_open_cents"]
        + pool["jackpots_cents"]
        - pool["paid_jackpots_cents"]
        - pool["voided_jackpots_cents"]
        == pool["unpaid_jackpots_cents"]
    )

    [hit] = statement["hits"]
    assert hit["status_at_close"] == "void"
    assert (hit["void_asked_by"], hit["voided_by"], hit["void_reason"]) == (OPERATOR, DANA, reason)

    payout_row, round_row = sorted(statement["voids"], key=lambda v: v["kind"])
    assert payout_row == {
        **payout_row,
        "kind": "payout",
        "pool": "main",
        "payout": jackpot["id"],
        "voided_from": "disputed",
        "payout_amount_cents": jackpot["amount"],
        "asked_by": OPERATOR,
        "approved_by": DANA,
        "reason": reason,
        "approval_note": "seen the tape",
    }
    handle = sum(s["wager"] for s in d2["spots"])
    assert round_row == {
        **round_row,
        "kind": "round",
        "table": "T1",
        "round": "d2",
        "spots": "1",
        "whole": True,
        "bets": len(d2["spots"]),
        "handle_cents": handle,
        "jackpots": 0,
        "asked_by": OPERATOR,
        "approved_by": "",
        "reason": "card not dealt to the wager",
    }

    rows = sheet(w, f"/v1/accounting/days/{day}/voids.csv")
    assert list(rows[0]) == FILES["voids"].header
    data = [r for r in rows if r["table"] != TOTAL]
    [total] = [r for r in rows if r["table"] == TOTAL]
    assert [(r["kind"], r["asked_by"], r["approved_by"], r["reason"]) for r in data] == [
        (v["kind"], v["asked_by"], v["approved_by"], v["reason"]) for v in statement["voids"]
    ]
    assert total["payout_amount"] == dollars(jackpot["amount"])
    assert total["handle"] == dollars(handle) and int(total["bets"]) == len(d2["spots"])
    [pools_line, _] = sheet(w, f"/v1/accounting/days/{day}/pools.csv")
    assert pools_line["voided_jackpots_count"] == "1"
    assert pools_line["voided_jackpots"] == dollars(jackpot["amount"])
    [hits_line, _] = sheet(w, f"/v1/accounting/days/{day}/hits.csv")
    assert (hits_line["void_asked_by"], hits_line["void_reason"]) == (OPERATOR, reason)


def test_a_round_void_counts_its_jackpot_once_and_names_who_asked(world: World) -> None:
    """A round whose jackpot reaches the threshold, voided on one person's ask and another's
    approval: one row, its jackpot counted in it (not again as a payout's void); the jackpot
    goes back to the meter (returned) and is no longer owed (voided); the register names who
    asked for the round's void, not the approver."""
    w = world
    operator = w.api.keys.operator
    dana = issue(w.services, Role.OPERATOR, (), "Dana Reyes")
    answers = play(w)
    [jackpot] = [jp for a in answers for jp in a["jackpots"]]
    asked = post(w, "/v1/rounds/T1/d3/void", operator, reason="second face-up card")
    assert asked["result"] == "awaiting_approval", asked
    post(w, "/v1/rounds/T1/d3/void/approve", dana, reason="pit boss saw it")
    day = today(w)
    w.clock.pass_days(2)
    statement = w.services.accounting.close(day)
    assert statement["balanced"] is True
    [row] = statement["voids"]
    assert (row["kind"], row["round"], row["jackpots"], row["jackpot_pays_cents"]) == (
        "round",
        "d3",
        1,
        jackpot["amount"],
    )
    assert (row["asked_by"], row["approved_by"], row["approval_note"]) == (
        OPERATOR,
        DANA,
        "pit boss saw it",
    )
    [pool] = statement["pools"]
    assert pool["returned_jackpots_cents"] == pool["voided_jackpots_cents"] == jackpot["amount"]
    [hit] = statement["hits"]
    assert (hit["void_asked_by"], hit["voided_by"]) == (OPERATOR, DANA)
    assert hit["void_reason"] == "round voided: second face-up card"
