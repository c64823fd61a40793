"""The self-check and the round script's own checks, in process against a real redis-server:
edits that keep a pool's sums, sums past 2^53, a check that cannot run, and a resend while
the controller is inoperable."""

from __future__ import annotations

from typing import Any

import pytest
import redis as redis_lib
from flask.testing import FlaskClient

from jackpot.bootstrap import Services
from jackpot.settings import Settings
from jackpot.store.health import HealthStore
from jackpot.store.keys import Keys as StoreKeys
from jackpot.store.scripts import Scripts
from tests.support.api import Api, round_body

SPOT = [{"spot": 1, "wager": 500, "card": "9d"}]  # against the default dealer card: no hit


def play(api: Api, round_id: str) -> Any:
    return api.report(round_body(round_id, spots=SPOT))


def test_reserve_moved_onto_the_meter_keeps_the_sums_and_is_still_refused(
    linked: Api, redis: redis_lib.Redis, settings: Settings
) -> None:
    assert play(linked, "r1").status_code == 200
    pool = StoreKeys(settings.namespace).pool("main")
    value, reserve = (int(x) for x in redis.hmget(pool, "value", "reserve"))
    assert reserve > 0
    # the sums still hold: only the journal's last balance says it was not the controller
    redis.hset(pool, mapping={"value": value + reserve, "reserve": 0})
    before = linked.meters()
    refused = play(linked, "r2")
    assert refused.status_code == 503
    assert refused.get_json()["error"]["code"] == "controller_inoperable"
    assert linked.meters()["bets"] == before["bets"]
    assert int(redis.hget(pool, "value")) == value + reserve  # nothing settled on it


@pytest.mark.parametrize(
    "big",
    [
        2**53 + 3,  # not a double: the check splits the texts into limbs
        10**13 + 3,  # its negative has 15 characters: read as one number (books.lua, limbs)
    ],
)
def test_sums_past_2_to_the_53_are_checked_exactly(
    linked: Api, redis: redis_lib.Redis, settings: Settings, big: int
) -> None:
    """Years of contributions can pass 2^53 units: the script's check must stay exact."""
    pool = StoreKeys(settings.namespace).pool("main")
    raw = redis.hgetall(pool)
    # contributions past 2^53, balanced by an equal negative adjustment: the sums still hold
    redis.hset(pool, mapping={"contrib_units": big, "adjust_units": int(raw["adjust_units"]) - big})
    assert play(linked, "r1").status_code == 200
    # one unit off, far below what a double can tell at that size
    redis.hincrby(pool, "contrib_units", 1)
    refused = play(linked, "r2")
    assert refused.status_code == 503
    assert "pool main" in refused.get_json()["error"]["message"]


def test_a_check_that_cannot_run_makes_the_controller_inoperable(
    linked: Api, redis: redis_lib.Redis, settings: Settings, services: Services, client: FlaskClient
) -> None:
    redis.hset(StoreKeys(settings.namespace).pool("main"), "seed_units", "1e3")  # not a number
    health = services.health.run()
    assert not health.operable
    assert {(p.check, p.code) for p in health.problems} == {("pools", "check_failed")}
    ready = client.get("/readyz")
    assert ready.status_code == 503 and ready.get_json()["status"] == "inoperable"
    refused = play(linked, "r1")
    assert refused.status_code == 503
    assert refused.get_json()["error"]["code"] == "controller_inoperable"


def test_a_settled_round_is_answered_while_the_controller_is_inoperable(
    linked: Api, redis: redis_lib.Redis, settings: Settings, services: Services
) -> None:
    first = play(linked, "r1")
    assert first.status_code == 200
    redis.config_set("appendfsync", "everysec")
    try:
        assert not services.health.run().operable
        again = play(linked, "r1")  # the table resends: it is answered, nothing more
        assert again.status_code == 200, again.get_json()
        assert again.get_json()["replayed"] is True
        assert play(linked, "r2").status_code == 503  # a new round is not settled
        bad = linked.report(round_body("r3", spots=[{"spot": 1, "wager": "x", "card": "9d"}]))
        assert bad.status_code == 400  # bad input is still named
    finally:
        redis.config_set("appendfsync", "always")
    assert services.health.run().operable
    assert play(linked, "r2").status_code == 200


def test_an_older_operable_finding_does_not_undo_a_newer_inoperable_one(
    redis: redis_lib.Redis, settings: Settings, services: Services
) -> None:
    """Two processes check at once: the one that began before the other recorded a problem
    cannot record "operable" over it; a check that began after it can."""
    store = HealthStore(redis, StoreKeys(settings.namespace), Scripts.register(redis))
    before = store.clock()
    problem = [{"check": "pools", "code": "pool_invariant", "message": "edited"}]
    assert store.record("store", "inoperable", problem, "a/1", store.clock())
    recorded = store.recorded()
    assert recorded is not None and recorded.state == "inoperable"
    assert not store.record("store", "operable", [], "b/2", before - 1)
    assert store.recorded().state == "inoperable"  # type: ignore[union-attr]
    assert store.record("store", "operable", [], "b/2", store.clock() + 1)
    assert store.recorded().state == "operable"  # type: ignore[union-attr]


def test_readyz_is_not_ready_once_another_process_found_the_store_inoperable(
    linked: Api, redis: redis_lib.Redis, settings: Settings, client: FlaskClient
) -> None:
    """This process's own check passed a moment ago; another process's has since found the
    meters edited and recorded it. Rounds are refused from then on, so /readyz is 503 at
    once, not after this process's next check (it answered 200 for up to 40 s)."""
    assert play(linked, "r1").status_code == 200
    assert client.get("/readyz").status_code == 200
    pool = StoreKeys(settings.namespace).pool("main")
    value, reserve = (int(x) for x in redis.hmget(pool, "value", "reserve"))
    redis.hset(pool, mapping={"value": value + reserve, "reserve": 0})
    other = HealthStore(redis, StoreKeys(settings.namespace), Scripts.register(redis))
    problem = [{"check": "pools", "code": "pool_invariant", "message": "edited"}]
    assert other.record("store", "inoperable", problem, "other/1", other.clock())
    ready = client.get("/readyz")
    assert ready.status_code == 503 and ready.get_json()["status"] == "inoperable"
    refused = play(linked, "r2")
    assert refused.status_code == 503, "and rounds are refused: the two agree"
