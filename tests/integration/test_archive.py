"""The archiver against a real redis-server and a SQLite archive: what leaves Redis is in the
archive first, an old resend is answered from the archive, a late genuine round is refused,
a run cut short leaves no gap and no duplicate, and a broken chain is never trimmed."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
import redis as redis_lib

from jackpot.archive.archiver import Archiver
from jackpot.domain.journals import HOUSE, pool_journal
from tests.support.api import round_body
from tests.support.archive_world import (
    ARCHIVES,
    RETENTION,
    SKEW,
    World,
    deal,
    dealt,
    world_of,
    world_on,
)
from tests.support.redis_server import RedisServer


@pytest.fixture
def world(redis: redis_lib.Redis, redis_server: RedisServer, tmp_path: Path) -> Iterator[World]:
    with world_of(redis, redis_server.url, tmp_path / "var") as w:
        yield w


@pytest.fixture(params=ARCHIVES)
def on_either(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[World]:
    """The world over a SQLite archive and over a real PostgreSQL's."""
    with world_on(request, tmp_path) as w:
        yield w


def stream_lengths(w: World) -> dict[str, int]:
    k = w.services.groups.main.keys
    return {"house": w.redis.xlen(k.journal), "main": w.redis.xlen(k.pool_journal("main"))}


def round_records(w: World) -> int:
    return sum(1 for _ in w.redis.scan_iter(match=w.services.groups.main.keys.round("*", "*")))


def test_archived_history_leaves_redis_and_old_resends_are_answered_from_the_archive(
    world: World,
) -> None:
    w = world
    rounds = deal(w, 30)
    before = w.api.meters()
    first = w.services.archiver.run()
    assert not first.problems
    assert first.rounds == 30
    # everything archived, nothing trimmed yet: the window still holds it
    assert sum(first.trimmed.values()) == 0 and round_records(w) == 30

    w.clock.pass_window()
    second = w.services.archiver.run()
    assert sum(second.archived.values()) == 0, "a second run archives nothing twice"
    assert second.forgotten_rounds == 30
    assert stream_lengths(w) == {"house": 0, "main": 0}
    assert round_records(w) == 0

    archive = w.services.archive
    house = [e for e, _ in archive.walk(HOUSE)]
    assert [e.seq for e in house] == list(range(1, len(house) + 1)), "no gap, no duplicate"
    assert sum(1 for e in house if e.get("type") == "round") == 30

    for body, answer in rounds:
        again = w.api.report(body)
        assert again.status_code == 200, again.get_json()
        assert again.get_json() == {**answer, "replayed": True}
    assert w.api.meters() == before, "no resend moved the meter"

    # the same round id with another body is still the same round: a conflict
    changed = {**rounds[0][0], "spots": [{"spot": 1, "wager": 700, "card": "4d"}]}
    refused = w.api.report(changed)
    assert refused.status_code == 409
    assert refused.get_json()["error"]["code"] == "round_conflict"


def test_a_trimmed_round_resent_with_a_fresh_dealt_at_is_never_settled_again(
    world: World,
) -> None:
    """Issue 37: once its record had left Redis, the same round with `dealt_at` now took the
    fast path and was settled a second time; the next archive run then failed for good on
    the rounds' unique key. The table's filter of forgotten rounds sends it to the archive."""
    w = world
    rounds = deal(w, 12)
    w.services.archiver.run()
    w.clock.pass_window()
    assert w.services.archiver.run().forgotten_rounds == 12
    assert round_records(w) == 0
    before = w.api.meters()
    for body, answer in rounds:
        fresh = {**body, "dealt_at": dealt(w.clock)}  # the table's clock says: dealt now
        refused = w.api.report(fresh)
        assert refused.status_code == 409, refused.get_json()
        assert refused.get_json()["error"]["code"] == "round_conflict"
        # the report exactly as first sent: its first result, however it is dated
        assert w.api.report(body).get_json() == {**answer, "replayed": True}
    # a table whose round counter restarted: the same ids, other cards, dealt now
    restarted = round_body("r3", spots=[{"spot": 2, "wager": 900, "card": "Kd"}])
    assert w.api.report({**restarted, "dealt_at": dealt(w.clock)}).status_code == 409
    assert w.api.meters() == before, "nothing settled twice"
    again = w.services.archiver.run()
    assert not again.problems and sum(again.archived.values()) == 0
    # a genuinely new round still settles, on the fast path
    new = round_body("new-after-trim", dealt_at=dealt(w.clock))
    settled = w.api.report(new)
    assert settled.status_code == 200 and settled.get_json()["replayed"] is False


