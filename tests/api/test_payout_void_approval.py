"""Two people for every way a jackpot is cancelled (issue 37; docs/RULES.md §5, D226).

From `JACKPOT_HANDPAY_APPROVAL_CENTS` up a payout's void is asked for, journaled, and applied
only when another key of another person approves it, as a round's void is. The rule is held
in payout_status.lua, where the status changes: no order of legal steps (dispute then void,
confirm then void while it awaits approval, a void request then a confirmation, approvals
racing a void, a resend) lets one person cancel a jackpot at or above the threshold."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import redis as redis_lib

from jackpot.bootstrap import Services
from tests.support.api import Api, hit
from tests.support.checks import assert_error, snapshot
from tests.support.payout_steps import (
    CONFIRM,
    entries,
    operators,
    payout_of,
    step,
    two_person_control,
)


@pytest.fixture
def approval(services: Services) -> Iterator[Services]:
    """Two-person control from $500.00, for this test only (the app is shared)."""
    yield from two_person_control(services)


@pytest.fixture
def people(approval: Services) -> dict[str, dict[str, str]]:
    """Dana (two keys of hers), Lee and Kim: each a person with an operator key."""
    return operators(approval)


def asked(api: Api, payout: str, header: dict[str, str], was: str) -> dict[str, Any]:
    """One person voids: asked (202), nothing cancelled, the request journaled."""
    r = step(api, payout, "void", {"reason": "misdeal on review"}, header)
    assert r.status_code == 202, r.get_json()
    body = r.get_json()
    assert body["status"] == was and body["changed"] is True
    request = body["void_request"]
    assert (request["person"], request["reason"], request["from"]) == (
        "Dana Reyes (DANA-REYES)",
        "misdeal on review",
        was,
    )
    assert "compared" in request and request["requested_by"].startswith("operator:")
    assert payout_of(api, payout)["status"] == was
    assert entries(api, "payout_voided", payout) == []
    (entry,) = entries(api, "payout_void_requested", payout)
    assert (entry["from"], entry["reason"], entry["person"]) == (
        was,
        "misdeal on review",
        "Dana Reyes (DANA-REYES)",
    )
    return dict(body)


def one_person_cannot_approve(
    api: Api, payout: str, people: dict[str, dict[str, str]], redis: redis_lib.Redis
) -> None:
    before = snapshot(redis)
    for header in (people["dana"], people["dana2"]):  # her key, and her other key
        error = assert_error(step(api, payout, "void/approve", None, header), 409, None)
        assert error["code"] == "second_person_required"
    assert snapshot(redis) == before


def test_dispute_then_void_by_one_person_waits_for_a_second(
    api: Api, people: dict[str, dict[str, str]], redis: redis_lib.Redis
) -> None:
    payout = hit(api, "r-dispute-void")
    dana = people["dana"]
    assert step(api, payout, "dispute", {"reason": "camera"}, dana).status_code == 200
    asked(api, payout, dana, "disputed")
    one_person_cannot_approve(api, payout, people, redis)

    lee = people["lee"]
    r = step(api, payout, "void/approve", {"reason": "saw the tape"}, lee)
    assert r.status_code == 200, r.get_json()
    void = r.get_json()
    assert (void["status"], void["voided_from"], void["changed"]) == ("void", "disputed", True)
    assert (void["void_requester"], void["void_approver"]) == (
        "Dana Reyes (DANA-REYES)",
        "Lee Chan (LEE-CHAN)",
    )
    assert void["voided_by"] != void["void_requested_by"]
    assert void["note"] == "misdeal on review" and "void_request" not in void
    (entry,) = entries(api, "payout_voided", payout)
    assert (entry["requester"], entry["approver"], entry["approval_note"]) == (
        "Dana Reyes (DANA-REYES)",
        "Lee Chan (LEE-CHAN)",
        "saw the tape",
    )
    assert entry["requested_by"] == void["void_requested_by"] and entry["who"] == void["voided_by"]

    # the approval is idempotent: again, or from a third person, it changes nothing
    for header in (lee, people["kim"]):
        again = step(api, payout, "void/approve", None, header)
        assert (again.status_code, again.get_json()["changed"]) == (200, False)
    assert len(entries(api, "payout_voided", payout)) == 1

    # the record shows who asked and who approved
    record = api.client.get(f"/v1/payouts/{payout}/record", headers=api.keys.header("auditor"))
    steps = [s["step"] for s in record.get_json()["steps"]]
    assert steps == ["won", "disputed", "void_requested", "voided"]


def test_confirm_then_void_while_awaiting_approval_waits_for_a_second(
    api: Api, people: dict[str, dict[str, str]], redis: redis_lib.Redis
) -> None:
    payout = hit(api, "r-confirm-void")
    dana = people["dana"]
    confirmed = step(api, payout, "confirm", CONFIRM, dana)
    assert confirmed.get_json()["status"] == "awaiting_approval", confirmed.get_json()
    asked(api, payout, dana, "awaiting_approval")
    one_person_cannot_approve(api, payout, people, redis)
    r = step(api, payout, "void/approve", {"expect": "awaiting_approval"}, people["kim"])
    assert r.status_code == 200, r.get_json()
    assert (r.get_json()["status"], r.get_json()["voided_from"]) == ("void", "awaiting_approval")


def test_a_resent_void_request_asks_once_and_never_cancels(
    api: Api, people: dict[str, dict[str, str]], redis: redis_lib.Redis
) -> None:
    payout = hit(api, "r-resend")
    dana = people["dana"]
    assert step(api, payout, "dispute", {"reason": "camera"}, dana).status_code == 200
    asked(api, payout, dana, "disputed")
    before = snapshot(redis)
    # the same request again, from her other key, and from another person: still asked, once
    for header in (dana, people["dana2"], people["lee"]):
        r = step(api, payout, "void", {"reason": "misdeal on review"}, header)
        assert r.status_code == 202, r.get_json()
        assert (r.get_json()["status"], r.get_json()["changed"]) == ("disputed", False)
        assert r.get_json()["void_request"]["person"] == "Dana Reyes (DANA-REYES)"
    assert snapshot(redis) == before
    assert len(entries(api, "payout_void_requested", payout)) == 1


def test_a_void_request_then_a_confirmation_withdraws_the_request(
    api: Api, people: dict[str, dict[str, str]], redis: redis_lib.Redis
) -> None:
    """A confirmation says the jackpot is owed: the void asked of the disputed jackpot is
    withdrawn (journaled), and an approval planned against it voids nothing."""
    payout = hit(api, "r-void-confirm")
    dana, lee = people["dana"], people["lee"]
    assert step(api, payout, "dispute", {"reason": "camera"}, dana).status_code == 200
    asked(api, payout, dana, "disputed")
    # Dana confirms it herself: it awaits approval; her request is withdrawn
    r = step(api, payout, "confirm", CONFIRM, dana)
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["status"] == "awaiting_approval" and "void_request" not in r.get_json()
    (withdrawn,) = entries(api, "payout_void_withdrawn", payout)
    assert (withdrawn["by_step"], withdrawn["requester"]) == ("confirm", "Dana Reyes (DANA-REYES)")

    before = snapshot(redis)
    error = assert_error(step(api, payout, "void/approve", None, lee), 409, None)
    assert error["code"] == "no_void_awaiting"
    assert snapshot(redis) == before
    assert payout_of(api, payout)["status"] == "awaiting_approval"
    # she asks again, from the status it is in now: still a second person's to approve
    asked_again = step(api, payout, "void", {"reason": "misdeal on review"}, dana)
    assert asked_again.status_code == 202, asked_again.get_json()
    one_person_cannot_approve(api, payout, people, redis)
    assert entries(api, "payout_voided", payout) == []


def test_an_approval_of_the_pay_racing_a_void_request_never_lets_one_person_cancel(
    api: Api, people: dict[str, dict[str, str]], redis: redis_lib.Redis
) -> None:
    """Awaiting approval, Dana asks for the void and Lee approves the pay: whichever came
    first, the jackpot is paid and Lee's approval of the void finds none; voiding the paid
    jackpot is asked again, and two people decide it."""
    payout = hit(api, "r-race")
    dana, lee, kim = people["dana"], people["lee"], people["kim"]
    assert step(api, payout, "confirm", CONFIRM, kim).status_code == 200
    asked(api, payout, dana, "awaiting_approval")
    paid = step(api, payout, "approve", None, lee)
    assert paid.status_code == 200, paid.get_json()
    assert paid.get_json()["status"] == "paid" and "void_request" not in paid.get_json()
    error = assert_error(step(api, payout, "void/approve", None, lee), 409, None)
    assert error["code"] == "no_void_awaiting"
    # a stale approval of the void (it saw the payout awaiting approval) is refused as stale
    error = assert_error(
        step(api, payout, "void/approve", {"expect": "awaiting_approval"}, lee), 409, "expect"
    )
    assert error["code"] == "payout_changed"
    # the paid jackpot's void: asked by Dana, her keys cannot approve it, Lee can
    r = step(api, payout, "void", {"reason": "misdeal on review"}, dana)
    assert (r.status_code, r.get_json()["status"]) == (202, "paid"), r.get_json()
    one_person_cannot_approve(api, payout, people, redis)
    done = step(api, payout, "void/approve", None, lee)
    assert (done.get_json()["status"], done.get_json()["voided_from"]) == ("void", "paid")
    # and the approval of the pay coming after the void's approval is refused
    error = assert_error(step(api, payout, "approve", None, kim), 409, None)
    assert error["code"] == "payout_state"


def test_the_void_approved_first_refuses_a_late_approval_of_the_pay(
    api: Api, people: dict[str, dict[str, str]]
) -> None:
    payout = hit(api, "r-race-2")
    dana, lee, kim = people["dana"], people["lee"], people["kim"]
    assert step(api, payout, "confirm", CONFIRM, kim).status_code == 200
    asked(api, payout, dana, "awaiting_approval")
    assert step(api, payout, "void/approve", None, lee).get_json()["status"] == "void"
    error = assert_error(step(api, payout, "approve", None, lee), 409, None)
    assert error["code"] == "payout_state"
    assert entries(api, "payout_paid", payout) == []


def test_below_the_threshold_a_void_is_unchanged(
    api: Api, approval: Services, people: dict[str, dict[str, str]]
) -> None:
    payout = hit(api, "r-below")
    approval.approval.cents = payout_of(api, payout)["amount"] + 1
    dana = people["dana"]
    assert step(api, payout, "dispute", {"reason": "camera"}, dana).status_code == 200
    r = step(api, payout, "void", {"reason": "misdeal"}, dana)
    assert r.status_code == 200, r.get_json()
    assert (r.get_json()["status"], r.get_json()["voided_from"]) == ("void", "disputed")
    assert entries(api, "payout_void_requested", payout) == []
    # with nothing asked, an approval of a void finds it done
    again = step(api, payout, "void/approve", None, people["lee"])
    assert (again.status_code, again.get_json()["changed"]) == (200, False)


def test_an_approval_with_no_void_asked_is_refused_and_changes_nothing(
    api: Api, people: dict[str, dict[str, str]], redis: redis_lib.Redis
) -> None:
    payout = hit(api, "r-nothing")
    assert step(api, payout, "dispute", {"reason": "camera"}, people["dana"]).status_code == 200
    before = snapshot(redis)
    error = assert_error(step(api, payout, "void/approve", None, people["lee"]), 409, None)
    assert error["code"] == "no_void_awaiting"
    assert_error(step(api, payout, "void/approve", {"reason": 3}, people["lee"]), 400, "reason")
    assert snapshot(redis) == before
