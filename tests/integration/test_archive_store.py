"""The archive on both of its databases, a SQLite file and a real PostgreSQL server: the
schema migrates, rows read back exactly, history cannot be rewritten in place, and the
archiver loses nothing and trims nothing uncommitted when the database or Redis fails."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis as redis_lib
import sqlalchemy

from jackpot.archive.rows import ArchivedEntry, ArchivedRound
from jackpot.archive.store import Archive
from jackpot.domain.chain import GENESIS, ChainedEntry
from jackpot.domain.journals import HOUSE, pool_journal
from jackpot.errors import ArchiveUnavailableError
from tests.support.archive_world import World, deal, world_of
from tests.support.postgres_server import PostgresServer
from tests.support.redis_server import RedisServer


@pytest.fixture(params=["sqlite", "postgresql"])
def archive_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'archive.sqlite3'}"
    return str(request.getfixturevalue("postgres_url"))


@pytest.fixture
def archive(archive_url: str) -> Iterator[Archive]:
    a = Archive(archive_url)
    yield a
    a.close()


def chain(journal: str, n: int, after: tuple[int, str] = (0, GENESIS)) -> list[ArchivedEntry]:
    """`n` linked entries continuing `after` (seq, hash), with text and number fields."""
    out, (seq, head) = [], after
    for _ in range(n):
        seq += 1
        fields = (
            ("type", "contribution"),
            ("ts", str(1_763_800_000_000 + seq * 1000)),
            ("table", "T1" if seq % 2 else "T2"),
            ("round", f"r{seq}"),
            ("who", "table:ab12"),
            ("reason", '=naïve ünïcode, "quotes"\nand a newline'),
            ("value_units", str(10**15 + seq)),
        )
        entry = ChainedEntry(seq, head, fields)
        out.append(ArchivedEntry(journal, entry, entry.hash))
        head = entry.hash
    return out


def round_of(e: ArchivedEntry) -> ArchivedRound:
    static = json.dumps({"table": e.entry.get("table"), "round": e.entry.get("round")})
    return ArchivedRound(
        e.entry.get("table") or "",
        e.entry.get("round") or "",
        "d" * 64,
        static,
        '{"jackpots":[],"pools":{"main":100000}}',
        e.ts,
        "table:ab12",
        e.entry.seq,
    )


def test_the_schema_migrates_once_and_again_is_a_no_op(archive_url: str) -> None:
    first, second = Archive(archive_url), Archive(archive_url)
    first.ensure()
    first.migrate()  # again: already at head
    second.ensure()
    assert second.tip(HOUSE) == (0, "")
    inspector = sqlalchemy.inspect(first.engine)
    assert {"journal_entries", "rounds", "gaming_days"} <= set(inspector.get_table_names())
    first.close()
    second.close()


def test_processes_starting_together_migrate_a_new_archive_once(archive_url: str) -> None:
    """The controller's processes all start at once, each migrating the archive first: on a
    new database they must not create its tables together (one would fail: "already
    exists"). Each Archive here stands for a process."""
    processes = [Archive(archive_url) for _ in range(6)]
    start = threading.Barrier(len(processes))
    failures: list[BaseException] = []

    def migrate(archive: Archive) -> None:
        start.wait(timeout=30)
        try:
            archive.ensure()
        except BaseException as exc:  # noqa: BLE001 - reported by the test's thread
            failures.append(exc)

    threads = [threading.Thread(target=migrate, args=(a,), daemon=True) for a in processes]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    try:
        assert failures == []
        assert all(a.tip(HOUSE) == (0, "") for a in processes)
    finally:
        for a in processes:
            a.close()


def test_entries_and_rounds_read_back_exactly(archive: Archive) -> None:
    entries = chain(HOUSE, 7)
    archive.append(entries, [round_of(e) for e in entries])
    read = archive.entries(HOUSE, 0, 100)
    assert [e for e, _ in read] == [e.entry for e in entries]
    assert [h for _, h in read] == [e.hash for e in entries]
    assert all(e.hash == h for e, h in read), "content hashes to what was stored"
    assert archive.tip(HOUSE) == (7, entries[-1].hash)
    found = archive.round("T1", "r3")
    assert found is not None and found.house_seq == 3 and found.digest == "d" * 64
    assert archive.round("T1", "r2") is None  # r2 was at T2
    # filters: after, limit, until, time, table
    assert [e.seq for e, _ in archive.entries(HOUSE, 2, 3)] == [3, 4, 5]
    assert [e.seq for e, _ in archive.entries(HOUSE, 0, 10, until_seq=2)] == [1, 2]
    ts = [e.ts for e in entries]
    assert [e.seq for e, _ in archive.entries(HOUSE, 0, 10, from_ts=ts[2], to_ts=ts[5])] == [
        3,
        4,
        5,
    ]
    assert [e.seq for e, _ in archive.entries(HOUSE, 0, 10, table="T2")] == [2, 4, 6]
    assert archive.first_seq_at(HOUSE, ts[4]) == 5
    last = archive.last_before(HOUSE, ts[4])
    assert last is not None and last[0].seq == 4


def test_time_bounded_reads_take_ties_and_bounds_exactly(archive: Archive) -> None:
    """Stamps rise with seq but repeat within a millisecond: a read bounded by time finds its
    ends by the time index and takes every entry of a tied stamp, on the right side."""
    base = 1_763_800_000_000
    stamps = [base, base, base + 5, base + 5, base + 5, base + 9, base + 9, base + 12]
    kinds = ["round", "contribution", "round", "round", "contribution", "round", "round", "round"]
    out, head = [], GENESIS
    for seq, (ts, kind) in enumerate(zip(stamps, kinds, strict=True), start=1):
        entry = ChainedEntry(seq, head, (("type", kind), ("ts", str(ts)), ("round", f"r{seq}")))
        out.append(ArchivedEntry(HOUSE, entry, entry.hash))
        head = entry.hash
    archive.append(out, [])

    def rounds(from_ts: int | None, to_ts: int | None) -> list[int]:
        return [seq for seq, _ in archive.round_entries(HOUSE, from_ts, to_ts)]

    assert rounds(None, None) == [1, 3, 4, 6, 7, 8]
    assert rounds(base + 5, base + 9) == [3, 4]
    assert rounds(base + 1, base + 10) == [3, 4, 6, 7]
    assert rounds(base + 9, None) == [6, 7, 8]
    assert rounds(None, base + 5) == [1]
    assert rounds(base + 13, None) == []  # nothing that recent
    assert rounds(base - 10, base) == []  # nothing that old
    assert [e.seq for e in archive.entries_of_type(HOUSE, "contribution", base + 1)] == [5]

    def last(ts: int) -> int | None:
        found = archive.last_before(HOUSE, ts)
        return None if found is None else found[0].seq

    assert last(base + 9) == 5  # the last of the tied stamp before it
    assert last(base + 6) == 5
    assert last(base + 5) == 2
    assert last(base) is None
    assert last(base + 100) == 8
    assert archive.first_seq_at(HOUSE, base + 5) == 3
    assert archive.first_seq_at(HOUSE, base + 13) is None


def test_a_batch_is_all_or_nothing_and_never_twice(archive: Archive) -> None:
    first = chain(pool_journal("main"), 5)
    archive.append(first, [])
    following = chain(pool_journal("main"), 5, after=(5, first[-1].hash))
    with pytest.raises(ArchiveUnavailableError):
        # the second batch again with one entry of the first: refused whole
        archive.append([first[-1], *following], [])
    assert archive.tip(pool_journal("main"))[0] == 5
    archive.append(following, [])
    assert [e.seq for e, _ in archive.walk(pool_journal("main"))] == list(range(1, 11))


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE journal_entries SET fields = '{}'",
        "DELETE FROM journal_entries",
        "UPDATE rounds SET digest = 'x'",
        "DELETE FROM rounds",
    ],
)
def test_the_database_refuses_to_rewrite_history(archive: Archive, statement: str) -> None:
    entries = chain(HOUSE, 3)
    archive.append(entries, [round_of(e) for e in entries])
    with pytest.raises(sqlalchemy.exc.DatabaseError), archive.engine.begin() as connection:
        connection.execute(sqlalchemy.text(statement))
    assert [e.seq for e, _ in archive.walk(HOUSE)] == [1, 2, 3]
    assert archive.round("T1", "r1") is not None


