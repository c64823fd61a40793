"""SIGKILL the store in the middle of a load: every acknowledged round survives exactly once."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from jackpot.domain.auth import Role
from jackpot.entrypoints.app import create_app
from jackpot.settings import Settings
from tests.support.api import Api, Keys
from tests.support.meters import assert_pools_match, configure
from tests.support.model import MeterModel, random_round
from tests.support.people import issue
from tests.support.redis_server import start_server

THREADS = 8
ROUNDS_PER_THREAD = 60


@pytest.mark.slow
def test_every_acknowledged_round_survives_a_sigkill_of_the_store(tmp_path: Path) -> None:
    server = start_server(tmp_path / "redis")
    try:
        _crash_and_recover(server, tmp_path)
    finally:
        server.stop()


def _crash_and_recover(server: Any, tmp_path: Path) -> None:
    app = create_app(
        Settings(data_dir=tmp_path, key_cache_seconds=60.0, redis_timeout_seconds=0.5), server.url
    )
    services = app.extensions["jackpot"]

    def key(role: Role, *tables: str) -> str:
        return str(issue(services, role, tables, f"{role.value} of the tests"))

    keys = Keys(
        key(Role.OPERATOR),
        key(Role.AUDITOR),
        key(Role.DISPLAY),
        key(Role.TABLE, "T1"),
        key(Role.TABLE, "T9"),
    )
    api = Api(app.test_client(), keys)
    model = MeterModel()
    table = configure(api, model)

    rng = random.Random(5)
    bodies = [
        [random_round(rng, "T1", f"k{t}-{n}") for n in range(ROUNDS_PER_THREAD)]
        for t in range(THREADS)
    ]
    acknowledged: dict[str, dict[str, Any]] = {}
    refused: list[int] = []
    lock = threading.Lock()
    killed = threading.Event()

    def worker(t: int) -> None:
        client = app.test_client()
        for body in bodies[t]:
            r = client.post("/v1/rounds", json=body, headers=keys.header("table"))
            with lock:
                if r.status_code == 200:
                    acknowledged[body["round"]] = r.get_json()
                else:
                    refused.append(r.status_code)
            if killed.is_set():
                time.sleep(0.001)

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(THREADS)]
    for th in threads:
        th.start()
    while len(acknowledged) < THREADS * ROUNDS_PER_THREAD // 3:
        time.sleep(0.002)
    server.kill()
    killed.set()
    time.sleep(0.3)
    server.start()  # on the same AOF and port
    for th in threads:
        th.join()
    assert refused, "the kill should have refused some reports"
    assert set(refused) == {503}

    # Every acknowledged round is stored with the very result the table was given.
    for round_id, answer in acknowledged.items():
        stored = api.client.get(f"/v1/rounds/T1/{round_id}", headers=keys.header("auditor"))
        assert stored.status_code == 200, round_id
        assert stored.get_json() == {**answer, "replayed": False}

    # The tables replay whatever was not acknowledged; replays change nothing.
    for rounds in bodies:
        for body in rounds:
            r = api.report(body)
            assert r.status_code == 200
            if body["round"] in acknowledged:
                assert r.get_json() == {**acknowledged[body["round"]], "replayed": True}

    # Each round is in the journal exactly once, and the meters equal the model replayed
    # in the journal's order.
    house = [e["round"] for e in api.journal(pool=None) if e["type"] == "round"]
    assert sorted(house) == sorted(b["round"] for rounds in bodies for b in rounds)
    by_id = {b["round"]: b for rounds in bodies for b in rounds}
    for round_id in house:
        model.apply(by_id[round_id], table)
    assert_pools_match(services, model)
