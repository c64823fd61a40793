"""What the journal holds: a report's state and entry, a day's counts, an irregularity as
noted, and the journal's errors."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from jackpot.domain.tablecounts import DayCounts
from table_adapter.errors import TableAdapterError

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


def entry_from_row(row: tuple[Any, ...]) -> Entry:
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
