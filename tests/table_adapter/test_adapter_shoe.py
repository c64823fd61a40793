"""The shoe: conservation, burns, cut, marker, reshuffle, face-up cards and shuffler batches."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import MutableSequence
from typing import Any

import pytest

from jackpot.domain.cards import FULL_DECK, Card
from table_adapter.game.bets import Bet
from table_adapter.game.engine import Table
from table_adapter.game.profiles import MASSACHUSETTS_CUT, STRICT_CUT, WISCONSIN_CUT
from table_adapter.game.records import Role, Round, VoidRound
from table_adapter.game.report import round_report
from table_adapter.game.shoe import Pile, Shoe, Shuffler

SEVEN_SPOTS = [Bet(s, 1000, side=500, player=f"p{s}") for s in range(1, 8)]


class UnshuffledRandom(random.Random):
    """Leaves the stack in deck order and cuts where told: makes the cut visible."""

    def __init__(self, cut_at: int) -> None:
        super().__init__(0)
        self.cut_at = cut_at

    def shuffle(self, x: MutableSequence[Any]) -> None:
        pass

    def randint(self, a: int, b: int) -> int:
        assert a <= self.cut_at <= b
        return self.cut_at


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def rounds(table: Table, n: int, bets=SEVEN_SPOTS) -> list[Round | VoidRound]:
    return [table.play_round(bets) for _ in range(n)]


def test_the_shoe_conserves_every_card_through_many_rounds_and_irregularities():
    # Wisconsin §37(j)(1): face-up cards go to the discard rack, not out of the count
    table = Table("T1", "wisconsin", seed=11, face_up_rate=0.01)
    for _ in range(3000):
        table.play_round(SEVEN_SPOTS)
        shoe = table.shoe
        assert shoe.dealt + shoe.burned + shoe.discarded + shoe.remaining == shoe.size
        assert shoe.conserved()
    assert table.shoe.discarded > 0 and table.shoe.number > 20


@pytest.mark.parametrize("decks", [6, 7, 8])
def test_a_shoe_holds_six_seven_or_eight_full_decks(decks):
    # Wisconsin §37(b)(1), 205 CMR §2(a)
    shoe = Shoe(decks, cut=WISCONSIN_CUT, rng=random.Random(1))
    assert shoe.size == 52 * decks == len(shoe.remaining_cards())
    assert sorted(shoe.remaining_cards()) == sorted(FULL_DECK * decks)


def test_a_shoe_of_five_decks_is_refused():
    # Wisconsin §37(b)(1): six, seven or eight decks
    with pytest.raises(ValueError, match="6, 7 or 8"):
        Shoe(5, cut=WISCONSIN_CUT)


def test_the_cards_in_front_of_the_cut_card_go_to_the_back():
    # Wisconsin §37(e)(5), 205 CMR §5(f)
    shoe = Shoe(6, cut=WISCONSIN_CUT, rng=UnshuffledRandom(cut_at=100))
    stack = list(FULL_DECK) * 6
    assert shoe.remaining_cards() == tuple(stack[100:] + stack[:100])


@pytest.mark.parametrize(("rule", "least"), [(WISCONSIN_CUT, 10), (MASSACHUSETTS_CUT, 52)])
def test_the_cut_card_goes_in_at_least_the_rule_s_distance_from_either_end(rule, least):
    # Wisconsin §37(e)(4): at least 10 cards; 205 CMR §5(e): at least a deck
    shoe = Shoe(6, cut=rule, rng=random.Random(5))
    seen = []
    for _ in range(400):
        shoe.shuffle()
        seen.append(shoe.cut_at)
    assert least <= min(seen) and max(seen) <= shoe.size - least
    assert min(seen) < least + 30 and max(seen) > shoe.size - least - 30


@pytest.mark.parametrize(
    ("rule", "decks", "behind"),
    [
        (WISCONSIN_CUT, 6, 78),
        (WISCONSIN_CUT, 7, 91),
        (WISCONSIN_CUT, 8, 104),
        (MASSACHUSETTS_CUT, 6, 78),
        (MASSACHUSETTS_CUT, 8, 78),
        (STRICT_CUT, 6, 78),
        (STRICT_CUT, 8, 104),
    ],
)
def test_the_reshuffle_marker_sits_where_the_rules_put_it(rule, decks, behind):
    # Wisconsin §37(e)(5): at least about a quarter of the stack from the back;
    # 205 CMR §5(f): at least a deck and a half; South Dakota / Stadium: both at once
    shoe = Shoe(decks, cut=rule, rng=random.Random(1))
    assert shoe.marker_from_back == behind
    assert shoe.marker_index == shoe.size - behind


def test_a_marker_shallower_than_the_rule_allows_is_refused():
    # 205 CMR §5(f): at least a deck and a half of the way in from the back
    with pytest.raises(ValueError, match="marker"):
        Shoe(6, cut=MASSACHUSETTS_CUT, marker_from_back=77)


def test_the_first_card_of_every_shoe_is_burned():
    # Wisconsin §37(g)(1), 205 CMR §7(a)
    table = Table("T1", "massachusetts", seed=3)
    first_rounds = []
    shoe_number = 0
    for _ in range(400):
        rnd = table.play_round(SEVEN_SPOTS)
        assert isinstance(rnd, Round)
        if table.shoe.number != shoe_number:
            shoe_number = table.shoe.number
            first_rounds.append(rnd)
            assert rnd.draws[0].role is Role.BURN and rnd.draws[1].role is Role.HAND
        else:
            assert rnd.draws[0].role is Role.HAND
    assert len(first_rounds) >= 3


def test_each_new_dealer_burns_one_card_before_dealing():
    # Wisconsin §37(g)(1), 205 CMR §7(a): "Each new dealer ... shall also discard one burn card"
    table = Table("T1", "wisconsin", seed=4)
    table.play_round(SEVEN_SPOTS)
    table.new_dealer()
    rnd = table.play_round(SEVEN_SPOTS)
    assert isinstance(rnd, Round)
    assert [d.role for d in rnd.draws[:2]] == [Role.BURN, Role.HAND]
    after = table.play_round(SEVEN_SPOTS)
    assert isinstance(after, Round) and after.draws[0].role is Role.HAND


def test_the_marker_round_is_completed_and_then_the_cards_are_reshuffled():
    # Wisconsin §37(g)(4), 205 CMR §7(d)
    table = Table("T1", "massachusetts", seed=21)
    crossed = 0
    for _ in range(600):
        shoe = table.shoe
        shoe_before, start = shoe.number, shoe.position
        if shoe.needs_shuffle:
            rnd = table.play_round(SEVEN_SPOTS)
            assert table.shoe.number == shoe_before + 1
            assert isinstance(rnd, Round) and rnd.draws[0].role is Role.BURN
            continue
        assert start < shoe.marker_index
        rnd = table.play_round(SEVEN_SPOTS)
        assert table.shoe.number == shoe_before
        if shoe.position >= shoe.marker_index:
            crossed += 1  # this round reached the marker and was still completed
            assert isinstance(rnd, Round) and len(rnd.hands) == 7
    assert crossed >= 5


def test_a_card_found_face_up_in_the_shoe_is_discarded_and_not_used():
    # Wisconsin §37(j)(1), 205 CMR §10(b)
    table = Table("T1", "wisconsin", seed=1)
    table.shoe.arrange(cards("2c 3c 4c 5c"))  # burn, face-up, spot 1, dealer
    table.shoe.turn_face_up(1)
    rnd = table.play_round([Bet(1, 1000)])
    assert isinstance(rnd, Round)
    assert [(d.role, str(d.card)) for d in rnd.draws] == [
        (Role.BURN, "2c"),
        (Role.FACE_UP, "3c"),
        (Role.HAND, "4c"),
        (Role.DEALER, "5c"),
    ]
    assert table.shoe.count(Pile.DISCARDED) == 1 and not table.shoe.needs_shuffle


def test_a_second_face_up_card_in_a_round_voids_it_and_forces_a_reshuffle():
    # Wisconsin §37(j)(1), 205 CMR §10(b): all hands void, cards reshuffled
    table = Table("T1", "wisconsin", seed=1)
    table.shoe.turn_face_up(1)
    table.shoe.turn_face_up(3)
    void = table.play_round(SEVEN_SPOTS)
    assert isinstance(void, VoidRound)
    assert [d.role for d in void.draws].count(Role.FACE_UP) == 2
    assert table.shoe.needs_shuffle and table.shoe.conserved()
    assert not hasattr(void, "report")
    nxt = table.play_round(SEVEN_SPOTS)
    assert isinstance(nxt, Round) and table.shoe.number == 2
    assert nxt.draws[0].role is Role.BURN


def test_a_second_face_up_card_in_a_later_round_of_the_same_shoe_voids_that_round():
    # Wisconsin §37(j)(1), 205 CMR §10(b): "more than one card ... found face up in the shoe
    # while the cards are being dealt": the shoe's cards, whichever round finds the second
    table = Table("T1", "wisconsin", seed=1)
    table.shoe.turn_face_up(2)
    assert isinstance(table.play_round([Bet(1, 1000)]), Round)
    table.shoe.turn_face_up(0)
    void = table.play_round([Bet(1, 1000)])
    assert isinstance(void, VoidRound) and table.shoe.needs_shuffle
    assert table.shoe.count(Pile.DISCARDED) == 2


def test_face_up_cards_in_different_shoes_do_not_void():
    table = Table("T1", "wisconsin", seed=1)
    table.shoe.turn_face_up(2)
    assert isinstance(table.play_round([Bet(1, 1000)]), Round)
    table.shoe.burn(table.shoe.marker_index - table.shoe.position)  # the marker comes out
    assert table.shoe.needs_shuffle
    table.play_round([Bet(1, 1000)])  # the next shoe
    table.shoe.turn_face_up(0)
    assert isinstance(table.play_round([Bet(1, 1000)]), Round)
    assert table.shoe.number == 2 and table.shoe.count(Pile.DISCARDED) == 1


def test_shuffler_batches_alternate_and_one_shoe_is_one_batch():
    # Wisconsin §37(b)(4)(ii)-(v), 205 CMR §2(d)(2)-(5); docs/RULES.md §1
    shoe = Shoe(6, cut=WISCONSIN_CUT, rng=random.Random(8), shuffler=Shuffler.BATCH)
    backs = [shoe.back]
    for _ in range(5):
        while not shoe.marker_reached:
            shoe.draw(Role.HAND)
        assert shoe.conserved()
        shoe.shuffle()
        backs.append(shoe.back)
        assert shoe.size == 312 and len(shoe.remaining_cards()) == 312
    assert backs == ["red", "blue"] * 3


def test_a_shuffler_table_reports_rounds_from_alternating_batches():
    # Wisconsin §37(b)(4)(v): each batch used for every other dealing shoe
    table = Table("T1", "wisconsin", seed=2, shuffler=Shuffler.BATCH)
    backs = {}
    for _ in range(300):
        table.play_round(SEVEN_SPOTS)
        backs[table.shoe.number] = table.shoe.back
    assert len(backs) >= 4
    assert all(backs[n] == ("red" if n % 2 else "blue") for n in backs)


def test_seeded_runs_are_reproducible_and_seeds_differ():
    def run(seed: int) -> list[object]:
        table = Table("T1", "wisconsin", seed=seed, face_up_rate=0.005)
        return [round_report(r) if isinstance(r, Round) else r.round_id for r in rounds(table, 300)]

    assert run(99) == run(99)
    assert run(99) != run(100)


def test_unseeded_tables_use_the_system_rng_and_distinct_round_ids():
    a, b = Table("T1"), Table("T1")
    assert isinstance(a.rng, random.SystemRandom)
    ra, rb = a.play_round(SEVEN_SPOTS), b.play_round(SEVEN_SPOTS)
    assert ra.round_id != rb.round_id


def test_a_continuous_shuffler_deals_every_round_from_all_the_cards_uncut():
    # a continuous shuffling machine: each round's cards go back in among the ones it holds;
    # no cut card, no marker, never a new shoe, one burn at the start and one per new dealer
    table = Table("T1", "wisconsin", seed=9, shuffler=Shuffler.CONTINUOUS)
    shoe = table.shoe
    played = rounds(table, 2_000)
    assert all(isinstance(r, Round) for r in played) and shoe.number == 1
    assert shoe.conserved() and shoe.cut_at == 0 and not shoe.needs_shuffle
    assert played[0].cut is None
    burns = [sum(d.role is Role.BURN for d in r.draws) - war_burns(r) for r in played]
    assert burns[0] == 1 and not any(burns[1:])
    table.new_dealer()
    nxt = table.play_round(SEVEN_SPOTS)
    assert isinstance(nxt, Round) and nxt.draws[0].role is Role.BURN
    # the cards of a round are spread through the machine's stack, not put back at its end
    last = Counter(d.card for d in nxt.draws)
    stack = table.shoe.remaining_cards()
    where = [i for i, c in enumerate(stack) if last[c]]
    assert len(stack) == shoe.size and min(where) < shoe.size // 3 and max(where) > shoe.size // 2


def war_burns(rnd: Round) -> int:
    """The burns a round's wars took (the profile's burns before each war deal)."""
    at_war = any(d.role in (Role.HAND_WAR, Role.COMMUNITY_WAR) for d in rnd.draws)
    return rnd.profile.war_burns if at_war else 0


def test_a_continuous_shuffler_counts_face_up_cards_per_round():
    # no shoe to deal out: only two face-up cards in one round void it
    table = Table("T1", "wisconsin", seed=4, shuffler=Shuffler.CONTINUOUS, face_up_rate=0.05)
    played = rounds(table, 1_500)
    faced = [sum(d.role is Role.FACE_UP for d in r.draws) for r in played]
    voids = [f for r, f in zip(played, faced, strict=True) if isinstance(r, VoidRound)]
    dealt = [f for r, f in zip(played, faced, strict=True) if isinstance(r, Round)]
    assert voids and all(f == 2 for f in voids) and max(dealt) == 1
    # set up between rounds, a face-up card stands: the machine took the cards back already
    table.shoe.turn_face_up(0)
    table.shoe.turn_face_up(1)
    assert isinstance(table.play_round(SEVEN_SPOTS), VoidRound)
