"""The append-only journals: one stream per pool, and the house journal. Entry id = seq-0.

Redis holds each journal's tail (the retention window and whatever is not archived yet); the
archive holds everything older. Reads see the two as one sequence of seqs.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from redis import Redis

from jackpot.domain.chain import ChainedEntry
from jackpot.domain.journals import EVERYTHING, JournalEntry, Span, house_journal, pool_journal
from jackpot.store.keys import Keys

# fields that hold text; every other field of an entry is an integer
TEXT_FIELDS = frozenset(
    {
        "type",
        # digests are hex, never a number, even the rare one written with digits only
        "result",  # a round's static result
        "dynamic",  # its jackpots and meters
        "digest",  # a closed day's record
        "prev_day",  # the day before's
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
        # a must-hit-by or mystery level's trigger: hex, and each bet's part of a stretch of
        # contributions ("1500,1500") and whether it could win ("10")
        "commitment",
        "salt",
        "steps",
        "qualifying",
        "level",
        "why",
        # the hash chain: the hash of the entry before (docs/DECISIONS.md D81)
        "prev",
        # people and keys: a badge number, a slip or a key id written in digits only is
        # still text ("001042" is not 1042)
        "key",
        "label",
        "person",
        "person_id",
        "staff_id",
        "issued_to",
        "name",
        "was",
        "position",
        "confusable_with",
        "paid_by",
        "paid_by_id",
        "witness",
        "witness_id",
        "slip",
        "approver",
        "requester",
        "requested_by",
        "confirmed_by",
    }
)


LIVE_BATCH = 1000


class Archived(Protocol):
    """Where a journal's older entries are (jackpot.archive.store.Archive): given to the
    store, never imported by it, so the archive sits above the store."""

    def first_seq_at(self, journal: str, ts: int) -> int | None: ...

    def entries(
        self,
        journal: str,
        after: int = 0,
        limit: int = 1000,
        until_seq: int | None = None,
        from_ts: int | None = None,
        to_ts: int | None = None,
        table: str | None = None,
    ) -> list[tuple[ChainedEntry, str]]: ...

    def tip(self, journal: str) -> tuple[int, str]: ...


class JournalStore:
    def __init__(self, client: Redis, keys: Keys, archive: Archived | None = None) -> None:
        self._r = client
        self._k = keys
        self._archive = archive

    def tail_holds(self, pool: str | None, ts: int) -> bool:
        """Whether Redis's tail holds every entry stamped at or after `ts` of a journal:
        nothing was ever trimmed from it, or it holds an older entry (trimming drops only a
        prefix)."""
        first = self._r.xrange(self._stream(pool), count=1)
        return bool(first) and (_seq(first[0][0]) == 1 or int(first[0][1].get("ts", 0)) < ts)

    def tail(self) -> JournalStore:
        """The same journals read from Redis's tail alone, never the archive: for entries
        stamped since the archiver's trimming cutoff (now less the retention window and the
        skew), which it never trims, so the tail holds every one of them."""
        return JournalStore(self._r, self._k)

    def read(
        self, pool: str | None, after: int, limit: int, span: Span = EVERYTHING
    ) -> list[JournalEntry]:
        """Up to `limit` of a pool's entries (None: the house journal's) with seq > after in
        `span`, oldest first: from the archive while the seqs are older than Redis's tail."""
        stream = self._stream(pool)
        name = self._name(pool)
        out: list[JournalEntry] = []
        cursor: int | None = after
        while cursor is not None and len(out) < limit:
            live = self._live_after(stream, cursor)
            if self._archive is None or _continues(live, cursor):
                cursor = _read_on(live, span, out, limit)
                continue
            # cursor + 1 has left Redis: the archive has it, up to where Redis's tail begins
            until = live[0].seq - 1 if live else None
            older, cursor = self._older(
                self._archive, name, cursor, until, span, limit - len(out), cursor == after
            )
            out += older
        return out

    def _live_after(self, stream: str, cursor: int) -> list[JournalEntry]:
        """Up to LIVE_BATCH of Redis's entries with seq > `cursor`, oldest first."""
        rows = self._r.xrange(stream, min=f"{cursor + 1}-0", max="+", count=LIVE_BATCH)
        return [_entry(entry_id, fields) for entry_id, fields in rows]

    @staticmethod
    def _older(
        archive: Archived,
        name: str,
        cursor: int,
        until: int | None,
        span: Span,
        want: int,
        first_read: bool,
    ) -> tuple[list[JournalEntry], int | None]:
        """Up to `want` archived entries in `span` after seq `cursor`, up to `until` (where
        Redis's tail begins; None: Redis holds none), and the seq to read on after (None: the
        read is done)."""
        if span.from_ts is not None and first_read:
            # skip the archived history before the span by its time index, not a scan
            first = archive.first_seq_at(name, span.from_ts)
            if first is None:  # nothing archived is that recent: Redis's tail, if any
                return [], until
            cursor = max(cursor, min(first - 1, until if until is not None else first))
        older = archive.entries(name, cursor, want, until, span.from_ts, span.to_ts, span.table)
        return [_archived(e) for e, _ in older], None if len(older) == want else until

    def seq_at(self, pool: str | None, ts: int) -> int:
        """The seq of the first entry stamped at or after `ts` (the next seq if none is):
        a binary search over Redis's tail or the archive's time index, never a scan."""
        stream = self._stream(pool)
        name = self._name(pool)
        first = self._r.xrange(stream, count=1)
        last = self._r.xrevrange(stream, count=1)
        if first and int(first[0][1].get("ts", 0)) < ts:
            return self._tail_seq_at(stream, _seq(first[0][0]), _seq(last[0][0]), ts)
        return self._seq_at_before_tail(name, ts, _seq(first[0][0]) if first else None)

    def _seq_at_before_tail(self, name: str, ts: int, tail_from: int | None) -> int:
        """seq_at() when Redis's tail (from seq `tail_from`; None: Redis holds none) is
        stamped at or after `ts`: the archive's first entry stamped then, if before the tail;
        else the tail's first; else the seq after the archive's tip."""
        if self._archive is not None:
            found = self._archive.first_seq_at(name, ts)
            if found is not None and (tail_from is None or found < tail_from):
                return found
        if tail_from is not None:
            return tail_from
        tip = 0 if self._archive is None else self._archive.tip(name)[0]
        return tip + 1

    def _tail_seq_at(self, stream: str, first: int, last: int, ts: int) -> int:
        """seq_at() in Redis's tail (seqs `first` to `last`), whose first entry is stamped
        before `ts`: a binary search."""
        low, high = first, last + 1  # answer in (low, high]
        while high - low > 1:
            mid = (low + high) // 2
            [(_, fields)] = self._r.xrange(stream, min=f"{mid}-0", max=f"{mid}-0")
            if int(fields.get("ts", 0)) < ts:
                low = mid
            else:
                high = mid
        return high

    def before(self, pool: str | None, seq: int) -> Iterator[JournalEntry]:
        """The entries before `seq`, newest first, read one at a time (for the few steps back
        to the last balance before a period)."""
        stream = self._stream(pool)
        while seq > 1:
            seq -= 1
            rows = self._r.xrange(stream, min=f"{seq}-0", max=f"{seq}-0")
            if rows:
                yield _entry(*rows[0])
                continue
            if self._archive is None:
                return
            name = self._name(pool)
            older = self._archive.entries(name, seq - 1, 1, until_seq=seq)
            if not older:
                return
            yield _archived(older[0][0])

    def scan(
        self, pool: str | None, after: int = 0, batch: int = 1000, span: Span = EVERYTHING
    ) -> Iterator[JournalEntry]:
        """Every entry after `after` in `span`, read in batches."""
        while True:
            entries = self.read(pool, after, batch, span)
            yield from entries
            if len(entries) < batch:
                return
            after = entries[-1].seq

    def _name(self, pool: str | None) -> str:
        return house_journal(self._k.group) if pool is None else pool_journal(pool)

    def _stream(self, pool: str | None) -> str:
        return self._k.journal if pool is None else self._k.pool_journal(pool)


