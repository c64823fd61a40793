"""Voids of settled rounds: one void_round script call applies or holds a void."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from redis import Redis

from jackpot import jsonio
from jackpot.domain.voids import VoidPlan
from jackpot.store.keys import Keys
from jackpot.store.scripts import Scripts


@dataclass(frozen=True, slots=True)
class VoidAnswer:
    """The script's verdict and the round's void state after it (`detail`: a refused
    payout's id and status, or the pool at fault)."""

    verdict: str
    state: dict[str, Any]
    detail: tuple[str, ...] = ()


def void_state(raw: str | bytes | None) -> dict[str, Any]:
    """What is void of a round: {spots, whole, voids, held} (cjson writes [] as {})."""
    state: dict[str, Any] = json.loads(raw) if raw else {}
    return {
        "spots": list(state.get("spots") or []),
        "whole": bool(state.get("whole")),
        "voids": list(state.get("voids") or []),
        "held": state.get("held") or None,
    }


class VoidStore:
    def __init__(self, client: Redis, keys: Keys, scripts: Scripts) -> None:
        self._r = client
        self._k = keys
        self._s = scripts

    def state(self, table: str, round_id: str) -> dict[str, Any]:
        return void_state(self._r.hget(self._k.voids, _field(table, round_id)))

    def awaiting(self) -> list[tuple[str, str, dict[str, Any]]]:
        """(table, round, state) of every round whose void awaits people's approval."""
        out = []
        for field, raw in self._r.hscan_iter(self._k.voids, count=500):
            state = void_state(raw)
            if state["held"]:
                table, round_id = _text(field).split("/", 1)
                out.append((table, round_id, state))
        return out

    def route(self, pool: str) -> str | None:
        """The pool that holds the money of `pool` now: itself, or, retired, the live pool
        its balance went to (followed through retirements); None: retired with no record of
        where (or a loop). The script checks the route it is given (void_round.lua)."""
        seen = {pool}
        while True:
            state, to = self._r.hmget(self._k.pool(pool), ["state", "retired_to"])
            if _text(state) != "retired":
                return pool
            if not to or _text(to) in seen:
                return None
            pool = _text(to)
            seen.add(pool)

    def void(
        self,
        plan: VoidPlan,
        who: str,
        person: tuple[str, str],
        reason: str,
        approval_cents: int,
    ) -> VoidAnswer:
        """Apply `plan`, or keep it for people's approval (the script compares its pays with
        `approval_cents`, 0: never, and knows a table's key from a person's)."""
        return self._call(
            plan.table,
            plan.round,
            [p.pool for p in plan.pools],
            "void",
            jsonio.dumps(plan.to_json()),
            who,
            person,
            reason,
            approval_cents,
        )

    def approve(
        self,
        table: str,
        round_id: str,
        pools: list[str],
        who: str,
        person: tuple[str, str],
        note: str,
        approval_cents: int,
    ) -> VoidAnswer:
        """Approve the void held for approval (`pools`: the pools its plan names): applied
        once enough people stand behind it, else recorded as a first approval."""
        return self._call(table, round_id, pools, "approve", b"", who, person, note, approval_cents)

    def refuse(
        self, table: str, round_id: str, who: str, person: tuple[str, str], reason: str
    ) -> VoidAnswer:
        """Drop the void held for approval: a person refuses it, or its asker withdraws it."""
        return self._call(table, round_id, [], "refuse", b"", who, person, reason, 0)

    def _call(
        self,
        table: str,
        round_id: str,
        pools: list[str],
        step: str,
        plan: bytes,
        who: str,
        person: tuple[str, str],
        reason: str,
        approval_cents: int,
    ) -> VoidAnswer:
        """`person`: the one acting as shown (name and number) and as compared (the
        register's id; a table's key: the key)."""
        k = self._k
        keys = [k.voids, k.journal, k.counters, k.payouts, k.payouts_pending]
        routes = [self.route(pool) or pool for pool in pools]
        for pool, now in zip(pools, routes, strict=True):
            keys += [k.pool(pool), k.pool_journal(pool), k.pool(now), k.pool_journal(now)]
        keys += [k.payouts_settled, k.payouts_open, k.activity]
        result = self._s.void_round(
            keys=keys,
            args=[
                _field(table, round_id),
                step,
                plan,
                who,
                *person,
                reason,
                str(approval_cents),
                json.dumps(routes),
            ],
        )
        verdict = str(result[0])
        if verdict in ("paid", "missing_pool", "tampered", "overflow", "retired", "rerouted"):
            return VoidAnswer(verdict, {}, tuple(str(x) for x in result[1:]))
        return VoidAnswer(verdict, void_state(result[1]))


def _text(raw: str | bytes | None) -> str:
    return raw.decode() if isinstance(raw, bytes) else str(raw or "")


def _field(table: str, round_id: str) -> str:
    return f"{table}/{round_id}"
