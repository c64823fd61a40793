"""The journals against each other: every pool entry of a round or void against the house
journal's, each trigger level's contributions against the round record's wagers, and every
operator's money step against the house entry and the adjustments record it writes."""

from __future__ import annotations

from typing import Any

from redis import Redis

from jackpot import jsonio
from jackpot.archive.store import Archive
from jackpot.archive.verify.findings import Finding, round_finding, stamp
from jackpot.archive.verify.house import HouseIndex
from jackpot.archive.verify.live import BATCH
from jackpot.archive.verify.rounds import WINDOW_MS
from jackpot.domain.books import BooksWalk, HouseRound, round_problems
from jackpot.domain.journals import house_journal, pool_journal
from jackpot.domain.poolsteps import PoolStep, step_problems
from jackpot.domain.records import dynamic_digest, result_digest
from jackpot.domain.triggersteps import Stretch, stretch_problems
from jackpot.store.keys import Keys

RoundKey = tuple[str, str, str]  # a round's table, id and stamp


class Accounting:
    def __init__(self, client: Redis, keys: Keys, archive: Archive) -> None:
        self._r = client
        self._k = keys
        self._archive = archive

    def rounds_and_voids(
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
        wanted = {k: h for k, h in {**late.rounds, **house.rounds}.items() if stamp(k[2]) >= since}
        dynamics = self._dynamics(wanted)
        for journal, books in pools:
            out += _pool_rounds(journal, books, wanted, dynamics, since)
            out += _pool_voids(journal, books, house.voids | late.voids, since)
        out += self._stretches(pools, wanted, since)
        walked = {books.pool: books for _, books in pools}
        out += _contributions_missing(house, walked, dynamics, since)
        return out

    def _stretches(
        self,
        pools: list[tuple[str, BooksWalk]],
        wanted: dict[RoundKey, HouseRound],
        since: int,
    ) -> list[Finding]:
        """Each trigger level's contributions of a round against the bets' wagers in its
        record, in settlement order (D272): the record's static part that the house entry
        commits, Redis's, else the archive's (one not found or not committed is the round
        records' check's to name)."""
        out: list[Finding] = []
        statics: dict[RoundKey, list[int] | None] = {}
        for journal, books in pools:
            for key, stretches in _stretches_by_round(books, wanted, since).items():
                if key not in statics:
                    statics[key] = self._wagers(key, wanted[key].result)
                out += _stretch_findings(journal, key, statics[key], stretches)
        return out

    def _wagers(self, key: RoundKey, result: str) -> list[int] | None:
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

    def _dynamics(self, rounds: dict[RoundKey, HouseRound]) -> dict[RoundKey, Any]:
        """The dynamic part of each round's record (the archive's, else Redis's) that its
        house entry commits; a record not found or not committed is left out (the round
        records' own check names it)."""
        texts = self._archived_dynamics(rounds)
        # the rest, not archived yet: Redis's (one archived meanwhile is left unchecked)
        texts.update(self._live_dynamics([key for key in rounds if key not in texts]))
        out: dict[RoundKey, Any] = {}
        for key, text in texts.items():
            committed = rounds[key].dynamic
            if committed and dynamic_digest(text) == committed:
                out[key] = jsonio.loads(text)
        return out

    def _archived_dynamics(self, rounds: dict[RoundKey, HouseRound]) -> dict[RoundKey, str]:
        """The archived records' dynamic parts, by their stretch of time, six hours at a time."""
        texts: dict[RoundKey, str] = {}
        if not rounds:
            return texts
        ids = {key[:2]: key for key in rounds}
        stamps = [settled.ts for settled in rounds.values()]
        houses = [house_journal(self._k.group)]
        start, last = self._archive.next_round_ts(houses, min(stamps)), max(stamps)
        while start is not None and start <= last:  # stretches without rounds skipped
            until = start + WINDOW_MS
            texts.update(self._dynamics_between(rounds, ids, start, until))
            start = self._archive.next_round_ts(houses, until)
        return texts

    def _dynamics_between(
        self,
        rounds: dict[RoundKey, HouseRound],
        ids: dict[tuple[str, str], RoundKey],
        start: int,
        until: int,
    ) -> dict[RoundKey, str]:
        """The dynamic parts of these rounds' archived records stamped in [start, until)."""
        texts: dict[RoundKey, str] = {}
        for table, round_id, ts, dynamic in self._archive.round_dynamics(start, until):
            key = ids.get((table, round_id))
            if key is not None and rounds[key].ts == ts:
                texts[key] = dynamic
        return texts

    def _live_dynamics(self, keys: list[RoundKey]) -> dict[RoundKey, str]:
        """The dynamic parts of the records Redis holds of these rounds."""
        texts: dict[RoundKey, str] = {}
        for start in range(0, len(keys), BATCH):
            batch = keys[start : start + BATCH]
            with self._r.pipeline(transaction=False) as pipe:
                for table, round_id, _ in batch:
                    pipe.hget(self._k.round(table, round_id), "dynamic")
                found = pipe.execute()
            texts.update((k, t) for k, t in zip(batch, found, strict=True) if t is not None)
        return texts

    def operator_steps(
        self, house: HouseIndex, late: HouseIndex, steps: list[PoolStep], since: int | None
    ) -> list[Finding]:
        """Every pool adjustment and transfer (of the period) against the adjustments record
        the API's step writes, the house journal's entry the same step writes, and the key it
        names (D271)."""
        steps = [s for s in steps if s.ts >= (since or 0)]
        if not steps:
            return []
        recorded = self._recorded(steps)
        bound = {**house.bound, **late.bound}
        keys = self._key_events(house, late, since)
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

    def _recorded(self, steps: list[PoolStep]) -> list[Any]:
        """Whether the adjustments record holds each step."""
        with self._r.pipeline(transaction=False) as pipe:
            for s in steps:
                pipe.hexists(self._k.adjustments, s.step_id or "-")
            return list(pipe.execute())

    def _key_events(self, house: HouseIndex, late: HouseIndex, since: int | None) -> HouseIndex:
        """The API keys' lives as the house journal's events tell them: those walked, and
        (from `since`) the ones it holds before the period."""
        keys = HouseIndex(
            keys={**house.keys, **late.keys}, revoked={**late.revoked, **house.revoked}
        )
        if since is not None:  # the keys' events the house journal holds before the period
            journal = house_journal(self._k.group)
            for kind in ("key_created", "key_revoked"):
                for e in self._archive.entries_of_type(journal, kind, to_ts=since):
                    keys.feed(e.seq, e.by_name())
        return keys


def _pool_rounds(
    journal: str,
    books: BooksWalk,
    wanted: dict[RoundKey, HouseRound],
    dynamics: dict[RoundKey, Any],
    since: int,
) -> list[Finding]:
    """A pool's entries of each round (stamped at or after `since`) against the house entry
    that settled it and the record's dynamic part."""
    out: list[Finding] = []
    for key, money in books.rounds.items():
        if stamp(key[2]) < since:
            continue
        settled = wanted.get(key)
        if settled is None:
            out.append(
                round_finding(
                    journal,
                    money.first_seq,
                    key,
                    "its entries here name a round the house journal never settled",
                )
            )
            continue
        out += [
            round_finding(journal, seq, key, text)
            for seq, text in round_problems(books.pool, money, settled, dynamics.get(key))
        ]
    return out


def _pool_voids(journal: str, books: BooksWalk, voids: set[RoundKey], since: int) -> list[Finding]:
    """A pool's voids (stamped at or after `since`) that the house journal never made."""
    return [
        round_finding(
            journal, seq, (table, round_id), "a void here that the house journal never made"
        )
        for seq, table, round_id, ts in books.voids
        if stamp(ts) >= since and (table, round_id, ts) not in voids
    ]


def _contributions_missing(
    house: HouseIndex, walked: dict[str, BooksWalk], dynamics: dict[RoundKey, Any], since: int
) -> list[Finding]:
    """Every house round with a wager whose record says it fed a pool walked, and whose
    contribution that pool's journal does not hold."""
    out = []
    for key, settled in house.rounds.items():
        dynamic = dynamics.get(key)
        if settled.ts >= since and settled.wagered > 0 and dynamic is not None:
            out += _round_contributions_missing(key, settled, dynamic, walked)
    return out


def _round_contributions_missing(
    key: RoundKey, settled: HouseRound, dynamic: Any, walked: dict[str, BooksWalk]
) -> list[Finding]:
    """A round's contributions to the pools walked that its record says it fed, and which
    their journals do not hold."""
    out = []
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


def _stretches_by_round(
    books: BooksWalk, wanted: dict[RoundKey, HouseRound], since: int
) -> dict[RoundKey, list[Stretch]]:
    """A pool's trigger-level stretches of each round wanted (stamped at or after `since`)."""
    by_round: dict[RoundKey, list[Stretch]] = {}
    for stretch in books.stretches:
        if stamp(stretch.key[2]) >= since and stretch.key in wanted:
            by_round.setdefault(stretch.key, []).append(stretch)
    return by_round


def _stretch_findings(
    journal: str, key: RoundKey, wagers: list[int] | None, stretches: list[Stretch]
) -> list[Finding]:
    """A round's stretches against its bets' wagers (None: its record not found or not
    committed, the round records' check's to name)."""
    if wagers is None:
        return []
    return [
        round_finding(journal, seq, key, text) for seq, text in stretch_problems(wagers, stretches)
    ]
