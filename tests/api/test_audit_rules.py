"""Rules an auditor relies on: linked tables truly share their game, the hidden reserve stays
hidden, adjustments are bound to their pool, times rise with the journal, disputes leave the
pending list, exports drop nothing, and the exact bounds hold."""

from __future__ import annotations

import csv
import io
import json

import pytest
import redis as redis_lib
from prometheus_client.parser import text_string_to_metric_families

from jackpot.bootstrap import Services
from jackpot.domain.config import TableConfig
from jackpot.settings import Settings
from jackpot.store.keys import Keys as StoreKeys
from tests.support.api import Api, round_body
from tests.support.checks import HAND_PAY

JACKPOT = {
    "table": "T1",
    "round": "hit",
    "dealer": {"card": "Ah", "war_card": "Ah"},
    "spots": [
        {"spot": 1, "wager": 500, "player": "p-7", "card": "Ah", "war": True, "war_card": "Ah"}
    ],
}


def test_tables_listing_the_same_pools_in_another_order_are_not_the_same_game(api: Api) -> None:
    api.put_pool("main")
    api.put_pool("side")
    api.put_table("T1", pools=["main", "side"])
    # the seed paytable's 100% is of the FIRST pool: T2 would pay from `side`, T1 from `main`
    r = api.client.put(
        "/v1/tables/T2", json={"pools": ["side", "main"]}, headers=api.keys.header("operator")
    )
    assert r.status_code == 409
    assert r.get_json()["error"]["code"] == "linked_tables_differ"


def test_the_public_metrics_do_not_show_the_hidden_reserve(linked: Api) -> None:
    linked.report(round_body())
    text = linked.client.get("/metrics").get_data(as_text=True)
    assert "jackpot_pool_value_cents" in text
    assert "reserve" not in text


def test_the_public_pool_reads_show_neither_the_reserve_nor_its_rate(linked: Api) -> None:
    """/metrics counts the wagers: with the reserve's rate, anyone could work out the
    reserve to the unit. The rate is for operators and auditors (the meters)."""
    linked.report(round_body())
    for path in ("/v1/pools", "/v1/pools/main"):
        text = linked.client.get(path).get_data(as_text=True)
        assert "reserve" not in text, text
    meters = linked.client.get("/v1/pools/main/meters", headers=linked.keys.header("auditor"))
    assert meters.get_json()["reserve_rate_bp"] > 0


def test_the_accounting_metrics_show_reserve_and_liability_to_auditors_only(linked: Api) -> None:
    spot = {"spot": 1, "wager": 500, "card": "9s", "war": True, "war_card": "9s"}
    dealer = {"card": "9s", "war_card": "9s"}
    hit = {"table": "T1", "round": "hit", "dealer": dealer, "spots": [spot]}
    linked.report(round_body())
    won = linked.report(hit).get_json()["jackpots"]
    assert won
    assert linked.client.get("/metrics/accounting").status_code == 401
    text = linked.client.get("/metrics/accounting", headers=linked.keys.header("auditor")).get_data(
        as_text=True
    )
    samples = {
        (s.name, s.labels.get("pool")): s.value
        for f in text_string_to_metric_families(text)
        for s in f.samples
    }
    meters = linked.meters()
    unpaid = sum(j["amount"] for j in won if j["pool"] == "main")
    assert samples[("jackpot_pool_reserve_cents", "main")] == meters["reserve_units"] // 10_000
    assert (
        samples[("jackpot_pool_liability_cents", "main")]
        == (meters["value_units"] + meters["reserve_units"] + unpaid * 10_000) // 10_000
    )


def test_an_adjustment_id_used_on_another_pool_is_a_conflict(linked: Api) -> None:
    linked.put_pool("other")
    body = {"id": "move-1", "amount": 100, "reason": "transfer"}
    ok = linked.client.post(
        "/v1/pools/main/adjustments", json=body, headers=linked.keys.header("operator")
    )
    assert ok.status_code == 200
    again = linked.client.post(
        "/v1/pools/other/adjustments", json=body, headers=linked.keys.header("operator")
    )
    assert again.status_code == 409
    assert again.get_json()["error"]["field"] == "id"
    assert linked.meters("other")["adjustments_units"] == 0


@pytest.mark.main_group  # reads the main group's keys itself
def test_journal_times_never_go_back_even_when_a_clock_does(
    linked: Api, redis: redis_lib.Redis, settings: Settings
) -> None:
    linked.report(round_body("r1"))
    future = 4_102_444_800_000  # 2100-01-01: as if the server clock had stepped back from it
    redis.hset(StoreKeys(settings.namespace).counters, "clock", future)
    linked.report(round_body("r2"))
    linked.report(round_body("r3"))
    times = [e["ts"] for e in linked.journal()]
    assert times == sorted(times)
    assert times[-1] == future


