"""A table's adapter as the high-availability tests need it: each report is resent, the same
body, until it is acknowledged; what was acknowledged is remembered with its first answer."""

from __future__ import annotations

import threading
import time
from collections import Counter
from typing import Any

import requests

from tests.support.service import Service, auth

RESET, RATE_BP, WAGER = 500_000, 400, 2500  # each round puts 2500 x 400 units on the meter
UNITS_PER_CENT = 10_000


def body(round_id: str, table: str = "T1") -> dict[str, Any]:
    # the player's 9 beats the dealer's 4: the side bet loses, nothing but contributions
    return {"table": table, "round": round_id, "dealer": {"card": "4c"},
            "spots": [{"spot": 1, "wager": WAGER, "card": "9d"}]}  # fmt: skip


class Table:
    def __init__(self, service: Service, secret: str, table: str = "T1") -> None:
        self.service, self.secret, self.table = service, secret, table
        self.acknowledged: dict[str, dict[str, Any]] = {}
        self.refusals: Counter[str] = Counter()
        self.lock = threading.Lock()

    def send(self, round_id: str, deadline: float) -> None:
        while time.monotonic() < deadline:
            try:
                r = requests.post(
                    f"{self.service.base}/v1/rounds",
                    json=body(round_id, self.table),
                    headers=auth(self.secret),
                    timeout=10,
                )
            except requests.RequestException:
                self.refusals["no answer"] += 1
                time.sleep(0.05)
                continue
            if r.status_code == 200:
                with self.lock:
                    self.acknowledged[round_id] = r.json()
                return
            assert r.status_code == 503, r.text  # never a 4xx or 5xx other than "resend"
            self.refusals[r.json()["error"]["code"]] += 1
            time.sleep(0.05)
        raise AssertionError(f"round {round_id} never acknowledged; refusals {self.refusals}")

    def play(self, name: str, stop: threading.Event, deadline: float) -> None:
        n = 0
        while not stop.is_set():
            n += 1
            self.send(f"{name}-{n}", deadline)

    def resend_all(self) -> None:
        """Every acknowledged report sent again: each is answered as the replay of its first
        answer."""
        for round_id, first in self.acknowledged.items():
            r = requests.post(
                f"{self.service.base}/v1/rounds",
                json=body(round_id, self.table),
                headers=auth(self.secret),
            )
            assert r.status_code == 200, r.text
            again = r.json()
            assert again["replayed"] is True
            # (a first answer may itself be a replay: the write of an attempt answered 503
            # replication_timeout, acknowledged once a replica had it)
            assert {**again, "replayed": first["replayed"]} == first
