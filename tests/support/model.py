"""A model of the meters built from the pure domain: what Redis must hold after the rounds."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from jackpot.domain.cards import FULL_DECK, Card
from jackpot.domain.config import PoolConfig, TableConfig
from jackpot.domain.meter import PoolState, contribute, new_pool, pay_hits
from jackpot.domain.report import parse_report
from jackpot.domain.settlement import settle


@dataclass
class MeterModel:
    pools: dict[str, PoolState] = field(default_factory=dict)
    jackpots: list[tuple[str, int]] = field(default_factory=list)  # (pool, amount) in order

    def add_pool(self, pool: str, config: PoolConfig) -> None:
        self.pools[pool] = new_pool(pool, config)

    def apply(self, body: dict[str, Any], table: TableConfig) -> list[int]:
        """Apply one round; returns each bet's jackpot amount."""
        settlement = settle(parse_report(body, table), table)
        amounts = [0] * len(settlement.bets)
        for pool in table.pools:
            state = contribute(self.pools[pool], settlement.wagered, len(settlement.bets))
            mine = [h for h in settlement.hits if h.pool == pool]
            state, paid = pay_hits(state, [h.meter_bp for h in mine], [h.scale for h in mine])
            for hit, amount in zip(mine, paid, strict=True):
                amounts[hit.bet] += amount
                self.jackpots.append((pool, amount))
            self.pools[pool] = state
        return amounts


def random_round(
    rng: random.Random,
    table: str,
    round_id: str,
    decks: int = 6,
    spots: int = 7,
    tie_bias: float = 0.5,
    stadium: bool = False,
) -> dict[str, Any]:
    """A plausible round with many ties, wars and identical cards (to make hits frequent)."""
    shoe = [c for c in FULL_DECK for _ in range(decks)]
    rng.shuffle(shoe)
    dealer = shoe.pop()
    body_spots: list[dict[str, Any]] = []
    for number in range(1, spots + 1):
        if rng.random() < tie_bias:
            same = [c for c in shoe if c.rank == dealer.rank]
            card = rng.choice(same)
            shoe.remove(card)
        else:
            card = shoe.pop()
        spot: dict[str, Any] = {"spot": number, "card": str(card)}
        tie = card.rank == dealer.rank
        if stadium:
            bets = []
            for k in range(rng.randint(0, 3)):
                bet: dict[str, Any] = {
                    "wager": rng.choice([100, 300, 500, 2500]),
                    "player": f"p{rng.randint(1, 4)}",
                }
                if k == 0 and rng.random() < 0.2:
                    del bet["player"]
                if tie and rng.random() < 0.8:
                    bet["war"] = True
                bets.append(bet)
            spot["bets"] = bets
        else:
            if rng.random() < 0.85:
                spot["wager"] = rng.choice([100, 500, 1000, 2500])
                if rng.random() < 0.7:
                    spot["player"] = f"p{number}"
            if tie and rng.random() < 0.8:
                spot["war"] = True
        body_spots.append(spot)
    at_war = [s for s in body_spots if s.get("war") or any(b.get("war") for b in s.get("bets", []))]
    body: dict[str, Any] = {
        "table": table,
        "round": round_id,
        "dealer": {"card": str(dealer)},
        "spots": body_spots,
    }
    if at_war:
        dealer_war = shoe.pop()
        if stadium:
            body["community_war"] = True
            community = _war_card(rng, shoe, dealer_war)
            for s in at_war:
                s["war_card"] = str(community)
        else:
            for s in at_war:
                s["war_card"] = str(_war_card(rng, shoe, dealer_war))
        body["dealer"]["war_card"] = str(dealer_war)
    return body


def _war_card(rng: random.Random, shoe: list[Card], dealer_war: Card) -> Card:
    if rng.random() < 0.5:
        same = [c for c in shoe if c.rank == dealer_war.rank]
        if same:
            card = rng.choice(same)
            shoe.remove(card)
            return card
    return shoe.pop()
