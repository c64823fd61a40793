"""Hand pays: confirming a jackpot records who paid it, the witness and the slip, in the
payout and in the pool's journal, beside the key that confirmed it; a key's label names the
payer when the body does not; bad input names the field and pays nothing."""

from __future__ import annotations

from typing import Any

from jackpot.bootstrap import Services
from jackpot.domain.auth import Role
from tests.support.api import Api, hit
from tests.support.checks import assert_error


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
    r = confirm(api, payout, header={"Authorization": f"Bearer {secret}"})
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["paid_by"] == "Lee Chan, shift 2"
    assert "witness" not in r.get_json() and "slip" not in r.get_json()


def test_bad_hand_pay_records_name_the_field_and_pay_nothing(api: Api) -> None:
    payout = hit(api)
    for body, field in (
        ({"paid_by": "Dana", "witness": " dana "}, "witness"),
        ({"slip": "x" * 65}, "slip"),
        ({"paid_by": 7}, "paid_by"),
        ({"witness": ""}, "witness"),
        ({"payer": "Dana"}, "payer"),
    ):
        r = confirm(api, payout, body)
        assert_error(r, 400, field)
    assert (
        api.client.get(f"/v1/payouts/{payout}", headers=api.keys.header("operator")).get_json()[
            "status"
        ]
        == "pending"
    )
    assert paid_entries(api) == []
