"""Link control: an operator suspends a pool's link (every linked table's side bet closes)
and resumes it, through the real app on a real redis-server. While suspended, a round with
side wagers for the pool is refused with 409 `progressive_closed` and changes nothing; the
public read says so; both steps are journaled with who and why."""

from __future__ import annotations

from typing import Any

from tests.support.api import Api, round_body
from tests.support.checks import assert_error

NO_WAGER = [{"spot": 1, "card": "4d"}]


def refused(response: Any, status: int, code: str | None, field: str | None) -> None:
    error = assert_error(response, status, field)
    assert code is None or error["code"] == code, error


def link(api: Api, pool: str, action: str, body: Any = None, role: str = "operator") -> Any:
    return api.client.post(f"/v1/pools/{pool}/{action}", json=body, headers=api.keys.header(role))


def world(api: Api) -> None:
    api.put_pool()
    api.put_pool("other")
    api.put_table()
    api.put_table("T2", pools=["other"])


def test_a_suspended_link_refuses_side_wagers_and_changes_nothing(api: Api) -> None:
    world(api)
    settled = round_body("before")
    assert api.report(settled).status_code == 200
    r = link(api, "main", "suspend", {"reason": "paytable change approved, ticket 118"})
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["state"] == "suspended" and r.get_json()["changed"] is True
    assert api.pool()["state"] == "suspended"
    assert {p["pool"]: p["state"] for p in api.client.get("/v1/pools").get_json()["pools"]} == {
        "main": "suspended",
        "other": "running",
    }

    meters, journal = api.meters(), api.journal()
    refused_round = api.report(round_body("during"))
    refused(refused_round, 409, "progressive_closed", "spots")
    assert "main" in refused_round.get_json()["error"]["message"]
    assert api.meters() == meters and api.journal() == journal, "nothing settled"

    # a round without side wagers still settles, and an acknowledged round is still answered
    assert api.report(round_body("no-wager", spots=NO_WAGER)).status_code == 200
    again = api.report(settled)
    assert again.status_code == 200 and again.get_json()["replayed"] is True
    # another pool's tables play on
    assert api.report(round_body("elsewhere", table="T2")).status_code == 200

    r = link(api, "main", "resume", {"reason": "new paytable in place"})
    assert r.status_code == 200 and r.get_json()["state"] == "running"
    # the refused report settles once the link runs again (the adapter's requeue)
    after = api.report(round_body("during"))
    assert after.status_code == 200 and after.get_json()["replayed"] is False

    steps = [e for e in api.journal() if e["type"] in ("suspended", "resumed")]
    assert [(e["type"], e["reason"]) for e in steps] == [
        ("suspended", "paytable change approved, ticket 118"),
        ("resumed", "new paytable in place"),
    ]
    assert all(e["who"] and "value_units" not in e for e in steps), "names who, moves no money"
    assert api.meters()["invariant_holds"] is True


def test_suspending_twice_changes_nothing_and_resume_needs_no_body(api: Api) -> None:
    world(api)
    assert link(api, "main", "suspend", {"reason": "a"}).get_json()["changed"] is True
    again = link(api, "main", "suspend", {"reason": "b"})
    assert again.status_code == 200 and again.get_json()["changed"] is False
    r = api.client.post("/v1/pools/main/resume", headers=api.keys.header("operator"))
    assert r.status_code == 200 and r.get_json()["changed"] is True
    assert link(api, "main", "resume").get_json()["changed"] is False
    kinds = [e["type"] for e in api.journal() if e["type"] in ("suspended", "resumed")]
    assert kinds == ["suspended", "resumed"]


def test_bad_link_requests_name_the_field_and_change_nothing(api: Api) -> None:
    world(api)
    journal = api.journal()
    refused(link(api, "main", "suspend"), 400, "missing", "reason")
    refused(link(api, "main", "suspend", {}), 400, None, "reason")
    refused(link(api, "main", "suspend", {"reason": 7}), 400, None, "reason")
    refused(link(api, "main", "suspend", {"reason": "x", "why": 1}), 400, None, "why")
    refused(link(api, "main", "resume", {"reason": "x" * 501}), 400, None, "reason")
    refused(link(api, "nope", "suspend", {"reason": "x"}), 404, "unknown_pool", "pool")
    assert link(api, "main", "suspend", {"reason": "x"}, role="table").status_code == 403
    assert link(api, "main", "suspend", {"reason": "x"}, role="auditor").status_code == 403
    assert api.journal() == journal and api.pool()["state"] == "running"


def test_a_heartbeat_tells_the_table_whether_its_side_bet_is_open(api: Api) -> None:
    world(api)

    def beat(table: str) -> Any:
        r = api.client.post(f"/v1/tables/{table}/heartbeat", headers=api.keys.header("table"))
        assert r.status_code == 200, r.get_json()
        return r.get_json()

    assert beat("T2") == {
        "table": "T2",
        "enabled": True,
        "online": True,
        "pools": {"other": "running"},
        "controller": "operable",
        "side_bet_open": True,
    }
    link(api, "other", "suspend", {"reason": "meter sign replaced"})
    assert beat("T2")["pools"] == {"other": "suspended"}
    assert beat("T2")["side_bet_open"] is False
    assert beat("T1")["side_bet_open"] is True, "T1 feeds main alone"
    link(api, "other", "resume")
    assert beat("T2")["side_bet_open"] is True
