"""The return check (jackpot/domain/returns.py): priced at every wager where the return can be
highest or lowest, with the player's better strategy; 100% or more, or under the minimum, is
a 400 naming the field and giving the figure."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from jackpot.domain.config import LevelType, PoolConfig, TableConfig
from jackpot.domain.paytable import SEED_PAYTABLE, Paytable
from jackpot.domain.returns import check_return, priced
from jackpot.errors import ValidationError

MAIN = {"main": PoolConfig(reset=100_000, rate_bp=400, reserve_rate_bp=100)}


def test_the_seed_game_is_priced_at_its_limits_and_its_qualifying_wager() -> None:
    table = TableConfig(pools=("main",), min_wager=100, max_wager=2_500)
    bets = priced(table, MAIN)
    assert [b.wager for b in bets] == [100, 500, 2_500]
    best = max(bets, key=lambda b: b.total)
    assert best.wager == 500, "the $5 bet empties the meter: the reset is its to win"
    assert f"{float(best.total) * 100:.2f}" == "78.46"
    check_return("T1", table, MAIN, 7_841, "paytable")  # 78.42% at $1, the lowest: above


def test_a_game_returning_100_percent_or_more_is_refused_with_the_figure() -> None:
    raw = SEED_PAYTABLE.to_json()
    raw["tie"] = {"odds": 12}  # 1 in 18.7 at 12 to 1: 64% more than the seed's 5 to 1
    table = TableConfig(pools=("main",), paytable=Paytable.from_json(raw))
    with pytest.raises(ValidationError) as refused:
        check_return("T1", table, MAIN, 0, "paytable")
    error = refused.value
    assert (error.field, error.code) == ("paytable", "return_too_high")
    assert "table T1: a $" in error.message and "over the long run (fixed pays" in error.message


def test_a_game_under_the_minimum_is_refused_only_when_a_minimum_is_set() -> None:
    table = TableConfig(pools=("main",))
    check_return("T1", table, MAIN, 0, "rate_bp")
    with pytest.raises(ValidationError) as refused:
        check_return("T1", table, MAIN, 8_300, "rate_bp")
    assert refused.value.code == "return_too_low" and "below the minimum of 83.00%" in (
        refused.value.message
    )


def twenty_five_dollar_game() -> tuple[TableConfig, dict[str, PoolConfig]]:
    """The lab's game: a suited four of a kind paying its meter to $25 bets only, and a
    must-hit-by level won by $25 bets only, at a $1-$25 table."""
    raw = SEED_PAYTABLE.to_json()
    raw["suited_four_of_a_kind"].update(qualifying_wager=2_500, below_qualifying="nothing")
    table = TableConfig(
        pools=("main", "mhb"), paytable=Paytable.from_json(raw), min_wager=100, max_wager=2_500
    )
    pools = {
        "main": PoolConfig(reset=100_000, rate_bp=400, reserve_rate_bp=20),
        "mhb": PoolConfig(
            reset=10_000,
            rate_bp=200,
            reserve_rate_bp=0,
            cap=50_000,
            level=LevelType.MUST_HIT_BY,
            qualifying_wager=2_500,
        ),  # fmt: skip
    }
    return table, pools


def percent(x: Fraction) -> str:
    return f"{float(x) * 100:.2f}"


def test_what_smaller_bets_feed_but_cannot_win_is_priced_for_the_bets_that_can() -> None:
    table, pools = twenty_five_dollar_game()
    # as if every bet were $25: 81.43%, what the check accepted
    assert [percent(b.total) for b in priced(table, pools)] == ["74.42", "81.43"]
    # $1-$24.99 bets bring 90% of the handle: the $25 bettors get their contributions too
    bets = priced(table, pools, 9_000)
    assert [(b.wager, percent(b.total)) for b in bets] == [(100, "74.42"), (2_500, "144.43")]
    main, mhb = bets[1].result.levels
    assert percent(main.total) == "40.01", "4% of every wager ÷ 10%, and its resets"
    assert percent(mhb.total) == "30.00", "a cycle ten times shorter in $25 bets"
    assert bets[1].below_share == Fraction(9, 10) and bets[0].below_share == 0
    with pytest.raises(ValidationError) as refused:
        check_return("T1", table, pools, 0, "paytable", below_share_bp=9_000)
    assert refused.value.code == "return_too_high"
    assert "a $25.00 bet would return 144.42% of its wager" in refused.value.message
    assert "bring 90.00% of the handle" in refused.value.message
    assert "JACKPOT_BELOW_QUALIFYING_SHARE_BP" in refused.value.message


def test_no_share_is_assumed_where_no_table_feeding_the_pool_takes_smaller_bets() -> None:
    table, pools = twenty_five_dollar_game()
    only_25 = replace(table, min_wager=2_500)
    assert [percent(b.total) for b in priced(only_25, pools, 9_000)] == ["81.43"]
    # a linked table taking $1 bets feeds the same pools: the share is assumed again
    linked = priced(only_25, pools, 9_000, {"main": 100, "mhb": 100})
    assert [percent(b.total) for b in linked] == ["144.43"]