def test_a_stopped_postgres_is_unavailable_then_back(
    postgres_server: PostgresServer, postgres_url: str
) -> None:
    archive = Archive(postgres_url)
    archive.append(chain(HOUSE, 2), [])
    postgres_server.stop()
    try:
        with pytest.raises(ArchiveUnavailableError):
            archive.tip(HOUSE)
        with pytest.raises(ArchiveUnavailableError):
            archive.append(chain(HOUSE, 2), [])
    finally:
        postgres_server.start()
    assert archive.tip(HOUSE)[0] == 2
    archive.close()


# --- the archiver over each database, and its faults -----------------------------------------


@pytest.fixture
def world(
    redis: redis_lib.Redis, redis_server: RedisServer, archive_url: str, tmp_path: Path
) -> Iterator[World]:
    with world_of(redis, redis_server.url, tmp_path / "var", archive_url=archive_url) as w:
        yield w


def in_redis(w: World) -> dict[str, int]:
    k = w.services.groups.main.keys
    return {
        "house": w.redis.xlen(k.journal),
        "main": w.redis.xlen(k.pool_journal("main")),
        "rounds": sum(1 for _ in w.redis.scan_iter(match=k.round("*", "*"))),
    }


def whole(w: World) -> None:
    """Every journal archived once, without a gap, and equal to what was written."""
    for journal in (HOUSE, pool_journal("main")):
        seqs = [e.seq for e, _ in w.services.archive.walk(journal)]
        assert seqs == list(range(1, len(seqs) + 1)), journal
    assert w.services.verifier.run().intact


