"""The journal's SQLite file, read and written in transactions, shared by a table's dealer
and sender threads."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from jackpot.domain.tablecounts import FIGURES, DayCounts  # what the controller compares
from table_adapter.link.journal.records import (
    VOID_MARK,
    Counts,
    DayCount,
    Entry,
    JournalConflictError,
    JournalError,
    Noted,
    State,
    entry_from_row,
)
from table_adapter.link.journal.schema import COLUMNS, prepare


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
            prepare(db, path)
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
        entry = entry_from_row(row)
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
                _add_day_count(db, row[1], counted)
        return entry_from_row(row)

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
        return entry_from_row(row)

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
        return [entry_from_row(r) for r in rows]


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


def _add_day_count(db: Any, table: str, counted: DayCount) -> None:
    """Add what one acknowledgement counted to the table's figures of its day."""
    names = ", ".join(FIGURES)
    adds = ", ".join(f"{n} = {n} + excluded.{n}" for n in FIGURES)
    db.execute(
        f"INSERT INTO day_counts (tbl, day, {names}, through)"
        f" VALUES (?, ?, {', '.join('?' for _ in FIGURES)}, ?)"
        f" ON CONFLICT (tbl, day) DO UPDATE SET {adds},"
        " through = MAX(through, excluded.through)",
        (
            table,
            counted.day,
            *(getattr(counted.counts, n) for n in FIGURES),
            counted.through,
        ),
    )
