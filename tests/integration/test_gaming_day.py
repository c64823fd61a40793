"""The controller's gaming day lives with its state: its first process records it, every
later one takes it, one told another is refused naming both, and it changes (journaled)
only before the first day is closed."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis as redis_lib

from jackpot.bootstrap import Services, bootstrap
from jackpot.conflicts import GamingDayClosedError
from jackpot.services.gamingday import (
    GamingDayMismatchError,
    change_gaming_day,
)
from jackpot.settings import Settings, SettingsError
from jackpot.store.keys import Keys
from tests.support.redis_server import RedisServer

ZONE = "America/New_York"


@pytest.fixture
def process(
    redis: redis_lib.Redis, redis_server: RedisServer, tmp_path: Path
) -> Iterator[Callable[..., Services]]:
    """A controller process started with the given environment (each closed at the end)."""
    started: list[Services] = []

    def start(**env: str) -> Services:
        settings = Settings.from_env({"JACKPOT_DATA_DIR": str(tmp_path / "var"), **env})
        built = bootstrap(settings, redis_server.url)
        started.append(built)
        return built

    yield start
    for built in started:
        built.close()


def house(redis: redis_lib.Redis, kind: str) -> list[dict[str, str]]:
    return [f for _, f in redis.xrange(Keys().journal) if f["type"] == kind]


def test_the_first_process_records_its_gaming_day_and_every_later_one_takes_it(
    process, redis: redis_lib.Redis
) -> None:
    first = process(JACKPOT_GAMING_DAY_START="04:30", JACKPOT_TIME_ZONE=ZONE)
    days = first.days()
    assert (days.start.strftime("%H:%M"), days.zone.key) == ("04:30", ZONE)
    assert json.loads(redis.get(Keys().gaming_day)) == {"start": "04:30", "zone": ZONE}
    [entry] = house(redis, "gaming_day_set")
    assert json.loads(entry["definition"]) == {"start": "04:30", "zone": ZONE}
    assert entry["who"]
    # told nothing: the controller's, not the default 06:00 UTC
    later = process().days()
    assert (later.start.strftime("%H:%M"), later.zone.key) == ("04:30", ZONE)
    # told the same: fine; recorded once
    process(JACKPOT_TIME_ZONE=ZONE).days()
    assert len(house(redis, "gaming_day_set")) == 1


def test_a_process_told_another_gaming_day_is_refused_naming_both(process) -> None:
    process(JACKPOT_GAMING_DAY_START="06:00", JACKPOT_TIME_ZONE=ZONE).days()
    other = process(JACKPOT_GAMING_DAY_START="07:00")
    with pytest.raises(GamingDayMismatchError) as refused:
        other.days()
    message = str(refused.value)
    assert "JACKPOT_GAMING_DAY_START=07:00 here" in message
    assert f"the controller's gaming day starts at 06:00 {ZONE}" in message
    assert "jackpot accounting gaming-day" in message
    assert isinstance(refused.value, SettingsError)  # the CLI says it without a traceback
    # its accounting refuses too, before closing anything
    with pytest.raises(GamingDayMismatchError):
        other.accounting.close_due()


def test_the_gaming_day_changes_journaled_until_the_first_day_is_closed(
    process, redis: redis_lib.Redis
) -> None:
    controller = process()
    controller.days()  # 06:00 UTC, the defaults, recorded
    store = controller.days.store
    status, before = change_gaming_day(
        store, lambda: [], "05:00", ZONE, "cli:dana@host", "the casino's real zone"
    )
    assert (status, before) == ("changed", ("06:00", "UTC"))
    [entry] = house(redis, "gaming_day_changed")
    assert json.loads(entry["definition"]) == {"start": "05:00", "zone": ZONE}
    assert json.loads(entry["from"]) == {"start": "06:00", "zone": "UTC"}
    assert entry["reason"] == "the casino's real zone" and entry["who"] == "cli:dana@host"
    assert change_gaming_day(store, lambda: [], "05:00", ZONE, "cli:dana@host", "again")[0] == (
        "unchanged"
    )
    assert len(house(redis, "gaming_day_changed")) == 1
    # a restarted process takes the new one
    assert process().days().start.strftime("%H:%M") == "05:00"
    with pytest.raises(SettingsError, match="JACKPOT_GAMING_DAY_START"):
        change_gaming_day(store, lambda: [], "25:00", ZONE, "cli:dana@host", "typo")
    with pytest.raises(SettingsError, match="JACKPOT_TIME_ZONE"):
        change_gaming_day(store, lambda: [], "05:00", "Mars/Olympus", "cli:dana@host", "typo")
    with pytest.raises(GamingDayClosedError) as refused:
        change_gaming_day(store, lambda: ["2026-11-20"], "07:00", ZONE, "cli:dana@host", "x")
    assert refused.value.status == 409 and "2026-11-20 is closed" in refused.value.message
    assert json.loads(redis.get(Keys().gaming_day)) == {"start": "05:00", "zone": ZONE}


def test_a_change_on_a_store_without_a_gaming_day_records_it(
    process, redis: redis_lib.Redis
) -> None:
    store = process().days.store
    assert change_gaming_day(store, lambda: [], "05:00", ZONE, "cli:dana@host", "trial") == (
        "recorded",
        ("05:00", ZONE),
    )
    assert len(house(redis, "gaming_day_set")) == 1 and not house(redis, "gaming_day_changed")
