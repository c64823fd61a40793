"""The adapter's SQLite journal: durable, ordered, idempotent, and loud when it cannot write."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from table_adapter.journal import Journal, JournalConflictError, JournalError, State


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
