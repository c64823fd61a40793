"""The void plan (jackpot/domain/voids.py): partial voids add up to the whole exactly, and a
hit's reset funding goes back only with every hit it followed."""

from __future__ import annotations

from typing import Any

import pytest

from jackpot.domain.voids import VoidUnsupportedError, parse_spots, plan_void
from jackpot.errors import ValidationError

STATIC = {
    "table": "T1",
    "round": "r1",
    "spots": [
        {"spot": 1, "wager": 333, "pay": 0, "envy": 0, "outcome": "loss"},
        {"spot": 2, "wager": 777, "pay": 7_770, "envy": 0, "outcome": "tie"},
        {"spot": 2, "wager": 101, "pay": 0, "envy": 50, "outcome": "loss"},
        {"spot": 5, "wager": 500, "pay": 0, "envy": 0, "outcome": "suited_war"},
    ],
}
# two hits sharing pool main's meter (split): one reset after both
DYNAMIC: dict[str, Any] = {
    "jackpots": [
        {"id": "P000001", "pool": "main", "bet": 1, "amount": 5_000},
        {"id": "P000002", "pool": "main", "bet": 3, "amount": 5_001, "reset": ["70", "9930", 2]},
    ],
    "pools": {"main": 100_000},
    "fed": {"main": ["170511", "34102"], "side": ["17051", "0"]},
}


def test_spots_voided_one_by_one_take_back_the_whole_exactly() -> None:
    taken = {"main": [0, 0], "side": [0, 0]}
    voided: list[int] = []
    for spot in (5, 1, 2):
        plan = plan_void(STATIC, DYNAMIC, voided, frozenset({spot}))
        for p in plan.pools:
            taken[p.pool][0] += p.to_visible
            taken[p.pool][1] += p.to_reserve
        voided.append(spot)
    assert taken == {"main": [170_511, 34_102], "side": [17_051, 0]}
    assert plan.whole


def test_a_reset_goes_back_only_with_every_hit_it_followed() -> None:
    first = plan_void(STATIC, DYNAMIC, [], frozenset({2}))
    (main,) = [p for p in first.pools if p.pool == "main"]
    assert main.jackpots == (("P000001", 5_000),)
    assert (main.reset_from_reserve, main.reset_seed) == (0, 0)
    rest = plan_void(STATIC, DYNAMIC, [2], frozenset({5}))
    (main,) = [p for p in rest.pools if p.pool == "main"]
    assert main.jackpots == (("P000002", 5_001),)
    assert (main.reset_from_reserve, main.reset_seed) == (70, 9_930)
    whole = plan_void(STATIC, DYNAMIC, [], None)
    assert (whole.wagered, whole.fixed, whole.envy, whole.jackpot) == (1_711, 7_770, 50, 10_001)
    assert whole.bets == 4 and whole.spots == (1, 2, 5) and whole.whole


def test_nothing_left_to_void_is_an_empty_plan() -> None:
    plan = plan_void(STATIC, DYNAMIC, [1, 2, 5], None)
    assert plan.spots == () and plan.pools == () and plan.pays == 0


def test_a_round_without_its_contributions_on_record_is_not_voided_by_guess() -> None:
    with pytest.raises(VoidUnsupportedError):
        plan_void(STATIC, {"jackpots": [], "pools": {}}, [], None)


def test_the_spots_named_are_spots_of_the_rounds_bets() -> None:
    assert parse_spots(None, STATIC) is None
    assert parse_spots([5, 2], STATIC) == frozenset({2, 5})
    with pytest.raises(ValidationError) as refused:
        parse_spots([3], STATIC)
    assert refused.value.field == "spots[0]" and "1, 2, 5" in refused.value.message
