"""The archive's reads, over SQLAlchemy Core: PostgreSQL or SQLite (its writes:
jackpot.archive.writes)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from sqlalchemy import (
    Connection,
    and_,
    func,
    or_,
    select,
)

from jackpot import jsonio
from jackpot.archive import payoutindex
from jackpot.archive.rows import (
    ArchivedRound,
    chained_of,
    round_of,
)
from jackpot.archive.schema import gaming_days, journal_entries, round_repeats, rounds
from jackpot.archive.writes import ArchiveWrites
from jackpot.domain.chain import ChainedEntry
from jackpot.domain.payout import Payout
from jackpot.domain.payoutrecord import PayoutQuery

PAGE = 5000  # rows a paged read asks for at a time


class Archive(ArchiveWrites):
    """One archive database's journals, rounds, closed days and payouts' index."""

    # --- reads --------------------------------------------------------------------------

    def round_repeats(self) -> list[ArchivedRound]:
        """Every round settled again under an archived id (none, unless something let one
        through): `jackpot verify` reports each."""
        query = select(round_repeats).order_by(round_repeats.c.house_seq)
        return [round_of(row) for row in self._all(query)]

    def tip(self, journal: str) -> tuple[int, str]:
        """(seq, hash) of the journal's last archived entry; (0, '') when none is."""
        query = (
            select(journal_entries.c.seq, journal_entries.c.hash)
            .where(journal_entries.c.journal == journal)
            .order_by(journal_entries.c.seq.desc())
            .limit(1)
        )
        row = self._first(query)
        return (0, "") if row is None else (int(row[0]), str(row[1]))

    def round(self, table: str, round_id: str) -> ArchivedRound | None:
        query = select(rounds).where(rounds.c.table_id == table, rounds.c.round_id == round_id)
        row = self._first(query)
        return None if row is None else round_of(row)

    def entries(
        self,
        journal: str,
        after: int = 0,
        limit: int = 1000,
        until_seq: int | None = None,
        from_ts: int | None = None,
        to_ts: int | None = None,
        table: str | None = None,
    ) -> list[tuple[ChainedEntry, str]]:
        """(entry, stored hash) of a journal's entries with seq > after, oldest first."""
        c = journal_entries.c
        query = select(c.seq, c.prev, c.hash, c.fields).where(c.journal == journal, c.seq > after)
        if until_seq is not None:
            query = query.where(c.seq <= until_seq)
        if from_ts is not None:
            query = query.where(c.ts >= from_ts)
        if to_ts is not None:
            query = query.where(c.ts < to_ts)
        if table is not None:
            query = query.where(c.table_id == table)
        query = query.order_by(c.seq).limit(limit)
        return [(chained_of(r), str(r[2])) for r in self._all(query)]

    def walk(
        self, journal: str, after: int = 0, batch: int = 5000
    ) -> Iterator[tuple[ChainedEntry, str]]:
        while True:
            rows = self.entries(journal, after, batch)
            yield from rows
            if len(rows) < batch:
                return
            after = rows[-1][0].seq

    def first_seq_at(self, journal: str, ts: int) -> int | None:
        """The seq of the journal's first archived entry stamped at or after `ts`."""
        c = journal_entries.c
        # entries are stamped in seq order: the time index finds it without a scan
        query = select(c.seq).where(c.journal == journal, c.ts >= ts).order_by(c.ts, c.seq).limit(1)
        found = self._scalar(query)
        return None if found is None else int(found)

    def last_before(self, journal: str, ts: int) -> tuple[ChainedEntry, str] | None:
        """The journal's last archived entry stamped before `ts`."""
        c = journal_entries.c
        # by the time index, newest first: stamps rise with seq (one controller clock that
        # never goes back, docs/DECISIONS.md D13), so the newest stamp before `ts` is the
        # last entry; ordered by seq alone, the planner would sort every older entry
        query = (
            select(c.seq, c.prev, c.hash, c.fields)
            .where(c.journal == journal, c.ts < ts)
            .order_by(c.ts.desc(), c.seq.desc())
            .limit(1)
        )
        row = self._first(query)
        return None if row is None else (chained_of(row), str(row[2]))

    def round_entries(
        self, journal: str, from_ts: int | None = None, to_ts: int | None = None
    ) -> Iterator[tuple[int, dict[str, str]]]:
        """(seq, fields by name) of a house journal's archived round entries (stamped in
        [from_ts, to_ts) if given), oldest first."""
        c = journal_entries.c
        # the stamps' bounds as seqs (stamps rise with seq: D13's one clock), found by the
        # time index, so that each page is a range of the primary key: the history around the
        # span is never read
        bounds = self._seq_bounds(journal, from_ts, to_ts)
        if bounds is None:
            return
        after, last = bounds
        while True:
            query = select(c.seq, c.fields).where(
                c.journal == journal, c.type == "round", c.seq > after
            )
            if last is not None:
                query = query.where(c.seq <= last)
            if from_ts is not None:
                query = query.where(c.ts >= from_ts)
            if to_ts is not None:
                query = query.where(c.ts < to_ts)
            rows = self._all(query.order_by(c.seq).limit(PAGE))
            for seq, fields in rows:
                yield int(seq), jsonio.loads(fields)
            if len(rows) < PAGE:
                return
            after = int(rows[-1][0])

    def _seq_bounds(
        self, journal: str, from_ts: int | None, to_ts: int | None
    ) -> tuple[int, int | None] | None:
        """(the seq before the first stamped at or after `from_ts`, the last seq stamped
        before `to_ts`, None: no bound) of a journal's archived entries; None when none is
        stamped that late."""
        after, last = 0, None
        if from_ts is not None:
            first = self.first_seq_at(journal, from_ts)
            if first is None:
                return None
            after = first - 1
        if to_ts is not None:
            beyond = self.first_seq_at(journal, to_ts)
            last = None if beyond is None else beyond - 1
        return after, last

    def round_entry(
        self, journals: Sequence[str], table: str, round_id: str
    ) -> tuple[str, int, dict[str, str]] | None:
        """(journal, seq, fields by name) of the round entry that settled a round, in any of
        the house `journals`; None when none did."""
        c = journal_entries.c
        query = (
            select(c.journal, c.seq, c.fields)
            .where(c.table_id == table, c.round_id == round_id, c.type == "round")
            .where(c.journal.in_(list(journals)))
            .order_by(c.ts)
            .limit(1)
        )
        row = self._first(query)
        return None if row is None else (str(row[0]), int(row[1]), jsonio.loads(row[2]))

    def round_ids(self, tables: Sequence[str], batch: int) -> Iterator[list[tuple[str, str]]]:
        """Every archived (table, round) of `tables`, `batch` at a time, in key order."""
        c = rounds.c
        for table in tables:
            after = ""
            while True:
                query = (
                    select(c.round_id)
                    .where(c.table_id == table, c.round_id > after)
                    .order_by(c.round_id)
                    .limit(batch)
                )
                found = [str(row[0]) for row in self._all(query)]
                if found:
                    yield [(table, r) for r in found]
                if len(found) < batch:
                    break
                after = found[-1]

    def round_entry_at(
        self, journals: Sequence[str], seq: int, table: str, round_id: str
    ) -> tuple[str, int, dict[str, str]] | None:
        """round_entry() of the entry at `seq` in one of the house `journals`, if it settled
        that round."""
        c = journal_entries.c
        query = (
            select(c.journal, c.seq, c.fields)
            .where(c.seq == seq, c.journal.in_(list(journals)), c.type == "round")
            .where(c.table_id == table, c.round_id == round_id)
            .limit(1)
        )
        row = self._first(query)
        return None if row is None else (str(row[0]), int(row[1]), jsonio.loads(row[2]))

    def next_round_ts(self, journals: Sequence[str], at_least: int) -> int | None:
        """The earliest stamp at or after `at_least` of a round record or of a round entry of
        the house `journals`: where a look over the rounds goes on after an empty stretch."""
        c = journal_entries.c
        found = [
            self._scalar(select(func.min(rounds.c.ts)).where(rounds.c.ts >= at_least)),
            *(
                self._scalar(
                    select(func.min(c.ts)).where(
                        c.journal == journal, c.type == "round", c.ts >= at_least
                    )
                )
                for journal in journals
            ),
        ]
        stamps = [int(f) for f in found if f is not None]
        return min(stamps) if stamps else None

    def entries_of_type(
        self, journal: str, kind: str, from_ts: int | None = None, to_ts: int | None = None
    ) -> list[ChainedEntry]:
        """A journal's archived entries of one type (stamped in [from_ts, to_ts) if given),
        oldest first: its day_closed ones, a day's voids."""
        c = journal_entries.c
        query = select(c.seq, c.prev, c.hash, c.fields).where(c.journal == journal, c.type == kind)
        if from_ts is not None:
            query = query.where(c.ts >= from_ts)
        if to_ts is not None:
            query = query.where(c.ts < to_ts)
        return [chained_of(r) for r in self._all(query.order_by(c.seq))]

    def rounds_between(
        self, from_ts: int, to_ts: int, page: int | None = None
    ) -> Iterator[ArchivedRound]:
        """The round records stamped in [from_ts, to_ts), by stamp then table and round:
        paged on that key, which is unique (a house seq is not, across link groups)."""
        page = page or PAGE
        c = rounds.c
        after: tuple[int, str, str] | None = None
        while True:
            query = select(rounds).where(c.ts >= from_ts, c.ts < to_ts)
            if after is not None:
                ts, table, round_id = after
                query = query.where(
                    or_(
                        c.ts > ts,
                        and_(c.ts == ts, c.table_id > table),
                        and_(c.ts == ts, c.table_id == table, c.round_id > round_id),
                    )
                )
            query = query.order_by(c.ts, c.table_id, c.round_id).limit(page)
            rows = self._all(query)
            yield from (round_of(row) for row in rows)
            if len(rows) < page:
                return
            last = round_of(rows[-1])
            after = (last.ts, last.table, last.round)

    def round_dynamics(self, from_ts: int, to_ts: int) -> list[tuple[str, str, int, str]]:
        """(table, round, stamp, dynamic part) of the round records stamped in [from_ts,
        to_ts): what verify holds the pools' entries to, without the static parts."""
        c = rounds.c
        query = select(c.table_id, c.round_id, c.ts, c.dynamic).where(c.ts >= from_ts, c.ts < to_ts)
        return [(str(r[0]), str(r[1]), int(r[2]), str(r[3])) for r in self._all(query)]

    def day(self, day: str) -> dict[str, Any] | None:
        row = self._first(select(gaming_days).where(gaming_days.c.day == day))
        return None if row is None else dict(row._mapping)

    def days(self) -> list[dict[str, Any]]:
        return [
            dict(r._mapping) for r in self._all(select(gaming_days).order_by(gaming_days.c.day))
        ]

    # --- the payouts' index -------------------------------------------------------------

    def search_payouts(
        self, query: PayoutQuery, limit: int, besides: Sequence[str] = ()
    ) -> list[Payout]:
        """The archived payouts a search matches, newest first, but those `besides`."""
        return self._read(lambda c: payoutindex.search(c, query, limit, besides))

    def payout_totals(
        self, query: PayoutQuery, besides: Sequence[str] = ()
    ) -> dict[str, tuple[int, int]]:
        """(payouts, cents) of the archived payouts a search matches, by status, but those
        `besides`."""
        return self._read(lambda c: payoutindex.totals(c, query, besides))

    def payout_records(self, ids: Sequence[str]) -> dict[str, Payout]:
        """These payouts as the archive holds them (those archived)."""
        return self._read(lambda c: payoutindex.records(c, ids))

    def payout_entries(self, payout: str) -> tuple[str, list[tuple[ChainedEntry, str]]]:
        """(pool journal, its archived entries with their stored hashes) of one payout."""
        return self._read(lambda c: payoutindex.entries(c, payout))

    def indexed_payouts(
        self, journal: str
    ) -> tuple[dict[str, dict[str, Any]], dict[str, set[str]]]:
        """One pool journal's rows of the payouts' index, and who each is found under: for
        `jackpot verify` to fold the entries again and compare."""

        def read(connection: Connection) -> Any:
            rows = payoutindex.of_journal(connection, journal)
            return rows, payoutindex.people_of(connection, journal)

        return self._read(read)  # type: ignore[no-any-return]
