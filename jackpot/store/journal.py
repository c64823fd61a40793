"""The append-only journals: one stream per pool, and the house journal. Entry id = seq-0."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from redis import Redis

from jackpot.store.keys import Keys

# fields that hold text; every other field of an entry is an integer
TEXT_FIELDS = frozenset(
    {
        "type",
        "table",
        "round",
        "who",
        "player",
        "outcome",
        "payout",
        "policy",
        "target",
        "reason",
        "note",
        "adjustment",
        "config",
        "pool",
        "tables",
        # the hash chain: the hash of the entry before (docs/DECISIONS.md)
        "prev",
    }
)


@dataclass(frozen=True, slots=True)
class JournalEntry:
    seq: int
    fields: dict[str, str | int]

    def to_json(self) -> dict[str, str | int]:
        return {"seq": self.seq, **self.fields}


class JournalStore:
    def __init__(self, client: Redis, keys: Keys) -> None:
        self._r = client
        self._k = keys

    def read(self, pool: str | None, after: int, limit: int) -> list[JournalEntry]:
        """A pool's entries (None: the house journal's) with seq > after, oldest first."""
        rows = self._r.xrange(self._stream(pool), min=f"{after + 1}-0", max="+", count=limit)
        return [_entry(entry_id, fields) for entry_id, fields in rows]

    def scan(self, pool: str | None, after: int = 0, batch: int = 1000) -> Iterator[JournalEntry]:
        """Every entry after `after`, read in batches."""
        while True:
            entries = self.read(pool, after, batch)
            yield from entries
            if len(entries) < batch:
                return
            after = entries[-1].seq

    def _stream(self, pool: str | None) -> str:
        return self._k.journal if pool is None else self._k.pool_journal(pool)


def _entry(entry_id: str, fields: dict[str, str]) -> JournalEntry:
    seq = int(entry_id.split("-", 1)[0])
    parsed: dict[str, str | int] = {
        k: (v if k in TEXT_FIELDS else _int_or_text(v)) for k, v in fields.items()
    }
    return JournalEntry(seq, parsed)


def _int_or_text(value: str) -> str | int:
    try:
        return int(value)
    except ValueError:
        return value
