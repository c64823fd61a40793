"""The self-check and `jackpot verify` read each journal's end at one instant: rounds settling
while they look are never taken for tampering (a false finding would stop the floor)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import redis as redis_lib
from flask import Flask

from jackpot.bootstrap import Services
from jackpot.domain.auth import Role
from tests.support.api import Api, round_body
from tests.support.archive_world import dealt, world_of
from tests.support.redis_server import RedisServer

SPOT = [{"spot": 1, "wager": 500, "card": "9d"}]


def test_rounds_settling_while_the_controller_checks_itself_find_nothing(
    linked: Api, app: Flask, services: Services
) -> None:
    stop = threading.Event()
    failures: list[Any] = []

    def play(name: str) -> None:
        client = app.test_client()
        n = 0
        while not stop.is_set():
            n += 1
            r = client.post(
                "/v1/rounds",
                json=round_body(f"{name}-{n}", spots=[{"spot": 1, "wager": 500, "card": "9d"}]),
                headers=linked.keys.header("table"),
            )
            if r.status_code != 200:
                failures.append(r.get_json())
                return

    players = [threading.Thread(target=play, args=(f"R{i}",)) for i in range(3)]
    for p in players:
        p.start()
    try:
        for _ in range(40):
            health = services.health.run()
            assert health.operable, health.problems
            assert services.verifier.tail().intact
        assert services.verifier.run().intact
    finally:
        stop.set()
        for p in players:
            p.join()
    assert not failures
    assert linked.meters()["bets"] > 40


def test_pools_idle_past_retention_woken_by_rounds_under_checks_find_nothing(
    redis: redis_lib.Redis, redis_server: RedisServer, tmp_path: Path
) -> None:
    """The audit's race: the first round to a pool idle past the retention window (its
    journal all archived and trimmed from Redis) landed while the self-check looked, and was
    taken for an edited meter. Six idle pools woken one after the other by a table playing
    on while the quick look runs without pause: thousands of checks, not one finding."""
    with world_of(redis, redis_server.url, tmp_path / "var") as w:
        pools = [f"idle{i}" for i in range(6)]
        secret = w.services.credentials.create(
            Role.TABLE, frozenset(f"I{i}" for i in range(6)), "the idle tables"
        )[0]
        header = {"Authorization": f"Bearer {secret}"}

        def report(client: Any, round_id: str, table: str) -> Any:
            body = {**round_body(round_id, table=table, spots=SPOT), "dealt_at": dealt(w.clock)}
            return client.post("/v1/rounds", json=body, headers=header)

        for i, pool in enumerate(pools):
            w.api.put_pool(pool)
            w.api.put_table(f"I{i}", pools=[pool])
            assert report(w.api.client, f"first-{pool}", f"I{i}").status_code == 200
        w.services.archiver.run()
        w.clock.pass_window()
        w.services.archiver.run()
        k = w.services.groups.main.keys
        assert all(w.redis.xlen(k.pool_journal(p)) == 0 for p in pools), "idle: all trimmed"
        stop = threading.Event()
        failures: list[Any] = []

        def play() -> None:
            client = w.api.client.application.test_client()
            for n in range(60):
                r = report(client, f"wake-{n}", f"I{n % 6}")
                if r.status_code != 200:
                    failures.append(r.get_json())
            stop.set()

        player = threading.Thread(target=play)
        player.start()
        checks = findings = 0
        try:
            while not stop.is_set() or checks < 2_000:
                found = w.services.groups.main.verifier.tail()
                checks += 1
                findings += len(found.findings)
                assert not found.findings, found.findings
        finally:
            stop.set()
            player.join()
        assert not failures and checks >= 2_000 and findings == 0
