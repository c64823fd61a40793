"""Every irregularity the seeds name, dealt from exact cards, with the rule's consequence.

Wisconsin §37(j)(1)-(4); 205 CMR §10(a)-(f); Stadium's "malfunction voids all pays and plays".
"""

from __future__ import annotations

import pytest

from jackpot.domain.cards import Card
from table_adapter.game.bets import Bet
from table_adapter.game.engine import Table
from table_adapter.game.irregularities import Handling, Irregular, Irregularity, Mishap
from table_adapter.game.records import Role, Round, VoidRound
from table_adapter.game.report import round_report
from table_adapter.game.shoe import Shuffler

BURN, HAND, DEALER, FACE_UP = Role.BURN, Role.HAND, Role.DEALER, Role.FACE_UP
BETS = [Bet(1, 1000, side=100, player="a"), Bet(3, 1000, side=100, player="b"), Bet(5, 1000)]


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def deal(table: Table, deck: str, mishap: Mishap | None, bets=BETS) -> Round | VoidRound:
    table.shoe.arrange(cards(deck))
    return table.play_round(bets, mishap)


def dealt(rnd: Round | VoidRound) -> list[tuple[Role, int | None, str]]:
    return [(d.role, d.spot, str(d.card)) for d in rnd.draws]


def kinds(rnd: Round | VoidRound) -> list[Irregular]:
    return [i.kind for i in rnd.irregularities]


def test_a_card_drawn_in_error_is_used_as_the_next_card():
    # Wisconsin §37(j)(2): the round is dealt exactly as without the error, and journaled
    plain = deal(Table("T1", "wisconsin", seed=3), "2c 9c 8d 7h 6s", None)
    table = Table("T1", "wisconsin", seed=3)
    rnd = deal(table, "2c 9c 8d 7h 6s", Mishap(Irregular.DRAWN_IN_ERROR, spot=3))
    assert isinstance(rnd, Round) and isinstance(plain, Round)
    assert dealt(rnd) == dealt(plain)
    assert rnd.irregularities == (
        Irregularity(Irregular.DRAWN_IN_ERROR, spot=3, card=Card.parse("8d")),
    )
    assert "used as the next card" in rnd.irregularities[0].consequence


def test_a_spot_not_dealt_has_its_wagers_void_and_the_next_spot_takes_its_card():
    # Wisconsin §37(j)(3), 205 CMR §10(d): that wager is void; the others play as dealt
    table = Table("T1", "massachusetts", seed=3)
    rnd = deal(table, "2c 9c 8d 7h", Mishap(Irregular.NOT_DEALT, spot=3))
    assert isinstance(rnd, Round)
    assert dealt(rnd) == [
        (BURN, None, "2c"),
        (HAND, 1, "9c"),
        (HAND, 5, "8d"),
        (DEALER, None, "7h"),
    ]
    assert [b.spot for b in rnd.returned] == [3]
    assert sorted(r.bet.spot for r in rnd.results) == [1, 5]
    # the report names only the hands dealt: the void side wager never reaches the meter
    assert [s["spot"] for s in round_report(rnd)["spots"]] == [1, 5]
    # the player is in the next round (a new bet on spot 3 is dealt as usual)
    after = table.play_round(BETS)
    assert isinstance(after, Round) and 3 in [h.spot for h in after.hands]


@pytest.mark.parametrize(
    ("handling", "expected", "spot_5", "dealer"),
    [
        # moved forward: the card goes on to the next hand owed one, as it would have
        (Handling.FORWARD, [(HAND, 3, "8d"), (HAND, 5, "7h"), (DEALER, None, "6s")], "7h", "6s"),
        # used as the dealer's card: spot 3 and on take the cards after it
        (Handling.DEALER, [(DEALER, None, "8d"), (HAND, 3, "7h"), (HAND, 5, "6s")], "6s", "8d"),
        # burned: spot 3 takes the next card
        (
            Handling.BURN,
            [(BURN, None, "8d"), (HAND, 3, "7h"), (HAND, 5, "6s"), (DEALER, None, "5d")],
            "6s",
            "5d",
        ),
    ],
)
def test_a_misdelivered_card_goes_forward_to_the_dealer_or_is_burned(
    handling, expected, spot_5, dealer
):
    # 205 CMR §10(a): never placed backwards (spot 1, dealt before, keeps its card)
    table = Table("T1", "massachusetts", seed=3)
    rnd = deal(
        table, "2c 9c 8d 7h 6s 5d", Mishap(Irregular.MISDELIVERED, spot=3, handling=handling)
    )
    assert isinstance(rnd, Round)
    assert dealt(rnd)[:2] == [(BURN, None, "2c"), (HAND, 1, "9c")]
    assert dealt(rnd)[2 : 2 + len(expected)] == expected
    assert str(rnd.hand(1).card) == "9c" and str(rnd.hand(5).card) == spot_5
    assert str(rnd.dealer_card) == dealer
    (irregular,) = rnd.irregularities
    assert (irregular.kind, irregular.spot, str(irregular.card)) == (
        Irregular.MISDELIVERED,
        3,
        "8d",
    )
    assert irregular.handling is handling and rnd.returned == ()


