"""An open gaming day to rewrite and verify (issue 39): yesterday archived, today's rounds
part archived and part in Redis only, and `jackpot verify` run whole or from today on
(tests/integration/test_verify_*.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.api import round_body
from tests.support.archive_world import World, deal, dealt, world_on

MODES = ["whole", "since today"]


def open_day(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[World]:
    """Yesterday's rounds, archived; then an open day on pool `main`: rounds of $5, a
    jackpot and a round of $25, archived, then more rounds and another jackpot in Redis
    only. `--since` today links the day to the archived entry before it."""
    with world_on(request, tmp_path) as w:
        deal(w, 10, prefix="old")
        settle(w, jackpot("hit0"))
        w.services.archiver.run()
        w.clock.pass_days(1)
        # the controller's clock (the store's, never earlier than one it gave) is a day on
        w.redis.hset(w.services.groups.main.keys.counters, "clock", str(w.clock()))
        deal(w, 30)
        settle(w, jackpot("hit1"))
        settle(w, round_body("big1", spots=[{"spot": 1, "wager": 2500, "card": "4d"}]))
        w.services.archiver.run()
        deal(w, 50, prefix="late")
        settle(w, jackpot("hit2"))
        deal(w, 3, prefix="after")
        yield w


def jackpot(name: str) -> dict[str, object]:
    """A suited four of a kind: 100% of the meter, then a reset."""
    return round_body(
        name,
        dealer="As",
        dealer_war="As",
        spots=[{"spot": 1, "wager": 500, "card": "As", "war": True, "war_card": "As"}],
    )


def settle(w: World, body: dict[str, object]) -> None:
    assert w.api.report({**body, "dealt_at": dealt(w.clock)}).status_code == 200


def verify(w: World, mode: str) -> list[str]:
    since = None if mode == "whole" else w.services.days().of_time(w.clock())
    return [str(f) for f in w.services.verifier.run(since).findings]
