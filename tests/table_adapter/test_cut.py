"""The cut offered in order (Wisconsin §37(e)(2)-(3), 205 CMR §5(b)-(d)): who is offered it
first for each reason of a shuffle, refusals passing on in each rule's direction, the dealer
cutting when every player refuses, and the casino's own cut where the rule allows it."""

from __future__ import annotations

import pytest

from jackpot.domain.cards import Card
from table_adapter.game.bets import Bet
from table_adapter.game.cut import cut_card_appeared, offer_cut, offer_order
from table_adapter.game.engine import Table
from table_adapter.game.profiles import Passing
from table_adapter.game.records import Cut, Drawn, Reason, Role, Round, VoidRound

SPOTS = (2, 4, 6)


def bets(spots=SPOTS) -> list[Bet]:
    return [Bet(s, 1000, player=f"p{s}") for s in spots]


def test_the_order_runs_round_the_table_from_the_first_seat_offered() -> None:
    seated = [1, 3, 5, 7]
    assert offer_order(seated, 5, Passing.CLOCKWISE) == [5, 7, 1, 3]
    assert offer_order(seated, 5, Passing.COUNTER_CLOCKWISE) == [5, 3, 1, 7]
    # an empty first seat: the next seated one in the passing direction
    assert offer_order(seated, 4, Passing.CLOCKWISE) == [5, 7, 1, 3]
    assert offer_order(seated, 4, Passing.COUNTER_CLOCKWISE) == [3, 1, 7, 5]
    assert offer_order(seated, 8, Passing.CLOCKWISE) == [1, 3, 5, 7]
    assert offer_order([], 1, Passing.CLOCKWISE) == []


def test_refusals_pass_on_and_the_dealer_cuts_when_all_refuse() -> None:
    seated = [1, 3, 5, 7]
    refuse = {5, 7}.__contains__
    assert offer_cut(Reason.CASINO, seated, Passing.CLOCKWISE, refuse) == Cut(
        Reason.CASINO, (7, 1), 1
    )
    cut = offer_cut(Reason.CUT_CARD_AT_SPOT, seated, Passing.CLOCKWISE, refuse, at_spot=5)
    assert (cut.offered, cut.by, cut.refused) == ((5, 7, 1), 1, (5, 7))
    everyone = offer_cut(Reason.CASINO, seated, Passing.COUNTER_CLOCKWISE, lambda _: True)
    assert (everyone.offered, everyone.by, everyone.refused) == ((7, 5, 3, 1), None, (7, 5, 3, 1))
    # no player at the table, or a rule that offers players no cut: the dealer cuts
    assert offer_cut(Reason.CASINO, [], Passing.CLOCKWISE, refuse).by is None
    assert offer_cut(Reason.CASINO, seated, None, refuse) == Cut(Reason.CASINO, (), None)


def test_where_the_cut_card_appeared_is_the_position_of_the_next_card_dealt() -> None:
    c = Card.parse("2c")
    draws = [
        Drawn(Role.BURN, c),
        Drawn(Role.HAND, c, 2),
        Drawn(Role.HAND, c, 4),
        Drawn(Role.FACE_UP, c),
        Drawn(Role.DEALER, c),
        Drawn(Role.BURN, c),
        Drawn(Role.HAND_WAR, c, 4),
        Drawn(Role.DEALER_WAR, c),
    ]
    assert cut_card_appeared(draws, 2) == (Reason.CUT_CARD_AT_SPOT, 4)
    assert cut_card_appeared(draws, 3) == (Reason.CUT_CARD_AT_DEALER, None)  # past a discard
    assert cut_card_appeared(draws, 5) == (Reason.CUT_CARD_AT_SPOT, 4)  # past a war burn
    # the round ended on the last card in front of it: that card's position
    assert cut_card_appeared(draws, 8) == (Reason.CUT_CARD_AT_DEALER, None)
    assert cut_card_appeared(draws[:3], 3) == (Reason.CUT_CARD_AT_SPOT, 4)


def test_the_first_cut_is_offered_to_the_first_player_to_the_table() -> None:
    table = Table("T1", "wisconsin", seed=1, declines_cut={6}.__contains__)
    first = table.play_round([Bet(6, 1000), Bet(2, 1000), Bet(4, 1000)])
    assert isinstance(first, Round)
    assert first.cut == Cut(Reason.BEGINNING, (6, 2), 2)
    second = table.play_round(bets())
    assert isinstance(second, Round) and second.cut is None  # the same shoe: no cut


