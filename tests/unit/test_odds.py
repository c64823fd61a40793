"""The side bet's exact odds, the return of a paytable and `jackpot math`."""

from __future__ import annotations

import argparse
import json
from collections import Counter
from fractions import Fraction
from itertools import permutations
from random import Random

import pytest

from jackpot.cli import math as math_cli
from jackpot.domain.cards import FULL_DECK
from jackpot.domain.config import LevelType
from jackpot.domain.odds import (
    PoolTerms,
    base_game,
    long_run_return,
    outcome_probabilities,
    paytable_return,
)
from jackpot.domain.outcomes import WAR_OUTCOMES, WINNING_OUTCOMES, Outcome, evaluate
from jackpot.domain.paytable import SEED_PAYTABLE, Envy, PayLine, Paytable

RULES_ONE_IN_AT_SIX_DECKS = [
    (Outcome.SUITED_FOUR_OF_A_KIND, 496_511.5),
    (Outcome.SUITED_DOUBLE_TIE, 3_894.2),
    (Outcome.FOUR_OF_A_KIND, 2_944.9),
    (Outcome.DOUBLE_TIE, 205.2),
    (Outcome.SUITED_TIE, 67.2),
    (Outcome.TIE, 18.7),
]


@pytest.mark.parametrize(("outcome", "one_in"), RULES_ONE_IN_AT_SIX_DECKS)
def test_six_deck_odds_match_the_rules(outcome, one_in):
    probability = outcome_probabilities(6)[outcome]
    assert round(float(1 / probability), 1) == one_in


def test_suited_four_of_a_kind_is_exactly_one_in_496_511_and_a_half():
    assert outcome_probabilities(6)[Outcome.SUITED_FOUR_OF_A_KIND] == Fraction(2, 993_023)


@pytest.mark.parametrize("war", [True, False])
@pytest.mark.parametrize("decks", [1, 2, 6, 7, 8])
def test_probabilities_cover_every_outcome_and_sum_to_exactly_one(decks, war):
    probs = outcome_probabilities(decks, war)
    assert list(probs) == list(Outcome)
    assert sum(probs.values()) == 1
    assert all(p >= 0 for p in probs.values())


@pytest.mark.parametrize("decks", [6, 7, 8])
def test_surrender_makes_the_war_outcomes_impossible(decks):
    probs = outcome_probabilities(decks, war=False)
    assert all(probs[o] == 0 for o in WAR_OUTCOMES)
    cards = 52 * decks
    assert probs[Outcome.SUITED_TIE] == Fraction(decks - 1, cards - 1)
    assert probs[Outcome.TIE] == Fraction(3 * decks, cards - 1)


@pytest.mark.parametrize("decks", [6, 7, 8])
def test_war_splits_the_first_tie_without_changing_its_probability(decks):
    with_war = outcome_probabilities(decks)
    surrendered = outcome_probabilities(decks, war=False)
    tied = sum(p for o, p in with_war.items() if o is not Outcome.NONE)
    assert tied == surrendered[Outcome.SUITED_TIE] + surrendered[Outcome.TIE]


@pytest.mark.parametrize("decks", [0, 9])
def test_a_shoe_outside_one_to_eight_decks_is_refused(decks):
    with pytest.raises(ValueError):
        outcome_probabilities(decks)


def brute_force(decks: int, war: bool, p1_positions: range) -> dict[Outcome, Fraction]:
    """Enumerate ordered draws P1, D1, P2, D2 of the physical cards of a shoe."""
    shoe = list(FULL_DECK) * decks
    n = len(shoe)
    counts: Counter[Outcome] = Counter()
    for i in p1_positions:
        p1, left = shoe[i], shoe[:i] + shoe[i + 1 :]
        for j, d1 in enumerate(left):
            if not war or p1.rank != d1.rank:
                # No war deal for this bet: every (P2, D2) gives the same outcome.
                counts[evaluate(p1, d1)] += (n - 2) * (n - 3)
                continue
            for p2, d2 in permutations(left[:j] + left[j + 1 :], 2):
                counts[evaluate(p1, d1, p2, d2)] += 1
    total = len(p1_positions) * (n - 1) * (n - 2) * (n - 3)
    return {o: Fraction(counts[o], total) for o in Outcome}


