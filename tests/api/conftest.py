"""The API's conformance tests run three times: on one redis-server; on a Redis Cluster of
three masters started by the tests (the controller's keys in the slot of their hash tag, the
background jobs' queue on a server of its own); and on such a cluster with every pool the
tests make put in a link group whose keys live on another master than the main group's (the
API keys, the registry and the signs stay on the main group's): `groups`. A test marked
`one_store` runs on the server only (what it checks is decided before the store is touched);
one marked `main_group` not in `groups` (it reads the main group's keys itself, or is about
link groups and makes its own)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
import redis as redis_lib
from flask import Flask
from flask.testing import FlaskClient

from jackpot.settings import Settings
from tests.support.api import Keys
from tests.support.cluster import need_cluster
from tests.support.redis_server import RedisServer
from tests.support.stores import SharedApp, Store, cluster_store, server_store, shared_app


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "store" in metafunc.fixturenames:
        one = metafunc.definition.get_closest_marker("one_store") is not None
        main = metafunc.definition.get_closest_marker("main_group") is not None
        kinds = ["server"] if one else ["server", "cluster"] if main else KINDS
        metafunc.parametrize("store", kinds, indirect=True, scope="session")


KINDS = ["server", "cluster", "groups"]


class GroupingClient(FlaskClient):
    """The test client of the `groups` run: a pool created without a `group` is created in
    the run's link group (an explicit one is left as it is)."""

    group = ""

    def open(self, *args: Any, **kwargs: Any) -> Any:
        path = args[0] if args and isinstance(args[0], str) else kwargs.get("path", "")
        method = str(kwargs.get("method", "GET")).upper()
        if method == "PUT" and POOL_PATH.fullmatch(path.split("?")[0]):
            if isinstance(kwargs.get("json"), dict) and "group" not in kwargs["json"]:
                kwargs["json"] = {**kwargs["json"], "group": self.group}
            elif isinstance(kwargs.get("data"), str | bytes):
                body = _object(kwargs["data"])
                if isinstance(body, dict) and "group" not in body:
                    kwargs["data"] = json.dumps({**body, "group": self.group})
        return super().open(*args, **kwargs)


POOL_PATH = re.compile(r"/v1/pools/[^/]+")


def _object(data: str | bytes) -> Any:
    """A JSON body as a dict, when it is one a rewrite keeps as sent: no repeated key, not
    too deep (a body that is neither is sent as it is: what it tests is its refusal)."""

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        if len({k for k, _ in items}) != len(items):
            raise ValueError("a repeated key")
        return dict(items)

    try:
        return json.loads(data, object_pairs_hook=pairs)
    except (ValueError, RecursionError):
        return None


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
    if request.param == "groups":
        made.group = made.groups_apart(1)[0]
    yield made
    made.stop()


@pytest.fixture(scope="session")
def shared(store: Store, tmp_path_factory: pytest.TempPathFactory) -> Iterator[SharedApp]:
    """The app of a store layout, shared by its tests and reset before each (SharedApp)."""
    made = shared_app(store, tmp_path_factory.mktemp("app") / "var")
    if store.group:
        client = type("GroupingClient", (GroupingClient,), {"group": store.group})
        made.app.test_client_class = client
    yield made
    made.close()


@pytest.fixture
def redis(store: Store, shared: SharedApp) -> Iterator[redis_lib.Redis]:
    shared.reset()
    client = store.client()
    yield client
    client.close()


@pytest.fixture
def settings(shared: SharedApp) -> Settings:
    return shared.settings


@pytest.fixture
def app(redis: redis_lib.Redis, shared: SharedApp) -> Flask:
    return shared.app


@pytest.fixture
def keys(app: Flask, shared: SharedApp) -> Keys:
    """The shared app's keys: in the baseline every test starts from."""
    assert shared.keys is not None
    return shared.keys