def test_players_let_out_after_a_misdelivered_card_take_back_their_wagers():
    # 205 CMR §10(a): the casino may let one or more players out of the hand
    table = Table("T1", "massachusetts", seed=3)
    mishap = Mishap(Irregular.MISDELIVERED, spot=3, handling=Handling.BURN, let_out=(3,))
    rnd = deal(table, "2c 9c 8d 7h 6s", mishap)
    assert isinstance(rnd, Round)
    assert dealt(rnd)[1:] == [
        (HAND, 1, "9c"),
        (BURN, None, "8d"),
        (HAND, 5, "7h"),
        (DEALER, None, "6s"),
    ]
    assert [b.spot for b in rnd.returned] == [3]
    assert "let out" in rnd.irregularities[0].consequence
    # only players not yet dealt may be let out; never every wager of the round
    with pytest.raises(ValueError, match="not yet dealt"):
        table.play_round(BETS, Mishap(Irregular.MISDELIVERED, spot=3, let_out=(1,)))
    with pytest.raises(ValueError, match="no wager"):
        table.play_round([Bet(3, 1000)], Mishap(Irregular.MISDELIVERED, spot=3, let_out=(3,)))


def test_a_forgotten_burn_lets_the_hand_continue():
    # 205 CMR §10(f): the new shoe's burn is forgotten; the cards dealt are the next ones
    table = Table("T1", "massachusetts", seed=3)
    rnd = deal(table, "2c 9c 8d 7h", Mishap(Irregular.FORGOTTEN_BURN))
    assert isinstance(rnd, Round)
    assert dealt(rnd) == [(HAND, 1, "2c"), (HAND, 3, "9c"), (HAND, 5, "8d"), (DEALER, None, "7h")]
    assert kinds(rnd) == [Irregular.FORGOTTEN_BURN]
    # with no burn to make in the round, the dealer forgets the next one made
    quiet = deal(table, "9c 2d", Mishap(Irregular.FORGOTTEN_BURN), [Bet(1, 1000)])
    assert isinstance(quiet, Round) and kinds(quiet) == []
    war = deal(table, "9d 9h 3c 4c 5c 6c 7c", None, [Bet(1, 1000)])
    assert isinstance(war, Round) and [d.role for d in war.draws].count(BURN) == 2
    assert kinds(war) == [Irregular.FORGOTTEN_BURN]
    again = deal(table, "8d 8h 3d 4d 5d 6d 7d", None, [Bet(1, 1000)])
    assert isinstance(again, Round) and [d.role for d in again.draws].count(BURN) == 3


def test_a_forgotten_war_burn_takes_one_burn_off_the_war_deal():
    table = Table("T1", "massachusetts", seed=3)
    deal(table, "2c 9c", None, [Bet(1, 1000)])  # the shoe's burn is made
    rnd = deal(table, "9d 9h 3c 4c 5c 6c", Mishap(Irregular.FORGOTTEN_BURN), [Bet(1, 1000)])
    assert isinstance(rnd, Round)
    assert [d.role for d in rnd.draws] == [HAND, DEALER, BURN, BURN, Role.HAND_WAR, Role.DEALER_WAR]
    assert kinds(rnd) == [Irregular.FORGOTTEN_BURN]


@pytest.mark.parametrize("shuffler", [Shuffler.BATCH, Shuffler.CONTINUOUS])
def test_a_failed_shuffler_cycle_reshuffles_its_cards(shuffler):
    # Wisconsin §37(j)(4), 205 CMR §10(e): the cards it was shuffling are shuffled again
    table = Table("T1", "wisconsin", seed=3, shuffler=shuffler)
    table.play_round(BETS)
    held = (
        list(table.shoe._batches[1 - table.shoe.batch])
        if shuffler is Shuffler.BATCH
        else list(table.shoe.remaining_cards())
    )
    rnd = table.play_round(BETS, Mishap(Irregular.SHUFFLER_FAILED))
    assert isinstance(rnd, Round) and kinds(rnd) == [Irregular.SHUFFLER_FAILED]
    if shuffler is Shuffler.BATCH:
        # the batch in the machine while the other is dealt: the same cards, shuffled again
        after = list(table.shoe._batches[1 - table.shoe.batch])
        assert sorted(after) == sorted(held) and after != held
    else:
        # the machine's cycle readies the round's cards: they are not the ones it held
        drawn = [d.card for d in rnd.draws]
        assert drawn != held[: len(drawn)]
    assert table.shoe.conserved()


