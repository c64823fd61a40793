"""One journal's walk: its archived entries from the first (or from the period's), then
Redis's after them, each entry fed to the chain, the books and the trigger audit as met."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

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
        walk = self._anchor(journal, since)
        anchor = walk.seq  # entries up to it are before the period checked
        if isinstance(books, BooksWalk) and anchor:  # the balances the period starts from
            books.balances = archived_balance(self._archive, journal, anchor)
        house = journal == house_journal(self._k.group)
        walking = _Walking(journal, walk, books, out, house)
        if not house:
            walking.triggers = TriggerAudit(journal.removeprefix("pool/"), since is None)
            walking.folded = PayoutsFolded(journal)
        overlap = self._archived(walking, live_from)
        out.findings += [chain_finding(b, "archive") for b in walk.problems()]
        if walking.folded is not None:
            walking.folded.fold(self._archive, anchor)
            out.findings += check_payout_index(self._archive, walking.folded, walk.seq, anchor)
        walk.breaks = []
        self._live(walking, live_entries(self._r, stream, after=anchor), overlap)
        out.findings += [chain_finding(b, "Redis") for b in walk.problems()]
        if walking.triggers is not None:
            out.findings += [Finding(journal, s, text) for s, text in walking.triggers.problems]
            if isinstance(books, BooksWalk):
                books.stretches = walking.triggers.stretches
        out.findings += self._live_records(journal, walking.rounds)
        return walk

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
            with self._r.pipeline(transaction=False) as pipe:
                for e in batch:
                    pipe.hmget(
                        self._k.round(e.get("table") or "", e.get("round") or ""),
                        "digest",
                        "static",
                        "dynamic",
                        "ts",
                    )
                found = pipe.execute()
            for e, (digest, static, dynamic, ts) in zip(batch, found, strict=True):
                if digest is None:  # archived and forgotten: the archive's check has it
                    continue
                problem = record_problem(e.by_name(), static, dynamic, int(ts or 0), digest)
                if problem is not None:
                    key = (e.get("table") or "", e.get("round") or "")
                    out.append(edited_record(journal, e.seq, key, problem))
        return out
