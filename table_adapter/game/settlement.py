"""The base game's settlement in exact integer cents, as each profile's source rules state.

Surrender loses half the initial wager (Wisconsin §37(h)(3)(i), 205 CMR §8(c)(1),
S.D. 20:18:16:15.17(4)(a)(i), Stadium rule 6). None of them says how to halve an odd
number of cents, and a dealer cannot collect a fraction of one: the house collects
`wager // 2` and returns the larger half, so it never takes more than the half the
rules allow (rounding in the player's favour).
"""

from __future__ import annotations

from dataclasses import dataclass

from jackpot.domain.cards import Card
from table_adapter.game.bets import Bet
from table_adapter.game.profiles import Profile
from table_adapter.game.strategies import Decision


@dataclass(frozen=True, slots=True)
class Settlement:
    """One bet's base-game result per wager in cents: + won, − lost, 0 pushed or not placed.

    `standoff` / `dealer_standoff`: pushed antes that stay on the felt for the next game.
    The progressive side wager is settled by the controller, not here.
    """

    initial: int = 0
    tie: int = 0
    war: int = 0
    war_tie: int = 0
    dealer_initial: int = 0
    dealer_tie: int = 0
    dealer_war: int = 0
    standoff: int = 0
    dealer_standoff: int = 0

    @property
    def net(self) -> int:
        """The player's net win (negative: loss) over every base-game wager."""
        return (
            self.initial
            + self.tie
            + self.war
            + self.war_tie
            + self.dealer_initial
            + self.dealer_tie
            + self.dealer_war
        )


def surrender_loss(wager: int) -> int:
    """The half of an initial wager the house collects on a surrender (rounded down)."""
    return wager // 2


def compare(card: Card, other: Card) -> int:
    """1, 0 or -1 as `card` outranks, ties or loses to `other` (suits never rank)."""
    return (card.rank > other.rank) - (card.rank < other.rank)


def settle(
    profile: Profile,
    bet: Bet,
    card: Card,
    dealer_card: Card,
    war_card: Card | None = None,
    dealer_war_card: Card | None = None,
    decision: Decision | None = None,
    dealer_decision: Decision | None = None,
) -> Settlement:
    """Settle every base-game wager of `bet` on a hand and the dealer's cards."""
    first = compare(card, dealer_card)
    war = None
    if war_card is not None and dealer_war_card is not None:
        war = compare(war_card, dealer_war_card)
    initial, war_result, standoff = _main(profile, bet.initial, first, decision, war)
    dealer_war = None if war is None else -war
    d_initial, d_war, d_standoff = _main(
        profile, bet.dealer_ante, -first, dealer_decision, dealer_war
    )
    war_tie = 0
    if bet.war_tie and decision is Decision.WAR and war is not None:
        war_tie = _tie(profile, bet.war_tie, war == 0)
    return Settlement(
        initial=initial,
        tie=_tie(profile, bet.tie, first == 0),
        war=war_result,
        war_tie=war_tie,
        dealer_initial=d_initial,
        dealer_tie=_tie(profile, bet.dealer_tie, first == 0),
        dealer_war=d_war,
        standoff=standoff,
        dealer_standoff=d_standoff,
    )


def _tie(profile: Profile, wager: int, tied: bool) -> int:
    if not wager:
        return 0
    return profile.tie.pay(wager) if tied else -wager


def _main(
    profile: Profile, wager: int, first: int, decision: Decision | None, war: int | None
) -> tuple[int, int, int]:
    """(initial, war, standoff) for an initial wager whose hand compared `first`."""
    if not wager:
        return 0, 0, 0
    if first > 0:
        return profile.initial.pay(wager), 0, 0
    if first < 0:
        return -wager, 0, 0
    if decision is not Decision.WAR:
        return -surrender_loss(wager), 0, 0
    return _at_war(profile, wager, war)


def _at_war(profile: Profile, wager: int, war: int | None) -> tuple[int, int, int]:
    """(initial, war, standoff) for an initial wager taken to war, whose war compared `war`."""
    if war is None:
        raise ValueError("a bet at war needs the war cards")
    if war < 0:
        return -wager, -wager, 0
    rule = profile.war
    odds = rule.win if war > 0 else rule.tie
    if rule.on_both:
        return 0, odds.pay(2 * wager), 0
    if rule.initial_collected:
        return -wager, odds.pay(wager), 0
    return 0, odds.pay(wager), wager if profile.keep_standoff else 0
