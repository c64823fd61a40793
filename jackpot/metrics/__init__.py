"""Prometheus: in-process instruments, and a collector reading the meters from Redis."""

from jackpot.metrics.instruments import mark_started, observe_request, record_round

__all__ = ["mark_started", "observe_request", "record_round"]
