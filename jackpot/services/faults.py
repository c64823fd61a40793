"""The store's faults as the layers above it see them: which exceptions mean the store did not
answer (the request is refused with 503 and resent: rounds and adjustments are idempotent),
and the error each becomes. The addresses and causes stay in the log, never in an answer."""

from __future__ import annotations

from jackpot.errors import ClusterUnavailableError, StoreUnavailableError
from jackpot.store.cluster import SlotUnavailableError
from jackpot.store.connect import STORE_DOWN

__all__ = ["STORE_DOWN", "unavailable"]

RESEND = (
    "resend the same request: rounds and adjustments are idempotent, so a resend applies "
    "them at most once"
)


def unavailable(exc: Exception) -> StoreUnavailableError:
    """The error a store that did not answer is answered with (503)."""
    if isinstance(exc, SlotUnavailableError):
        return ClusterUnavailableError(
            f"the Redis Cluster cannot serve these meters now (down, failing over or moving "
            f"them); {RESEND}"
        )
    return StoreUnavailableError(f"the meter store did not answer; {RESEND}")
