"""Counters and histograms the app updates. Under gunicorn they run in multiprocess mode
(PROMETHEUS_MULTIPROC_DIR is set before prometheus_client is first imported), so /metrics
is right whichever worker answers."""

from __future__ import annotations

import platform
import time
from collections.abc import Sequence
from typing import Any

from prometheus_client import Counter, Gauge, Histogram

from jackpot import __version__
from jackpot.domain.outcomes import Outcome
from jackpot.domain.settlement import Settlement

ROUNDS = Counter("jackpot_rounds_total", "Round reports settled (replays not counted)")
BETS = Counter("jackpot_bets_total", "Progressive side bets settled", ["outcome"])
WAGERED = Counter("jackpot_wagered_cents_total", "Progressive wagers settled, in cents")
PAID = Counter("jackpot_paid_cents_total", "Progressive pays, in cents", ["kind"])
JACKPOTS = Counter("jackpot_jackpots_total", "Meter percentage pays created", ["pool"])
REQUESTS = Counter(
    "jackpot_http_requests_total", "HTTP requests answered", ["method", "endpoint", "status"]
)
LATENCY = Histogram(
    "jackpot_http_request_duration_seconds",
    "Time to answer an HTTP request",
    ["endpoint"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)

REFUSALS = Counter(
    "jackpot_refusals_total",
    "Requests refused or failed, by the error code of their JSON answer",
    ["code", "status"],
)
STARTED = Gauge(
    "jackpot_start_time_seconds",
    "When the service's oldest running worker started (a restart moves it)",
    multiprocess_mode="livemin",
)
BUILD = Gauge(
    "jackpot_build_info",
    "The running version and the digest of its sealed build (always 1)",
    ["version", "python", "digest", "crc32"],
    multiprocess_mode="livemax",
)


def mark_started(digest: str = "", crc32: str = "") -> None:
    """This worker is up: its start time, the version it runs and its software's digest."""
    STARTED.set(time.time())
    BUILD.labels(__version__, platform.python_version(), digest, crc32).set(1)


def count_refusal(code: str, status: int) -> None:
    REFUSALS.labels(code, str(status)).inc()


# the labelled children a round touches, looked up once
_BET_BY_OUTCOME = {o: BETS.labels(o.value) for o in Outcome}
_PAID_FIXED, _PAID_ENVY, _PAID_JACKPOT = (PAID.labels(k) for k in ("fixed", "envy", "jackpot"))


def record_round(settlement: Settlement, jackpots: Sequence[dict[str, Any]]) -> None:
    ROUNDS.inc()
    outcomes: dict[Outcome, int] = {}
    for bet in settlement.bets:
        outcomes[bet.outcome] = outcomes.get(bet.outcome, 0) + 1
    for outcome, n in outcomes.items():
        _BET_BY_OUTCOME[outcome].inc(n)
    if settlement.wagered:
        WAGERED.inc(settlement.wagered)
    if settlement.fixed_paid:
        _PAID_FIXED.inc(settlement.fixed_paid)
    if settlement.envy_paid:
        _PAID_ENVY.inc(settlement.envy_paid)
    for jp in jackpots:
        _PAID_JACKPOT.inc(int(jp["amount"]))
        JACKPOTS.labels(str(jp["pool"])).inc()


def observe_request(method: str, endpoint: str, status: int, seconds: float) -> None:
    REQUESTS.labels(method, endpoint, str(status)).inc()
    LATENCY.labels(endpoint).observe(seconds)
