"""A payout record (jackpot.domain.payout) for tests that need one and not a round: won at
T1's round r1, pending, every field a test does not give as settle_round.lua makes it."""

from __future__ import annotations

from typing import Any

from jackpot.domain.payout import Payout

MADE: dict[str, Any] = {"id": "P000001", "pool": "main", "table": "T1", "round": "r1",
                        "spot": 1, "player": None, "outcome": "tie", "amount": 100_005,
                        "status": "pending", "created": 1}  # fmt: skip


def a_payout(**fields: Any) -> Payout:
    return Payout.of({**MADE, **fields})
