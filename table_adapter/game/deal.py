"""The cards of a round out of the shoe: the original deal, with a dealer's error at a card
applied by its rule, and the war deal per the profile's layout."""

from __future__ import annotations

from collections.abc import Callable

from jackpot.domain.cards import Card
from table_adapter.game.irregularities import AT_A_CARD, Handling, Irregular, Irregularity, Mishap
from table_adapter.game.profiles import Layout, Profile
from table_adapter.game.records import Role
from table_adapter.game.shoe import Shoe


class _OriginalDeal:
    """The original deal under way: each spot's card, the dealer's, and the spots dealt out
    of the round."""

    def __init__(self, shoe: Shoe) -> None:
        self.shoe = shoe
        self.cards: dict[int, Card] = {}
        self.dealer: Card | None = None
        self.out: set[int] = set()

    def owed(self, at: int | None) -> bool:
        """Whether `at` (None: the dealer) is still owed its card: not dealt out of the
        round, nor given its card already."""
        if at is None:
            return self.dealer is None
        return at not in self.out and at not in self.cards

    def deal(self, at: int | None) -> Card:
        """Draw the card of `at` (None: the dealer's)."""
        if at is None:
            self.dealer = self.shoe.draw(Role.DEALER)
            return self.dealer
        self.cards[at] = self.shoe.draw(Role.HAND, at)
        return self.cards[at]


def original_deal(
    shoe: Shoe, spots: list[int], mishap: Mishap | None
) -> tuple[dict[int, Card], Card, set[int]]:
    """One card to each spot in order, then the dealer's (Wisconsin §37(h)(1), 205 CMR
    §8(a)), with a dealer's error at a card applied by its rule. Returns the spots' cards,
    the dealer's, and the spots dealt out of the round (not dealt, let out)."""
    order: list[int | None] = [*spots, None]  # None: the dealer's card
    at_card = mishap is not None and mishap.kind in AT_A_CARD
    dealt = _OriginalDeal(shoe)
    for i, at in enumerate(order):
        if not dealt.owed(at):
            continue  # dealt out of the round, or given its card already
        if at_card and mishap is not None and mishap.spot == at:
            at_card = False
            _dealer_error(dealt, mishap, order[i:])
        else:
            dealt.deal(at)
    assert dealt.dealer is not None
    return dealt.cards, dealt.dealer, dealt.out


def _dealer_error(dealt: _OriginalDeal, mishap: Mishap, ahead: list[int | None]) -> None:
    """Apply the dealer's error at the card of `ahead[0]`, by its rule."""
    at = ahead[0]
    if mishap.kind is Irregular.NOT_DEALT:
        # Wisconsin §37(j)(3), 205 CMR §10(d): the spot's wagers are void
        assert at is not None
        dealt.out.add(at)
        dealt.shoe.note(Irregularity(Irregular.NOT_DEALT, spot=at))
        return
    if mishap.kind is Irregular.DRAWN_IN_ERROR:
        # Wisconsin §37(j)(2), 205 CMR §10(c): used as though it was the next card
        card = dealt.deal(at)
        dealt.shoe.note(Irregularity(Irregular.DRAWN_IN_ERROR, spot=at, card=card))
        return
    # 205 CMR §10(a): never placed backwards; the players the casino lets out (none
    # dealt yet) take back their wagers before the deal goes on
    dealt.out |= set(mishap.let_out)
    card = _misdelivered(dealt.shoe, mishap.handling, ahead, dealt.out, dealt.deal)
    dealt.shoe.note(
        Irregularity(
            Irregular.MISDELIVERED,
            spot=at,
            card=card,
            handling=mishap.handling,
            let_out=tuple(sorted(mishap.let_out)),
        )
    )
    if dealt.owed(at):
        dealt.deal(at)  # the hand it was meant for takes the next card


def _misdelivered(
    shoe: Shoe,
    handling: Handling,
    ahead: list[int | None],
    out: set[int],
    deal: Callable[[int | None], Card],
) -> Card:
    """Where the card delivered incorrectly goes (205 CMR §10(a)); it is drawn here."""
    if handling is Handling.FORWARD:
        # to the next hand still owed a card, as though it had been delivered there
        return deal(next(at for at in ahead if at not in out))
    if handling is Handling.DEALER:
        return deal(None)
    # put in the discard rack as a burn: not one of the burns the rules owe, so a burn
    # the dealer is to forget (forgotten_burn) stays to come
    return shoe.draw(Role.BURN)


def war_deal(
    shoe: Shoe, profile: Profile, at_war: list[int]
) -> tuple[dict[int, Card], Card | None]:
    """Deal the war per the profile's layout (docs/RULES.md §2); {} and None without a war."""
    if not at_war:
        return {}, None
    burns, layout = profile.war_burns, profile.layout
    war_cards: dict[int, Card] = {}
    if layout is Layout.STADIUM:
        # Stadium rule 8: 3 burns, one community war card for every hand at war.
        shoe.burn(burns)
        community = shoe.draw(Role.COMMUNITY_WAR)
        war_cards = dict.fromkeys(at_war, community)
    else:
        if layout is Layout.STANDARD:
            # Wisconsin §37(h)(6), 205 CMR §8(f): 3 burns, then each spot in order.
            shoe.burn(burns)
        for spot in at_war:
            if layout is Layout.SOUTH_DAKOTA:
                # S.D. 20:18:16:15.17(4)(d): three burns before each war card.
                shoe.burn(burns)
            war_cards[spot] = shoe.draw(Role.HAND_WAR, spot)
    if layout is not Layout.STANDARD:
        shoe.burn(burns)
    return war_cards, shoe.draw(Role.DEALER_WAR)