def _continues(live: list[JournalEntry], cursor: int) -> bool:
    """Whether Redis's entries read go on right after seq `cursor` (none trimmed between)."""
    return bool(live) and live[0].seq == cursor + 1


def _read_on(
    live: list[JournalEntry], span: Span, out: list[JournalEntry], limit: int
) -> int | None:
    """Add Redis's entries read in `span` to `out`; the seq to read on after (None: the read
    is done, past the span, at `limit`, or at Redis's end)."""
    if _take_live(live, span, out, limit) or len(live) < LIVE_BATCH:
        return None
    return live[-1].seq


def _take_live(live: list[JournalEntry], span: Span, out: list[JournalEntry], limit: int) -> bool:
    """Add Redis's entries in `span` to `out`; whether the read is done (past the span, or
    `limit` reached)."""
    for entry in live:
        if span.past(entry):
            return True
        if span.holds(entry):
            out.append(entry)
            if len(out) == limit:
                return True
    return False


def _entry(entry_id: str, fields: dict[str, str]) -> JournalEntry:
    seq = int(entry_id.split("-", 1)[0])
    parsed: dict[str, str | int] = {
        k: (v if k in TEXT_FIELDS else _int_or_text(v)) for k, v in fields.items()
    }
    return JournalEntry(seq, parsed)


def _seq(entry_id: str) -> int:
    return int(entry_id.split("-", 1)[0])


def _archived(entry: ChainedEntry) -> JournalEntry:
    return _entry(f"{entry.seq}-0", {"prev": entry.prev, **dict(entry.fields)})


def _int_or_text(value: str) -> str | int:
    try:
        return int(value)
    except ValueError:
        return value
