"""The use cases: the only place the domain and the store meet."""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from redis import Redis
from rq import Queue
from rq.exceptions import NoSuchJobError
from rq.job import Job

from jackpot import jsonio, metrics
from jackpot.domain.auth import ApiKey, Role, digest, new_secret
from jackpot.domain.config import PoolConfig, TableConfig
from jackpot.domain.meter import UNITS_PER_CENT, PoolState
from jackpot.domain.report import body_digest, parse_envelope, parse_report
from jackpot.domain.requests import Adjustment, ReconcileRequest
from jackpot.domain.settlement import Settlement, settle
from jackpot.errors import (
    AdjustmentError,
    ConflictError,
    ForbiddenError,
    JackpotError,
    LinkedTableError,
    NotFoundError,
    StoreUnavailableError,
    TableDisabledError,
    UnauthenticatedError,
    ValidationError,
)
from jackpot.store.apikeys import KeyStore
from jackpot.store.config import ConfigStore, TableRecord
from jackpot.store.journal import JournalEntry, JournalStore
from jackpot.store.keys import Keys
from jackpot.store.payouts import PayoutStore
from jackpot.store.rounds import MeterPlan, RoundStore, SettleStatus, StoredRound
from jackpot.store.scripts import Scripts

MAX_STALE_RETRIES = 5
MAX_JOURNAL_LIMIT = 5000
MAX_CACHED_KEYS = 10_000
PUBLIC_HIT_FIELDS = ("id", "pool", "table", "spot", "outcome", "amount", "created")


def now_ms() -> int:
    return time.time_ns() // 1_000_000