def test_a_disputed_jackpot_leaves_the_pending_list(linked: Api) -> None:
    payout = linked.report(JACKPOT).get_json()["jackpots"][0]["id"]
    op = linked.keys.header("operator")
    linked.client.post(f"/v1/payouts/{payout}/dispute", json={"reason": "review"}, headers=op)
    pending = linked.client.get("/v1/payouts?status=pending", headers=op).get_json()["payouts"]
    assert pending == []
    disputed = linked.client.get("/v1/payouts?status=disputed", headers=op).get_json()
    assert [p["id"] for p in disputed["payouts"]] == [payout]
    paid = linked.client.post(f"/v1/payouts/{payout}/confirm", json=HAND_PAY, headers=op).get_json()
    assert paid["status"] == "paid"


def test_the_public_meter_read_shows_a_hit_without_the_player(linked: Api) -> None:
    linked.report(JACKPOT)
    hit = linked.pool()["last_hits"][0]
    assert hit["spot"] == 1 and hit["table"] == "T1" and hit["status"] == "pending"
    assert "player" not in hit and "round" not in hit


def test_the_csv_export_keeps_every_field(linked: Api) -> None:
    linked.client.post(
        "/v1/pools/main/adjustments",
        headers=linked.keys.header("operator"),
        json={"id": "corr-9", "amount": -5, "reason": "typo"},
    )
    raw = linked.client.get("/v1/journal.csv?pool=main", headers=linked.keys.header("auditor"))
    rows = list(csv.DictReader(io.StringIO(raw.get_data(as_text=True))))
    entries = linked.journal()
    assert len(rows) == len(entries)
    for row, entry in zip(rows, entries, strict=True):
        extra = json.loads(row["extra"]) if row["extra"] else {}
        for key, value in entry.items():
            assert str(value) == (row[key] if key in row else str(extra[key])), key
    assert rows[0]["reset"] == "100000" and rows[-1]["adjustment"] == "corr-9"


def test_an_absurdly_long_query_integer_is_a_400(linked: Api) -> None:
    r = linked.client.get(
        "/v1/journal?pool=main&after=" + "9" * 5000, headers=linked.keys.header("auditor")
    )
    assert r.status_code == 400
    assert r.get_json()["error"]["field"] == "after"


def test_unknown_tokens_are_not_remembered(linked: Api, services: Services) -> None:
    before = services.credentials.cached
    for n in range(50):
        r = linked.client.get("/v1/payouts", headers={"Authorization": f"Bearer junk-{n}"})
        assert r.status_code == 401
    assert services.credentials.cached == before


def test_a_meter_that_would_pass_the_exact_bound_refuses_the_round(linked: Api) -> None:
    linked.put_pool("main", rate_bp=100, reserve_rate_bp=0)
    # $1,000 + $999,998,999.99 = 99,999,999,999 cents: one cent under 1e15 units, the bound;
    # a $25 wager puts 25 cents on it (a game returning less than 100%, as every game must)
    r = linked.client.post(
        "/v1/pools/main/adjustments",
        headers=linked.keys.header("operator"),
        json={"id": "big", "amount": 99_999_899_999, "reason": "test bound"},
    )
    assert r.status_code == 200, r.get_json()
    before = linked.meters()
    refused = linked.report(round_body(spots=[{"spot": 1, "wager": 2500, "card": "4d"}]))
    assert refused.status_code == 409
    assert refused.get_json()["error"]["code"] == "meter_limit"
    assert linked.meters() == before


@pytest.mark.main_group  # reads the main group's house journal
def test_a_house_journal_total_beyond_two_to_the_53_is_exact(api: Api, services: Services) -> None:
    api.put_pool("main")
    paytable = {
        o: {"odds": 1}
        for o in (
            "suited_four_of_a_kind",
            "suited_double_tie",
            "four_of_a_kind",
            "double_tie",
            "suited_tie",
        )
    }
    paytable["tie"] = {"odds": 1_000_000}
    # a game no controller takes (it returns millions of percent): written to the store as
    # it stands, to hold the journal's arithmetic beyond 2^53
    body = {"pools": ["main"], "profile": "stadium", "max_wager": 10_000_000,
            "paytable": paytable}  # fmt: skip
    refused = api.client.put("/v1/tables/T1", json=body, headers=api.keys.header("operator"))
    assert refused.get_json()["error"]["code"] == "return_too_high"
    store = services.groups.main.config
    store.put_table("T1", TableConfig.from_json(body), store.config_version(), "the test")
    suits = "cdhs"
    spots = [
        {
            "spot": n,
            "card": f"{'9' if n < 5 else '9'}{suits[n % 4]}",
            "bets": [{"wager": 10_000_000 - k, "player": f"p{n}-{k}"} for k in range(200)],
        }
        for n in range(1, 8)
    ]
    r = api.report({"table": "T1", "round": "big", "dealer": {"card": "9c"}, "spots": spots})
    assert r.status_code == 200, r.get_json()
    expected = sum(s["pay"] for s in r.get_json()["spots"])
    assert expected > 2**53
    entry = next(e for e in api.journal(pool=None) if e["type"] == "round")
    assert entry["fixed"] == expected
