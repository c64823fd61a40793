"""No false alarm from `jackpot verify --since` in live play (issue 39, the examiner's item 1):
the house journal and each pool's are walked one after another, each from its own first
entry stamped in the period, while rounds settle and the archiver moves on. A round stamped
before the period can be in one walk and not the other; only the period's rounds are held
across journals, and a period not begun yet is refused (docs/DECISIONS.md D263)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import redis as redis_lib

from jackpot.archive.verify import Verifier
from jackpot.services.verification import PeriodNotBegunError
from tests.support.api import round_body
from tests.support.archive_world import World, deal, dealt, world_of
from tests.support.redis_server import RedisServer


@pytest.fixture
def w(redis: redis_lib.Redis, redis_server: RedisServer, tmp_path: Path) -> Iterator[World]:
    with world_of(redis, redis_server.url, tmp_path / "var") as world:
        deal(world, 5, prefix="old")
        world.services.archiver.run()
        yield world


def play_during_the_walks(w: World, monkeypatch: Any) -> list[str]:
    """After each journal's walk, a round settles and the archiver runs: the next journal's
    walk starts from an archive further on than the one before it did."""
    real = Verifier._journal
    landed: list[str] = []

    def walk_then_play(self: Verifier, journal: str, *args: Any) -> Any:
        walk = real(self, journal, *args)
        body = round_body(f"live{len(landed)}", spots=[{"spot": 1, "wager": 500, "card": "4d"}])
        assert w.api.report({**body, "dealt_at": dealt(w.clock)}).status_code == 200
        w.services.archiver.run()
        landed.append(journal)
        return walk

    monkeypatch.setattr(Verifier, "_journal", walk_then_play)
    return landed


def test_a_period_begun_moments_ago_is_intact_while_rounds_settle(
    w: World, monkeypatch: Any
) -> None:
    """Rounds just before the period in Redis only, the period begun a moment ago, rounds
    settling in it and the archiver running between the walks."""
    verifier = w.services.groups.main.verifier
    deal(w, 3, prefix="before")
    since = verifier.clock() + 1
    time.sleep(0.005)
    deal(w, 3, prefix="in")
    landed = play_during_the_walks(w, monkeypatch)
    found = verifier.run(since)
    assert landed and found.findings == [], [str(f) for f in found.findings]


def test_a_period_not_begun_checks_no_round_across_journals(w: World, monkeypatch: Any) -> None:
    """The store's walk from an instant after the clock (the service refuses such a day, but
    the clock may pass the boundary during a run): rounds before it, in Redis only, are in
    the house's walk and archived before the pools' begins."""
    verifier = w.services.groups.main.verifier
    deal(w, 3, prefix="before")
    landed = play_during_the_walks(w, monkeypatch)
    found = verifier.run(verifier.clock() + 3_600_000)
    assert landed and found.findings == [], [str(f) for f in found.findings]


def test_verify_since_a_day_not_begun_is_refused_naming_it(w: World) -> None:
    today = w.services.days().of_time(w.services.groups.main.verifier.clock())
    tomorrow = today + timedelta(days=1)
    with pytest.raises(PeriodNotBegunError, match=f"gaming day {tomorrow.isoformat()}"):
        w.services.verifier.run(tomorrow)
    assert w.services.verifier.run(today).intact
