"""The side bet's outcomes (docs/RULES.md §3): first match wins, identical cards included."""

from __future__ import annotations

import pytest

from jackpot.domain.cards import Card
from jackpot.domain.config import Layout, TableConfig
from jackpot.domain.outcomes import WAR_OUTCOMES, WINNING_OUTCOMES, Outcome, evaluate
from jackpot.domain.report import parse_report
from jackpot.domain.settlement import bet_outcome


def deal(p1: str, d1: str, p2: str | None = None, d2: str | None = None) -> Outcome:
    """Evaluate cards given as text; `p2`/`d2` only for a bet at war."""
    war = [None if c is None else Card.parse(c) for c in (p2, d2)]
    return evaluate(Card.parse(p1), Card.parse(d1), *war)


@pytest.mark.parametrize(
    ("p1", "d1", "p2", "d2", "expected"),
    [
        # all four identical
        ("As", "As", "As", "As", Outcome.SUITED_FOUR_OF_A_KIND),
        ("2c", "2c", "2c", "2c", Outcome.SUITED_FOUR_OF_A_KIND),
        ("Th", "Th", "Th", "Th", Outcome.SUITED_FOUR_OF_A_KIND),
        # two identical pairs: first match wins over four of a kind when the ranks agree
        ("As", "As", "Kh", "Kh", Outcome.SUITED_DOUBLE_TIE),
        ("As", "As", "Ad", "Ad", Outcome.SUITED_DOUBLE_TIE),
        ("7h", "7h", "2c", "2c", Outcome.SUITED_DOUBLE_TIE),
        # one rank, mixed suits
        ("As", "Ah", "Ad", "Ac", Outcome.FOUR_OF_A_KIND),
        ("As", "As", "Ah", "Ad", Outcome.FOUR_OF_A_KIND),
        ("As", "Ah", "Ad", "Ad", Outcome.FOUR_OF_A_KIND),
        ("As", "As", "As", "Ad", Outcome.FOUR_OF_A_KIND),
        ("As", "Ad", "As", "As", Outcome.FOUR_OF_A_KIND),
        ("As", "Ah", "As", "Ah", Outcome.FOUR_OF_A_KIND),
        # equal ranks twice
        ("As", "Ah", "Kd", "Kc", Outcome.DOUBLE_TIE),
        ("As", "As", "Kd", "Kc", Outcome.DOUBLE_TIE),
        ("As", "Ah", "Kd", "Kd", Outcome.DOUBLE_TIE),
        ("9c", "9d", "9c", "9d", Outcome.FOUR_OF_A_KIND),
        ("9c", "9d", "3c", "3d", Outcome.DOUBLE_TIE),
        # identical original cards, no war tie
        ("As", "As", "Kd", "Qc", Outcome.SUITED_TIE),
        ("As", "As", "As", "Kc", Outcome.SUITED_TIE),
        ("As", "As", "Ks", "As", Outcome.SUITED_TIE),
        # equal ranks, no war tie
        ("As", "Ah", "Kd", "Qc", Outcome.TIE),
        ("As", "Ah", "As", "Ks", Outcome.TIE),
        # no tie: the war cards are never looked at
        ("As", "Kd", "Qc", "Qc", Outcome.NONE),
        ("As", "Ks", "As", "As", Outcome.NONE),
        ("2c", "Ac", "2c", "2c", Outcome.NONE),
    ],
)
def test_a_war_deal_evaluates_to_the_first_matching_outcome(p1, d1, p2, d2, expected):
    assert deal(p1, d1, p2, d2) is expected


@pytest.mark.parametrize(
    ("p1", "d1", "expected"),
    [
        ("As", "As", Outcome.SUITED_TIE),
        ("as", "AS", Outcome.SUITED_TIE),
        ("Th", "10h", Outcome.SUITED_TIE),
        ("As", "Ad", Outcome.TIE),
        ("2c", "2h", Outcome.TIE),
        ("As", "Ks", Outcome.NONE),
        ("2c", "3c", Outcome.NONE),
        ("Kd", "Ad", Outcome.NONE),
    ],
)
def test_without_a_war_deal_a_bet_is_a_suited_tie_a_tie_or_nothing(p1, d1, expected):
    assert deal(p1, d1) is expected


@pytest.mark.parametrize(("p2", "d2"), [("As", None), (None, "As")])
def test_half_a_war_deal_is_no_war_deal(p2, d2):
    assert deal("As", "As", p2, d2) is Outcome.SUITED_TIE


def test_outcomes_are_listed_in_spec_order_with_their_wire_names():
    assert [o.value for o in Outcome] == [
        "suited_four_of_a_kind",
        "suited_double_tie",
        "four_of_a_kind",
        "double_tie",
        "suited_tie",
        "tie",
        "none",
    ]
    assert list(WINNING_OUTCOMES) == list(Outcome)[:-1]
    assert Outcome.NONE not in WINNING_OUTCOMES


