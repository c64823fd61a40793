"""What /metrics shows to whom (docs/API.md, D242): a pool kept off the signs is out of the
open scrape, as it is out of the public read; the house's key sees every pool."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families

from jackpot.bootstrap import bootstrap
from jackpot.entrypoints.app import create_app
from jackpot.settings import Settings
from tests.support.api import Api, make_keys, round_body
from tests.support.redis_server import start_server

INTERNAL = "house-test"
HIT = {
    "table": "T2",
    "round": "hit",
    "dealer": {"card": "9s", "war_card": "9s"},
    "spots": [{"spot": 1, "wager": 500, "card": "9s", "war": True, "war_card": "9s"}],
}


@pytest.fixture
def floor(linked: Api) -> Api:
    """`main` fed by T1, and the internal pool fed by T2, each with a round; the internal pool
    with a jackpot waiting for its hand pay."""
    linked.put_pool(INTERNAL, public=False)
    linked.put_table("T2", pools=[INTERNAL])
    assert linked.report(round_body("r1")).status_code == 200
    assert linked.report(round_body("r2", table="T2")).status_code == 200
    won = linked.report(HIT).get_json()["jackpots"]
    assert [j["pool"] for j in won] == [INTERNAL]
    return linked


def pools_named(text: str) -> dict[str, set[str]]:
    """Each sample name and the pools its samples name."""
    named: dict[str, set[str]] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if "pool" in sample.labels:
                named.setdefault(sample.name, set()).add(sample.labels["pool"])
    return named


def scrape(api: Api, headers: dict[str, str] | None = None) -> Any:
    response = api.client.get("/metrics", headers=headers or {})
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_data(as_text=True)


def test_the_open_metrics_leave_out_a_pool_kept_off_the_signs(floor: Api) -> None:
    text = scrape(floor)
    assert INTERNAL not in text
    named = pools_named(text)
    for sample in ("jackpot_pool_value_cents", "jackpot_pool_wagered_cents_total"):
        assert named[sample] == {"main"}, sample
    # Prometheus with an empty credentials file sends "Bearer " alone: the open view
    assert INTERNAL not in scrape(floor, {"Authorization": "Bearer "})


@pytest.mark.parametrize("role", ["operator", "auditor"])
def test_the_house_key_sees_every_pool_on_the_metrics(floor: Api, role: str) -> None:
    named = pools_named(scrape(floor, floor.keys.header(role)))
    for sample in (
        "jackpot_pool_value_cents",
        "jackpot_pool_wagered_cents_total",
        "jackpot_pool_hits_total",
        "jackpot_jackpots_total",
        "jackpot_payouts_pending",
        "jackpot_payouts_oldest_pending_timestamp_seconds",
        "jackpot_table_pool_info",
    ):
        assert INTERNAL in named.get(sample, set()), sample
    assert "main" in named["jackpot_pool_value_cents"]


def test_a_pool_shown_again_returns_to_the_open_metrics(floor: Api) -> None:
    header = floor.keys.header("operator")
    shown = floor.client.put(f"/v1/pools/{INTERNAL}", json={"public": True}, headers=header)
    assert shown.status_code == 200, shown.get_json()
    assert INTERNAL in pools_named(scrape(floor))["jackpot_pool_value_cents"]
    hidden = floor.client.put(f"/v1/pools/{INTERNAL}", json={"public": False}, headers=header)
    assert hidden.status_code == 200, hidden.get_json()
    assert INTERNAL not in scrape(floor)


@pytest.mark.parametrize(
    ("who", "status"),
    [("table", 403), ("display", 403), ("unknown", 401)],
)
def test_a_key_the_metrics_cannot_take_is_refused_not_ignored(
    floor: Api, who: str, status: int
) -> None:
    """A scraper whose key is refused learns it (its target goes down) rather than silently
    losing the pools its key should show."""
    header = (
        {"Authorization": "Bearer jpk_not-a-key-anyone-was-given"}
        if who == "unknown"
        else floor.keys.header(who)
    )
    response = floor.client.get("/metrics", headers=header)
    assert response.status_code == status
    assert INTERNAL not in response.get_data(as_text=True)


def test_the_house_scrape_says_the_store_is_down_rather_than_failing(tmp_path: Path) -> None:
    """With the store away the key cannot be looked up: the scrape still answers, saying the
    store is down (JackpotStoreNotReady), with no pool in it, rather than failing
    (JackpotServiceDown)."""
    server = start_server(tmp_path / "redis")
    try:
        settings = Settings(data_dir=tmp_path / "var", key_cache_seconds=0.0)
        services = bootstrap(settings, server.url)
        api = Api(create_app(settings, services=services).test_client(), make_keys(services))
        api.put_pool(INTERNAL, public=False)
        auditor = api.keys.header("auditor")
        assert INTERNAL in scrape(api, auditor)
        server.stop()
        text = scrape(api, auditor)
        assert "jackpot_store_up 0.0" in text
        assert INTERNAL not in text
    finally:
        server.stop()
