"""The reads the operator console needs: who the key is and the casino's clock, every pool's
meters with retired ones, and the recent operators' steps naming their people, bounded."""

from __future__ import annotations

import pytest
import redis as redis_lib

from jackpot.bootstrap import Services
from jackpot.domain.auth import Role
from jackpot.store.keys import Keys
from tests.support.api import Api, hit
from tests.support.checks import assert_error
from tests.support.people import issue


def header(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def test_the_session_names_the_person_and_the_casinos_clock(api: Api, services: Services) -> None:
    secret = issue(services, Role.OPERATOR, (), "Dana Reyes")
    r = api.client.get("/v1/session", headers=header(secret))
    assert r.status_code == 200, r.get_json()
    session = r.get_json()
    assert (session["role"], session["person"], session["person_id"]) == (
        "operator",
        "Dana Reyes",
        "DANA-REYES",
    )
    assert session["shown"] == "Dana Reyes (DANA-REYES)" and session["key"] == session["who"][9:]
    assert session["time_zone"] == "UTC" and session["handpay_approval_cents"] == 0
    # every person's key is issued to a person of the register
    auditor = api.client.get("/v1/session", headers=api.keys.header("auditor")).get_json()
    assert (auditor["person"], auditor["role"]) == ("auditor of the tests", "auditor")


def test_every_pools_meters_include_retired_pools(api: Api) -> None:
    api.put_pool()
    api.put_pool("old")
    retired = api.client.post(
        "/v1/pools/old/retire",
        json={"id": "t-1", "to": "main", "reason": "re-themed"},
        headers=api.keys.header("operator"),
    )
    assert retired.status_code == 200, retired.get_json()
    pools = api.client.get("/v1/meters", headers=api.keys.header("auditor")).get_json()["pools"]
    assert {p["pool"]: p["state"] for p in pools} == {"main": "running", "old": "retired"}
    assert all("reserve" in p and "invariant_holds" in p for p in pools)
    public = api.client.get("/v1/pools").get_json()["pools"]
    assert [p["pool"] for p in public] == ["main"]


def test_activity_lists_the_operators_steps_newest_first_with_their_people(
    api: Api, services: Services
) -> None:
    secret = issue(services, Role.OPERATOR, (), "Dana Reyes")
    payout = hit(api)  # pool and table made with the tests' operator key (the first round
    # records the controller's gaming day: in its answer)
    steps = (
        ("/v1/pools/main/suspend", {"reason": "paytable change"}),
        ("/v1/pools/main/resume", {"reason": "done"}),
        ("/v1/pools/main/adjustments", {"id": "a-1", "amount": 250, "reason": "meter fault"}),
        (f"/v1/payouts/{payout}/confirm", {"witness": "SAM-OKAFOR", "slip": "HP-9"}),
    )
    for path, body in steps:
        r = api.client.post(path, json=body, headers=header(secret))
        assert r.status_code == 200, r.get_json()
    r = api.client.get("/v1/activity?limit=5", headers=api.keys.header("auditor"))
    assert r.status_code == 200, r.get_json()
    activity = r.get_json()["activity"]
    # The first round recorded the controller's gaming day, before the steps. With the pools
    # in another link group its entry is in the main group's journal, and may share the
    # suspension's millisecond: entries of one millisecond in two groups have no order
    # between them (a fresh-clone CI run, 2026-11-29, listed it second to last).
    (day_set,) = [a for a in activity if a["type"] == "gaming_day_set"]
    taken = [a for a in activity if a is not day_set]
    assert [a["type"] for a in taken] == ["payout_paid", "adjustment", "resumed", "suspended"]
    assert int(day_set["ts"]) <= int(taken[3]["ts"])
    paid, adjusted, resumed, suspended = taken
    assert (paid["paid_by"], paid["witness"], paid["slip"]) == (
        "Dana Reyes (DANA-REYES)",
        "Sam Okafor (SAM-OKAFOR)",
        "HP-9",
    )
    assert all(a["person"] == "Dana Reyes (DANA-REYES)" for a in taken)
    assert (suspended["pool"], suspended["journal"], suspended["reason"]) == (
        "main",
        "pool",
        "paytable change",
    )
    assert adjusted["amount_units"] == "2500000" and adjusted["reason"] == "meter fault"
    assert day_set["journal"] == "house"
    assert resumed["seq"] < paid["seq"] and resumed["ts"] <= paid["ts"]
    assert all("player" not in a for a in activity)  # never a player id
    assert_error(api.client.get("/v1/activity?limit=0", headers=header(secret)), 400, "limit")
    assert_error(api.client.get("/v1/activity?since=1", headers=header(secret)), 400, "since")


@pytest.mark.main_group  # reads the main group's keys itself
def test_activity_stays_bounded_however_many_steps(
    api: Api, services: Services, redis: redis_lib.Redis
) -> None:
    api.put_pool()
    for n in range(1_300):
        r = api.client.post(
            "/v1/pools/main/adjustments",
            json={"id": f"a-{n}", "amount": 1, "reason": "bounded"},
            headers=api.keys.header("operator"),
        )
        assert r.status_code == 200
    length = redis.xlen(Keys().activity)
    assert 1_000 <= length < 1_200, length
    newest = api.client.get("/v1/activity?limit=1", headers=api.keys.header("operator"))
    assert newest.get_json()["activity"][0]["adjustment"] == "a-1299"
