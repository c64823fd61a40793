"""Pool and table configuration as operators set it (docs/API.md PUT /v1/pools, /v1/tables)."""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

import pytest

from jackpot.domain.config import (
    Layout,
    Policy,
    PoolConfig,
    StagedChange,
    TableConfig,
    requested_name,
)
from jackpot.domain.outcomes import Outcome
from jackpot.domain.paytable import SEED_PAYTABLE, PayLine, Paytable
from jackpot.errors import ValidationError

# --- pools


def pool_body(**fields: Any) -> dict[str, Any]:
    body = {"reset": 100_000, "rate_bp": 100, "reserve_rate_bp": 20, **fields}
    return {k: v for k, v in body.items() if v is not ...}


def test_a_pool_needs_reset_and_rates_and_defaults_to_no_cap_and_sequential():
    assert PoolConfig.from_json(pool_body()) == PoolConfig(
        100_000, 100, 20, None, Policy.SEQUENTIAL
    )


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"cap": 500_000, "policy": "split"}, PoolConfig(100_000, 100, 20, 500_000, Policy.SPLIT)),
        ({"cap": None, "policy": "sequential"}, PoolConfig(100_000, 100, 20)),
        ({"cap": 100_000}, PoolConfig(100_000, 100, 20, 100_000)),
        ({"reset": 0, "rate_bp": 0, "reserve_rate_bp": 0}, PoolConfig(0, 0, 0)),
        ({"rate_bp": 10_000, "reserve_rate_bp": 0}, PoolConfig(100_000, 10_000, 0)),
        ({"rate_bp": 9_000, "reserve_rate_bp": 1_000}, PoolConfig(100_000, 9_000, 1_000)),
        ({"reset": 10_000_000_000, "cap": 10_000_000_000}, PoolConfig(10**10, 100, 20, 10**10)),
    ],
)
def test_a_valid_pool_is_accepted(fields, expected):
    config = PoolConfig.from_json(pool_body(**fields))
    assert config == expected
    assert PoolConfig.from_json(config.to_json()) == config


@pytest.mark.parametrize(
    ("raw", "field", "code"),
    [
        ([], None, "not_an_object"),
        (pool_body(reset=...), "reset", "missing"),
        (pool_body(rate_bp=...), "rate_bp", "missing"),
        (pool_body(reserve_rate_bp=...), "reserve_rate_bp", "missing"),
        (pool_body(seed=5), "seed", "unknown_field"),
        (pool_body(reset=-1), "reset", "out_of_range"),
        (pool_body(reset=10_000_000_001), "reset", "out_of_range"),
        (pool_body(reset=1000.0), "reset", "not_an_integer"),
        (pool_body(reset="100000"), "reset", "not_an_integer"),
        (pool_body(rate_bp=-1), "rate_bp", "out_of_range"),
        (pool_body(rate_bp=10_001), "rate_bp", "out_of_range"),
        (pool_body(rate_bp=True), "rate_bp", "not_an_integer"),
        (pool_body(rate_bp=1.5), "rate_bp", "not_an_integer"),
        (pool_body(reserve_rate_bp=-1), "reserve_rate_bp", "out_of_range"),
        (pool_body(reserve_rate_bp=10_001), "reserve_rate_bp", "out_of_range"),
        (pool_body(reserve_rate_bp="20"), "reserve_rate_bp", "not_an_integer"),
        (pool_body(rate_bp=9_000, reserve_rate_bp=1_001), "reserve_rate_bp", "invalid"),
        (pool_body(cap=99_999), "cap", "out_of_range"),
        (pool_body(cap=-1), "cap", "out_of_range"),
        (pool_body(cap=10_000_000_001), "cap", "out_of_range"),
        (pool_body(cap=150_000.0), "cap", "not_an_integer"),
        (pool_body(policy="both"), "policy", "invalid"),
        (pool_body(policy="Split"), "policy", "invalid"),
        (pool_body(policy=None), "policy", "invalid"),
        (pool_body(policy=1), "policy", "invalid"),
    ],
)
def test_a_bad_pool_is_refused_naming_the_field(raw, field, code):
    with pytest.raises(ValidationError) as caught:
        PoolConfig.from_json(raw)
    assert (caught.value.field, caught.value.code) == (field, code)


