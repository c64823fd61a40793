"""Records of a round: every card drawn, each bet's settlement and side-bet outcome."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from jackpot.domain.cards import Card
from jackpot.domain.outcomes import Outcome
from table_adapter.game.irregularities import Irregularity

if TYPE_CHECKING:
    from table_adapter.game.bets import Bet
    from table_adapter.game.profiles import Profile
    from table_adapter.game.settlement import Settlement
    from table_adapter.game.strategies import Decision


class Role(StrEnum):
    """Why a card left the shoe."""

    BURN = "burn"
    FACE_UP = "face_up"  # found face up in the shoe: discarded, not used
    HAND = "hand"
    DEALER = "dealer"
    HAND_WAR = "hand_war"
    COMMUNITY_WAR = "community_war"
    DEALER_WAR = "dealer_war"


class Reason(StrEnum):
    """Why the shoe was shuffled, which decides who is offered the cut first."""

    BEGINNING = "beginning"  # the game is just beginning
    CUT_CARD_AT_SPOT = "cut_card_at_spot"  # the cut card appeared on a player's betting area
    CUT_CARD_AT_DEALER = "cut_card_at_dealer"  # ... on the dealer's hand
    CASINO = "casino"  # a reshuffle the cut card did not call for (a void round's)


@dataclass(frozen=True, slots=True)
class Cut:
    """Who cut a shoe and why: the seats offered in turn (each refusing but the one that cut)."""

    reason: Reason
    offered: tuple[int, ...]
    by: int | None  # the spot that cut; None: the dealer
    cut_card_spot: int | None = None  # where the cut card appeared (CUT_CARD_AT_SPOT)

    @property
    def refused(self) -> tuple[int, ...]:
        """The seats that refused the cut, in the order offered."""
        return self.offered if self.by is None else self.offered[:-1]


@dataclass(frozen=True, slots=True)
class Drawn:
    """One card out of the shoe, in the order drawn."""

    role: Role
    card: Card
    spot: int | None = None


@dataclass(frozen=True, slots=True)
class Hand:
    """One dealt hand: its original card and, at war, its war card."""

    spot: int
    card: Card
    war_card: Card | None = None


@dataclass(frozen=True, slots=True)
class BetResult:
    """A bet after the round: decisions, base-game settlement and side-bet outcome."""

    bet: Bet
    decision: Decision | None  # on a tied initial wager; None without a tie
    dealer_decision: Decision | None  # Stadium: on a tied wager on the dealer
    timed_out: bool  # the decision timer (or silence) made a surrender
    settlement: Settlement
    outcome: Outcome | None  # the progressive side bet's; None without a side wager


@dataclass(frozen=True, slots=True)
class Round:
    """A finished round, ready to report (table_adapter.game.report.round_report)."""

    table: str
    round_id: str
    shoe_id: str
    profile: Profile
    draws: tuple[Drawn, ...]
    dealer_card: Card
    dealer_war_card: Card | None
    hands: tuple[Hand, ...]  # ascending spot
    results: tuple[BetResult, ...]  # in the profile's settlement order
    cut: Cut | None = None  # who cut the shoe, on the first round dealt from it
    irregularities: tuple[Irregularity, ...] = ()  # in the order they happened
    # wagers void and handed back: a spot not dealt a card, players let out of the hand
    returned: tuple[Bet, ...] = ()
    # cards out of the shoe before the round's first (burns included); None from a continuous
    # shuffler, whose cards go back after every round: it has no shoe to audit
    position: int | None = None

    def hand(self, spot: int) -> Hand:
        """The hand dealt to `spot`."""
        for hand in self.hands:
            if hand.spot == spot:
                return hand
        raise KeyError(spot)

    def cards(self, role: Role) -> list[Card]:
        """The cards drawn in `role` this round, in order."""
        return [d.card for d in self.draws if d.role is role]

    def results_on(self, spot: int) -> tuple[BetResult, ...]:
        """The bets on `spot`, in the order they were placed."""
        return tuple(r for r in self.results if r.bet.spot == spot)

    @property
    def net(self) -> int:
        """The players' net base-game result in cents (the house's is its negative)."""
        return sum(r.settlement.net for r in self.results)


@dataclass(frozen=True, slots=True)
class VoidRound:
    """A round whose hands are all void while it is dealt (a second face-up card, Stadium's
    malfunction): never reported. `bets` are the wagers placed for it, returned; `kept` the
    stand-offs on the felt from the game before (Stadium, kept stand-off), which stay there
    for the next game dealt: neither returned nor lost."""

    table: str
    round_id: str
    shoe_id: str
    draws: tuple[Drawn, ...]
    bets: tuple[Bet, ...]
    kept: tuple[Bet, ...] = ()
    cut: Cut | None = None  # who cut the shoe, when this was its first round
    irregularities: tuple[Irregularity, ...] = ()  # the last one voided it

    @property
    def cause(self) -> str:
        """Why it was void: the kind of the irregularity that voided it."""
        return next(i.kind.value for i in reversed(self.irregularities) if i.voids_round)