def forgotten_without_a_filter(w: World, prefix: str) -> dict[str, Any]:
    """A round of T1 archived and trimmed, its table's filter of forgotten rounds then lost
    (as if a controller from before D225 had trimmed it): the round's body."""
    [(body, _)] = deal(w, 1, prefix=prefix)
    w.services.archiver.run()
    w.clock.pass_window()
    w.services.archiver.run()
    k = w.services.groups.main.keys
    w.redis.delete(k.forgotten("T1"))
    w.redis.hdel(k.table("T1"), "forgotten")
    return body


def test_a_round_settled_twice_never_stops_the_archive_and_verify_reports_it(
    on_either: World,
) -> None:
    """Issue 37: a round settled again after its record was archived made every later
    archive run fail on the rounds' unique key, and verify said intact. Forced here as a
    controller from before D225 would have let it through (its filter lost), the repeat is
    archived beside the first, counted, alerted on, and named by verify; archiving goes on."""
    w = on_either
    body = forgotten_without_a_filter(w, "twice")
    again = w.api.report({**body, "dealt_at": dealt(w.clock)})
    assert again.status_code == 200 and again.get_json()["replayed"] is False
    deal(w, 2, prefix="after")
    run = w.services.archiver.run()
    assert not run.problems and run.repeats == 1 and run.rounds == 3
    assert w.services.archiver.status().repeats == 1
    assert [r.round for r in w.services.archive.round_repeats()] == ["twice0"]
    assert w.services.archiver.run().problems == [], "and the next run goes on"
    findings = [str(f) for f in w.services.verifier.run().findings]
    assert len(findings) == 1 and "round T1/twice0 was settled twice" in findings[0], findings


def test_rounds_trimmed_before_the_filters_existed_are_put_in_them_by_the_next_run(
    world: World,
) -> None:
    """An archive begun by an older version has trimmed rounds no filter names: the first
    run of this one puts every archived round of the group's tables into its filter."""
    w = world
    body = forgotten_without_a_filter(w, "older")
    # as an older version left it: no filter, and none filled from the archive yet
    w.redis.hdel(w.services.groups.main.keys.archive_status, "forgotten_filled")
    w.services.archiver.run()
    again = w.api.report({**body, "dealt_at": dealt(w.clock)})
    assert again.status_code == 409, again.get_json()


def test_a_round_the_filter_names_by_chance_is_settled_after_the_archive_says_no(
    world: World,
) -> None:
    """A false positive of the filter costs an archive lookup, never a refusal: a filter
    with every bit set names every round, and a new one still settles, once."""
    w = world
    deal(w, 3)
    w.services.archiver.run()
    w.clock.pass_window()
    w.services.archiver.run()
    k = w.services.groups.main.keys
    w.redis.set(k.forgotten("T1"), b"\xff" * (1 << 17))  # layer 0 full of ones
    body = round_body("by-chance", dealt_at=dealt(w.clock))
    first = w.api.report(body)
    assert first.status_code == 200 and first.get_json()["replayed"] is False
    assert w.api.report(body).get_json()["replayed"] is True


def test_a_round_dealt_before_the_window_and_never_settled_is_refused_not_settled(
    world: World,
) -> None:
    w = world
    before = w.api.meters()
    late = round_body("late", dealt_at=dealt(w.clock, RETENTION + SKEW + 1))
    answer = w.api.report(late)
    assert answer.status_code == 422, answer.get_json()
    error = answer.get_json()["error"]
    assert (error["code"], error["field"]) == ("round_expired", "dealt_at")
    assert w.api.meters() == before
    assert w.redis.exists(w.services.groups.main.keys.round("T1", "late")) == 0

    ahead = round_body("ahead", dealt_at=dealt(w.clock, -(SKEW + 2)))
    answer = w.api.report(ahead)
    assert answer.status_code == 400
    assert answer.get_json()["error"]["code"] == "in_future"
    assert w.api.meters() == before


