"""Hidden triggers: drawn uniformly, committed before play, opened only by their own reveal,
and won by exactly the contribution that crosses them."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from random import Random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from jackpot.domain.triggers import (
    LevelType,
    commitment,
    crossing,
    draw_trigger,
    mean_trigger_cents,
    revealed,
    trigger_range,
)


def test_triggers_are_uniform_over_the_whole_range() -> None:
    span = (100_001, 100_050)  # a cent above a $1,000 reset, up to $1,000.50
    rng = Random(28)
    counts = Counter(draw_trigger("mhb", span, rng).cents for _ in range(20_000))
    assert set(counts) == set(range(span[0], span[1] + 1)), "both ends and all between"
    expected = [20_000 / 50] * 50
    p = stats.chisquare([counts[c] for c in range(span[0], span[1] + 1)], expected).pvalue
    assert p > 0.001, p


def test_a_commitment_opens_only_with_its_own_trigger_and_salt() -> None:
    t = draw_trigger("mhb", (500_001, 1_000_000))
    assert revealed(t.commitment, "mhb", t.cents, t.salt)
    other = "0" * len(t.salt) if t.salt != "0" * len(t.salt) else "1" * len(t.salt)
    for pool, cents, salt in (
        ("mhb", t.cents + 1, t.salt),  # another trigger
        ("mhb", t.cents, other),  # another salt
        ("other", t.cents, t.salt),  # another level's
    ):
        assert not revealed(t.commitment, pool, cents, salt)
    forged = commitment("mhb", t.cents + 1, t.salt)
    assert not revealed(forged, "mhb", t.cents, t.salt)


def test_the_system_draws_a_fresh_salt_each_time() -> None:
    first, second = (draw_trigger("mhb", (1, 1)) for _ in range(2))
    assert first.cents == second.cents == 1
    assert first.salt != second.salt and first.commitment != second.commitment
    assert len(first.salt) == 32


@given(
    before=st.integers(0, 10**9),
    contributions=st.lists(st.integers(0, 10**7), max_size=30),
    ahead=st.integers(1, 10**8),
)
def test_exactly_the_crossing_contribution_wins(
    before: int, contributions: list[int], ahead: int
) -> None:
    trigger = before + ahead
    won = crossing(before, contributions, trigger)
    totals = [before + sum(contributions[: i + 1]) for i in range(len(contributions))]
    if won is None:
        assert all(t < trigger for t in totals)
    else:
        assert totals[won] >= trigger and contributions[won] > 0
        assert all(t < trigger for t in totals[:won]), "no earlier contribution reached it"


def test_ranges_by_level_type() -> None:
    assert trigger_range(LevelType.MUST_HIT_BY, 100_000, 500_000, None, None) == (100_001, 500_000)
    assert trigger_range(LevelType.MYSTERY, 10_000, None, 20_000, 30_000) == (20_000, 30_000)
    for kind, ceiling, low, high in (
        (LevelType.MUST_HIT_BY, 100_000, None, None),  # a ceiling at the reset
        (LevelType.MUST_HIT_BY, None, None, None),
        (LevelType.MYSTERY, None, 5_000, 30_000),  # below the reset
        (LevelType.MYSTERY, None, 30_000, 20_000),
        (LevelType.HAND, None, None, None),
    ):
        with pytest.raises(ValueError):
            trigger_range(
                kind, 10_000 if kind is LevelType.MYSTERY else 100_000, ceiling, low, high
            )
    assert mean_trigger_cents((100_001, 500_000)) == Fraction(600_001, 2)
