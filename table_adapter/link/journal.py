"""The adapter's durable journal of round reports: SQLite (WAL, synchronous=FULL).

A report is committed here before it is sent, and stays `pending` until the controller
answers it: `acked` (with the controller's answer), `rejected` (a defect the controller
refused, with its error) or `quarantined` (refused for when it was dealt: before the
controller's retention window, or ahead of its clock; with its error, for an operator).
Reports are replayed strictly in `seq` order per table and are unique by (table, round), so
a restarted adapter resends exactly what it had not settled.

A void of a round the table reported (docs/RULES.md §6) is journaled and delivered the same
way, after the round's report, under the key `<round>/void/<spots>` (`all` for the round
whole): round ids never hold a `/`, so the key is the void's own, and the same void asked
twice is journaled once.

Every irregularity of a round (table_adapter.game.irregularities) is kept in
`irregularities`, committed with the round's report, or alone for a round whose hands were all
void while it was dealt (never reported): the table's own record of what went wrong and what
the rule made of it, for the supervisor and the auditor. They are not sent.

The schema's version is SQLite's `user_version`; an older file is migrated when opened
(MIGRATIONS), in one transaction, so an old journal opens and keeps its reports.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from jackpot.domain.tablecounts import FIGURES, DayCounts  # what the controller compares
from table_adapter.errors import TableAdapterError

SCHEMA_VERSION = 4
STATES = "'pending', 'acked', 'rejected', 'quarantined'"
TABLE = """
CREATE TABLE {name} (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    tbl        TEXT NOT NULL,
    round      TEXT NOT NULL,
    body       TEXT NOT NULL,          -- the exact JSON text sent, resent byte for byte
    state      TEXT NOT NULL DEFAULT 'pending'
               CHECK (state IN ({states})),
    attempts   INTEGER NOT NULL DEFAULT 0,
    created_ms INTEGER NOT NULL,
    settled_ms INTEGER,
    status     INTEGER,                -- HTTP status of the answer that settled it
    answer     TEXT,                   -- the controller's answer, or its error body
    last_error TEXT,
    UNIQUE (tbl, round)
)"""
INDEX = "CREATE INDEX IF NOT EXISTS pending_by_table ON reports (tbl, seq) WHERE state = 'pending'"
# What the controller acknowledged to each table, per gaming day of the controller's, counted
# in the same transaction as the acknowledgement it counts (so once, and never lost): what
# the table reports for the controller to compare with its own (POST /v1/tables/{t}/counts).
DAY_COUNTS = f"""
CREATE TABLE IF NOT EXISTS day_counts (
    tbl     TEXT NOT NULL,
    day     TEXT NOT NULL,             -- the controller's gaming day, YYYY-MM-DD
    {", ".join(f"{name} INTEGER NOT NULL DEFAULT 0" for name in FIGURES)},
    through INTEGER NOT NULL DEFAULT 0, -- the controller's stamp of the last one counted
    PRIMARY KEY (tbl, day)
)"""
IRREGULARITIES = """
CREATE TABLE IF NOT EXISTS irregularities (
    tbl        TEXT NOT NULL,
    round      TEXT NOT NULL,
    n          INTEGER NOT NULL,       -- its place among the round's, from 0
    kind       TEXT NOT NULL,
    body       TEXT NOT NULL,          -- the irregularity as JSON, its consequence in words
    created_ms INTEGER NOT NULL,
    PRIMARY KEY (tbl, round, n)
)"""
COLUMNS = (
    "seq, tbl, round, body, state, attempts, created_ms, settled_ms, status, answer, last_error"
)


VOID_MARK = "/void/"


def void_key(round_id: str, spots: tuple[int, ...] | None) -> str:
    """The journal key of a void of `round_id` (its spots; None: the round whole)."""
    return f"{round_id}{VOID_MARK}{'all' if spots is None else ','.join(map(str, sorted(spots)))}"


class JournalError(TableAdapterError):
    """The journal cannot be read or written (full disk, I/O error): deal no more rounds."""


class JournalConflictError(JournalError):
    """A different report under a (table, round) already journaled."""


class State(StrEnum):
    """Where a journaled report stands."""

    PENDING = "pending"
    ACKED = "acked"
    REJECTED = "rejected"
    QUARANTINED = "quarantined"  # refused for when it was dealt: an operator must look at it


@dataclass(frozen=True, slots=True)
class Entry:
    """One journaled report."""

    seq: int
    table: str
    round: str
    body: str
    state: State
    attempts: int
    created_ms: int
    settled_ms: int | None = None
    status: int | None = None
    answer: str | None = None
    last_error: str | None = None

    @property
    def void_of(self) -> str | None:
        """The round this entry voids; None for a round report."""
        round_id, mark, _ = self.round.partition(VOID_MARK)
        return round_id if mark else None


@dataclass(frozen=True, slots=True)
class DayCount:
    """What the controller acknowledged to a table in one of its gaming days (the figures the
    controller compares them by, cents), up to `through`, the controller's stamp of the last
    thing counted."""

    day: str
    through: int = 0
    counts: DayCounts = DayCounts()

    def to_json(self) -> dict[str, str | int]:
        return {"day": self.day, **self.counts.to_json(), "through": self.through}


@dataclass(frozen=True, slots=True)
class Noted:
    """An irregularity as journaled: the round it happened in and its JSON."""

    table: str
    round: str
    kind: str
    body: dict[str, Any]
    created_ms: int


@dataclass(frozen=True, slots=True)
class Counts:
    """Reports per state."""

    pending: int = 0
    acked: int = 0
    rejected: int = 0
    quarantined: int = 0


class Journal:
    """The SQLite journal; safe to share between a table's dealer and sender threads."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._lock = threading.Lock()
        try:
            db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=30.0)
        except sqlite3.Error as exc:
            raise JournalError(f"cannot open the journal {path}: {exc}") from exc
        self._db: Any = db  # Any: tests swap in a failing stand-in
        try:
            db.execute("PRAGMA journal_mode=WAL")
            # FULL: a commit is on disk before a report leaves; a power cut loses nothing.
            db.execute("PRAGMA synchronous=FULL")
            _prepare(db, path)
        except sqlite3.Error as exc:
            db.close()
            raise JournalError(f"cannot prepare the journal {path}: {exc}") from exc
        except JournalError:
            db.close()
            raise

    def close(self) -> None:
        """Close the connection (a checkpoint folds the WAL back into the file)."""
        with self._lock:
            self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _tx(self) -> Iterator[Any]:
        """One immediate transaction; any SQLite failure becomes a JournalError."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise JournalError(f"journal {self.path}: {exc}") from exc

    def append(
        self,
        table: str,
        round_id: str,
        body: str,
        now_ms: int,
        irregularities: Sequence[dict[str, Any]] = (),
    ) -> Entry:
        """Journal a report with its round's irregularities (committed on return); the same
        report again returns the first."""
        with self._tx() as db:
            added = db.execute(
                "INSERT INTO reports (tbl, round, body, created_ms) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (tbl, round) DO NOTHING",
                (table, round_id, body, now_ms),
            ).rowcount
            if added and irregularities:
                # a void's irregularity is the round's: numbered after those it was dealt with
                of = round_id.partition(VOID_MARK)[0]
                (after,) = db.execute(
                    "SELECT COUNT(*) FROM irregularities WHERE tbl = ? AND round = ?", (table, of)
                ).fetchone()
                _note(db, table, of, irregularities, now_ms, int(after))
            row = db.execute(
                f"SELECT {COLUMNS} FROM reports WHERE tbl = ? AND round = ?", (table, round_id)
            ).fetchone()
        entry = _entry(row)
        if entry.body != body:
            raise JournalConflictError(
                f"round {round_id!r} of table {table!r} is already journaled with another body"
            )
        return entry

    def note(
        self, table: str, round_id: str, irregularities: Sequence[dict[str, Any]], now_ms: int
    ) -> None:
        """Journal the irregularities of a round that is not reported (its hands all void);
        the same round's again are kept once."""
        with self._tx() as db:
            _note(db, table, round_id, irregularities, now_ms)

    def irregularities(self, table: str | None = None) -> list[Noted]:
        """The irregularities journaled, of one table or all, in the order they happened."""
        where, args = ("WHERE tbl = ?", (table,)) if table is not None else ("", ())
        with self._read() as db:
            rows = db.execute(
                f"SELECT tbl, round, kind, body, created_ms FROM irregularities {where}"
                " ORDER BY created_ms, tbl, round, n",
                args,
            ).fetchall()
        return [Noted(str(t), str(r), str(k), json.loads(b), int(c)) for t, r, k, b, c in rows]

    def find(self, table: str, round_id: str) -> Entry | None:
        """The entry journaled under (table, round), if any."""
        rows = self._select("WHERE tbl = ? AND round = ?", (table, round_id))
        return rows[0] if rows else None

    def next_pending(self, table: str) -> Entry | None:
        """The table's oldest unsettled report."""
        rows = self._select("WHERE tbl = ? AND state = 'pending' ORDER BY seq LIMIT 1", (table,))
        return rows[0] if rows else None

    def pending(self, table: str | None = None) -> list[Entry]:
        """Unsettled reports in order, of one table or all."""
        if table is None:
            return self._select("WHERE state = 'pending' ORDER BY seq", ())
        return self._select("WHERE tbl = ? AND state = 'pending' ORDER BY seq", (table,))

    def entries(self, state: State | None = None) -> list[Entry]:
        """Every report (or those in `state`) in journal order."""
        if state is None:
            return self._select("ORDER BY seq", ())
        return self._select("WHERE state = ? ORDER BY seq", (state.value,))

    def get(self, seq: int) -> Entry:
        """The report journaled as `seq`."""
        rows = self._select("WHERE seq = ?", (seq,))
        if not rows:
            raise KeyError(seq)
        return rows[0]

    def tables_with_pending(self) -> list[str]:
        """Tables that have unsettled reports, in the order of their oldest one."""
        with self._read() as db:
            rows = db.execute(
                "SELECT tbl FROM reports WHERE state = 'pending' GROUP BY tbl ORDER BY MIN(seq)"
            ).fetchall()
        return [str(r[0]) for r in rows]

    def counts(self, table: str | None = None) -> Counts:
        """How many reports are in each state."""
        where, args = ("WHERE tbl = ?", (table,)) if table is not None else ("", ())
        with self._read() as db:
            rows = db.execute(
                f"SELECT state, COUNT(*) FROM reports {where} GROUP BY state", args
            ).fetchall()
        return Counts(**{str(state): int(n) for state, n in rows})

    def settle(
        self,
        seq: int,
        state: State,
        status: int,
        answer: str,
        now_ms: int,
        counted: DayCount | None = None,
    ) -> Entry:
        """Record the controller's final answer to a pending report, and add what it
        acknowledged to the table's counts of its day (`counted`), in one transaction."""
        if state is State.PENDING:
            raise ValueError("settle to acked, rejected or quarantined")
        with self._tx() as db:
            done = db.execute(
                "UPDATE reports SET state = ?, status = ?, answer = ?, settled_ms = ?,"
                " attempts = attempts + 1 WHERE seq = ? AND state = 'pending'",
                (state.value, status, answer, now_ms, seq),
            ).rowcount
            row = db.execute(f"SELECT {COLUMNS} FROM reports WHERE seq = ?", (seq,)).fetchone()
            if done and counted is not None:
                names = ", ".join(FIGURES)
                adds = ", ".join(f"{n} = {n} + excluded.{n}" for n in FIGURES)
                db.execute(
                    f"INSERT INTO day_counts (tbl, day, {names}, through)"
                    f" VALUES (?, ?, {', '.join('?' for _ in FIGURES)}, ?)"
                    f" ON CONFLICT (tbl, day) DO UPDATE SET {adds},"
                    " through = MAX(through, excluded.through)",
                    (
                        row[1],
                        counted.day,
                        *(getattr(counted.counts, n) for n in FIGURES),
                        counted.through,
                    ),
                )
        return _entry(row)

    def day_counts(self, table: str, days: int = 2) -> list[DayCount]:
        """The table's counts of its latest `days` gaming days, newest first."""
        with self._read() as db:
            rows = db.execute(
                f"SELECT day, through, {', '.join(FIGURES)} FROM day_counts WHERE tbl = ?"
                " ORDER BY day DESC LIMIT ?",
                (table, days),
            ).fetchall()
        return [DayCount(str(r[0]), int(r[1]), DayCounts(*(int(v) for v in r[2:]))) for r in rows]

    def failed_attempt(self, seq: int, error: str) -> None:
        """Count an attempt that settled nothing (timeout, 5xx, unparseable answer)."""
        with self._tx() as db:
            db.execute(
                "UPDATE reports SET attempts = attempts + 1, last_error = ? WHERE seq = ?",
                (error[:500], seq),
            )

    def requeue(self, seq: int) -> Entry:
        """Put a rejected or quarantined report back to pending (an operator's decision after
        a fix); it is resent as journaled, byte for byte."""
        with self._tx() as db:
            db.execute(
                "UPDATE reports SET state = 'pending', settled_ms = NULL"
                " WHERE seq = ? AND state IN ('rejected', 'quarantined')",
                (seq,),
            )
            row = db.execute(f"SELECT {COLUMNS} FROM reports WHERE seq = ?", (seq,)).fetchone()
        if row is None:
            raise KeyError(seq)
        return _entry(row)

    @contextmanager
    def _read(self) -> Iterator[Any]:
        with self._lock:
            try:
                yield self._db
            except sqlite3.Error as exc:
                raise JournalError(f"journal {self.path}: {exc}") from exc

    def _select(self, clause: str, args: tuple[Any, ...]) -> list[Entry]:
        with self._read() as db:
            rows = db.execute(f"SELECT {COLUMNS} FROM reports {clause}", args).fetchall()
        return [_entry(r) for r in rows]


