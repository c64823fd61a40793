"""What goes wrong on the simulated floor: `--irregularities RATE` of rounds have a mishap.

Each round, with probability `rate`, one of the irregularities the table's rules name goes
wrong in it (table_adapter.game.irregularities), drawn evenly among those the round can have:
a card drawn in error, a spot not dealt, a failed shuffler cycle (with a shuffler), a
misdelivered card (handled forward, to the dealer or burned; each player not yet dealt let out
with even odds, never all), a forgotten burn, Stadium's malfunction. Face-up cards are
`--face-up-rate`'s. A Stadium malfunction strikes while the round is dealt or, as often, once
its result is reported: then the table asks the controller to void the round whole
(Adapter.void_round), as the screen's "malfunction voids all pays and plays" requires.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from table_adapter.game.bets import Bet
from table_adapter.game.irregularities import AT_A_CARD, Handling, Irregular, Mishap
from table_adapter.game.profiles import Profile
from table_adapter.game.shoe import Shuffler

MALFUNCTION_VOID = "malfunction: voids all pays and plays"


@dataclass(frozen=True, slots=True)
class Plan:
    """A round's mishap: what goes wrong while it is dealt, or a malfunction found after its
    result was reported (`after_report`: the table voids it at the controller)."""

    mishap: Mishap | None = None
    after_report: bool = False


class Mishaps:
    """Draws each round's mishap for one table."""

    def __init__(
        self, profile: Profile, shuffler: Shuffler, rate: float, rng: random.Random
    ) -> None:
        if not 0.0 <= rate <= 1.0:
            raise ValueError("the irregularity rate is a probability")
        self.rate = rate
        self.rng = rng
        self.kinds = sorted(
            k
            for k in profile.irregularities
            if k not in (Irregular.FACE_UP_CARD, Irregular.FACE_UP_CARDS)
            and (k is not Irregular.SHUFFLER_FAILED or shuffler is not Shuffler.NONE)
        )

    def next(self, bets: Sequence[Bet]) -> Plan:
        """The mishap of the round about to be dealt with `bets` (none at most rounds)."""
        # no draw at rate 0: a seeded floor deals the same cards with irregularities off
        if not self.rate or not self.kinds or self.rng.random() >= self.rate:
            return Plan()
        spots = sorted({b.spot for b in bets})
        kind = self.rng.choice(self._possible(spots))
        if kind is Irregular.MALFUNCTION:
            return Plan(Mishap(kind), after_report=self.rng.random() < 0.5)
        if kind not in AT_A_CARD:
            return Plan(Mishap(kind))
        return Plan(self._at_a_card(kind, spots))

    def _possible(self, spots: list[int]) -> list[Irregular]:
        """The kinds a round dealt to `spots` can have."""
        # a spot not dealt voids its wagers: a round with one spot keeps it dealt
        return [k for k in self.kinds if k is not Irregular.NOT_DEALT or len(spots) > 1]

    def _at_a_card(self, kind: Irregular, spots: list[int]) -> Mishap:
        """An error at one spot's card: which spot, and for a misdelivered card how it is
        handled and which players are let out."""
        spot = self.rng.choice(spots)
        if kind is not Irregular.MISDELIVERED:
            return Mishap(kind, spot=spot)
        handling = self.rng.choice(list(Handling))
        return Mishap(kind, spot=spot, handling=handling, let_out=self._let_out(spot, spots))

    def _let_out(self, spot: int, spots: list[int]) -> tuple[int, ...]:
        """The players not yet dealt at `spot` let out of the hand, each with even odds."""
        later = [s for s in spots if s >= spot]
        let_out = tuple(s for s in later if self.rng.random() < 0.5)
        if len(let_out) == len(spots):  # never every wager of the round
            let_out = let_out[1:]
        return let_out