@pytest.mark.parametrize("policy", [["split"], {"name": "split"}])
def test_a_policy_that_is_not_a_string_is_a_validation_error_not_a_crash(policy):
    with pytest.raises(ValidationError) as caught:
        PoolConfig.from_json(pool_body(policy=policy))
    assert (caught.value.field, caught.value.code) == ("policy", "invalid")


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("Casino War Progressive", "Casino War Progressive"),
        ("  $1,000 Must-Hit  ", "$1,000 Must-Hit"),  # trimmed; digits and signs are text
        ("Ünïcødé  Grand", "Ünïcødé  Grand"),
        ("x" * 40, "x" * 40),
        (None, ""),  # null removes it
    ],
)
def test_a_pool_name_is_printable_text_trimmed(name, shown):
    body = pool_body(name=name)
    PoolConfig.from_json(body)  # not a parameter: the configuration is the same
    assert requested_name(body) == shown
    assert requested_name(pool_body()) is None, "left out: kept"


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("x" * 41, "too_long"),
        ("Grand\nJackpot", "not_printable"),
        ("Grand\u202eJackpot", "not_printable"),  # a right-to-left override
        ("Grand\u00a0Jackpot", "not_printable"),  # a space other than U+0020
        ("Grand\ue000", "not_printable"),  # private use
        (7, "not_a_string"),
    ],
)
def test_a_bad_pool_name_is_refused_naming_it(name, code):
    with pytest.raises(ValidationError) as caught:
        PoolConfig.from_json(pool_body(name=name))
    assert (caught.value.field, caught.value.code) == ("name", code)


def test_a_pool_name_is_not_a_parameter_and_is_never_staged():
    with pytest.raises(ValidationError) as caught:
        StagedChange.from_request({"name": "Grand", "reason": "r"}, PoolConfig(1, 1, 1), "op")
    assert (caught.value.field, caught.value.code) == ("name", "unknown_field")


def test_a_pool_writes_every_field():
    assert PoolConfig(100_000, 100, 20).to_json() == {
        "reset": 100_000,
        "rate_bp": 100,
        "reserve_rate_bp": 20,
        "cap": None,
        "policy": "sequential",
    }


# --- tables


def test_a_table_needs_only_its_pools_and_takes_the_documented_defaults():
    table = TableConfig.from_json({"pools": ["main"]})
    assert table == TableConfig(pools=("main",))
    assert (table.decks, table.spots, table.min_wager, table.max_wager) == (6, 7, 100, 2_500)
    assert (table.layout, table.envy_min_wager, table.enabled) == (Layout.STANDARD, 0, True)
    assert table.paytable == SEED_PAYTABLE
    assert not table.stadium


def side_paytable() -> dict[str, Any]:
    raw = copy.deepcopy(SEED_PAYTABLE.to_json())
    raw["four_of_a_kind"] = {"odds": 150, "meter_bp": 2_500, "pool": "side",
                             "qualifying_wager": 1_000, "below_qualifying": "nothing"}  # fmt: skip
    return raw


def test_every_table_field_is_read_and_written_back():
    body = {
        "pools": ["main", "side"],
        "decks": 8,
        "spots": 5,
        "min_wager": 500,
        "max_wager": 10_000,
        "profile": "stadium",
        "envy_min_wager": 1_000,
        "paytable": side_paytable(),
        "enabled": False,
        "asset": "WAR-0042",
        "location": "Pit 3",
    }
    table = TableConfig.from_json(body)
    assert table.pools == ("main", "side")
    assert (table.decks, table.spots, table.min_wager, table.max_wager) == (8, 5, 500, 10_000)
    assert table.layout is Layout.STADIUM and table.stadium
    assert (table.envy_min_wager, table.enabled) == (1_000, False)
    assert (table.asset, table.location) == ("WAR-0042", "Pit 3")
    assert table.paytable.line(Outcome.FOUR_OF_A_KIND) == PayLine(
        150, 2_500, "side", qualifying_wager=1_000, below_qualifying="nothing"
    )
    assert table.to_json() == body
    assert TableConfig.from_json(table.to_json()) == table


@pytest.mark.parametrize(
    "fields",
    [
        {"decks": 6},
        {"decks": 7},
        {"decks": 8},
        {"spots": 1},
        {"spots": 7},
        {"min_wager": 1, "max_wager": 1},
        {"min_wager": 2_500, "max_wager": 2_500},
        {"max_wager": 10_000_000},
        {"profile": "standard"},
        {"profile": "south_dakota"},
        {"profile": "stadium"},
        {"envy_min_wager": 0},
        {"envy_min_wager": 10_000_000},
        {"enabled": True},
        {"pools": ["a", "b.c_d:e-f", "X" * 128]},
    ],
)
def test_the_limits_of_a_table_are_accepted(fields):
    TableConfig.from_json({"pools": ["main"], **fields})


