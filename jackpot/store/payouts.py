"""Jackpot payouts awaiting verification (hand pays): pending -> paid | disputed."""

from __future__ import annotations

import json
from typing import Any

from redis import Redis

from jackpot.errors import NotFoundError, PayoutStateError
from jackpot.store.keys import Keys
from jackpot.store.scripts import Scripts


class PayoutStore:
    def __init__(self, client: Redis, keys: Keys, scripts: Scripts) -> None:
        self._r = client
        self._k = keys
        self._s = scripts

    def get(self, payout: str) -> dict[str, Any]:
        raw = self._r.hget(self._k.payouts, payout)
        if raw is None:
            raise NotFoundError("payout", payout)
        return dict(json.loads(raw))

    def many(self, ids: list[str]) -> list[dict[str, Any]]:
        """The payouts with these ids that exist, in one read."""
        raws = self._r.hmget(self._k.payouts, ids) if ids else []
        return [json.loads(r) for r in raws if r]

    def list(self, status: str | None, limit: int) -> list[dict[str, Any]]:
        """Payouts, newest first; pending ones come from their own index."""
        if status == "pending":
            return self.many(self._r.zrevrange(self._k.payouts_pending, 0, limit - 1))
        out = []
        for _, raw in self._r.hscan_iter(self._k.payouts, count=1000):
            payout = json.loads(raw)
            if status is None or payout["status"] == status:
                out.append(payout)
        out.sort(key=lambda p: int(p["id"][1:]), reverse=True)  # P000123: numeric order
        return out[:limit]

    def set_status(
        self,
        payout: str,
        status: str,
        who: str,
        note: str,
        hand_pay: tuple[str, str, str] = ("", "", ""),
    ) -> dict[str, Any]:
        """`hand_pay`: (paid_by, witness, slip) of a confirmation."""
        current = self.get(payout)
        pool = current["pool"]
        result = self._s.payout_status(
            keys=[
                self._k.payouts,
                self._k.payouts_pending,
                self._k.pool(pool),
                self._k.pool_journal(pool),
                self._k.counters,
            ],
            args=[payout, status, who, note, *hand_pay],
        )
        if result[0] == "missing":
            raise NotFoundError("payout", payout)
        if result[0] == "refused":
            raise PayoutStateError(payout, json.loads(result[1])["status"])
        return dict(json.loads(result[1]))
