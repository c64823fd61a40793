"""The Verifier: every journal of a link group walked whole (or from a period's start), its
end and live meter read at one instant, then the journals held against each other."""

from __future__ import annotations

from redis import Redis

from jackpot.archive.store import Archive
from jackpot.archive.verify.accounted import Accounting
from jackpot.archive.verify.ends import archived_end, balance_findings, end_findings
from jackpot.archive.verify.findings import Finding, Verification, chain_finding
from jackpot.archive.verify.house import HouseIndex
from jackpot.archive.verify.journal import JournalWalker, feed_books
from jackpot.archive.verify.live import BATCH, Snapshot, live_entries, snapshot
from jackpot.domain.books import BooksWalk
from jackpot.domain.chain import ChainWalk
from jackpot.domain.journals import house_journal, pool_journal
from jackpot.domain.poolsteps import PoolStep
from jackpot.store.keys import Keys


class Verifier:
    def __init__(self, client: Redis, keys: Keys, archive: Archive) -> None:
        self._r = client
        self._k = keys
        self._archive = archive
        self._walker = JournalWalker(client, keys, archive)
        self._accounting = Accounting(client, keys, archive)

    @property
    def archive(self) -> Archive:
        return self._archive

    def run(self, since: int | None = None) -> Verification:
        """Every journal of this group whole, or from its first entry stamped at or after
        `since` (epoch ms) on, linked to the archived entry before it; the round records
        still in Redis against their entries. The house journal's day_closed entries met on
        the way are kept in `closed`."""
        out = Verification()
        house = HouseIndex()
        pools: list[tuple[str, BooksWalk]] = []
        steps: list[PoolStep] = []  # the pools' adjustments and transfers (D271)
        house_end = 0
        for journal, stream, pool in self._journals():
            books = None if pool is None else BooksWalk(pool, steps=steps, journal=journal)
            walk, snap = self._walk_to_end(journal, stream, pool, since, out, books or house)
            if books is None:
                house_end = walk.seq
                continue
            self._balances(journal, stream, snap, out)
            pools.append((journal, books))
            out.findings += _books_findings(journal, books, walk, snap, whole=since is None)
        # the house's entries appended while the pools were walked: a round settled
        # meanwhile has its entries in both journals, and only the house's were read first
        late = HouseIndex()
        for entry in live_entries(self._r, self._k.journal, after=house_end):
            late.feed(entry.seq, entry.by_name())
        out.findings += self._accounting.rounds_and_voids(house, late, pools, since or 0)
        out.findings += self._accounting.operator_steps(house, late, steps, since)
        return out

    def _walk_to_end(
        self,
        journal: str,
        stream: str,
        pool: str | None,
        since: int | None,
        out: Verification,
        books: BooksWalk | HouseIndex,
    ) -> tuple[ChainWalk, Snapshot]:
        """One journal walked, then on to its end as it is now: entries appended during the
        walk, then its recorded end and the meter, read at one instant."""
        walk = self._journal(journal, stream, since, out, books)
        snap = self._snapshot(stream, pool, BATCH)
        breaks = len(walk.breaks)
        tail = [e for e in snap.entries if e.seq > walk.seq]
        walk.feed(tail)
        for entry in tail:
            feed_books(books, entry)
        out.findings += [chain_finding(b, "Redis") for b in walk.breaks[breaks:]]
        out.checked[journal] = walk.checked
        self._end(journal, walk, snap, out)
        return walk, snap

    def clock(self) -> int:
        """The controller clock (clock.lua): the Redis server's time in ms, never earlier
        than a time it gave before; the journals are stamped by it."""
        with self._r.pipeline(transaction=True) as pipe:
            pipe.time()
            pipe.hget(self._k.counters, "clock")
            (secs, micros), given = pipe.execute()
        return max(int(secs) * 1000 + int(micros) // 1000, int(given or 0))

    def tail(self, count: int = 64) -> Verification:
        """The self-check's quick look: the newest `count` entries of each journal in Redis
        linked to each other, the journal's recorded end, and each pool's meter against its
        newest balance, all read at one instant (rounds go on meanwhile). The archive is read
        only where Redis holds none of a journal (all of it archived and trimmed) or no
        balance among the newest entries."""
        out = Verification()
        for journal, stream, pool in self._journals():
            snap = self._snapshot(stream, pool, count)
            if snap.entries:
                first = snap.entries[0]
                walk = ChainWalk(journal, first.seq - 1, first.prev)
                walk.feed(snap.entries)
                out.findings += [chain_finding(b, "Redis") for b in walk.problems()]
            else:  # all of it archived and trimmed: its end is the archive's entry at snap.seq
                seq, head = archived_end(self._archive, journal, snap.seq)
                walk = ChainWalk(journal, seq, head)
            out.checked[journal] = walk.checked
            self._end(journal, walk, snap, out)
            if pool is not None:
                self._balances(journal, stream, snap, out)
        return out

    def _snapshot(self, stream: str, pool: str | None, count: int) -> Snapshot:
        """The newest `count` entries of a journal, its recorded end, and (for a pool's) the
        meter and reserve, in one transaction: no round lands between the reads."""
        return snapshot(self._r, self._k, stream, pool, count)

    def _journals(self) -> list[tuple[str, str, str | None]]:
        """(journal name, its stream, its pool or None for the house's) of every journal."""
        pools = sorted(self._r.smembers(self._k.pools))
        return [(house_journal(self._k.group), self._k.journal, None)] + [
            (pool_journal(p), self._k.pool_journal(p), p) for p in pools
        ]

    def _journal(
        self,
        journal: str,
        stream: str,
        since: int | None,
        out: Verification,
        books: BooksWalk | HouseIndex,
    ) -> ChainWalk:
        return self._walker.walk(journal, stream, since, out, books)

    def _end(self, journal: str, walk: ChainWalk, snap: Snapshot, out: Verification) -> None:
        out.findings += end_findings(journal, walk, snap)

    def _balances(self, journal: str, stream: str, snap: Snapshot, out: Verification) -> None:
        out.findings += balance_findings(self._r, self._archive, journal, stream, snap)


def _books_findings(
    journal: str, books: BooksWalk, walk: ChainWalk, snap: Snapshot, whole: bool
) -> list[Finding]:
    """A pool's books as its walk recomputed them; its counters too when they were summed
    from its first entry (a `whole` walk that reached the recorded end)."""
    out = [Finding(journal, seq, text) for seq, text in books.problems]
    if whole and walk.seq == snap.seq:  # summed from its first entry
        out += [
            Finding(
                journal,
                snap.seq,
                f"{text}: a counter was changed outside the controller, or the entries were",
            )  # fmt: skip
            for text in books.counters.differences(snap.counters)
        ]
    return out
