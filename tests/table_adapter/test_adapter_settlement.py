"""Base-game settlement of each profile against its seed, in exact cents."""

from __future__ import annotations

from dataclasses import replace

import pytest

from jackpot.domain.cards import Card
from table_adapter.errors import BetError
from table_adapter.game.bets import Bet, check_bets
from table_adapter.game.profiles import (
    MASSACHUSETTS,
    PROFILES,
    SOUTH_DAKOTA,
    STADIUM,
    STADIUM_02,
    WISCONSIN,
    Odds,
    Profile,
)
from table_adapter.game.settlement import Settlement, settle, surrender_loss
from table_adapter.game.strategies import Decision

WAR, SURRENDER = Decision.WAR, Decision.SURRENDER
K, Q, SEVEN, SEVEN_B, TWO = (Card.parse(c) for c in ("Ks", "Qh", "7d", "7c", "2s"))


def war_settlement(
    profile: Profile, result: str, wager: int = 1000, war_tie: int = 0
) -> Settlement:
    """Settle a tie on 7s that went to war and whose war deal won, tied or lost."""
    war_card, dealer_war = {"win": (K, Q), "tie": (Q, Card.parse("Qd")), "lose": (TWO, K)}[result]
    bet = Bet(1, wager, war_tie=war_tie)
    return settle(profile, bet, SEVEN, SEVEN_B, war_card, dealer_war, WAR)


def test_wisconsin_pays_a_winning_initial_wager_even_money_and_collects_the_tie_wager():
    # Wisconsin §37(h)(1)(ii), §37(i)(1)(i)
    s = settle(WISCONSIN, Bet(1, 1000, tie=200), K, Q)
    assert (s.initial, s.tie, s.net) == (1000, -200, 800)


def test_wisconsin_collects_a_losing_initial_and_tie_wager():
    # Wisconsin §37(h)(1)(i)
    s = settle(WISCONSIN, Bet(1, 1000, tie=200), Q, K)
    assert (s.initial, s.tie) == (-1000, -200)


def test_wisconsin_pays_the_tie_wager_ten_to_one_and_a_surrender_loses_half():
    # Wisconsin §37(h)(1)(iii), §37(h)(3)(i), §37(i)(1)(ii)
    s = settle(WISCONSIN, Bet(1, 1000, tie=200), SEVEN, SEVEN_B, decision=SURRENDER)
    assert s == Settlement(initial=-500, tie=2000)


def test_wisconsin_war_collects_the_initial_wager_and_pays_the_war_wager_two_to_one():
    # Wisconsin §37(h)(3)(ii), §37(h)(5), §37(h)(7)(ii), §37(i)(1)(iii)
    s = war_settlement(WISCONSIN, "win")
    assert (s.initial, s.war, s.net) == (-1000, 2000, 1000)


def test_wisconsin_war_tie_pays_the_war_wager_three_to_one_and_the_war_tie_wager():
    # Wisconsin §37(h)(5) tie wager on the war deal, §37(h)(7)(iii), §37(i)(1)(ii)-(iii)
    s = war_settlement(WISCONSIN, "tie", war_tie=100)
    assert (s.initial, s.war, s.war_tie, s.net) == (-1000, 3000, 1000, 3000)


def test_wisconsin_lost_war_collects_initial_war_and_war_tie_wagers():
    # Wisconsin §37(h)(7)(i)
    s = war_settlement(WISCONSIN, "lose", war_tie=100)
    assert (s.initial, s.war, s.war_tie) == (-1000, -1000, -100)


def test_massachusetts_pays_initial_and_tie_wagers_as_wisconsin_on_the_original_deal():
    # 205 CMR §8(a)(1)-(3), §9(a)(1)-(2)
    assert settle(MASSACHUSETTS, Bet(1, 500, tie=100), K, Q) == Settlement(initial=500, tie=-100)
    assert settle(MASSACHUSETTS, Bet(1, 500, tie=100), Q, K) == Settlement(initial=-500, tie=-100)
    tied = settle(MASSACHUSETTS, Bet(1, 500, tie=100), SEVEN, SEVEN_B, decision=SURRENDER)
    assert tied == Settlement(initial=-250, tie=1000)


def test_massachusetts_war_pushes_the_initial_wager_and_pays_the_war_wager_even_money():
    # 205 CMR §8(g)(2), §9(a)(1), §9(a)(3)
    s = war_settlement(MASSACHUSETTS, "win")
    assert (s.initial, s.war, s.net) == (0, 1000, 1000)


def test_massachusetts_war_tie_pays_two_to_one_and_the_war_tie_wager_ten_to_one():
    # 205 CMR §8(e), §8(g)(3), §9(a)(2)-(3)
    s = war_settlement(MASSACHUSETTS, "tie", war_tie=100)
    assert (s.initial, s.war, s.war_tie) == (0, 2000, 1000)


def test_massachusetts_lost_war_collects_initial_war_and_tie_wagers():
    # 205 CMR §8(g)(1)
    s = war_settlement(MASSACHUSETTS, "lose", war_tie=100)
    assert (s.initial, s.war, s.war_tie) == (-1000, -1000, -100)


def test_south_dakota_pays_beat_dealer_one_to_one_and_the_tie_wager_ten_to_one():
    # S.D. 20:18:16:15.17(4)(c), (5) "Beat dealer 1 to 1"
    assert settle(SOUTH_DAKOTA, Bet(1, 1000), K, Q) == Settlement(initial=1000)
    s = settle(SOUTH_DAKOTA, Bet(1, 1000, tie=100), SEVEN, SEVEN_B, decision=SURRENDER)
    assert s == Settlement(initial=-500, tie=1000)


