"""`jackpot verify`: every journal's hash chain, in the archive and in Redis, checked whole.

For each journal (the house's and each pool's):

* the archive's entries, from the first: seqs without a gap, each `prev` the hash of the entry
  before, and each entry's content still hashing to the hash stored when it was archived;
* Redis's tail: where it overlaps the archive, the same entries as the archive's; after it,
  the chain continued;
* the journal's end: the seq and head (hash of the last entry) the pool or the house counters
  record, so deleting or editing the newest entry is found too;
* each pool's live meter and reserve against the balances of its journal's last entry;
* each closed gaming day's recorded heads against the archive: history rewritten after a day
  was closed cannot match them;
* each pool's books recomputed from its entries' amounts (jackpot.domain.books): every
  entry's balances from the ones before it, the pool's counters from the first entry (a
  whole walk), and every pool entry of a round against the house journal's entry for it and
  the round record that entry commits.

Every finding names the journal, the seq and what is wrong; nothing is repaired.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from redis import Redis

from jackpot import jsonio
from jackpot.archive.payoutindex import found_under as index_people
from jackpot.archive.payoutindex import row_of
from jackpot.archive.store import Archive
from jackpot.domain.books import (
    BooksWalk,
    Counters,
    HouseRound,
    KeyLife,
    PoolStep,
    bindings,
    round_problems,
    step_problems,
)
from jackpot.domain.chain import GENESIS, ChainBreak, ChainedEntry, ChainWalk
from jackpot.domain.dayclose import closed_day_digest
from jackpot.domain.journals import HOUSE, house_journal, pool_journal
from jackpot.domain.payoutrecord import ENTRY_TYPES, fold
from jackpot.domain.records import dynamic_digest, record_problem, result_digest
from jackpot.domain.triggers import Stretch, TriggerAudit, stretch_problems
from jackpot.store.keys import Keys

BATCH = 5000


@dataclass(frozen=True, slots=True)
class Finding:
    journal: str
    seq: int | None
    problem: str

    def __str__(self) -> str:
        at = f" seq {self.seq}" if self.seq is not None else ""
        return f"{self.journal}{at}: {self.problem}"

    def to_json(self) -> dict[str, object]:
        return {"journal": self.journal, "seq": self.seq, "problem": self.problem}


@dataclass(slots=True)
class Verification:
    checked: dict[str, int] = field(default_factory=dict)  # journal -> entries checked
    findings: list[Finding] = field(default_factory=list)
    days: int = 0  # closed gaming days checked (heads, chain, figures recomputed)
    recomputed: int = 0  # closed days whose figures were computed again and compared
    rounds: int = 0  # round records checked against their entries
    since: str | None = None  # the first gaming day checked; None: all of history
    # the house journal's day_closed entries met on the walk (not reported)
    closed: list[ChainedEntry] = field(default_factory=list, repr=False)

    @property
    def intact(self) -> bool:
        return not self.findings

    def to_json(self) -> dict[str, object]:
        return {
            "intact": self.intact,
            "checked": self.checked,
            "days": self.days,
            "recomputed": self.recomputed,
            "rounds": self.rounds,
            "since": self.since,
            "findings": [f.to_json() for f in self.findings],
        }


@dataclass(frozen=True, slots=True)
class _Snapshot:
    entries: list[ChainedEntry]  # the journal's newest entries, oldest first
    seq: int  # the recorded end: seq and head of its last entry
    head: str
    value: int  # a pool's meter and reserve, units (0 for the house's)
    reserve: int
    counters: dict[str, str] = field(default_factory=dict)  # a pool's, as its hash holds them


class Verifier:
    def __init__(self, client: Redis, keys: Keys, archive: Archive) -> None:
        self._r = client
        self._k = keys
        self._archive = archive

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
            walk = self._journal(journal, stream, since, out, books or house)
            # the journal's end as it is now: entries appended during the walk, then its
            # recorded end and the meter, read at one instant
            snap = self._snapshot(stream, pool, BATCH)
            breaks = len(walk.breaks)
            tail = [e for e in snap.entries if e.seq > walk.seq]
            walk.feed(tail)
            for entry in tail:
                (books or house).feed(entry.seq, entry.by_name())
                if books is not None:
                    books.step(entry)
            out.findings += [_finding(b, "Redis") for b in walk.breaks[breaks:]]
            out.checked[journal] = walk.checked
            self._end(journal, walk, snap, out)
            if books is None:
                house_end = walk.seq
                continue
            self._balances(journal, stream, snap, out)
            pools.append((journal, books))
            out.findings += [Finding(journal, seq, text) for seq, text in books.problems]
            if since is None and walk.seq == snap.seq:  # summed from its first entry
                out.findings += [
                    Finding(
                        journal,
                        snap.seq,
                        f"{text}: a counter was changed outside the "
                        "controller, or the entries were",
                    )  # fmt: skip
                    for text in books.counters.differences(snap.counters)
                ]
        # the house's entries appended while the pools were walked: a round settled
        # meanwhile has its entries in both journals, and only the house's were read first
        late = HouseIndex()
        for entry in self._live(self._k.journal, after=house_end):
            late.feed(entry.seq, entry.by_name())
        out.findings += self._accounted(house, late, pools, since or 0)
        out.findings += self._operator_steps(house, late, steps, since)
        return out

    def _operator_steps(
        self, house: HouseIndex, late: HouseIndex, steps: list[PoolStep], since: int | None
    ) -> list[Finding]:
        """Every pool adjustment and transfer (of the period) against the adjustments record
        the API's step writes, the house journal's entry the same step writes, and the key it
        names (D271)."""
        steps = [s for s in steps if s.ts >= (since or 0)]
        if not steps:
            return []
        with self._r.pipeline(transaction=False) as pipe:
            for s in steps:
                pipe.hexists(self._k.adjustments, s.step_id or "-")
            recorded = pipe.execute()
        bound = {**house.bound, **late.bound}
        keys = HouseIndex(
            keys={**house.keys, **late.keys}, revoked={**late.revoked, **house.revoked}
        )
        if since is not None:  # the keys' events the house journal holds before the period
            journal = house_journal(self._k.group)
            for kind in ("key_created", "key_revoked"):
                for e in self._archive.entries_of_type(journal, kind, to_ts=since):
                    keys.feed(e.seq, e.by_name())
        out = []
        for s, found in zip(steps, recorded, strict=True):
            # every step is bound, from a controller's first entry on: a rule that began at
            # the first binding seen let a forged step before it pass (the examiner's second
            # pass); the keys are held where the house journal holds their events
            problems = step_problems(
                s,
                bool(found),
                bound.get((s.pool, s.seq)),
                True,
                keys.key(s.who),
                bool(keys.keys),
            )
            out += [Finding(s.journal, s.seq, text) for text in problems]
        return out

    def clock(self) -> int:
        """The controller clock (clock.lua): the Redis server's time in ms, never earlier
        than a time it gave before; the journals are stamped by it."""
        with self._r.pipeline(transaction=True) as pipe:
            pipe.time()
            pipe.hget(self._k.counters, "clock")
            (secs, micros), given = pipe.execute()
        return max(int(secs) * 1000 + int(micros) // 1000, int(given or 0))

    def _accounted(
        self,
        house: HouseIndex,
        late: HouseIndex,
        pools: list[tuple[str, BooksWalk]],
        since: int = 0,
    ) -> list[Finding]:
        """Every pool entry of a round against the house journal's entry for it and the round
        record that entry commits; every house round with a wager against its pools'
        contributions; every pool void against the house's (docs/DECISIONS.md D261).

        Only rounds and voids stamped at or after `since`: each journal's walk starts at its
        own first entry stamped then, and every round's and void's entries carry one stamp,
        so those are in both walks (or, settled during them, in `late`); one stamped before
        is in one walk or the other as the archiver moved meanwhile (D263)."""
        out: list[Finding] = []
        wanted = {k: h for k, h in {**late.rounds, **house.rounds}.items() if _stamp(k[2]) >= since}
        dynamics = self._dynamics(wanted)
        walked = {books.pool: books for _, books in pools}
        for journal, books in pools:
            for key, money in books.rounds.items():
                if _stamp(key[2]) < since:
                    continue
                settled = wanted.get(key)
                if settled is None:
                    out.append(
                        Finding(
                            journal,
                            money.first_seq,
                            f"round {key[0]}/{key[1]}: its entries here name a round the "
                            "house journal never settled",
                        )
                    )
                    continue
                out += [
                    Finding(journal, seq, f"round {key[0]}/{key[1]}: {text}")
                    for seq, text in round_problems(books.pool, money, settled, dynamics.get(key))
                ]
            for seq, table, round_id, ts in books.voids:
                if _stamp(ts) < since:
                    continue
                if (table, round_id, ts) not in house.voids | late.voids:
                    out.append(
                        Finding(
                            journal,
                            seq,
                            f"round {table}/{round_id}: a void here that the house journal "
                            "never made",
                        )
                    )
        out += self._stretches(pools, wanted, since)
        for key, settled in house.rounds.items():
            if settled.ts < since:
                continue
            dynamic = dynamics.get(key)
            if settled.wagered <= 0 or dynamic is None:
                continue
            for pool in dynamic.get("fed") or {}:
                fed = walked.get(pool)
                if fed is not None and key not in fed.rounds:
                    out.append(
                        Finding(
                            pool_journal(pool),
                            None,
                            f"round {key[0]}/{key[1]} (house seq {settled.seq}) fed this pool, "
                            "and its journal holds no contribution of it: entries were removed",
                        )
                    )
        return out

    def _stretches(
        self,
        pools: list[tuple[str, BooksWalk]],
        wanted: dict[tuple[str, str, str], HouseRound],
        since: int,
    ) -> list[Finding]:
        """Each trigger level's contributions of a round against the bets' wagers in its
        record, in settlement order (D272): the record's static part that the house entry
        commits, Redis's, else the archive's (one not found or not committed is the round
        records' check's to name)."""
        out: list[Finding] = []
        statics: dict[tuple[str, str, str], list[int] | None] = {}
        for journal, books in pools:
            by_round: dict[tuple[str, str, str], list[Stretch]] = {}
            for stretch in books.stretches:
                if _stamp(stretch.key[2]) >= since and stretch.key in wanted:
                    by_round.setdefault(stretch.key, []).append(stretch)
            for key, stretches in by_round.items():
                if key not in statics:
                    statics[key] = self._wagers(key, wanted[key].result)
                wagers = statics[key]
                if wagers is None:
                    continue
                out += [
                    Finding(journal, seq, f"round {key[0]}/{key[1]}: {text}")
                    for seq, text in stretch_problems(wagers, stretches)
                ]
        return out

    def _wagers(self, key: tuple[str, str, str], result: str) -> list[int] | None:
        """The wagers of a round's bets in settlement order, from the record's static part
        its house entry commits (None: no such record found)."""
        static = self._r.hget(self._k.round(key[0], key[1]), "static")
        if static is None:
            found = self._archive.round(key[0], key[1])
            static = None if found is None else found.static
        if static is None or not result or result_digest(static) != result:
            return None
        try:
            return [int(spot["wager"]) for spot in jsonio.loads(static)["spots"]]
        except (KeyError, TypeError, ValueError):
            return None

    def _dynamics(
        self, rounds: dict[tuple[str, str, str], HouseRound]
    ) -> dict[tuple[str, str, str], Any]:
        """The dynamic part of each round's record (the archive's, else Redis's) that its
        house entry commits; a record not found or not committed is left out (the round
        records' own check names it)."""
        texts: dict[tuple[str, str, str], str] = {}
        if rounds:  # the archived ones by their stretch of time, six hours at a time
            ids = {key[:2]: key for key in rounds}
            stamps = [settled.ts for settled in rounds.values()]
            houses = [house_journal(self._k.group)]
            start, last = self._archive.next_round_ts(houses, min(stamps)), max(stamps)
            while start is not None and start <= last:  # stretches without rounds skipped
                until = start + WINDOW_MS
                for table, round_id, ts, dynamic in self._archive.round_dynamics(start, until):
                    key = ids.get((table, round_id))
                    if key is not None and rounds[key].ts == ts:
                        texts[key] = dynamic
                start = self._archive.next_round_ts(houses, until)
        # the rest, not archived yet: Redis's (one archived meanwhile is left unchecked)
        keys = [key for key in rounds if key not in texts]
        for start in range(0, len(keys), BATCH):
            batch = keys[start : start + BATCH]
            with self._r.pipeline(transaction=False) as pipe:
                for table, round_id, _ in batch:
                    pipe.hget(self._k.round(table, round_id), "dynamic")
                found = pipe.execute()
            texts.update((k, t) for k, t in zip(batch, found, strict=True) if t is not None)
        out: dict[tuple[str, str, str], Any] = {}
        for key, text in texts.items():
            committed = rounds[key].dynamic
            if committed and dynamic_digest(text) == committed:
                out[key] = jsonio.loads(text)
        return out

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
                out.findings += [_finding(b, "Redis") for b in walk.problems()]
            else:  # all of it archived and trimmed: its end is the archive's entry at snap.seq
                seq, head = self._archived_end(journal, snap.seq)
                walk = ChainWalk(journal, seq, head)
            out.checked[journal] = walk.checked
            self._end(journal, walk, snap, out)
            if pool is not None:
                self._balances(journal, stream, snap, out)
        return out

    def _snapshot(self, stream: str, pool: str | None, count: int) -> _Snapshot:
        """The newest `count` entries of a journal, its recorded end, and (for a pool's) the
        meter and reserve, in one transaction: no round lands between the reads."""
        fields: tuple[str, ...]
        if pool is None:
            end, fields = self._k.counters, ("house_seq", "house_head")
        else:
            end = self._k.pool(pool)
            fields = ("seq", "head", "value", "reserve", *Counters.names())
        with self._r.pipeline(transaction=True) as pipe:
            pipe.xrevrange(stream, count=count)
            pipe.hmget(end, *fields)
            rows, found = pipe.execute()
        seq, head, value, reserve = [*found, 0, 0][:4]
        return _Snapshot(
            [ChainedEntry.from_stream(i, f) for i, f in reversed(rows)],
            int(seq or 0),
            head or "",
            int(value or 0),
            int(reserve or 0),
            dict(zip(fields[4:], found[4:], strict=True)),
        )

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
        first_live = self._r.xrange(stream, count=1)
        live_from = _seq(first_live[0][0]) if first_live else None
        walk = self._anchor(journal, since)
        anchor = walk.seq  # entries up to it are before the period checked
        if isinstance(books, BooksWalk) and anchor:  # the balances the period starts from
            books.balances = self._archived_balance(journal, anchor)
        house = journal == house_journal(self._k.group)
        overlap: dict[int, str] = {}
        # the payouts the archived entries make, folded again; in a walk from `since`, the
        # entries of the period, each payout's earlier ones added after the walk
        folded = None if house else PayoutsFolded(journal)
        # a must-hit-by or mystery level's triggers: drawn, won and revealed as they must be
        triggers = None if house else TriggerAudit(journal.removeprefix("pool/"), since is None)
        for entry, stored in self._archive.walk(journal, walk.seq, batch=BATCH):
            walk.feed([entry])
            books.feed(entry.seq, entry.by_name())
            if isinstance(books, BooksWalk):
                books.step(entry)
            if triggers is not None:
                triggers.feed(entry.seq, entry.by_name())
            if folded is not None and entry.get("type") in ENTRY_TYPES:
                folded.collect(entry)
            if entry.hash != stored:
                out.findings.append(
                    Finding(
                        journal,
                        entry.seq,
                        "archived entry edited: its content no longer "
                        "hashes to the hash stored when it was archived",
                    )
                )
            if live_from is not None and entry.seq >= live_from:
                overlap[entry.seq] = stored
            if house and entry.get("type") == "day_closed":
                out.closed.append(entry)
        out.findings += [_finding(b, "archive") for b in walk.problems()]
        if folded is not None:
            folded.fold(self._archive, anchor)
            out.findings += check_payout_index(self._archive, folded, walk.seq, anchor)
        walk.breaks = []
        rounds: list[ChainedEntry] = []
        for entry in self._live(stream, after=anchor):
            if house and entry.get("type") == "round":
                rounds.append(entry)
            if entry.seq in overlap:
                if entry.hash != overlap[entry.seq]:
                    out.findings.append(
                        Finding(
                            journal,
                            entry.seq,
                            "Redis and the archive hold different "
                            "entries under this seq: one of them was edited",
                        )
                    )
                continue
            if house and entry.get("type") == "day_closed":
                out.closed.append(entry)
            walk.feed([entry])
            books.feed(entry.seq, entry.by_name())
            if isinstance(books, BooksWalk):
                books.step(entry)
            if triggers is not None:
                triggers.feed(entry.seq, entry.by_name())
        out.findings += [_finding(b, "Redis") for b in walk.problems()]
        if triggers is not None:
            out.findings += [Finding(journal, seq, text) for seq, text in triggers.problems]
            if isinstance(books, BooksWalk):
                books.stretches = triggers.stretches
        out.findings += self._live_records(journal, rounds)
        return walk

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
                    out.append(_edited(journal, e.seq, key, problem))
        return out

    def _live(self, stream: str, after: int = 0) -> Iterator[ChainedEntry]:
        """The stream's entries after seq `after`, oldest first, a batch at a time."""
        while True:
            rows = self._r.xrange(stream, min=f"{after + 1}-0", max="+", count=BATCH)
            for entry_id, fields in rows:
                yield ChainedEntry.from_stream(entry_id, fields)
            if len(rows) < BATCH:
                return
            after = _seq(rows[-1][0])

    def _end(self, journal: str, walk: ChainWalk, snap: _Snapshot, out: Verification) -> None:
        if walk.seq != snap.seq:
            out.findings.append(
                Finding(
                    journal,
                    walk.seq,
                    f"the journal ends at seq {walk.seq} but "
                    f"{snap.seq} is recorded as its last: entries were removed or added",
                )
            )
        elif walk.head != snap.head:
            out.findings.append(
                Finding(
                    journal,
                    walk.seq,
                    "the last entry does not hash to the recorded head: "
                    "the newest entry was edited",
                )
            )

    def _balances(self, journal: str, stream: str, snap: _Snapshot, out: Verification) -> None:
        last = next(
            (
                (e.seq, int(e.get("value_units") or 0), int(e.get("reserve_units") or 0))
                for e in reversed(snap.entries)
                if e.get("value_units") is not None
            ),
            None,
        ) or self._last_balance(
            journal, stream, snap.entries[0].seq - 1 if snap.entries else snap.seq
        )
        if last is None:
            return
        seq, v, r = last
        if (snap.value, snap.reserve) != (v, r):
            out.findings.append(
                Finding(
                    journal,
                    seq,
                    f"the live meter ({snap.value} units) and reserve ({snap.reserve} "
                    f"units) are not the journal's last balances ({v} and {r} units): the "
                    "meter was changed outside the controller",
                )
            )

    def _archived_end(self, journal: str, upto: int) -> tuple[int, str]:
        """(seq, hash) of the archived entry `upto` (a snapshot's recorded end); the archive's
        tip when it stops short of it (the gap is then reported). Never an entry archived
        after the snapshot: a round landing meanwhile is not a finding."""
        found = self._archive.entries(journal, upto - 1, 1, until_seq=upto) if upto > 0 else []
        if found:
            return found[0][0].seq, found[0][1]
        return self._archive.tip(journal)

    def _last_balance(
        self, journal: str, stream: str, upto: int, live: bool = True
    ) -> tuple[int, int, int] | None:
        """The newest balance at or before seq `upto` (the snapshot's): entries that old never
        change, so a round settling meanwhile, after it, is not read (a false alarm)."""
        if upto <= 0:
            return None
        rows = self._r.xrevrange(stream, max=f"{upto}-0", count=BATCH) if live else []
        for entry_id, fields in rows:
            if "value_units" in fields:
                return (
                    _seq(entry_id),
                    int(fields["value_units"]),
                    int(fields.get("reserve_units") or 0),
                )
        tip = min(self._archive.tip(journal)[0], upto)
        step = 64
        while tip > 0:  # newest first, a widening window back from the archive's tip
            after = max(tip - step, 0)
            for entry, _ in reversed(self._archive.entries(journal, after, step, until_seq=tip)):
                v = entry.get("value_units")
                if v is not None:
                    return entry.seq, int(v), int(entry.get("reserve_units") or 0)
            tip, step = after, step * 2
        return None

    def _archived_balance(self, journal: str, upto: int) -> tuple[int, int] | None:
        """(value, reserve) units of the newest archived balance at or before seq `upto`."""
        found = self._last_balance(journal, "", upto, live=False)
        return None if found is None else (found[1], found[2])


@dataclass(slots=True)
class HouseIndex:
    """The house journal's round and void entries met on a walk, by (table, round), and what
    it says of operators' money steps and of API keys (D271)."""

    rounds: dict[tuple[str, str, str], HouseRound] = field(default_factory=dict)  # and stamp
    voids: set[tuple[str, str, str]] = field(default_factory=set)
    # the pool entries operators' steps wrote, by (pool, seq): (entry hash, step id) (D271)
    bound: dict[tuple[str, int], tuple[str, str]] = field(default_factory=dict)
    keys: dict[str, KeyLife] = field(default_factory=dict)  # by `who`: "role:key id"
    revoked: dict[str, int] = field(default_factory=dict)  # key id -> when

    def feed(self, seq: int, e: dict[str, str]) -> None:
        kind = e.get("type")
        for pool, pool_seq, entry, step in bindings(e):
            self.bound[(pool, pool_seq)] = (entry, step)
        if kind == "key_created":
            role = e.get("role") or ""
            self.keys[f"{role}:{e.get('key') or ''}"] = KeyLife(role, int(e.get("ts") or 0))
        elif kind == "key_revoked":
            self.revoked.setdefault(e.get("key") or "", int(e.get("ts") or 0))
        elif kind == "round":
            self.rounds[(e.get("table") or "", e.get("round") or "", e.get("ts") or "")] = (
                HouseRound(
                    seq,
                    int(e.get("wagered") or 0),
                    int(e.get("bets") or 0),
                    e.get("dynamic") or "",
                    int(e.get("ts") or 0),
                    e.get("result") or "",
                )
            )
        elif kind == "void":
            self.voids.add((e.get("table") or "", e.get("round") or "", e.get("ts") or ""))

    def key(self, who: str) -> KeyLife | None:
        """The key `who` names as its events tell it, None if none created it."""
        life = self.keys.get(who)
        revoked = self.revoked.get(who.split(":", 1)[-1])
        return (
            life if life is None or revoked is None else KeyLife(life.role, life.created, revoked)
        )


@dataclass(slots=True)
class PayoutsFolded:
    """The payouts a pool journal's archived entries make, folded again as verify walks it.

    A walk from `--since` sees only the period's entries: a payout begun before it is folded
    from its earlier entries as the index lists them (their seqs taken on trust, each entry
    held to being one of the payout's), then the period's."""

    journal: str
    records: dict[str, tuple[dict[str, Any], list[int]]] = field(default_factory=dict)
    problems: list[Finding] = field(default_factory=list)
    walked: dict[str, list[ChainedEntry]] = field(default_factory=dict)

    def collect(self, entry: ChainedEntry) -> None:
        self.walked.setdefault(str(entry.get("payout") or ""), []).append(entry)

    def fold(self, archive: Archive, anchor: int) -> None:
        """Fold what was collected; `anchor`: the seq the walk began after (0: the first)."""
        for payout, entries in self.walked.items():
            earlier: list[ChainedEntry] = []
            if anchor:
                journal, found = archive.payout_entries(payout)
                earlier = [e for e, _ in found if journal == self.journal and e.seq <= anchor]
            strays = [
                e for e in earlier if e.get("type") not in ENTRY_TYPES or e.get("payout") != payout
            ]
            self.problems += [
                Finding(
                    self.journal, e.seq, f"the payouts' index lists it as {payout}'s: it is not"
                )
                for e in strays
            ]
            for entry in [] if strays else [*earlier, *entries]:
                self.add(entry)
        self.walked = {}

    def add(self, entry: ChainedEntry) -> None:
        fields = entry.by_name()
        payout = fields.get("payout", "")
        record, steps = self.records.get(payout, (None, []))
        try:
            record = fold(record, self.journal.removeprefix("pool/"), fields)
        except ValueError as exc:
            self.problems.append(Finding(self.journal, entry.seq, f"{exc}"))
            return
        self.records[payout] = (record, [*steps, entry.seq])


def check_payout_index(
    archive: Archive, folded: PayoutsFolded, walked: int, anchor: int = 0
) -> list[Finding]:
    """The archive's payouts index against the archived entries of one pool journal, folded
    again: every payout they make is indexed as they say, under the people they name, and the
    index holds no payout they do not make, nor one at a seq outside the archived chain. Rows
    that fold entries past `walked` (archived while the walk went on) are left for the next
    run; a walk from `--since` (`anchor`: the seq it began after) leaves the rows of payouts
    with no entry after `anchor` to a whole one."""
    journal, made = folded.journal, folded.records
    out = list(folded.problems)
    rows, found_under = archive.indexed_payouts(journal)
    # read after the rows: an entry is archived in the transaction that indexes it
    tip, _ = archive.tip(journal)
    for payout, row in rows.items():
        try:
            steps = [int(seq) for seq in jsonio.loads(row["steps"])]
        except (ValueError, TypeError):
            steps = []
        outside = sorted(seq for seq in steps if not 1 <= seq <= tip)
        if outside:
            out.append(
                Finding(
                    journal,
                    None,
                    f"the payouts' index places {payout} at seq {outside[0]}, outside the "
                    f"archived chain (seq 1 to {tip})",
                )
            )
            continue
        if max(steps, default=0) > walked:
            continue
        if max(steps, default=0) <= anchor and payout not in made:
            continue
        if payout not in made:
            out.append(
                Finding(journal, None, f"the payouts' index holds {payout}, which no entry made")
            )
            continue
        record, seqs = made[payout]
        if row != row_of(journal, record, seqs):
            out.append(
                Finding(
                    journal,
                    seqs[-1],
                    f"the payouts' index says {payout} is not what its entries say",
                )
            )
        elif found_under.get(payout, set()) != set(index_people(record)):
            out.append(
                Finding(
                    journal,
                    None,
                    f"the payouts' index finds {payout} under other people than its entries name",
                )
            )
    for payout, (_, steps) in made.items():
        if payout not in rows:
            out.append(
                Finding(journal, steps[0], f"payout {payout} is missing from the payouts' index")
            )
    return out


def check_day_heads(archive: Archive, days: list[dict[str, Any]]) -> list[Finding]:
    """Each closed day's recorded journal heads against the archive: history rewritten after
    a day was closed cannot match them."""
    out = []
    for day in days:
        heads: dict[str, list[Any]] = json.loads(day["heads"])
        for journal, pair in heads.items():
            seq, head = int(pair[0]), str(pair[1])
            if not seq:
                continue
            found = archive.entries(journal, seq - 1, 1)
            if not found or found[0][0].seq != seq or found[0][1] != head:
                out.append(
                    Finding(
                        journal,
                        seq,
                        f"gaming day {day['day']} was closed with this entry as the "
                        "journal's head, and the archive no longer holds it unchanged: "
                        "history was rewritten after the close",
                    )
                )
    return out


def _finding(b: ChainBreak, where: str) -> Finding:
    return Finding(b.journal, b.seq, f"{b.problem} (in {where})")


def _stamp(text: str) -> int:
    """An entry's `ts` as a number (0 when it has none)."""
    try:
        return int(text or 0)
    except ValueError:
        return 0


def _seq(entry_id: str) -> int:
    return int(entry_id.split("-", 1)[0])


def _edited(journal: str, seq: int, key: tuple[str, str], problem: str) -> Finding:
    return Finding(journal, seq, f"round {key[0]}/{key[1]}: {problem}: the record was edited")


WINDOW_MS = 6 * 3_600_000  # the stretch of rounds held in memory at a time


def check_rounds(
    archive: Archive, houses: Sequence[str], from_ts: int = 0, to_ts: int = 2**62
) -> tuple[list[Finding], int]:
    """Every archived round record stamped in [from_ts, to_ts) against the round entry that
    settled it, and every archived round entry in it against its record: a record no entry
    settled (forged), one naming another entry, one its entry does not commit (edited), an
    entry whose record is gone (deleted). The findings and the records checked.

    A stretch of rounds at a time, in memory; a record archived while the stretch was read is
    looked up alone (archiving goes on during a verify), and so is one whose entry is in
    another stretch (its time was edited)."""
    out: list[Finding] = []
    checked = 0
    # a round settled again is held to its own record in round_repeats (check_repeats)
    again = {row.house_seq for row in archive.round_repeats()}
    at = archive.next_round_ts(houses, from_ts)
    while at is not None and at < to_ts:
        until = min(at + WINDOW_MS, to_ts)
        settled = {
            (f.get("table", ""), f.get("round", "")): (journal, seq, f)
            for journal in houses
            for seq, f in archive.round_entries(journal, at, until)
            if seq not in again
        }
        for row in archive.rounds_between(at, until):
            checked += 1
            key = (row.table, row.round)
            entry = settled.pop(key, None) or archive.round_entry(houses, *key)
            if entry is None:
                out.append(
                    Finding(
                        "rounds",
                        row.house_seq,
                        f"round {row.table}/{row.round}: a record no journal entry settled: "
                        "forged, or its entry removed",
                    )
                )
                continue
            journal, seq, fields = entry
            problem = (
                f"its record names house entry {row.house_seq}, not the entry that settled it"
                if row.house_seq != seq
                else record_problem(fields, row.static, row.dynamic, row.ts, row.digest)
            )
            if problem is not None:
                out.append(_edited(journal, seq, key, problem))
        for key, (journal, seq, fields) in settled.items():  # entries without a record here
            found = archive.round(*key)
            if found is None:
                out.append(
                    Finding(
                        journal,
                        seq,
                        f"round {key[0]}/{key[1]}: the entry that settled it is archived, its "
                        "record is not: deleted",
                    )
                )
            elif not from_ts <= found.ts < to_ts:  # (inside, its own stretch checks it)
                moved = record_problem(fields, found.static, found.dynamic, found.ts)
                out.append(_edited(journal, seq, key, moved or "its time was edited"))
        at = archive.next_round_ts(houses, until)
    return out, checked


def check_repeats(archive: Archive, houses: Sequence[str]) -> list[Finding]:
    """Every round settled again under an id already archived (round_repeats: the round
    path lets none through since D225, so any is a finding), each held to its entry too."""
    out = []
    for row in archive.round_repeats():
        first = archive.round(row.table, row.round)
        entry = archive.round_entry_at(houses, row.house_seq, row.table, row.round)
        problem = (
            "no journal entry settled it: forged"
            if entry is None
            else record_problem(entry[2], row.static, row.dynamic, row.ts, row.digest)
        )
        out.append(
            Finding(
                "rounds",
                row.house_seq,
                f"round {row.table}/{row.round} was settled twice: by house entry "
                f"{first.house_seq if first else '?'} and again by house entry {row.house_seq}"
                + (f" ({problem})" if problem else ""),
            )
        )
    return out


def check_closed_days(
    days: list[dict[str, Any]],
    journaled: list[ChainedEntry],
    before: dict[str, Any] | None = None,
    since_day: str | None = None,
) -> list[Finding]:
    """The closed days against the day_closed entries of the house journal: each record is
    the one journaled when it was closed, each names the day before it, none is missing,
    added or skipped. For a verify --since, `days` are those from `since_day` on, `before`
    the closed day before them, and entries of days before `since_day` are not looked at."""
    out: list[Finding] = []
    entries: dict[str, ChainedEntry] = {}
    for e in journaled:
        day = e.get("day") or ""
        if since_day is not None and day < since_day:
            continue
        if day in entries and entries[day].get("digest") != e.get("digest"):
            out.append(Finding(HOUSE, e.seq, f"closed day {day} is journaled twice, differently"))
        entries.setdefault(day, e)
    rows = {str(r["day"]): r for r in days}
    previous = None if before is None else (str(before["day"]), closed_day_digest(before))
    for day in sorted(rows):
        digest = closed_day_digest(rows[day])
        entry = entries.get(day)
        if entry is None:
            out.append(
                Finding(
                    "gaming_days",
                    None,
                    f"closed day {day} was never journaled as closed: added by hand",
                )  # fmt: skip
            )
        elif entry.get("digest") != digest:
            out.append(
                Finding(
                    HOUSE,
                    entry.seq,
                    f"closed day {day}: its record is not the one "
                    "journaled when it was closed: rewritten",
                )  # fmt: skip
            )
        elif previous is not None and entry.get("prev_day") not in ("", previous[1]):
            out.append(
                Finding(
                    HOUSE,
                    entry.seq,
                    f"closed day {day} names another day before it than {previous[0]}'s record",
                )  # fmt: skip
            )
        if previous is not None and date.fromisoformat(day) - date.fromisoformat(
            previous[0]
        ) > timedelta(days=1):
            out.append(
                Finding(
                    "gaming_days",
                    None,
                    f"closed days skip from {previous[0]} to {day}: the days between are missing",
                )  # fmt: skip
            )
        previous = (day, digest)
    for day, entry in sorted(entries.items()):
        if day not in rows:
            out.append(
                Finding(
                    HOUSE,
                    entry.seq,
                    f"closed day {day} was journaled as closed but its record is gone: deleted",
                )  # fmt: skip
            )
    return out
