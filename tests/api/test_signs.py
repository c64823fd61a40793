"""Signs are defined centrally: which public pools a sign shows, in what order, under what
names, with its title, orientation, currency and locale; pools may be kept off every sign and
the public read; tables carry the asset number and location a hit announcement names."""

from __future__ import annotations

import json
from typing import Any

import redis as redis_lib

from jackpot.bootstrap import Services
from jackpot.settings import Settings
from jackpot.store.keys import Keys
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
    assert r.get_json()["levels"] == [{"pool": "main", "name": None}], "no label of its own"
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


def test_a_pool_name_is_shown_everywhere_changes_while_it_runs_and_a_sign_label_wins(
    api: Api, services: Services
) -> None:
    api.put_pool()
    api.put_pool("grand", reset=1_000_000)
    api.put_table(pools=["main", "grand"])
    operator = api.keys.header("operator")
    assert api.pool()["name"] is None, "none: the id is shown"
    put(api, "lobby", {"levels": [{"pool": "grand", "name": "Grand Jackpot"}, {"pool": "main"}]})
    board = services.board

    def shown() -> dict[str, Any]:
        return board.states(board.definitions())["lobby"]

    assert [lv["name"] for lv in shown()["levels"]] == ["Grand Jackpot", "main"]
    # not a parameter: a running pool takes it, journaled, and no balance moves
    before = api.meters()
    r = api.client.put("/v1/pools/main", json={"name": "  Casino War Progressive "},
                       headers=operator)  # fmt: skip
    assert (r.status_code, r.get_json()["status"], r.get_json()["name"]) == (
        200, "updated", "Casino War Progressive")  # fmt: skip
    after = api.meters()
    assert (after["state"], after["value_units"], after["reserve_units"]) == (
        "running", before["value_units"], before["reserve_units"])  # fmt: skip
    entry = api.journal()[-1]
    assert (entry["type"], entry["name"]) == ("config", "Casino War Progressive")
    again = api.client.put("/v1/pools/main", json={"name": "Casino War Progressive"},
                           headers=operator)  # fmt: skip
    assert again.get_json()["status"] == "unchanged"
    # the public read, the list, the meters; the sign follows, its own label winning
    assert api.pool()["name"] == "Casino War Progressive"
    listed = api.client.get("/v1/pools").get_json()["pools"]
    assert {p["pool"]: p["name"] for p in listed} == {
        "grand": None, "main": "Casino War Progressive"}  # fmt: skip
    api.client.put("/v1/pools/grand", json={"name": "Grand Progressive"}, headers=operator)
    state = shown()
    assert [lv["name"] for lv in state["levels"]] == ["Grand Jackpot", "Casino War Progressive"]
    # a paytable line names the pool it pays by the sign's name for it
    assert "of the Casino War Progressive" in state["levels"][0]["paytable"][0]["pays"]
    # removed: the id again
    api.client.put("/v1/pools/main", json={"name": None}, headers=operator)
    assert api.pool()["name"] is None
    assert [lv["name"] for lv in shown()["levels"]] == ["Grand Jackpot", "main"]
    # refused naming it, nothing changed
    for bad in ("", "x" * 41, "Grand\u0007", "\u202eniaM", 5):
        r = api.client.put("/v1/pools/main", json={"name": bad}, headers=operator)
        assert assert_error(r, 400, "name"), bad
    assert api.pool()["name"] is None
    # never staged: it is no parameter
    staged = api.client.post("/v1/pools/main/staged", json={"name": "X", "reason": "r"},
                             headers=operator)  # fmt: skip
    assert assert_error(staged, 400, "name")["code"] == "unknown_field"


def test_a_sign_stored_before_pool_names_follows_the_pool_name(
    api: Api, services: Services, redis: redis_lib.Redis, settings: Settings
) -> None:
    """A sign stored when a level without a label held the pool's id shows the pool's name."""
    api.put_pool(name="Casino War Progressive")
    put(api, "old", {"levels": [{"pool": "main"}]})
    stored = {"branding": "", "currency": "USD", "levels": [{"name": "main", "pool": "main"}],
              "locale": "en-US", "orientation": "landscape", "title": "old"}  # fmt: skip
    redis.hset(Keys(settings.namespace).signs, "old", json.dumps(stored))
    assert api.client.get("/v1/signs/old").get_json()["levels"] == [{"pool": "main", "name": None}]
    board = services.board
    state = board.states(board.definitions())["old"]
    assert state["levels"][0]["name"] == "Casino War Progressive"


