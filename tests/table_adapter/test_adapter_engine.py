"""The engine: deal order per layout, decisions and timer, settlement order, standoffs."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from jackpot.domain.cards import Card
from jackpot.domain.outcomes import Outcome
from table_adapter.errors import BetError
from table_adapter.game.bets import Bet
from table_adapter.game.engine import Table
from table_adapter.game.profiles import STADIUM
from table_adapter.game.records import Role, Round, VoidRound
from table_adapter.game.report import round_report
from table_adapter.game.strategies import (
    MIX,
    SURRENDER,
    WAR,
    Answer,
    Decision,
    Silent,
    Slow,
    get_strategy,
)

BURN, HAND, DEALER = Role.BURN, Role.HAND, Role.DEALER
HAND_WAR, COMMUNITY, DEALER_WAR = Role.HAND_WAR, Role.COMMUNITY_WAR, Role.DEALER_WAR


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def play(table: Table, deck: str, bets) -> Round:
    table.shoe.arrange(cards(deck))
    rnd = table.play_round(bets)
    assert isinstance(rnd, Round)
    return rnd


def roles(rnd: Round) -> list[tuple[Role, int | None]]:
    return [(d.role, d.spot) for d in rnd.draws]


def test_a_standard_war_burns_three_then_deals_each_spot_in_order_then_the_dealer():
    # Wisconsin §37(g)(3), §37(h)(6); 205 CMR §7(c), §8(f); docs/RULES.md §2 layout `standard`
    table = Table("T1", "wisconsin", seed=1)
    bets = [Bet(5, 1000), Bet(2, 1000)]
    rnd = play(table, "2c 7c 7d 7h 2d 2h 2s Kc 3c 9c", bets)
    assert roles(rnd) == [
        (BURN, None),
        (HAND, 2),
        (HAND, 5),
        (DEALER, None),
        (BURN, None),
        (BURN, None),
        (BURN, None),
        (HAND_WAR, 2),
        (HAND_WAR, 5),
        (DEALER_WAR, None),
    ]
    assert [str(h.war_card) for h in rnd.hands] == ["Kc", "3c"]
    assert [r.settlement.net for r in rnd.results] == [1000, -2000]


def test_south_dakota_burns_three_before_each_war_card():
    # S.D. 20:18:16:15.17(4)(d): three burns, the player's card, three burns, the dealer's
    table = Table("T1", "south_dakota", seed=1)
    rnd = play(table, "2c 7c 7h 2d 2h 2s Kc 3d 3h 3s 9c", [Bet(1, 1000)])
    assert [r for r, _ in roles(rnd)] == [
        BURN, HAND, DEALER, BURN, BURN, BURN, HAND_WAR, BURN, BURN, BURN, DEALER_WAR,
    ]  # fmt: skip
    assert rnd.results[0].settlement.net == 1000


def test_south_dakota_burns_three_before_every_spot_s_war_card():
    # S.D. 20:18:16:15.17(4)(d), read for several spots at war (docs/RULES.md §2 `south_dakota`)
    table = Table("T1", "south_dakota", seed=1)
    deck = "2c 7c 7d 7h 2d 2h 2s Kc 3d 3h 3s Qc 4d 4h 4s 9c"
    rnd = play(table, deck, [Bet(1, 1000), Bet(2, 1000)])
    assert [r for r, _ in roles(rnd)].count(BURN) == 1 + 9
    assert rnd.dealer_war_card == Card.parse("9c")


def test_stadium_deals_seven_hands_and_one_community_war_card():
    # Stadium rules 4 and 8: 7 hands; 3 burns, a community card, 3 burns, the dealer's
    table = Table("S1", "stadium", seed=1)
    deck = "2c 7c 4c 7d 5c 6c 8c Tc 7h 2d 2h 2s Kc 3d 3h 3s 9c"
    bets = [Bet(1, 1000, player="a"), Bet(3, 1000, player="a"), Bet(2, 500, player="b")]
    rnd = play(table, deck, bets)
    assert [r for r, _ in roles(rnd)] == [BURN] + [HAND] * 7 + [DEALER] + [BURN] * 3 + [
        COMMUNITY
    ] + [BURN] * 3 + [DEALER_WAR]
    assert len(rnd.hands) == 7
    assert rnd.hand(1).war_card == rnd.hand(3).war_card == Card.parse("Kc")
    assert rnd.hand(2).war_card is None


def test_stadium_deals_all_seven_hands_even_without_bets():
    # Stadium rule 4: one card to each of the 7 locations on the felt
    rnd = Table("S1", "stadium", seed=1).play_round([])
    assert isinstance(rnd, Round) and [h.spot for h in rnd.hands] == list(range(1, 8))


def test_massachusetts_settles_from_the_dealer_s_right_and_wisconsin_from_the_left():
    # 205 CMR §8(a): dealer's right, counter-clockwise; Wisconsin §37(h)(1): dealer's left
    bets = [Bet(s, 1000) for s in (3, 1, 6)]
    ma = Table("T1", "massachusetts", seed=2).play_round(bets)
    wi = Table("T1", "wisconsin", seed=2).play_round(bets)
    assert isinstance(ma, Round) and isinstance(wi, Round)
    assert [r.bet.spot for r in ma.results] == [6, 3, 1]
    assert [r.bet.spot for r in wi.results] == [1, 3, 6]


def test_a_slow_answer_after_the_stadium_timer_surrenders():
    # Stadium rule 6: "If no selection is made on a hand it will default to Surrendered"
    table = Table("S1", "stadium", seed=1, decision_timer_ms=15_000)
    bets = [
        Bet(1, 1000, player="late", strategy=Slow(WAR, 20_000)),
        Bet(1, 1000, player="quick", strategy=Slow(WAR, 2_000)),
        Bet(1, 1000, player="away", strategy=Silent()),
    ]
    rnd = play(table, "2c 7c 2d 2h 2s 2c 3c 4c 7h 2d 2h 2s Kc 3d 3h 3s 9c", bets)
    by_player = {r.bet.player: r for r in rnd.results}
    assert by_player["late"].decision is Decision.SURRENDER and by_player["late"].timed_out
    assert by_player["away"].decision is Decision.SURRENDER and by_player["away"].timed_out
    assert by_player["quick"].decision is Decision.WAR and not by_player["quick"].timed_out
    assert by_player["late"].settlement.net == -500 and by_player["quick"].settlement.net == 1000


def test_the_mix_strategy_draws_both_decisions_from_the_game_rng():
    def decisions(seed: int) -> list[Decision]:
        table = Table("T1", "wisconsin", seed=seed)
        bets = [Bet(s, 1000, strategy=MIX) for s in range(1, 8)]
        out = []
        for _ in range(400):
            rnd = table.play_round(bets)
            assert isinstance(rnd, Round)
            out += [r.decision for r in rnd.results if r.decision is not None]
        return out

    first = decisions(5)
    assert Counter(first).keys() == {Decision.WAR, Decision.SURRENDER}
    assert first == decisions(5)


def test_strategies_are_found_by_name():
    assert (get_strategy("war"), get_strategy("surrender"), get_strategy("mix")) == (
        WAR,
        SURRENDER,
        MIX,
    )
    with pytest.raises(KeyError, match="unknown strategy"):
        get_strategy("martingale")


def test_a_side_bet_uses_the_war_cards_only_if_its_player_went_to_war():
    # docs/RULES.md §3: P2/D2 only if P1/D1 tie and the bet's player went to war
    table = Table("S1", "stadium", seed=1)
    bets = [
        Bet(1, 1000, side=500, player="brave", strategy=WAR),
        Bet(1, 1000, side=500, player="shy", strategy=SURRENDER),
        Bet(2, 1000, side=500, player="shy"),
    ]
    deck = "2c 7c 9d 3c 4c 5c 6c 8c 7c 2d 2h 2s Kc 3d 3h 3s Kc"
    rnd = play(table, deck, bets)
    outcomes = {(r.bet.spot, r.bet.player): r.outcome for r in rnd.results}
    assert outcomes == {
        (1, "brave"): Outcome.SUITED_DOUBLE_TIE,
        (1, "shy"): Outcome.SUITED_TIE,
        (2, "shy"): Outcome.NONE,
    }


def test_a_bet_without_a_side_wager_has_no_progressive_outcome():
    rnd = Table("T1", "wisconsin", seed=1).play_round([Bet(1, 1000)])
    assert isinstance(rnd, Round) and rnd.results[0].outcome is None


def test_stadium_standoffs_stay_on_the_felt_for_the_next_game_when_configured():
    # Stadium rule 8(a): "(If Configured to Keep Standoff Bet) The Standoff (push) bets will
    # remain on the felt for the next game."
    table = Table("S1", replace(STADIUM, keep_standoff=True), seed=1)
    deck = "2c 7c 3c 4c 5c 6c 8c 9c 7h 2d 2h 2s Kc 3d 3h 3s 9c"
    first = play(table, deck, [Bet(1, 1000, player="a", side=100)])
    assert first.results[0].settlement.standoff == 1000
    nxt = play(table, "2c 3d 4d 5d 6d 8d 9d Td", [Bet(1, 200, player="a")])
    assert [(r.bet.player, r.bet.initial) for r in nxt.results] == [("a", 1200)]
    again = play(table, "2c 3d 4d 5d 6d 8d 9d Td", [])
    assert again.results == ()


def _kept_standoff_table() -> Table:
    """A Stadium table keeping stand-offs, its first game leaving player a's 1,000 on the felt."""
    table = Table("S1", replace(STADIUM, keep_standoff=True), seed=1)
    deck = "2c 7c 3c 4c 5c 6c 8c 9c 7h 2d 2h 2s Kc 3d 3h 3s 9c"
    first = play(table, deck, [Bet(1, 1000, player="a", side=100)])
    assert first.results[0].settlement.standoff == 1000
    return table


