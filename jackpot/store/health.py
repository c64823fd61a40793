"""What the self-check reads of the store (its durability settings, its role) and the state it
records: `{ns}/controller`, with each change of state journaled (controller_state.lua)."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

from redis import Redis
from redis.exceptions import RedisError, ResponseError

from jackpot.errors import StoreUnavailableError
from jackpot.store.keys import Keys
from jackpot.store.scripts import Scripts

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Durability:
    """The store's persistence settings, as far as it lets them be read."""

    appendonly: str  # yes | no | unknown
    appendfsync: str  # always | everysec | no | unknown
    maxmemory: int | None  # bytes; 0: no limit; None: unknown
    maxmemory_policy: str  # e.g. noeviction; unknown
    role: str  # master | slave | unknown
    replicas: int  # replicas connected to it (a master's count)
    used_memory: int | None = None  # bytes the store holds now (INFO memory); None: unknown


@dataclass(frozen=True, slots=True)
class RecordedState:
    state: str  # operable | inoperable
    problems: list[dict[str, str]]
    since: int  # ms, the controller clock


class HealthStore:
    def __init__(self, client: Redis, keys: Keys, scripts: Scripts) -> None:
        self._r = client
        self._k = keys
        self._s = scripts

    def durability(self) -> Durability:
        """CONFIG GET where the store allows it (a managed store may not: then INFO)."""
        names = ("appendonly", "appendfsync", "maxmemory", "maxmemory-policy")
        with self._r.pipeline(transaction=False) as pipe:  # one round trip
            # a key first: on a cluster, a node the meters' slot has left answers MOVED and
            # the pipeline is sent to the one that holds it (INFO alone would be answered)
            pipe.exists(self._k.counters)
            pipe.info("replication")
            pipe.info("memory")
            for name in names:
                pipe.config_get(name)
            _, replication, memory, *found = pipe.execute(raise_on_error=False)
        if isinstance(replication, Exception):
            raise replication
        used = None if isinstance(memory, Exception) else memory.get("used_memory")
        config = self._persistence(found)
        limit = config.get("maxmemory")
        return Durability(
            appendonly=str(config.get("appendonly", "unknown")),
            appendfsync=str(config.get("appendfsync", "unknown")),
            maxmemory=int(limit) if limit is not None else None,
            maxmemory_policy=str(config.get("maxmemory-policy", "unknown")),
            role=str(replication.get("role", "unknown")),
            replicas=int(replication.get("connected_slaves", 0)),
            used_memory=None if used is None else int(used),
        )

    def _persistence(self, found: list[Any]) -> dict[str, Any]:
        """The persistence settings as CONFIG GET `found` them."""
        if not any(isinstance(f, ResponseError) for f in found):
            return {name: value for pairs in found for name, value in pairs.items()}
        # CONFIG renamed or not permitted (a managed store): what INFO says
        persistence, memory = self._r.info("persistence"), self._r.info("memory")
        return {
            "appendonly": "yes" if persistence.get("aof_enabled") else "no",
            "maxmemory": memory.get("maxmemory"),
            "maxmemory-policy": memory.get("maxmemory_policy", "unknown"),
        }

    def clock(self) -> int:
        """The controller clock now, ms (clock.lua's: the store's TIME, never earlier than a
        time it stamped): when a check began, on the clock its records are stamped by."""
        with self._r.pipeline(transaction=False) as pipe:
            pipe.time()
            pipe.hget(self._k.counters, "clock")
            (seconds, micros), stamped = pipe.execute()
        return max(int(seconds) * 1000 + int(micros) // 1000, int(stamped or 0))

    def record(
        self, scope: str, state: str, problems: list[dict[str, str]], who: str, began: int
    ) -> bool:
        """Record the state a check of `scope` found ('store', or 'software@<host>'); True
        when it changed (and was journaled)."""
        k = self._k
        try:
            result = self._s.controller_state(
                keys=[k.controller, k.counters, k.journal, k.activity],
                args=[state, json.dumps(problems, sort_keys=True), who, scope, began],
            )
        except RedisError as exc:  # e.g. READONLY: the master just became a replica
            log.warning("the store did not take the state: %s", exc)
            raise StoreUnavailableError("the store did not take the state") from exc
        return bool(result[0] == "changed")

    def recorded(self, scope: str = "store") -> RecordedState | None:
        fields = (f"{scope}:state", f"{scope}:problems", f"{scope}:since")
        raw = self._r.hmget(self._k.controller, *fields)
        if not raw[0]:
            return None
        return RecordedState(raw[0], json.loads(raw[1] or "[]"), int(raw[2] or 0))
