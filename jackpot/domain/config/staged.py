"""A running pool's parameter change, staged for its next suspension or a set time
(docs/API.md POST /v1/pools/{pool}/staged)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jackpot.domain.config.pools import NOT_PARAMETERS, POOL_REQUEST, POOL_RULES, PoolConfig
from jackpot.domain.fields import (
    MAX_REASON,
    Field,
    Nullable,
    Presence,
    Record,
    Rule,
    Text,
    Timestamp,
)

# checked against the controller's clock when the change is staged (services/pools.py)
IN_THE_FUTURE = Rule(
    "effective_at",
    "must be in the future: a change for now is made by suspending the pool (a change "
    "staged without a time takes effect then)",
    "in_the_past",
)


#: The body of POST /v1/pools/{pool}/staged: a parameter change for later.
STAGE_REQUEST = Record(
    {
        **{n: f for n, f in POOL_REQUEST.fields.items() if n not in NOT_PARAMETERS},
        "effective_at": Field(
            Nullable(Timestamp()),
            description=(
                "when it takes effect, RFC 3339 (the worker applies it within seconds of it); "
                "left out or null: at the pool's next suspension"
            ),
        ),
        "reason": Field(Text(MAX_REASON), Presence.REQUIRED, "why, for the journal"),
    },
    "A change of a running pool's parameters, staged: it takes effect while the pool is "
    "suspended, or at a scheduled time, never in the middle of play.",
    rules=(*POOL_RULES, IN_THE_FUTURE),
    notes=(
        "Fields left out keep the values the pool has when the change is staged. A new "
        "staged change replaces the one waiting. The cap is checked against the meter when "
        "the change takes effect (409 `cap_below_value` then leaves it staged).",
    ),
)


@dataclass(frozen=True, slots=True)
class StagedChange:
    """A pool's parameters as they will be, once a staged change takes effect."""

    config: PoolConfig
    effective_at: int | None  # epoch ms; None: at the pool's next suspension
    reason: str
    who: str = ""

    @classmethod
    def from_request(cls, raw: Any, current: PoolConfig, who: str) -> StagedChange:
        data = STAGE_REQUEST.check(raw, creating=False)
        config = PoolConfig.from_json(
            {k: v for k, v in data.items() if k in POOL_REQUEST.fields}, current
        )
        return cls(config, data.get("effective_at"), str(data["reason"]), who)

    def to_json(self) -> dict[str, Any]:
        return {
            **self.config.to_json(),
            "effective_at": self.effective_at,
            "reason": self.reason,
            "who": self.who,
        }

    @classmethod
    def from_stored(cls, raw: dict[str, Any]) -> StagedChange:
        config = PoolConfig.from_stored(raw)
        at = raw.get("effective_at")
        return cls(config, None if at is None else int(at), str(raw["reason"]), str(raw["who"]))

    def due(self, now_ms: int) -> bool:
        """A scheduled change whose time has come (one waiting for a suspension is not)."""
        return self.effective_at is not None and self.effective_at <= now_ms
