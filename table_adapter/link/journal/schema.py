"""The journal's SQLite schema, and the migrations that bring an older file up to it.

The schema's version is SQLite's `user_version`; an older file is migrated when opened
(MIGRATIONS), in one transaction, so an old journal opens and keeps its reports.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jackpot.domain.tablecounts import FIGURES  # what the controller compares
from table_adapter.link.journal.records import JournalError

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


def prepare(db: Any, path: Path) -> None:
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
    db.execute("DROP TABLE reports")  # its index goes with it; prepare makes it again
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


# MIGRATIONS[n] takes a journal from schema version n to n + 1 (inside prepare's transaction).
MIGRATIONS = {1: _add_quarantined, 2: _add_day_counts, 3: _add_irregularities}
