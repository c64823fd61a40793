"""Every round record is bound to the chain: the house entry that settled a round commits its
result's digests (static and dynamic parts) and its stamp. A record forged into the archive,
edited or deleted there, or edited in Redis, is reported by `jackpot verify` by table and
round, is never served, and stops the gaming day's close; put back, verify passes again. On
SQLite and on a real PostgreSQL, with the triggers a superuser can get past."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy

from jackpot.archive.rows import ArchivedRound
from jackpot.conflicts import BrokenChainError
from tests.support.api import round_body
from tests.support.archive_world import ARCHIVES, World, dealt, world_on
from tests.support.tamper import edit_round, set_round, superuser

SPOT = [{"spot": 1, "wager": 500, "card": "9d"}]


@pytest.fixture(params=ARCHIVES)
def w(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[World]:
    with world_on(request, tmp_path) as world:
        yield world


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


def test_a_forged_round_record_is_reported_not_served_and_not_counted(w: World) -> None:
    settled_and_archived(w)
    assert w.services.verifier.run().intact
    forge(w)
    found = w.services.verifier.run().findings
    assert [str(f) for f in found if "forged-1" in str(f)], found
    assert "a record no journal entry settled" in str(found[0])
    r = w.api.client.get("/v1/rounds/T1/forged-1", headers=w.api.keys.header("auditor"))
    assert r.status_code == 409 and r.get_json()["error"]["code"] == "round_record_mismatch"
    day = w.services.days().of_time(w.clock())
    w.clock.pass_days(2)
    with pytest.raises(BrokenChainError, match="forged-1"):
        w.services.accounting.close(day)


def findings(w: World) -> list[str]:
    return [str(f) for f in w.services.verifier.run().findings]


def served(w: World, round_id: str) -> int:
    r = w.api.client.get(f"/v1/rounds/T1/{round_id}", headers=w.api.keys.header("auditor"))
    return int(r.status_code)


def test_an_edited_round_record_is_reported_not_served_and_put_back_passes(w: World) -> None:
    settled_and_archived(w)
    engine = w.services.archive.engine

    def more_pay(static: dict[str, Any]) -> dict[str, Any]:
        static["spots"][0]["pay"] = 1_000_000
        return static

    was = edit_round(engine, "r1", "static", more_pay)
    found = findings(w)
    assert any("round T1/r1: its result" in f and "was edited" in f for f in found), found
    assert served(w, "r1") == 409 and served(w, "r2") == 200
    set_round(engine, "r1", "static", was)
    assert findings(w) == [] and served(w, "r1") == 200


def test_a_record_whose_jackpots_or_time_were_edited_is_reported(w: World) -> None:
    """The dynamic part (jackpots and meters, which the day's table figures count) and the
    stamp (which day counts the round) are committed too."""
    settled_and_archived(w)
    engine = w.services.archive.engine

    def a_jackpot(dynamic: dict[str, Any]) -> dict[str, Any]:
        dynamic["jackpots"] = [{"id": "P000009", "pool": "main", "bet": 1, "amount": 2_500_000}]
        return dynamic

    was = edit_round(engine, "r1", "dynamic", a_jackpot)
    found = findings(w)
    assert any("round T1/r1: its jackpots and meters" in f for f in found), found
    assert served(w, "r1") == 409
    set_round(engine, "r1", "dynamic", was)
    stamp = edit_round(engine, "r2", "ts", lambda ts: ts - 2 * 86_400_000)
    found = findings(w)
    assert any("round T1/r2: its time" in f and "another day" in f for f in found), found
    set_round(engine, "r2", "ts", stamp)
    assert findings(w) == []


def test_a_deleted_round_record_is_reported(w: World) -> None:
    settled_and_archived(w)
    with superuser(w.services.archive.engine) as db:
        row = db.execute(sqlalchemy.text("SELECT * FROM rounds WHERE round_id = 'r0'")).one()
        db.execute(sqlalchemy.text("DELETE FROM rounds WHERE round_id = 'r0'"))
    found = findings(w)
    assert any("round T1/r0" in f and "record is not: deleted" in f for f in found), found
    w.services.archive.append([], [ArchivedRound(*row)])
    assert findings(w) == []


def test_a_record_edited_in_redis_is_reported_before_it_is_archived(w: World) -> None:
    body = {**round_body("live", spots=SPOT), "dealt_at": dealt(w.clock)}
    assert w.api.report(body).status_code == 200
    key = w.services.groups.main.keys.round("T1", "live")
    was = w.redis.hget(key, "dynamic")
    w.redis.hset(key, "dynamic", was.replace('"at":', '"jackpots":[{"amount":9}],"at":'))
    found = findings(w)
    assert any("round T1/live: its jackpots" in f for f in found), found
    assert served(w, "live") == 409  # nor served, on a read
    again = w.api.report(body)  # nor as the answer to a resend
    assert again.status_code == 409, again.get_json()
    assert again.get_json()["error"]["code"] == "round_record_mismatch"
    w.redis.hset(key, "dynamic", was)
    assert findings(w) == []
    assert served(w, "live") == 200 and w.api.report(body).get_json()["replayed"] is True


def test_rounds_are_paged_by_a_unique_key_across_link_groups(w: World) -> None:
    """Two link groups' house journals number their entries each from 1: records with the
    same house seq are all read, once, whatever the page size."""
    rows = [
        ArchivedRound(table, f"{table}-{seq}", "d", "{}", "{}", 1_000 + seq // 2, "t", seq)
        for table in ("EAST-1", "WEST-1")
        for seq in range(1, 8)
    ]
    w.services.archive.append([], rows)
    for page in (1, 2, 3, 5000):
        read = [(r.table, r.round) for r in w.services.archive.rounds_between(0, 10_000, page)]
        assert sorted(read) == sorted((r.table, r.round) for r in rows), page