def table_body(**fields: Any) -> dict[str, Any]:
    return {"pools": ["main"], **fields}


@pytest.mark.parametrize(
    ("raw", "field", "code"),
    [
        ("main", None, "not_an_object"),
        ({}, "pools", "missing"),
        (table_body(seats=7), "seats", "unknown_field"),
        (table_body(layout="stadium"), "layout", "unknown_field"),
        (table_body(pools=[]), "pools", "invalid"),
        (table_body(pools="main"), "pools", "invalid"),
        (table_body(pools=None), "pools", "invalid"),
        (table_body(pools=["main", "side pool"]), "pools[1]", "invalid_identifier"),
        (table_body(pools=[7]), "pools[0]", "invalid_identifier"),
        (table_body(pools=["X" * 129]), "pools[0]", "invalid_identifier"),
        # a URL cannot hold them: clients resolve dot segments away
        (table_body(pools=["."]), "pools[0]", "invalid_identifier"),
        (table_body(pools=[".."]), "pools[0]", "invalid_identifier"),
        (table_body(pools=["main", "side", "main"]), "pools", "invalid"),
        (table_body(decks=5), "decks", "out_of_range"),
        (table_body(decks=9), "decks", "out_of_range"),
        (table_body(decks=1), "decks", "out_of_range"),
        (table_body(decks="6"), "decks", "not_an_integer"),
        (table_body(decks=6.0), "decks", "not_an_integer"),
        (table_body(spots=0), "spots", "out_of_range"),
        (table_body(spots=8), "spots", "out_of_range"),
        (table_body(spots=True), "spots", "not_an_integer"),
        (table_body(min_wager=0), "min_wager", "out_of_range"),
        (table_body(min_wager=1.0), "min_wager", "not_an_integer"),
        (table_body(max_wager=0), "max_wager", "out_of_range"),
        (table_body(max_wager=10_000_001), "max_wager", "out_of_range"),
        (table_body(min_wager=2_501), "min_wager", "out_of_range"),
        (table_body(min_wager=600, max_wager=500), "min_wager", "out_of_range"),
        (table_body(max_wager=99), "min_wager", "out_of_range"),
        (table_body(profile="vegas"), "profile", "invalid"),
        (table_body(profile="Stadium"), "profile", "invalid"),
        (table_body(profile=None), "profile", "invalid"),
        (table_body(envy_min_wager=-1), "envy_min_wager", "out_of_range"),
        (table_body(envy_min_wager="500"), "envy_min_wager", "not_an_integer"),
        (table_body(enabled="yes"), "enabled", "not_a_boolean"),
        (table_body(enabled=1), "enabled", "not_a_boolean"),
        (table_body(paytable=[]), "paytable", "not_an_object"),
        (
            table_body(paytable={**SEED_PAYTABLE.to_json(), "tie": {"odds": -5}}),
            "paytable.tie.odds",
            "out_of_range",
        ),
        (
            table_body(paytable={**SEED_PAYTABLE.to_json(), "tie": {"odds": "5"}}),
            "paytable.tie.odds",
            "not_an_integer",
        ),
        (
            table_body(
                paytable={
                    **SEED_PAYTABLE.to_json(),
                    "suited_tie": {"odds": 15, "envy": {"multiple": 0}},
                }
            ),
            "paytable.suited_tie.envy.multiple",
            "out_of_range",
        ),
        # a paytable paying a percentage of a pool the table does not feed
        (table_body(paytable=side_paytable()), "paytable", "invalid"),
    ],
)
def test_a_bad_table_is_refused_naming_the_field(raw, field, code):
    with pytest.raises(ValidationError) as caught:
        TableConfig.from_json(raw)
    assert (caught.value.field, caught.value.code) == (field, code)


@pytest.mark.parametrize("profile", [["stadium"], {"name": "stadium"}])
def test_a_profile_that_is_not_a_string_is_a_validation_error_not_a_crash(profile):
    with pytest.raises(ValidationError) as caught:
        TableConfig.from_json(table_body(profile=profile))
    assert (caught.value.field, caught.value.code) == ("profile", "invalid")


@pytest.mark.parametrize(
    ("pools", "paid"),
    [
        (["main", "side"], {"main", "side"}),
        # the seed jackpot's unnamed pool is the table's first: here both pays go to "side"
        (["side", "main"], {"side"}),
    ],
)
def test_a_paytable_may_pay_a_percentage_of_any_pool_the_table_feeds(pools, paid):
    table = TableConfig.from_json(table_body(pools=pools, paytable=side_paytable()))
    assert table.paytable.meter_pools(table.pools[0]) == paid


