"""Seed funding is one figure wherever it is read: the regulator's meters over a period move by
what the day statement shows for it, the house's seed a void tops a meter up with, less the
seed a void gives back (issue 39, docs/DECISIONS.md D251)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import redis as redis_lib
from prometheus_client.parser import text_string_to_metric_families

from jackpot.domain.meter import UNITS_PER_CENT
from tests.support.api import round_body
from tests.support.archive_world import World, dealt, world_of
from tests.support.redis_server import RedisServer


@pytest.fixture
def world(redis: redis_lib.Redis, redis_server: RedisServer, tmp_path: Path) -> Iterator[World]:
    with world_of(redis, redis_server.url, tmp_path / "var") as w:
        # no reserve: a reset after a hit, and a void's top-up, are the house's seed
        w.api.put_pool(reserve_rate_bp=0)
        yield w


def units(row: dict[str, int], name: str) -> int:
    return row[f"{name}_cents"] * UNITS_PER_CENT + row[f"{name}_subcent_units"]


def settle(w: World, body: dict[str, object]) -> None:
    answer = w.api.report({**body, "dealt_at": dealt(w.clock)})
    assert answer.status_code == 200, answer.get_json()


def void(w: World, round_id: str) -> None:
    answer = w.api.client.post(
        f"/v1/rounds/T1/{round_id}/void",
        json={"reason": "malfunction"},
        headers=w.api.keys.header("operator"),
    )
    assert answer.status_code == 200, answer.get_json()


@pytest.mark.parametrize(
    "voided",
    [("fed",), ("hit",), ("fed", "hit")],
    ids=["a void topped up from seed", "a void giving seed back", "both"],
)
def test_the_meters_seed_funding_over_a_day_is_the_day_statements(
    world: World, voided: tuple[str, ...]
) -> None:
    """`fed` puts $25 on the meter, `hit` wins it all and the house seeds the reset; voiding
    `fed` then takes its $25 off a meter at its reset (the house tops it up again), voiding
    `hit` gives the reset's seed back. The meters' seed funding moves over the day by the
    statement's seed funding less its seed returned, to the unit, and the books balance."""
    w = world
    day = w.services.days().of_time(w.clock())
    before = w.api.meters()
    settle(w, round_body("fed", spots=[{"spot": 1, "wager": 2500, "card": "4d"}]))
    settle(
        w,
        round_body(
            "hit",
            dealer="As",
            dealer_war="As",
            spots=[{"spot": 1, "wager": 500, "card": "As", "war": True, "war_card": "As"}],
        ),
    )
    for round_id in voided:
        void(w, round_id)
    after = w.api.meters()
    assert after["invariant_holds"] is True

    w.clock.pass_days(1)
    statement = w.services.accounting.close(day)
    [pool] = statement["pools"]
    assert pool["balanced"] is True
    seeded = units(pool, "seed_funding") - units(pool, "seed_returned")
    moved = after["seed_funding_units"] - before["seed_funding_units"]
    assert moved == seeded, (
        f"the meters' seed funding moved {moved} units over {day}, the statement says "
        f"{units(pool, 'seed_funding')} funded less {units(pool, 'seed_returned')} returned"
    )
    # verify follows every void's steps and sums the counters as the script moved them
    done = w.services.verifier.run()
    assert done.intact, [str(f) for f in done.findings]
    # what each void moved stays a void's: jackpots back less contributions out
    assert after["voids_units"] - before["voids_units"] == sum(
        int(e["void_units"]) - int(e.get("seed_units", 0))
        for e in w.api.journal()
        if e["type"] == "void"
    )


def seed_counters(w: World) -> tuple[float, float]:
    """Pool main's seed funding and seed returned counters, as /metrics shows them."""
    response = w.api.client.get("/metrics", headers=w.api.keys.header("operator"))
    assert response.status_code == 200, response.get_data(as_text=True)
    found = {"funding": 0.0, "returned": 0.0}
    for family in text_string_to_metric_families(response.get_data(as_text=True)):
        for sample in family.samples:
            if sample.labels.get("pool") != "main":
                continue
            if sample.name == "jackpot_pool_seed_funding_cents_total":
                found["funding"] = sample.value
            elif sample.name == "jackpot_pool_seed_returned_cents_total":
                found["returned"] = sample.value
    return found["funding"], found["returned"]


def test_the_seed_counters_never_fall_when_a_void_gives_seed_back(world: World) -> None:
    """A hit whose reset the house seeds, then its void giving the seed back: the metrics'
    seed funding counter stays where the reset put it (Prometheus takes a fall for a reset,
    and JackpotSeedFundingUsed could fire on it), the seed returned counter rises by it,
    and the two apart are the day statement's figures (docs/DECISIONS.md D264)."""
    w = world
    day = w.services.days().of_time(w.clock())
    settle(
        w,
        round_body(
            "hit",
            dealer="As",
            dealer_war="As",
            spots=[{"spot": 1, "wager": 500, "card": "As", "war": True, "war_card": "As"}],
        ),
    )
    funded, returned = seed_counters(w)
    assert funded > 0 and returned == 0, (funded, returned)
    void(w, "hit")
    after = seed_counters(w)
    assert after[0] == funded, f"seed funding fell from {funded} to {after[0]} cents"
    w.clock.pass_days(1)
    [pool] = w.services.accounting.close(day)["pools"]
    assert after == (pool["seed_funding_cents"], pool["seed_returned_cents"])
    assert after[1] > 0
