"""Several workers each keep a copy of the tables: a change made through one is honoured by
all of them at once, whether it widens or narrows what a table may report."""

from __future__ import annotations

from flask import Flask

from jackpot.entrypoints.app import create_app
from jackpot.settings import Settings
from tests.support.api import Api, round_body
from tests.support.stores import Store


def other_worker(store: Store, settings: Settings, api: Api) -> Api:
    app: Flask = create_app(settings, store.url)
    return Api(app.test_client(), api.keys)


def test_a_table_re_enabled_through_one_worker_plays_on_every_worker(
    linked: Api, store: Store, settings: Settings
) -> None:
    second = other_worker(store, settings, linked)
    assert second.report(round_body("r1")).status_code == 200  # caches T1 as enabled
    linked.put_table("T1", enabled=False)
    refused = second.report(round_body("r2"))
    assert refused.status_code == 409
    assert refused.get_json()["error"]["code"] == "table_disabled"
    linked.put_table("T1", enabled=True)
    assert second.report(round_body("r2")).status_code == 200


def test_a_wager_limit_raised_through_one_worker_is_accepted_by_every_worker(
    linked: Api, store: Store, settings: Settings
) -> None:
    second = other_worker(store, settings, linked)
    assert second.report(round_body("r1")).status_code == 200  # caches max_wager 2500
    linked.put_table("T1", max_wager=10_000)
    big = round_body("r2", spots=[{"spot": 1, "wager": 10_000, "card": "4d"}])
    answer = second.report(big)
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["spots"][0]["wager"] == 10_000


def test_a_heartbeat_answers_with_the_table_state_as_it_is_now(
    linked: Api, store: Store, settings: Settings
) -> None:
    second = other_worker(store, settings, linked)
    beat = second.client.post("/v1/tables/T1/heartbeat", headers=linked.keys.header("table"))
    assert beat.get_json()["enabled"] is True
    linked.put_table("T1", enabled=False)
    beat = second.client.post("/v1/tables/T1/heartbeat", headers=linked.keys.header("table"))
    assert beat.get_json()["enabled"] is False


def test_switching_a_table_s_play_is_journaled_under_its_own_name_with_why(
    linked: Api,
) -> None:
    linked.put_table("T1", enabled=False, reason="felt torn at spot 4")
    linked.put_table("T1", max_wager=5_000)
    linked.put_table("T1", enabled=True, reason="felt replaced")
    linked.put_table("T1", enabled=True, reason="already enabled: nothing changes")
    group = linked.meters()["group"]
    house = linked.client.get(
        f"/v1/journal?group={group}&limit=500", headers=linked.keys.header("auditor")
    ).get_json()["entries"]
    steps = [(e["type"], e.get("reason", "")) for e in house if e.get("table") == "T1"]
    assert steps[-3:] == [
        ("table_disabled", "felt torn at spot 4"),
        ("table_updated", ""),
        ("table_enabled", "felt replaced"),
    ]
