"""Cards as docs/RULES.md §1 writes them: rank + suit, case-insensitive, `10` for `T`."""

from __future__ import annotations

import pytest

from jackpot.domain.cards import FULL_DECK, Card, CardError, Rank, overdrawn


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("As", "As"),
        ("as", "As"),
        ("AS", "As"),
        ("aS", "As"),
        ("Td", "Td"),
        ("td", "Td"),
        ("TD", "Td"),
        ("10d", "Td"),
        ("10D", "Td"),
        ("7h", "7h"),
        ("7H", "7h"),
        ("2c", "2c"),
        ("Jc", "Jc"),
        ("qh", "Qh"),
        ("kS", "Ks"),
    ],
)
def test_a_card_parses_case_insensitively_and_prints_canonically(text, canonical):
    assert str(Card.parse(text)) == canonical


@pytest.mark.parametrize("rank", list("23456789TJQKA"))
@pytest.mark.parametrize("suit", list("cdhs"))
def test_every_one_of_the_52_cards_round_trips_through_its_canonical_text(rank, suit):
    card = Card.parse(rank + suit)
    assert str(card) == rank + suit
    assert Card.parse(str(card)) == card
    assert Card.parse((rank + suit).lower()) == card
    assert Card.parse((rank + suit).upper()) == card


def test_ten_is_accepted_for_t_and_means_the_same_card():
    assert Card.parse("10h") == Card.parse("Th") == Card(Rank.TEN, "h")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "A",
        "s",
        "10",
        "Ass",
        "1s",
        "11s",
        "0s",
        "100s",
        "Xs",
        "Bs",
        "1Os",
        "Ax",
        "Ae",
        "A1",
        "AA",
        "sA",
        "dT",
        "T10",
        "10 s",
        "A s",
        "♠A",
        "A♠",
    ],
)
def test_anything_but_rank_plus_suit_is_refused(text):
    with pytest.raises(CardError, match="unknown card"):
        Card.parse(text)


@pytest.mark.parametrize("raw", [None, 14, 1.0, b"As", ["A", "s"], {"rank": "A"}, True])
def test_a_card_that_is_not_a_string_is_refused(raw):
    with pytest.raises(CardError):
        Card.parse(raw)


def test_a_card_error_is_a_value_error():
    assert issubclass(CardError, ValueError)


def test_ranks_order_for_winning_from_ace_down_to_two():
    order = [Card.parse(r + "s").rank for r in "AKQJT98765432"]
    assert order == sorted(order, reverse=True)
    assert Rank.ACE > Rank.KING > Rank.QUEEN > Rank.JACK > Rank.TEN > Rank.NINE > Rank.TWO


@pytest.mark.parametrize(("rank", "char"), [(Rank.TWO, "2"), (Rank.TEN, "T"), (Rank.ACE, "A")])
def test_a_rank_knows_its_character(rank, char):
    assert rank.char == char


@pytest.mark.parametrize(("a", "b"), [("As", "Ad"), ("Th", "10c"), ("2c", "2c")])
def test_suits_never_rank_cards_of_one_rank_are_the_same_rank(a, b):
    assert Card.parse(a).same_rank(Card.parse(b))


@pytest.mark.parametrize(("a", "b"), [("As", "Ks"), ("2c", "3c"), ("Th", "Jh")])
def test_cards_of_different_rank_are_not_the_same_rank(a, b):
    assert not Card.parse(a).same_rank(Card.parse(b))


def test_identical_cards_are_equal_and_hash_alike():
    assert Card.parse("as") == Card.parse("AS")
    assert len({Card.parse("as"), Card.parse("AS"), Card.parse("As")}) == 1
    assert Card.parse("As") != Card.parse("Ad")


def test_a_card_is_immutable():
    card = Card.parse("As")
    with pytest.raises(AttributeError):
        card.suit = "d"  # type: ignore[misc]


def test_the_full_deck_holds_each_of_the_52_cards_once_by_index():
    assert len(FULL_DECK) == 52
    assert len(set(FULL_DECK)) == 52
    assert [card.index for card in FULL_DECK] == list(range(52))
    assert all(Card.from_index(card.index) == card for card in FULL_DECK)


@pytest.mark.parametrize(
    ("text", "index"), [("2c", 0), ("2d", 1), ("2h", 2), ("2s", 3), ("3c", 4), ("As", 51)]
)
def test_the_index_is_rank_major(text, index):
    assert Card.parse(text).index == index
    assert Card.from_index(index) == Card.parse(text)


@pytest.mark.parametrize(
    ("cards", "decks", "expected"),
    [
        (["As"] * 6, 6, []),
        (["As"] * 7, 6, ["As"]),
        (["As"] * 7, 7, []),
        (["As"] * 8, 7, ["As"]),
        (["As"] * 8, 8, []),
        (["As"] * 9, 8, ["As"]),
        (["As", "as", "AS", "As", "As", "As", "As"], 6, ["As"]),
        (["Kd"] * 7 + ["2c"] * 7 + ["Qh"] * 3, 6, ["2c", "Kd"]),
        (["As", "Ad", "Ah", "Ac"] * 6, 6, []),
        ([], 6, []),
    ],
)
def test_overdrawn_names_every_card_seen_more_often_than_the_shoe_holds(cards, decks, expected):
    assert [str(c) for c in overdrawn([Card.parse(c) for c in cards], decks)] == expected
