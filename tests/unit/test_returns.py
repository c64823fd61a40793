"""The return check (jackpot/domain/returns.py): priced at every wager where the return can be
highest or lowest, with the player's better strategy; 100% or more, or under the minimum, is
a 400 naming the field and giving the figure."""

from __future__ import annotations

import pytest

from jackpot.domain.config import PoolConfig, TableConfig
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