# Relabelling ranks and suits maps any card to any other and leaves evaluate()
# unchanged, so fixing P1 to the shoe's first card loses nothing; the one-deck
# case enumerates every P1 to show it. Four decks is the first shoe where a
# suited four of a kind can happen.
@pytest.mark.parametrize("war", [True, False])
@pytest.mark.parametrize(
    ("decks", "p1_positions"), [(1, range(52)), (2, range(1)), (3, range(1)), (4, range(1))]
)
def test_counting_matches_enumerating_every_draw_of_a_small_shoe(decks, p1_positions, war):
    assert outcome_probabilities(decks, war) == brute_force(decks, war, p1_positions)


def test_seed_paytable_fixed_pays_return_74_18_percent_at_six_decks():
    result = paytable_return(SEED_PAYTABLE, 6, meter=0, other_bets=0)
    assert round(float(result.fixed) * 100, 2) == 74.18
    assert result.meter == result.envy == 0
    assert result.house_edge == 1 - result.fixed


def test_seed_meter_and_envy_return_at_six_decks():
    # Suited four of a kind, 2/993023: 100% of a $1,000 meter is 200 wagers of $5,
    # and each of 6 other bets hitting it pays this bet 200 wagers.
    result = paytable_return(SEED_PAYTABLE, 6, wager=500, meter=100_000, other_bets=6)
    assert result.meter == Fraction(2, 993_023) * 200
    assert result.envy == 6 * Fraction(2, 993_023) * 200
    assert result.total == result.fixed + result.meter + result.envy


def suited_tie_only(envy: Envy) -> Paytable:
    line = PayLine(15, meter_bp=5_000, envy=envy)
    return Paytable(
        tuple((o, line if o is Outcome.SUITED_TIE else PayLine(0)) for o in WINNING_OUTCOMES)
    )


@pytest.mark.parametrize(
    ("envy", "expected_envy"),
    [
        # 3 other bets × 5/311 × $2.50 fixed on a $5 wager
        (Envy(amount=250), 3 * Fraction(5, 311) * Fraction(1, 2)),
        # 3 other bets × 5/311 × 2 wagers
        (Envy(multiple=2), 3 * Fraction(5, 311) * 2),
    ],
)
def test_meter_and_envy_arithmetic_on_a_hand_checked_paytable(envy, expected_envy):
    result = paytable_return(
        suited_tie_only(envy), 6, war=False, wager=500, meter=1_001, other_bets=3
    )
    # Surrender at 6 decks: a suited tie is 5/311.
    assert result.fixed == 15 * Fraction(5, 311)
    # 50% of 1,001 cents floors to 500 cents: one wager.
    assert result.meter == Fraction(5, 311)
    assert result.envy == expected_envy
    rows = {row.outcome: row for row in result.outcomes}
    assert rows[Outcome.SUITED_TIE].total == result.total
    assert rows[Outcome.NONE].total == 0


def run_math(*argv: str) -> int:
    parser = argparse.ArgumentParser()
    math_cli.register(parser.add_subparsers())
    args = parser.parse_args(["math", *argv])
    assert args.func is math_cli.run
    return math_cli.run(args)


def test_math_prints_a_table_per_deck_count(capsys):
    assert run_math() == 0
    out = capsys.readouterr().out
    for decks in (6, 7, 8):
        assert f"{decks} decks, player always goes to war" in out
    assert "496,511.5" in out
    assert "2/993023" in out
    assert "74.1779%" in out


