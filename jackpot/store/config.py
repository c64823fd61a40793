"""Pools and tables as stored: configuration, version, liveness."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass

from redis import Redis

from jackpot.conflicts import PoolStateError, TableMoveError
from jackpot.domain.config import (
    PoolConfig,
    StagedChange,
    TableConfig,
    TableRecord,
)
from jackpot.domain.meter import LinkState, PoolState
from jackpot.domain.triggers import draw_trigger
from jackpot.errors import NotFoundError
from jackpot.store.armedtriggers import ArmedTriggers
from jackpot.store.confighashes import canonical, name_keys, pool_state, table_record
from jackpot.store.keys import Keys
from jackpot.store.putpool import PUT_POOL_REFUSALS, level_args, parameter_args
from jackpot.store.scripts import Scripts

TOUCH = """if redis.call('HEXISTS', KEYS[1], 'config') == 1 then
  redis.call('HSET', KEYS[1], 'last_seen', ARGV[1])
end
return 0"""


@dataclass(frozen=True, slots=True)
class TableMove:
    """A table's move between link groups, as each step journals it."""

    move: str  # the move's id
    source: str  # the group it leaves
    target: str  # the group it arrives in
    who: str
    reason: str
    rounds_copied: int | None = None  # None until the copy is done


class ConfigStore:
    def __init__(self, client: Redis, keys: Keys, scripts: Scripts) -> None:
        self._r = client
        self._k = keys
        self._s = scripts
        self._armed = ArmedTriggers(client, keys)

    # pools ---------------------------------------------------------------------------------

    def put_pool(
        self,
        pool: str,
        config: PoolConfig,
        who: str,
        staged: str = "",
        reason: str = "",
        public: bool | None = None,
        name: str | None = None,
    ) -> str:
        """Create or update a pool; returns 'created', 'updated' or 'unchanged'. With
        `staged` (the pool's staged change as stored) apply that change: 'stale' when it is
        no longer the one waiting. A PUT's change to a running pool raises PoolRunningError.

        A must-hit-by or mystery level gets a trigger drawn here over its whole range; the
        script arms it only when the level has none, and only while the meter is below the
        range (TriggerRangeError otherwise). A trigger held stays armed until won (D228):
        the change governs the draws from the next hit, and a ceiling below the armed draw's
        top raises TriggerInForceError. `public` and `name` (None: kept; name '': removed)
        are not parameters: they change a running pool too."""
        span = config.trigger_span
        candidate = "" if span is None else json.dumps(draw_trigger(pool, span).offer())
        result = self._s.put_pool(
            keys=[
                self._k.pool(pool),
                self._k.pool_journal(pool),
                self._k.pools,
                self._k.counters,
                self._k.activity,
            ],
            args=[
                pool,
                *parameter_args(config),
                who,
                staged,
                reason,
                "" if public is None else ("1" if public else "0"),
                *level_args(config),
                candidate,
                "" if span is None else f"{span[0]}:{span[1]}",
                "" if name is None else f"={name}",
                name_keys(name or ""),
            ],
        )
        refused = PUT_POOL_REFUSALS.get(str(result[0]))
        if refused is not None:
            raise refused(result, pool, config, name)
        return str(result[0])

    def _stage_keys(self, pool: str) -> list[str]:
        """stage_pool.lua's keys for `pool`."""
        k = self._k
        return [k.pool(pool), k.pool_journal(pool), k.counters, k.activity]

    def stage(self, pool: str, change: StagedChange | None, who: str, reason: str) -> str:
        """Stage `change` (None: cancel the one waiting): 'staged', 'cancelled' or 'none'."""
        result = self._s.stage_pool(
            keys=self._stage_keys(pool),
            args=[
                "stage" if change else "cancel",
                json.dumps(change.to_json()) if change else "",
                who,
                reason,
            ],
        )
        if result[0] == "missing":
            raise NotFoundError("pool", pool)
        if result[0] == "retired":
            raise PoolStateError(pool, "retired", "a retired pool keeps its last parameters")
        return str(result[0])

    def refuse_staged(self, pool: str, staged: str, who: str, reason: str) -> str:
        """Record that the staged change `staged` (as stored) was refused when it was to take
        effect: 'refused' (journaled `change_refused`), 'noted' (it was before) or 'stale'
        (another change waits now). It stays staged."""
        result = self._s.stage_pool(
            keys=self._stage_keys(pool), args=["refuse", staged, who, reason]
        )
        if result[0] == "missing":
            raise NotFoundError("pool", pool)
        return str(result[0])

    def staged_raw(self, pool: str) -> str | None:
        """The pool's staged change exactly as stored (what put_pool compares)."""
        raw = self._r.hget(self._k.pool(pool), "staged")
        return None if raw is None else str(raw)

    def set_link(self, pool: str, state: LinkState, reason: str, who: str) -> bool:
        """Suspend or resume a pool's link, journaled; False when it already was."""
        result = self._s.link_state(
            keys=[
                self._k.pool(pool),
                self._k.pool_journal(pool),
                self._k.counters,
                self._k.activity,
            ],
            args=[state.value, reason, who],
        )
        if result[0] == "missing":
            raise NotFoundError("pool", pool)
        if result[0] == "retired":
            raise PoolStateError(pool, "retired", "a retired pool is neither suspended nor resumed")
        return bool(result[0] == "changed")

    def pool(self, pool: str) -> PoolState:
        raw = self._r.hgetall(self._k.pool(pool))
        if not raw:
            raise NotFoundError("pool", pool)
        return pool_state(pool, raw)

    def pool_ids(self) -> list[str]:
        return sorted(self._r.smembers(self._k.pools))

    def pools(self) -> list[PoolState]:
        ids = self.pool_ids()
        pipe = self._r.pipeline(transaction=False)
        for pool in ids:
            pipe.hgetall(self._k.pool(pool))
        return [pool_state(p, raw) for p, raw in zip(ids, pipe.execute(), strict=True) if raw]

    def trigger_problems(self) -> list[str]:
        """Each armed trigger that is not the one committed (the self-check's: ArmedTriggers)."""
        return self._armed.problems(self.meter_fields(self.pool_ids(), ArmedTriggers.FIELDS))

    def meter_fields(
        self, pools: list[str], fields: tuple[str, ...]
    ) -> dict[str, list[str | None]]:
        """Some fields of several pools' hashes in one round trip: pool -> values (None for
        a field, or a pool, that is not there)."""
        pipe = self._r.pipeline(transaction=False)
        for pool in pools:
            pipe.hmget(self._k.pool(pool), fields)
        return dict(zip(pools, pipe.execute(), strict=True))

    def last_hits(self, pool: str) -> list[dict[str, object]]:
        return [json.loads(x) for x in self._r.lrange(self._k.pool_hits(pool), 0, 24)]

    # tables --------------------------------------------------------------------------------

    def config_version(self) -> str:
        return self._r.hget(self._k.counters, "config_version") or "0"

    def put_table(
        self,
        table: str,
        config: TableConfig,
        seen_version: str,
        who: str,
        kind: str = "table_updated",
        reason: str = "",
    ) -> tuple[str, str]:
        """Write a table's config if no config changed since `seen_version`: (status, version).
        A change is journaled as `kind` (`table_disabled`, `table_enabled` when play is
        switched), with `reason` when one is given."""
        body = canonical(config.to_json())
        result = self._s.put_table(
            keys=[
                self._k.table(table),
                self._k.counters,
                self._k.journal,
                self._k.tables,
                self._k.activity,
            ],
            args=[table, seen_version, body, who, kind, reason],
        )
        if result[0] == "moving":
            raise _moving(table)
        return str(result[0]), str(result[1]) if len(result) > 1 else ""

    def move_table(self, mode: str, table: str, move: TableMove, config: str, *args: object) -> str:
        """One journaled step of a table's move between link groups (move_table.lua):
        'seal' and 'leave' in the group it leaves, 'arrive' in the one it goes to."""
        k = self._k
        copied = "" if move.rounds_copied is None else move.rounds_copied
        result = self._s.move_table(
            keys=[k.table(table), k.counters, k.journal, k.tables, k.activity],
            args=[
                mode,
                table,
                move.move,
                move.source,
                move.target,
                move.who,
                move.reason,
                copied,
                config,
                *args,
            ],
        )
        return str(result[0])

    def moved_in(self, table: str) -> str | None:
        """The id of the move that brought the table into this group, if one did."""
        found = self._r.hget(self._k.table(table), "moved_in")
        return None if found is None else str(found)

    def round_keys(self, table: str, batch: int = 500) -> Iterator[list[str]]:
        """The keys of a table's round records in this group, a batch at a time (SCAN on
        the master holding the group's slot: a move's copy, not the round path)."""
        pattern = self._k.round(table, "*")
        found: list[str] = []
        for key in self._r.scan_iter(match=pattern, count=1000):
            found.append(key)
            if len(found) == batch:
                yield found
                found = []
        if found:
            yield found

    def copy_rounds(self, keys: list[str], into: ConfigStore, keep_ms: int) -> int:
        """Copy round records into another group's keys, each kept there until its
        retention ends (the original stays here, archived and trimmed by this group); a
        record there already is left as it is. How many are there now."""
        with self._r.pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.hgetall(key)
            records = pipe.execute()
        theirs = [into._k.round(*key.rsplit("/", 2)[-2:]) for key in keys]
        with into._r.pipeline(transaction=False) as pipe:
            for there in theirs:
                pipe.exists(there)
            present = pipe.execute()
        copied = 0
        with into._r.pipeline(transaction=False) as pipe:
            for there, record, found in zip(theirs, records, present, strict=True):
                if not record:
                    continue  # trimmed meanwhile: its retention ended
                copied += 1
                if found:
                    continue  # there already (a move finished again, or moved back)
                # its entry is in this group's house journal, not there: the copy names none
                record.pop("seq", None)
                pipe.hset(there, mapping=record)
                if record.get("ts"):
                    pipe.pexpireat(there, int(record["ts"]) + keep_ms)
            pipe.execute()
        return copied

    def change_game(
        self,
        configs: dict[str, TableConfig],
        seen_version: str,
        who: str,
        reason: str,
        pool: str,
        game: dict[str, object],
    ) -> tuple[str, str]:
        """Write a linked group's new configs at once, if no config changed since
        `seen_version`, journaled as one entry: (status, version); status is 'changed',
        'unchanged' or 'stale'."""
        tables = sorted(configs)
        result = self._s.change_game(
            keys=[
                self._k.counters,
                self._k.journal,
                *(self._k.table(t) for t in tables),
                self._k.activity,
            ],
            args=[
                seen_version,
                who,
                reason,
                pool,
                canonical(game),
                canonical(tables),
                *(canonical(configs[t].to_json()) for t in tables),
            ],
        )
        if result[0] == "missing":
            raise NotFoundError("table", str(result[1]))
        if result[0] == "moving":
            raise _moving(str(result[1]))
        return str(result[0]), str(result[1]) if len(result) > 1 else ""

    def table(self, table: str) -> TableRecord:
        raw = self._r.hgetall(self._k.table(table))
        if "config" not in raw:
            raise NotFoundError("table", table)
        return table_record(table, raw)

    def table_ids(self) -> list[str]:
        return sorted(self._r.smembers(self._k.tables))

    def tables(self) -> list[TableRecord]:
        ids = self.table_ids()
        pipe = self._r.pipeline(transaction=False)
        for table in ids:
            pipe.hgetall(self._k.table(table))
        found = zip(ids, pipe.execute(), strict=True)
        return [table_record(t, raw) for t, raw in found if "config" in raw]

    def touch_table(self, table: str, now: int) -> None:
        """Heartbeat: record that the table was heard from (moves no money), if it is still
        in this group (a heartbeat read just before the table moved out must not leave a
        stray hash behind it)."""
        self._r.eval(TOUCH, 1, self._k.table(table), now)


def _moving(table: str) -> TableMoveError:
    return TableMoveError(
        table,
        "move_under_way",
        "it is moving to another link group: repeat the move request to finish it",
    )
