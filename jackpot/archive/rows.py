"""The archive's rows: a journal entry and a round record as archived, and the columns they
are written in."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jackpot import jsonio
from jackpot.domain.chain import ChainedEntry


@dataclass(frozen=True, slots=True)
class ArchivedEntry:
    journal: str
    entry: ChainedEntry
    hash: str

    @property
    def ts(self) -> int:
        return int(self.entry.get("ts") or 0)

    def row(self) -> tuple[Any, ...]:
        """The journal_entries row, in ENTRY_COLUMNS order."""
        e = self.entry
        return entry_row(self.journal, e.seq, e.prev, self.hash, e.by_name())


def entry_row(
    journal: str, seq: int, prev: str, hash_: str, names: dict[str, str]
) -> tuple[Any, ...]:
    """A journal_entries row, in ENTRY_COLUMNS order, from an entry's fields by name."""
    get = names.get
    return (
        journal,
        seq,
        int(get("ts") or 0),
        get("type") or "",
        get("table"),
        get("round"),
        prev,
        hash_,
        jsonio.dumps(names).decode(),
    )


ENTRY_COLUMNS = ("journal", "seq", "ts", "type", "table_id", "round_id", "prev", "hash", "fields")
ROUND_COLUMNS = ("table_id", "round_id", "digest", "static", "dynamic", "ts", "who", "house_seq")


@dataclass(frozen=True, slots=True)
class ArchivedRound:
    table: str
    round: str
    digest: str
    static: str
    dynamic: str
    ts: int
    who: str
    house_seq: int

    def row(self) -> tuple[Any, ...]:
        """The rounds row, in ROUND_COLUMNS order."""
        return (
            self.table,
            self.round,
            self.digest,
            self.static,
            self.dynamic,
            self.ts,
            self.who,
            self.house_seq,
        )


def round_of(row: Any) -> ArchivedRound:
    """A rounds row, its columns in ROUND_COLUMNS order (select(rounds) reads them so)."""
    table, round_id, digest, static, dynamic, ts, who, house_seq = row
    return ArchivedRound(table, round_id, digest, static, dynamic, int(ts), who, int(house_seq))


def chained_of(row: Any) -> ChainedEntry:
    # written by entry_row: every name and value text
    fields: dict[str, str] = jsonio.loads(row[3])
    return ChainedEntry(int(row[0]), str(row[1]), tuple(fields.items()))
