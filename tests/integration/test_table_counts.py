"""Table-side reconciliation against a real redis-server and archive: a difference between a
table's own counts and the controller's stays in sight (metric, alert, console) until its day
is closed and a person acknowledged it; the comparison goes on while the archive is down; a
closed day whose tables disagree says so (docs/RULES.md §5, docs/DECISIONS.md D227)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
import redis as redis_lib

from tests.support.archive_world import World, deal, world_of
from tests.support.postgres_server import PostgresServer
from tests.support.redis_server import RedisServer

DIFFERS = 'jackpot_table_counts_differ{table="T1"} 1.0'
AGREES = 'jackpot_table_counts_differ{table="T1"} 0.0'


@pytest.fixture
def world(redis: redis_lib.Redis, redis_server: RedisServer, tmp_path: Path) -> Iterator[World]:
    with world_of(redis, redis_server.url, tmp_path / "var", gaming_day_start="06:00") as w:
        yield w


def told(answers: list[dict[str, Any]], lost: int = 0) -> dict[str, Any]:
    """T1's own counts of these answers, and of `lost` rounds the controller does not hold."""
    spots = [s for a in answers for s in a["spots"]]
    return {
        "day": answers[0]["gaming_day"],
        "rounds": len(answers) + lost,
        "side_bets": len(spots),
        "handle": sum(s["wager"] for s in spots),
        "fixed": sum(s["pay"] for s in spots),
        "envy": sum(s["envy"] for s in spots),
        "jackpot": sum(s["jackpot"] for s in spots),
        "voids": 0,
        "through": max(a["settled_at"] for a in answers),
    }


def quiet(day: str) -> dict[str, Any]:
    """T1's counts of a day it played nothing on (the controller holds nothing either)."""
    return {"day": day, "rounds": 0, "side_bets": 0, "handle": 0, "fixed": 0, "envy": 0,
            "jackpot": 0, "voids": 0}  # fmt: skip


def send(w: World, *days: dict[str, Any]) -> Any:
    sent = w.api.client.post(
        "/v1/tables/T1/counts", json={"days": list(days)}, headers=w.api.keys.header("table")
    )
    assert sent.status_code == 200, sent.get_json()
    return sent.get_json()


def acknowledge(w: World, body: dict[str, Any], role: str = "operator") -> Any:
    return w.api.client.post(
        "/v1/tables/T1/counts/acknowledge", json=body, headers=w.api.keys.header(role)
    )


def metrics(w: World) -> str:
    return str(w.api.client.get("/metrics").get_data(as_text=True))


def shown(w: World) -> Any:
    table = w.api.client.get("/v1/tables/T1", headers=w.api.keys.header("operator")).get_json()
    return table["counts_check"]


def lose_two(w: World) -> str:
    """T1 plays three rounds the controller holds and tells of two more it lost (acknowledged
    just before the day's end, then gone with a failover); compared: the day."""
    counts = told([a for _, a in deal(w, 3)], lost=2)
    send(w, counts)
    [check] = w.services.table_counts.compare()
    assert check["differences"] == {"rounds": {"table": 5, "controller": 3}}
    return str(counts["day"])


def next_day(day: str) -> str:
    return (date.fromisoformat(day) + timedelta(days=1)).isoformat()


def test_a_loss_just_before_the_days_end_stays_in_sight_after_the_rollover(world: World) -> None:
    w = world
    day = lose_two(w)
    assert DIFFERS in metrics(w)
    # the next gaming day: the table reports it (it matches) beside the day before
    w.clock.pass_days(1)
    send(w, quiet(next_day(day)))
    assert len(w.services.table_counts.compare()) == 1
    assert DIFFERS in metrics(w), "the new day's report hid the loss of the day before"
    assert 'jackpot_table_count_difference{figure="rounds",table="T1"} 2.0' in metrics(w)
    check = shown(w)
    assert check["day"] == day and check["in_sight"] and check["differences"]["rounds"]
    # and the day's comparison is kept past the days kept while nobody acknowledged it
    w.clock.pass_days(10)
    send(w, quiet(next_day(next_day(day))))
    w.services.table_counts.compare()
    assert DIFFERS in metrics(w) and shown(w)["day"] == day


def test_the_difference_stays_until_the_day_is_closed_and_a_person_acknowledged_it(
    world: World,
) -> None:
    w = world
    day = lose_two(w)
    w.clock.pass_days(2)
    w.services.accounting.close(date.fromisoformat(day))
    assert DIFFERS in metrics(w), "closed, and nobody has acknowledged the difference"
    assert shown(w)["closed"] is True and shown(w)["in_sight"] is True

    before = journal(w)
    reason = "failover at 05:59:48, two rounds reentered by hand; see incident 88"
    answer = acknowledge(w, {"day": day, "reason": reason})
    assert answer.status_code == 200, answer.get_json()
    ack = answer.get_json()["acknowledgement"]
    assert answer.get_json()["status"] == "acknowledged"
    assert ack["differences"] == {"rounds": {"table": 5, "controller": 3}}
    [entry] = [e for e in journal(w) if e["seq"] > before[-1]["seq"]]
    operator = w.services.credentials.authenticate(w.api.keys.operator)
    assert entry["type"] == "table_counts_acknowledged"
    assert entry["who"] == operator.who and entry["reason"] == reason
    assert (entry["table"], entry["day"]) == ("T1", day)
    assert AGREES in metrics(w) and "jackpot_table_count_difference{" not in metrics(w)
    assert shown(w)["in_sight"] is False and shown(w)["acknowledged"]["who"] == operator.who

    # once: the same acknowledgement again writes nothing
    again = acknowledge(w, {"day": day, "reason": "again"}, role="auditor")
    assert again.status_code == 200 and again.get_json()["status"] == "unchanged"
    assert again.get_json()["acknowledgement"]["reason"] == reason
    assert len(journal(w)) == len(before) + 1