def test_a_trigger_level_says_what_wager_can_win_it_never_its_range(
    api: Api, services: Services
) -> None:
    """The smallest wager that can win a must-hit-by or mystery level is a rule of play: in
    the public read and the sign's state (D281); a mystery level's range is not."""
    api.put_pool()
    api.put_pool("mys", reset=1_000, rate_bp=100, reserve_rate_bp=0, level="mystery",
                 trigger_low=5_000, trigger_high=9_000, qualifying_wager=500)  # fmt: skip
    api.put_table(pools=["main", "mys"])
    public = api.pool("mys")
    assert (public["level"], public["qualifying_wager"]) == ("mystery", 500)
    assert "trigger_low" not in public and "trigger_high" not in public
    assert "qualifying_wager" not in api.pool(), "a hand level's is its paytable's"
    put(api, "lobby", {"levels": [{"pool": "main"}, {"pool": "mys"}]})
    board = services.board
    levels = board.states(board.definitions())["lobby"]["levels"]
    assert [(lv["kind"], lv["qualifying_wager"]) for lv in levels] == [
        ("hand", 0), ("mystery", 500)]  # fmt: skip
    assert not any("trigger_low" in lv or "trigger_high" in lv for lv in levels)


def test_a_pools_name_is_unique_in_its_link_group(api: Api) -> None:
    """D290: a name another live pool of the group has is refused where it is written,
    compared without regard to case and spacing; a retired pool's name is free again, and
    another link group's pools may share it."""
    operator = api.keys.header("operator")
    api.put_pool(name="Casino War Progressive")
    api.put_pool("old", reset=50_000)
    before = api.client.get("/v1/pools/old").get_json()
    # case, spacing, a Cyrillic а, full-width letters: each reads as main's name
    for same in ("Casino War Progressive", "casino war  PROGRESSIVE", "C\u0430sino War Progressive",
                 "\uff23asino War Progressive"):  # fmt: skip
        r = api.client.put("/v1/pools/old", json={"name": same}, headers=operator)
        error = assert_error(r, 409, "name")
        assert error["code"] == "pool_name_taken" and "'main'" in error["message"], error
        assert "'Casino War Progressive', the name of pool 'main'" in error["message"], error
        assert api.client.get("/v1/pools/old").get_json() == before, "nothing changed"
    # letters beyond ASCII compare without their case too (the examiner's "CAFÉ")
    assert api.put_pool("old", name="Café Progressive")["name"] == "Café Progressive"
    cafe = api.client.put(
        "/v1/pools/new",
        json={"reset": 100_000, "rate_bp": 100, "reserve_rate_bp": 20, "name": "CAFÉ PROGRESSIVE"},
        headers=operator,
    )
    assert assert_error(cafe, 409, "name")["code"] == "pool_name_taken"
    created = api.client.put(
        "/v1/pools/new",
        json={
            "reset": 100_000,
            "rate_bp": 100,
            "reserve_rate_bp": 20,
            "name": "CASINO WAR PROGRESSIVE",
        },
        headers=operator,
    )
    assert assert_error(created, 409, "name")["code"] == "pool_name_taken"
    assert api.client.get("/v1/pools/new").status_code == 404, "not created"
    # its own name again is no clash; another group may have it
    assert api.put_pool(name="Casino War Progressive")["status"] == "unchanged"
    east = api.put_pool("east-main", group="east", name="Casino War Progressive")
    assert east["name"] == "Casino War Progressive"
    # retired, its name is free for its successor
    retired = api.client.post(
        "/v1/pools/main/retire",
        json={"id": "retire-main-1", "to": "old", "reason": "re-themed"},
        headers=operator,
    )
    assert retired.status_code == 200, retired.get_json()
    assert api.put_pool("old", name="Casino War Progressive")["name"] == "Casino War Progressive"
