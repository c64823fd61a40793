"""Pool and table configuration as operators set it (docs/API.md PUT /v1/pools, /v1/tables).

pools.py holds a pool's parameters and level type, staged.py a running pool's change staged
for later, tables.py a table's configuration and record.
"""

from jackpot.domain.config.pools import (
    MAX_CENTS,
    MAX_POOL_NAME,
    MAX_RATE_BP,
    MAX_WAGER,
    NOT_PARAMETERS,
    POOL_REQUEST,
    POOL_RULES,
    TRIGGER_LEVELS,
    LevelType,
    Policy,
    PoolConfig,
    PoolName,
    requested_name,
)
from jackpot.domain.config.staged import IN_THE_FUTURE, STAGE_REQUEST, StagedChange
from jackpot.domain.config.tables import (
    MAX_DECKS,
    MAX_SPOTS,
    MIN_DECKS,
    TABLE_REQUEST,
    Layout,
    TableConfig,
    TableRecord,
    check_levels,
)

__all__ = [
    "IN_THE_FUTURE",
    "MAX_CENTS",
    "MAX_DECKS",
    "MAX_POOL_NAME",
    "MAX_RATE_BP",
    "MAX_SPOTS",
    "MAX_WAGER",
    "MIN_DECKS",
    "NOT_PARAMETERS",
    "POOL_REQUEST",
    "POOL_RULES",
    "STAGE_REQUEST",
    "TABLE_REQUEST",
    "TRIGGER_LEVELS",
    "LevelType",
    "Layout",
    "Policy",
    "PoolConfig",
    "PoolName",
    "StagedChange",
    "TableConfig",
    "TableRecord",
    "check_levels",
    "requested_name",
]