def test_an_acknowledgement_before_the_close_waits_for_it_and_covers_only_what_was_seen(
    world: World,
) -> None:
    w = world
    day = lose_two(w)
    check = shown(w)
    answer = acknowledge(w, {"day": day, "reason": "known failover", "checked_at": 1})
    assert answer.status_code == 409 and answer.get_json()["error"]["code"] == "counts_changed"
    assert answer.get_json()["error"]["field"] == "checked_at"
    done = acknowledge(
        w, {"day": day, "reason": "known failover", "checked_at": check["checked_at"]}
    )
    assert done.status_code == 200, done.get_json()
    assert DIFFERS in metrics(w), "acknowledged, but the day is not closed"
    # the table finds one more round lost: a different difference, not acknowledged
    counts = told([a for _, a in deal(w, 1, prefix="late")], lost=0)
    counts.update(rounds=7, side_bets=4, handle=2000)
    send(w, counts)
    w.services.table_counts.compare()
    w.clock.pass_days(2)
    w.services.accounting.close(date.fromisoformat(day))
    assert DIFFERS in metrics(w) and shown(w)["acknowledged"] is None
    assert acknowledge(w, {"day": day, "reason": "both"}).get_json()["status"] == "acknowledged"
    assert AGREES in metrics(w)


def test_an_acknowledgement_is_refused_naming_the_field_and_changes_nothing(world: World) -> None:
    w = world
    day = lose_two(w)
    before = journal(w)
    for body, field in (
        ({"day": day}, "reason"),
        ({"day": day, "reason": "  "}, "reason"),
        ({"reason": "x"}, "day"),
        ({"day": "2026-13-01", "reason": "x"}, "day"),
        ({"day": day, "reason": "x", "checked_at": "soon"}, "checked_at"),
        ({"day": day, "reason": "x", "who": "me"}, "who"),
    ):
        answer = acknowledge(w, body)
        assert answer.status_code == 400, (body, answer.get_json())
        assert answer.get_json()["error"]["field"] == field, (body, answer.get_json())
    unknown = acknowledge(w, {"day": next_day(day), "reason": "x"})
    assert unknown.status_code == 404 and unknown.get_json()["error"]["field"] == "day"
    assert acknowledge(w, {"day": day, "reason": "x"}, role="table").status_code == 403
    assert acknowledge(w, {"day": day, "reason": "x"}, role="display").status_code == 403
    assert journal(w) == before and DIFFERS in metrics(w)


def test_a_day_that_matches_raises_nothing_and_has_nothing_to_acknowledge(world: World) -> None:
    w = world
    counts = told([a for _, a in deal(w, 3)])
    send(w, counts)
    [check] = w.services.table_counts.compare()
    assert check["differences"] == {}
    assert AGREES in metrics(w) and shown(w)["in_sight"] is False
    answer = acknowledge(w, {"day": counts["day"], "reason": "x"})
    assert answer.status_code == 409 and answer.get_json()["error"]["code"] == "counts_match"


def test_a_closed_day_whose_tables_disagree_does_not_say_plainly_balanced(world: World) -> None:
    w = world
    day = lose_two(w)
    w.clock.pass_days(2)
    report = w.services.accounting.close(date.fromisoformat(day))
    assert report["balanced"] is True, "the pools balance to the unit over what is held"
    assert report["table_counts_balanced"] is False
    [row] = report["table_counts"]
    assert row["matches"] is False and row["table_rounds"] == 5 and row["controller_rounds"] == 3
    served = w.api.client.get(f"/v1/accounting/days/{day}", headers=w.api.keys.header("auditor"))
    assert served.get_json()["table_counts_balanced"] is False
    listed = w.api.client.get("/v1/accounting/days", headers=w.api.keys.header("auditor"))
    [closed] = [d for d in listed.get_json()["days"] if d["day"] == day]
    assert closed["table_counts_balanced"] is False


def test_a_closed_day_whose_tables_agree_says_so(world: World) -> None:
    w = world
    counts = told([a for _, a in deal(w, 2)])
    send(w, counts)
    w.clock.pass_days(2)
    report = w.services.accounting.close(date.fromisoformat(counts["day"]))
    assert report["balanced"] is True and report["table_counts_balanced"] is True


def test_the_comparison_goes_on_while_the_archive_is_down(
    redis: redis_lib.Redis,
    redis_server: RedisServer,
    postgres_server: PostgresServer,
    postgres_url: str,
    tmp_path: Path,
) -> None:
    with world_of(redis, redis_server.url, tmp_path / "var", archive_url=postgres_url) as w:
        answers = [a for _, a in deal(w, 3)]
        w.services.archiver.run()
        send(w, told(answers, lost=2))
        postgres_server.stop()
        try:
            made = w.services.table_counts.compare()
            seen = metrics(w)
        finally:
            postgres_server.start()
    [check] = made
    assert check["differences"] == {"rounds": {"table": 5, "controller": 3}}
    assert DIFFERS in seen


def journal(w: World) -> list[dict[str, Any]]:
    answer = w.api.client.get("/v1/journal?limit=1000", headers=w.api.keys.header("auditor"))
    assert answer.status_code == 200, answer.get_json()
    return list(answer.get_json()["entries"])
