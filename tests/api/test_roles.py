"""The role matrix of docs/API.md and docs/RULES.md §5: who may call what.

One table drives it: each endpoint with a request that succeeds for an allowed caller and
the roles allowed (None: no credential needed). Wrong or missing key -> 401, right key but
wrong role or wrong table -> 403; a refused request changes nothing. /metrics is open, and
widened by an operator's or auditor's key: a bearer key sent to it must be one of those.
"""

from __future__ import annotations

from typing import Any

import pytest
import redis as redis_lib
from flask import Flask
from flask.testing import FlaskClient

from jackpot.domain.auth import digest, key_id_of
from jackpot.entrypoints.app import create_app
from jackpot.settings import Settings
from tests.support.api import Api, Keys, round_body
from tests.support.checks import assert_error, snapshot
from tests.support.roles import (
    MATRIX,
    ROLES,
    Endpoint,
    World,
    build_world,
    credential,
)
from tests.support.stores import SharedApp, Store

BY_NAME = {e.name: e for e in MATRIX}


@pytest.fixture
def world(api: Api, shared: SharedApp) -> World:
    """Built once per store layout, restored for each test (most only read it, or are
    refused and change nothing)."""
    return shared.world("roles", lambda: build_world(api))


BROKEN = ("none", "unknown key", "empty bearer", "basic scheme", "key without scheme")
CALLERS = BROKEN + ROLES


def expected_status(endpoint: Endpoint, who: str) -> int:
    """200-class, 401 or 403: what docs/API.md says the caller gets."""
    if endpoint.roles is None and endpoint.widened_by is not None:
        # no bearer key: the open answer; a bearer key must be one that widens it
        if who == "unknown key":
            return 401
        return 403 if who in ROLES and who not in endpoint.widened_by else 200
    if endpoint.roles is None:
        return 200
    if who in BROKEN:
        return 401
    return 200 if who in endpoint.roles else 403


def status_class(status: int) -> int:
    return status - status % 100 if 200 <= status < 300 else status


@pytest.mark.one_store  # who may call what is decided before the store is touched
@pytest.mark.parametrize("who", CALLERS)
@pytest.mark.parametrize("endpoint", MATRIX, ids=lambda e: e.name)
def test_each_caller_gets_what_the_role_matrix_says(
    client: FlaskClient,
    keys: Keys,
    world: World,
    redis: redis_lib.Redis,
    endpoint: Endpoint,
    who: str,
) -> None:
    expected = expected_status(endpoint, who)
    before = snapshot(redis)
    response = endpoint.send(client, world, credential(keys, who))
    assert status_class(response.status_code) == expected, (
        response.status_code,
        response.get_data(as_text=True)[:300],
    )
    if expected in (401, 403):
        error = assert_error(response, expected, None)
        assert error["code"] == ("unauthenticated" if expected == 401 else "forbidden")
        assert snapshot(redis) == before
    if expected == 401:
        assert response.headers["WWW-Authenticate"].startswith("Bearer")


def test_the_matrix_covers_every_route_of_the_app(app: Flask) -> None:
    routes = {
        (method, rule.rule)
        for rule in app.url_map.iter_rules()
        if rule.endpoint != "static"
        for method in rule.methods or ()
        if method not in ("HEAD", "OPTIONS")
    }
    assert routes == {(e.method, e.rule) for e in MATRIX}


OWN_TABLE_ONLY = [
    pytest.param("POST", "/v1/rounds", round_body("r-other"), id="report a round"),
    pytest.param("POST", "/v1/tables/T1/heartbeat", None, id="heartbeat"),
    pytest.param("GET", "/v1/rounds/T1/r-hit", None, id="read a round"),
]


@pytest.mark.parametrize(("method", "path", "body"), OWN_TABLE_ONLY)
def test_a_table_key_gets_403_for_a_table_it_does_not_hold(
    client: FlaskClient,
    keys: Keys,
    world: World,
    redis: redis_lib.Redis,
    method: str,
    path: str,
    body: Any,
) -> None:
    before = snapshot(redis)
    response = client.open(path, method=method, json=body, headers=keys.header("other_table"))
    assert_error(response, 403, None)
    assert snapshot(redis) == before


def test_a_table_key_never_learns_whether_another_tables_round_exists(
    client: FlaskClient, keys: Keys, world: World
) -> None:
    missing = client.get("/v1/rounds/T1/r-none", headers=keys.header("other_table"))
    present = client.get("/v1/rounds/T1/r-hit", headers=keys.header("other_table"))
    assert missing.status_code == present.status_code == 403


def test_a_table_key_reads_its_own_tables_round(
    client: FlaskClient, keys: Keys, world: World
) -> None:
    response = client.get("/v1/rounds/T1/r-hit", headers=keys.header("table"))
    assert response.status_code == 200
    assert response.get_json()["round"] == "r-hit"


def revoke(api: Api, secret: str) -> None:
    services = api.client.application.extensions["jackpot"]
    assert services.credentials.revoke(key_id_of(digest(secret)))


@pytest.mark.parametrize("role", ROLES)
def test_a_revoked_key_gets_401_everywhere_it_was_allowed(
    api: Api, keys: Keys, world: World, redis: redis_lib.Redis, role: str
) -> None:
    revoke(api, getattr(keys, role))
    allowed = [e for e in MATRIX if e.roles is not None and role in e.roles]
    assert allowed or role == "display"
    before = snapshot(redis)
    for endpoint in allowed:
        response = endpoint.send(api.client, world, keys.header(role))
        assert_error(response, 401, None)
    assert snapshot(redis) == before
    # the other keys still work
    assert api.client.get("/v1/tables", headers=keys.header(
        "auditor" if role == "operator" else "operator")).status_code == 200  # fmt: skip


def test_a_table_key_revoked_while_cached_cannot_report_a_round(
    store: Store, api: Api, keys: Keys, world: World, redis: redis_lib.Redis
) -> None:
    # an app that trusts its key cache for a minute: the round script re-checks the key
    settings = Settings(key_cache_seconds=60.0, queue_redis_url=store.queue_url)
    cached = create_app(settings, store.url).test_client()
    heartbeat = cached.post("/v1/tables/T1/heartbeat", headers=keys.header("table"))
    assert heartbeat.status_code == 200
    revoke(api, keys.table)
    before = snapshot(redis)
    response = cached.post("/v1/rounds", json=round_body("r-late"), headers=keys.header("table"))
    assert_error(response, 401, None)
    assert snapshot(redis) == before


def test_the_bearer_scheme_is_case_insensitive(client: FlaskClient, keys: Keys) -> None:
    response = client.get("/v1/tables", headers={"Authorization": f"bearer {keys.operator}"})
    assert response.status_code == 200
