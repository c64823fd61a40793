"""Prometheus: in-process instruments, and a collector reading the meters from Redis."""

from jackpot.metrics.instruments import observe_request, record_round

__all__ = ["observe_request", "record_round"]
