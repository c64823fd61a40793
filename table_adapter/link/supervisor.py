"""The demo's floor supervisor: verifies each jackpot as a hand pay and confirms it, late.

An operator key reads the pending payouts (GET /v1/payouts?status=pending) and, once a
payout has waited `delay` seconds, confirms it (POST /v1/payouts/{id}/confirm), so a person
watching the demo sees the jackpot pending verification and then paid. Only payouts of
the given pools are touched.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Collection
from typing import Any

import httpx

from table_adapter.link.client import USER_AGENT

log = logging.getLogger("table_adapter")

FAILURES_LOGGED = 3  # a look that fails now and then (the service stopping first) is no news
NOTE = "war-floor demo: hand pay verified by the demo's supervisor"
# the demo's hand pay: a simulated witness (another person of the register than the
# supervisor: war-floor demo registers them) and a slip
WITNESS = "DEMO-CASHIER"
WITNESS_NAME = "War-floor demo cashier"


class Supervisor:
    """Confirms the pools' pending payouts `delay` seconds after first seeing them."""

    def __init__(
        self,
        base_url: str,
        operator_key: str,
        pools: Collection[str],
        delay: float = 8.0,
        every: float = 1.0,
        *,
        transport: httpx.BaseTransport | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.pools = frozenset(pools)
        self.delay = delay
        self.every = every
        self.confirmed: list[str] = []
        self._http = httpx.Client(
            base_url=base_url.rstrip("/"),
            headers={"Authorization": f"Bearer {operator_key}", "User-Agent": USER_AGENT},
            timeout=5.0,
            transport=transport,
        )
        self._clock = clock
        self._seen: dict[str, float] = {}  # payout id -> when first seen pending
        self._refused: set[str] = set()
        self._failures = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def step(self) -> None:
        """Look at the pending payouts once; confirm those that have waited long enough."""
        payouts = self._pending_payouts()
        if payouts is None:
            return
        now = self._clock()
        pending = {
            p["id"] for p in payouts if p.get("pool") in self.pools and p["id"] not in self._refused
        }
        self._seen = {pid: self._seen.get(pid, now) for pid in pending}
        for pid, since in sorted(self._seen.items(), key=lambda item: item[1]):
            if now - since >= self.delay:
                self._confirm(pid)

    def _pending_payouts(self) -> list[Any] | None:
        """The controller's pending payouts; None when they cannot be read (logged once per
        outage)."""
        try:
            response = self._http.get("/v1/payouts", params={"status": "pending"})
            response.raise_for_status()
            payouts: list[Any] = response.json()["payouts"]
        except (httpx.HTTPError, ValueError, KeyError, TypeError) as exc:
            self._failures += 1
            if self._failures == FAILURES_LOGGED:  # once per outage, not at every look
                log.warning("demo supervisor: cannot read the pending payouts: %s", exc)
            return None
        self._failures = 0
        return payouts

    def _confirm(self, payout: str) -> None:
        try:
            hand_pay = {"witness": WITNESS, "slip": f"DEMO-{payout}", "reason": NOTE}
            response = self._http.post(f"/v1/payouts/{payout}/confirm", json=hand_pay)
        except httpx.HTTPError as exc:
            log.warning("demo supervisor: cannot confirm payout %s: %s", payout, exc)
            return
        if response.is_success:
            self.confirmed.append(payout)
            del self._seen[payout]
        elif response.status_code < 500:  # refused (disputed meanwhile, key revoked): leave it
            log.warning("demo supervisor: payout %s refused: %s", payout, response.text[:200])
            self._refused.add(payout)

    def start(self) -> Supervisor:
        """Look every `every` seconds until `stop()`."""
        self._thread = threading.Thread(target=self._run, name="demo-supervisor", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop looking and close the connection pool."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        self._http.close()

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            self.step()
