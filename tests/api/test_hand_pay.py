"""Hand pays: confirming a jackpot records who paid it, the witness and the slip, in the
payout and in the pool's journal, beside the key that confirmed it; a key's label names the
payer when the body does not. A witness and a slip are required, and the witness is another
person than the payer and the operator confirming, compared as people, not strings (NFKC,
case, spaces and invisible characters); bad input names the field and pays nothing."""

from __future__ import annotations

from typing import Any

from jackpot.bootstrap import Services
from jackpot.domain.auth import Role
from tests.support.api import Api, hit
from tests.support.checks import HAND_PAY, assert_error


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
    body = {"paid_by": "Dana Reyes", "witness": "Sam Okafor", "slip": "HP-2231", "reason": "ok"}
    r = confirm(api, payout, body)
    assert r.status_code == 200, r.get_json()
    paid = r.get_json()
    assert paid["status"] == "paid"
    assert (paid["paid_by"], paid["witness"], paid["slip"], paid["note"]) == (
        "Dana Reyes",
        "Sam Okafor",
        "HP-2231",
        "ok",
    )
    assert paid["confirmed_by"].startswith("operator:"), "the key, beside the person"
    (entry,) = paid_entries(api)
    assert (entry["paid_by"], entry["witness"], entry["slip"]) == ("Dana Reyes", "Sam Okafor",
                                                                   "HP-2231")  # fmt: skip
    assert entry["who"] == paid["confirmed_by"] and entry["payout"] == payout
    # a second click changes nothing and pays nothing twice
    again = confirm(api, payout, {**body, "slip": "HP-9999"})
    assert again.status_code == 200 and again.get_json()["slip"] == "HP-2231"
    assert len(paid_entries(api)) == 1


def test_the_keys_label_names_the_payer_when_the_body_does_not(
    api: Api, services: Services
) -> None:
    payout = hit(api)
    secret, _ = services.credentials.create(Role.OPERATOR, frozenset(), "Lee Chan, shift 2")
    r = confirm(api, payout, HAND_PAY, header={"Authorization": f"Bearer {secret}"})
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["paid_by"] == "Lee Chan, shift 2"


def test_nothing_is_paid_on_an_empty_form(api: Api) -> None:
    """A witness and a slip, always: an empty confirmation pays nothing."""
    payout = hit(api)
    for body, field in ((None, "witness"), ({}, "witness"), ({"witness": "Sam"}, "slip"),
                        ({"slip": "HP-1"}, "witness")):  # fmt: skip
        error = assert_error(confirm(api, payout, body), 400, field)
        assert error["code"] == "missing"
    assert status(api, payout) == "pending" and paid_entries(api) == []


# the same person, typed otherwise: spaces, a tab, zero-width and invisible characters,
# full-width letters, another case
DANA = ["Dana", "Dana ", " Dana", "Dana\t", "Dana\u200b", "\u200dDana", "Dana\ufeff",
        "Ｄａｎａ", "DANA", "Da na"]  # fmt: skip


def test_a_witness_is_another_person_however_the_name_is_typed(api: Api) -> None:
    payout = hit(api)
    for written in DANA:
        body = {"paid_by": "Dana", "witness": written, "slip": "HP-1"}
        error = assert_error(confirm(api, payout, body), 400, "witness")
        assert error["code"] == "same_person", written
    assert status(api, payout) == "pending"


def test_the_witness_is_not_the_operator_confirming(api: Api, services: Services) -> None:
    payout = hit(api)
    secret, _ = services.credentials.create(Role.OPERATOR, frozenset(), "Dana Reyes")
    dana = {"Authorization": f"Bearer {secret}"}
    body = {"paid_by": "Lee Chan", "witness": "ＤＡＮＡ REYES", "slip": "HP-1"}
    error = assert_error(confirm(api, payout, body, header=dana), 400, "witness")
    assert error["code"] == "same_person"
    assert status(api, payout) == "pending"


def test_a_name_of_nothing_but_invisible_characters_is_no_person(api: Api) -> None:
    payout = hit(api)
    invisible = (
        ({"witness": "\u200b\u200b", "slip": "HP-1"}, "witness"),
        ({"paid_by": "\ufeff", "witness": "Sam", "slip": "HP-1"}, "paid_by"),
    )
    for body, field in invisible:
        error = assert_error(confirm(api, payout, body), 400, field)
        assert error["code"] == "not_a_person"
    assert status(api, payout) == "pending"


def status(api: Api, payout: str) -> str:
    answer = api.client.get(f"/v1/payouts/{payout}", headers=api.keys.header("operator"))
    return str(answer.get_json()["status"])


def test_bad_hand_pay_records_name_the_field_and_pay_nothing(api: Api) -> None:
    payout = hit(api)
    for body, field in (
        ({"slip": "x" * 65, "witness": "Sam"}, "slip"),
        ({"paid_by": 7, **HAND_PAY}, "paid_by"),
        ({"witness": "", "slip": "HP-1"}, "witness"),
        ({"payer": "Dana", **HAND_PAY}, "payer"),
    ):
        r = confirm(api, payout, body)
        assert_error(r, 400, field)
    assert status(api, payout) == "pending"
    assert paid_entries(api) == []