def test_math_json_gives_exact_fractions(capsys):
    assert run_math("--decks", "6", "--surrender", "--json") == 0
    body = json.loads(capsys.readouterr().out)
    [result] = body["results"]
    assert result["decks"] == 6 and result["war"] is False
    probs = {row["outcome"]: Fraction(row["probability"]["exact"]) for row in result["outcomes"]}
    assert sum(probs.values()) == 1
    assert probs["suited_tie"] == Fraction(5, 311)
    assert Fraction(result["fixed_return"]["exact"]) == Fraction(165, 311)
    assert result["fixed_return"]["float"] == pytest.approx(165 / 311)


def test_math_reads_a_paytable_file(tmp_path, capsys):
    table = SEED_PAYTABLE.to_json()
    table["tie"] = {"odds": 6}
    path = tmp_path / "paytable.json"
    path.write_text(json.dumps(table))
    assert run_math("--decks", "8", "--paytable", str(path), "--json") == 0
    body = json.loads(capsys.readouterr().out)
    assert body["paytable"]["tie"] == {"odds": 6}


def test_math_refuses_a_bad_paytable_file(tmp_path, capsys):
    path = tmp_path / "paytable.json"
    path.write_text(json.dumps({"tie": {"odds": 5}}))
    assert run_math("--paytable", str(path)) == 2
    assert "suited_four_of_a_kind" in capsys.readouterr().err


# -- the base game ---------------------------------------------------------------------------


def test_the_base_games_house_edge_at_six_decks_is_the_published_one():
    """2.330% always at war with the tie-after-war bonus (2.877% without), 3.698% always
    surrendering: the figures every Casino War table card prints."""
    game = base_game(6)
    assert f"{float(game.war_edge) * 100:.3f}" == "2.330"
    assert f"{float(game.surrender_edge) * 100:.3f}" == "3.698"
    assert f"{float(base_game(6, tie_bonus=False).war_edge) * 100:.3f}" == "2.877"
    assert game.surrender_edge == Fraction(23, 311) / 2  # a tie, 23 in 311, loses half


@pytest.mark.parametrize("decks", [1, 2])
@pytest.mark.parametrize("tie_bonus", [True, False])
def test_the_base_games_edge_matches_enumerating_every_rank_draw(decks, tie_bonus):
    """Every ordered draw of four ranks (P1, D1, P2, D2) without replacement, weighted by
    how many card draws give it: an independent count of the same game."""
    of_rank, cards = 4 * decks, 52 * decks
    total = Fraction(0)
    for p1 in range(13):
        for d1 in range(13):
            left = {r: of_rank for r in range(13)}
            weight = Fraction(left[p1], cards)
            left[p1] -= 1
            weight *= Fraction(left[d1], cards - 1)
            left[d1] -= 1
            if p1 != d1:
                total += weight * (1 if p1 > d1 else -1)
                continue
            for p2 in range(13):
                for d2 in range(13):
                    w = weight * Fraction(left[p2], cards - 2)
                    w *= Fraction(left[d2] - (p2 == d2), cards - 3)
                    pays = 1 if p2 > d2 else -2 if p2 < d2 else (2 if tie_bonus else 1)
                    total += w * pays
    assert base_game(decks, tie_bonus).war_edge == -total


def test_math_prints_the_base_games_house_edge(capsys):
    assert run_math("--decks", "6") == 0
    out = capsys.readouterr().out
    assert "base game house edge" in out
    assert "2.3301%" in out and "2.8771%" in out and "3.6977%" in out
    assert run_math("--decks", "6", "--json") == 0
    [game] = json.loads(capsys.readouterr().out)["base_game"]
    assert Fraction(game["house_edge_always_surrender"]["exact"]) == Fraction(23, 622)


# -- the long run: each level from its own pool ----------------------------------------------


def test_the_seed_paytables_level_returns_its_contributions_and_its_resets():
    result = long_run_return(
        SEED_PAYTABLE, 6, {"main": PoolTerms(100_000, 400, 100)}, wager=500, other_bets=0
    )
    [main] = result.levels
    hit = Fraction(2, 993_023)  # a suited four of a kind
    assert (main.hit, main.empties, main.cycle) == (hit, hit, 1 / hit)
    assert main.resets == hit * Fraction(100_000, 500)  # $1,000 reset per $5 bet
    assert main.total == Fraction(4, 100) + main.resets
    assert main.house_funding == 0  # the reserve's 1% more than pays the resets
    assert main.reserve_surplus == Fraction(1, 100) - main.resets
    assert result.total == result.fixed + main.total
    assert f"{float(result.total) * 100:.2f}" == "78.22"


