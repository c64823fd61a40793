"""Round reports for the HTTP benchmarks, dealt without a shoe or a table adapter."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

from jackpot.domain.cards import FULL_DECK, Card


def deal(rng: random.Random, table: str, round_id: str) -> dict[str, Any]:
    """A random round report at a 7-spot table: every player bets $5 and goes to war on a tie."""
    shoe = [c for c in FULL_DECK for _ in range(6)]
    cards = iter(rng.sample(shoe, 20))
    spots: list[dict[str, Any]] = [
        {"spot": s, "player": f"{table}-p{s}", "wager": 500, "card": str(next(cards))}
        for s in range(1, 8)
    ]
    dealer = next(cards)
    body: dict[str, Any] = {
        "table": table,
        "round": round_id,
        "dealer": {"card": str(dealer)},
        "spots": spots,
        # stamped as the table adapter does: inside the retention window, the round path
        # is the one script call (a report without it is looked up in the archive first)
        "dealt_at": datetime.now(UTC).isoformat(timespec="milliseconds"),
    }
    war = [s for s in spots if Card.parse(s["card"]).rank == dealer.rank]
    if war:
        for _ in range(3):
            next(cards)  # burns
        for s in war:
            s["war"], s["war_card"] = True, str(next(cards))
        body["dealer"]["war_card"] = str(next(cards))
    return body
