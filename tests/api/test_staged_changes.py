"""No parameter change while the link is in operation (NY 5321.18(b)(4)): a running pool's
parameters change only while it is suspended, or through a staged change that takes effect
at its next suspension or at a set time, journaled with who staged it and why."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import redis as redis_lib
from redis import Redis

from jackpot.bootstrap import Services
from jackpot.cli.worker import scheduler
from jackpot.settings import Settings
from jackpot.store.confighashes import canonical
from jackpot.store.keys import Keys
from tests.support.api import Api, round_body
from tests.support.checks import assert_error, snapshot

POOL = {"reset": 100_000, "rate_bp": 100, "reserve_rate_bp": 20}
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
NEW_YEAR_2031 = (datetime(2031, 1, 1, tzinfo=UTC) - EPOCH) // timedelta(milliseconds=1)


def post(api: Api, path: str, body: Any = None) -> Any:
    return api.client.post(path, json=body, headers=api.keys.header("operator"))


def meters(api: Api, pool: str = "main") -> Any:
    r = api.client.get(f"/v1/pools/{pool}/meters", headers=api.keys.header("auditor"))
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def kinds(api: Api) -> list[str]:
    return [e["type"] for e in api.journal()]


def test_a_running_pools_parameters_change_only_once_it_is_suspended(
    api: Api, redis: redis_lib.Redis
) -> None:
    api.put_pool()
    header = api.keys.header("operator")
    before = snapshot(redis)
    r = api.client.put("/v1/pools/main", json={**POOL, "rate_bp": 200}, headers=header)
    error = assert_error(r, 409, None)
    assert error["code"] == "pool_running" and "/v1/pools/main/staged" in error["message"]
    assert snapshot(redis) == before
    # the same parameters again change nothing, so they are no change at all
    same = api.client.put("/v1/pools/main", json=POOL, headers=header)
    assert (same.status_code, same.get_json()["status"]) == (200, "unchanged")

    assert post(api, "/v1/pools/main/suspend", {"reason": "paytable change"}).status_code == 200
    r = api.client.put("/v1/pools/main", json={**POOL, "rate_bp": 200}, headers=header)
    assert (r.status_code, r.get_json()["status"], r.get_json()["rate_bp"]) == (200, "updated", 200)


def test_a_staged_change_waits_for_the_next_suspension(api: Api) -> None:
    api.put_pool()
    api.put_table()
    r = post(api, "/v1/pools/main/staged", {"rate_bp": 250, "cap": 900_000, "reason": "ticket 7"})
    assert r.status_code == 200, r.get_json()
    staged = r.get_json()["staged"]
    assert (staged["rate_bp"], staged["cap"], staged["reserve_rate_bp"]) == (250, 900_000, 20)
    assert staged["effective_at"] is None and staged["reason"] == "ticket 7"
    assert staged["who"].startswith("operator:")
    assert (r.get_json()["rate_bp"], r.get_json()["cap"]) == (100, None), "not in effect yet"
    assert "staged" not in api.client.get("/v1/pools/main").get_json(), "not public"
    # play goes on under the rules in effect: 1% of 10.00 to the meter
    before = meters(api)["value_units"]
    body = round_body("r1", spots=[{"spot": 1, "wager": 1000, "card": "9d"}])
    assert api.report(body).status_code == 200
    assert meters(api)["value_units"] - before == 1000 * 100 * 10_000 // 10_000

    assert post(api, "/v1/pools/main/suspend", {"reason": "apply ticket 7"}).status_code == 200
    now = meters(api)
    assert (now["rate_bp"], now["cap"], now["staged"], now["state"]) == (250, 900_000, None,
                                                                        "suspended")  # fmt: skip
    entries = api.journal()
    assert [e["type"] for e in entries][-4:] == ["change_staged", "contribution", "suspended",
                                                 "config"]  # fmt: skip
    config = entries[-1]
    assert (config["rate_bp"], config["cap"], config["reason"]) == (250, 900_000, "ticket 7")
    assert config["staged_by"] == staged["who"]
    assert post(api, "/v1/pools/main/resume").status_code == 200
    assert meters(api)["rate_bp"] == 250


def test_a_scheduled_change_takes_effect_at_its_time_and_not_before(
    api: Api, services: Services
) -> None:
    api.put_pool()
    at = "2031-01-01T06:00:00-05:00"
    at_ms = (datetime.fromisoformat(at) - EPOCH) // timedelta(milliseconds=1)
    r = post(api, "/v1/pools/main/staged", {"reset": 150_000, "effective_at": at, "reason": "new"})
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["staged"]["effective_at"] == at_ms
    # a suspension before its time leaves it waiting for its time
    assert post(api, "/v1/pools/main/suspend", {"reason": "drill"}).status_code == 200
    assert post(api, "/v1/pools/main/resume").status_code == 200
    assert meters(api)["staged"]["reset"] == 150_000 and meters(api)["reset"] == 100_000
    assert services.pools.apply_due(at_ms - 1) == {}
    # at its time it takes effect on the running pool, in one step between rounds
    assert services.pools.apply_due(at_ms) == {"main": "updated"}
    now = meters(api)
    assert (now["reset"], now["staged"], now["state"]) == (150_000, None, "running")
    assert services.pools.apply_due(at_ms + 60_000) == {}, "once"
    assert kinds(api)[-1] == "config" and api.journal()[-1]["who"] == "scheduler"


def test_the_worker_applies_staged_changes_on_its_schedule(redis: Redis) -> None:
    settings = Settings.from_env({})
    jobs = {job.name for job in scheduler(redis, settings).get_jobs()}
    assert {"archive", "close-days", "apply-staged"} <= jobs


def test_a_new_stage_replaces_the_waiting_one_and_a_cancel_drops_it(api: Api) -> None:
    api.put_pool()
    assert post(api, "/v1/pools/main/staged", {"rate_bp": 150, "reason": "a"}).status_code == 200
    r = post(api, "/v1/pools/main/staged", {"rate_bp": 175, "reason": "b"})
    assert r.get_json()["staged"]["rate_bp"] == 175
    r = post(api, "/v1/pools/main/staged/cancel", {"reason": "withdrawn"})
    assert (r.status_code, r.get_json()["changed"], r.get_json()["staged"]) == (200, True, None)
    again = post(api, "/v1/pools/main/staged/cancel", {"reason": "withdrawn"})
    assert (again.status_code, again.get_json()["changed"]) == (200, False)
    assert kinds(api)[-3:] == ["change_staged", "change_staged", "change_cancelled"]
    assert post(api, "/v1/pools/main/suspend", {"reason": "x"}).status_code == 200
    assert meters(api)["rate_bp"] == 100, "nothing was applied"


def test_a_staged_cap_below_the_meter_stays_staged_and_says_why(
    api: Api, services: Services
) -> None:
    api.put_pool(cap=100_000)
    api.put_table()
    # the meter is at its cap; a cap of 1,000.00 would be below it once play moved it:
    for n in range(3):
        body = round_body(f"r{n}", spots=[{"spot": 1, "wager": 2500, "card": "9d"}])
        assert api.report(body).status_code == 200
    assert post(api, "/v1/pools/main/suspend", {"reason": "raise the cap"}).status_code == 200
    assert post(api, "/v1/pools/main/resume").status_code == 200
    stage = {"cap": 100_000, "reset": 90_000, "effective_at": "2031-01-01T00:00:00Z",
             "reason": "lower reset"}  # fmt: skip
    assert post(api, "/v1/pools/main/staged", stage).status_code == 200
    # (the meter holds 1,000.00 and the overflow went to the reserve: equal to the cap is fine)
    assert services.pools.apply_due(NEW_YEAR_2031) == {"main": "updated"}
    # a cap below the meter: refused when it would take effect, kept for the operator
    api.put_pool(reset=90_000, cap=None)
    for n in range(3, 6):
        body = round_body(f"r{n}", spots=[{"spot": 1, "wager": 2500, "card": "9d"}])
        assert api.report(body).status_code == 200
    value = meters(api)["value"]
    stage = {"cap": value - 1, "effective_at": "2031-01-01T00:00:00Z", "reason": "cap"}
    assert post(api, "/v1/pools/main/staged", stage).status_code == 200
    done = services.pools.apply_due(NEW_YEAR_2031)
    assert done["main"].startswith("refused:") and str(value) in done["main"]
    assert meters(api)["staged"]["cap"] == value - 1 and meters(api)["cap"] is None


def test_bad_staged_changes_name_the_field_and_change_nothing(
    api: Api, redis: redis_lib.Redis
) -> None:
    api.put_pool()
    api.put_pool("old")
    assert (
        post(api, "/v1/pools/old/retire", {"id": "t", "to": "main", "reason": "x"}).status_code
        == 200
    )
    before = snapshot(redis)
    for path, body, status, field in (
        ("/v1/pools/main/staged", {"rate_bp": 150}, 400, "reason"),
        ("/v1/pools/main/staged", {"rate_bp": 150, "reason": ""}, 400, "reason"),
        ("/v1/pools/main/staged", {"effective_at": "tomorrow", "reason": "x"}, 400, "effective_at"),
        # a time gone by would take effect at the next tick: a change for now is a suspension
        ("/v1/pools/main/staged", {"effective_at": "2020-01-01T00:00:00Z", "reason": "x"},
         400, "effective_at"),
        ("/v1/pools/main/staged", {"effective_at": "0001-01-01T00:00:00Z", "reason": "x"},
         400, "effective_at"),
        ("/v1/pools/main/staged", {"effective_at": "9999-12-31T23:00:00-05:00", "reason": "x"},
         400, "effective_at"),
        ("/v1/pools/main/staged", {"rate_bp": 9_000, "reserve_rate_bp": 2_000, "reason": "x"},
         400, "reserve_rate_bp"),
        ("/v1/pools/main/staged", {"cap": 50_000, "reason": "x"}, 400, "cap"),
        ("/v1/pools/main/staged", {"value": 1, "reason": "x"}, 400, "value"),
        ("/v1/pools/main/staged", [], 400, None),
        ("/v1/pools/main/staged/cancel", {}, 400, "reason"),
        ("/v1/pools/nope/staged", {"rate_bp": 150, "reason": "x"}, 404, "pool"),
        ("/v1/pools/old/staged", {"rate_bp": 150, "reason": "x"}, 409, "pool"),
    ):  # fmt: skip
        assert_error(post(api, path, body), status, field)
    assert snapshot(redis) == before


def richer_game(redis: redis_lib.Redis) -> None:
    """Give T1 the seed paytable with a double tie at 31 to 1, as a store from before the
    return check covered staged changes could hold it: with a staged 2,554 bp it returns
    100.48%."""
    key = Keys("jackpot").table("T1")
    config = json.loads(redis.hget(key, "config") or "{}")
    config["paytable"]["double_tie"] = {"odds": 31}
    redis.hset(key, "config", canonical(config))


@pytest.mark.main_group  # it writes the main group's table key itself
def test_a_staged_change_that_would_return_too_much_is_refused_at_the_suspension(
    api: Api, redis: redis_lib.Redis
) -> None:
    api.put_pool(rate_bp=200)
    api.put_table()
    staged = post(api, "/v1/pools/main/staged", {"rate_bp": 2_554, "reason": "max"})
    assert staged.status_code == 200, staged.get_json()
    richer_game(redis)
    r = post(api, "/v1/pools/main/suspend", {"reason": "apply it"})
    assert r.status_code == 200, r.get_json()
    now = meters(api)
    assert (now["state"], now["rate_bp"], now["staged"]["rate_bp"]) == ("suspended", 200, 2_554)
    assert "100.48%" in now["staged_refused"] and "table T1" in now["staged_refused"]
    refused = api.journal()[-1]
    assert (refused["type"], refused["rate_bp"]) == ("change_refused", 2_554)
    assert refused["reason"] == now["staged_refused"]
    # suspending again refuses it again, journaled once; a cancel drops it and its refusal
    assert post(api, "/v1/pools/main/resume").status_code == 200
    assert post(api, "/v1/pools/main/suspend", {"reason": "again"}).status_code == 200
    assert kinds(api)[-3:] == ["change_refused", "resumed", "suspended"]
    assert meters(api)["rate_bp"] == 200
    assert post(api, "/v1/pools/main/staged/cancel", {"reason": "no"}).status_code == 200
    assert meters(api)["staged_refused"] is None


@pytest.mark.main_group  # it writes the main group's table key itself
def test_a_scheduled_change_that_would_return_too_much_is_refused_by_the_worker(
    api: Api, redis: redis_lib.Redis, services: Services
) -> None:
    api.put_pool(rate_bp=200)
    api.put_table()
    stage = {"rate_bp": 2_554, "effective_at": "2031-01-01T00:00:00Z", "reason": "max"}
    assert post(api, "/v1/pools/main/staged", stage).status_code == 200
    richer_game(redis)
    done = services.pools.apply_due(NEW_YEAR_2031)
    assert done["main"].startswith("refused:") and "100.48%" in done["main"]
    assert services.pools.apply_due(NEW_YEAR_2031 + 60_000)["main"].startswith("refused:")
    now = meters(api)
    assert (now["state"], now["rate_bp"], now["staged"]["rate_bp"]) == ("running", 200, 2_554)
    assert kinds(api).count("change_refused") == 1, "journaled once"
    assert "100.48%" in now["staged_refused"]
    # a table out of play is still checked: it may be put back
    off = api.client.put("/v1/tables/T1", json={"enabled": False},
                         headers=api.keys.header("operator"))  # fmt: skip
    assert off.status_code == 200, off.get_json()
    assert services.pools.apply_due(NEW_YEAR_2031 + 120_000)["main"].startswith("refused:")


def assert_refused_once(api: Api, pool: str, code: str) -> Any:
    """The pool is suspended on its old terms, the change still staged and refused with
    `code`, journaled once as `change_refused` (D229)."""
    now = meters(api, pool)
    assert now["state"] == "suspended" and now["staged"] is not None
    assert now["staged_refused"] is not None and code in now["staged_refused"]
    refused = [e for e in api.journal(pool) if e["type"] == "change_refused"]
    assert len(refused) == 1 and refused[0]["reason"] == now["staged_refused"]
    return now


def test_the_lab_s_staged_cap_below_the_armed_draw_is_refused_and_the_pool_suspended(
    api: Api,
) -> None:
    """The lab (F3): P11 must-hit-by armed over 101..2000, meter 100; a staged cap of 500,
    then a suspension answered 409 `trigger_range_in_force` — and the pool was suspended,
    with nothing saying why the change was not applied; again: 409 again."""
    api.put_pool("P11", reset=100, rate_bp=100, reserve_rate_bp=0, cap=2_000,
                 level="must_hit_by")  # fmt: skip
    staged = post(api, "/v1/pools/P11/staged", {"cap": 500, "reason": "lower cap"})
    assert staged.status_code == 200, staged.get_json()
    r = post(api, "/v1/pools/P11/suspend", {"reason": "apply"})
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["state"] == "suspended"
    now = assert_refused_once(api, "P11", "trigger_range_in_force")
    assert (now["cap"], now["staged"]["cap"]) == (2_000, 500)
    assert [e["type"] for e in api.journal("P11")][-2:] == ["suspended", "change_refused"]
    # suspending again: 200, journaled once; a cancel drops the change and its refusal
    again = post(api, "/v1/pools/P11/suspend", {"reason": "apply"})
    assert again.status_code == 200, again.get_json()
    assert_refused_once(api, "P11", "trigger_range_in_force")
    assert post(api, "/v1/pools/P11/resume").status_code == 200
    assert post(api, "/v1/pools/P11/suspend", {"reason": "again"}).status_code == 200
    assert_refused_once(api, "P11", "trigger_range_in_force")
    assert post(api, "/v1/pools/P11/staged/cancel", {"reason": "no"}).status_code == 200
    assert meters(api, "P11")["staged_refused"] is None


def test_a_staged_cap_below_the_meter_is_refused_at_the_suspension_which_still_suspends(
    api: Api, services: Services
) -> None:
    api.put_pool()
    api.put_table()
    for n in range(3):
        body = round_body(f"r{n}", spots=[{"spot": 1, "wager": 2500, "card": "9d"}])
        assert api.report(body).status_code == 200
    value = meters(api)["value"]
    staged = post(api, "/v1/pools/main/staged", {"cap": value - 1, "reason": "cap"})
    assert staged.status_code == 200, staged.get_json()
    r = post(api, "/v1/pools/main/suspend", {"reason": "apply the cap"})
    assert r.status_code == 200, r.get_json()
    now = assert_refused_once(api, "main", "cap_below_value")
    assert str(value) in now["staged_refused"]
    assert (now["cap"], now["staged"]["cap"], now["value"]) == (None, value - 1, value)
    # the worker's scheduled application likewise records it once and goes on
    assert post(api, "/v1/pools/main/resume").status_code == 200
    stage = {"cap": value - 1, "effective_at": "2031-01-01T00:00:00Z", "reason": "cap later"}
    assert post(api, "/v1/pools/main/staged", stage).status_code == 200
    for at in (NEW_YEAR_2031, NEW_YEAR_2031 + 60_000):
        done = services.pools.apply_due(at)
        assert done["main"].startswith("refused:") and "cap_below_value" in done["main"]
    refused = [e for e in api.journal() if e["type"] == "change_refused"]
    assert len(refused) == 2, "one for each change staged"
    assert (meters(api)["state"], meters(api)["cap"]) == ("running", None)
