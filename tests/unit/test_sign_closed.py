"""When a sign shows a level's progressive closed: the one rule, alone
(jackpot.domain.signs.closed_reason)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from jackpot.domain.config import PoolConfig, TableConfig, TableRecord
from jackpot.domain.meter import LinkState, PoolState, new_pool
from jackpot.domain.signs import closed_reason

NOW = 1_800_000_000_000
OFFLINE_MS = 30_000


def pool(link: LinkState = LinkState.RUNNING) -> PoolState:
    config = PoolConfig.from_json({"reset": 100_000, "rate_bp": 500, "reserve_rate_bp": 0})
    return replace(new_pool("main", config), link=link)


def table(seen_ms_ago: int | None, enabled: bool = True) -> TableRecord:
    config = TableConfig.from_json({"pools": ["main"], "enabled": enabled})
    seen = None if seen_ms_ago is None else NOW - seen_ms_ago
    return TableRecord("T1", config, "v1", seen, 0)


def test_open_while_an_enabled_table_feeding_it_was_heard_from_lately() -> None:
    assert closed_reason(pool(), [table(1_000)], True, NOW, OFFLINE_MS) == ""
    assert closed_reason(pool(), [table(OFFLINE_MS)], True, NOW, OFFLINE_MS) == ""


@pytest.mark.parametrize(
    "tables",
    [[], [table(None)], [table(OFFLINE_MS + 1)], [table(1_000, enabled=False)]],
    ids=["no table", "never heard", "silent too long", "disabled"],
)
def test_closed_when_no_table_online(tables: list[TableRecord]) -> None:
    assert closed_reason(pool(), tables, True, NOW, OFFLINE_MS) == "no table online"


def test_a_suspended_pool_is_closed_whatever_its_tables() -> None:
    suspended = pool(LinkState.SUSPENDED)
    assert closed_reason(suspended, [table(1_000)], True, NOW, OFFLINE_MS) == "suspended"


def test_an_inoperable_controller_comes_first() -> None:
    suspended = replace(pool(), link=LinkState.SUSPENDED)
    for p in (pool(), suspended):
        reason = closed_reason(p, [table(1_000)], False, NOW, OFFLINE_MS)
        assert reason == "controller inoperable"
