"""The progressive side bet's outcomes (docs/RULES.md §3) and their evaluation."""

from __future__ import annotations

from enum import StrEnum

from jackpot.domain.cards import Card


class Outcome(StrEnum):
    """Outcomes in docs/RULES.md §3 order: the first that matches wins."""

    SUITED_FOUR_OF_A_KIND = "suited_four_of_a_kind"
    SUITED_DOUBLE_TIE = "suited_double_tie"
    FOUR_OF_A_KIND = "four_of_a_kind"
    DOUBLE_TIE = "double_tie"
    SUITED_TIE = "suited_tie"
    TIE = "tie"
    NONE = "none"


#: Outcomes that can pay, best first.
WINNING_OUTCOMES: tuple[Outcome, ...] = tuple(o for o in Outcome if o is not Outcome.NONE)
#: Outcomes that need the war deal.
WAR_OUTCOMES = frozenset(
    {
        Outcome.SUITED_FOUR_OF_A_KIND,
        Outcome.SUITED_DOUBLE_TIE,
        Outcome.FOUR_OF_A_KIND,
        Outcome.DOUBLE_TIE,
    }
)


def evaluate(p1: Card, d1: Card, p2: Card | None = None, d2: Card | None = None) -> Outcome:
    """Outcome of one bet; `p2`/`d2` only when its player went to war on a tie."""
    if p1.rank != d1.rank:
        return Outcome.NONE
    if p2 is not None and d2 is not None and p2.rank == d2.rank:
        if p1 == d1 == p2 == d2:
            return Outcome.SUITED_FOUR_OF_A_KIND
        if p1 == d1 and p2 == d2:
            return Outcome.SUITED_DOUBLE_TIE
        if p1.rank == p2.rank:
            return Outcome.FOUR_OF_A_KIND
        return Outcome.DOUBLE_TIE
    return Outcome.SUITED_TIE if p1 == d1 else Outcome.TIE