def test_south_dakota_win_after_war_pays_one_to_two_on_the_original_and_match_wagers():
    # S.D. 20:18:16:15.17(4)(d)(i): the player wins the three wagers (W, match W, dealer's
    # match W) = +W net; (5) "Win after going to war 1 to 2" on the 2W in action.
    s = war_settlement(SOUTH_DAKOTA, "win")
    assert s.net == 1000 == Odds(1, 2).pay(2 * 1000)


def test_south_dakota_tie_after_war_pays_one_to_one_on_the_original_and_match_wagers():
    # S.D. 20:18:16:15.17(4)(d)(ii): the three wagers plus an additional one = +2W net;
    # (5) "Tie after going to war 1 to 1".
    assert war_settlement(SOUTH_DAKOTA, "tie").net == 2000


def test_south_dakota_lost_war_loses_the_original_and_match_wagers():
    # S.D. 20:18:16:15.17(4)(d)(iii)
    s = war_settlement(SOUTH_DAKOTA, "lose")
    assert (s.initial, s.war) == (-1000, -1000)


def test_south_dakota_takes_no_tie_wager_on_the_war_deal():
    # S.D. 20:18:16:15.17(2), (4)(c): the tie wager is made with the initial bet only
    with pytest.raises(BetError, match="war_tie"):
        check_bets(SOUTH_DAKOTA, 7, [Bet(1, 1000, war_tie=100)])


def test_stadium_paytable_01_pays_the_tie_bet_eleven_to_one_and_02_ten_to_one():
    # Stadium Casino War paytables 01 and 02, "Tie bet 11 to 1 / 10 to 1"
    bet = Bet(1, 1000, tie=100, player="p1")
    assert settle(STADIUM, bet, SEVEN, SEVEN_B, decision=SURRENDER).tie == 1100
    assert settle(STADIUM_02, bet, SEVEN, SEVEN_B, decision=SURRENDER).tie == 1000


def test_stadium_war_pushes_the_ante_and_pays_war_one_to_one_or_two_to_one_on_a_war_tie():
    # Stadium rule 8 and the screen: ante stand-off, war 1:1, war 2:1 with a war tie
    win, tie = war_settlement(STADIUM, "win"), war_settlement(STADIUM, "tie")
    assert (win.initial, win.war, tie.initial, tie.war) == (0, 1000, 0, 2000)
    # Paytables "Win after going to war 1 to 2", "Tie after going to war 1 to 1" on ante+war.
    assert (win.net, tie.net) == (Odds(1, 2).pay(2000), Odds(1, 1).pay(2000))


def test_stadium_surrender_returns_half_the_ante():
    # Stadium rule 6: half of the ante wager is returned on a surrendered hand
    s = settle(STADIUM, Bet(1, 1000, player="p1"), SEVEN, SEVEN_B, decision=SURRENDER)
    assert s.net == -500


def test_stadium_wager_on_the_dealer_wins_when_the_dealer_outranks_the_hand():
    # Stadium rule 3 (dealer bet, configurable), paytable "Beat dealer 1 to 1" mirrored
    bet = Bet(1, 1000, player="p1", dealer_ante=500, dealer_tie=100)
    s = settle(STADIUM, bet, Q, K)
    assert (s.initial, s.dealer_initial, s.dealer_tie) == (-1000, 500, -100)
    s = settle(STADIUM, bet, K, Q)
    assert (s.initial, s.dealer_initial) == (1000, -500)


def test_stadium_dealer_war_wager_wins_when_the_dealer_war_card_outranks():
    # Stadium rule 7: a dealer war wager equal to the dealer ante; rule 8 mirrored
    bet = Bet(1, 1000, player="p1", dealer_ante=500, dealer_tie=100)
    s = settle(STADIUM, bet, SEVEN, SEVEN_B, TWO, K, SURRENDER, WAR)
    assert s == Settlement(initial=-500, tie=0, dealer_tie=1100, dealer_initial=0, dealer_war=500)


def test_stadium_keeps_a_pushed_ante_on_the_felt_when_configured():
    # Stadium rule 8(a): "The Standoff (push) bets will remain on the felt for the next game"
    kept = replace(STADIUM, keep_standoff=True)
    assert war_settlement(kept, "win").standoff == 1000
    assert war_settlement(STADIUM, "win").standoff == 0
    assert war_settlement(kept, "lose").standoff == 0


@pytest.mark.parametrize("profile", list(PROFILES.values()), ids=list(PROFILES))
def test_every_profile_has_the_same_net_result_at_war(profile):
    # docs/RULES.md §2: war tie 3:1 resp. 2:1 — "the same net result" in every jurisdiction
    assert [war_settlement(profile, r).net for r in ("win", "tie", "lose")] == [1000, 2000, -2000]


@pytest.mark.parametrize("profile", list(PROFILES.values()), ids=list(PROFILES))
def test_an_odd_cent_surrender_rounds_in_the_players_favour(profile):
    # Wisconsin §37(h)(3)(i) / 205 CMR §8(c)(1): the house collects one-half, never more
    bet = Bet(1, 1001, player="p1")
    assert settle(profile, bet, SEVEN, SEVEN_B, decision=SURRENDER).initial == -500
    assert surrender_loss(1001) == 500 and surrender_loss(1000) == 500


def test_a_surrender_leaves_no_war_wagers_even_when_the_hand_has_war_cards():
    # Wisconsin §37(h)(3)(i): the surrendering player's participation ends
    s = settle(MASSACHUSETTS, Bet(1, 1000, war_tie=100), SEVEN, SEVEN_B, K, Q, SURRENDER)
    assert s == Settlement(initial=-500)