def test_a_bet_below_the_qualifying_wager_never_empties_the_meter_or_never_hits_it():
    pools = {"main": PoolTerms(100_000, 400, 100)}
    [small] = long_run_return(SEED_PAYTABLE, 6, pools, wager=100, other_bets=0).levels
    # a $1 bet takes a fifth of the meter: it hits as often, never empties it, pays no reset
    assert small.hit == Fraction(2, 993_023) and (small.empties, small.resets) == (0, 0)
    assert small.total == Fraction(4, 100)
    table = SEED_PAYTABLE.to_json()
    table["suited_four_of_a_kind"]["below_qualifying"] = "nothing"
    nothing = Paytable.from_json(table)
    [none] = long_run_return(nothing, 6, pools, wager=100, other_bets=0).levels
    assert (none.hit, none.total) == (0, 0), "its contributions feed a meter it cannot win"
    [full] = long_run_return(nothing, 6, pools, wager=500, other_bets=0).levels
    assert full.empties == Fraction(2, 993_023)


def two_level_paytable() -> Paytable:
    table = SEED_PAYTABLE.to_json()
    table["suited_four_of_a_kind"] = {"odds": 1000, "meter_bp": 10_000, "pool": "grand"}
    table["suited_double_tie"] = {"odds": 200, "meter_bp": 1_000, "pool": "major"}
    return Paytable.from_json(table)


def test_a_two_level_paytable_prices_each_level_from_its_own_pool():
    """One assumed meter for every level priced the major's 10% at the grand's $100,000 and
    printed a return over 100%; each pool's own terms give the long run."""
    paytable = two_level_paytable()
    one_meter = paytable_return(paytable, 6, wager=500, meter=10_000_000, other_bets=0)
    assert one_meter.total > 1
    pools = {"grand": PoolTerms(10_000_000, 200, 50), "major": PoolTerms(50_000, 300, 0)}
    result = long_run_return(paytable, 6, pools, wager=500, other_bets=0)
    grand, major = result.levels
    assert grand.resets == Fraction(2, 993_023) * 20_000
    assert grand.house_funding == grand.resets - Fraction(50, 10_000)
    # the major pays a tenth of its meter and is never emptied: its contributions return
    assert (major.empties, major.resets, major.total) == (0, 0, Fraction(3, 100))
    assert major.hit == outcome_probabilities(6)[Outcome.SUITED_DOUBLE_TIE]
    assert result.total < 1
    assert result.total == result.fixed + grand.total + major.total


def test_a_pool_the_paytable_never_pays_returns_nothing_and_an_unfed_one_is_refused():
    result = long_run_return(
        SEED_PAYTABLE, 6, {"main": PoolTerms(100_000, 400, 100), "side": PoolTerms(0, 100, 0)},
        wager=500, other_bets=0,
    )  # fmt: skip
    assert result.levels[1].total == 0 and result.levels[1].cycle is None
    with pytest.raises(ValueError, match="grand"):
        long_run_return(
            two_level_paytable(), 6, {"major": PoolTerms(1, 1, 1)}, wager=500, other_bets=0
        )


def test_math_prints_the_long_run_per_level(capsys):
    assert run_math("--decks", "6", "--pool", "main=100000,400,100") == 0
    out = capsys.readouterr().out
    assert "over the long run, each level from its own pool" in out
    assert "496,511.5" in out and "78.4599%" in out
    assert run_math("--decks", "6", "--pool", "main=100000,400,100", "--json") == 0
    [long_run] = json.loads(capsys.readouterr().out)["long_run"]
    assert long_run["levels"][0]["pool"] == "main"
    with pytest.raises(SystemExit):
        run_math("--pool", "main=lots")


