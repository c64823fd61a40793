"""One journal's walk: its archived entries from the first (or from the period's), then
Redis's after them, each entry fed to the chain, the books and the trigger audit as met."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from redis import Redis

from jackpot.archive.store import Archive
from jackpot.archive.verify.ends import archived_balance
from jackpot.archive.verify.findings import Finding, Verification, chain_finding, edited_record
from jackpot.archive.verify.house import HouseIndex
from jackpot.archive.verify.live import BATCH, live_entries, seq_of
from jackpot.archive.verify.payouts import PayoutsFolded, check_payout_index
from jackpot.domain.books import BooksWalk
from jackpot.domain.chain import GENESIS, ChainedEntry, ChainWalk
from jackpot.domain.journals import house_journal
from jackpot.domain.payoutrecord import ENTRY_TYPES
from jackpot.domain.records import record_problem
from jackpot.domain.triggers import TriggerAudit
from jackpot.store.keys import Keys


def feed_books(books: BooksWalk | HouseIndex, entry: ChainedEntry) -> None:
    """An entry to a pool's books (and its operators' steps), or to the house's index."""
    books.feed(entry.seq, entry.by_name())
    if isinstance(books, BooksWalk):
        books.step(entry)


@dataclass(slots=True)
class _Walking:
    """What one journal's walk feeds, and what it finds."""

    journal: str
    walk: ChainWalk
    books: BooksWalk | HouseIndex
    out: Verification
    house: bool  # the house journal's walk (else a pool's)
    # a must-hit-by or mystery level's triggers: drawn, won and revealed as they must be
    triggers: TriggerAudit | None = None
    # the payouts the archived entries make, folded again; in a walk from `since`, the
    # entries of the period, each payout's earlier ones added after the walk
    folded: PayoutsFolded | None = None
    rounds: list[ChainedEntry] = field(default_factory=list)  # the house's, in Redis

    def feed(self, entry: ChainedEntry) -> None:
        self.walk.feed([entry])
        feed_books(self.books, entry)
        if self.triggers is not None:
            self.triggers.feed(entry.seq, entry.by_name())

    def keep_closed(self, entry: ChainedEntry) -> None:
        if self.house and entry.get("type") == "day_closed":
            self.out.closed.append(entry)

    def find(self, seq: int, problem: str) -> None:
        self.out.findings.append(Finding(self.journal, seq, problem))

    def audit_triggers(self) -> None:
        """The trigger audit's findings; a pool's books take its stretches."""
        if self.triggers is None:
            return
        self.out.findings += [Finding(self.journal, s, text) for s, text in self.triggers.problems]
        if isinstance(self.books, BooksWalk):
            self.books.stretches = self.triggers.stretches


