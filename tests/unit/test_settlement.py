"""Settling a round's side bets: fixed pays, envy, meter hits (docs/RULES.md §3, §4)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from jackpot.domain.config import Layout, TableConfig
from jackpot.domain.outcomes import WINNING_OUTCOMES, Outcome
from jackpot.domain.paytable import SEED_PAYTABLE, Envy, PayLine, Paytable
from jackpot.domain.report import parse_report
from jackpot.domain.settlement import EnvyTrigger, MeterHit, Settlement, settle

LIVE = TableConfig(pools=("main",))
STADIUM = TableConfig(pools=("main",), layout=Layout.STADIUM)


def play(table: TableConfig, *spots: dict[str, Any], dealer: str = "Qs", war: str | None = None):
    dealer_json = {"card": dealer} | ({"war_card": war} if war else {})
    raw = {"table": "T1", "round": "r1", "dealer": dealer_json, "spots": list(spots)}
    return settle(parse_report(raw, table), table)


def jackpot4(number: int, wager: int = 500, **fields: Any) -> dict[str, Any]:
    """A live spot making a suited four of a kind against dealer Qs / war Qs."""
    return {"spot": number, "card": "Qs", "wager": wager, "war": True, "war_card": "Qs", **fields}


def loser(number: int, wager: int = 500, **fields: Any) -> dict[str, Any]:
    return {"spot": number, "card": "4d", "wager": wager, **fields}


def hand(number: int, card: str, *bets: dict[str, Any], war_card: str | None = None):
    """A stadium hand with its bets."""
    out: dict[str, Any] = {"spot": number, "card": card, "bets": list(bets)}
    if war_card is not None:
        out["war_card"] = war_card
    return out


def bet(player: str | None, wager: int = 500, war: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {"wager": wager, "war": war}
    if player is not None:
        out["player"] = player
    return out


def envies(result: Settlement) -> list[int]:
    return [b.envy for b in result.bets]


def paytable(**lines: PayLine) -> Paytable:
    """The seed paytable with some lines replaced."""
    chosen = []
    for outcome in WINNING_OUTCOMES:
        seed = SEED_PAYTABLE.line(outcome)
        assert seed is not None
        chosen.append((outcome, lines.get(outcome.value, seed)))
    return Paytable(tuple(chosen))


# --- outcomes and fixed pays


@pytest.mark.parametrize(
    ("spot", "dealer_war", "outcome", "odds"),
    [
        (jackpot4(1), "Qs", Outcome.SUITED_FOUR_OF_A_KIND, 1000),
        (
            {"spot": 1, "card": "Qs", "war": True, "war_card": "7c"},
            "7c",
            Outcome.SUITED_DOUBLE_TIE,
            200,
        ),
        (
            {"spot": 1, "card": "Qh", "war": True, "war_card": "Qd"},
            "Qc",
            Outcome.FOUR_OF_A_KIND,
            150,
        ),
        ({"spot": 1, "card": "Qh", "war": True, "war_card": "7c"}, "7d", Outcome.DOUBLE_TIE, 30),
        ({"spot": 1, "card": "Qs", "war": True, "war_card": "7c"}, "8d", Outcome.SUITED_TIE, 15),
        ({"spot": 1, "card": "Qs"}, None, Outcome.SUITED_TIE, 15),
        ({"spot": 1, "card": "Qh", "war": True, "war_card": "7c"}, "8d", Outcome.TIE, 5),
        ({"spot": 1, "card": "Qh"}, None, Outcome.TIE, 5),
        ({"spot": 1, "card": "4d"}, None, Outcome.NONE, 0),
        ({"spot": 1, "card": "Ks"}, None, Outcome.NONE, 0),
    ],
)
@pytest.mark.parametrize("wager", [100, 500, 2500])
def test_a_winning_bet_is_paid_odds_times_wager_and_never_gets_its_wager_back(
    spot, dealer_war, outcome, odds, wager
):
    result = play(LIVE, {**spot, "wager": wager}, war=dealer_war)
    (paid,) = result.bets
    assert paid.outcome is outcome
    assert paid.wager == wager
    assert paid.pay == odds * wager
    assert result.fixed_paid == odds * wager
    assert result.wagered == wager


def test_a_surrendered_bet_is_paid_its_tie_while_its_neighbour_at_war_makes_the_jackpot():
    result = play(
        STADIUM,
        hand(1, "Qs", bet("p1", war=True), bet("p2"), war_card="Qs"),
        war="Qs",
    )
    assert [(b.outcome, b.pay) for b in result.bets] == [
        (Outcome.SUITED_FOUR_OF_A_KIND, 500_000),
        (Outcome.SUITED_TIE, 7_500),
    ]


def test_spots_without_a_wager_are_not_settled_but_every_wager_is_counted():
    result = play(LIVE, loser(1, 100), {"spot": 2, "card": "9h"}, loser(3, 2500))
    assert [(b.spot, b.wager) for b in result.bets] == [(1, 100), (3, 2500)]
    assert result.wagered == 2600
    assert result.fixed_paid == 0 and result.envy_paid == 0


def test_bets_are_settled_in_spot_order_then_in_the_order_reported():
    result = play(
        STADIUM,
        hand(3, "4d", bet("e"), bet(None, 100)),
        hand(1, "5d", bet("b"), bet("a"), bet("c")),
        hand(2, "6d", bet("d")),
    )
    assert [(b.spot, b.player) for b in result.bets] == [
        (1, "b"),
        (1, "a"),
        (1, "c"),
        (2, "d"),
        (3, "e"),
        (3, None),
    ]


def test_live_spots_reported_out_of_order_settle_in_spot_order():
    result = play(LIVE, loser(5, player="p5"), loser(2, player="p2"), jackpot4(4), war="Qs")
    assert [(b.spot, b.player) for b in result.bets] == [(2, "p2"), (4, None), (5, "p5")]
    assert result.hits == (MeterHit(1, "main", 10_000),)


# --- envy


def test_a_jackpot_pays_envy_to_every_other_qualifying_bet_scaled_by_its_wager():
    result = play(
        LIVE,
        jackpot4(1),
        loser(2, 500),
        loser(3, 100),
        {"spot": 4, "card": "Qh", "wager": 2500},
        {"spot": 5, "card": "9h"},
        war="Qs",
    )
    assert envies(result) == [0, 200 * 500, 200 * 100, 200 * 2500]
    assert result.envies == (EnvyTrigger(1, Outcome.SUITED_FOUR_OF_A_KIND, 3, 200 * 3100),)
    assert result.envy_paid == 200 * 3100
    # envy is a house pay: only the jackpot itself touches the meter
    assert result.hits == (MeterHit(0, "main", 10_000),)


def test_the_seed_envy_is_1000_dollars_on_a_5_dollar_bet():
    result = play(LIVE, jackpot4(1), loser(2, 500), war="Qs")
    assert result.bets[1].envy == 100_000


def test_envy_never_changes_fixed_pays():
    result = play(LIVE, jackpot4(1), {"spot": 2, "card": "Qh", "wager": 500}, war="Qs")
    assert [(b.outcome, b.pay, b.envy) for b in result.bets] == [
        (Outcome.SUITED_FOUR_OF_A_KIND, 500_000, 0),
        (Outcome.TIE, 2_500, 100_000),
    ]


def test_one_player_on_two_live_spots_gets_no_envy_from_their_own_hit():
    result = play(
        LIVE,
        jackpot4(1, player="p1"),
        loser(2, player="p1"),
        loser(3, player="p2"),
        war="Qs",
    )
    assert envies(result) == [0, 0, 100_000]
    assert result.envies[0].receivers == 1


def test_at_a_stadium_table_the_hitters_other_bets_get_no_envy_but_other_players_do():
    result = play(
        STADIUM,
        hand(1, "Qs", bet("a", 500, war=True), bet("b", 200), war_card="Qs"),
        hand(2, "4d", bet("a", 1000), bet("c", 300)),
        war="Qs",
    )
    assert [(b.spot, b.player, b.outcome, b.envy) for b in result.bets] == [
        (1, "a", Outcome.SUITED_FOUR_OF_A_KIND, 0),
        # a different player's bet on the hit hand, surrendered: it gets the envy
        (1, "b", Outcome.SUITED_TIE, 200 * 200),
        # the hitter's own bet on another hand: no envy from yourself
        (2, "a", Outcome.NONE, 0),
        (2, "c", Outcome.NONE, 200 * 300),
    ]
    assert result.envies == (EnvyTrigger(1, Outcome.SUITED_FOUR_OF_A_KIND, 2, 200 * 500),)


def test_two_bets_of_one_player_on_the_hit_hand_get_no_envy_even_if_one_surrendered():
    result = play(
        STADIUM,
        hand(1, "Qs", bet("a", 500, war=True), bet("a", 200), bet("b", 100), war_card="Qs"),
        war="Qs",
    )
    assert envies(result) == [0, 0, 200 * 100]


def test_a_bet_without_player_id_is_its_own_player():
    result = play(LIVE, jackpot4(1), loser(2), loser(3, 100), war="Qs")
    assert envies(result) == [0, 100_000, 20_000]


def test_anonymous_bets_on_the_hit_stadium_hand_each_get_the_envy():
    result = play(
        STADIUM,
        hand(1, "Qs", bet(None, 500, war=True), bet(None, 100), bet(None, 200), war_card="Qs"),
        war="Qs",
    )
    assert envies(result) == [0, 20_000, 40_000]


def test_a_hitting_bet_gets_envy_for_another_spots_hit_but_not_for_its_own():
    # Six identical queens in a six-deck shoe: two suited fours of a kind.
    result = play(LIVE, jackpot4(1, 500), jackpot4(2, 100), loser(3, 200), war="Qs")
    assert [(b.outcome, b.envy) for b in result.bets] == [
        (Outcome.SUITED_FOUR_OF_A_KIND, 200 * 500),
        (Outcome.SUITED_FOUR_OF_A_KIND, 200 * 100),
        # two envy-bearing spots pay every other bet twice
        (Outcome.NONE, 2 * 200 * 200),
    ]
    assert result.envies == (
        EnvyTrigger(1, Outcome.SUITED_FOUR_OF_A_KIND, 2, 200 * 100 + 200 * 200),
        EnvyTrigger(2, Outcome.SUITED_FOUR_OF_A_KIND, 2, 200 * 500 + 200 * 200),
    )


def test_two_hits_of_one_player_on_two_spots_pay_that_player_no_envy():
    result = play(
        LIVE, jackpot4(1, player="p"), jackpot4(2, player="p"), loser(3, player="q"), war="Qs"
    )
    assert envies(result) == [0, 0, 2 * 100_000]


@pytest.mark.parametrize(
    ("envy_min_wager", "expected"),
    [
        (0, [0, 200 * 100, 200 * 499, 200 * 500, 200 * 2500]),
        (100, [0, 200 * 100, 200 * 499, 200 * 500, 200 * 2500]),
        (500, [0, 0, 0, 200 * 500, 200 * 2500]),
        (2500, [0, 0, 0, 0, 200 * 2500]),
        (2501, [0, 0, 0, 0, 0]),
    ],
)
def test_the_envy_minimum_excludes_smaller_bets(envy_min_wager, expected):
    table = TableConfig(pools=("main",), envy_min_wager=envy_min_wager)
    result = play(
        table, jackpot4(1), loser(2, 100), loser(3, 499), loser(4, 500), loser(5, 2500), war="Qs"
    )
    assert envies(result) == expected
    assert result.envies[0].receivers == sum(1 for e in expected if e)


def test_a_small_bet_that_hits_still_triggers_the_envy():
    table = TableConfig(pools=("main",), envy_min_wager=500)
    result = play(table, jackpot4(1, 100), loser(2, 500), war="Qs")
    assert envies(result) == [0, 100_000]


@pytest.mark.parametrize(
    ("envy", "expected"),
    [
        (Envy(multiple=200), [0, 200 * 100, 200 * 500, 200 * 2500]),
        (Envy(multiple=1), [0, 100, 500, 2500]),
        (Envy(amount=50_000), [0, 50_000, 50_000, 50_000]),
        (Envy(amount=1), [0, 1, 1, 1]),
    ],
)
def test_envy_is_a_multiple_of_the_receivers_wager_or_a_fixed_amount(envy, expected):
    table = TableConfig(
        pools=("main",),
        paytable=paytable(suited_four_of_a_kind=PayLine(1000, 10_000, envy=envy)),
    )
    result = play(table, jackpot4(1), loser(2, 100), loser(3, 500), loser(4, 2500), war="Qs")
    assert envies(result) == expected
    assert result.envies[0].total == sum(expected)


def test_a_round_without_an_envy_outcome_pays_no_envy():
    result = play(
        LIVE,
        {"spot": 1, "card": "Qs", "wager": 500},
        {"spot": 2, "card": "Qh", "wager": 500, "war": True, "war_card": "Qd"},
        loser(3),
        war="Qc",
    )
    assert [b.outcome for b in result.bets] == [
        Outcome.SUITED_TIE,
        Outcome.FOUR_OF_A_KIND,
        Outcome.NONE,
    ]
    assert result.envies == ()
    assert result.envy_paid == 0


def test_no_envy_from_the_dealer_a_round_without_hits_pays_none():
    # The dealer's card matches an unwagered spot's: the dealer has no side bet to hit.
    result = play(LIVE, loser(1), loser(2), {"spot": 3, "card": "Qs"}, dealer="Qs")
    assert result.envies == () and envies(result) == [0, 0]


def test_a_jackpot_on_a_spot_without_a_side_wager_triggers_no_envy():
    result = play(
        LIVE,
        {"spot": 1, "card": "Qs", "war": True, "war_card": "Qs"},
        loser(2),
        war="Qs",
    )
    assert result.envies == () and envies(result) == [0]


def test_any_outcome_carrying_an_envy_pay_triggers_it():
    table = TableConfig(pools=("main",), paytable=paytable(tie=PayLine(5, envy=Envy(amount=100))))
    result = play(table, {"spot": 1, "card": "Qh", "wager": 500}, loser(2), loser(3, 100))
    assert envies(result) == [0, 100, 100]
    assert result.envies == (EnvyTrigger(1, Outcome.TIE, 2, 200),)


def test_a_hand_whose_bets_hit_two_envy_outcomes_triggers_one_envy_the_best():
    table = TableConfig(
        pools=("main",),
        paytable=paytable(suited_tie=PayLine(15, envy=Envy(amount=7))),
    )
    result = play(
        replace(table, layout=Layout.STADIUM),
        hand(1, "Qs", bet("a", war=True), bet("b"), war_card="Qs"),
        hand(2, "4d", bet("c", 100)),
        war="Qs",
    )
    assert [(b.outcome, b.envy) for b in result.bets] == [
        (Outcome.SUITED_FOUR_OF_A_KIND, 0),
        (Outcome.SUITED_TIE, 0),
        (Outcome.NONE, 200 * 100),
    ]
    assert result.envies == (EnvyTrigger(1, Outcome.SUITED_FOUR_OF_A_KIND, 1, 20_000),)


# --- meter hits


def test_a_hit_lists_the_tables_first_pool_and_the_basis_points_by_default():
    table = TableConfig(pools=("main", "side"))
    result = play(table, loser(1), jackpot4(2), war="Qs")
    assert result.hits == (MeterHit(1, "main", 10_000),)
    assert result.bets[1].pay == 500_000


def test_a_custom_paytable_can_pay_a_percentage_of_another_fed_pool():
    table = TableConfig(
        pools=("main", "side"),
        paytable=paytable(
            suited_four_of_a_kind=PayLine(1000, 10_000, envy=Envy(multiple=200)),
            four_of_a_kind=PayLine(150, 2_500, pool="side"),
            suited_tie=PayLine(15, 100, pool="main"),
        ),
    )
    result = play(
        table,
        {"spot": 1, "card": "Qh", "wager": 500, "war": True, "war_card": "Qd"},
        {"spot": 2, "card": "Qs", "wager": 100},
        loser(3),
        war="Qc",
    )
    # the $1 bet is below the line's $5 qualifying wager: a fifth of the share
    assert result.hits == (MeterHit(0, "side", 2_500), MeterHit(1, "main", 100, (100, 500)))


def test_a_bet_below_the_qualifying_wager_wins_its_part_of_the_meter_or_nothing():
    for rule, hits in (("proportional", (MeterHit(0, "main", 10_000, (100, 500)),)),
                       ("nothing", ())):  # fmt: skip
        table = TableConfig(
            pools=("main",),
            paytable=paytable(
                suited_four_of_a_kind=PayLine(1000, 10_000, below_qualifying=rule),
            ),
        )
        result = play(
            table,
            {"spot": 1, "card": "As", "wager": 100, "war": True, "war_card": "As"},
            war="As",
            dealer="As",
        )
        assert result.hits == hits, rule
        assert result.bets[0].pay == 100_000, "the fixed pay scales with the wager as ever"


def test_every_jackpot_in_a_round_is_a_hit_in_settlement_order():
    result = play(
        STADIUM,
        hand(2, "Qs", bet("c", war=True), war_card="Qs"),
        hand(1, "Qs", bet("a"), bet("b", war=True), war_card="Qs"),
        war="Qs",
    )
    assert [b.outcome for b in result.bets] == [
        Outcome.SUITED_TIE,
        Outcome.SUITED_FOUR_OF_A_KIND,
        Outcome.SUITED_FOUR_OF_A_KIND,
    ]
    assert result.hits == (MeterHit(1, "main", 10_000), MeterHit(2, "main", 10_000))


def test_a_round_without_a_percentage_outcome_has_no_hits():
    result = play(LIVE, {"spot": 1, "card": "Qs", "wager": 500}, loser(2))
    assert result.hits == ()
