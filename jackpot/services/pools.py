"""Pools: configuration, the public meter read, and audited adjustments."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jackpot.domain.adjustment import Adjustment
from jackpot.domain.config import PoolConfig
from jackpot.domain.meter import LinkState, PoolState
from jackpot.errors import NotFoundError
from jackpot.store.adjustments import AdjustmentStore
from jackpot.store.config import ConfigStore
from jackpot.store.payouts import PayoutStore

# what a sign shows of a hit: never the player's id or the round
PUBLIC_HIT_FIELDS = ("id", "pool", "table", "spot", "outcome", "amount", "created")


@dataclass(frozen=True, slots=True)
class Adjusted:
    adjustment: Adjustment
    replayed: bool
    state: PoolState

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.adjustment.adjustment,
            "pool": self.adjustment.pool,
            "replayed": self.replayed,
            "value": self.state.value,
            "target": self.adjustment.target.value,
            "amount": self.adjustment.amount,
            "units": self.adjustment.units,
        }


class Pools:
    def __init__(
        self, config: ConfigStore, adjustments: AdjustmentStore, payouts: PayoutStore
    ) -> None:
        self._config = config
        self._adjustments = adjustments
        self._payouts = payouts

    def put(self, pool: str, body: Any, who: str) -> tuple[str, PoolState]:
        """Create or update a pool ('created', 'updated' or 'unchanged'); moves no money."""
        try:
            current: PoolConfig | None = self._config.pool(pool).config
        except NotFoundError:
            current = None
        config = PoolConfig.from_json(body, current)
        status = self._config.put_pool(pool, config, who)
        return status, self._config.pool(pool)

    def set_link(
        self, pool: str, state: LinkState, reason: str, who: str
    ) -> tuple[bool, PoolState]:
        """Suspend or resume a pool's link (journaled with the reason and who); whether it
        changed, and the pool as it is now."""
        changed = self._config.set_link(pool, state, reason, who)
        return changed, self._config.pool(pool)

    def get(self, pool: str) -> PoolState:
        return self._config.pool(pool)

    def all(self) -> list[PoolState]:
        return self._config.pools()

    def last_hits(self, pool: str) -> list[dict[str, Any]]:
        """The pool's last hits as a sign may show them, each with its payout's status."""
        hits = self._config.last_hits(pool)
        statuses = {p["id"]: p["status"] for p in self._payouts.many([str(h["id"]) for h in hits])}
        return [
            {
                **{k: h[k] for k in PUBLIC_HIT_FIELDS if k in h},
                "status": statuses.get(str(h["id"]), h.get("status")),
            }
            for h in hits
        ]

    def adjust(self, pool: str, body: Any, who: str) -> Adjusted:
        """An audited manual movement of a pool's money, applied once per adjustment id."""
        adjustment = Adjustment.from_json(pool, body)
        self._config.pool(pool)  # 404 before anything else
        applied = self._adjustments.apply(adjustment, who)
        return Adjusted(adjustment, applied.replayed, self._config.pool(pool))
