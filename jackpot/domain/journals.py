"""The journals: their names, an entry as read back, and which entries a read wants.

Each link group has a house journal (rounds, envy, configuration, keys, closed days) and each
pool its own (meter movements, hits, payout steps, adjustments). The archive and every report
name them as below; Redis keeps each as a stream of its group's keys (jackpot.store.keys).
"""

from __future__ import annotations

from dataclasses import dataclass

from jackpot.domain.linkgroups import MAIN_GROUP

HOUSE = "house"  # the main link group's house journal


def house_journal(group: str) -> str:
    """The name of a link group's house journal: 'house' for the main group (as before there
    were groups), 'house@<group>' for another."""
    return HOUSE if group == MAIN_GROUP else f"{HOUSE}@{group}"


def pool_journal(pool: str) -> str:
    """The name of a pool's journal (pool ids never hold a '/')."""
    return f"pool/{pool}"


def journal_pool(journal: str) -> str | None:
    """The pool whose journal `journal` is; None for a house journal."""
    return journal.removeprefix("pool/") if journal.startswith("pool/") else None


@dataclass(frozen=True, slots=True)
class JournalEntry:
    seq: int
    fields: dict[str, str | int]

    def to_json(self) -> dict[str, str | int]:
        return {"seq": self.seq, **self.fields}


@dataclass(frozen=True, slots=True)
class Span:
    """Which entries a read wants: stamped in [from_ts, to_ts) (ms), of one table."""

    from_ts: int | None = None
    to_ts: int | None = None
    table: str | None = None

    def holds(self, entry: JournalEntry) -> bool:
        ts = int(entry.fields.get("ts", 0))
        if self.from_ts is not None and ts < self.from_ts:
            return False
        if self.to_ts is not None and ts >= self.to_ts:
            return False
        return self.table is None or entry.fields.get("table") == self.table

    def past(self, entry: JournalEntry) -> bool:
        """Whether every later entry is past the span's end (entries are stamped in order)."""
        return self.to_ts is not None and int(entry.fields.get("ts", 0)) >= self.to_ts


EVERYTHING = Span()
