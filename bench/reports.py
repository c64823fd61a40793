"""Round reports for the HTTP benchmarks, dealt without a shoe or a table adapter."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

from jackpot.domain.cards import FULL_DECK, Card


class Shoe:
    """A table's 6-deck shoe dealt out in order, reshuffled (under a new name) once the
    reshuffle marker, a quarter of the stack from the back, has come out."""

    def __init__(self, rng: random.Random, table: str) -> None:
        self.rng, self.table, self.number = rng, table, 0
        self.stack: list[Card] = []
        self.position = 0

    def next_round(self) -> tuple[str, int, Any]:
        """(the shoe's name, cards out before the round, an iterator of its next cards)."""
        if self.position >= len(self.stack) - 78:
            self.number += 1
            self.stack = [c for c in FULL_DECK for _ in range(6)]
            self.rng.shuffle(self.stack)
            self.position = 1  # the burn
        start = self.position

        def cards() -> Any:
            while True:
                self.position += 1
                yield self.stack[self.position - 1]

        return f"{self.table}.s{self.number}", start, cards()


def deal(rng: random.Random, table: str, round_id: str, shoe: Shoe | None = None) -> dict[str, Any]:
    """A random round report at a 7-spot table: every player bets $5 and goes to war on a tie.
    From `shoe`, the cards come out of it in order and the report names it (the shoe audit)."""
    if shoe is None:
        cards = iter(rng.sample([c for c in FULL_DECK for _ in range(6)], 20))
        named: dict[str, Any] = {}
    else:
        name, position, cards = shoe.next_round()
        named = {"shoe": name, "position": position}
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
        **named,
    }
    war = [s for s in spots if Card.parse(s["card"]).rank == dealer.rank]
    if war:
        for _ in range(3):
            next(cards)  # burns
        for s in war:
            s["war"], s["war_card"] = True, str(next(cards))
        body["dealer"]["war_card"] = str(next(cards))
    return body
