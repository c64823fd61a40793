"""Large fixed-odds and envy pays held for verification (JACKPOT_HANDPAY_CENTS): each is a
payout pending like a jackpot, confirmed with payer, witness and slip, disputed or voided,
journaled, and in the day's hit register; below the threshold nothing changes."""

from __future__ import annotations

from pathlib import Path

import pytest
import redis as redis_lib

from jackpot.settings import Settings
from tests.support.api import Api, round_body
from tests.support.archive_world import world_of
from tests.support.checks import HAND_PAY, assert_error
from tests.support.redis_server import RedisServer

ACES = {"card": "As", "war": True, "war_card": "As"}


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """Hand pays from $1,000.00."""
    return Settings(data_dir=tmp_path / "var", key_cache_seconds=0.0, handpay_cents=100_000)


def hit_with_envy(api: Api, round_id: str = "r1") -> dict:
    """A suited four of a kind on spot 1 ($5: 1000 to 1 is $5,000, plus the meter), and
    spot 2's $5 bet receiving the envy (200 x $5 = $1,000)."""
    api.put_pool()
    api.put_table()
    spots = [{"spot": 1, "wager": 500, "player": "p1", **ACES},
             {"spot": 2, "wager": 500, "card": "4d", "player": "p2"}]  # fmt: skip
    r = api.report(round_body(round_id, dealer="As", dealer_war="As", spots=spots))
    assert r.status_code == 200, r.get_json()
    return dict(r.get_json())


def test_a_large_fixed_pay_and_envy_are_held_as_hand_pays(api: Api) -> None:
    answer = hit_with_envy(api)
    held = {(h["kind"], h["spot"], h["amount"], h["status"]) for h in answer["hand_pays"]}
    assert held == {("fixed", 1, 500_000, "pending"), ("envy", 2, 100_000, "pending")}
    assert len(answer["jackpots"]) == 1, "the meter's jackpot, as ever"
    assert answer["spots"][0]["pay"] == 500_000, "the pay is what it is; it is held, not cut"
    header = api.keys.header("operator")
    pending = api.client.get("/v1/payouts?status=pending", headers=header).get_json()["payouts"]
    assert sorted(p.get("kind", "meter") for p in pending) == ["envy", "fixed", "meter"]
    journal = [e for e in api.journal() if e["type"] == "hand_pay"]
    assert {(e["kind"], e["amount"]) for e in journal} == {("fixed", 500_000), ("envy", 100_000)}
    fixed = next(h["id"] for h in answer["hand_pays"] if h["kind"] == "fixed")
    empty = api.client.post(f"/v1/payouts/{fixed}/confirm", json={}, headers=header)
    assert assert_error(empty, 400, "witness")
    paid = api.client.post(f"/v1/payouts/{fixed}/confirm", json=HAND_PAY, headers=header)
    assert paid.status_code == 200 and paid.get_json()["status"] == "paid"
    # a void of the round is refused by the paid hand pay, named
    error = assert_error(
        api.client.post("/v1/rounds/T1/r1/void", json={"reason": "x"}, headers=header),
        409,
        "payout",
    )
    assert fixed in error["message"]


def test_a_void_of_the_round_voids_its_pending_hand_pays(api: Api) -> None:
    answer = hit_with_envy(api)
    header = api.keys.header("operator")
    r = api.client.post("/v1/rounds/T1/r1/void", json={"reason": "malfunction"}, headers=header)
    assert r.status_code == 200, r.get_json()
    for h in answer["hand_pays"]:
        got = api.client.get(f"/v1/payouts/{h['id']}", headers=header).get_json()
        assert (got["status"], got["voided_from"]) == ("void", "pending")


def test_below_the_threshold_the_table_pays_as_ever(api: Api) -> None:
    api.put_pool()
    api.put_table()
    r = api.report(round_body("r1", dealer="As", spots=[{"spot": 1, "wager": 2_500, "card": "Ad"}]))
    assert r.status_code == 200 and "hand_pays" not in r.get_json()
    assert r.get_json()["spots"][0]["pay"] == 12_500  # a tie: 5 to 1


def test_the_days_hit_register_lists_the_hand_pays_with_their_kind(
    redis: redis_lib.Redis, redis_server: RedisServer, tmp_path: Path
) -> None:
    with world_of(redis, redis_server.url, tmp_path / "world", handpay_cents=100_000) as w:
        answer = hit_with_envy(w.api)
        day = w.services.days().of_time(w.clock())
        w.clock.pass_days(2)
        report = w.services.accounting.close(day)
    kinds = sorted((h["kind"], h["amount_cents"], h["status_at_close"]) for h in report["hits"])
    jackpot = answer["jackpots"][0]["amount"]
    assert kinds == [("envy", 100_000, "pending"), ("fixed", 500_000, "pending"),
                     ("meter", jackpot, "pending")]  # fmt: skip
    assert report["balanced"] is True
    [pool] = report["pools"]
    assert pool["unpaid_jackpots_count"] == 1, "the pool owes its jackpot, not the table's pays"


def test_a_bets_envy_bonuses_of_one_round_are_one_pay_against_the_threshold(api: Api) -> None:
    """D304 (an examiner's question, 2026-11-29): two suited fours of a kind each give spot
    3's $2.50 bet a $500 envy bonus; each is under the $1,000 threshold, together they are
    at it, and the bet is paid them together: one envy hand pay of $1,000."""
    api.put_pool()
    api.put_table()
    spots = [{"spot": 1, "wager": 500, "player": "p1", **ACES},
             {"spot": 2, "wager": 500, "player": "p2", **ACES},
             {"spot": 3, "wager": 250, "card": "4d", "player": "p3"}]  # fmt: skip
    r = api.report(round_body("r1", dealer="As", dealer_war="As", spots=spots))
    assert r.status_code == 200, r.get_json()
    answer = r.get_json()
    assert answer["spots"][2]["envy"] == 100_000
    envy = [(h["spot"], h["amount"]) for h in answer["hand_pays"] if h["kind"] == "envy"]
    assert sorted(envy) == [(1, 100_000), (2, 100_000), (3, 100_000)]