def test_a_must_hit_by_or_mystery_level_returns_its_contributions_and_a_reset_a_cycle():
    """A hidden-trigger level climbs wager x rate a bet from its reset to a trigger drawn
    uniformly over its range: its cycle is (mean trigger - reset) / (wager x rate) bets, and
    it returns every contribution and one reset a cycle; a wager below its qualifying wager
    never wins it (the contributions are someone else's return)."""
    hourly = PoolTerms(10_000, 200, 0, (10_001, 50_000), 0, LevelType.MUST_HIT_BY)
    mystery = PoolTerms(5_000, 100, 0, (20_000, 30_000), 500, LevelType.MYSTERY)
    pools = {"main": PoolTerms(100_000, 400, 100), "hourly": hourly, "myst": mystery}
    result = long_run_return(SEED_PAYTABLE, 6, pools, wager=500, other_bets=0)
    _, mhb, myst = result.levels
    # $5 x 2% = 10 cents a bet over a mean climb of $200.005: 2,000.05 bets
    assert mhb.cycle == Fraction(40_001, 20)
    assert mhb.total == Fraction(2, 100) + Fraction(10_000, 500) / mhb.cycle
    assert myst.cycle == Fraction(25_000 - 5_000, 5)  # to a mean $250, 5 cents a bet
    small = long_run_return(SEED_PAYTABLE, 6, pools, wager=100, other_bets=0)
    assert small.levels[2].cycle is None and small.levels[2].total == 0
    # a simulation of the climb agrees with the mean cycle
    rng = Random(28)
    cycles = []
    for _ in range(4_000):
        trigger, meter, bets = 10_001 + rng.randrange(40_000), 10_000, 0
        while meter < trigger:
            meter, bets = meter + 10, bets + 1
        cycles.append(bets)
    assert abs(sum(cycles) / len(cycles) / float(mhb.cycle) - 1) < 0.02


def test_math_prices_trigger_levels(capsys):
    assert run_math("--decks", "6", "--pool", "main=100000,400,100", "--pool",
                    "hourly=10000,200,0,must_hit_by:50000", "--pool",
                    "myst=5000,100,0,mystery:20000:30000:qualifying=500") == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "hourly (must hit by $500.00)" in out and "myst (mystery $200.00-$300.00)" in out
    assert "2,000.0" in out
    for bad in ("x=10000,200,0,must_hit_by:9000", "x=10000,200,0,mystery:9000:20000",
                "x=10000,0,0,must_hit_by:50000", "x=1,1,0,jackpot:5"):  # fmt: skip
        with pytest.raises(SystemExit):
            run_math("--pool", bad)


def test_math_prices_a_level_smaller_bets_feed_for_the_bets_that_can_win_it(
    tmp_path, capsys, monkeypatch
):
    raw = SEED_PAYTABLE.to_json()
    raw["suited_four_of_a_kind"].update(qualifying_wager=2_500, below_qualifying="nothing")
    path = tmp_path / "paytable.json"
    path.write_text(json.dumps(raw))
    pools = ("--pool", "main=100000,400,20",
             "--pool", "mhb=10000,200,0,must_hit_by:50000:qualifying=2500")  # fmt: skip
    monkeypatch.delenv("JACKPOT_BELOW_QUALIFYING_SHARE_BP", raising=False)
    argv = ("--decks", "6", "--paytable", str(path), "--wager", "2500", *pools)
    assert run_math(*argv) == 0
    out = capsys.readouterr().out
    assert "long-run return    144.4274%" in out
    assert "bets below a qualifying wager bring 90.0000% of the handle of main, mhb" in out
    assert run_math(*argv, "--below-share", "0", "--json") == 0
    body = json.loads(capsys.readouterr().out)
    assert f"{body['long_run'][0]['long_run_return']['float'] * 100:.2f}" == "81.43"
    # a table taking $25 bets only: no smaller bets feed it
    assert run_math(*argv, "--min-wager", "2500") == 0
    assert "long-run return     81.4277%" in capsys.readouterr().out
