"""`jackpot verify` recomputes the open day (issue 39): a pool journal rewritten in Redis and
the archive alike, its chain rehashed and its end, meter, reserve and counters put where the
rewrite leaves them, is still found, by the whole verify and by `--since` today, because
each entry's balances must follow from its amounts and every pool entry of a round must be
what the house journal and the round record it commits say (docs/DECISIONS.md D260-D262)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from jackpot.domain.meter import UNITS_PER_CENT
from tests.support.api import round_body
from tests.support.archive_world import ARCHIVES, World
from tests.support.open_day import MODES, jackpot, open_day, settle, verify
from tests.support.rechain import Entry, forge


@pytest.fixture(params=ARCHIVES)
def world(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[World]:
    yield from open_day(request, tmp_path)


def test_an_untouched_open_day_verifies_intact_both_ways(world: World) -> None:
    assert verify(world, "whole") == [] and verify(world, "since today") == []
    whole = world.services.verifier.run()
    since = world.services.verifier.run(world.services.days().of_time(world.clock()))
    assert since.checked["pool/main"] < whole.checked["pool/main"], "yesterday is not walked"


def rebalanced(journal: list[Entry], at: int, value: int) -> list[Entry]:
    """Every balance from index `at` on moved by `value` units on the meter (the forger
    keeps the walk of balances plausible past the entry he changed)."""
    for e in journal[at:]:
        if "value_units" in e:
            e["value_units"] = str(int(e["value_units"]) + value)
    return journal


def cut(journal: list[Entry]) -> list[Entry]:
    return journal[:-49]


def raised_hit(journal: list[Entry]) -> list[Entry]:
    """The newest hit pays $500 more; the meter after it is $500 lower, and stays so."""
    i = max(i for i, e in enumerate(journal) if e["type"] == "hit")
    journal[i]["amount"] = str(int(journal[i]["amount"]) + 50_000)
    return rebalanced(journal, i, -50_000 * UNITS_PER_CENT)


def appended(journal: list[Entry]) -> list[Entry]:
    """A contribution of nothing, with the balances of the entry before it."""
    last = next(e for e in reversed(journal) if e["type"] == "contribution")
    balances = next(e for e in reversed(journal) if "value_units" in e)
    extra = {
        **last,
        "value_units": balances["value_units"],
        "reserve_units": balances.get("reserve_units", "0"),
        "round": "never-dealt",
        "wagered": "0",
        "bets": "0",
        "to_visible_units": "0",
        "to_reserve_units": "0",
        "overflow_units": "0",
    }
    return [*journal, extra]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("rewrite", "shows"),
    [
        (cut, "no contribution of it"),
        (raised_hit, "its hits pay"),
        (appended, "never settled"),
    ],
    ids=["the last 49 entries cut", "a hit raised by $500", "an entry appended"],
)
def test_an_open_day_rewritten_in_both_stores_is_found(
    world: World, mode: str, rewrite: Callable[[list[Entry]], list[Entry]], shows: str
) -> None:
    forge(world, "main", rewrite)
    found = verify(world, mode)
    assert any(shows in f for f in found), found
    assert all(f.startswith("pool/main") for f in found), found


@pytest.mark.parametrize("mode", MODES)
def test_contribution_steps_moved_between_two_bets_are_found(world: World, mode: str) -> None:
    """The two $25 rounds' amounts given to a $5 round and back: each round's contribution
    is not what its record says it took in."""

    def swapped(journal: list[Entry]) -> list[Entry]:
        small = next(
            k
            for k, e in enumerate(journal)
            if e["type"] == "contribution" and e.get("round") == "r1"
        )
        big = next(
            k
            for k, e in enumerate(journal)
            if e["type"] == "contribution" and e.get("round") == "big1"
        )
        a, b = journal[small], journal[big]
        moved = int(b["to_visible_units"]) - int(a["to_visible_units"])
        for name in ("to_visible_units", "to_reserve_units"):
            a[name], b[name] = b[name], a[name]
        return rebalanced(journal[:big], small, moved) + journal[big:]

    forge(world, "main", swapped)
    found = verify(world, mode)
    assert any("round T1/r1:" in f and "contributions" in f for f in found), found
    assert any("round T1/big1:" in f and "contributions" in f for f in found), found


def test_every_kind_of_money_entry_follows_and_verifies_intact(world: World) -> None:
    """Adjustments of the meter and the reserve, a pool retired into another (both
    transfers), a jackpot of the retired pool's table voided after it (landing in the pool
    its balance went to) and a suspension: each step recomputes, both ways."""
    w = world
    api, operator = w.api, w.api.keys.header("operator")
    api.put_pool("old", reset=50_000, rate_bp=300, reserve_rate_bp=150)
    api.put_table("T2", pools=["old"])
    settle(w, {**jackpot("t2-hit"), "table": "T2"})
    settle(w, {**round_body("t2-fed", spots=[{"spot": 1, "wager": 900, "card": "4d"}]),
               "table": "T2"})  # fmt: skip
    for n, (pool, target, cents) in enumerate(
        [("main", "visible", -1_234), ("main", "reserve", 777), ("old", "reserve", 50)]
    ):
        r = api.client.post(
            f"/v1/pools/{pool}/adjustments",
            json={"id": f"adj{n}", "amount": cents, "target": target, "reason": "count"},
            headers=operator,
        )
        assert r.status_code in (200, 201), r.get_json()
    api.put_table("T2", pools=["main"])
    retired = api.client.post(
        "/v1/pools/old/retire",
        json={"id": "retire-old", "to": "main", "reason": "re-themed"},
        headers=operator,
    )
    assert retired.status_code == 200, retired.get_json()
    voided = api.client.post(
        "/v1/rounds/T2/t2-hit/void", json={"reason": "malfunction"}, headers=operator
    )
    assert voided.status_code == 200, voided.get_json()
    kinds = {e["type"] for e in api.journal("main")} | {e["type"] for e in api.journal("old")}
    assert {"adjustment", "transfer", "void", "hit", "reset", "payout_voided"} <= kinds
    assert verify(w, "whole") == [] and verify(w, "since today") == []
