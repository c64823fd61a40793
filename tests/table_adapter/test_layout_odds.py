"""Linked tables may deal different layouts (RULES §4): a bet's odds are the same whether its
war card is its own (standard), dealt after three more burns (South Dakota) or the community
card of a Stadium table. `jackpot math`'s exact odds hold for the real deals of each layout."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from fractions import Fraction

import pytest

from jackpot.domain.outcomes import Outcome
from table_adapter.game.bets import Bet
from table_adapter.game.engine import Table
from table_adapter.game.records import Round
from tests.support.statistics import P_FLOOR, chi_square

pytest.importorskip("scipy.stats")

ROUNDS = 60_000


def jackpot_math_odds(decks: int) -> dict[Outcome, Fraction]:
    """The exact per-bet odds as `jackpot math --json` prints them (players go to war)."""
    out = subprocess.run(
        [sys.executable, "-m", "jackpot.cli.main", "math", "--json"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    result = next(r for r in json.loads(out.stdout)["results"] if r["decks"] == decks and r["war"])
    odds = {Outcome(o["outcome"]): Fraction(o["probability"]["exact"]) for o in result["outcomes"]}
    return odds


@pytest.fixture(scope="module")
def six_deck_odds() -> dict[Outcome, Fraction]:
    return jackpot_math_odds(6)


@pytest.mark.slow
@pytest.mark.parametrize("profile", ["wisconsin", "south_dakota", "stadium"])
def test_every_layout_deals_the_odds_jackpot_math_prints(
    profile: str, six_deck_odds: dict[Outcome, Fraction]
) -> None:
    # one bet a round (spot 1): bets on hands that share a community war card are not
    # independent of each other, but each one alone has the odds of any other layout
    table = Table("T1", profile, seed=97)
    bets = [Bet(s, 1000, side=100, player=f"p{s}") for s in range(1, 8)]
    counts: Counter[Outcome] = Counter()
    while sum(counts.values()) < ROUNDS:
        rnd = table.play_round(bets)
        if isinstance(rnd, Round):
            counts.update(r.outcome for r in rnd.results_on(1) if r.outcome is not None)
    assert counts[Outcome.DOUBLE_TIE] > 0  # the war deal was reached
    assert chi_square({o: counts[o] for o in Outcome}, six_deck_odds) > P_FLOOR
