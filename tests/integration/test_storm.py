"""A storm of concurrent, retried reports: the meter stays exact and the journal complete."""

from __future__ import annotations

import random
import threading
from typing import Any

from flask import Flask

from jackpot.bootstrap import Services
from tests.support.api import Api, Keys
from tests.support.meters import assert_pools_match, configure
from tests.support.model import MeterModel, random_round

THREADS = 16
ROUNDS_PER_THREAD = 25


def test_sixteen_threads_retrying_every_report_leave_the_meter_exact(
    app: Flask, api: Api, keys: Keys, services: Services
) -> None:
    model = MeterModel()
    table = configure(api, model)
    rng = random.Random(99)
    bodies = [
        [random_round(rng, "T1", f"t{t}-r{n}") for n in range(ROUNDS_PER_THREAD)]
        for t in range(THREADS)
    ]
    results: dict[str, list[dict[str, Any]]] = {}
    errors: list[str] = []
    lock = threading.Lock()
    start = threading.Barrier(THREADS)

    def worker(t: int) -> None:
        client = app.test_client()
        headers = keys.header("table")
        start.wait()
        for n, body in enumerate(bodies[t]):
            # every report is sent twice, and a neighbour's report once more, all racing
            sends = [body, body, bodies[(t + 1) % THREADS][n]]
            for b in sends:
                r = client.post("/v1/rounds", json=b, headers=headers)
                if r.status_code != 200:
                    with lock:
                        errors.append(f"{b['round']}: {r.status_code} {r.get_json()}")
                    continue
                with lock:
                    results.setdefault(b["round"], []).append(r.get_json())

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(THREADS)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == []

    # each round answered identically every time, applied exactly once
    for round_id, answers in results.items():
        assert len(answers) == 3
        first = [a for a in answers if not a["replayed"]]
        assert len(first) == 1, round_id
        for a in answers:
            assert {**a, "replayed": False} == first[0]

    # the house journal holds each round once, in the order the meter applied them
    house = [e for e in api.journal(pool=None) if e["type"] == "round"]
    applied = [e["round"] for e in house]
    assert sorted(applied) == sorted(results)
    by_id = {b["round"]: b for rounds in bodies for b in rounds}
    for round_id in applied:
        expected = model.apply(by_id[round_id], table)
        assert [s["jackpot"] for s in _first(results[round_id])["spots"]] == expected
    assert_pools_match(services, model)
    for pool in model.pools:
        entries = api.journal(pool)
        assert [e["seq"] for e in entries] == list(range(1, len(entries) + 1))
        contributions = [e for e in entries if e["type"] == "contribution"]
        assert len(contributions) == len([r for r in applied if _wagered(by_id[r])])


def _first(answers: list[dict[str, Any]]) -> dict[str, Any]:
    return next(a for a in answers if not a["replayed"])


def _wagered(body: dict[str, Any]) -> int:
    return sum(s.get("wager", 0) for s in body["spots"])
