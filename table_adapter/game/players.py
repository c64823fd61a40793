"""Simulated players: who sits where and what they wager each round, from a seeded RNG."""

from __future__ import annotations

import random

from table_adapter.game.bets import Bet
from table_adapter.game.profiles import Profile
from table_adapter.game.strategies import Strategy

INITIAL_WAGERS = (500, 1_000, 2_500, 5_000)
SIDE_WAGERS = (100, 200, 500, 1_000, 2_500)  # within the floor tables' $1-$25 limits
TIE_WAGER = 100
SEAT_SHARE = 0.7  # a live spot is taken this often
TIE_SHARE = 0.1  # a player adds a tie wager this often
TERMINALS = 12  # Stadium: player terminals around the felt
TERMINAL_SHARE = 0.5  # a terminal plays a game this often


class Players:
    """The players at one table, deciding each round's bets."""

    def __init__(
        self,
        table: str,
        profile: Profile,
        spots: int,
        strategy: Strategy,
        rng: random.Random,
        side_share: float = 0.8,
    ) -> None:
        if not 0.0 <= side_share <= 1.0:
            raise ValueError("side_share is a probability")
        self.table = table
        self.profile = profile
        self.spots = spots
        self.strategy = strategy
        self.rng = rng
        self.side_share = side_share

    def bets(self, side_bets_open: bool = True) -> list[Bet]:
        """This round's bets; no progressive side wager while the side bet is closed."""
        if self.profile.stadium:
            return self._stadium(side_bets_open)
        return self._live(side_bets_open)

    def _live(self, side_open: bool) -> list[Bet]:
        rng = self.rng
        seated = [s for s in range(1, self.spots + 1) if rng.random() < SEAT_SHARE]
        bets = [
            Bet(
                spot=spot,
                initial=rng.choice(INITIAL_WAGERS),
                tie=TIE_WAGER if rng.random() < TIE_SHARE else 0,
                side=self._side(side_open),
                player=f"{self.table}-s{spot}",
                strategy=self.strategy,
            )
            for spot in seated or [1]
        ]
        return bets

    def _stadium(self, side_open: bool) -> list[Bet]:
        rng = self.rng
        bets = []
        for terminal in range(1, TERMINALS + 1):
            if rng.random() >= TERMINAL_SHARE:
                continue
            for hand in sorted(rng.sample(range(1, self.spots + 1), rng.choice((1, 1, 2)))):
                bets.append(
                    Bet(
                        spot=hand,
                        initial=rng.choice(INITIAL_WAGERS),
                        side=self._side(side_open),
                        player=f"{self.table}-p{terminal}",
                        strategy=self.strategy,
                    )
                )
        return bets

    def _side(self, side_open: bool) -> int:
        if side_open and self.rng.random() < self.side_share:
            return self.rng.choice(SIDE_WAGERS)
        return 0
