"""The archiver's reads: a journal's Redis entries after the archive's tip, a batch at a time,
each batch chain-checked and confirmed, with the rows of its rounds' stored results."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from redis import Redis

from jackpot.archive.rows import entry_row
from jackpot.domain.chain import ChainBreak, ChainedEntry, ChainWalk, flat_hash
from jackpot.domain.journals import house_journal
from jackpot.store.keys import Keys

# the archiver's own log: what its reads find is logged as the run's
log = logging.getLogger("jackpot.archive.archiver")

# The stored results of a batch of rounds, in one call (read-only).
RECORDS = """
local out = {}
for i, key in ipairs(KEYS) do
  out[i] = redis.call('HMGET', key, 'digest', 'static', 'dynamic', 'ts', 'who')
end
return out
"""

Row = tuple[Any, ...]
# a sound entry of a batch: its journal_entries row, (seq, fields) if a house round, its hash
_Sound = tuple[Row, tuple[int, dict[str, str]] | None, str]


@dataclass(frozen=True, slots=True)
class _Batch:
    confirmed: list[_Sound]
    problems: list[ChainBreak]
    more: bool  # entries follow the batch's (it read one more than it archives)

    @property
    def last(self) -> bool:
        """Whether the reads end here: at a break, at the journal's end, or where nothing
        more was confirmed."""
        return bool(self.problems) or not self.more or not self.confirmed


def _as_sent(response: Any, **_options: Any) -> Any:
    return response


class BatchReader:
    def __init__(self, client: Redis, keys: Keys, batch: int) -> None:
        self._r = client
        self._k = keys
        self._batch = batch
        # reads of whole batches: XRANGE's reply kept as the flat list Redis sends (redis-py
        # would build a dict per entry), and the batch's round records in one script call
        self._raw = Redis(connection_pool=client.connection_pool)
        self._raw.set_response_callback("XRANGE", _as_sent)
        self._records = self._raw.register_script(RECORDS)

    def read(
        self, journal: str, stream: str, seq: int, head: str
    ) -> Iterator[tuple[list[Row], list[Row], list[ChainBreak]]]:
        """Batches of rows of the entries after `seq`, chain-checked, with their rounds' rows.

        An entry is archived only once it is confirmed: by the next entry's `prev` (its hash
        as the next one saw it when it was written), or, for the newest, by the journal's
        recorded head. An entry edited in Redis still links to the one before it; it is the
        one after it that no longer links, so it is held back with the break: nothing edited
        is archived, and restoring it lets the next run go on. A break ends the batches with
        the confirmed entries before it. Each batch reads one entry more than it archives:
        the one that confirms its last."""
        walk = ChainWalk(journal, seq, head)
        house = journal == house_journal(self._k.group)
        while (batch := self._next_batch(walk, stream, house, seq, head)) is not None:
            if batch.confirmed or batch.problems:
                yield self._rows(batch)
            if batch.last:
                return
            seq, head = batch.confirmed[-1][0][1], batch.confirmed[-1][2]

    def _rows(self, batch: _Batch) -> tuple[list[Row], list[Row], list[ChainBreak]]:
        """(entries' rows, their rounds' rows, breaks) of a batch, as read() yields them."""
        return (
            [row for row, _, _ in batch.confirmed],
            self._rounds([r for _, r, _ in batch.confirmed if r is not None]),
            batch.problems,
        )

    def _next_batch(
        self, walk: ChainWalk, stream: str, house: bool, seq: int, head: str
    ) -> _Batch | None:
        """The batch of entries after the confirmed one at `seq` (hashing to `head`),
        chain-checked; None when no entry follows it."""
        rows = self._raw.xrange(stream, min=f"{seq + 1}-0", max="+", count=self._batch + 1)
        if not rows:
            return None
        walk.seq, walk.head = seq, head  # resume at the last confirmed entry
        more = len(rows) > self._batch
        sound = _sound(walk, walk.journal, house, rows)
        confirmed = self._confirmed(walk, sound, more=more)
        return _Batch(confirmed, walk.problems(), more)

    def _confirmed(self, walk: ChainWalk, sound: list[_Sound], more: bool) -> list[_Sound]:
        """The batch's sound entries that are confirmed: each by the one after it, the newest
        (no break and no `more` after it) by the journal's recorded end, which it breaks when
        it does not hash to the head recorded at its seq."""
        if walk.breaks or more:
            return sound[:-1]  # the last sound one: nothing after it confirms it
        if sound and self._end(walk.journal) == (sound[-1][0][1], sound[-1][2]):
            return sound  # the newest, and the journal's recorded end
        end_seq, _ = self._end(walk.journal)
        if sound and end_seq == sound[-1][0][1]:
            walk.breaks.append(
                ChainBreak(
                    walk.journal,
                    end_seq,
                    "the newest entry does not hash to the journal's recorded head: it was edited",
                )
            )
        return sound[:-1]

    def _end(self, journal: str) -> tuple[int, str]:
        """The journal's recorded end: (seq, head) of its newest entry as the controller
        recorded it beside the entry (the house counters, or the pool's hash)."""
        if journal == house_journal(self._k.group):
            key, fields = self._k.counters, ("house_seq", "house_head")
        else:
            key, fields = self._k.pool(journal.removeprefix("pool/")), ("seq", "head")
        seq, head = self._r.hmget(key, *fields)
        return int(seq or 0), head or ""

    def _rounds(self, played: list[tuple[int, dict[str, str]]]) -> list[Row]:
        """The rounds rows (ROUND_COLUMNS) of the house journal's round entries."""
        if not played:
            return []
        keys = [self._k.round(*_round_of(e)) for _, e in played]
        return [
            _round_row(seq, e, record)
            for (seq, e), record in zip(played, self._records(keys=keys), strict=True)
        ]


def _sound(walk: ChainWalk, journal: str, house: bool, rows: list[Any]) -> list[_Sound]:
    """The batch's entries walked along the chain: those before its first break (the walk
    goes on past it only to report every break of the batch)."""
    sound: list[_Sound] = []
    for entry_id, flat in rows:
        at, prev, names, hash_ = _unpack(entry_id, flat)
        before = bool(walk.breaks)
        walk.step(at, prev, hash_)
        if before or walk.breaks:
            continue  # walked on only to report every break of the batch
        round_ = (at, names) if house and names.get("type") == "round" else None
        sound.append((entry_row(journal, at, prev, hash_, names), round_, hash_))
    return sound


def _round_row(seq: int, e: dict[str, str], record: list[Any]) -> Row:
    """A round entry's rounds row, from its stored result as Redis holds it."""
    table, round_id = _round_of(e)
    _, _, _, ts, who = record
    return (
        table,
        round_id,
        *_result_parts(table, round_id, record),
        int(ts or e.get("ts") or 0),
        who or e.get("who") or "",
        seq,
    )


def _round_of(e: dict[str, str]) -> tuple[str, str]:
    """(table, round) a round entry settled."""
    return e.get("table") or "", e.get("round") or ""


def _result_parts(table: str, round_id: str, record: list[Any]) -> tuple[str, str, str]:
    """(digest, static, dynamic) of a round's stored result."""
    digest, static, dynamic, _, _ = record
    if digest is None:
        # trimming deletes a record only after it is archived: this one was removed by
        # hand. Archived without its result so the gap is on record, never skipped.
        log.error("round %s/%s has no stored result in Redis", table, round_id)
        return "", "null", "null"
    return digest, static or "null", dynamic or "null"


def _unpack(entry_id: str, flat: list[str]) -> tuple[int, str, dict[str, str], str]:
    """(seq, prev, fields by name, hash) of an entry as XRANGE sends it."""
    seq = int(entry_id.partition("-")[0])
    if flat and flat[0] == "prev":
        prev, rest = flat[1], flat[2:]
    else:  # written by hand, or before journals were chained
        entry = ChainedEntry.from_flat(entry_id, flat)
        prev, rest = entry.prev, [text for pair in entry.fields for text in pair]
    return seq, prev, dict(zip(rest[::2], rest[1::2], strict=True)), flat_hash(prev, seq, rest)
