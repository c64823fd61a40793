"""Pools and tables as stored: configuration, version, liveness."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass

from redis import Redis

from jackpot.domain.config import (
    Layout,
    LevelType,
    PoolConfig,
    StagedChange,
    TableConfig,
    TableRecord,
)
from jackpot.domain.meter import ArmedTrigger, LinkState, PoolState
from jackpot.domain.names import skeletons
from jackpot.domain.paytable import Paytable
from jackpot.domain.triggers import draw_trigger, revealed
from jackpot.errors import (
    CapBelowValueError,
    ConflictError,
    NotFoundError,
    PoolNameTakenError,
    PoolRunningError,
    PoolStateError,
    TableMoveError,
    TriggerInForceError,
    TriggerRangeError,
)
from jackpot.store.keys import Keys
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
        # the self-check's scan for a newer draw (trigger_problems): per pool, the arming it
        # checked (commitment, draw, seq armed at) and the journal seq it has read up to, so
        # that each pass reads only the entries appended since the last one
        self._scanned: dict[str, tuple[tuple[str, str, int], int]] = {}

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
        cap = -1 if config.cap is None else config.cap
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
                config.reset,
                config.rate_bp,
                config.reserve_rate_bp,
                cap,
                config.policy.value,
                who,
                staged,
                reason,
                "" if public is None else ("1" if public else "0"),
                config.level.value,
                _cents_text(config.trigger_low),
                _cents_text(config.trigger_high),
                config.qualifying_wager,
                candidate,
                "" if span is None else f"{span[0]}:{span[1]}",
                "" if name is None else f"={name}",
                name_keys(name or ""),
            ],
        )
        if result[0] == "too_narrow":
            raise TriggerRangeError(int(result[1]), _low_field(config))
        if result[0] == "in_force":
            raise TriggerInForceError(int(result[1]))
        if result[0] == "misdrawn":
            raise ConflictError("the trigger offered was not drawn over the level's range")
        if result[0] == "cap_below_value":
            raise CapBelowValueError(int(result[1]))
        if result[0] == "running":
            raise PoolRunningError(pool)
        if result[0] == "name_taken":
            raise PoolNameTakenError(name or "", str(result[1]), str(result[2]))
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
        """Each armed trigger that is not the one committed (the self-check's, as the round
        script checks it when it pays, settle_round.lua `committed`): its trigger and salt
        open its commitment, and the journal entry that armed it, while Redis holds it,
        names that commitment and draw, and nothing after it armed or revealed a trigger (it
        is the newest draw). Read here and never returned: the trigger and salt
        stay hidden."""
        fields = ("trigger", "trigger_salt", "commitment", "draw", "armed_seq")
        found = []
        for pool, (trigger, salt, commitment, draw, seq) in self.meter_fields(
            self.pool_ids(), fields
        ).items():
            if commitment is None:
                continue
            if not (trigger or "").isdigit() or not revealed(
                commitment, pool, int(trigger or "0"), salt or ""
            ):
                found.append(f"pool {pool}: its armed trigger and salt do not open draw "
                             f"{draw}'s commitment")  # fmt: skip
                continue
            at, armed = self._armed_entry(pool, seq)
            if armed is not None and (
                armed.get("type") != "trigger_armed"
                or (armed.get("commitment"), armed.get("draw")) != (commitment, draw)
            ):
                found.append(f"pool {pool}: its armed commitment is not the one its journal "
                             f"armed for draw {draw}")  # fmt: skip
                continue
            if self._superseded(pool, (commitment, draw or "", at)):
                found.append(f"pool {pool}: its armed draw {draw} is not the newest: its "
                             "journal armed or revealed a trigger after it")  # fmt: skip
        return found

    def _superseded(self, pool: str, armed: tuple[str, str, int]) -> bool:
        """Whether `pool`'s journal, after the seq `armed` names, arms another trigger or
        reveals one (an entry naming `trigger_cents`), as settle_round.lua `superseded`
        checks at a hit: the armed draw is then an old one put back. Incremental: a pass
        reads only the entries appended since the last pass checked the same arming."""
        journal = self._k.pool_journal(pool)
        held = self._scanned.get(pool)
        upto = held[1] if held is not None and held[0] == armed else armed[2]
        while True:
            batch = self._r.xrange(journal, f"{upto + 1}-0", "+", count=512)
            for entry_id, entry in batch:
                if "trigger_cents" in entry or entry.get("type") == "trigger_armed":
                    self._scanned.pop(pool, None)
                    return True
                upto = int(str(entry_id).split("-")[0])
            if len(batch) < 512:
                self._scanned[pool] = (armed, upto)
                return False

    def _armed_entry(self, pool: str, seq: str | None) -> tuple[int, dict[str, str] | None]:
        """The seq and the journal entry that armed `pool`'s trigger (by the seq the pool
        keeps, or the newest `trigger_armed`), None once archived and trimmed (seq 0 for a
        trigger armed before the pool kept its seq); an entry that should be there and is
        not: an empty one."""
        journal = self._k.pool_journal(pool)
        if seq is not None and seq.isdigit():
            rows = self._r.xrange(journal, f"{seq}-0", f"{seq}-0")
            if rows:
                return int(seq), dict(rows[0][1])
            first = self._r.xrange(journal, "-", "+", count=1)
            trimmed = not first or int(str(first[0][0]).split("-")[0]) > int(seq)
            return int(seq), None if trimmed else {}
        upto = "+"
        while True:
            batch = self._r.xrevrange(journal, upto, "-", count=256)
            for entry_id, entry in batch:
                if entry.get("type") == "trigger_armed":
                    return int(str(entry_id).split("-")[0]), dict(entry)
            if len(batch) < 256:
                return 0, None
            before = int(str(batch[-1][0]).split("-")[0]) - 1
            if before < 1:
                return 0, None
            upto = f"{before}-0"

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


def _cents_text(cents: int | None) -> str:
    return "" if cents is None else str(cents)


def _low_field(config: PoolConfig) -> str:
    """The field that sets a trigger level's lowest trigger (a must-hit-by's: a cent above
    its reset)."""
    return "trigger_low" if config.level is LevelType.MYSTERY else "reset"


def canonical(value: object) -> str:
    """The stored JSON of a configuration: one text per value, so equal configs compare equal."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def name_keys(name: str) -> str:
    """What a pool's display name shares with every name that reads the same (D290): its
    skeletons (jackpot.domain.names: case, compatibility forms and look-alike letters aside)
    with its runs of spaces made one, a line each; '' for no name."""
    if not name:
        return ""
    return "\n".join(sorted(skeletons(" ".join(name.split()))))


