"""A pool's books followed entry by entry (jackpot.domain.books): balances from amounts,
counters from entries, a round's entries against what settled it."""

from __future__ import annotations

from jackpot.domain.books import BooksWalk, HouseRound, RoundMoney, round_problems

CREATED = {"type": "created", "ts": "1", "value_units": "1000000"}


def contribution(value: int, reserve: int, round_id: str = "r1", **extra: str) -> dict[str, str]:
    return {
        "type": "contribution",
        "ts": "2",
        "table": "T1",
        "round": round_id,
        "wagered": "500",
        "bets": "1",
        "to_visible_units": "50000",
        "to_reserve_units": "10000",
        "overflow_units": "0",
        "value_units": str(value),
        "reserve_units": str(reserve),
        **extra,
    }


def test_balances_that_follow_from_the_amounts_pass_and_the_counters_are_summed() -> None:
    walk = BooksWalk("main")
    walk.feed(1, CREATED)
    walk.feed(2, contribution(1_050_000, 10_000))
    assert walk.problems == []
    assert (walk.counters.contrib_units, walk.counters.in_cents, walk.counters.bets) == (
        60_000,
        500,
        1,
    )
    assert walk.counters.differences({"reset_initial_units": "1000000"}) != []


def test_a_balance_that_does_not_follow_is_named_with_both() -> None:
    walk = BooksWalk("main")
    walk.feed(1, CREATED)
    walk.feed(2, contribution(1_050_001, 10_000))
    [(seq, problem)] = walk.problems
    assert seq == 2 and "1050001" in problem and "1050000" in problem


def test_an_entry_of_no_known_kind_and_a_contribution_of_no_bet_are_findings() -> None:
    walk = BooksWalk("main")
    walk.feed(1, CREATED)
    walk.feed(2, {"type": "bonus", "ts": "2"})
    walk.feed(3, contribution(1_000_000, 0, wagered="0", bets="0", to_visible_units="0",
                              to_reserve_units="0"))  # fmt: skip
    assert [seq for seq, _ in walk.problems] == [2, 3]


def test_a_rounds_entries_are_held_to_the_record_it_commits() -> None:
    money = RoundMoney(5, to_visible=50_000, to_reserve=10_000, wagered=500, bets=1,
                       contributions=1)  # fmt: skip
    house = HouseRound(9, 500, 1, "d", 2)
    record = {"fed": {"main": [50_000, 10_000]}, "jackpots": [], "floors": {}}
    assert round_problems("main", money, house, record) == []
    moved = {**record, "fed": {"main": [250_000, 50_000]}}
    assert [seq for seq, _ in round_problems("main", money, house, moved)] == [5]
    assert round_problems("main", money, HouseRound(9, 2500, 1, "d", 2), None) != []