def _prepare(db: Any, path: Path) -> None:
    """Create the schema in a new file, or migrate an older one to SCHEMA_VERSION."""
    db.execute("BEGIN IMMEDIATE")
    try:
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        exists = db.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'reports'"
        ).fetchone()
        if version > SCHEMA_VERSION:
            raise JournalError(
                f"the journal {path} has schema version {version}, newer than this adapter's "
                f"{SCHEMA_VERSION}: run the adapter version that wrote it"
            )
        if not exists:
            db.execute(TABLE.format(name="reports", states=STATES))
            db.execute(DAY_COUNTS)
            db.execute(IRREGULARITIES)
        else:
            for step in range(max(version, 1), SCHEMA_VERSION):
                MIGRATIONS[step](db)
        db.execute(INDEX)
        db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise


def _add_quarantined(db: Any) -> None:
    """Version 1 to 2: the `quarantined` state. SQLite cannot alter a CHECK constraint, so the
    table is rebuilt with every row, its seq numbers and its AUTOINCREMENT counter kept."""
    counter = db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'reports'").fetchone()
    db.execute(TABLE.format(name="reports_v2", states=STATES))
    db.execute(f"INSERT INTO reports_v2 ({COLUMNS}) SELECT {COLUMNS} FROM reports ORDER BY seq")
    db.execute("DROP TABLE reports")  # its index goes with it; _prepare makes it again
    db.execute("ALTER TABLE reports_v2 RENAME TO reports")
    if counter is not None:  # new seq numbers go on from the old table's last one
        db.execute("DELETE FROM sqlite_sequence WHERE name = 'reports'")
        db.execute("INSERT INTO sqlite_sequence (name, seq) VALUES ('reports', ?)", (counter[0],))


