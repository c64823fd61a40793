"""Simulated players: who sits where and what they wager each round, from a seeded RNG."""

from __future__ import annotations

import random

from table_adapter.game.bets import Bet
from table_adapter.game.profiles import Profile
from table_adapter.game.strategies import Silent, Slow, Strategy

INITIAL_WAGERS = (500, 1_000, 2_500, 5_000)
SIDE_WAGERS = (100, 200, 500, 1_000, 2_500)  # within the floor tables' $1-$25 limits
TIE_WAGER = 100
SEAT_SHARE = 0.7  # a live spot is taken this often
TIE_SHARE = 0.1  # a player adds a tie wager this often
WAR_TIE_SHARE = 0.1  # ... and a tie wager on the war deal, where the rules offer one
DEALER_ANTE_SHARE = 0.15  # Stadium: a player also bets on the dealer this often
DEALER_TIE_SHARE = 0.05  # ... and a tie wager on the dealer's hand
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
        slow_share: float = 0.0,
    ) -> None:
        if not 0.0 <= side_share <= 1.0:
            raise ValueError("side_share is a probability")
        if not 0.0 <= slow_share <= 1.0:
            raise ValueError("slow_share is a probability")
        self.table = table
        self.profile = profile
        self.spots = spots
        self.strategy = strategy
        self.rng = rng
        self.side_share = side_share
        self.slow_share = slow_share

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
                war_tie=TIE_WAGER if self._war_tie() else 0,
                side=self._side(side_open),
                player=f"{self.table}-s{spot}",
                strategy=self._strategy(),
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
                on_dealer = self.profile.dealer_bet and rng.random() < DEALER_ANTE_SHARE
                bets.append(
                    Bet(
                        spot=hand,
                        initial=rng.choice(INITIAL_WAGERS),
                        side=self._side(side_open),
                        player=f"{self.table}-p{terminal}",
                        strategy=self._strategy(),
                        dealer_ante=rng.choice(INITIAL_WAGERS) if on_dealer else 0,
                        dealer_tie=TIE_WAGER
                        if on_dealer and rng.random() < DEALER_TIE_SHARE
                        else 0,
                    )
                )
        return bets

    def _war_tie(self) -> bool:
        """A tie wager on the war deal (Wisconsin §37(a)(1)(vii), 205 CMR §8(e))."""
        return self.profile.war_tie_wager and self.rng.random() < WAR_TIE_SHARE

    def _strategy(self) -> Strategy:
        """The player's way of answering a tie: the table's strategy, or, for `slow_share` of
        the bets, a player who never answers or one who answers too late for a decision timer
        (each half of them), where the rules have a decision timer: it surrenders both."""
        timer = self.profile.decision_timer_ms
        if timer is None or not self.slow_share or self.rng.random() >= self.slow_share:
            return self.strategy  # a live table's dealer waits for the player's answer
        if self.rng.random() < 0.5:
            return Silent()
        return Slow(self.strategy, timer + 1 + self.rng.randrange(timer))

    def _side(self, side_open: bool) -> int:
        if side_open and self.rng.random() < self.side_share:
            return self.rng.choice(SIDE_WAGERS)
        return 0
