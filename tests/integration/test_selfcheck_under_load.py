"""The self-check and `jackpot verify` read each journal's end at one instant: rounds settling
while they look are never taken for tampering (a false finding would stop the floor)."""

from __future__ import annotations

import threading
from typing import Any

from flask import Flask

from jackpot.bootstrap import Services
from tests.support.api import Api, round_body


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