def _add_day_counts(db: Any) -> None:
    """Version 2 to 3: the tables' counts per gaming day (from now on: what was acknowledged
    before is not counted, so the day of the upgrade may differ from the controller's)."""
    db.execute(DAY_COUNTS)


def _add_irregularities(db: Any) -> None:
    """Version 3 to 4: the rounds' irregularities (from now on)."""
    db.execute(IRREGULARITIES)


# MIGRATIONS[n] takes a journal from schema version n to n + 1 (inside _prepare's transaction).
MIGRATIONS = {1: _add_quarantined, 2: _add_day_counts, 3: _add_irregularities}


def _note(
    db: Any,
    table: str,
    round_id: str,
    irregularities: Sequence[dict[str, Any]],
    now_ms: int,
    first: int = 0,
) -> None:
    db.executemany(
        "INSERT INTO irregularities (tbl, round, n, kind, body, created_ms)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (tbl, round, n) DO NOTHING",
        [
            (table, round_id, n, str(i["kind"]), json.dumps(i, separators=(",", ":")), now_ms)
            for n, i in enumerate(irregularities, first)
        ],
    )


def _entry(row: tuple[Any, ...]) -> Entry:
    seq, table, round_id, body, state, attempts, created, settled, status, answer, error = row
    return Entry(
        seq=int(seq),
        table=str(table),
        round=str(round_id),
        body=str(body),
        state=State(state),
        attempts=int(attempts),
        created_ms=int(created),
        settled_ms=None if settled is None else int(settled),
        status=None if status is None else int(status),
        answer=None if answer is None else str(answer),
        last_error=None if error is None else str(error),
    )
