"""Jackpot payouts' steps as the API tests take them under two-person control: the
threshold, operators who are people, a step and the entries it journaled
(tests/api/test_payout_void_approval.py, test_payout_voids_awaiting.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from jackpot.bootstrap import Services
from jackpot.domain.auth import Role
from tests.support.api import Api
from tests.support.people import issue

THRESHOLD = 50_000  # $500.00: the lab's setting; the jackpot of hit() is $1,000.05


def operator(services: Services, label: str) -> dict[str, str]:
    secret = issue(services, Role.OPERATOR, (), label)
    return {"Authorization": f"Bearer {secret}"}


def step(api: Api, payout: str, name: str, body: Any, header: dict[str, str]) -> Any:
    return api.client.post(f"/v1/payouts/{payout}/{name}", json=body, headers=header)


def entries(api: Api, kind: str, payout: str) -> list[dict[str, Any]]:
    return [e for e in api.journal() if e["type"] == kind and e.get("payout") == payout]


def payout_of(api: Api, payout: str) -> dict[str, Any]:
    r = api.client.get(f"/v1/payouts/{payout}", headers=api.keys.header("auditor"))
    assert r.status_code == 200, r.get_json()
    return dict(r.get_json())


def two_person_control(services: Services) -> Iterator[Services]:
    """Two-person control from THRESHOLD while a test runs (the app is shared): a fixture's
    body (`yield from`)."""
    before = services.approval.cents
    services.approval.cents = THRESHOLD
    yield services
    services.approval.cents = before


def operators(services: Services) -> dict[str, dict[str, str]]:
    """Dana (two keys of hers), Lee and Kim: each a person with an operator key."""
    return {
        "dana": operator(services, "Dana Reyes"),
        "dana2": operator(services, "Dana Reyes"),  # Dana's second key
        "lee": operator(services, "Lee Chan"),
        "kim": operator(services, "Kim Park"),
    }


CONFIRM = {"paid_by": "SAM-OKAFOR", "witness": "ANA-RUIZ", "slip": "HP-37"}
