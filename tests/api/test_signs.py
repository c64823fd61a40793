"""Signs are defined centrally: which public pools a sign shows, in what order, under what
names, with its title, orientation, currency and locale; pools may be kept off every sign and
the public read; tables carry the asset number and location a hit announcement names."""

from __future__ import annotations

from typing import Any

import redis as redis_lib

from tests.support.api import Api
from tests.support.checks import assert_error, snapshot

LOBBY = {
    "levels": [{"pool": "grand", "name": "Grand Jackpot"}, {"pool": "main", "name": "Major"}],
    "title": "Casino War Progressive",
    "branding": "Only at the Riverside",
    "orientation": "portrait",
    "currency": "USD",
    "locale": "en-US",
}


def put(api: Api, sign: str, body: Any) -> Any:
    return api.client.put(f"/v1/signs/{sign}", json=body, headers=api.keys.header("operator"))


def test_a_sign_is_defined_read_changed_and_deleted_with_the_journal(api: Api) -> None:
    api.put_pool()
    api.put_pool("grand", reset=1_000_000)
    r = put(api, "lobby", LOBBY)
    assert (r.status_code, r.get_json()["status"]) == (201, "created")
    shown = api.client.get("/v1/signs/lobby")  # no key: the screen reads it
    assert shown.status_code == 200
    assert shown.get_json() == {"sign": "lobby", **LOBBY}
    assert put(api, "lobby", LOBBY).get_json()["status"] == "unchanged"
    smaller = {"levels": [{"pool": "main"}]}
    r = put(api, "lobby", smaller)
    assert r.get_json()["status"] == "updated"
    assert r.get_json()["levels"] == [{"pool": "main", "name": "main"}]
    assert (r.get_json()["title"], r.get_json()["orientation"], r.get_json()["locale"]) == (
        "lobby",
        "landscape",
        "en-US",
    )
    listed = api.client.get("/v1/signs", headers=api.keys.header("auditor")).get_json()
    assert [s["sign"] for s in listed["signs"]] == ["lobby"]
    gone = api.client.delete("/v1/signs/lobby", headers=api.keys.header("operator"))
    assert gone.status_code == 200
    assert_error(api.client.get("/v1/signs/lobby"), 404, "sign")
    assert_error(api.client.delete("/v1/signs/lobby", headers=api.keys.header("operator")), 404,
                 "sign")  # fmt: skip
    house = [e for e in api.journal(pool=None) if e["type"].startswith("sign_")]
    assert [e["type"] for e in house] == ["sign_changed", "sign_changed", "sign_deleted"]
    assert all(e["sign"] == "lobby" and e["who"].startswith("operator:") for e in house)


def test_a_pool_kept_off_the_signs_leaves_the_public_read_while_it_runs(api: Api) -> None:
    api.put_pool()
    api.put_pool("test-pool")
    header = api.keys.header("operator")
    # visibility is not a game parameter: it changes while the pool runs
    r = api.client.put(
        "/v1/pools/test-pool",
        json={"reset": 100_000, "rate_bp": 100, "reserve_rate_bp": 20, "public": False},
        headers=header,
    )
    assert (r.status_code, r.get_json()["public"]) == (200, False), r.get_json()
    assert [p["pool"] for p in api.client.get("/v1/pools").get_json()["pools"]] == ["main"]
    assert_error(api.client.get("/v1/pools/test-pool"), 404, "pool")
    # operators and auditors still read it
    meters = api.client.get("/v1/meters", headers=api.keys.header("auditor")).get_json()
    assert {p["pool"]: p["public"] for p in meters["pools"]} == {"main": True, "test-pool": False}
    entry = api.journal(pool="test-pool")[-1]
    assert (entry["type"], entry["public"]) == ("config", 0)
    # a sign may not show it
    refused = put(api, "lobby", {"levels": [{"pool": "main"}, {"pool": "test-pool"}]})
    assert assert_error(refused, 409, "levels[1].pool")["code"] == "pool_state"
    back = api.client.put("/v1/pools/test-pool", json={"public": True}, headers=header)
    assert back.get_json()["public"] is True
    assert put(api, "lobby", {"levels": [{"pool": "test-pool"}]}).status_code == 201


def test_bad_sign_definitions_name_the_field_and_change_nothing(
    api: Api, redis: redis_lib.Redis
) -> None:
    api.put_pool()
    api.put_pool("old")
    retire = {"id": "t", "to": "main", "reason": "re-themed"}
    assert (
        api.client.post("/v1/pools/old/retire", json=retire, headers=api.keys.header("operator"))
    ).status_code == 200
    before = snapshot(redis)
    main = {"pool": "main"}
    for body, status, field in (
        ({"levels": [{"pool": "nope"}]}, 404, "levels[0].pool"),
        ({"levels": [main, {"pool": "old"}]}, 409, "levels[1].pool"),
        ({"levels": [main, main]}, 400, "levels[1].pool"),
        ({"levels": []}, 400, "levels"),
        ({"levels": [main] * 9}, 400, "levels"),
        ({"levels": [{"pool": "main", "name": "x" * 41}]}, 400, "levels[0].name"),
        ({"levels": [main], "title": "T" * 61}, 400, "title"),
        ({"levels": [main], "locale": "xx-XX"}, 400, "locale"),
        ({"levels": [main], "currency": "JPY"}, 400, "currency"),
        ({"levels": [main], "orientation": "sideways"}, 400, "orientation"),
        ({"levels": [main], "colour": "red"}, 400, "colour"),
        ({"title": "no levels"}, 400, "levels"),
    ):
        assert_error(put(api, "lobby", body), status, field)
    assert_error(put(api, "bad/sign", {"levels": [main]}), 404, None)
    assert snapshot(redis) == before


def test_a_table_carries_its_asset_number_and_location(api: Api) -> None:
    api.put_pool()
    r = api.put_table(asset="WAR-0042", location="Pit 3, by the bar")
    assert (r["asset"], r["location"]) == ("WAR-0042", "Pit 3, by the bar")
    kept = api.put_table(max_wager=5_000)
    assert (kept["asset"], kept["location"]) == ("WAR-0042", "Pit 3, by the bar")
    cleared = api.put_table(asset=None)
    assert (cleared["asset"], cleared["location"]) == (None, "Pit 3, by the bar")
    for body, field in (({"asset": "A" * 33}, "asset"), ({"location": ""}, "location")):
        r = api.client.put("/v1/tables/T1", json=body, headers=api.keys.header("operator"))
        assert_error(r, 400, field)
