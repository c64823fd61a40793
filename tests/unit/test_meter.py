"""The exact pool meter (docs/RULES.md §4): contributions, cap, hits, top-up and the invariant."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from jackpot.domain.config import Policy, PoolConfig
from jackpot.domain.meter import (
    UNITS_PER_CENT,
    PoolState,
    contribute,
    meter_share,
    new_pool,
    pay_hits,
    top_up,
)

U = UNITS_PER_CENT
SEQUENTIAL = Policy.SEQUENTIAL
SPLIT = Policy.SPLIT


def pool(
    reset: int = 100_000,
    rate_bp: int = 100,
    reserve_rate_bp: int = 20,
    cap: int | None = None,
    policy: Policy = SEQUENTIAL,
) -> PoolState:
    return new_pool("main", PoolConfig(reset, rate_bp, reserve_rate_bp, cap, policy))


def pool_at(value_units: int, reserve_units: int = 0, reset: int = 100_000, **config) -> PoolState:
    """A pool whose meter and reserve were brought to the given units by an audited adjustment."""
    state = pool(reset=reset, **config)
    return replace(
        state,
        value_units=value_units,
        reserve_units=reserve_units,
        adjustments_units=value_units + reserve_units - state.reset_initial_units,
    )


def test_a_new_pool_shows_its_reset_and_an_empty_reserve():
    state = pool(reset=123_456)
    assert (state.value, state.reserve) == (123_456, 0)
    assert state.value_units == 123_456 * U == state.reset_initial_units
    assert (state.wagered, state.bets, state.hits, state.won) == (0, 0, 0, 0)
    assert state.invariant_holds()


def test_the_unit_is_a_ten_thousandth_of_a_cent():
    assert UNITS_PER_CENT == 10_000


# --- contributions


@pytest.mark.parametrize(
    ("wagered", "rate_bp", "reserve_rate_bp", "to_meter", "to_reserve"),
    [
        (1, 1, 0, 1, 0),
        (1, 1, 1, 1, 1),
        (1, 0, 1, 0, 1),
        (3, 7, 11, 21, 33),
        (500, 100, 20, 50_000, 10_000),
        (2_500, 150, 50, 375_000, 125_000),
        (100, 10_000, 0, 100 * U, 0),
        (100, 0, 10_000, 0, 100 * U),
        (100, 0, 0, 0, 0),
    ],
)
def test_a_contribution_adds_exact_units_to_the_meter_and_the_reserve(
    wagered, rate_bp, reserve_rate_bp, to_meter, to_reserve
):
    before = pool(rate_bp=rate_bp, reserve_rate_bp=reserve_rate_bp)
    after = contribute(before, wagered, 1)
    assert after.value_units - before.value_units == to_meter
    assert after.reserve_units - before.reserve_units == to_reserve
    assert after.contributions_units == to_meter + to_reserve
    assert (after.wagered, after.bets, after.overflow_units) == (wagered, 1, 0)
    assert after.invariant_holds()


def test_a_one_cent_wager_at_one_basis_point_is_one_unit():
    after = contribute(pool(rate_bp=1, reserve_rate_bp=0), 1, 1)
    assert after.value_units == 100_000 * U + 1
    assert after.value == 100_000


def test_sub_cent_fractions_accumulate_until_they_make_a_cent():
    state = pool(rate_bp=1, reserve_rate_bp=1)
    for _ in range(9_999):
        state = contribute(state, 1, 1)
    assert (state.value, state.reserve) == (100_000, 0)
    assert (state.value_units, state.reserve_units) == (100_000 * U + 9_999, 9_999)
    state = contribute(state, 1, 1)
    assert (state.value, state.reserve) == (100_001, 1)
    assert (state.wagered, state.bets) == (10_000, 10_000)
    assert state.invariant_holds()


@pytest.mark.parametrize(
    ("value_units", "value"),
    [(0, 0), (9_999, 0), (U, 1), (12_345 * U + 9_999, 12_345), (12_345 * U, 12_345)],
)
def test_the_visible_value_and_reserve_round_down_to_the_cent(value_units, value):
    state = pool_at(value_units, reserve_units=value_units, reset=0)
    assert (state.value, state.reserve) == (value, value)


def test_a_round_without_wagers_changes_nothing():
    state = pool()
    assert contribute(state, 0, 0) is state


def test_many_rounds_add_up_to_one_round_of_their_total():
    wagers = [1, 3, 7, 99, 101, 2_499, 2_500, 13]
    state = pool(rate_bp=37, reserve_rate_bp=13)
    for wager in wagers:
        state = contribute(state, wager, 1)
    once = contribute(pool(rate_bp=37, reserve_rate_bp=13), sum(wagers), len(wagers))
    assert (state.value_units, state.reserve_units) == (once.value_units, once.reserve_units)
    assert (state.wagered, state.bets, state.contributions_units) == (
        once.wagered,
        once.bets,
        once.contributions_units,
    )


# --- the cap


@pytest.mark.parametrize(
    ("cap", "wagered", "value_units", "overflow_units"),
    [
        # 2,000 cents at 1% is 20 cents: 10 fit under the cap, 10 go to the reserve
        (100_010, 2_000, 100_010 * U, 10 * U),
        # exactly up to the cap: nothing diverted
        (100_010, 1_000, 100_010 * U, 0),
        # well under the cap
        (200_000, 2_000, 100_020 * U, 0),
        # a cap at reset: everything above it is diverted
        (100_000, 2_000, 100_000 * U, 20 * U),
        # one unit of room
        (100_001, 1, 100_000 * U + 100, 0),
    ],
)
def test_contributions_above_the_cap_go_to_the_reserve(cap, wagered, value_units, overflow_units):
    before = pool(cap=cap, rate_bp=100, reserve_rate_bp=20)
    after = contribute(before, wagered, 1)
    assert after.value_units == value_units
    assert after.value_units <= cap * U
    assert after.overflow_units == overflow_units
    assert after.reserve_units == wagered * 20 + overflow_units
    assert after.contributions_units == wagered * 120
    assert after.invariant_holds()


def test_a_meter_at_its_cap_diverts_every_further_contribution():
    state = pool(cap=100_010, rate_bp=100, reserve_rate_bp=0)
    state = contribute(state, 1_000, 1)
    assert state.value == 100_010
    for _ in range(3):
        state = contribute(state, 500, 1)
    assert state.value_units == 100_010 * U
    assert state.overflow_units == state.reserve_units == 3 * 500 * 100
    assert state.invariant_holds()


def test_a_contribution_crossing_the_cap_with_a_fraction_is_split_to_the_unit():
    state = pool_at(100_009 * U + 9_999, cap=100_010, rate_bp=3, reserve_rate_bp=0)
    after = contribute(state, 1, 1)
    assert after.value_units == 100_010 * U
    assert after.overflow_units == 2
    assert after.reserve_units == 2
    assert after.invariant_holds()


# --- percentage pays


@pytest.mark.parametrize(
    ("value_units", "meter_bp", "amount"),
    [
        (100_000 * U, 10_000, 100_000),
        (100_000 * U + 9_999, 10_000, 100_000),
        (100_001 * U, 5_000, 50_000),
        (100_002 * U, 5_000, 50_001),
        (12_345 * U, 3_333, 4_114),
        (1_000_000 * U, 1, 100),
        (99 * U, 1, 0),
        (0, 10_000, 0),
        (9_999, 10_000, 0),
    ],
)
def test_a_percentage_pay_is_the_meter_share_floored_to_the_cent(value_units, meter_bp, amount):
    before = pool_at(value_units, reset=0)
    after, amounts = pay_hits(before, [meter_bp])
    assert amounts == [amount]
    assert after.value_units == value_units - amount * U
    assert (after.hits, after.won) == (1, amount)
    assert after.invariant_holds()


def test_a_full_meter_hit_pays_whole_cents_and_leaves_the_fraction_on_the_meter():
    after, amounts = pay_hits(pool_at(123_456 * U + 7_777, reset=0), [10_000])
    assert amounts == [123_456]
    assert after.value_units == 7_777
    assert after.seed_units == 0


def test_the_fraction_left_by_a_hit_counts_towards_the_reset():
    before = pool_at(123_456 * U + 7_777, reserve_units=500_000 * U)
    after, amounts = pay_hits(before, [10_000])
    assert amounts == [123_456]
    assert after.value_units == 100_000 * U
    assert after.reserve_units == 500_000 * U - (100_000 * U - 7_777)
    assert after.invariant_holds()


# --- top-up after a hit


@pytest.mark.parametrize(
    ("reserve_units", "reserve_after", "seed_units"),
    [
        (200_000 * U, 100_000 * U, 0),
        (100_000 * U, 0, 0),
        (30_000 * U, 0, 70_000 * U),
        (1, 0, 100_000 * U - 1),
        (0, 0, 100_000 * U),
    ],
)
def test_after_a_hit_the_meter_returns_to_reset_from_the_reserve_then_house_funds(
    reserve_units, reserve_after, seed_units
):
    before = pool_at(150_000 * U, reserve_units=reserve_units)
    after, amounts = pay_hits(before, [10_000])
    assert amounts == [150_000]
    assert after.value_units == 100_000 * U
    assert after.reserve_units == reserve_after
    assert after.seed_units == seed_units
    assert after.invariant_holds()


def test_a_hit_that_leaves_the_meter_above_reset_needs_no_top_up():
    before = pool_at(300_000 * U, reserve_units=50_000 * U)
    after, amounts = pay_hits(before, [5_000])
    assert amounts == [150_000]
    assert after.value_units == 150_000 * U
    assert (after.reserve_units, after.seed_units) == (50_000 * U, 0)


def test_a_partial_hit_below_reset_is_topped_up():
    after, amounts = pay_hits(pool_at(150_000 * U, reserve_units=10_000 * U), [5_000])
    assert amounts == [75_000]
    assert after.value_units == 100_000 * U
    assert (after.reserve_units, after.seed_units) == (0, 15_000 * U)
    assert after.invariant_holds()


@pytest.mark.parametrize("value_units", [100_000 * U, 100_000 * U + 1, 250_000 * U])
def test_top_up_leaves_a_meter_at_or_above_reset_alone(value_units):
    state = pool_at(value_units, reserve_units=U)
    assert top_up(state) is state


def test_a_new_reset_applies_from_the_next_top_up():
    state = pool_at(150_000 * U, reserve_units=500_000 * U)
    state = replace(state, config=replace(state.config, reset=120_000))
    after, _ = pay_hits(state, [10_000])
    assert after.value_units == 120_000 * U
    assert after.invariant_holds()


# --- simultaneous hits


@pytest.mark.parametrize(
    ("value", "meter_bps", "amounts", "seed_cents"),
    [
        # the second hitter wins its percentage of the meter as reset by the first
        (250_000, [10_000, 10_000], [250_000, 100_000], 200_000),
        (100_001, [10_000, 10_000, 10_000], [100_001, 100_000, 100_000], 300_000),
        (300_000, [5_000, 5_000], [150_000, 75_000], 25_000),
        (300_000, [5_000, 10_000], [150_000, 150_000], 100_000),
        (100_000, [2_500, 10_000], [25_000, 100_000], 125_000),
    ],
)
def test_sequential_hits_each_win_their_share_of_the_meter_as_left_by_the_one_before(
    value, meter_bps, amounts, seed_cents
):
    before = pool_at(value * U)
    after, paid = pay_hits(before, meter_bps)
    assert paid == amounts
    assert after.value_units == 100_000 * U
    assert after.seed_units == seed_cents * U
    assert (after.hits, after.won) == (len(meter_bps), sum(amounts))
    assert after.invariant_holds()


@pytest.mark.parametrize(
    ("value", "meter_bps", "amounts"),
    [
        # $1,000.01 three ways: the remainder cents go to the first hit
        (100_001, [10_000, 10_000, 10_000], [33_335, 33_333, 33_333]),
        (100_002, [10_000, 10_000, 10_000], [33_334, 33_334, 33_334]),
        (100_000, [10_000, 10_000], [50_000, 50_000]),
        (100_001, [10_000, 10_000], [50_001, 50_000]),
        (7, [10_000] * 4, [4, 1, 1, 1]),
        (100_000, [10_000], [100_000]),
        # different percentages: each its percentage of an equal share
        (100_000, [10_000, 5_000], [50_000, 25_000]),
        (100_001, [10_000, 5_000, 5_000], [33_335, 16_666, 16_666]),
        (100_000, [5_000, 10_000], [25_000, 50_000]),
    ],
)
def test_split_hits_share_one_meter_equally_remainder_cents_to_the_first(value, meter_bps, amounts):
    before = pool_at(value * U, reserve_units=1_000_000 * U, reset=0, policy=SPLIT)
    after, paid = pay_hits(before, meter_bps)
    assert paid == amounts
    exact_total = sum(meter_bps) * value * U // (10_000 * U * len(meter_bps))
    assert sum(paid) == exact_total
    assert after.value_units == value * U - sum(paid) * U
    assert (after.hits, after.won) == (len(meter_bps), sum(amounts))
    assert after.invariant_holds()


def test_a_split_leaves_the_sub_cent_fraction_on_the_meter():
    before = pool_at(100_001 * U + 5_000, reset=0, policy=SPLIT)
    after, paid = pay_hits(before, [10_000] * 3)
    assert paid == [33_335, 33_333, 33_333]
    assert after.value_units == 5_000


def test_a_split_tops_the_meter_up_once_after_all_its_hits():
    before = pool_at(100_001 * U, reserve_units=40_000 * U, policy=SPLIT)
    after, paid = pay_hits(before, [10_000] * 3)
    assert paid == [33_335, 33_333, 33_333]
    assert after.value_units == 100_000 * U
    assert (after.reserve_units, after.seed_units) == (0, 60_000 * U)
    assert after.invariant_holds()


def test_split_and_sequential_differ_on_the_same_meter():
    sequential = pay_hits(pool_at(100_001 * U), [10_000] * 3)[1]
    split = pay_hits(pool_at(100_001 * U, policy=SPLIT), [10_000] * 3)[1]
    assert sequential == [100_001, 100_000, 100_000]
    assert split == [33_335, 33_333, 33_333]


@pytest.mark.parametrize("policy", list(Policy))
def test_no_hits_change_nothing(policy):
    state = pool_at(150_000 * U, policy=policy)
    assert pay_hits(state, []) == (state, [])


@pytest.mark.parametrize(
    ("meter_bp", "value_units", "hits", "expected"),
    [
        (10_000, 100_000 * U, 1, (100_000, 0)),
        (10_000, 100_000 * U + 1, 1, (100_000, 10_000)),
        (5_000, 3 * U, 1, (1, 5_000 * U)),
        (10_000, 100_001 * U, 3, (33_333, 2 * 10_000 * U)),
    ],
)
def test_meter_share_gives_whole_cents_and_the_exact_remainder(
    meter_bp, value_units, hits, expected
):
    whole, remainder = meter_share(meter_bp, value_units, hits)
    assert (whole, remainder) == expected
    assert whole * 10_000 * U * hits + remainder == meter_bp * value_units


# --- the invariant over many rounds

configs = st.builds(
    lambda reset, rate, reserve, cap_room, policy: PoolConfig(
        reset, rate, reserve, None if cap_room is None else reset + cap_room, policy
    ),
    reset=st.integers(0, 200_000),
    rate=st.integers(0, 2_000),
    reserve=st.integers(0, 2_000),
    cap_room=st.none() | st.integers(0, 50_000),
    policy=st.sampled_from(list(Policy)),
)
rounds = st.lists(
    st.tuples(
        st.lists(st.integers(1, 2_500), max_size=7),
        st.lists(st.integers(1, 10_000), max_size=3),
    ),
    max_size=60,
)


def play_rounds(config: PoolConfig, plan: list[tuple[list[int], list[int]]]) -> None:
    """Apply rounds, checking every rule and an independent ledger after every step."""
    state = new_pool("main", config)
    ledger = config.reset * U
    paid = 0
    for wagers, meter_bps in plan:
        before = state
        state = contribute(state, sum(wagers), len(wagers))
        ledger += sum(wagers) * (config.rate_bp + config.reserve_rate_bp)
        assert state.invariant_holds()
        assert state.value_units + state.reserve_units == ledger + state.seed_units
        if config.cap is not None:
            assert state.value_units <= config.cap * U
        meter = state.value_units
        seed_before = state.seed_units
        reserve_before = state.reserve_units
        state, amounts = pay_hits(state, meter_bps)
        ledger -= sum(amounts) * U
        paid += sum(amounts)
        assert state.invariant_holds()
        assert state.value_units + state.reserve_units == ledger + state.seed_units
        assert all(a >= 0 for a in amounts)
        if meter_bps:
            assert state.value_units >= config.reset * U
            if config.policy is Policy.SPLIT:
                exact = sum(meter_bps) * meter // (10_000 * U * len(meter_bps))
                assert sum(amounts) == exact
            else:
                assert amounts[0] == meter_bps[0] * meter // (10_000 * U)
            # the house funds only what the reserve cannot
            if state.seed_units > seed_before:
                assert state.reserve_units == 0
            else:
                assert state.reserve_units <= reserve_before
        assert state.value_units >= 0 and state.reserve_units >= 0
        assert state.hits == before.hits + len(meter_bps)
    assert state.won == paid
    assert state.wagered == sum(sum(wagers) for wagers, _ in plan)
    assert state.adjustments_units == 0


@hypothesis_settings(max_examples=300, deadline=None, database=None)
@given(config=configs, plan=rounds)
def test_the_invariant_holds_after_every_step_and_no_unit_is_created_or_lost(config, plan):
    play_rounds(config, plan)


@pytest.mark.parametrize("seed", range(10))
def test_the_invariant_holds_over_ten_thousand_seeded_random_rounds(seed):
    rng = random.Random(seed)
    config = PoolConfig(
        reset=rng.randrange(0, 200_000),
        rate_bp=rng.randrange(1, 300),
        reserve_rate_bp=rng.randrange(0, 100),
        cap=rng.choice([None, 250_000]),
        policy=rng.choice(list(Policy)),
    )
    plan = [
        (
            [rng.randrange(1, 2_501) for _ in range(rng.randrange(0, 8))],
            [rng.choice([10_000, 5_000, 100, 1]) for _ in range(rng.randrange(0, 3))]
            if rng.random() < 0.01
            else [],
        )
        for _ in range(10_000)
    ]
    play_rounds(config, plan)
