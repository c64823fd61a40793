"""The settle_round script against the pure reference model, unit for unit."""

from __future__ import annotations

import random

import pytest

from jackpot.bootstrap import Services
from jackpot.domain.meter import UNITS_PER_CENT
from tests.support.api import Api
from tests.support.meters import POOLS, assert_pools_match, configure
from tests.support.model import MeterModel, random_round


@pytest.mark.parametrize("profile", ["standard", "stadium"])
def test_the_script_applies_rounds_exactly_as_the_reference_model(
    api: Api, services: Services, profile: str
) -> None:
    model = MeterModel()
    table = configure(api, model, profile)
    rng = random.Random(20261122)
    hits = 0
    for n in range(300):
        body = random_round(rng, "T1", f"r{n}", stadium=profile == "stadium")
        expected = model.apply(body, table)
        response = api.report(body)
        assert response.status_code == 200, response.get_json()
        result = response.get_json()
        assert [s["jackpot"] for s in result["spots"]] == expected
        assert sum(j["amount"] for j in result["jackpots"]) == sum(expected)
        hits += len(result["jackpots"])
        for pool, state in model.pools.items():
            assert result["pools"][pool]["value"] == state.value_units // UNITS_PER_CENT
    assert hits > 100, "the paytable is meant to make hits frequent"
    assert_pools_match(services, model)


def test_the_journal_reconciles_every_pool_to_the_unit(api: Api, services: Services) -> None:
    model = MeterModel()
    table = configure(api, model)
    rng = random.Random(7)
    for n in range(150):
        body = random_round(rng, "T1", f"j{n}")
        model.apply(body, table)
        assert api.report(body).status_code == 200
    for pool in POOLS:
        entries = api.journal(pool)
        assert [e["seq"] for e in entries] == list(range(1, len(entries) + 1))
        opening = entries[0]["value_units"]
        value, reserve = opening, 0
        for e in entries[1:]:
            if e["type"] == "contribution":
                value += e["to_visible_units"]
                reserve += e["to_reserve_units"]
            elif e["type"] == "hit":
                value -= e["amount"] * UNITS_PER_CENT
            elif e["type"] == "reset":
                value += e["from_reserve_units"] + e["seed_units"]
                reserve -= e["from_reserve_units"]
            assert (value, reserve) == (e["value_units"], e["reserve_units"]), e
        state = services.groups.pools_of(pool).get(pool)
        assert (value, reserve) == (state.value_units, state.reserve_units)
        assert (value, reserve) == (model.pools[pool].value_units, model.pools[pool].reserve_units)


def test_a_hundred_percent_hit_leaves_the_sub_cent_fraction_on_the_meter(
    linked: Api, services: Services
) -> None:
    # 333 cents at 100 bp = 33,300 units: the meter gains $3.33 exactly
    linked.put_pool("main", reset=100_000, rate_bp=1, reserve_rate_bp=0)
    for n in range(3):
        linked.report(
            {
                "table": "T1",
                "round": f"c{n}",
                "dealer": {"card": "2c"},
                "spots": [{"spot": 1, "wager": 777, "card": "3d"}],
            }
        )
    # 3 × 777 cents × 1 bp = 2,331 units = 0.2331 cents
    assert (
        services.groups.pools_of("main").get("main").value_units == 100_000 * UNITS_PER_CENT + 2_331
    )
    body = {
        "table": "T1",
        "round": "hit",
        "dealer": {"card": "Ah", "war_card": "Ah"},
        "spots": [{"spot": 1, "wager": 500, "card": "Ah", "war": True, "war_card": "Ah"}],
    }
    result = linked.report(body).get_json()
    # meter = 1,000.00 + 0.2331 + 0.05 (500 cents × 1 bp) = 100,000.2831 cents, all of it
    # won by the line's qualifying wager
    assert result["spots"][0]["outcome"] == "suited_four_of_a_kind"
    assert result["spots"][0]["jackpot"] == 100_000
    assert result["spots"][0]["pay"] == 500_000
    state = services.groups.pools_of("main").get("main")
    # the fraction stays, then the reset tops the meter back up to $1,000.00 from the house
    assert state.value_units == 100_000 * UNITS_PER_CENT
    assert state.seed_units == 100_000 * UNITS_PER_CENT - 2_831
    assert state.invariant_holds()


@pytest.mark.parametrize("policy", ["sequential", "split"])
def test_a_bet_below_the_qualifying_wager_wins_its_exact_part_at_the_largest_figures(
    linked: Api, policy: str
) -> None:
    """share × wager ÷ qualifying wager, floored, computed by the script in doubles: exact
    where the products are largest ($100M meter, $99,999.99 qualifying wager, a wager a
    cent below it, three hits sharing the meter)."""
    reset, qualifying = 10_000_000_000, 9_999_999
    line = {"odds": 0, "meter_bp": 9_999, "qualifying_wager": qualifying}
    paytable = {"suited_four_of_a_kind": line, **{
        o: {"odds": 0} for o in ("suited_double_tie", "four_of_a_kind", "double_tie",
                                 "suited_tie", "tie")}}  # fmt: skip
    linked.put_pool("big", reset=reset, rate_bp=0, reserve_rate_bp=0, policy=policy)
    linked.put_table("T2", pools=["big"], decks=8, min_wager=1, max_wager=10_000_000,
                     paytable=paytable)  # fmt: skip
    wagers = [qualifying - 1, 1, 7_654_321]
    spots = [{"spot": i + 1, "wager": w, "card": "As", "war": True, "war_card": "As"}
             for i, w in enumerate(wagers)]  # fmt: skip
    result = linked.report({"table": "T2", "round": "big", "dealer": {"card": "As",
                            "war_card": "As"}, "spots": spots}).get_json()  # fmt: skip
    units = reset * UNITS_PER_CENT
    if policy == "split":
        expected = [9_999 * units * w // (10**8 * 3 * qualifying) for w in wagers]
    else:  # each hit takes its part of the meter as the one before left it, then it resets
        expected = [9_999 * units * w // (10**8 * qualifying) for w in wagers]
    assert [s["jackpot"] for s in result["spots"]] == expected, result