@dataclass
class Controller:
    """Everything the API, the CLI and the jobs do, over one Redis client."""

    client: Redis
    keys: Keys
    offline_after_seconds: int = 30
    key_cache_seconds: float = 5.0
    clock: Callable[[], int] = now_ms
    queue_name: str = "jackpot"
    rq_client: Redis | None = None  # RQ keeps pickles: a client that does not decode replies
    _tables: dict[str, TableRecord] = field(default_factory=dict)
    _key_cache: dict[str, tuple[float, ApiKey]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        scripts = Scripts.register(self.client)
        self.config = ConfigStore(self.client, self.keys, scripts)
        self.rounds = RoundStore(self.client, self.keys, scripts)
        self.journal = JournalStore(self.client, self.keys)
        self.payouts = PayoutStore(self.client, self.keys, scripts)
        self.api_keys = KeyStore(self.client, self.keys)
        self._scripts = scripts

    # health ----------------------------------------------------------------------------------

    def ready(self) -> bool:
        try:
            return bool(self.client.ping())
        except Exception:  # noqa: BLE001 - any failure to answer means not ready
            return False

    # credentials -----------------------------------------------------------------------------

    def create_key(self, role: Role, tables: frozenset[str], label: str = "") -> tuple[str, ApiKey]:
        if role is Role.TABLE and not tables:
            raise ValidationError("table", "a table key names at least one table")
        if role is not Role.TABLE and tables:
            raise ValidationError("table", "only table keys are limited to tables")
        secret = new_secret()
        return secret, self.api_keys.create(secret, role, tables, self.clock(), label)

    def authenticate(self, secret: str | None, rechecked_by_store: bool = False) -> ApiKey:
        """The key behind a bearer secret, cached for key_cache_seconds; with
        `rechecked_by_store` (round reports: the script refuses a revoked key) a cached key
        is used without a refresh."""
        if not secret:
            raise UnauthenticatedError("an API key is required: Authorization: Bearer <key>")
        key_digest = digest(secret)
        cached = self._key_cache.get(key_digest)
        now = time.monotonic()
        fresh = cached is not None and (
            rechecked_by_store or now - cached[0] <= self.key_cache_seconds
        )
        if cached is None or not fresh:
            key = self.api_keys.lookup(key_digest)
            if key is None:
                # misses are never cached: unknown tokens must not grow a worker's memory
                self._key_cache.pop(key_digest, None)
                raise UnauthenticatedError("unknown or revoked API key")
            if len(self._key_cache) >= MAX_CACHED_KEYS:
                self._key_cache.clear()
            cached = (now, key)
            self._key_cache[key_digest] = cached
        return cached[1]

    # pools -----------------------------------------------------------------------------------

    def put_pool(self, pool: str, body: Any, who: str) -> tuple[str, PoolState]:
        try:
            current: PoolConfig | None = self.config.pool(pool).config
        except NotFoundError:
            current = None
        config = PoolConfig.from_json(body, current)
        status = self.config.put_pool(pool, config, who)
        return status, self.config.pool(pool)

    def pool(self, pool: str) -> PoolState:
        return self.config.pool(pool)

    def pools(self) -> list[PoolState]:
        return self.config.pools()

    def last_hits(self, pool: str) -> list[dict[str, Any]]:
        hits = self.config.last_hits(pool)
        ids = [str(h["id"]) for h in hits]
        statuses = {p["id"]: p["status"] for p in self.payouts.many(ids)}
        # what a sign shows: never the player's id or the round
        return [
            {
                **{k: h[k] for k in PUBLIC_HIT_FIELDS if k in h},
                "status": statuses.get(str(h["id"]), h.get("status")),
            }
            for h in hits
        ]

    def adjust(self, pool: str, body: Any, who: str) -> dict[str, Any]:
        """An audited manual movement of a pool's money, applied once per adjustment id."""
        adj = Adjustment.from_json(body)
        adjustment, amount, units, target = adj.id, adj.amount, adj.units, adj.target
        self.config.pool(pool)  # 404 before anything else
        # the pool is part of the request: the same id on another pool is a conflict
        request = json.dumps({"pool": pool, **body}, sort_keys=True)
        result = self._scripts.adjust_pool(
            keys=[
                self.keys.pool(pool),
                self.keys.pool_journal(pool),
                self.keys.adjustments,
                self.keys.counters,
            ],
            args=[
                adjustment,
                hashlib.sha256(request.encode()).hexdigest(),
                target,
                amount * UNITS_PER_CENT + units,
                adj.reason,
                who,
            ],
        )
        status = result[0]
        refusals = {
            "conflict": ("was already applied with another body", "id"),
            "negative": ("would make the meter or reserve negative", "amount"),
            "over_cap": ("would lift the meter above its cap", "amount"),
        }
        if status in refusals:
            message, fld = refusals[status]
            raise AdjustmentError(adjustment, message, fld)
        if status == "missing":
            raise NotFoundError("pool", pool)
        state = self.config.pool(pool)
        return {
            "id": adjustment,
            "pool": pool,
            "replayed": status == "replay",
            "value": state.value,
            "target": target,
            "amount": amount,
            "units": units,
        }

    # tables ----------------------------------------------------------------------------------

    def put_table(self, table: str, body: Any, who: str) -> tuple[str, TableRecord]:
        for _ in range(MAX_STALE_RETRIES):
            seen = self.config.config_version()
            try:
                current: TableConfig | None = self.config.table(table).config
            except NotFoundError:
                current = None
            config = TableConfig.from_json(body, current)
            known = set(self.config.pool_ids())
            for i, pool in enumerate(config.pools):
                if pool not in known:
                    raise NotFoundError("pool", pool, f"pools[{i}]")
            self._check_linked(table, config)
            status, _ = self.config.put_table(table, config, seen, who)
            if status != "stale":
                record = self.config.table(table)
                self._tables[table] = record
                return status, record
        raise ConflictError("table configuration kept changing; try again")

    def _check_linked(self, table: str, config: TableConfig) -> None:
        for other in self.config.tables():
            if other.table == table:
                continue
            shared = set(other.config.pools) & set(config.pools)
            if shared and not other.config.same_game(config):
                raise LinkedTableError(table, other.table, sorted(shared)[0])

    def table(self, table: str) -> TableRecord:
        return self.config.table(table)

    def tables(self) -> list[TableRecord]:
        return self.config.tables()

    def online(self, record: TableRecord) -> bool:
        if record.last_seen is None:
            return False
        return self.clock() - record.last_seen <= self.offline_after_seconds * 1000

    def heartbeat(self, table: str, key: ApiKey) -> TableRecord:
        self._authorize_table(key, table)
        record = self._table_cached(table, refresh=True)  # the answer tells it if it is enabled
        self.config.touch_table(table, self.clock())
        return record

    def _table_cached(self, table: str, refresh: bool = False) -> TableRecord:
        record = None if refresh else self._tables.get(table)
        if record is None:
            record = self.config.table(table)
            self._tables[table] = record
        return record

    @staticmethod
    def _authorize_table(key: ApiKey, table: str) -> None:
        if key.role is not Role.TABLE:
            raise ForbiddenError("only a table key reports rounds and heartbeats")
        if table not in key.tables:
            raise ForbiddenError(f"this key may not report for table {table!r}")

    # rounds ----------------------------------------------------------------------------------

    def report_round(self, body: Any, key: ApiKey, secret: str) -> dict[str, Any]:
        """Settle a round report: one script call, idempotent under (table, round)."""
        table, round_id = parse_envelope(body)
        self._authorize_table(key, table)
        report_digest = body_digest(body)
        refresh = False
        for _ in range(MAX_STALE_RETRIES):
            record = self._table_cached(table, refresh)
            try:
                if not record.config.enabled:
                    raise TableDisabledError(table)
                report = parse_report(body, record.config)
            except (ValidationError, TableDisabledError):
                if not refresh:
                    # this worker's copy of the table may predate the change the report needs
                    refresh = True
                    continue
                # An acknowledged round is always answered, even after its table changed.
                replay = self._replay(table, round_id, report_digest)
                if replay is not None:
                    return replay
                raise
            settlement = settle(report, record.config)
            plan = _plan(record, report.round, report_digest, key, digest(secret), settlement)
            stored = self.rounds.settle(plan)
            if stored.status is SettleStatus.STALE:
                refresh = True
                continue
            if stored.status is SettleStatus.REVOKED:
                self._key_cache.pop(digest(secret), None)
                raise UnauthenticatedError("unknown or revoked API key")
            replayed = stored.status is SettleStatus.REPLAYED
            if not replayed:
                metrics.record_round(settlement, stored.dynamic["jackpots"])
            return _response(stored, replayed)
        raise StoreUnavailableError("the table's configuration kept changing; nothing was applied")

    def _replay(self, table: str, round_id: str, report_digest: str) -> dict[str, Any] | None:
        found = self.rounds.stored(table, round_id)
        if found is None or found[0] != report_digest:
            return None
        return _response(found[1], replayed=True)

    def stored_round(self, table: str, round_id: str) -> dict[str, Any]:
        found = self.rounds.stored(table, round_id)
        if found is None:
            raise NotFoundError("round", f"{table}/{round_id}")
        return _response(found[1], replayed=False)

    # journal and payouts ---------------------------------------------------------------------

    def read_journal(self, pool: str | None, after: int, limit: int) -> list[JournalEntry]:
        if pool is None:
            return self.journal.read(self.journal.house_stream, after, limit)
        self.config.pool(pool)
        return self.journal.read(self.journal.pool_stream(pool), after, limit)

    def list_payouts(self, status: str | None, limit: int) -> list[dict[str, Any]]:
        return self.payouts.list(status, limit)

    def set_payout_status(self, payout: str, status: str, who: str, note: str) -> dict[str, Any]:
        return self.payouts.set_status(payout, status, who, note)

    # background reports ----------------------------------------------------------------------

    def request_reconciliation(self, body: Any, who: str) -> dict[str, Any]:
        """Queue a pool's reconciliation over [from, to) (ms since the epoch) for the worker."""
        wanted = ReconcileRequest.from_json(body, self.clock())
        pool, from_ts, to_ts = wanted.pool, wanted.from_ts, wanted.to_ts
        self.config.pool(pool)
        job = self._queue().enqueue(
            "jackpot.jobs.reconcile.reconcile_pool",
            pool,
            from_ts,
            to_ts,
            result_ttl=30 * 24 * 3600,
            failure_ttl=30 * 24 * 3600,
            meta={"requested_by": who, "kind": "reconcile"},
        )
        return {
            "id": job.id,
            "kind": "reconcile",
            "status": "queued",
            "pool": pool,
            "from": from_ts,
            "to": to_ts,
        }

    def report(self, report_id: str) -> dict[str, Any]:
        try:
            job = Job.fetch(report_id, connection=self._rq())
        except (NoSuchJobError, ValueError):  # rq refuses ids it could never have made
            raise NotFoundError("report", report_id) from None
        pool, from_ts, to_ts = job.args
        out: dict[str, Any] = {
            "id": job.id,
            "kind": job.meta.get("kind", "reconcile"),
            "status": job.get_status().value,
            "pool": pool,
            "from": from_ts,
            "to": to_ts,
        }
        if out["status"] == "finished":
            out["result"] = job.return_value()
        return out

    def _rq(self) -> Redis:
        if self.rq_client is None:
            raise ConflictError("background jobs are not configured")
        return self.rq_client

    def _queue(self) -> Queue:
        return Queue(self.queue_name, connection=self._rq())


def _plan(
    record: TableRecord,
    round_id: str,
    report_digest: str,
    key: ApiKey,
    key_digest: str,
    s: Settlement,
) -> MeterPlan:
    static = {
        "table": record.table,
        "round": round_id,
        "spots": [
            {
                "spot": b.spot,
                **({"player": b.player} if b.player is not None else {}),
                "outcome": b.outcome.value,
                "wager": b.wager,
                "pay": b.pay,
                "envy": b.envy,
            }
            for b in s.bets
        ],
    }
    return MeterPlan(
        table=record.table,
        round=round_id,
        digest=report_digest,
        table_version=record.version,
        key_digest=key_digest,
        who=key.who,
        pools=record.config.pools,
        wagered=s.wagered,
        bets=len(s.bets),
        fixed=s.fixed_paid,
        envy=s.envy_paid,
        hits=tuple(
            {
                "pool": record.config.pools.index(h.pool) + 1,
                "bet": h.bet,
                "bp": h.meter_bp,
                "spot": s.bets[h.bet].spot,
                "player": s.bets[h.bet].player,
                "outcome": s.bets[h.bet].outcome.value,
            }
            for h in s.hits
        ),
        envies=tuple(
            {"spot": e.spot, "outcome": e.outcome.value, "receivers": e.receivers, "total": e.total}
            for e in s.envies
        ),
        static=static,
        static_json=jsonio.dumps(static),
    )


def _response(stored: StoredRound, replayed: bool) -> dict[str, Any]:
    static, dynamic = stored.static, stored.dynamic
    jackpot_by_bet: dict[int, int] = {}
    for jp in dynamic["jackpots"]:
        jackpot_by_bet[int(jp["bet"])] = jackpot_by_bet.get(int(jp["bet"]), 0) + int(jp["amount"])
    spots = []
    for i, bet in enumerate(static["spots"]):
        spots.append({**bet, "jackpot": jackpot_by_bet.get(i, 0)})
    jackpots = []
    for jp in dynamic["jackpots"]:
        bet = static["spots"][int(jp["bet"])]
        entry: dict[str, Any] = {"id": jp["id"], "pool": jp["pool"], "spot": bet["spot"]}
        if "player" in bet:
            entry["player"] = bet["player"]
        entry.update({"amount": int(jp["amount"]), "status": "pending"})
        jackpots.append(entry)
    return {
        "table": static["table"],
        "round": static["round"],
        "replayed": replayed,
        "spots": spots,
        "jackpots": jackpots,
        "pools": {pool: {"value": int(v)} for pool, v in dynamic["pools"].items()},
    }


__all__ = ["Controller", "JackpotError", "now_ms"]
