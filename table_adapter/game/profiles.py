"""Jurisdiction rule profiles: the source regulations' rules as data (docs/RULES.md §2).

`settlement.py` applies these figures; every figure cites its source:

* `wisconsin`: Wisconsin Section 37.
* `massachusetts`: 205 CMR, Casino War.
* `south_dakota`: S.D. Admin. R. 20:18:16:15.17.
* `stadium`: Light & Wonder "Stadium Casino War" rules of play, paytable 01
  by default; `stadium_02` is paytable 02.

Configurable options (Stadium's dealer bet, standoff, timer) are set with
`dataclasses.replace(STADIUM, keep_standoff=True)`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction

from jackpot.domain.cards import DECK_SIZE
from table_adapter.game.irregularities import Irregular

LIVE_DECKS = (6, 7, 8)
FACE_UP = frozenset({Irregular.FACE_UP_CARD, Irregular.FACE_UP_CARDS})
# Wisconsin §37(j)(1)-(4): face-up cards, a card drawn in error, a card not dealt to a wager,
# an automated shuffler that fails.
WISCONSIN_IRREGULARITIES = FACE_UP | {
    Irregular.DRAWN_IN_ERROR,
    Irregular.NOT_DEALT,
    Irregular.SHUFFLER_FAILED,
}
# 205 CMR §10(a)-(f): Wisconsin's four, a card delivered incorrectly, a forgotten burn.
MASSACHUSETTS_IRREGULARITIES = WISCONSIN_IRREGULARITIES | {
    Irregular.MISDELIVERED,
    Irregular.FORGOTTEN_BURN,
}


class Layout(StrEnum):
    """The war-deal layouts the controller knows (docs/RULES.md §2); a table reports its layout."""

    STANDARD = "standard"
    SOUTH_DAKOTA = "south_dakota"
    STADIUM = "stadium"


class SettleOrder(StrEnum):
    """The direction the dealer settles wagers in."""

    FROM_LEFT = "from_left"  # dealer's left, clockwise: spot 1 first
    FROM_RIGHT = "from_right"  # dealer's right, counter-clockwise: the last spot first


@dataclass(frozen=True, slots=True)
class Odds:
    """`win` to `per`: a winning stake of `s` cents wins `s × win / per` cents."""

    win: int
    per: int = 1

    def pay(self, stake: int) -> int:
        """Winnings on `stake` cents; exact for every figure the source rules use."""
        # The only per > 1 figure is "1 to 2" on the initial plus the matched war
        # wager (2 × W cents), which always divides; floor would favour the house.
        return stake * self.win // self.per


class Passing(StrEnum):
    """Which way a refused cut passes around the table (table_adapter.game.cut)."""

    CLOCKWISE = "clockwise"  # spot numbers rising, from the dealer's left
    COUNTER_CLOCKWISE = "counter_clockwise"  # spot numbers falling


@dataclass(frozen=True, slots=True)
class CutRule:
    """Where the cut card may go and how deep the reshuffle marker sits (in cards)."""

    min_cut: int  # the cut card at least this many cards in from either end
    marker_min_cards: int  # the marker at least this many cards in from the back
    marker_min_share: Fraction  # ... and at least this share of the stack from the back
    # the players are offered the cut, a refusal passing this way (None: the dealer cuts)
    passing: Passing | None = Passing.CLOCKWISE
    casino_may_cut: bool = False  # the casino may have the dealer cut for the table instead

    def marker_from_back(self, size: int) -> int:
        """The least number of cards the marker may leave behind it in a stack of `size`."""
        return max(self.marker_min_cards, math.ceil(size * self.marker_min_share))


@dataclass(frozen=True, slots=True)
class WarRule:
    """How the initial and war wagers settle after the war deal."""

    initial_collected: bool  # the initial wager is lost on going to war (Wisconsin)
    on_both: bool  # the odds apply to initial + war wager together (South Dakota)
    win: Odds
    tie: Odds


@dataclass(frozen=True, slots=True)
class Profile:
    """One jurisdiction's Casino War: deal, cut, burns and base-game odds."""

    name: str
    layout: Layout
    cut: CutRule
    settle_order: SettleOrder
    initial: Odds
    tie: Odds
    war: WarRule
    war_tie_wager: bool  # a tie wager may be placed on the war deal
    decks: tuple[int, ...] = LIVE_DECKS
    hands: int | None = None  # Stadium: this many hands are always dealt
    dealer_bet: bool = False  # Stadium: ante/tie wagers on the dealer (configurable)
    keep_standoff: bool = False  # Stadium: pushed antes stay on the felt for the next game
    decision_timer_ms: int | None = None  # Stadium: an undecided tie surrenders when it expires
    war_burns: int = 3
    # the irregularities the rules name, each applied as table_adapter.game.irregularities
    # writes it; face-up cards in the shoe are found under every profile
    irregularities: frozenset[Irregular] = FACE_UP

    @property
    def stadium(self) -> bool:
        return self.layout is Layout.STADIUM


