"""Pools and tables configured for the reference model, and the store compared with it."""

from __future__ import annotations

from typing import Any

from jackpot.bootstrap import Services
from jackpot.domain.config import Layout, PoolConfig, TableConfig
from jackpot.domain.paytable import Paytable
from tests.support.api import Api
from tests.support.model import MeterModel

POOLS = {
    "main": {"reset": 100_000, "rate_bp": 137, "reserve_rate_bp": 29, "cap": 150_000},
    "side": {"reset": 2_501, "rate_bp": 333, "reserve_rate_bp": 7, "policy": "split"},
}


def configure(api: Api, model: MeterModel, profile: str = "standard") -> TableConfig:
    for pool, body in POOLS.items():
        api.put_pool(pool, **body)
        model.add_pool(pool, PoolConfig.from_json(body))
    table = {
        "pools": ["main", "side"],
        "paytable": HOT_PAYTABLE,
        "profile": profile,
        "spots": 7,
        "min_wager": 100,
        "max_wager": 2500,
        "envy_min_wager": 300,
    }
    api.put_table("T1", **table)
    return TableConfig(
        pools=("main", "side"),
        paytable=Paytable.from_json(HOT_PAYTABLE),
        layout=Layout(profile),
        envy_min_wager=300,
    )


def assert_pools_match(services: Services, model: MeterModel) -> None:
    for pool, expected in model.pools.items():
        stored = services.groups.pools_of(pool).get(pool)
        assert stored.value_units == expected.value_units, pool
        assert stored.reserve_units == expected.reserve_units, pool
        assert stored.wagered == expected.wagered
        assert stored.hits == expected.hits
        assert stored.won == expected.won
        assert stored.overflow_units == expected.overflow_units
        assert stored.seed_units == expected.seed_units
        assert stored.contributions_units == expected.contributions_units
        assert stored.invariant_holds()


# Hits on almost every round: tie pays 10% of the main meter, suited tie 100% of the side one.
HOT_PAYTABLE: dict[str, Any] = {
    "suited_four_of_a_kind": {"odds": 1000, "meter_bp": 10000, "envy": {"multiple": 200}},
    "suited_double_tie": {"odds": 200, "meter_bp": 5000, "pool": "side"},
    "four_of_a_kind": {"odds": 150, "envy": {"amount": 2500}},
    "double_tie": {"odds": 30, "meter_bp": 3333},
    "suited_tie": {"odds": 15, "meter_bp": 10000, "pool": "side"},
    "tie": {"odds": 5, "meter_bp": 1000},
}
