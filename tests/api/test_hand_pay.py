"""Hand pays: confirming a jackpot records who paid it, the witness and the slip, in the
payout and in the pool's journal, beside the key that confirmed it; the key's person is the
payer when the body does not name one. Payer and witness are people of the register, named
by id and shown with name and number; the witness is another person than the payer and the
operator confirming, compared by id (D232); bad input names the field and pays nothing."""

from __future__ import annotations

from typing import Any

from jackpot.bootstrap import Services
from jackpot.domain.auth import Role
from tests.support.api import Api, hit
from tests.support.checks import HAND_PAY, assert_error
from tests.support.people import issue


def confirm(api: Api, payout: str, body: Any = None, header: Any = None) -> Any:
    return api.client.post(
        f"/v1/payouts/{payout}/confirm",
        json=body,
        headers=header or api.keys.header("operator"),
    )


def paid_entries(api: Api) -> list[dict[str, Any]]:
    return [e for e in api.journal() if e["type"] == "payout_paid"]


def test_a_confirmation_records_the_payer_the_witness_and_the_slip(api: Api) -> None:
    payout = hit(api)
    body = {"paid_by": "DANA-REYES", "witness": "SAM-OKAFOR", "slip": "HP-2231", "reason": "ok"}
    r = confirm(api, payout, body)
    assert r.status_code == 200, r.get_json()
    paid = r.get_json()
    assert paid["status"] == "paid"
    assert (paid["paid_by"], paid["witness"], paid["slip"], paid["note"]) == (
        "Dana Reyes (DANA-REYES)",
        "Sam Okafor (SAM-OKAFOR)",
        "HP-2231",
        "ok",
    )
    assert (paid["paid_by_id"], paid["witness_id"]) == ("DANA-REYES", "SAM-OKAFOR")
    assert paid["confirmed_by"].startswith("operator:"), "the key, beside the person"
    (entry,) = paid_entries(api)
    assert (entry["paid_by_id"], entry["witness_id"], entry["slip"]) == (
        "DANA-REYES",
        "SAM-OKAFOR",
        "HP-2231",
    )
    assert entry["paid_by"] == "Dana Reyes (DANA-REYES)"
    assert entry["who"] == paid["confirmed_by"] and entry["payout"] == payout
    # a second click changes nothing and pays nothing twice
    again = confirm(api, payout, {**body, "slip": "HP-9999"})
    assert again.status_code == 200 and again.get_json()["slip"] == "HP-2231"
    assert len(paid_entries(api)) == 1


def test_the_keys_person_is_the_payer_when_the_body_names_none(
    api: Api, services: Services
) -> None:
    payout = hit(api)
    secret = issue(services, Role.OPERATOR, (), "Lee Chan, shift 2")
    r = confirm(api, payout, HAND_PAY, header={"Authorization": f"Bearer {secret}"})
    assert r.status_code == 200, r.get_json()
    paid = r.get_json()
    assert paid["paid_by"] == "Lee Chan, shift 2 (LEE-CHAN-SHIFT-2)"
    assert paid["paid_by_id"] == paid["confirmer_id"] == "LEE-CHAN-SHIFT-2"


def test_nothing_is_paid_on_an_empty_form(api: Api) -> None:
    """A witness and a slip, always: an empty confirmation pays nothing."""
    payout = hit(api)
    for body, field in ((None, "witness"), ({}, "witness"), ({"witness": "SAM"}, "slip"),
                        ({"slip": "HP-1"}, "witness")):  # fmt: skip
        error = assert_error(confirm(api, payout, body), 400, field)
        assert error["code"] == "missing"
    assert status(api, payout) == "pending" and paid_entries(api) == []


# an id is ASCII letters, digits, '-' and '.': another case is the same id; anything else
# (spaces, a tab, zero-width and invisible characters, full-width letters) is no id at all
SAME_ID = ["DANA", "dana", "Dana", "dAnA"]
NO_ID = ["Dana ", " Dana", "Dana\t", "Dana\u200b", "\u200dDana", "Dana\ufeff", "Ｄａｎａ",
         "Da na", "D\u0430na", "Dana\ufe0f", "Dana\u034f", "\u3164Dana", "Dana\x00"]  # fmt: skip


def test_a_witness_is_another_person_than_the_payer_by_id(api: Api) -> None:
    payout = hit(api)
    for written in SAME_ID:
        body = {"paid_by": "DANA", "witness": written, "slip": "HP-1"}
        error = assert_error(confirm(api, payout, body), 400, "witness")
        assert error["code"] == "same_person", written
    for written in NO_ID:
        body = {"paid_by": "DANA", "witness": written, "slip": "HP-1"}
        assert_error(confirm(api, payout, body), 400, "witness")
    assert status(api, payout) == "pending"


def test_the_witness_is_not_the_operator_confirming(api: Api, services: Services) -> None:
    payout = hit(api)
    secret = issue(services, Role.OPERATOR, (), "Dana Reyes")
    dana = {"Authorization": f"Bearer {secret}"}
    body = {"paid_by": "LEE-CHAN", "witness": "dana-reyes", "slip": "HP-1"}
    error = assert_error(confirm(api, payout, body, header=dana), 400, "witness")
    assert error["code"] == "same_person"
    assert status(api, payout) == "pending"


def test_payer_and_witness_are_active_people_of_the_register(api: Api, services: Services) -> None:
    payout = hit(api)
    invisible = (
        ({"witness": "\u200b\u200b", "slip": "HP-1"}, "witness"),
        ({"paid_by": "\ufeff", "witness": "SAM", "slip": "HP-1"}, "paid_by"),
    )
    for body, field in invisible:
        assert_error(confirm(api, payout, body), 400, field)
    unknown = assert_error(confirm(api, payout, {**HAND_PAY, "witness": "E404"}), 404, "witness")
    assert unknown["code"] == "unknown_person"
    services.people.deactivate("SAM", "left the company")
    gone = assert_error(confirm(api, payout, {**HAND_PAY, "witness": "SAM"}), 409, "witness")
    assert gone["code"] == "person_inactive"
    gone = assert_error(confirm(api, payout, {**HAND_PAY, "paid_by": "SAM"}), 409, "paid_by")
    assert gone["code"] == "person_inactive"
    assert status(api, payout) == "pending"


def status(api: Api, payout: str) -> str:
    answer = api.client.get(f"/v1/payouts/{payout}", headers=api.keys.header("operator"))
    return str(answer.get_json()["status"])


def test_bad_hand_pay_records_name_the_field_and_pay_nothing(api: Api) -> None:
    payout = hit(api)
    for body, field in (
        ({"slip": "x" * 65, "witness": "SAM"}, "slip"),
        ({"paid_by": 7, **HAND_PAY}, "paid_by"),
        ({"witness": "", "slip": "HP-1"}, "witness"),
        ({"payer": "Dana", **HAND_PAY}, "payer"),
    ):
        r = confirm(api, payout, body)
        assert_error(r, 400, field)
    assert status(api, payout) == "pending"
    assert paid_entries(api) == []
