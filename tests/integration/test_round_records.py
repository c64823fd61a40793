"""Every round record is bound to the chain: the house entry that settled a round commits its
result's digest. A record forged into the archive, or edited there, is reported by `jackpot
verify` by table and round, is never served, and stops the gaming day's close."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis as redis_lib
import sqlalchemy

from jackpot.archive.store import ArchivedRound
from jackpot.errors import BrokenChainError
from tests.support.api import round_body
from tests.support.archive_world import World, dealt, world_of
from tests.support.redis_server import RedisServer

SPOT = [{"spot": 1, "wager": 500, "card": "9d"}]


@pytest.fixture
def world(redis: redis_lib.Redis, redis_server: RedisServer, tmp_path: Path) -> Iterator[World]:
    with world_of(redis, redis_server.url, tmp_path / "var") as w:
        yield w


def settled_and_archived(w: World, n: int = 3) -> None:
    for i in range(n):
        body = {**round_body(f"r{i}", spots=SPOT), "dealt_at": dealt(w.clock)}
        assert w.api.report(body).status_code == 200
    w.services.archiver.run()
    w.clock.pass_window()
    w.services.archiver.run()  # the records leave Redis: the archive's alone


def forge(w: World) -> None:
    """A suited four of a kind paying $25,000 that nobody played, inserted in the archive."""
    static = {"table": "T1", "round": "forged-1", "spots": [
        {"spot": 1, "outcome": "suited_four_of_a_kind", "wager": 25, "pay": 2_500_000,
         "envy": 0}]}  # fmt: skip
    row = ArchivedRound("T1", "forged-1", "f" * 64, json.dumps(static),
                        json.dumps({"jackpots": [], "pools": {}}), w.clock() - 1_000,
                        "table:forger", 2)  # fmt: skip
    w.services.archive.append([], [row])


def test_a_forged_round_record_is_reported_not_served_and_not_counted(world: World) -> None:
    w = world
    settled_and_archived(w)
    assert w.services.verifier.run().intact
    forge(w)
    found = w.services.verifier.run().findings
    assert [str(f) for f in found if "forged-1" in str(f)], found
    assert "a record no journal entry settled" in str(found[0])
    r = w.api.client.get("/v1/rounds/T1/forged-1", headers=w.api.keys.header("auditor"))
    assert r.status_code == 409 and r.get_json()["error"]["code"] == "round_record_mismatch"
    day = w.services.reports._days().of_time(w.clock())
    w.clock.pass_days(2)
    with pytest.raises(BrokenChainError, match="forged-1"):
        w.services.accounting.close(day)


def test_an_edited_round_record_is_reported_and_not_served(world: World) -> None:
    w = world
    settled_and_archived(w)
    engine = w.services.archive.engine
    with engine.begin() as db:  # a superuser's rewrite: the append-only guard removed
        for trigger in ("rounds_no_update", "rounds_append_only"):
            db.execute(sqlalchemy.text(f"DROP TRIGGER IF EXISTS {trigger}"))
        static = json.loads(db.execute(sqlalchemy.text(
            "SELECT static FROM rounds WHERE round_id = 'r1'")).scalar_one())  # fmt: skip
        static["spots"][0]["pay"] = 1_000_000
        db.execute(sqlalchemy.text("UPDATE rounds SET static = :s WHERE round_id = 'r1'"),
                   {"s": json.dumps(static)})  # fmt: skip
    found = [str(f) for f in w.services.verifier.run().findings]
    assert any("round T1/r1" in f and "was edited" in f for f in found), found
    r = w.api.client.get("/v1/rounds/T1/r1", headers=w.api.keys.header("auditor"))
    assert r.status_code == 409
    untouched = w.api.client.get("/v1/rounds/T1/r2", headers=w.api.keys.header("auditor"))
    assert untouched.status_code == 200
