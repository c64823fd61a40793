"""Every event the floor draws happens at its configured rate: fixed seeds, exact binomial
tests and chi-square over the kinds (issue 26, "how it is checked")."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from scipy import stats

from table_adapter.floor.mishaps import Mishaps
from table_adapter.game import players as mix
from table_adapter.game.bets import Bet
from table_adapter.game.engine import Table
from table_adapter.game.irregularities import Handling, Irregular
from table_adapter.game.players import Players
from table_adapter.game.profiles import MASSACHUSETTS, STADIUM, WISCONSIN
from table_adapter.game.records import Role
from table_adapter.game.shoe import Shuffler
from table_adapter.game.strategies import WAR, Silent, Slow
from tests.support.statistics import P_FLOOR


def at_rate(hits: int, trials: int, rate: float) -> float:
    """The two-sided p-value of `hits` in `trials` at `rate`."""
    return float(stats.binomtest(hits, trials, rate).pvalue)


def uniform(counts: Counter[object]) -> float:
    """The chi-square p-value of `counts` against equal shares."""
    return float(stats.chisquare(list(counts.values())).pvalue)


def test_mishaps_come_at_their_rate_evenly_over_the_kinds_the_rules_name():
    mishaps = Mishaps(MASSACHUSETTS, Shuffler.BATCH, 0.2, random.Random(26))
    bets = [Bet(1, 1000), Bet(3, 1000), Bet(5, 1000)]
    plans = [mishaps.next(bets) for _ in range(30_000)]
    staged = [p.mishap for p in plans if p.mishap is not None]
    assert at_rate(len(staged), len(plans), 0.2) > P_FLOOR
    kinds = Counter(m.kind for m in staged)
    assert set(kinds) == set(MASSACHUSETTS.irregularities) - {
        Irregular.FACE_UP_CARD,
        Irregular.FACE_UP_CARDS,
    }
    assert uniform(kinds) > P_FLOOR
    misdelivered = [m for m in staged if m.kind is Irregular.MISDELIVERED]
    assert uniform(Counter(m.handling for m in misdelivered)) > P_FLOOR
    assert set(Counter(m.handling for m in misdelivered)) == set(Handling)
    # each player not yet dealt is let out with even odds (never all of the round's three)
    at_5 = [m for m in misdelivered if m.spot == 5]
    assert at_rate(sum(5 in m.let_out for m in at_5), len(at_5), 0.5) > P_FLOOR
    at_1 = [m for m in misdelivered if m.spot == 1]
    assert all(len(m.let_out) < 3 for m in at_1)


def test_cards_are_found_face_up_at_their_rate():
    table = Table("T1", "wisconsin", seed=26, face_up_rate=0.01)
    draws = []
    for _ in range(3_000):
        draws += table.play_round([Bet(1, 1000), Bet(2, 1000), Bet(3, 1000)]).draws
    face_up = sum(d.role is Role.FACE_UP for d in draws)
    assert at_rate(face_up, len(draws), 0.01) > P_FLOOR


def test_the_players_mix_places_each_wager_at_its_share():
    rng = random.Random(26)
    live = Players("T1", WISCONSIN, 7, WAR, rng, side_share=0.8)
    bets = [b for _ in range(4_000) for b in live.bets()]
    for hits, share in (
        (sum(b.side > 0 for b in bets), 0.8),
        (sum(b.tie > 0 for b in bets), mix.TIE_SHARE),
        (sum(b.war_tie > 0 for b in bets), mix.WAR_TIE_SHARE),
    ):
        assert at_rate(hits, len(bets), share) > P_FLOOR
    stadium = replace(STADIUM, dealer_bet=True, decision_timer_ms=15_000)
    terminals = Players("S1", stadium, 7, WAR, rng, side_share=0.8, slow_share=0.3)
    bets = [b for _ in range(4_000) for b in terminals.bets()]
    on_dealer = [b for b in bets if b.dealer_ante]
    assert at_rate(len(on_dealer), len(bets), mix.DEALER_ANTE_SHARE) > P_FLOOR
    dealer_ties = sum(b.dealer_tie > 0 for b in on_dealer)
    assert at_rate(dealer_ties, len(on_dealer), mix.DEALER_TIE_SHARE) > P_FLOOR
    late = [b for b in bets if isinstance(b.strategy, Silent | Slow)]
    assert at_rate(len(late), len(bets), 0.3) > P_FLOOR
    assert at_rate(sum(isinstance(b.strategy, Silent) for b in late), len(late), 0.5) > P_FLOOR
