"""The round script's own connections (jackpot.store.scripts.HotScript): it gets
over a server that forgot its scripts or dropped the connection, fails fast on a timeout,
and never applies a round twice."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
import redis as redis_lib
from flask.testing import FlaskClient

from jackpot.domain.auth import Role
from jackpot.entrypoints.app import create_app
from jackpot.settings import Settings
from tests.support.api import Api, Keys
from tests.support.checks import report_body
from tests.support.people import issue
from tests.support.redis_server import RedisServer


def setup(server: RedisServer, tmp_path: Path, timeout: float = 5.0) -> tuple[Api, FlaskClient]:
    settings = Settings(
        data_dir=tmp_path / "var", key_cache_seconds=0.0, redis_timeout_seconds=timeout
    )
    app = create_app(settings, server.url)
    services = app.extensions["jackpot"]
    table_key = services.credentials.create(Role.TABLE, frozenset({"T1"}))[0]
    operator_key = issue(services, Role.OPERATOR, (), "Dana Reyes")
    auditor_key = issue(services, Role.AUDITOR, (), "Lee Chan")
    client = app.test_client()
    api = Api(client, Keys(operator_key, auditor_key, "", table_key, ""))
    api.put_pool()
    api.put_table("T1")
    return api, client


def rounds_in_journal(api: Api) -> list[str]:
    return [e["round"] for e in api.journal() if e["type"] == "contribution"]


def test_a_server_that_forgot_the_script_gets_it_again(
    redis: redis_lib.Redis, redis_server: RedisServer, tmp_path: Path
) -> None:
    api, _ = setup(redis_server, tmp_path)
    assert api.report(report_body("r1")).status_code == 200
    redis.script_flush()
    second = api.report(report_body("r2"))
    assert second.status_code == 200, second.get_json()
    assert second.get_json()["replayed"] is False
    assert rounds_in_journal(api) == ["r1", "r2"]


def test_a_dropped_connection_is_replaced_and_the_round_applied_once(
    redis: redis_lib.Redis, redis_server: RedisServer, tmp_path: Path
) -> None:
    api, _ = setup(redis_server, tmp_path)
    assert api.report(report_body("r1")).status_code == 200
    # the server closes every connection but this test's own (as a restart or a proxy would)
    me = redis.client_id()
    for c in redis.client_list():
        if int(c["id"]) != me:
            redis.client_kill_filter(_id=c["id"])
    second = api.report(report_body("r2"))
    assert second.status_code == 200, second.get_json()
    assert api.report(report_body("r2")).get_json()["replayed"] is True
    assert rounds_in_journal(api) == ["r1", "r2"]


def test_a_timeout_is_a_503_and_the_resend_applies_the_round_once(
    redis: redis_lib.Redis, redis_server: RedisServer, tmp_path: Path
) -> None:
    api, _ = setup(redis_server, tmp_path, timeout=0.3)
    redis.execute_command("CLIENT", "PAUSE", "1000", "WRITE")
    try:
        stalled = api.report(report_body("r1"))
    finally:
        redis.execute_command("CLIENT", "UNPAUSE")
    assert stalled.status_code == 503, stalled.get_json()
    assert stalled.headers.get("Retry-After")
    resent = api.report(report_body("r1"))
    assert resent.status_code == 200, resent.get_json()
    again = api.report(report_body("r1"))
    assert again.get_json()["replayed"] is True
    assert rounds_in_journal(api) == ["r1"]


def test_calls_at_once_each_have_a_connection_and_later_calls_reuse_them(
    redis: redis_lib.Redis, redis_server: RedisServer, tmp_path: Path
) -> None:
    api, client = setup(redis_server, tmp_path)
    before = {c["id"] for c in redis.client_list()}

    def script_connections() -> list[dict[str, str]]:
        new = [c for c in redis.client_list() if c["id"] not in before]
        return [c for c in new if c["cmd"] == "evalsha"]

    errors: list[object] = []

    def report(round_id: str) -> None:
        r = client.post("/v1/rounds", json=report_body(round_id), headers=api.keys.header("table"))
        if r.status_code != 200:
            errors.append(r.get_json())

    # four calls held at once (the server paused): none may share another's connection
    redis.execute_command("CLIENT", "PAUSE", "10000", "WRITE")
    threads = [threading.Thread(target=report, args=(f"held-{i}",)) for i in range(4)]
    try:
        for t in threads:
            t.start()
        deadline = time.monotonic() + 10
        while len(script_connections()) < 4:
            assert time.monotonic() < deadline, redis.client_list()
            time.sleep(0.02)
    finally:
        redis.execute_command("CLIENT", "UNPAUSE")
    for t in threads:
        t.join()
    # calls one after another take an idle connection: no new ones, whatever calls them
    for n in range(6):
        threading.Thread(target=report, args=(f"later-{n}",)).start()
        report(f"after-{n}")
    deadline = time.monotonic() + 10
    while len(rounds_in_journal(api)) < 16:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    assert errors == []
    assert len(script_connections()) == 4
    expected = [f"held-{i}" for i in range(4)] + [
        f"{w}-{n}" for w in ("later", "after") for n in range(6)
    ]
    assert sorted(rounds_in_journal(api)) == sorted(expected)


@pytest.mark.parametrize("flushes", [1, 2])
def test_the_script_cache_lost_between_every_call_still_settles(
    redis: redis_lib.Redis, redis_server: RedisServer, tmp_path: Path, flushes: int
) -> None:
    api, _ = setup(redis_server, tmp_path)
    for n in range(flushes):
        redis.script_flush()
        assert api.report(report_body(f"r{n}")).status_code == 200
    assert rounds_in_journal(api) == [f"r{n}" for n in range(flushes)]
