"""Chi-square checks of outcome counts against exact odds."""

from __future__ import annotations

from scipy import stats

from jackpot.domain.outcomes import Outcome

P_FLOOR = 0.001


MIN_EXPECTED = 5.0


def chi_square(counts: dict[Outcome, int], probs) -> float:
    """p-value of counts against probs, rarest outcomes pooled until each expects >= 5."""
    total = sum(counts.values())
    observed, expected = [], []
    pool_o = pool_e = 0.0
    for outcome in sorted(probs, key=lambda o: probs[o]):
        if probs[outcome] == 0:
            assert counts[outcome] == 0, outcome
            continue
        pool_o += counts[outcome]
        pool_e += float(probs[outcome]) * total
        if pool_e >= MIN_EXPECTED:
            observed.append(pool_o)
            expected.append(pool_e)
            pool_o = pool_e = 0.0
    if pool_e:  # a remainder too small on its own joins the last bin
        observed[-1] += pool_o
        expected[-1] += pool_e
    return float(stats.chisquare(observed, expected).pvalue)
