"""The base game's exact house edge (game/edge.py) and the engine's dealt hold against it."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from table_adapter.game.bets import Bet
from table_adapter.game.edge import house_edge
from table_adapter.game.engine import Table
from table_adapter.game.profiles import PROFILES, WISCONSIN
from table_adapter.game.records import Round
from table_adapter.game.strategies import MIX, SURRENDER, WAR, war_share


def test_the_seed_rules_edge_is_the_known_exact_figure() -> None:
    # an outside audit's exact combinatorics: 2.330 % always to war, 3.698 % always surrender
    war = house_edge(WISCONSIN, 6)
    surrender = house_edge(WISCONSIN, 6, Fraction(0))
    assert abs(war - Fraction(2330, 100_000)) < Fraction(1, 100_000)
    assert abs(surrender - Fraction(3698, 100_000)) < Fraction(1, 100_000)
    # a mix is the mean of the two; more decks cost the player a little more
    assert house_edge(WISCONSIN, 6, Fraction(1, 2)) == (war + surrender) / 2
    assert house_edge(WISCONSIN, 6) < house_edge(WISCONSIN, 7) < house_edge(WISCONSIN, 8)


def test_every_profile_nets_the_same_edge_by_its_own_words() -> None:
    # Wisconsin collects the ante and pays the war 2:1; Massachusetts and Stadium push the
    # ante and pay 1:1; South Dakota pays 1:2 on both: the same net, so the same edge
    edges = {name: house_edge(p, 6) for name, p in PROFILES.items()}
    assert len(set(edges.values())) == 1


def test_a_strategys_war_share_is_what_it_does_on_a_tie() -> None:
    assert (war_share(WAR), war_share(SURRENDER), war_share(MIX)) == (1, 0, Fraction(1, 2))


@pytest.mark.slow
@pytest.mark.parametrize(("strategy", "share"), [(WAR, Fraction(1)), (SURRENDER, Fraction(0))])
def test_the_dealt_hold_is_the_exact_edge_within_its_spread(strategy, share) -> None:
    table = Table("T1", "wisconsin", seed=7)
    bets = [Bet(s, 1000, strategy=strategy) for s in range(1, 8)]
    net, wagered, hands, squares = 0, 0, 0, 0
    for _ in range(30_000):
        played = table.play_round(bets)
        assert isinstance(played, Round)
        for r in played.results:
            result = r.settlement.initial + r.settlement.war
            net += result
            squares += result * result
            wagered += r.bet.initial
            hands += 1
    hold = Fraction(-net, wagered)
    # per-hand spread in units of the ante, estimated from the deal itself
    spread = math.sqrt(squares / hands - (net / hands) ** 2) / 1000
    bound = 4 * spread / math.sqrt(hands)  # hands of one round share a dealer card: generous
    assert abs(float(hold - house_edge(WISCONSIN, 6, share))) < bound
