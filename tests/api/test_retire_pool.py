"""Retiring a pool: its whole balance, meter and reserve, moves to another pool in one
atomic, journaled step with the reason and who; no table may feed it; it leaves the public
read; the invariant of every pool holds throughout; a retry moves nothing twice."""

from __future__ import annotations

from typing import Any

from jackpot.domain.reconcile import reconcile
from tests.support.api import Api, round_body
from tests.support.checks import assert_error

UNIT = 10_000


def refused(response: Any, status: int, code: str | None, field: str | None) -> None:
    error = assert_error(response, status, field)
    assert code is None or error["code"] == code, error


def retire(api: Api, pool: str, body: Any, role: str = "operator") -> Any:
    return api.client.post(f"/v1/pools/{pool}/retire", json=body, headers=api.keys.header(role))


def floor(api: Api, **main: Any) -> None:
    """Pool `main` fed by T1 and pool `old` fed by T2, each with contributions in its meter
    and its reserve; then T2 moves to `main`, so nothing feeds `old` any more."""
    api.put_pool(**main)
    api.put_pool("old", reset=50_000, rate_bp=300, reserve_rate_bp=150)
    api.put_table()
    api.put_table("T2", pools=["old"])
    for i in range(5):
        assert api.report(round_body(f"m{i}")).status_code == 200
        assert api.report(round_body(f"o{i}", table="T2")).status_code == 200


def test_retiring_a_pool_moves_its_meter_and_reserve_to_another_in_one_step(api: Api) -> None:
    floor(api)
    body = {"id": "retire-old-1", "to": "main", "reason": "bank 4 re-themed, GC approval 77"}
    refused(retire(api, "old", body), 409, "pool_in_use", "pool")
    assert api.meters("old")["state"] == "running", "refused: nothing changed"

    api.put_table("T2", pools=["main"])
    old, main = api.meters("old"), api.meters("main")
    moved = old["value_units"] + old["reserve_units"]
    assert old["value_units"] > 0 and old["reserve_units"] > 0
    r = retire(api, "old", body)
    assert r.status_code == 200, r.get_json()
    answer = r.get_json()
    assert answer["replayed"] is False and answer["state"] == "retired"
    assert (answer["moved_value_units"], answer["moved_reserve_units"]) == (
        old["value_units"],
        old["reserve_units"],
    )
    assert answer["moved_units"] == moved

    after_old, after_main = api.meters("old"), api.meters("main")
    assert after_old["state"] == "retired"
    assert (after_old["value_units"], after_old["reserve_units"]) == (0, 0)
    assert after_main["value_units"] == main["value_units"] + old["value_units"]
    assert after_main["reserve_units"] == main["reserve_units"] + old["reserve_units"]
    assert after_old["invariant_holds"] and after_main["invariant_holds"]

    # journaled in both, with who and why; a reconciliation of each balances
    (out,) = [e for e in api.journal("old") if e["type"] == "transfer"]
    (into,) = [e for e in api.journal("main") if e["type"] == "transfer"]
    assert (out["to"], int(out["amount_units"]), out["reason"]) == ("main", -moved, body["reason"])
    assert (into["from"], int(into["amount_units"])) == ("old", moved)
    assert out["who"] and out["who"] == into["who"] and out["transfer"] == into["transfer"]
    for pool in ("old", "main"):
        done = reconcile(pool, api.journal(pool), 0, 2**62)
        assert done.balanced, (pool, done)

    # a retry moves nothing twice; the id with another body is refused
    again = retire(api, "old", body)
    assert again.status_code == 200 and again.get_json()["replayed"] is True
    assert api.meters("main") == after_main
    refused(retire(api, "old", {**body, "reason": "other"}), 409, "adjustment_refused", "id")

    # it has left the public read, and nothing can feed or reopen it
    assert [p["pool"] for p in api.client.get("/v1/pools").get_json()["pools"]] == ["main"]
    refused(api.client.get("/v1/pools/old"), 404, "unknown_pool", "pool")
    operator = api.keys.header("operator")
    r = api.client.post("/v1/pools/old/resume", headers=operator)
    refused(r, 409, "pool_state", "pool")
    r = api.client.put("/v1/tables/T3", json={"pools": ["old"]}, headers=operator)
    refused(r, 409, "pool_state", "pools[0]")
    r = api.client.put("/v1/pools/old", json={"reset": 1, "rate_bp": 1, "reserve_rate_bp": 0},
                       headers=operator)  # fmt: skip
    refused(r, 409, "pool_state", "pool")
    refused(retire(api, "old", {**body, "id": "retire-old-2"}), 409, "pool_state", "pool")
    api.put_pool("spare")
    refused(retire(api, "spare", {**body, "id": "x", "to": "old"}), 409, "pool_state", "to")


def test_what_would_pass_the_receiving_cap_goes_to_its_reserve(api: Api) -> None:
    floor(api, cap=100_010)
    api.put_table("T2", pools=["main"])
    old, main = api.meters("old"), api.meters("main")
    r = retire(api, "old", {"id": "t1", "to": "main", "reason": "capped"})
    assert r.status_code == 200, r.get_json()
    after = api.meters("main")
    assert after["value_units"] == 100_010 * UNIT
    total = main["value_units"] + main["reserve_units"] + old["value_units"] + old["reserve_units"]
    assert after["value_units"] + after["reserve_units"] == total, "nothing lost to the cap"
    assert after["invariant_holds"]
    (into,) = [e for e in api.journal("main") if e["type"] == "transfer"]
    assert int(into["to_visible_units"]) == 100_010 * UNIT - main["value_units"]


def test_bad_retire_requests_name_the_field_and_change_nothing(api: Api) -> None:
    floor(api)
    api.put_table("T2", pools=["main"])
    before = (api.meters("old"), api.meters("main"))
    body = {"id": "r1", "to": "main", "reason": "x"}
    refused(retire(api, "old", {**body, "to": "old"}), 400, None, "to")
    refused(retire(api, "old", {**body, "to": "nope"}), 404, "unknown_pool", "to")
    refused(retire(api, "nope", body), 404, "unknown_pool", "pool")
    refused(retire(api, "old", {"id": "r1", "to": "main"}), 400, None, "reason")
    refused(retire(api, "old", {**body, "id": "bad id!"}), 400, None, "id")
    refused(retire(api, "old", {**body, "extra": 1}), 400, None, "extra")
    assert retire(api, "old", body, role="auditor").status_code == 403
    assert retire(api, "old", body, role="table").status_code == 403
    assert (api.meters("old"), api.meters("main")) == before
