"""The journals as Redis holds them now: their streams read a batch at a time, and a
journal's newest entries with its recorded end read at one instant."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from redis import Redis

from jackpot.domain.books import Counters
from jackpot.domain.chain import ChainedEntry
from jackpot.store.keys import Keys

BATCH = 5000


@dataclass(frozen=True, slots=True)
class Snapshot:
    entries: list[ChainedEntry]  # the journal's newest entries, oldest first
    seq: int  # the recorded end: seq and head of its last entry
    head: str
    value: int  # a pool's meter and reserve, units (0 for the house's)
    reserve: int
    counters: dict[str, str] = field(default_factory=dict)  # a pool's, as its hash holds them


def snapshot(client: Redis, keys: Keys, stream: str, pool: str | None, count: int) -> Snapshot:
    """The newest `count` entries of a journal, its recorded end, and (for a pool's) the
    meter and reserve, in one transaction: no round lands between the reads."""
    fields: tuple[str, ...]
    if pool is None:
        end, fields = keys.counters, ("house_seq", "house_head")
    else:
        end = keys.pool(pool)
        fields = ("seq", "head", "value", "reserve", *Counters.names())
    with client.pipeline(transaction=True) as pipe:
        pipe.xrevrange(stream, count=count)
        pipe.hmget(end, *fields)
        rows, found = pipe.execute()
    seq, head, value, reserve = [*found, 0, 0][:4]
    return Snapshot(
        [ChainedEntry.from_stream(i, f) for i, f in reversed(rows)],
        int(seq or 0),
        head or "",
        int(value or 0),
        int(reserve or 0),
        dict(zip(fields[4:], found[4:], strict=True)),
    )


def live_entries(client: Redis, stream: str, after: int = 0) -> Iterator[ChainedEntry]:
    """The stream's entries after seq `after`, oldest first, a batch at a time."""
    while True:
        rows = client.xrange(stream, min=f"{after + 1}-0", max="+", count=BATCH)
        for entry_id, fields in rows:
            yield ChainedEntry.from_stream(entry_id, fields)
        if len(rows) < BATCH:
            return
        after = seq_of(rows[-1][0])


def seq_of(entry_id: str) -> int:
    """The seq of a stream entry's id."""
    return int(entry_id.split("-", 1)[0])
