"""Hidden triggers: drawn uniformly, committed before play, opened only by their own reveal,
and won by exactly the contribution that crosses them."""

from __future__ import annotations

import re
import subprocess
from collections import Counter
from fractions import Fraction
from pathlib import Path
from random import Random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from jackpot.domain.config import LevelType, PoolConfig
from jackpot.domain.triggers import (
    commitment,
    crossing,
    draw_trigger,
    mean_trigger_cents,
    revealed,
)
from jackpot.errors import ValidationError


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
    steps=st.lists(st.tuples(st.integers(0, 10**7), st.booleans()), max_size=30),
    ahead=st.integers(1, 10**8),
)
def test_exactly_the_first_qualifying_bet_at_the_trigger_wins(
    before: int, steps: list[tuple[int, bool]], ahead: int
) -> None:
    trigger = before + ahead
    won = crossing(before, steps, trigger)
    totals = [before + sum(u for u, _ in steps[: i + 1]) for i in range(len(steps))]
    reached = [i for i, t in enumerate(totals) if t >= trigger and steps[i][1]]
    assert won == (reached[0] if reached else None)
    if won is not None:
        assert all(t < trigger or not q for t, (_, q) in zip(totals[:won], steps, strict=False))


def test_ranges_by_level_type() -> None:
    base = {"reset": 100_000, "rate_bp": 100, "reserve_rate_bp": 0}
    mhb = PoolConfig.from_json({**base, "level": "must_hit_by", "cap": 500_000})
    assert mhb.trigger_span == (100_001, 500_000)
    mystery = {**base, "reset": 10_000, "level": "mystery"}
    found = PoolConfig.from_json({**mystery, "trigger_low": 20_000, "trigger_high": 30_000})
    assert found.trigger_span == (20_000, 30_000)
    assert PoolConfig.from_json(base).trigger_span is None
    for body, field in (
        ({**base, "level": "must_hit_by", "cap": 100_000}, "cap"),  # a ceiling at the reset
        ({**base, "level": "must_hit_by"}, "cap"),
        ({**mystery, "trigger_low": 5_000, "trigger_high": 30_000}, "trigger_low"),  # below reset
        ({**mystery, "trigger_low": 30_000, "trigger_high": 20_000}, "trigger_low"),
        ({**mystery, "trigger_low": 20_000, "trigger_high": 30_000, "cap": 25_000}, "trigger_low"),
        ({**base, "trigger_low": 200_000, "trigger_high": 300_000}, "trigger_low"),
        ({**base, "qualifying_wager": 500}, "qualifying_wager"),
    ):
        with pytest.raises(ValidationError) as refused:
            PoolConfig.from_json(body)
        assert refused.value.field == field, body
    # a change of type drops what the old type alone had
    plain = PoolConfig.from_json({"level": "hand"}, found)
    assert (plain.level, plain.trigger_low, plain.qualifying_wager) == (LevelType.HAND, None, 0)
    assert mean_trigger_cents((100_001, 500_000)) == Fraction(600_001, 2)


def test_the_commitment_is_what_rules_md_tells_a_player_to_compute() -> None:
    """docs/RULES.md §4 gives a shell line for checking a reveal without the controller."""
    rules = (Path(__file__).resolve().parents[2] / "docs" / "RULES.md").read_text()
    (line,) = re.findall(r"^printf .* \| sha256sum$", rules, re.MULTILINE)
    salt = "9f" * 16
    out = subprocess.run(["bash", "-c", line], env={"SALT": salt, "PATH": "/usr/bin:/bin"},
                         capture_output=True, text=True, check=True).stdout  # fmt: skip
    assert out.split()[0] == commitment("hourly", 4211, salt)