# Wisconsin §37(e)(4): cut at least 10 cards in from either end; (e)(5): the marker
# "at least approximately one-quarter of the way in from the back"; (e)(2)-(3): offered to
# the players, a refusal passing clockwise.
WISCONSIN_CUT = CutRule(min_cut=10, marker_min_cards=0, marker_min_share=Fraction(1, 4))
# 205 CMR §5(e): at least a deck in from either end; §5(f): the marker at least a deck
# and a half from the back; §5(b)-(d): offered to the players, a refusal passing
# counter-clockwise, or at the casino's discretion cut by the dealer for the table.
MASSACHUSETTS_CUT = CutRule(
    min_cut=DECK_SIZE,
    marker_min_cards=DECK_SIZE * 3 // 2,
    marker_min_share=Fraction(0),
    passing=Passing.COUNTER_CLOCKWISE,
    casino_may_cut=True,
)
# South Dakota and the Stadium rules say nothing of the cut: use a cut and a marker that
# satisfy both Wisconsin and Massachusetts, so the shoe is legal under either. South Dakota
# deals and settles from the dealer's left like Wisconsin: its cut is offered likewise.
STRICT_CUT = CutRule(
    min_cut=DECK_SIZE, marker_min_cards=DECK_SIZE * 3 // 2, marker_min_share=Fraction(1, 4)
)
# Stadium's players sit at terminals and never touch a card: the dealer cuts at the podium.
STADIUM_CUT = replace(STRICT_CUT, passing=None)

WISCONSIN = Profile(
    name="wisconsin",
    layout=Layout.STANDARD,
    cut=WISCONSIN_CUT,
    # §37(h)(1), (h)(7): from the dealer's left, clockwise.
    settle_order=SettleOrder.FROM_LEFT,
    # §37(i)(1)(i)-(ii): initial wager 1 to 1, tie wager 10 to 1.
    initial=Odds(1),
    tie=Odds(10),
    # §37(h)(3)(ii), (h)(5): going to war surrenders the whole initial wager;
    # §37(i)(1)(iii): the war wager pays 2 to 1, 3 to 1 when the war deal ties.
    war=WarRule(initial_collected=True, on_both=False, win=Odds(2), tie=Odds(3)),
    # §37(a)(1)(vii), (h)(5): a tie wager may be placed on the war deal.
    war_tie_wager=True,
    irregularities=WISCONSIN_IRREGULARITIES,
)

MASSACHUSETTS = Profile(
    name="massachusetts",
    layout=Layout.STANDARD,
    cut=MASSACHUSETTS_CUT,
    # 205 CMR §8(a), §8(g): from the dealer's right, counter-clockwise.
    settle_order=SettleOrder.FROM_RIGHT,
    # §9(a)(1)-(2): initial wager 1 to 1, tie wager 10 to 1.
    initial=Odds(1),
    tie=Odds(10),
    # §8(g)(2)-(3), §9(a)(1), (3): the initial wager pushes; war wager 1 to 1, 2 to 1 on a tie.
    war=WarRule(initial_collected=False, on_both=False, win=Odds(1), tie=Odds(2)),
    # §8(e): the dealer offers a tie wager on the war deal.
    war_tie_wager=True,
    irregularities=MASSACHUSETTS_IRREGULARITIES,
)

SOUTH_DAKOTA = Profile(
    name="south_dakota",
    layout=Layout.SOUTH_DAKOTA,
    cut=STRICT_CUT,
    # 20:18:16:15.17(4): from the dealer's left, clockwise; (5) "from left to right".
    settle_order=SettleOrder.FROM_LEFT,
    # (5) "Beat dealer 1 to 1"; (4)(c): tie wager 10 to 1.
    initial=Odds(1),
    tie=Odds(10),
    # (4)(d): the player's match wager and the original wager ride together; (5) pays
    # "Win after going to war 1 to 2" and "Tie after going to war 1 to 1" on the two:
    # on 2W that is +W and +2W, the three (four) wagers of (4)(d)(i)-(ii).
    war=WarRule(initial_collected=False, on_both=True, win=Odds(1, 2), tie=Odds(1, 1)),
    # (2), (4)(c): the tie wager is made with the initial bet only.
    war_tie_wager=False,
    # The rule names no irregularity: the four that Wisconsin and Massachusetts word alike,
    # none of Massachusetts' own (docs/DECISIONS.md D218).
    irregularities=WISCONSIN_IRREGULARITIES,
)

STADIUM = Profile(
    name="stadium",
    layout=Layout.STADIUM,
    cut=STADIUM_CUT,
    # Rule 9: wagers are reconciled by the system; it settles the hands in order 1..7.
    settle_order=SettleOrder.FROM_LEFT,
    # Paytable 01: beat dealer 1 to 1, tie bet 11 to 1.
    initial=Odds(1),
    tie=Odds(11),
    # Rule 8 and the screen: ante stand-off, war 1:1, 2:1 with a war tie (the paytable's
    # "1 to 2" / "1 to 1" on ante + war is the same result).
    war=WarRule(initial_collected=False, on_both=False, win=Odds(1), tie=Odds(2)),
    # Rule 4: tie wagers are paid regardless of any additional cards dealt.
    war_tie_wager=False,
    # "dealt from the podium via a 6 deck shoe".
    decks=(6,),
    # Rule 4: one card to each of the 7 locations on the felt.
    hands=7,
    dealer_bet=True,
    keep_standoff=False,
    decision_timer_ms=15_000,
    # The screen: "MALFUNCTION VOIDS ALL PAYS AND PLAYS"; the podium's shoe may hold face-up
    # cards like any shoe (docs/DECISIONS.md D218).
    irregularities=FACE_UP | {Irregular.MALFUNCTION},
)

# Paytable 02: tie bet 10 to 1, everything else as 01.
STADIUM_02 = replace(STADIUM, name="stadium_02", tie=Odds(10))

PROFILES: dict[str, Profile] = {
    p.name: p for p in (WISCONSIN, MASSACHUSETTS, SOUTH_DAKOTA, STADIUM, STADIUM_02)
}


def get_profile(name: str) -> Profile:
    """The profile called `name`; raise KeyError naming the known ones."""
    try:
        return PROFILES[name]
    except KeyError:
        raise KeyError(f"unknown profile {name!r}: one of {', '.join(PROFILES)}") from None