class JournalWalker:
    def __init__(self, client: Redis, keys: Keys, archive: Archive) -> None:
        self._r = client
        self._k = keys
        self._archive = archive

    def walk(
        self,
        journal: str,
        stream: str,
        since: int | None,
        out: Verification,
        books: BooksWalk | HouseIndex,
    ) -> ChainWalk:
        """The journal's archived entries, then Redis's after them; the walk's findings added
        to `out`. Its end is where the walk stopped."""
        first_live = self._r.xrange(stream, count=1)
        live_from = seq_of(first_live[0][0]) if first_live else None
        walking = self._start(journal, since, out, books)
        walk = walking.walk
        anchor = walk.seq  # entries up to it are before the period checked
        overlap = self._archived(walking, live_from)
        out.findings += [chain_finding(b, "archive") for b in walk.problems()]
        self._check_payouts(walking, anchor)
        walk.breaks = []
        self._live(walking, live_entries(self._r, stream, after=anchor), overlap)
        out.findings += [chain_finding(b, "Redis") for b in walk.problems()]
        walking.audit_triggers()
        out.findings += self._live_records(journal, walking.rounds)
        return walk

    def _start(
        self, journal: str, since: int | None, out: Verification, books: BooksWalk | HouseIndex
    ) -> _Walking:
        """A walk from its anchor (_anchor): a pool's books from the balances archived there,
        with its trigger audit and its payouts to fold again."""
        walk = self._anchor(journal, since)
        if isinstance(books, BooksWalk) and walk.seq:  # the balances the period starts from
            books.balances = archived_balance(self._archive, journal, walk.seq)
        house = journal == house_journal(self._k.group)
        walking = _Walking(journal, walk, books, out, house)
        if not house:
            walking.triggers = TriggerAudit(journal.removeprefix("pool/"), since is None)
            walking.folded = PayoutsFolded(journal)
        return walking

    def _check_payouts(self, walking: _Walking, anchor: int) -> None:
        """A pool's payouts, folded again from its archived entries, against the index."""
        if walking.folded is not None:
            walking.folded.fold(self._archive, anchor)
            walking.out.findings += check_payout_index(
                self._archive, walking.folded, walking.walk.seq, anchor
            )

    def _archived(self, walking: _Walking, live_from: int | None) -> dict[int, str]:
        """Walk the archived entries after the anchor, each held to the hash stored when it
        was archived; the stored hashes of those Redis holds too (from seq `live_from`)."""
        overlap: dict[int, str] = {}
        for entry, stored in self._archive.walk(walking.journal, walking.walk.seq, batch=BATCH):
            walking.feed(entry)
            if walking.folded is not None and entry.get("type") in ENTRY_TYPES:
                walking.folded.collect(entry)
            if entry.hash != stored:
                walking.find(
                    entry.seq,
                    "archived entry edited: its content no longer "
                    "hashes to the hash stored when it was archived",
                )
            if live_from is not None and entry.seq >= live_from:
                overlap[entry.seq] = stored
            walking.keep_closed(entry)
        return overlap

    @staticmethod
    def _live(walking: _Walking, entries: Iterable[ChainedEntry], overlap: dict[int, str]) -> None:
        """Walk Redis's entries: those archived too (`overlap`) held to the archive's, the
        rest fed on; the house's round entries kept for their records."""
        for entry in entries:
            if walking.house and entry.get("type") == "round":
                walking.rounds.append(entry)
            if entry.seq in overlap:
                if entry.hash != overlap[entry.seq]:
                    walking.find(
                        entry.seq,
                        "Redis and the archive hold different "
                        "entries under this seq: one of them was edited",
                    )
                continue
            walking.keep_closed(entry)
            walking.feed(entry)

    def _anchor(self, journal: str, since: int | None) -> ChainWalk:
        """Where a walk starts: the journal's first entry, or (`since`) the archived entry
        before its first entry stamped at or after `since`, as archived."""
        if since is None:
            return ChainWalk(journal)
        # the tip first: an entry stamped since that is archived between the two reads is
        # after this tip, never skipped (D263)
        seq, head = self._archive.tip(journal)
        first = self._archive.first_seq_at(journal, since)
        if first is None:  # nothing archived since: from the archive's tip on
            return ChainWalk(journal, seq, head)
        before = self._archive.entries(journal, first - 2, 1, until_seq=first - 1)
        return ChainWalk(journal, first - 1, before[0][1] if before else GENESIS)

    def _live_records(self, journal: str, rounds: list[ChainedEntry]) -> list[Finding]:
        """The round records still in Redis against the entries that settled them."""
        out = []
        for start in range(0, len(rounds), BATCH):
            batch = rounds[start : start + BATCH]
            for e, stored in zip(batch, self._stored_results(batch), strict=True):
                out += _record_findings(journal, e, stored)
        return out

    def _stored_results(self, rounds: list[ChainedEntry]) -> list[Any]:
        """(digest, static, dynamic, ts) of each round's record in Redis, in one round trip."""
        with self._r.pipeline(transaction=False) as pipe:
            for e in rounds:
                pipe.hmget(self._k.round(*_round_key(e)), "digest", "static", "dynamic", "ts")
            found: list[Any] = pipe.execute()
        return found


def _record_findings(journal: str, e: ChainedEntry, stored: list[Any]) -> list[Finding]:
    """A round's record in Redis against the entry that settled it."""
    digest, static, dynamic, ts = stored
    if digest is None:  # archived and forgotten: the archive's check has it
        return []
    problem = record_problem(e.by_name(), static, dynamic, int(ts or 0), digest)
    if problem is None:
        return []
    return [edited_record(journal, e.seq, _round_key(e), problem)]


def _round_key(e: ChainedEntry) -> tuple[str, str]:
    """(table, round) a round entry settled."""
    return e.get("table") or "", e.get("round") or ""