def test_the_seed_jackpot_pays_the_first_pool_whatever_it_is_called():
    table = TableConfig.from_json({"pools": ["linked-7", "main"]})
    assert table.paytable.meter_pools(table.pools[0]) == {"linked-7"}


CURRENT = TableConfig(
    pools=("main", "side"),
    decks=8,
    spots=5,
    min_wager=500,
    max_wager=5_000,
    layout=Layout.STADIUM,
    envy_min_wager=1_000,
    paytable=Paytable.from_json(side_paytable()),
)


def test_an_update_keeps_every_field_it_leaves_out():
    assert TableConfig.from_json({}, CURRENT) == CURRENT
    assert TableConfig.from_json({"enabled": False}, CURRENT) == replace(CURRENT, enabled=False)
    assert TableConfig.from_json({"decks": 6}, CURRENT) == replace(CURRENT, decks=6)


@pytest.mark.parametrize(
    ("update", "field"),
    [
        ({"min_wager": 6_000}, "min_wager"),
        ({"max_wager": 400}, "min_wager"),
        ({"pools": ["main"]}, "paytable"),
    ],
)
def test_an_update_is_checked_together_with_the_fields_it_keeps(update, field):
    with pytest.raises(ValidationError) as caught:
        TableConfig.from_json(update, CURRENT)
    assert caught.value.field == field


def test_an_update_may_drop_a_pool_together_with_the_paytable_paying_it():
    update = {"pools": ["side", "other"], "paytable": SEED_PAYTABLE.to_json()}
    table = TableConfig.from_json(update, CURRENT)
    assert table.pools == ("side", "other")
    assert table.paytable == SEED_PAYTABLE


@pytest.mark.parametrize(
    ("other", "difference"),
    [
        (replace(CURRENT, pools=("main", "side", "third")), None),
        (replace(CURRENT, spots=7, min_wager=100, max_wager=2_500), None),
        (replace(CURRENT, envy_min_wager=0, enabled=False), None),
        (replace(CURRENT, layout=Layout.STANDARD), None),
        (replace(CURRENT, layout=Layout.SOUTH_DAKOTA), None),
        (replace(CURRENT, decks=6), "decks"),
        (replace(CURRENT, paytable=SEED_PAYTABLE), "paytable"),
        (replace(CURRENT, decks=6, paytable=SEED_PAYTABLE), "decks"),
    ],
)
def test_linked_tables_must_play_the_same_game_at_the_same_odds(other, difference):
    assert CURRENT.game_difference(other) == difference
    assert other.game_difference(CURRENT) == difference


@pytest.mark.parametrize("layout", list(Layout))
def test_every_layout_plays_the_same_game_for_the_progressive(layout):
    """A community war card is one card from the same shoe: the layout never changes odds."""
    standard = TableConfig(pools=("main",))
    assert standard.game_difference(replace(standard, layout=layout)) is None


@pytest.mark.parametrize(
    ("min_wager", "envy_min_wager", "wager", "qualifies"),
    [
        (100, 0, 100, True),
        (100, 0, 2_500, True),
        (100, 500, 499, False),
        (100, 500, 500, True),
        (500, 100, 499, False),
        (500, 100, 500, True),
    ],
)
def test_any_progressive_wager_qualifies_for_envy_unless_the_table_sets_a_higher_minimum(
    min_wager, envy_min_wager, wager, qualifies
):
    table = TableConfig(pools=("main",), min_wager=min_wager, envy_min_wager=envy_min_wager)
    assert table.qualifies_for_envy(wager) is qualifies


def test_policies_and_layouts_have_their_wire_names():
    assert [p.value for p in Policy] == ["sequential", "split"]
    assert [layout.value for layout in Layout] == ["standard", "south_dakota", "stadium"]


def test_a_meter_pay_no_bet_could_win_is_refused() -> None:
    raw = side_paytable()  # four of a kind: nothing below a $10 qualifying wager
    with pytest.raises(ValidationError) as refused:
        TableConfig.from_json({"pools": ["main", "side"], "max_wager": 900, "paytable": raw})
    assert refused.value.field == "paytable" and "no bet could ever win" in refused.value.message
    # proportional: a $9 bet wins 9/10 of the share, so the table may take it
    raw["four_of_a_kind"]["below_qualifying"] = "proportional"
    TableConfig.from_json({"pools": ["main", "side"], "max_wager": 900, "paytable": raw})
