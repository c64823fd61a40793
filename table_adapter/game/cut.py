"""Who cuts a new shoe: the cut offered seat by seat in the rule's order, refusals passing on,
the dealer cutting when every player refuses (Wisconsin §37(e)(2)-(3), 205 CMR §5(b)-(d)).

The player first offered the cut is, by the reason for the shuffle:

* the first player to the table, when the game is just beginning (§37(e)(2)(i), §5(c)(1));
* the player on whose betting area the cut card appeared in the last round (ii), (2);
* the player farthest to the dealer's right, when the cut card appeared on the dealer's hand
  (iii), (3), or when the reshuffle was the casino's (iv), (4): a void round's reshuffle is
  one (it is not the cut card's).

If that player refuses, the offer passes to each other player in turn, clockwise in Wisconsin,
counter-clockwise in Massachusetts, until one accepts; if none does, the dealer cuts.

Seats are the table's spots, numbered from the dealer's left (spot 1, "first base") to the
dealer's right; seen from above with the dealer facing the players, clockwise runs from
spot 1 towards the last spot, as the deal does. Only the players at the table are offered
the cut: those with a bet on the round the new shoe is dealt for.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from table_adapter.game.profiles import Passing
from table_adapter.game.records import Cut, Drawn, Reason, Role

#: the roles of cards dealt to a player's betting area, and to the dealer's hand (a Stadium
#: community war card is no one player's: like a burn, it goes to no betting area)
TO_A_SPOT = frozenset({Role.HAND, Role.HAND_WAR})
TO_THE_DEALER = frozenset({Role.DEALER, Role.DEALER_WAR})


def cut_card_appeared(draws: Sequence[Drawn], marker_index: int) -> tuple[Reason, int | None]:
    """Where the cut card appeared, from every card out of the shoe in order (`draws[i]` is
    the card at stack position i), and the spot if on a betting area: the position the first
    card behind it was dealt to (a burn or a face-up discard goes to none, so the next card
    decides); if the round ended with no card dealt from behind it, the position the last card
    in front of it went to."""

    def positioned(cards: Sequence[Drawn]) -> list[Drawn]:
        return [d for d in cards if d.role in TO_A_SPOT or d.role in TO_THE_DEALER]

    found = positioned(draws[marker_index:])[:1] or positioned(draws[:marker_index])[-1:]
    if not found:
        return Reason.CASINO, None
    if found[0].role in TO_THE_DEALER:
        return Reason.CUT_CARD_AT_DEALER, None
    return Reason.CUT_CARD_AT_SPOT, found[0].spot


def offer_order(seated: Sequence[int], first: int, passing: Passing) -> list[int]:
    """The seated spots in the order the cut is offered: `first` (or, if that seat is empty,
    the next seated one in the passing direction), then around the table."""
    ring = sorted(set(seated), reverse=passing is Passing.COUNTER_CLOCKWISE)
    if not ring:
        return []
    if passing is Passing.CLOCKWISE:
        start = next((i for i, s in enumerate(ring) if s >= first), 0)
    else:
        start = next((i for i, s in enumerate(ring) if s <= first), 0)
    return ring[start:] + ring[:start]


def first_offered(
    reason: Reason, seated: Sequence[int], first_player: int | None, at_spot: int | None
) -> int:
    """The seat first offered the cut for a shuffle made for `reason`."""
    if reason is Reason.BEGINNING and first_player is not None:
        return first_player
    if reason is Reason.CUT_CARD_AT_SPOT and at_spot is not None:
        return at_spot
    return max(seated)  # the player farthest to the dealer's right


def offer_cut(
    reason: Reason,
    seated: Sequence[int],
    passing: Passing | None,
    declines: Callable[[int], bool],
    *,
    first_player: int | None = None,
    at_spot: int | None = None,
) -> Cut:
    """Offer the cut in the rule's order until a player accepts; the dealer cuts when all
    refuse, when no one is seated, or when the rule offers players no cut (`passing` None)."""
    if passing is None or not seated:
        return Cut(reason, (), None, at_spot)
    order = offer_order(seated, first_offered(reason, seated, first_player, at_spot), passing)
    offered: list[int] = []
    for spot in order:
        offered.append(spot)
        if not declines(spot):
            return Cut(reason, tuple(offered), spot, at_spot)
    return Cut(reason, tuple(offered), None, at_spot)