def deal_to_the_cut_card(table: Table, behind: int) -> Round:
    """A round whose `behind`-th card (0: a new dealer's burn; 1-3: spots 2, 4, 6; 4: the
    dealer; 5: none, the round ends on the last card in front of it) is the first behind the
    cut card, so the cut card appears there. (A burn right behind it would show the cut card
    before the round: that shoe is done. Burns within a round are the pure function's test.)"""
    table.play_round(bets())
    shoe = table.shoe
    shoe.burn(shoe.marker_index - behind - shoe.position)  # one burn is owed: a new dealer
    shoe.new_dealer()
    # a burn, three hands and a dealer's card that beats them all: no war, five cards
    left = sorted(shoe.remaining_cards())
    top = left[-1]
    low = [c for c in left if c.rank < top.rank][:4]
    shoe.arrange([low[0], low[1], low[2], low[3], top])
    played = table.play_round(bets())
    assert isinstance(played, Round) and shoe.marker_reached and shoe.needs_shuffle
    return played


@pytest.mark.parametrize(
    ("profile", "behind", "reason", "offered"),
    [
        # the cut card on spot 4's betting area: offered there first
        ("wisconsin", 2, Reason.CUT_CARD_AT_SPOT, (4, 6, 2)),
        ("massachusetts", 2, Reason.CUT_CARD_AT_SPOT, (4, 2, 6)),
        ("south_dakota", 2, Reason.CUT_CARD_AT_SPOT, (4, 6, 2)),
        ("wisconsin", 1, Reason.CUT_CARD_AT_SPOT, (2, 4, 6)),
        # on the dealer's hand: the player farthest to the dealer's right first
        ("wisconsin", 4, Reason.CUT_CARD_AT_DEALER, (6, 2, 4)),
        ("massachusetts", 4, Reason.CUT_CARD_AT_DEALER, (6, 4, 2)),
        # after the round's last card, none behind it: where that last card went
        ("wisconsin", 5, Reason.CUT_CARD_AT_DEALER, (6, 2, 4)),
    ],
)
def test_the_cut_is_offered_where_the_cut_card_appeared_and_passes_on(
    profile: str, behind: int, reason: Reason, offered: tuple[int, ...]
) -> None:
    table = Table("T1", profile, seed=2, declines_cut=1.0)
    deal_to_the_cut_card(table, behind)
    nxt = table.play_round(bets())
    assert isinstance(nxt, Round) and table.shoe.number == 2
    assert nxt.cut == Cut(
        reason, offered, None, offered[0] if reason is Reason.CUT_CARD_AT_SPOT else None
    )
    assert nxt.cut.refused == offered  # every player refused: the dealer cut


def test_a_player_who_left_the_cut_card_seat_passes_the_offer_to_the_next_seat() -> None:
    table = Table("T1", "wisconsin", seed=3)
    deal_to_the_cut_card(table, 2)  # spot 4's area
    nxt = table.play_round(bets((2, 6)))  # spot 4 has left
    assert isinstance(nxt, Round) and nxt.cut is not None
    assert (nxt.cut.reason, nxt.cut.offered, nxt.cut.by) == (Reason.CUT_CARD_AT_SPOT, (6,), 6)


def test_a_void_rounds_reshuffle_is_offered_farthest_to_the_dealers_right() -> None:
    table = Table("T1", "massachusetts", seed=4, declines_cut={6}.__contains__)
    table.play_round(bets())
    table.shoe.turn_face_up(1)
    table.shoe.turn_face_up(2)
    assert isinstance(table.play_round(bets()), VoidRound)
    nxt = table.play_round(bets())
    assert isinstance(nxt, Round)
    assert nxt.cut == Cut(Reason.CASINO, (6, 4), 4)


def test_stadium_players_never_cut_and_massachusetts_may_have_the_dealer_cut() -> None:
    stadium = Table("S1", "stadium", seed=5)
    first = stadium.play_round([Bet(1, 1000, player="a")])
    assert isinstance(first, Round) and first.cut == Cut(Reason.BEGINNING, (), None)
    house = Table("T1", "massachusetts", seed=5, dealer_cuts=True)
    played = house.play_round(bets())
    assert isinstance(played, Round) and played.cut == Cut(Reason.BEGINNING, (), None)
    with pytest.raises(ValueError, match="offered to the players"):
        Table("T1", "wisconsin", dealer_cuts=True)


def test_refusals_at_a_rate_pass_the_cut_on_about_that_often() -> None:
    table = Table("T1", "wisconsin", seed=6, declines_cut=0.5)
    cuts = [table._cut(Reason.CASINO, bets((1, 2, 3, 4, 5, 6, 7)), None) for _ in range(4000)]
    refused = sum(len(c.refused) for c in cuts)
    offered = sum(len(c.offered) for c in cuts)
    assert 0.47 < refused / offered < 0.53
    dealer = sum(c.by is None for c in cuts) / len(cuts)
    assert 0.003 < dealer < 0.02  # all seven refuse: 1 in 128
