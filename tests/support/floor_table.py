"""A table's adapter as the high-availability tests need it: each report is resent, the same
body, until it is acknowledged; what was acknowledged is remembered with its first answer."""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import redis
import requests

from jackpot.store.keys import Keys
from tests.support.service import Service, auth, key, link_main

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

    @contextmanager
    def playing(self, players: int = 4, seconds: float = 120) -> Iterator[None]:
        """`players` threads report rounds until the block ends, each resending its round
        until it is acknowledged (for at most `seconds` in all)."""
        stop, deadline = threading.Event(), time.monotonic() + seconds
        failures: list[BaseException] = []

        def player(name: str) -> None:
            try:
                self.play(name, stop, deadline)
            except BaseException as exc:  # noqa: BLE001 - raised again in the test's thread
                failures.append(exc)

        threads = [threading.Thread(target=player, args=(f"R{t}",)) for t in range(players)]
        for thread in threads:
            thread.start()
        try:
            yield
        finally:
            stop.set()
            for thread in threads:
                thread.join()
        if failures:
            raise failures[0]

    def wait_acknowledged(self, more: int, seconds: float = 60) -> int:
        """Until `more` rounds beyond those acknowledged now are acknowledged (the load has
        reached the store, or got through again); how many were acknowledged at the start."""
        start = len(self.acknowledged)
        self._until(lambda: len(self.acknowledged) >= start + more, seconds, f"{more} rounds")
        return start

    def wait_refused(self, *codes: str, seconds: float = 60) -> None:
        """Until a report has been refused (with one of `codes`, if any are named)."""
        self._until(
            lambda: any(n for c, n in self.refusals.items() if not codes or c in codes),
            seconds,
            f"a refusal {' or '.join(codes)}".rstrip(),
        )

    def _until(self, reached: Callable[[], bool], seconds: float, what: str) -> None:
        deadline = time.monotonic() + seconds
        while not reached():
            assert time.monotonic() < deadline, f"waited {seconds:g} s for {what}; {self.refusals}"
            time.sleep(0.02)

    def assert_settled_once_each(self, store: redis.Redis, operator: str) -> None:
        """Every acknowledged round is in the house journal on `store` exactly once, every
        resend is answered as its replay, and the meter is the model's: one contribution
        per acknowledged round (after link_main with RESET, RATE_BP, no reserve)."""
        journal = house_rounds(store)
        assert set(journal) == set(self.acknowledged)
        assert set(journal.values()) == {1}
        self.resend_all()
        meters = requests.get(
            f"{self.service.base}/v1/pools/main/meters", headers=auth(operator), timeout=10
        ).json()
        n = len(self.acknowledged)
        assert meters["bets"] == n
        assert meters["value_units"] == RESET * UNITS_PER_CENT + n * WAGER * RATE_BP
        assert meters["invariant_holds"] is True

    def resend_all(self) -> None:
        """Every acknowledged report sent again: each is answered as the replay of its first
        answer."""
        for round_id, first in self.acknowledged.items():
            r = requests.post(
                f"{self.service.base}/v1/rounds",
                json=body(round_id, self.table),
                headers=auth(self.secret),
                timeout=10,
            )
            assert r.status_code == 200, r.text
            again = r.json()
            assert again["replayed"] is True
            # (a first answer may itself be a replay: the write of an attempt answered 503
            # replication_timeout, acknowledged once a replica had it)
            assert {**again, "replayed": first["replayed"]} == first


def house_rounds(store: redis.Redis) -> Counter[str]:
    """How many times each round is in the house journal (a client decoding replies)."""
    found: Counter[str] = Counter()
    for _, fields in store.xrange(Keys().journal):
        if fields.get("type") == "round":
            found[fields["round"]] += 1
    return found


def linked_floor(service: Service) -> tuple[str, Table]:
    """An operator's key, pool `main` (RESET, RATE_BP, no reserve) fed by T1, and T1's
    table with a key of its own: what assert_settled_once_each's model assumes."""
    operator = key(service, "operator")
    link_main(service, operator, reset=RESET, rate_bp=RATE_BP, reserve_rate_bp=0)
    return operator, Table(service, key(service, "table", "T1"))
