"""A jackpot's verification steps beyond the hand pay: two-person approval from a threshold,
voids, and stale consoles. Each step is journaled once with the key and the person; a second
click or a second tablet changes nothing; a refused step names why and changes nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import redis as redis_lib

from jackpot.bootstrap import Services
from jackpot.domain.auth import Role
from jackpot.settings import Settings
from tests.support.api import Api, hit
from tests.support.checks import HAND_PAY, assert_error, snapshot
from tests.support.people import issue


def operator(services: Services, label: str) -> dict[str, str]:
    secret = issue(services, Role.OPERATOR, (), label)
    return {"Authorization": f"Bearer {secret}"}


def step(api: Api, payout: str, name: str, body: Any, header: dict[str, str]) -> Any:
    return api.client.post(f"/v1/payouts/{payout}/{name}", json=body, headers=header)


def entries(api: Api, kind: str) -> list[dict[str, Any]]:
    return [e for e in api.journal() if e["type"] == kind]


def status_of(api: Api, payout: str) -> str:
    r = api.client.get(f"/v1/payouts/{payout}", headers=api.keys.header("auditor"))
    return str(r.get_json()["status"])


@pytest.fixture
def approval(services: Services) -> Iterator[Services]:
    """Two-person control from 500.00 (what JACKPOT_HANDPAY_APPROVAL_CENTS=50000 sets), for
    this test only: the app is shared with the layout's other tests (tests/support/stores.py)."""
    before = services.approval.cents
    services.approval.cents = 50_000
    yield services
    services.approval.cents = before


def test_the_setting_reads_the_threshold_and_refuses_nonsense() -> None:
    assert Settings.from_env({}).handpay_approval_cents == 0
    settings = Settings.from_env({"JACKPOT_HANDPAY_APPROVAL_CENTS": "1000000"})
    assert settings.handpay_approval_cents == 1_000_000
    assert settings.to_env()["JACKPOT_HANDPAY_APPROVAL_CENTS"] == "1000000"
    for bad in ("-1", "10.50", "lots"):
        with pytest.raises(Exception, match="JACKPOT_HANDPAY_APPROVAL_CENTS"):
            Settings.from_env({"JACKPOT_HANDPAY_APPROVAL_CENTS": bad})


def test_from_the_threshold_a_second_person_approves_before_it_counts_as_paid(
    api: Api, approval: Services
) -> None:
    payout = hit(api)
    dana = operator(approval, "Dana Reyes")
    body = {"paid_by": "DANA-REYES", "witness": "SAM-OKAFOR", "slip": "HP-1"}
    first = step(api, payout, "confirm", body, dana)
    assert first.status_code == 200, first.get_json()
    confirmed = first.get_json()
    assert (confirmed["status"], confirmed["changed"]) == ("awaiting_approval", True)
    assert confirmed["confirmer"] == "Dana Reyes (DANA-REYES)" and "paid_at" not in confirmed
    (entry,) = entries(api, "payout_confirmed")
    assert (entry["paid_by"], entry["witness"], entry["slip"]) == (
        "Dana Reyes (DANA-REYES)",
        "Sam Okafor (SAM-OKAFOR)",
        "HP-1",
    )
    assert entries(api, "payout_paid") == []

    # a double click confirms once; it still awaits the second person
    again = step(api, payout, "confirm", body, dana)
    assert (again.status_code, again.get_json()["changed"]) == (200, False)
    assert len(entries(api, "payout_confirmed")) == 1

    # neither the confirming key, nor another key of the confirmer (and payer), nor the
    # witness's own key approves
    for header in (dana, operator(approval, "Dana Reyes"), operator(approval, "Sam Okafor")):
        assert_error(step(api, payout, "approve", None, header), 409, None)
    refused = step(api, payout, "approve", None, dana).get_json()["error"]
    assert refused["code"] == "second_person_required"
    assert status_of(api, payout) == "awaiting_approval"

    lee = operator(approval, "Lee Chan")
    approved = step(api, payout, "approve", {"reason": "checked the slip"}, lee)
    assert approved.status_code == 200, approved.get_json()
    paid = approved.get_json()
    assert (paid["status"], paid["approver"], paid["paid_by"]) == (
        "paid",
        "Lee Chan (LEE-CHAN)",
        "Dana Reyes (DANA-REYES)",
    )
    assert paid["approved_by"] != paid["confirmed_by"]
    (entry,) = entries(api, "payout_paid")
    assert (entry["approver"], entry["paid_by"], entry["slip"]) == (
        "Lee Chan (LEE-CHAN)",
        "Dana Reyes (DANA-REYES)",
        "HP-1",
    )
    assert entry["who"] == paid["approved_by"] and entry["note"] == "checked the slip"
    # a second tablet approving too changes nothing
    twice = step(api, payout, "approve", None, operator(approval, "Kim Park"))
    assert (twice.status_code, twice.get_json()["changed"]) == (200, False)
    assert len(entries(api, "payout_paid")) == 1