def test_the_archiver_moves_history_and_old_resends_are_answered(world: World) -> None:
    w = world
    rounds = deal(w, 25)
    w.services.archiver.run()
    w.clock.pass_window()
    w.services.archiver.run()
    assert in_redis(w) == {"house": 0, "main": 0, "rounds": 0}
    for body, answer in rounds[:5]:
        assert w.api.report(body).get_json() == {**answer, "replayed": True}
    whole(w)


def test_an_archive_refusing_writes_trims_nothing(world: World, archive_url: str) -> None:
    w = world
    deal(w, 12)
    w.services.archive.ensure()
    before = in_redis(w)
    w.clock.pass_window()
    real = w.services.archive.append_rows

    def full(*args: Any, **kwargs: Any) -> None:
        raise ArchiveUnavailableError("archive write failed: could not extend file: No space")

    w.services.archive.append_rows = full  # type: ignore[method-assign]
    with pytest.raises(ArchiveUnavailableError):
        w.services.archiver.run()
    assert in_redis(w) == before, "nothing trimmed that the archive did not commit"
    w.services.archive.append_rows = real  # type: ignore[method-assign]
    w.services.archiver.run()
    assert in_redis(w) == {"house": 0, "main": 0, "rounds": 0}
    whole(w)


def test_postgres_down_during_archiving_loses_nothing(
    redis: redis_lib.Redis,
    redis_server: RedisServer,
    postgres_server: PostgresServer,
    postgres_url: str,
    tmp_path: Path,
) -> None:
    with world_of(redis, redis_server.url, tmp_path / "var", archive_url=postgres_url) as w:
        deal(w, 10)
        w.services.archiver.run()
        deal(w, 10, "late")
        postgres_server.kill()
        try:
            w.clock.pass_window()
            with pytest.raises(ArchiveUnavailableError):
                w.services.archiver.run()
            # rounds keep settling while the archive is away
            deal(w, 5, "during")
            assert in_redis(w)["rounds"] == 25
        finally:
            postgres_server.start()
        w.clock.pass_window()
        w.services.archiver.run()
        assert in_redis(w) == {"house": 0, "main": 0, "rounds": 0}
        whole(w)


def test_a_redis_restart_during_archiving_loses_nothing(
    world: World, redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from jackpot.archive.archiver import Archiver

    w = world
    deal(w, 30)
    a = w.services.groups.main.archiver
    archiver = Archiver(a._r, a._k, a._archive, 60, 5, w.clock, batch=8)
    real = w.services.archive.append_rows
    calls = 0

    def restart_redis_after_the_second(*args: Any, **kwargs: Any) -> None:
        nonlocal calls
        real(*args, **kwargs)
        calls += 1
        if calls == 2:
            redis_server.kill()
            redis_server.start()

    monkeypatch.setattr(w.services.archive, "append_rows", restart_redis_after_the_second)
    w.clock.pass_window()
    try:
        archiver.run()
    except (redis_lib.RedisError, OSError):
        pass  # the run may stop where Redis went away; the next one resumes
    monkeypatch.setattr(w.services.archive, "append_rows", real)
    w.redis.delete(a._k.archive_lock)  # the interrupted run's lock, as if it had expired
    archiver.run()
    assert in_redis(w) == {"house": 0, "main": 0, "rounds": 0}
    whole(w)


def test_a_resend_during_an_archive_outage_names_no_host_or_port(
    redis: redis_lib.Redis,
    redis_server: RedisServer,
    postgres_server: PostgresServer,
    postgres_url: str,
    tmp_path: Path,
) -> None:
    """A resent round that left Redis is looked up in the archive; with the archive down the
    answer is a 503 to resend later, and it names no database host, port or user."""
    with world_of(redis, redis_server.url, tmp_path / "var", archive_url=postgres_url) as w:
        [(body, _)] = deal(w, 1)
        w.services.archiver.run()
        w.clock.pass_window()
        w.services.archiver.run()
        assert in_redis(w)["rounds"] == 0
        body.pop("dealt_at", None)  # so that the archive is asked
        postgres_server.stop()
        try:
            r = w.api.report(body)
        finally:
            postgres_server.start()
    assert r.status_code == 503, r.get_json()
    message = r.get_json()["error"]["message"]
    assert "the archive did not answer" in message
    address = postgres_url.split("@")[-1].split("/")[0]  # host:port
    for secret in (address, address.split(":")[-1], "postgres", "127.0.0.1"):
        assert secret not in message, message
