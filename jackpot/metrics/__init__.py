"""Prometheus: the in-process instruments a request or a round moves (the scrape that reads
the meters from Redis is the API's: jackpot/api/metrics.py)."""

from jackpot.metrics.instruments import mark_started, observe_request, record_round

__all__ = ["mark_started", "observe_request", "record_round"]
