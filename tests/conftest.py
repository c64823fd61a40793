"""Fixtures: a real redis-server per test session (its own port and data dir), the app over
it, API keys of every role, and helpers to configure pools and tables."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import redis as redis_lib
from flask import Flask
from flask.testing import FlaskClient

from jackpot.app import create_app
from jackpot.bootstrap import Services
from jackpot.domain.auth import Role
from jackpot.settings import Settings
from jackpot.store.embedded import free_port, server_args, wait_ready


@dataclass
class RedisServer:
    """A redis-server the tests own: they may kill it and start it again on its AOF."""

    data_dir: Path
    port: int
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            server_args(self.data_dir, self.port),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_ready(self.url)

    def kill(self) -> None:
        """SIGKILL: no chance to flush anything beyond what fsync already wrote."""
        assert self.process is not None
        self.process.kill()
        self.process.wait()
        self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=20)
            self.process = None


def start_server(data_dir: Path) -> RedisServer:
    data_dir.mkdir(parents=True, exist_ok=True)
    server = RedisServer(data_dir, free_port())
    server.start()
    return server


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    server = start_server(tmp_path_factory.mktemp("redis"))
    yield server
    server.stop()


@pytest.fixture
def redis(redis_server: RedisServer) -> Iterator[redis_lib.Redis]:
    client = redis_lib.Redis.from_url(redis_server.url, decode_responses=True)
    client.flushall()
    yield client
    client.close()


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path / "var", key_cache_seconds=0.0)


@pytest.fixture
def app(redis: redis_lib.Redis, redis_server: RedisServer, settings: Settings) -> Flask:
    return create_app(settings, redis_server.url)


@pytest.fixture
def services(app: Flask) -> Services:
    return app.extensions["jackpot"]  # type: ignore[no-any-return]


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@dataclass
class Keys:
    operator: str
    auditor: str
    display: str
    table: str  # may report for T1 and T2
    other_table: str  # may report for T9 only

    def header(self, role: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {getattr(self, role)}"}


@pytest.fixture
def keys(services: Services) -> Keys:
    def make(role: Role, *tables: str) -> str:
        return services.credentials.create(role, frozenset(tables))[0]

    return Keys(
        operator=make(Role.OPERATOR),
        auditor=make(Role.AUDITOR),
        display=make(Role.DISPLAY),
        table=make(Role.TABLE, "T1", "T2"),
        other_table=make(Role.TABLE, "T9"),
    )


@dataclass
class Api:
    """The app's HTTP API with the right key for each call."""

    client: FlaskClient
    keys: Keys

    def put_pool(self, pool: str = "main", **body: Any) -> Any:
        body = {"reset": 100_000, "rate_bp": 100, "reserve_rate_bp": 20, **body}
        r = self.client.put(f"/v1/pools/{pool}", json=body, headers=self.keys.header("operator"))
        assert r.status_code in (200, 201), r.get_json()
        return r.get_json()

    def put_table(self, table: str = "T1", **body: Any) -> Any:
        body = {"pools": ["main"], **body}
        r = self.client.put(f"/v1/tables/{table}", json=body, headers=self.keys.header("operator"))
        assert r.status_code in (200, 201), r.get_json()
        return r.get_json()

    def report(self, body: dict[str, Any], role: str = "table") -> Any:
        return self.client.post("/v1/rounds", json=body, headers=self.keys.header(role))

    def pool(self, pool: str = "main") -> Any:
        return self.client.get(f"/v1/pools/{pool}").get_json()

    def meters(self, pool: str = "main") -> Any:
        return self.client.get(
            f"/v1/pools/{pool}/meters", headers=self.keys.header("auditor")
        ).get_json()

    def journal(self, pool: str | None = "main", after: int = 0, limit: int = 5000) -> Any:
        query = f"after={after}&limit={limit}" + (f"&pool={pool}" if pool else "")
        r = self.client.get(f"/v1/journal?{query}", headers=self.keys.header("auditor"))
        assert r.status_code == 200, r.get_json()
        return r.get_json()["entries"]


@pytest.fixture
def api(client: FlaskClient, keys: Keys) -> Api:
    return Api(client, keys)


@pytest.fixture
def linked(api: Api) -> Api:
    """A pool `main` ($1,000 reset, 1% + 0.2% reserve) and table T1 feeding it."""
    api.put_pool()
    api.put_table()
    return api


def round_body(
    round_id: str = "r1",
    table: str = "T1",
    dealer: str = "Qs",
    dealer_war: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    spots = extra.pop("spots", [{"spot": 1, "wager": 500, "card": "4d"}])
    body: dict[str, Any] = {
        "table": table,
        "round": round_id,
        "dealer": {"card": dealer},
        "spots": spots,
        **extra,
    }
    if dealer_war is not None:
        body["dealer"]["war_card"] = dealer_war
    return body