def test_exactly_the_four_war_outcomes_need_the_war_deal():
    assert WAR_OUTCOMES == {
        Outcome.SUITED_FOUR_OF_A_KIND,
        Outcome.SUITED_DOUBLE_TIE,
        Outcome.FOUR_OF_A_KIND,
        Outcome.DOUBLE_TIE,
    }


@pytest.mark.parametrize(
    ("p1", "d1", "p2", "d2"),
    [
        ("As", "As", "As", "As"),
        ("As", "As", "Kh", "Kh"),
        ("As", "Ah", "Ad", "Ac"),
        ("As", "Ah", "Kd", "Kc"),
        ("As", "As", "Kd", "Qc"),
        ("As", "Ah", "Kd", "Qc"),
    ],
)
def test_surrendering_limits_a_bet_to_tie_or_suited_tie(p1, d1, p2, d2):
    with_war = deal(p1, d1, p2, d2)
    surrendered = deal(p1, d1)
    assert surrendered in {Outcome.TIE, Outcome.SUITED_TIE}
    assert (surrendered is Outcome.SUITED_TIE) == (Card.parse(p1) == Card.parse(d1))
    if with_war not in WAR_OUTCOMES:
        assert with_war is surrendered


STADIUM = TableConfig(pools=("main",), layout=Layout.STADIUM)


@pytest.mark.parametrize(
    ("war", "expected"),
    [(True, Outcome.SUITED_FOUR_OF_A_KIND), (False, Outcome.SUITED_TIE)],
)
def test_a_surrendered_bet_never_sees_the_war_cards_of_its_hand(war, expected):
    # Two players on one stadium hand: only the one who went to war sees the war deal.
    report = parse_report(
        {
            "table": "S1",
            "round": "r1",
            "dealer": {"card": "As", "war_card": "As"},
            "spots": [
                {
                    "spot": 1,
                    "card": "As",
                    "war_card": "As",
                    "bets": [
                        {"player": "p1", "wager": 500, "war": True},
                        {"player": "p2", "wager": 500, "war": war},
                    ],
                }
            ],
        },
        STADIUM,
    )
    (spot,) = report.spots
    assert bet_outcome(spot, spot.bets[0], report) is Outcome.SUITED_FOUR_OF_A_KIND
    assert bet_outcome(spot, spot.bets[1], report) is expected


@pytest.mark.parametrize(
    ("war", "expected"), [(True, Outcome.FOUR_OF_A_KIND), (False, Outcome.TIE)]
)
def test_a_live_spot_sees_the_war_deal_only_when_it_went_to_war(war, expected):
    spot: dict[str, object] = {"spot": 1, "card": "Qh", "wager": 500, "war": war}
    dealer = {"card": "Qs"}
    if war:
        spot["war_card"] = "Qd"
        dealer["war_card"] = "Qc"
    report = parse_report(
        {"table": "T1", "round": "r1", "dealer": dealer, "spots": [spot]},
        TableConfig(pools=("main",)),
    )
    (parsed,) = report.spots
    assert bet_outcome(parsed, parsed.bets[0], report) is expected


def spec_table(p1: Card, d1: Card, p2: Card | None, d2: Card | None) -> Outcome:
    """docs/RULES.md §3's table read row by row, first match wins."""
    rows = []
    if p2 is not None and d2 is not None:
        rows += [
            (Outcome.SUITED_FOUR_OF_A_KIND, p1 == d1 == p2 == d2),
            (Outcome.SUITED_DOUBLE_TIE, p1 == d1 and p2 == d2),
            (Outcome.FOUR_OF_A_KIND, p1.rank == d1.rank == p2.rank == d2.rank),
            (Outcome.DOUBLE_TIE, p1.rank == d1.rank and p2.rank == d2.rank),
        ]
    rows += [(Outcome.SUITED_TIE, p1 == d1), (Outcome.TIE, p1.rank == d1.rank)]
    return next((outcome for outcome, match in rows if match), Outcome.NONE)


SMALL_SHOE = [Card.parse(c) for c in ("As", "Ad", "Ks", "Kd", "2c")]


@pytest.mark.parametrize("p1", SMALL_SHOE, ids=str)
@pytest.mark.parametrize("d1", SMALL_SHOE, ids=str)
def test_evaluation_agrees_with_the_rules_table_on_every_deal_of_a_small_shoe(p1, d1):
    assert evaluate(p1, d1) is spec_table(p1, d1, None, None)
    for p2 in SMALL_SHOE:
        for d2 in SMALL_SHOE:
            assert evaluate(p1, d1, p2, d2) is spec_table(p1, d1, p2, d2), (p1, d1, p2, d2)