def test_below_the_threshold_a_confirmation_pays(api: Api, approval: Services) -> None:
    payout = hit(api)
    amount = api.client.get(f"/v1/payouts/{payout}", headers=api.keys.header("auditor")).get_json()[
        "amount"
    ]
    approval.approval.cents = amount + 1
    r = step(
        api, payout, "confirm", {"witness": "SAM", "slip": "HP-2"}, api.keys.header("operator")
    )
    assert r.get_json()["status"] == "paid", r.get_json()
    # approving what needed no approval is neither needed nor refused: it is paid already
    r = step(api, payout, "approve", None, operator(approval, "Lee Chan"))
    assert (r.status_code, r.get_json()["changed"]) == (200, False)


def test_an_approval_of_a_pending_jackpot_is_refused(api: Api, redis: redis_lib.Redis) -> None:
    payout = hit(api)
    before = snapshot(redis)
    error = assert_error(step(api, payout, "approve", None, api.keys.header("operator")), 409, None)
    assert error["code"] == "payout_state" and "pending" in error["message"]
    assert snapshot(redis) == before


def test_a_stale_console_gets_a_conflict_not_an_overwrite(
    api: Api, services: Services, redis: redis_lib.Redis
) -> None:
    payout = hit(api)
    tablet_a, tablet_b = operator(services, "Dana Reyes"), operator(services, "Lee Chan")
    # both tablets show the jackpot pending; A confirms it
    a = step(
        api,
        payout,
        "confirm",
        {"witness": "SAM-OKAFOR", "slip": "HP-7", "expect": "pending"},
        tablet_a,
    )
    assert a.get_json()["status"] == "paid", a.get_json()
    before = snapshot(redis)
    # B, still showing it pending, confirms with its own slip, then disputes it
    for name, body in (
        ("confirm", {"witness": "SAM-OKAFOR", "slip": "HP-8", "expect": "pending"}),
        ("dispute", {"reason": "camera", "expect": "pending"}),
    ):
        error = assert_error(step(api, payout, name, body, tablet_b), 409, "expect")
        assert error["code"] == "payout_changed" and "paid" in error["message"]
    assert snapshot(redis) == before
    assert len(entries(api, "payout_paid")) == 1
    paid = api.client.get(f"/v1/payouts/{payout}", headers=api.keys.header("auditor")).get_json()
    assert (paid["slip"], paid["paid_by"]) == ("HP-7", "Dana Reyes (DANA-REYES)")


def test_a_void_cancels_a_disputed_or_paid_jackpot_with_its_reason(
    api: Api, services: Services, redis: redis_lib.Redis
) -> None:
    disputed, paid = hit(api, "r-1"), hit(api, "r-2")
    header = api.keys.header("operator")
    # a pending jackpot is disputed first (with a reason), never voided straight away
    before = snapshot(redis)
    error = assert_error(step(api, disputed, "void", {"reason": "misdeal"}, header), 409, None)
    assert error["code"] == "payout_state"
    assert snapshot(redis) == before
    assert step(api, disputed, "dispute", {"reason": "camera review"}, header).status_code == 200
    assert step(api, paid, "confirm", HAND_PAY, header).status_code == 200

    for payout, was in ((disputed, "disputed"), (paid, "paid")):
        assert_error(step(api, payout, "void", None, header), 400, "reason")
        assert_error(step(api, payout, "void", {"reason": ""}, header), 400, "reason")
        r = step(api, payout, "void", {"reason": "misdeal: two aces of spades"}, header)
        assert r.status_code == 200, r.get_json()
        void = r.get_json()
        assert (void["status"], void["voided_from"], void["changed"]) == ("void", was, True)
        assert void["note"] == "misdeal: two aces of spades"
        # a resend changes nothing; nothing brings a void jackpot back
        again = step(api, payout, "void", {"reason": "again"}, header)
        assert (again.status_code, again.get_json()["changed"]) == (200, False)
        for name, body in (("confirm", HAND_PAY), ("dispute", {"reason": "x"}), ("approve", None)):
            assert_error(step(api, payout, name, body, header), 409, None)
    voided = entries(api, "payout_voided")
    assert [(e["payout"], e["from"]) for e in voided] == [(disputed, "disputed"), (paid, "paid")]
    assert all(e["note"] == "misdeal: two aces of spades" for e in voided)
    listed = api.client.get("/v1/payouts?status=void", headers=api.keys.header("auditor"))
    assert {p["id"] for p in listed.get_json()["payouts"]} == {disputed, paid}


def test_bad_step_bodies_name_the_field(api: Api, redis: redis_lib.Redis) -> None:
    payout = hit(api)
    header = api.keys.header("operator")
    before = snapshot(redis)
    for name, body, field in (
        ("confirm", {**HAND_PAY, "expect": "paid-ish"}, "expect"),
        ("approve", {"expect": 3}, "expect"),
        ("approve", {"reason": "x" * 10_000}, "reason"),
        ("dispute", {"reason": "x", "who": "me"}, "who"),
        ("void", {"expect": "pending"}, "reason"),
    ):
        assert_error(step(api, payout, name, body, header), 400, field)
    assert_error(
        api.client.get("/v1/payouts?status=unpaid", headers=api.keys.header("auditor")),
        400,
        "status",
    )
    assert snapshot(redis) == before
