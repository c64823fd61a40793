"""The adapter's SQLite journal: durable, ordered, idempotent, and loud when it cannot write."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from jackpot.domain.tablecounts import DayCounts
from table_adapter.link.journal import (
    SCHEMA_VERSION,
    Counts,
    DayCount,
    Journal,
    JournalConflictError,
    JournalError,
    State,
)


class FullDisk:
    """A connection whose writes fail as SQLite fails on a full disk."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def execute(self, sql: str, *args: Any) -> Any:
        if sql.lstrip().upper().startswith(("INSERT", "UPDATE")):
            raise sqlite3.OperationalError("database or disk is full")
        return self.db.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.db, name)


@pytest.fixture
def journal(tmp_path: Path) -> Any:
    with Journal(tmp_path / "j.sqlite") as j:
        yield j


def test_the_journal_commits_in_wal_mode_with_full_sync(journal: Journal) -> None:
    db = journal._db
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_reports_are_kept_in_order_per_table_and_survive_a_reopen(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    with Journal(path) as j:
        for n in range(3):
            j.append("T1", f"r{n}", f'{{"n":{n}}}', 1000 + n)
            j.append("T2", f"r{n}", f'{{"m":{n}}}', 2000 + n)
    with Journal(path) as j:
        assert [e.round for e in j.pending("T1")] == ["r0", "r1", "r2"]
        assert j.tables_with_pending() == ["T1", "T2"]
        head = j.next_pending("T2")
        assert head is not None and head.body == '{"m":0}' and head.state is State.PENDING
        assert j.counts().pending == 6


def test_the_same_report_again_is_the_first_and_another_body_is_refused(
    journal: Journal,
) -> None:
    first = journal.append("T1", "r1", '{"a":1}', 1)
    assert journal.append("T1", "r1", '{"a":1}', 2) == first
    with pytest.raises(JournalConflictError):
        journal.append("T1", "r1", '{"a":2}', 3)
    assert journal.counts().pending == 1


def test_settling_records_the_answer_and_moves_the_head(journal: Journal) -> None:
    a = journal.append("T1", "r1", "{}", 1)
    journal.append("T1", "r2", "{}", 2)
    journal.failed_attempt(a.seq, "ConnectError: refused")
    done = journal.settle(a.seq, State.ACKED, 200, '{"ok":true}', 5)
    assert (done.state, done.status, done.answer, done.attempts) == (
        State.ACKED,
        200,
        '{"ok":true}',
        2,
    )
    assert done.last_error == "ConnectError: refused"
    head = journal.next_pending("T1")
    assert head is not None and head.round == "r2"
    # settling twice changes nothing: the first answer stands
    again = journal.settle(a.seq, State.REJECTED, 400, "{}", 6)
    assert again.state is State.ACKED


def test_a_rejected_report_can_be_requeued_by_an_operator(journal: Journal) -> None:
    e = journal.append("T1", "r1", "{}", 1)
    journal.settle(e.seq, State.REJECTED, 409, '{"error":{}}', 2)
    assert journal.counts().rejected == 1
    assert journal.requeue(e.seq).state is State.PENDING
    assert journal.counts().pending == 1


def test_a_full_disk_is_a_journal_error_and_keeps_nothing(journal: Journal) -> None:
    journal.append("T1", "r1", "{}", 1)
    journal._db = FullDisk(journal._db)
    with pytest.raises(JournalError, match="disk is full"):
        journal.append("T1", "r2", "{}", 2)
    with pytest.raises(JournalError, match="disk is full"):
        journal.settle(1, State.ACKED, 200, "{}", 3)
    journal._db = journal._db.db
    assert [e.round for e in journal.entries()] == ["r1"]
    assert journal.entries()[0].state is State.PENDING


def test_a_read_only_journal_refuses_writes(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    Journal(path).close()
    with Journal(path) as j:
        writable = j._db
        j._db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
        try:
            with pytest.raises(JournalError, match="readonly"):
                j.append("T1", "r1", "{}", 1)
        finally:
            j._db.close()
            j._db = writable


def test_an_unopenable_journal_is_a_journal_error(tmp_path: Path) -> None:
    (tmp_path / "dir.sqlite").mkdir()
    with pytest.raises(JournalError):
        Journal(tmp_path / "dir.sqlite")


# The schema as the first adapter version wrote it (user_version 1): no `quarantined` state.
VERSION_1 = """
CREATE TABLE IF NOT EXISTS reports (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    tbl        TEXT NOT NULL,
    round      TEXT NOT NULL,
    body       TEXT NOT NULL,          -- the exact JSON text sent, resent byte for byte
    state      TEXT NOT NULL DEFAULT 'pending'
               CHECK (state IN ('pending', 'acked', 'rejected')),
    attempts   INTEGER NOT NULL DEFAULT 0,
    created_ms INTEGER NOT NULL,
    settled_ms INTEGER,
    status     INTEGER,                -- HTTP status of the answer that settled it
    answer     TEXT,                   -- the controller's answer, or its error body
    last_error TEXT,
    UNIQUE (tbl, round)
);
CREATE INDEX IF NOT EXISTS pending_by_table ON reports (tbl, seq) WHERE state = 'pending';
PRAGMA user_version=1;
"""


def version_1_journal(path: Path) -> None:
    """A journal left by the first adapter version: settled and pending reports, one gap."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.executescript(VERSION_1)
    rows = [
        ("T1", "r1", '{"n":1}', "acked", 1, 10, 11, 200, '{"ok":1}', None),
        ("T1", "r2", '{"n":2}', "rejected", 1, 20, 21, 400, '{"error":{}}', None),
        ("T2", "r1", '{"m":1}', "pending", 3, 30, None, None, None, "HTTP 503"),
        ("T1", "gone", "{}", "pending", 0, 40, None, None, None, None),
        ("T1", "r3", '{"n":3}', "pending", 0, 50, None, None, None, None),
    ]
    db.executemany(
        "INSERT INTO reports (tbl, round, body, state, attempts, created_ms, settled_ms,"
        " status, answer, last_error) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    db.execute("DELETE FROM reports WHERE round = 'gone'")  # seq 4 is never to be reused
    db.close()


def test_a_version_1_journal_is_migrated_and_keeps_every_report(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    version_1_journal(path)
    with Journal(path) as j:
        entries = j.entries()
        assert [(e.seq, e.table, e.round, e.state) for e in entries] == [
            (1, "T1", "r1", State.ACKED),
            (2, "T1", "r2", State.REJECTED),
            (3, "T2", "r1", State.PENDING),
            (5, "T1", "r3", State.PENDING),
        ]
        assert (entries[0].answer, entries[0].status, entries[0].settled_ms) == (
            '{"ok":1}',
            200,
            11,
        )
        assert (entries[2].attempts, entries[2].last_error) == (3, "HTTP 503")
        assert j._db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 4
        assert j.day_counts("T1") == [], "counted from the upgrade on"
        assert j.irregularities() == [], "kept from the upgrade on"
        index = "SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'pending_by_table'"
        assert j._db.execute(index).fetchone() is not None
        assert j.tables_with_pending() == ["T2", "T1"]
        # the new state is allowed, seq numbers go on after the old last one
        head = j.next_pending("T1")
        assert head is not None and head.round == "r3"
        assert j.settle(head.seq, State.QUARANTINED, 422, '{"error":{}}', 60).state is (
            State.QUARANTINED
        )
        assert j.append("T1", "r4", '{"n":4}', 70).seq == 6
        assert j.counts() == Counts(pending=2, acked=1, rejected=1, quarantined=1)
        with pytest.raises(sqlite3.IntegrityError):  # the CHECK constraint still holds
            j._db.execute("UPDATE reports SET state = 'lost' WHERE seq = 1")
    with Journal(path) as j:  # opening a migrated journal again changes nothing
        assert j.counts() == Counts(pending=2, acked=1, rejected=1, quarantined=1)
        assert j.append("T2", "r2", "{}", 80).seq == 7


def test_a_journal_from_a_newer_adapter_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite"
    Journal(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(JournalError, match="newer"):
        Journal(path)
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1
    db.close()


def test_a_quarantined_report_is_kept_apart_with_its_answer_and_can_be_requeued(
    journal: Journal,
) -> None:
    e = journal.append("T1", "r1", "{}", 1)
    journal.append("T1", "r2", "{}", 2)
    answer = '{"error":{"code":"round_expired","message":"...","field":"dealt_at"}}'
    done = journal.settle(e.seq, State.QUARANTINED, 422, answer, 3)
    assert (done.state, done.status, done.answer) == (State.QUARANTINED, 422, answer)
    assert [x.round for x in journal.pending("T1")] == ["r2"], "it does not block the table"
    assert [x.round for x in journal.entries(State.QUARANTINED)] == ["r1"]
    assert journal.counts("T1") == Counts(pending=1, quarantined=1)
    assert journal.requeue(e.seq).state is State.PENDING
    assert [x.round for x in journal.pending("T1")] == ["r1", "r2"]


def test_an_acknowledgement_is_counted_in_its_day_once_with_it(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.sqlite") as j:
        for r in ("a", "b", "c"):
            j.append("T1", r, "{}", 1)
        day = DayCount("2026-11-27", 500, DayCounts(rounds=1, side_bets=2, handle=700, fixed=100))
        j.settle(1, State.ACKED, 200, "{}", 2, day)
        j.settle(1, State.ACKED, 200, "{}", 3, day)  # settled already: not counted twice
        j.settle(
            2, State.ACKED, 200, "{}", 4, DayCount("2026-11-27", 400, DayCounts(rounds=1, envy=5))
        )
        j.settle(3, State.ACKED, 200, "{}", 5, DayCount("2026-11-28", 900, DayCounts(voids=1)))
        assert j.day_counts("T1") == [
            DayCount("2026-11-28", 900, DayCounts(voids=1)),
            DayCount(
                "2026-11-27", 500, DayCounts(rounds=2, side_bets=2, handle=700, fixed=100, envy=5)
            ),
        ]
        assert j.day_counts("T2") == []


def test_irregularities_are_journaled_with_their_round_once(tmp_path: Path) -> None:
    face_up = {"kind": "face_up_card", "card": "8d", "consequence": "not used"}
    burn = {"kind": "forgotten_burn", "consequence": "the hand continues"}
    with Journal(tmp_path / "j.sqlite") as j:
        j.append("T1", "r1", '{"n":1}', 10, [face_up, burn])
        j.append("T1", "r1", '{"n":1}', 11, [face_up, burn])  # the same report again
        j.note("T1", "r2", [{"kind": "face_up_cards", "consequence": "all hands void"}], 20)
        j.note("T1", "r2", [{"kind": "face_up_cards", "consequence": "all hands void"}], 21)
        j.append("T2", "r1", '{"n":1}', 30)
        noted = j.irregularities()
        assert [(n.table, n.round, n.kind, n.created_ms) for n in noted] == [
            ("T1", "r1", "face_up_card", 10),
            ("T1", "r1", "forgotten_burn", 10),
            ("T1", "r2", "face_up_cards", 20),
        ]
        assert noted[0].body == face_up
        assert j.irregularities("T2") == []
