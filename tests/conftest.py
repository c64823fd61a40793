"""Fixtures: a real redis-server per test session (its own port and data dir), the app over
it, API keys of every role, and helpers to configure pools and tables."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import redis as redis_lib
from flask import Flask
from flask.testing import FlaskClient

from jackpot import integrity
from jackpot.bootstrap import Services
from jackpot.entrypoints.app import create_app
from jackpot.settings import Settings
from tests.support.api import Api, Keys, make_keys
from tests.support.postgres_server import PostgresServer, PostgresUnavailable, start_postgres
from tests.support.redis_server import RedisServer, start_server

pytest_plugins = ["pytester", "tests.support.run_policy"]


def pytest_configure(config: pytest.Config) -> None:
    # the test run builds the tree it tests: each controller process checks its own files
    # against this seal before it operates (jackpot/integrity.py). Sealed once, by the run's
    # first process: pytest-xdist's workers start after it and must not rewrite it under
    # each other's controllers.
    if not hasattr(config, "workerinput"):
        integrity.seal(integrity.package_root())


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    server = start_server(tmp_path_factory.mktemp("redis"))
    yield server
    server.stop()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A real PostgreSQL for the archive's tests (CI installs Debian's postgresql)."""
    try:
        server = start_postgres()
    except PostgresUnavailable as exc:
        pytest.skip(str(exc))
    yield server
    server.remove()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    """A fresh, empty database on the session's PostgreSQL, running."""
    if postgres_server.process is None:
        postgres_server.start()  # a test before may have stopped it
    return postgres_server.create_database()


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


@pytest.fixture
def keys(services: Services) -> Keys:
    return make_keys(services)


@pytest.fixture
def api(client: FlaskClient, keys: Keys) -> Api:
    return Api(client, keys)


@pytest.fixture
def linked(api: Api) -> Api:
    """A pool `main` ($1,000 reset, 1% + 0.2% reserve) and table T1 feeding it."""
    api.put_pool()
    api.put_table()
    return api