def _void(table: Table, bets) -> VoidRound:
    table.shoe.turn_face_up(1)
    table.shoe.turn_face_up(3)
    void = table.play_round(bets)
    assert isinstance(void, VoidRound)
    return void


def test_a_void_returns_its_own_wagers_and_the_kept_standoff_plays_once_after_it():
    # Stadium rule 8(a) with a void (two face-up cards): the kept ante is not the void's to
    # return; it stays on the felt and plays in the next game dealt, once
    table = _kept_standoff_table()
    void = _void(table, [Bet(1, 200, player="a"), Bet(2, 500, player="b")])
    assert [(b.player, b.initial) for b in void.bets] == [("a", 200), ("b", 500)]
    assert [(b.player, b.initial) for b in void.kept] == [("a", 1000)]
    nxt = play(table, "2c 3d 4d 5d 6d 8d 9d Td", [Bet(1, 300, player="a")])
    assert [(r.bet.player, r.bet.initial) for r in nxt.results] == [("a", 1300)]
    assert sum(r.bet.initial for r in nxt.results) == 1300  # the 1,000 once, not twice
    after = play(table, "2c 3d 4d 5d 6d 8d 9d Td", [])
    assert after.results == ()


def test_a_void_of_the_round_after_a_kept_standoff_was_played_returns_no_standoff():
    # the stand-off played out in the game after it: a void of the next one has none to keep
    table = _kept_standoff_table()
    played = play(table, "2c 3d 4d 5d 6d 8d 9d Td", [Bet(1, 200, player="a")])
    assert played.results[0].bet.initial == 1200 and played.results[0].settlement.standoff == 0
    void = _void(table, [Bet(1, 200, player="a")])
    assert [(b.player, b.initial) for b in void.bets] == [("a", 200)] and void.kept == ()
    nxt = play(table, "2c 3d 4d 5d 6d 8d 9d Td", [Bet(1, 200, player="a")])
    assert [(r.bet.player, r.bet.initial) for r in nxt.results] == [("a", 200)]


