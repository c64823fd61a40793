"""No false alarm from the self-check's quick look (Verifier.tail): a round landing on an
idle pool (its journal all archived and trimmed from Redis) between the snapshot and the
reads after it is not taken for an edited meter."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import redis as redis_lib

from jackpot.archive.verify import Verifier
from tests.support.api import round_body
from tests.support.archive_world import dealt, world_of
from tests.support.redis_server import RedisServer


def test_a_round_on_an_idle_pool_during_the_check_is_not_a_finding(
    redis: redis_lib.Redis, redis_server: RedisServer, tmp_path: Path, monkeypatch: Any
) -> None:
    with world_of(redis, redis_server.url, tmp_path / "var") as w:
        body = round_body("r1", spots=[{"spot": 1, "wager": 500, "card": "9d"}])
        assert w.api.report({**body, "dealt_at": dealt(w.clock)}).status_code == 200
        w.services.archiver.run()
        w.clock.pass_window()  # the pool sits idle past the retention window
        w.services.archiver.run()
        keys = w.services.groups.main.keys
        assert w.redis.xlen(keys.pool_journal("main")) == 0, "all of it archived and trimmed"

        real = Verifier._snapshot
        landed = []

        def snapshot_then_a_round(self: Verifier, stream: str, pool: Any, count: int) -> Any:
            snap = real(self, stream, pool, count)
            if pool == "main" and not landed:  # the floor plays on right after the read
                late = round_body("r2", spots=[{"spot": 1, "wager": 500, "card": "9d"}])
                assert w.api.report({**late, "dealt_at": dealt(w.clock)}).status_code == 200
                landed.append(True)
            return snap

        monkeypatch.setattr(Verifier, "_snapshot", snapshot_then_a_round)
        found = w.services.groups.main.verifier.tail()
        assert landed and found.findings == [], found.findings
