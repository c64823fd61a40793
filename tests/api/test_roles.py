"""The role matrix of docs/API.md and docs/RULES.md §5: who may call what.

One table drives it: each endpoint with a request that succeeds for an allowed caller and
the roles allowed (None: no credential needed). Wrong or missing key -> 401, right key but
wrong role or wrong table -> 403; a refused request changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
import redis as redis_lib
from flask import Flask
from flask.testing import FlaskClient

from jackpot.app import create_app
from jackpot.domain.auth import digest, key_id_of
from jackpot.settings import Settings
from tests.api.test_bad_input import assert_error, snapshot
from tests.conftest import Api, Keys, RedisServer, round_body

ROLES = ("table", "display", "operator", "auditor")


@dataclass(frozen=True)
class Endpoint:
    """One operation: its Flask rule, a concrete request, and who may call it."""

    name: str
    method: str
    rule: str  # as in app.url_map
    path: str  # `{payout}` is filled in with the world's pending payout
    body: Any = None
    roles: frozenset[str] | None = None  # None: public

    def send(self, client: FlaskClient, world: World, headers: dict[str, str]) -> Any:
        path = self.path.format(payout=world.payout, report=world.report)
        response = client.open(path, method=self.method, json=self.body, headers=headers)
        response.get_data()  # read and close: a streamed file must not leak its handle
        response.close()
        return response


def roles(*names: str) -> frozenset[str]:
    return frozenset(names)


POOL_BODY = {"reset": 100_000, "rate_bp": 100, "reserve_rate_bp": 20}
ADJUSTMENT = {"id": "adj-roles", "amount": 100, "reason": "role matrix"}

MATRIX: list[Endpoint] = [
    Endpoint("healthz", "GET", "/healthz", "/healthz"),
    Endpoint("readyz", "GET", "/readyz", "/readyz"),
    Endpoint("metrics", "GET", "/metrics", "/metrics"),
    Endpoint("openapi", "GET", "/openapi.json", "/openapi.json"),
    Endpoint("display page", "GET", "/", "/"),
    Endpoint("list pools", "GET", "/v1/pools", "/v1/pools"),
    Endpoint("get pool", "GET", "/v1/pools/<pool>", "/v1/pools/main"),
    Endpoint("put pool", "PUT", "/v1/pools/<pool>", "/v1/pools/main", POOL_BODY, roles("operator")),
    Endpoint(
        "pool meters",
        "GET",
        "/v1/pools/<pool>/meters",
        "/v1/pools/main/meters",
        roles=roles("operator", "auditor"),
    ),
    Endpoint(
        "adjustment",
        "POST",
        "/v1/pools/<pool>/adjustments",
        "/v1/pools/main/adjustments",
        ADJUSTMENT,
        roles("operator"),
    ),
    Endpoint(
        "get game",
        "GET",
        "/v1/pools/<pool>/game",
        "/v1/pools/main/game",
        roles=roles("operator", "auditor"),
    ),
    Endpoint(
        "change game",
        "PUT",
        "/v1/pools/<pool>/game",
        "/v1/pools/main/game",
        {"decks": 8, "reason": "role matrix"},
        roles("operator"),
    ),
    Endpoint("list tables", "GET", "/v1/tables", "/v1/tables", roles=roles("operator", "auditor")),
    Endpoint(
        "get table",
        "GET",
        "/v1/tables/<table>",
        "/v1/tables/T1",
        roles=roles("operator", "auditor"),
    ),
    Endpoint(
        "put table",
        "PUT",
        "/v1/tables/<table>",
        "/v1/tables/T1",
        {"pools": ["main"], "spots": 6},
        roles("operator"),
    ),
    Endpoint(
        "heartbeat",
        "POST",
        "/v1/tables/<table>/heartbeat",
        "/v1/tables/T1/heartbeat",
        roles=roles("table"),
    ),
    Endpoint(
        "report round", "POST", "/v1/rounds", "/v1/rounds", round_body("r-new"), roles("table")
    ),
    Endpoint(
        "get round",
        "GET",
        "/v1/rounds/<table>/<round_id>",
        "/v1/rounds/T1/r-hit",
        roles=roles("table", "operator", "auditor"),
    ),
    Endpoint("journal", "GET", "/v1/journal", "/v1/journal?pool=main", roles=roles("auditor")),
    Endpoint(
        "journal csv", "GET", "/v1/journal.csv", "/v1/journal.csv?pool=main", roles=roles("auditor")
    ),
    Endpoint(
        "list payouts",
        "GET",
        "/v1/payouts",
        "/v1/payouts?status=pending",
        roles=roles("operator", "auditor"),
    ),
    Endpoint(
        "get payout",
        "GET",
        "/v1/payouts/<payout>",
        "/v1/payouts/{payout}",
        roles=roles("operator", "auditor"),
    ),
    Endpoint(
        "confirm payout",
        "POST",
        "/v1/payouts/<payout>/confirm",
        "/v1/payouts/{payout}/confirm",
        roles=roles("operator"),
    ),
    Endpoint(
        "dispute payout",
        "POST",
        "/v1/payouts/<payout>/dispute",
        "/v1/payouts/{payout}/dispute",
        {"reason": "camera review"},
        roles("operator"),
    ),
    Endpoint(
        "request reconciliation",
        "POST",
        "/v1/reports/reconcile",
        "/v1/reports/reconcile",
        {"pool": "main"},
        roles("auditor"),
    ),
    Endpoint(
        "get report",
        "GET",
        "/v1/reports/<report_id>",
        "/v1/reports/{report}",
        roles=roles("auditor"),
    ),
]

BY_NAME = {e.name: e for e in MATRIX}


@dataclass
class World:
    api: Api
    payout: str  # a pending jackpot payout
    report: str  # a queued reconciliation report


def build_world(api: Api) -> World:
    """Pool `main`, table T1, a jackpot hit on it (round r-hit, a pending payout), a report."""
    api.put_pool()
    api.put_table()
    hit = api.report(
        round_body(
            "r-hit",
            dealer="As",
            dealer_war="As",
            spots=[{"spot": 1, "wager": 500, "card": "As", "war": True, "war_card": "As"}],
        )
    )
    assert hit.status_code == 200, hit.get_json()
    report = api.client.post(
        "/v1/reports/reconcile", json={"pool": "main"}, headers=api.keys.header("auditor")
    )
    assert report.status_code == 202, report.get_json()
    return World(api, hit.get_json()["jackpots"][0]["id"], report.get_json()["id"])


@pytest.fixture
def world(api: Api) -> World:
    return build_world(api)


def credential(keys: Keys, who: str) -> dict[str, str]:
    """The Authorization header of a caller: a role's key, or a broken credential."""
    if who in ROLES:
        return keys.header(who)
    return {
        "none": {},
        "unknown key": {"Authorization": "Bearer jpk_not-a-key-anyone-was-given"},
        "empty bearer": {"Authorization": "Bearer "},
        "basic scheme": {"Authorization": "Basic b3BlcmF0b3I6c2VjcmV0"},
        "key without scheme": {"Authorization": keys.operator},
    }[who]


BROKEN = ("none", "unknown key", "empty bearer", "basic scheme", "key without scheme")
CALLERS = BROKEN + ROLES


def expected_status(endpoint: Endpoint, who: str) -> int:
    """200-class, 401 or 403: what docs/API.md says the caller gets."""
    if endpoint.roles is None:
        return 200
    if who in BROKEN:
        return 401
    return 200 if who in endpoint.roles else 403


def status_class(status: int) -> int:
    return status - status % 100 if 200 <= status < 300 else status


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
    redis_server: RedisServer, api: Api, keys: Keys, world: World, redis: redis_lib.Redis
) -> None:
    # an app that trusts its key cache for a minute: the round script re-checks the key
    cached = create_app(Settings(key_cache_seconds=60.0), redis_server.url).test_client()
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
