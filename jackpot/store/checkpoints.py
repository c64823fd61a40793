"""A link group's journal heads as Redis records them, read at one instant, and the hashes of
the entries Redis still holds: what a checkpoint signs and what it is held to."""

from __future__ import annotations

from collections.abc import Sequence

from redis import Redis
from redis.exceptions import WatchError

from jackpot.domain.chain import ChainedEntry
from jackpot.domain.checkpoints import Head
from jackpot.domain.journals import house_journal, pool_journal
from jackpot.store.keys import Keys


class HeadStore:
    def __init__(self, client: Redis, keys: Keys) -> None:
        self._r = client
        self._k = keys

    def heads(self) -> list[Head]:
        """Every journal's recorded head (the house's, each pool's), in one transaction: a
        state that existed. The pools are read in it too, and the read is made again if a
        pool was added between (WATCH)."""
        k = self._k
        while True:
            with self._r.pipeline(transaction=True) as pipe:
                try:
                    pipe.watch(k.pools)
                    pools = sorted(pipe.smembers(k.pools))
                    pipe.multi()
                    pipe.hmget(k.counters, "house_seq", "house_head")
                    for pool in pools:
                        pipe.hmget(k.pool(pool), "seq", "head")
                    found = pipe.execute()
                except WatchError:
                    continue
            names = [house_journal(k.group)] + [pool_journal(p) for p in pools]
            return [
                Head(name, int(seq or 0), head or "")
                for name, (seq, head) in zip(names, found, strict=True)
            ]

    def pools(self) -> list[str]:
        return sorted(self._r.smembers(self._k.pools))

    def hashes_at(self, pool: str | None, seqs: Sequence[int]) -> dict[int, str]:
        """The hash of each entry Redis holds at one of `seqs` in a pool's journal (None: the
        house's), computed from its content."""
        stream = self._k.journal if pool is None else self._k.pool_journal(pool)
        wanted = sorted(set(seqs))
        with self._r.pipeline(transaction=False) as pipe:
            for seq in wanted:
                pipe.xrange(stream, min=f"{seq}-0", max=f"{seq}-0")
            found = pipe.execute()
        return {
            seq: ChainedEntry.from_stream(*rows[0]).hash
            for seq, rows in zip(wanted, found, strict=True)
            if rows
        }

    def take_lock(self, token: str, ttl_ms: int) -> bool:
        """The checkpoint job's own lock: one run at a time across workers."""
        return bool(self._r.set(self._lock, token, nx=True, px=ttl_ms))

    def release_lock(self, token: str) -> None:
        if self._r.get(self._lock) == token:
            self._r.delete(self._lock)

    @property
    def _lock(self) -> str:
        return f"{self._k.tag}/checkpoints/lock"