def test_a_hand_shuffle_has_no_shuffler_to_fail_and_rules_name_their_own_irregularities():
    with pytest.raises(ValueError, match="automated shuffler"):
        Table("T1", "wisconsin", seed=3).play_round(BETS, Mishap(Irregular.SHUFFLER_FAILED))
    # Massachusetts' own: not Wisconsin's; the Stadium's malfunction: not a live table's
    for profile, kind in (
        ("wisconsin", Irregular.MISDELIVERED),
        ("wisconsin", Irregular.FORGOTTEN_BURN),
        ("south_dakota", Irregular.MISDELIVERED),
        ("massachusetts", Irregular.MALFUNCTION),
        ("stadium", Irregular.NOT_DEALT),
    ):
        bets = [Bet(1, 1000, player="a")] if profile == "stadium" else BETS
        with pytest.raises(ValueError, match="name no"):
            Table("T1", profile, seed=3).play_round(bets, Mishap(kind, spot=1))


def test_a_stadium_malfunction_voids_all_pays_and_plays_and_the_shoe_deals_on():
    table = Table("S1", "stadium", seed=3)
    bets = [Bet(1, 1000, side=100, player="a"), Bet(4, 1000, player="b")]
    void = table.play_round(bets, Mishap(Irregular.MALFUNCTION))
    assert isinstance(void, VoidRound)
    assert void.cause == "malfunction" and void.bets == tuple(bets)
    assert [d.role for d in void.draws] == [BURN] + [HAND] * 7 + [DEALER]
    # the rule calls for no reshuffle: the next game comes from the same shoe
    assert not table.shoe.needs_shuffle
    before, out = table.shoe.number, table.shoe.position
    after = table.play_round(bets)
    assert isinstance(after, Round) and table.shoe.number == before
    assert after.draws[0].card == table.shoe.drawn[out].card and table.shoe.conserved()


def test_face_up_cards_are_journaled_each_and_the_second_names_the_void():
    # Wisconsin §37(j)(1): the first is discarded, the second (in the same shoe) voids
    table = Table("T1", "wisconsin", seed=3)
    table.shoe.arrange(cards("2c 9c 8d 7h 6s 5d"))
    table.shoe.turn_face_up(2)
    rnd = table.play_round(BETS)
    assert isinstance(rnd, Round)
    assert rnd.irregularities == (Irregularity(Irregular.FACE_UP_CARD, card=Card.parse("8d")),)
    table.shoe.turn_face_up(1)
    void = table.play_round(BETS)
    assert isinstance(void, VoidRound) and kinds(void) == [Irregular.FACE_UP_CARDS]
    assert void.cause == "face_up_cards"
    assert [i.to_json()["kind"] for i in void.irregularities] == ["face_up_cards"]


def test_a_misdelivered_card_burned_is_itself_burned_while_a_forgotten_burn_waits():
    # the forgotten burn is the dealer's next owed burn, not the misdelivered card's burning
    table = Table("T1", "massachusetts", seed=3)
    deal(table, "2c 9c 8d", None, [Bet(1, 1000), Bet(3, 1000)])  # the shoe's burn is made
    quiet = deal(table, "9h 2d", Mishap(Irregular.FORGOTTEN_BURN), [Bet(1, 1000)])
    assert isinstance(quiet, Round) and kinds(quiet) == []  # no burn yet to forget
    mishap = Mishap(Irregular.MISDELIVERED, spot=3, handling=Handling.BURN)
    rnd = deal(table, "4c 5c 6c 7c Kd", mishap)
    assert isinstance(rnd, Round)
    four = [(HAND, 1, "4c"), (BURN, None, "5c"), (HAND, 3, "6c"), (HAND, 5, "7c")]
    assert dealt(rnd)[:4] == four
    assert rnd.irregularities[0].card == Card.parse("5c") and kinds(rnd) == [Irregular.MISDELIVERED]
    # the forgotten burn is still to come: the next war's burns are one short
    war = deal(table, "8d 8h 3c 4d 5d 6d 7d", None, [Bet(1, 1000)])
    assert isinstance(war, Round) and kinds(war) == [Irregular.FORGOTTEN_BURN]
    assert [d.role for d in war.draws].count(BURN) == 2