class WarForTheDealer:
    """Surrenders a tied hand but goes to war with a tied wager on the dealer."""

    def decide(self, tie, rng):
        return Answer(Decision.WAR if tie.for_dealer else Decision.SURRENDER)


def test_stadium_players_may_bet_on_the_dealer_and_go_to_war_for_it():
    # Stadium rules 3 and 7: dealer ante and dealer war wager (dealer bet configured)
    table = Table("S1", "stadium", seed=1)
    bet = Bet(1, 1000, player="a", strategy=WarForTheDealer(), dealer_ante=500)
    rnd = play(table, "2c 7c 3c 4c 5c 6c 8c 9c 7h 2d 2h 2s 3d 3d 3h 3s Kc", [bet])
    (result,) = rnd.results
    assert (result.decision, result.dealer_decision) == (Decision.SURRENDER, Decision.WAR)
    s = result.settlement
    assert (s.initial, s.dealer_initial, s.dealer_war) == (-500, 0, 500)
    # The hand went to war for the dealer wager only: no progressive bet sits at war.
    assert (
        rnd.hand(1).war_card == Card.parse("3d") and "war_card" not in round_report(rnd)["dealer"]
    )


@pytest.mark.parametrize(
    ("profile", "bet", "field"),
    [
        ("wisconsin", Bet(1, 0, side=100), "side"),
        ("wisconsin", Bet(1, 0), "initial"),
        ("wisconsin", Bet(8, 1000), "spot"),
        ("wisconsin", Bet(1, -5), "initial"),
        ("wisconsin", Bet(1, 1000, dealer_ante=100), "dealer_ante"),
        ("stadium", Bet(1, 1000), "player"),
        ("stadium", Bet(1, 0, dealer_ante=100, player="a"), "dealer_ante"),
        ("stadium", Bet(1, 1000, war_tie=100, player="a"), "war_tie"),
        ("wisconsin", Bet(1, 1000, player="bad id"), "player"),
    ],
)
def test_bets_the_rules_do_not_allow_are_refused(profile, bet, field):
    with pytest.raises(BetError) as caught:
        Table("T1", profile, seed=1).play_round([bet])
    assert caught.value.field.endswith(field)


def test_a_live_spot_carries_one_bet():
    with pytest.raises(BetError, match="one bet per spot"):
        Table("T1", seed=1).play_round([Bet(1, 1000, player="a"), Bet(1, 1000, player="b")])


def test_a_stadium_table_deals_from_six_decks_only():
    # Stadium rules of play: "dealt from the podium via a 6 deck shoe"
    with pytest.raises(ValueError, match="decks"):
        Table("S1", "stadium", decks=8)


def test_round_ids_name_the_shoe_and_count_the_table_s_rounds():
    table = Table("T1", "wisconsin", seed=1, id_prefix="T1-night")
    ids = [table.play_round([Bet(1, 1000)]).round_id for _ in range(3)]
    assert ids == ["T1-night.s1-000001", "T1-night.s1-000002", "T1-night.s1-000003"]
