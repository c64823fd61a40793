"""A jackpot's void waiting for a second person, in every supervisor's hands (issue 40, items
6, 7, 11, 13; D286, D288): listed beside the round voids waiting, refused by another person or
withdrawn by the one who asked (journaled, nothing else changes), and named in people's words."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import redis as redis_lib

from jackpot.bootstrap import Services
from jackpot.domain.auth import Role
from tests.support.api import Api, hit, round_body
from tests.support.checks import assert_error, snapshot
from tests.support.payout_steps import (
    CONFIRM,
    entries,
    operators,
    step,
    two_person_control,
)
from tests.support.people import issue

DANA = "Dana Reyes (DANA-REYES)"


@pytest.fixture
def approval(services: Services) -> Iterator[Services]:
    yield from two_person_control(services)


@pytest.fixture
def people(approval: Services) -> dict[str, dict[str, str]]:
    return operators(approval)


def awaiting(api: Api, header: dict[str, str]) -> dict[str, Any]:
    r = api.client.get("/v1/voids/awaiting", headers=header)
    assert r.status_code == 200, r.get_json()
    return dict(r.get_json())


def paid(api: Api, round_id: str, people: dict[str, dict[str, str]]) -> str:
    """A jackpot above the threshold, confirmed by Dana and approved by Lee: paid."""
    payout = hit(api, round_id)
    assert step(api, payout, "confirm", CONFIRM, people["dana"]).status_code == 200
    done = step(api, payout, "approve", None, people["lee"])
    assert done.get_json()["status"] == "paid", done.get_json()
    return payout


def ask(api: Api, payout: str, header: dict[str, str], reason: str = "slip HP-3 duplicate") -> Any:
    r = step(api, payout, "void", {"reason": reason}, header)
    assert r.status_code == 202, r.get_json()
    return r.get_json()


def test_a_void_asked_of_a_paid_jackpot_waits_in_every_supervisors_list(
    api: Api, people: dict[str, dict[str, str]]
) -> None:
    payout = paid(api, "r-paid-void", people)
    asked = ask(api, payout, people["dana"])
    assert asked["status"] == "paid"
    for header in (people["kim"], api.keys.header("auditor")):
        listed = awaiting(api, header)
        (entry,) = listed["payouts"]
        assert listed["count"] == 1 and listed["voids"] == []
        assert entry["kind"] == "payout" and entry["payout"] == payout
        assert (entry["status"], entry["from"], entry["amount"]) == ("paid", "paid", 100_005)
        assert (entry["person"], entry["reason"]) == (DANA, "slip HP-3 duplicate")
        assert entry["requested_by"] == asked["void_request"]["requested_by"]
        assert entry["person_id"] == "DANA-REYES"
        assert (entry["table"], entry["round"], entry["spot"]) == ("T1", "r-paid-void", 1)
        assert entry["at"] == asked["void_request"]["at"]
    # approved by another person: void, and no longer waiting
    done = step(api, payout, "void/approve", {"reason": "two slips"}, people["kim"])
    assert done.status_code == 200 and done.get_json()["status"] == "void"
    assert awaiting(api, people["kim"])["payouts"] == []


def test_a_void_asked_in_every_status_is_listed_oldest_first(
    api: Api, people: dict[str, dict[str, str]]
) -> None:
    dana = people["dana"]
    disputed = hit(api, "r-disputed")
    assert step(api, disputed, "dispute", {"reason": "camera"}, dana).status_code == 200
    waiting = hit(api, "r-waiting")
    assert step(api, waiting, "confirm", CONFIRM, dana).status_code == 200
    settled = paid(api, "r-settled", people)
    for payout in (disputed, waiting, settled):
        ask(api, payout, dana)
    listed = awaiting(api, people["lee"])
    assert [(p["payout"], p["status"]) for p in listed["payouts"]] == [
        (disputed, "disputed"),
        (waiting, "awaiting_approval"),
        (settled, "paid"),
    ]
    assert listed["count"] == 3


def test_another_person_refuses_a_void_and_nothing_else_changes(
    api: Api, people: dict[str, dict[str, str]], redis: redis_lib.Redis
) -> None:
    payout = paid(api, "r-refuse", people)
    before = api.client.get(f"/v1/payouts/{payout}", headers=people["kim"]).get_json()
    ask(api, payout, people["dana"])
    r = step(api, payout, "void/refuse", {"reason": "one slip only: checked"}, people["kim"])
    assert r.status_code == 200, r.get_json()
    after = r.get_json()
    assert after["status"] == "paid" and "void_request" not in after and after["changed"] is True
    for field in ("paid_at", "approved_by", "confirmed_by", "note", "slip", "amount"):
        assert after.get(field) == before.get(field), field
    (entry,) = entries(api, "payout_void_refused", payout)
    assert (entry["reason"], str(entry["withdrawn"]), entry["requester"], entry["person"]) == (
        "one slip only: checked",
        "0",
        DANA,
        "Kim Park (KIM-PARK)",
    )
    assert entry["person_id"] == "KIM-PARK" and entry["requested_by"].startswith("operator:")
    assert entry["from"] == "paid"
    assert awaiting(api, people["lee"]) == {"voids": [], "payouts": [], "count": 0}
    # nothing waits now: an approval or another refusal is told so, and nothing is written
    state = snapshot(redis)
    for name, body in (("void/approve", None), ("void/refuse", {"reason": "again"})):
        error = assert_error(step(api, payout, name, body, people["lee"]), 409, None)
        assert error["code"] == "no_void_awaiting"
    assert snapshot(redis) == state
    # the record says it in people's words
    record = api.client.get(f"/v1/payouts/{payout}/record", headers=api.keys.header("auditor"))
    last = record.get_json()["steps"][-1]
    assert (last["step"], last["withdrawn"], last["reason"]) == (
        "void_refused",
        False,
        "one slip only: checked",
    )
    assert last["requester"] == DANA and last["person"] == "Kim Park (KIM-PARK)"


def test_the_one_who_asked_withdraws_with_another_key_of_hers(
    api: Api, people: dict[str, dict[str, str]]
) -> None:
    payout = hit(api, "r-withdraw")
    assert step(api, payout, "dispute", {"reason": "camera"}, people["dana"]).status_code == 200
    ask(api, payout, people["dana"])
    r = step(api, payout, "void/refuse", {"reason": "asked by mistake"}, people["dana2"])
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["status"] == "disputed" and "void_request" not in r.get_json()
    (entry,) = entries(api, "payout_void_refused", payout)
    assert str(entry["withdrawn"]) == "1" and entry["person"] == DANA
    record = api.client.get(f"/v1/payouts/{payout}/record", headers=api.keys.header("auditor"))
    assert record.get_json()["steps"][-1]["withdrawn"] is True
    # the disputed jackpot is still in the open index, owed: listed as before
    assert payout in [p["id"] for p in api.client.get(
        "/v1/payouts?status=disputed", headers=people["kim"]).get_json()["payouts"]]  # fmt: skip


def test_a_refusal_names_its_reason_and_needs_a_person(
    api: Api, people: dict[str, dict[str, str]], redis: redis_lib.Redis
) -> None:
    payout = paid(api, "r-no-reason", people)
    ask(api, payout, people["dana"])
    state = snapshot(redis)
    for body in (None, {}, {"reason": ""}):
        assert_error(step(api, payout, "void/refuse", body, people["kim"]), 400, "reason")
    auditor = api.keys.header("auditor")
    assert step(api, payout, "void/refuse", {"reason": "x"}, auditor).status_code == 403
    assert snapshot(redis) == state
    missing = step(api, "P999999", "void/refuse", {"reason": "x"}, people["kim"])
    assert missing.status_code == 404


def test_voiding_a_pending_jackpot_says_to_dispute_it_first(api: Api) -> None:
    payout = hit(api, "r-pending")
    r = api.client.post(
        f"/v1/payouts/{payout}/void", json={"reason": "x"}, headers=api.keys.header("operator")
    )
    error = assert_error(r, 409, None)
    assert error["code"] == "payout_state"
    assert "pending" in error["message"] and "dispute it first" in error["message"]


def test_a_tables_key_is_named_by_its_label_where_it_asked(api: Api, services: Services) -> None:
    api.put_pool()
    api.put_table()
    secret = issue(services, Role.TABLE, ("T1",), "pit 3 adapters")
    table_key = {"Authorization": f"Bearer {secret}"}
    body = round_body("r-label", spots=[{"spot": 1, "wager": 500, "card": "Kd"}])
    assert api.report(body).status_code == 200
    r = api.client.post("/v1/rounds/T1/r-label/void", json={"reason": "no card"}, headers=table_key)
    assert r.status_code == 202, r.get_json()
    assert r.get_json()["awaiting_approval"]["person"] == "pit 3 adapters (table key)"
    (listed,) = awaiting(api, api.keys.header("operator"))["voids"]
    assert listed["person"] == "pit 3 adapters (table key)" and listed["kind"] == "round"
    assert listed["requested_by"].startswith("table:")  # the key itself, as before
    stored = api.client.get("/v1/rounds/T1/r-label", headers=api.keys.header("auditor"))
    assert stored.get_json()["void"]["awaiting_approval"]["person"] == (
        "pit 3 adapters (table key)"
    )
    # the refusal of another void names it too, and the activity list (the final pass)
    other = api.client.post("/v1/rounds/T1/r-label/void", json={"reason": "x", "spots": [1]},
                            headers=api.keys.header("operator"))  # fmt: skip
    if other.status_code == 409:
        assert "asked by pit 3 adapters (table key)" in other.get_json()["error"]["message"]
    recent = api.client.get("/v1/activity", headers=api.keys.header("operator")).get_json()
    (requested,) = [a for a in recent["activity"] if a["type"] == "void_requested"]
    assert requested["person"] == "pit 3 adapters (table key)"
    done = api.client.post(
        "/v1/rounds/T1/r-label/void/approve", headers=api.keys.header("operator")
    )
    assert done.status_code == 200, done.get_json()
    (applied,) = done.get_json()["voids"]
    assert applied["person"] == "pit 3 adapters (table key)"
