"""The API's conformance tests run twice: on one redis-server, and on a Redis Cluster of
three masters started by the tests (the controller's keys in the slot of their hash tag, the
background jobs' queue on a server of its own). A test marked `one_store` runs on the server
only: what it checks is decided before the store is touched."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import redis as redis_lib
from flask import Flask

from jackpot.app import create_app
from jackpot.settings import Settings
from tests.support.cluster import need_cluster
from tests.support.redis_server import RedisServer
from tests.support.stores import Store, cluster_store, server_store


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "store" in metafunc.fixturenames:
        one = metafunc.definition.get_closest_marker("one_store") is not None
        kinds = ["server"] if one else ["server", "cluster"]
        metafunc.parametrize("store", kinds, indirect=True, scope="session")


@pytest.fixture(scope="session")
def store(
    request: pytest.FixtureRequest,
    redis_server: RedisServer,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Store]:
    if request.param == "server":
        yield server_store(redis_server)
        return
    need_cluster()
    made = cluster_store(tmp_path_factory.mktemp("store"))
    yield made
    made.stop()


@pytest.fixture
def redis(store: Store) -> Iterator[redis_lib.Redis]:
    store.flush()
    client = store.client()
    yield client
    client.close()


@pytest.fixture
def settings(tmp_path: Path, store: Store) -> Settings:
    return Settings(
        data_dir=tmp_path / "var", key_cache_seconds=0.0, queue_redis_url=store.queue_url
    )


@pytest.fixture
def app(redis: redis_lib.Redis, store: Store, settings: Settings) -> Flask:
    return create_app(settings, store.url)