def pool_state(pool: str, raw: dict[str, str]) -> PoolState:
    config = PoolConfig.from_stored(raw)
    armed = raw.get("commitment")
    return PoolState(
        pool=pool,
        config=config,
        value_units=int(raw["value"]),
        reserve_units=int(raw["reserve"]),
        reset_initial_units=int(raw["reset_initial_units"]),
        wagered=int(raw["in_cents"]),
        bets=int(raw["bets"]),
        contributions_units=int(raw["contrib_units"]),
        overflow_units=int(raw["overflow_units"]),
        hits=int(raw["hits"]),
        won=int(raw["won_cents"]),
        seed_units=int(raw["seed_units"]),
        seed_in_units=int(raw.get("seed_in_units", "0")),
        seed_returned_units=int(raw.get("seed_returned_units", "0")),
        adjustments_units=int(raw["adjust_units"]),
        voids_units=int(raw.get("void_units", "0")),
        journal_seq=int(raw["seq"]),
        link=LinkState(raw.get("state", LinkState.RUNNING)),
        staged=StagedChange.from_stored(json.loads(raw["staged"])) if raw.get("staged") else None,
        # why the change waiting was refused when it was to take effect (D229), if it was
        staged_refused=raw.get("refused_reason")
        if raw.get("staged") and raw.get("refused") == raw["staged"]
        else None,
        public=raw.get("public", "1") == "1",
        name=raw.get("name", ""),
        # the trigger's commitment and draw only: the trigger and its salt are never read out
        trigger=None
        if armed is None
        else ArmedTrigger(armed, int(raw.get("draw", "0")), int(raw.get("armed_at", "0"))),
    )


def table_record(table: str, raw: dict[str, str]) -> TableRecord:
    data = json.loads(raw["config"])
    config = TableConfig(
        pools=tuple(data["pools"]),
        decks=data["decks"],
        spots=data["spots"],
        min_wager=data["min_wager"],
        max_wager=data["max_wager"],
        layout=Layout(data["profile"]),
        envy_min_wager=data["envy_min_wager"],
        paytable=Paytable.from_json(data["paytable"]),
        enabled=data["enabled"],
        asset=data.get("asset") or "",
        location=data.get("location") or "",
    )
    last_seen = raw.get("last_seen")
    return TableRecord(
        table,
        config,
        raw["version"],
        int(last_seen) if last_seen else None,
        int(raw.get("rounds", 0)),
    )
