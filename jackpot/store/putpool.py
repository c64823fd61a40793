"""A pool's change as put_pool.lua takes it, and the errors its refusals raise
(ConfigStore.put_pool)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jackpot.conflicts import (
    CapBelowValueError,
    PoolNameTakenError,
    PoolRunningError,
    TriggerInForceError,
    TriggerRangeError,
)
from jackpot.domain.config import LevelType, PoolConfig
from jackpot.errors import ConflictError, JackpotError


def _cents_text(cents: int | None) -> str:
    return "" if cents is None else str(cents)


def parameter_args(config: PoolConfig) -> list[object]:
    """put_pool.lua's arguments for a pool's meter parameters: reset, rates, cap (-1: none),
    policy."""
    cap = -1 if config.cap is None else config.cap
    return [config.reset, config.rate_bp, config.reserve_rate_bp, cap, config.policy.value]


def level_args(config: PoolConfig) -> list[object]:
    """put_pool.lua's arguments for what wins the level: its type, trigger range (''
    for none) and qualifying wager."""
    return [
        config.level.value,
        _cents_text(config.trigger_low),
        _cents_text(config.trigger_high),
        config.qualifying_wager,
    ]


# what put_pool.lua refuses a change with, as the error each refusal raises
PUT_POOL_REFUSALS: dict[str, Callable[[Any, str, PoolConfig, str | None], JackpotError]] = {
    "too_narrow": lambda result, _, config, __: TriggerRangeError(
        int(result[1]), _low_field(config)
    ),
    "in_force": lambda result, *_: TriggerInForceError(int(result[1])),
    "misdrawn": lambda *_: ConflictError(
        "the trigger offered was not drawn over the level's range"
    ),
    "cap_below_value": lambda result, *_: CapBelowValueError(int(result[1])),
    "running": lambda _, pool, *__: PoolRunningError(pool),
    "name_taken": lambda result, _, __, name: PoolNameTakenError(
        name or "", str(result[1]), str(result[2])
    ),
}


def _low_field(config: PoolConfig) -> str:
    """The field that sets a trigger level's lowest trigger (a must-hit-by's: a cent above
    its reset)."""
    return "trigger_low" if config.level is LevelType.MYSTERY else "reset"
