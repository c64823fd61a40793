"""Pools: configuration, the public meter read, and audited adjustments."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from jackpot.conflicts import PoolInUseError, PoolStateError, StagedRefusedError
from jackpot.domain.adjustment import Adjustment
from jackpot.domain.config import IN_THE_FUTURE, PoolConfig, StagedChange, requested_name
from jackpot.domain.meter import LinkState, PoolState
from jackpot.domain.poolanswers import PoolAdjusted, PoolRetired
from jackpot.domain.requests import RETIRE_REQUEST
from jackpot.errors import ConflictError, NotFoundError, ValidationError
from jackpot.services.tables import MAX_STALE_RETRIES, Tables
from jackpot.store.adjustments import AdjustmentStore
from jackpot.store.config import ConfigStore
from jackpot.store.payouts import PayoutStore

# what a sign shows of a hit: never the player's id or the round
# (a trigger level's hit: its reveal, public once the level is won, for anyone to check)
PUBLIC_HIT_FIELDS = ("id", "pool", "table", "spot", "outcome", "amount", "created", "level",
                     "trigger", "salt", "commitment")  # fmt: skip


class Pools:
    def __init__(
        self,
        config: ConfigStore,
        adjustments: AdjustmentStore,
        payouts: PayoutStore,
        clock: Callable[[], int],
        tables: Tables | None = None,
    ) -> None:
        self._tables = tables  # its tables' return is checked against a pool's new terms
        self._clock = clock  # epoch ms
        self._config = config
        self._adjustments = adjustments
        self._payouts = payouts

    def put(self, pool: str, body: Any, who: str) -> tuple[str, PoolState]:
        """Create or update a pool ('created', 'updated' or 'unchanged'); moves no money."""
        try:
            state = self._config.pool(pool)
        except NotFoundError:
            state = None
        if state is not None and state.link is LinkState.RETIRED:
            raise PoolStateError(pool, "retired", "a retired pool keeps its last parameters")
        current: PoolConfig | None = None if state is None else state.config
        config = PoolConfig.from_json(body, current)
        if self._tables is not None and config != current:
            self._tables.check_pool_terms(pool, config, "rate_bp")
        public = body.get("public") if isinstance(body, dict) else None  # checked just now
        name = requested_name(body)
        status = self._config.put_pool(pool, config, who, public=public, name=name)
        return status, self._config.pool(pool)

    def set_link(
        self, pool: str, state: LinkState, reason: str, who: str
    ) -> tuple[bool, PoolState]:
        """Suspend or resume a pool's link (journaled with the reason and who); whether it
        changed, and the pool as it is now."""
        changed = self._config.set_link(pool, state, reason, who)
        now = self._config.pool(pool)
        if now.link is LinkState.SUSPENDED and now.staged and now.staged.effective_at is None:
            # the change that waited for a suspension takes effect now, before anyone resumes;
            # one refused as it takes effect stays staged and the pool suspended, saying why
            try:
                self.apply_staged(pool, who)
            except StagedRefusedError:
                pass
            now = self._config.pool(pool)
        return changed, now

    def stage(self, pool: str, body: Any, who: str) -> PoolState:
        """Stage a change of a pool's parameters, for its next suspension or a set time."""
        state = self._config.pool(pool)  # (stage_pool.lua refuses a retired pool)
        change = StagedChange.from_request(body, state.config, who)
        if change.effective_at is not None and change.effective_at <= self._clock():
            raise IN_THE_FUTURE.error()
        if self._tables is not None:
            self._tables.check_pool_terms(pool, change.config, "rate_bp")
        self._config.stage(pool, change, who, change.reason)
        return self._config.pool(pool)

    def cancel_staged(self, pool: str, reason: str, who: str) -> tuple[bool, PoolState]:
        """Drop the staged change (journaled); whether there was one, and the pool now."""
        done = self._config.stage(pool, None, who, reason)
        return done == "cancelled", self._config.pool(pool)

    def apply_staged(self, pool: str, who: str) -> str | None:
        """Apply the pool's staged change: 'updated' or 'unchanged'; None when none waits
        (or another took its place meanwhile). Every refusal as it takes effect raises
        StagedRefusedError and leaves it staged (D229): a table feeding the pool would return
        too much (or too little) with it and the other pools' terms in force, or the store
        refuses it (a cap below the meter or the armed draw's top, a range the meter has
        reached) — journaled `change_refused` once with the code and message, and shown
        with the pool (`staged_refused`)."""
        raw = self._config.staged_raw(pool)
        if raw is None:
            return None
        change = StagedChange.from_stored(json.loads(raw))
        try:
            if self._tables is not None:
                self._tables.check_pool_terms(pool, change.config, "rate_bp", staged=False)
            status = self._config.put_pool(
                pool, change.config, who, staged=raw, reason=change.reason
            )
        except (ValidationError, ConflictError) as exc:
            # every refusal where the change takes effect is handled one way (D229)
            reason = f"not applied: {exc.code}: {exc.message}"
            if self._config.refuse_staged(pool, raw, who, reason) == "stale":
                return None
            raise StagedRefusedError(pool, reason) from exc
        return None if status == "stale" else status

    def apply_due(self, now_ms: int, who: str = "scheduler") -> dict[str, str]:
        """Apply every staged change whose time has come: pool -> what happened (a change
        refused now, e.g. a cap below the meter, stays staged and says why)."""
        done: dict[str, str] = {}
        for state in self._config.pools():
            if state.staged is None or not state.staged.due(now_ms):
                continue
            try:
                status = self.apply_staged(state.pool, who)
            except ConflictError as exc:  # StagedRefusedError: e.g. a cap below the meter (D229)
                done[state.pool] = f"refused: {exc.message}"
                continue
            if status is not None:
                done[state.pool] = status
        return done

    def retire(self, pool: str, body: Any, who: str) -> PoolRetired:
        """Retire `pool` and move its whole balance, meter and reserve, to another pool in
        one atomic, journaled step, once per transfer id. No table may feed it."""
        request = RETIRE_REQUEST.check(body)
        transfer, to, reason = str(request["id"]), str(request["to"]), str(request["reason"])
        if to == pool:
            raise ValidationError("to", "must name another pool than the one retired")
        digest = hashlib.sha256(
            json.dumps({"retire": pool, **request}, sort_keys=True).encode()
        ).hexdigest()
        for _ in range(MAX_STALE_RETRIES):
            seen = self._config.config_version()
            self._config.pool(pool)  # 404 for an unknown pool, before its tables
            feeding = sorted(t.table for t in self._config.tables() if pool in t.config.pools)
            if feeding:
                raise PoolInUseError(pool, feeding)
            done = self._adjustments.retire(transfer, digest, pool, to, seen, reason, who)
            if done is not None:
                value, reserve = done.moved_value_units, done.moved_reserve_units
                moved = None if value is None or reserve is None else (value, reserve)
                names = (transfer, pool, to, reason)
                return PoolRetired.of(names, done.replayed, moved, self._config.pool(to))
        raise ConflictError("table configuration kept changing; try again")

    def get(self, pool: str) -> PoolState:
        return self._config.pool(pool)

    def public(self, pool: str) -> PoolState:
        """A pool as anyone may read it: a retired or non-public pool is not in the public
        read."""
        state = self._config.pool(pool)
        if state.link is LinkState.RETIRED or not state.public:
            raise NotFoundError("pool", pool)
        return state

    def all(self) -> list[PoolState]:
        return self._config.pools()

    def all_public(self) -> list[PoolState]:
        return [p for p in self._config.pools() if p.link is not LinkState.RETIRED and p.public]

    def last_hits(self, pool: str) -> list[dict[str, Any]]:
        """The pool's last hits as a sign may show them, each with its payout's status."""
        hits = self._config.last_hits(pool)
        statuses = {p.id: p.status for p in self._payouts.many([str(h["id"]) for h in hits])}
        return [
            {
                **{k: h[k] for k in PUBLIC_HIT_FIELDS if k in h},
                "status": statuses.get(str(h["id"]), h.get("status")),
            }
            for h in hits
        ]

    def adjust(self, pool: str, body: Any, who: str) -> PoolAdjusted:
        """An audited manual movement of a pool's money, applied once per adjustment id."""
        adjustment = Adjustment.from_json(pool, body)
        self._config.pool(pool)  # 404 before anything else
        applied = self._adjustments.apply(adjustment, who)
        return PoolAdjusted.of(adjustment, applied.replayed, self._config.pool(pool))
