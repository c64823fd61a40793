"""Side-bet outcome frequencies, vectorised and from the engine's real deals, against exact odds."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from jackpot.domain.cards import Card
from jackpot.domain.outcomes import Outcome, evaluate
from table_adapter.game.bets import Bet
from table_adapter.game.engine import Table
from table_adapter.game.records import Round
from tests.support.statistics import P_FLOOR, chi_square

np = pytest.importorskip("numpy", reason="the Monte Carlo mode needs the `sim` extra")
stats = pytest.importorskip("scipy.stats")
montecarlo = pytest.importorskip("table_adapter.floor.montecarlo")


def exact_odds(decks: int, war: bool = True):
    try:
        from jackpot.domain.odds import outcome_probabilities
    except ImportError as exc:
        pytest.skip(f"jackpot.domain.odds is not written yet: {exc}")
    return outcome_probabilities(decks, war)


def test_the_vectorised_classifier_agrees_with_evaluate():
    # docs/RULES.md §3 outcome table, first match wins
    rng = random.Random(3)
    size = 52 * 6
    rows = []
    for _ in range(20_000):
        p1, d1, p2, d2 = rng.sample(range(size), 4)
        if rng.random() < 0.5:  # force ties often enough to reach the war outcomes
            d1 = next(
                i for i in range(size) if i % 52 >> 2 == p1 % 52 >> 2 and i not in (p1, p2, d2)
            )
        if rng.random() < 0.3:
            d2 = next(i for i in range(size) if i % 52 == p2 % 52 and i not in (p1, d1, p2))
        rows.append((p1, d1, p2, d2))
    arr = np.array(rows, dtype=np.int64)
    codes = montecarlo.classify(arr[:, 0], arr[:, 1], arr[:, 2], arr[:, 3])
    seen = set()
    for (p1, d1, p2, d2), code in zip(rows, codes, strict=True):
        expected = evaluate(*(Card.from_index(i % 52) for i in (p1, d1, p2, d2)))
        assert montecarlo.OUTCOMES[code] is expected
        seen.add(expected)
    assert seen >= set(Outcome) - {Outcome.SUITED_FOUR_OF_A_KIND}
    four = np.array([0, 52, 104, 156], dtype=np.int64)  # one card, four physical copies
    assert montecarlo.OUTCOMES[montecarlo.classify(*four[:, None])[0]] is (
        Outcome.SUITED_FOUR_OF_A_KIND
    )


def test_vectorised_hands_draw_four_distinct_physical_cards():
    rng = np.random.default_rng(1)
    p1, d1, p2, d2 = montecarlo.deal_hands(rng, 200_000, 6, True)
    tied = p2 >= 0
    assert (p1 != d1).all()
    quad = np.stack([p1[tied], d1[tied], p2[tied], d2[tied]])
    assert (np.sort(quad, axis=0)[1:] != np.sort(quad, axis=0)[:-1]).all()
    assert quad.min() >= 0 and quad.max() < 312


@pytest.mark.slow
def test_a_million_vectorised_hands_fit_the_exact_odds():
    # docs/RULES.md §3: exact odds with the player always going to war, 6 decks
    probs = exact_odds(6)
    counts = montecarlo.simulate(1_000_000, 6, war=True, seed=20240601)
    assert sum(counts.values()) == 1_000_000
    assert chi_square(counts, probs) > P_FLOOR


def test_surrendering_hands_fit_the_exact_odds_without_war():
    # docs/RULES.md §3: a surrendered bet can only make `tie` or `suited_tie`
    probs = exact_odds(8, war=False)
    counts = montecarlo.simulate(300_000, 8, war=False, seed=7)
    assert {o for o, n in counts.items() if n} <= {Outcome.TIE, Outcome.SUITED_TIE, Outcome.NONE}
    assert chi_square(counts, probs) > P_FLOOR


@pytest.mark.slow
def test_the_engine_s_real_deals_fit_the_exact_odds():
    # The engine's shoe, cut, burns and war deal must not bias one bet's outcome.
    probs = exact_odds(6)
    table = Table("T1", "wisconsin", seed=424242)
    bets = [Bet(s, 1000, side=100, player=f"p{s}") for s in range(1, 8)]
    counts: Counter[Outcome] = Counter()
    while sum(counts.values()) < 200_000:
        rnd = table.play_round(bets)
        if isinstance(rnd, Round):
            counts.update(r.outcome for r in rnd.results if r.outcome is not None)
    assert table.shoe.number > 300
    assert chi_square({o: counts[o] for o in Outcome}, probs) > P_FLOOR