def test_a_report_without_dealt_at_is_looked_up_before_it_is_settled(world: World) -> None:
    w = world
    [(body, answer)] = deal(w, 1)
    w.services.archiver.run()
    w.clock.pass_window()
    w.services.archiver.run()
    assert round_records(w) == 0
    undated = {k: v for k, v in body.items() if k != "dealt_at"}
    # without dealt_at the body differs, so its digest does: the round is known, a conflict
    assert w.api.report(undated).status_code == 409
    fresh = round_body("undated-new")
    settled = w.api.report(fresh)
    assert settled.status_code == 200 and settled.get_json()["replayed"] is False
    assert w.api.report(fresh).get_json()["replayed"] is True


def test_a_run_cut_short_leaves_no_gap_and_no_duplicate(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    w = world
    deal(w, 25)
    archiver = with_batch(w, 4)
    archive = w.services.archive
    real_append = archive.append_rows
    calls = 0

    def dies_on_the_third(*args: Any, **kwargs: Any) -> None:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise KeyboardInterrupt("the archiver was killed")
        real_append(*args, **kwargs)

    monkeypatch.setattr(archive, "append_rows", dies_on_the_third)
    with pytest.raises(KeyboardInterrupt):
        archiver.run()
    monkeypatch.setattr(archive, "append_rows", real_append)
    assert archive.tip(HOUSE)[0] == 8, "two whole batches of four, nothing of the third"
    assert stream_lengths(w)["house"] > 0, "nothing trimmed by the cut run"

    w.clock.pass_window()
    again = archiver.run()
    assert not again.problems
    for journal in (HOUSE, pool_journal("main")):
        seqs = [e.seq for e, _ in archive.walk(journal)]
        assert seqs == list(range(1, len(seqs) + 1)), journal
    assert stream_lengths(w) == {"house": 0, "main": 0}


def test_a_broken_chain_is_neither_archived_past_nor_trimmed(world: World) -> None:
    w = world
    deal(w, 6)
    k = w.services.groups.main.keys
    ids = [entry_id for entry_id, _ in w.redis.xrange(k.pool_journal("main"))]
    w.redis.xdel(k.pool_journal("main"), ids[3])  # someone deletes an entry by hand
    w.clock.pass_window()
    run = w.services.archiver.run()
    assert run.problems and "pool/main" in run.problems[0]
    # archived up to the break, not past it, nor the entry before it: nothing after that one
    # confirms it (had it been edited, it would still link to the one before)
    assert w.services.archive.tip(pool_journal("main"))[0] == int(ids[3].split("-")[0]) - 2
    assert w.redis.xlen(k.pool_journal("main")) == len(ids) - 1, "nothing trimmed past it"
    # the house journal's chain is whole: it is archived and trimmed as usual
    assert w.redis.xlen(k.journal) == 0
    status = w.services.archiver.status()
    assert status.last_problems >= 1 and status.last_success is None
    assert status.journals[pool_journal("main")].unarchived == len(ids) - 2


def test_long_backlogs_are_archived_side_by_side_in_processes_of_their_own(
    world: World,
) -> None:
    w = world
    rounds = deal(w, 25)
    a = w.services.groups.main.archiver
    archiver = Archiver(
        a._r, a._k, a._archive, RETENTION, SKEW, w.clock, batch=4, parallel_backlog=8
    )
    real = archiver._archive_child

    def child(*args: Any) -> None:
        w.redis.rpush("test:archiving", f"{args[0]} {os.getpid()}")  # runs in the child
        real(*args)

    archiver._archive_child = child  # type: ignore[method-assign]
    run = archiver.run()
    assert not run.problems
    assert run.rounds == 25 and set(run.archived) == {HOUSE, pool_journal("main")}
    apart = dict(item.split() for item in w.redis.lrange("test:archiving", 0, -1))
    assert set(apart) == {HOUSE, pool_journal("main")}
    assert len(set(apart.values()) | {str(os.getpid())}) == 3, "two processes of their own"
    archive = w.services.archive
    for journal in (HOUSE, pool_journal("main")):
        seqs = [e.seq for e, _ in archive.walk(journal)]
        assert seqs == list(range(1, len(seqs) + 1)), journal
        assert len(seqs) == run.archived[journal]
    assert sum(1 for _ in archive.rounds_between(0, 2**62)) == 25
    assert archiver.run().archived == {HOUSE: 0, pool_journal("main"): 0}
    w.clock.pass_window()
    archiver.run()
    assert stream_lengths(w) == {"house": 0, "main": 0} and round_records(w) == 0
    body, answer = rounds[0]
    assert w.api.report(body).get_json() == {**answer, "replayed": True}


def test_a_killed_archiving_process_loses_nothing(world: World) -> None:
    w = world
    deal(w, 25)
    a = w.services.groups.main.archiver
    archiver = Archiver(
        a._r, a._k, a._archive, RETENTION, SKEW, w.clock, batch=4, parallel_backlog=8
    )
    real = archiver._archive_child

    def dies_after_two_batches(journal: str, stream: str, send: Any) -> None:
        if journal == HOUSE:
            appended = 0
            append = archiver._archive.append_rows

            def append_then_die(*args: Any) -> None:
                nonlocal appended
                append(*args)
                appended += 1
                if appended == 2:
                    os.kill(os.getpid(), signal.SIGKILL)

            archiver._archive.append_rows = append_then_die  # type: ignore[method-assign]
        real(journal, stream, send)

    archiver._archive_child = dies_after_two_batches  # type: ignore[method-assign]
    w.clock.pass_window()
    with pytest.raises(RuntimeError, match="died"):
        archiver.run()
    archive = w.services.archive
    assert archive.tip(HOUSE)[0] == 8, "two whole batches of four, nothing of the third"
    assert stream_lengths(w)["house"] > 0, "nothing trimmed by the cut run"
    again = with_batch(w, 4).run()
    assert not again.problems
    for journal in (HOUSE, pool_journal("main")):
        seqs = [e.seq for e, _ in archive.walk(journal)]
        assert seqs == list(range(1, len(seqs) + 1)), journal
    assert stream_lengths(w) == {"house": 0, "main": 0} and round_records(w) == 0


def with_batch(w: World, batch: int) -> Archiver:
    """The world's archiver, moving `batch` entries per transaction."""
    a = w.services.groups.main.archiver
    return Archiver(a._r, a._k, a._archive, RETENTION, SKEW, w.clock, batch=batch)


def journal_page(w: World, query: str) -> Any:
    r = w.api.client.get(f"/v1/journal?{query}", headers=w.api.keys.header("auditor"))
    assert r.status_code == 200, r.get_json()
    return r.get_json()["entries"]


def test_journal_reads_see_the_archive_and_the_live_tail_as_one_sequence(world: World) -> None:
    w = world
    deal(w, 12, "old")
    whole_before = journal_page(w, "pool=main&limit=5000")
    w.services.archiver.run()
    w.clock.pass_window()
    w.services.archiver.run()  # the old rounds leave Redis
    deal(w, 5, "new")  # the live tail
    whole = journal_page(w, "pool=main&limit=5000")
    assert whole[: len(whole_before)] == whole_before, "archived entries read back unchanged"
    assert [e["seq"] for e in whole] == list(range(1, len(whole) + 1))
    # pages of 4 across the boundary add up to the whole
    paged, after = [], 0
    while page := journal_page(w, f"pool=main&limit=4&after={after}"):
        paged += page
        after = page[-1]["seq"]
    assert paged == whole

    # a time range: exactly the entries stamped inside it, from both sides of the boundary
    stamps = [e["ts"] for e in whole]
    start, end = stamps[3], stamps[-2]
    # "+00:00" written as a URL's query wants it (a bare "+" is a space there)
    iso = {
        t: quote(datetime.fromtimestamp(t / 1000, UTC).isoformat(timespec="milliseconds"))
        for t in (start, end)
    }
    ranged = journal_page(w, f"pool=main&limit=5000&from={iso[start]}&to={iso[end]}")
    assert ranged == [e for e in whole if start <= e["ts"] < end]
    house = journal_page(w, "limit=5000&table=T9")
    assert house == []


def test_a_reconciliation_after_trimming_is_the_one_before(world: World) -> None:
    w = world
    deal(w, 20, "a")
    reports = w.services.audit
    stamps = [e["ts"] for e in journal_page(w, "pool=main&limit=5000")]
    periods = [(0, 2**62), (stamps[5], stamps[15]), (stamps[-1] + 1, stamps[-1] + 10)]
    before = [reports.reconcile("main", a, b).to_json() for a, b in periods]
    w.services.archiver.run()
    w.clock.pass_window()
    w.services.archiver.run()
    assert w.redis.xlen(w.services.groups.main.keys.pool_journal("main")) == 0
    after = [reports.reconcile("main", a, b).to_json() for a, b in periods]
    assert after == before
    assert all(r["balanced"] for r in after)


def test_unknown_or_repeated_query_parameters_are_refused(world: World) -> None:
    w = world
    for query, field, code in [
        ("form=2026-11-01", "form", "unknown_parameter"),
        ("pool=main&pool=main", "pool", "repeated_parameter"),
        ("from=yesterday", "from", "invalid_time"),
        ("from=2026-11-02&to=2026-11-01", "to", "empty_range"),
    ]:
        r = w.api.client.get(f"/v1/journal?{query}", headers=w.api.keys.header("auditor"))
        assert r.status_code == 400, (query, r.get_json())
        error = r.get_json()["error"]
        assert (error["field"], error["code"]) == (field, code), query


def test_the_csv_export_escapes_text_a_spreadsheet_would_run(world: World) -> None:
    w = world
    adjust = w.api.client.post(
        "/v1/pools/main/adjustments",
        json={"id": "adj-1", "amount": 500, "target": "reserve", "reason": "=cmd|' /C calc'!A0"},
        headers=w.api.keys.header("operator"),
    )
    assert adjust.status_code in (200, 201), adjust.get_json()
    csv_text = w.api.client.get(
        "/v1/journal.csv?pool=main", headers=w.api.keys.header("auditor")
    ).get_data(as_text=True)
    assert "'=cmd|' /C calc'!A0" in csv_text
    assert ",=cmd" not in csv_text


def settled_and_archived(w: World) -> None:
    """Old rounds archived and trimmed, newer ones archived and still in Redis, and a few
    not archived yet: every place history can be."""
    deal(w, 8, "old")
    w.services.archiver.run()
    w.clock.pass_window()
    w.services.archiver.run()
    deal(w, 6, "mid")
    w.services.archiver.run()
    deal(w, 3, "new")


def findings(w: World) -> list[str]:
    return [str(f) for f in w.services.verifier.run().findings]


def test_an_untouched_history_verifies_intact(world: World) -> None:
    settled_and_archived(world)
    done = world.services.verifier.run()
    assert done.intact, done.findings
    counters = world.services.groups.main.keys.counters
    assert done.checked[HOUSE] == int(world.redis.hget(counters, "house_seq"))
    assert done.checked[pool_journal("main")] > 17


def test_deleting_the_newest_entry_is_found(world: World) -> None:
    w = world
    settled_and_archived(w)
    stream = w.services.groups.main.keys.pool_journal("main")
    [(newest, _)] = w.redis.xrevrange(stream, count=1)
    w.redis.xdel(stream, newest)
    assert any("ends at seq" in f and f.startswith("pool/main") for f in findings(w))


def test_deleting_an_entry_in_the_middle_is_found(world: World) -> None:
    w = world
    settled_and_archived(w)
    stream = w.services.groups.main.keys.journal
    ids = [i for i, _ in w.redis.xrange(stream)]
    victim = ids[-2]  # not archived yet
    w.redis.xdel(stream, victim)
    found = findings(w)
    assert any(f.startswith(f"house seq {int(victim.split('-')[0]) + 1}") for f in found), found


def test_raising_a_meter_behind_the_controllers_back_is_found(world: World) -> None:
    w = world
    settled_and_archived(w)
    w.redis.hincrby(w.services.groups.main.keys.pool("main"), "value", 10_000_000)
    assert any("changed outside the controller" in f for f in findings(w))


def test_editing_the_archive_is_found(world: World, tmp_path: Path) -> None:
    import sqlite3

    w = world
    settled_and_archived(w)
    db = sqlite3.connect(tmp_path / "var" / "archive.sqlite3")
    # the append-only triggers refuse an edit: a forger has to drop them first
    with pytest.raises(sqlite3.DatabaseError):
        db.execute("UPDATE journal_entries SET fields = '{}' WHERE seq = 2")
    triggers = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='trigger'")]
    for name in triggers:
        db.execute(f"DROP TRIGGER {name}")
    db.execute(
        "UPDATE journal_entries SET fields = replace(fields, '\"500\"', '\"5\"') "
        "WHERE journal = 'pool/main' AND seq = 3"
    )
    db.commit()
    db.close()
    assert any(f.startswith("pool/main seq 3: archived entry edited") for f in findings(w))


def test_jackpot_verify_exits_non_zero_and_names_the_place(
    world: World,
    redis_server: RedisServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from jackpot.cli.main import main

    w = world
    settled_and_archived(w)
    monkeypatch.setenv("JACKPOT_REDIS_URL", redis_server.url)
    monkeypatch.setenv("JACKPOT_DATA_DIR", str(tmp_path / "var"))
    assert main(["verify"]) == 0
    assert "intact" in capsys.readouterr().out
    today = w.services.days().of_time(w.clock()).isoformat()
    assert main(["verify", "--since", today, "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["intact"] and answer["since"] == today and answer["rounds"] == 8 + 6
    with pytest.raises(SystemExit) as refused:
        main(["verify", "--since", "yesterday"])
    assert refused.value.code == 2 and "gaming day such as" in capsys.readouterr().err
    w.redis.hincrby(w.services.groups.main.keys.pool("main"), "reserve", 1)
    assert main(["verify", "--since", today]) == 1
    out = capsys.readouterr().out
    assert f"from gaming day {today} on" in out and "TAMPERED: pool/main seq" in out


def test_text_beyond_ascii_hashes_alike_in_lua_and_python(world: World) -> None:
    w = world
    adjusted = w.api.client.post(
        "/v1/pools/main/adjustments",
        json={"id": "adj-u", "amount": 100, "reason": "Korrektur für Tisch 7 — naïve 🎰"},
        headers=w.api.keys.header("operator"),
    )
    assert adjusted.status_code == 200, adjusted.get_json()
    w.services.archiver.run()
    done = w.services.verifier.run()
    assert done.intact, done.findings


def commands_of(w: World, body: dict[str, Any]) -> list[str]:
    """The commands one report sends to Redis (as MONITOR sees them, without those a script
    runs inside its one call)."""
    seen: list[str] = []
    with w.redis.monitor() as monitor:
        w.redis.echo("start")
        while monitor.next_command()["command"] != "ECHO start":
            pass
        assert w.api.report(body).status_code == 200
        w.redis.echo("end")
        while (command := monitor.next_command())["command"] != "ECHO end":
            if command["client_type"] != "lua":
                seen.append(command["command"].split()[0].upper())
    return seen


def test_a_round_inside_the_window_is_one_script_call_and_nothing_else(
    redis: redis_lib.Redis, redis_server: RedisServer, tmp_path: Path
) -> None:
    with world_of(redis, redis_server.url, tmp_path / "var", key_cache_seconds=60.0) as w:
        deal(w, 1, "warm")  # the key is cached from here on
        dated = round_body("dated", dealt_at=dealt(w.clock))
        assert commands_of(w, dated) == ["EVALSHA"]
        # a report without dealt_at is looked up first (Redis, then the archive)
        assert commands_of(w, round_body("undated")) == ["HMGET", "EVALSHA"]


def rewrite(w: World, stream: str, entries: list[tuple[str, dict[str, str]]]) -> None:
    """The stream replaced by `entries`, ids kept (how an entry deep in it is edited)."""
    w.redis.delete(stream)
    for entry_id, fields in entries:
        w.redis.xadd(stream, fields, id=entry_id)


def test_an_entry_edited_deep_in_redis_is_never_archived_and_restoring_it_goes_on(
    on_either: World,
) -> None:
    """An edited entry still links to the one before it: the break shows at the entry after
    it. Nothing from the edited one on is archived (nor the archive's append-only rows
    touched by hand after), and putting it back lets the next run go on."""
    w = on_either
    deal(w, 120)
    stream = w.services.groups.main.keys.journal
    original = w.redis.xrange(stream)
    depth = len(original) - 92  # 92 entries from the newest: past the self-check's 64
    edited = [(i, dict(f)) for i, f in original]
    edited[depth][1]["wagered"] = str(int(edited[depth][1].get("wagered", "0")) + 100_000)
    rewrite(w, stream, edited)
    edited_seq = int(original[depth][0].split("-")[0])
    w.clock.pass_window()
    run = w.services.archiver.run()
    assert run.problems and HOUSE in run.problems[0]
    assert w.services.archive.tip(HOUSE)[0] == edited_seq - 1, "everything before it, only"
    assert w.redis.xlen(stream) == len(original), "a broken journal is not trimmed at all"
    assert not w.services.verifier.run().intact

    rewrite(w, stream, original)  # put back as it was
    again = w.services.archiver.run()
    assert again.problems == []
    assert w.services.archive.tip(HOUSE)[0] == len(original)
    assert w.services.verifier.run().intact
