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

records.py  what is journaled: State, Entry, DayCount, Noted, Counts, void keys, errors
store.py    Journal: the SQLite file, read and written in transactions
schema.py   its tables, and the migrations that bring an older file up to them
"""

from table_adapter.link.journal.records import (
    VOID_MARK,
    Counts,
    DayCount,
    Entry,
    JournalConflictError,
    JournalError,
    Noted,
    State,
    void_key,
)
from table_adapter.link.journal.schema import SCHEMA_VERSION
from table_adapter.link.journal.store import Journal

__all__ = [
    "SCHEMA_VERSION",
    "VOID_MARK",
    "Counts",
    "DayCount",
    "Entry",
    "Journal",
    "JournalConflictError",
    "JournalError",
    "Noted",
    "State",
    "void_key",
]
