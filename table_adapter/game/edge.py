"""The base game's exact house edge: the house's expected win per unit of initial wager, off
the top of a full shoe, for a profile, a number of decks and a share of ties taken to war.

Exact combinatorics with the shoe's depletion: the hand's and the dealer's cards are two cards
from the shoe; on a tie, the two war cards are two more from the cards left (burns drawn
between them are unseen and, by symmetry, leave those two cards' distribution as it was).
Each case is settled by `settlement.settle`, the engine's own rule, so the edge is the rules'
and not a second reading of them. Tie wagers and wagers on the dealer are not in it.
"""

from __future__ import annotations

from fractions import Fraction

from jackpot.domain.cards import DECK_SIZE, Card, Rank
from table_adapter.game.bets import Bet
from table_adapter.game.profiles import Profile
from table_adapter.game.settlement import settle
from table_adapter.game.strategies import Decision

RANKS = len(Rank)
WAGER = 1_000_000  # cents: every pay and half of it is whole, so nothing rounds


def _card(rank: int) -> Card:
    """A card of the `rank`-th rank (0: the lowest), any suit (suits never rank)."""
    return Card(list(Rank)[rank], "s")


def house_edge(profile: Profile, decks: int, war_share: Fraction = Fraction(1)) -> Fraction:
    """The house's expected win per unit of initial wager (2.33 % is Fraction ≈ 0.0233)."""
    n = decks * DECK_SIZE
    per_rank = n // RANKS
    bet = Bet(1, WAGER)
    expected = Fraction(0)
    for p in range(RANKS):
        for d in range(RANKS):
            first = Fraction(per_rank, n) * Fraction(per_rank - (p == d), n - 1)
            if p != d:
                net = settle(profile, bet, _card(p), _card(d)).net
                expected += first * net
                continue
            surrendered = settle(profile, bet, _card(p), _card(d), decision=Decision.SURRENDER)
            at_war = _war(profile, bet, p, n, per_rank)
            expected += first * ((1 - war_share) * surrendered.net + war_share * at_war)
    return -expected / WAGER


def _war(profile: Profile, bet: Bet, tied: int, n: int, per_rank: int) -> Fraction:
    """The expected net of a tie at `tied` taken to war: two war cards from the n - 2 left."""
    left = [per_rank - 2 * (r == tied) for r in range(RANKS)]
    total = n - 2
    out = Fraction(0)
    for x in range(RANKS):
        for y in range(RANKS):
            chance = Fraction(left[x], total) * Fraction(left[y] - (x == y), total - 1)
            if not chance:
                continue
            net = settle(
                profile,
                bet,
                _card(tied),
                _card(tied),
                war_card=_card(x),
                dealer_war_card=_card(y),
                decision=Decision.WAR,
            ).net
            out += chance * net
    return out
