"""A must-hit-by level's bets' steps are held to the round record's wagers in settlement
order (issue 39, the examiner's item 3; docs/DECISIONS.md D272): steps swapped between two
bets of one round, rehashed and archived, add up as before and pass the level's rate, but
the order decides which bet reached the trigger, and both verify modes find it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.api import round_body
from tests.support.archive_world import ARCHIVES, World
from tests.support.open_day import MODES, open_day, settle, verify
from tests.support.rechain import Entry, forge

LOSSES = ("2c", "3d", "4h", "5s")  # under the dealer's queen: no meter line


@pytest.fixture(params=ARCHIVES)
def world(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[World]:
    yield from open_day(request, tmp_path)


@pytest.fixture
def mhb(world: World, monkeypatch: pytest.MonkeyPatch) -> Iterator[World]:
    """Level `mhb` (must hit by $10,000, fed 2% of every wager) beside `main` at table T1,
    and a round of $5, $1, $1 and $10 bets, archived."""
    # priced as if no smaller bet fed it (the return check's share, D229, is not this test's)
    monkeypatch.setattr(world.services.groups.main.tables, "_below_share_bp", 0)
    world.api.put_pool("mhb", reset=100, rate_bp=200, reserve_rate_bp=0, cap=1_000_000,
                       level="must_hit_by")  # fmt: skip
    world.api.put_table(pools=["main", "mhb"])
    spots = [
        {"spot": i + 1, "wager": w, "card": LOSSES[i]} for i, w in enumerate((500, 100, 100, 1000))
    ]
    settle(world, round_body("four", spots=spots))
    world.services.archiver.run()
    yield world


def swapped(journal: list[Entry]) -> list[Entry]:
    """The examiner's rewrite: the first two bets' steps change places."""
    i = next(k for k, e in enumerate(journal) if e.get("round") == "four" and "steps" in e)
    assert journal[i]["steps"] == "100000,20000,20000,200000", journal[i]
    journal[i]["steps"] = "20000,100000,20000,200000"
    return journal


@pytest.mark.parametrize("mode", MODES)
def test_steps_swapped_between_two_bets_of_a_round_are_found(mhb: World, mode: str) -> None:
    assert verify(mhb, mode) == []
    forge(mhb, "mhb", swapped)
    found = verify(mhb, mode)
    assert any(
        f.startswith("pool/mhb") and "round T1/four: bet 1's step (20000 units)" in f for f in found
    ), found
