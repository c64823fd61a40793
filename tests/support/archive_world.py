"""A controller on a real redis-server and a SQLite archive whose service clock a test moves
forward by hand (Redis's own clock still stamps the journal): for the archive and accounting."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import redis as redis_lib

from jackpot.bootstrap import Services, bootstrap
from jackpot.domain.auth import Role
from jackpot.entrypoints.app import create_app
from jackpot.services.clock import now_ms
from jackpot.settings import Settings
from tests.support.api import Api, Keys, round_body
from tests.support.people import issue

ARCHIVES = ("sqlite", "postgresql")  # a world fixture's params: every tamper on both
RETENTION = 60
SKEW = 5
DAY_MS = 86_400_000


@dataclass
class Clock:
    """The service's clock, moved forward by hand."""

    offset_ms: int = 0

    def __call__(self) -> int:
        return now_ms() + self.offset_ms

    def pass_window(self) -> None:
        """Jump past the retention window and the archiver's margin of skew."""
        self.offset_ms += (RETENTION + 2 * SKEW + 1) * 1000

    def pass_days(self, days: int) -> None:
        self.offset_ms += days * DAY_MS


@dataclass
class World:
    api: Api
    services: Services
    clock: Clock
    redis: redis_lib.Redis


@contextmanager
def world_on(request: pytest.FixtureRequest, tmp_path: Path, **settings: Any) -> Iterator[World]:
    """world_of over the archive a fixture parametrized over ARCHIVES names: SQLite under the
    data dir, or a fresh database on the session's PostgreSQL."""
    url = request.getfixturevalue("postgres_url") if request.param == "postgresql" else None
    server = request.getfixturevalue("redis_server")
    redis = request.getfixturevalue("redis")
    with world_of(redis, server.url, tmp_path / "var", archive_url=url, **settings) as w:
        yield w


@contextmanager
def world_of(redis: redis_lib.Redis, url: str, data_dir: Path, **settings: Any) -> Iterator[World]:
    """Pool `main` fed by table T1, keys of every role, over a flushed Redis."""
    redis.flushall()
    config = Settings(
        **{
            "data_dir": data_dir,
            "key_cache_seconds": 0.0,
            "retention_seconds": RETENTION,
            "clock_skew_seconds": SKEW,
            **settings,
        }
    )
    clock = Clock()
    services = bootstrap(config, url, clock)
    app = create_app(config, services=services)

    def make(role: Role, *tables: str) -> str:
        return issue(services, role, tables, f"{role.value} of the tests")

    keys = Keys(
        operator=make(Role.OPERATOR),
        auditor=make(Role.AUDITOR),
        display=make(Role.DISPLAY),
        table=make(Role.TABLE, "T1", "T2"),
        other_table=make(Role.TABLE, "T9"),
    )
    api = Api(app.test_client(), keys)
    api.put_pool()
    api.put_table()
    try:
        yield World(api, services, clock, redis)
    finally:
        services.close()


def dealt(clock: Clock, seconds_ago: float = 0) -> str:
    at = (clock() - int(seconds_ago * 1000)) / 1000
    return datetime.fromtimestamp(at, UTC).isoformat(timespec="milliseconds")


def deal(w: World, n: int, prefix: str = "r") -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """`n` settled rounds (every tenth a jackpot), with the controller's answers."""
    out = []
    for i in range(n):
        card = "Ah" if i % 10 == 9 else "4d"
        body = round_body(
            f"{prefix}{i}",
            dealer="Qs" if card == "4d" else "As",
            spots=[{"spot": 1, "wager": 500, "card": card}],
            dealt_at=dealt(w.clock),
        )
        answer = w.api.report(body)
        assert answer.status_code == 200, answer.get_json()
        out.append((body, answer.get_json()))
    return out
