"""Vectorised Monte Carlo of the progressive side bet, for paytable verification.

Each hand draws P1, D1 and, on a tie when the player goes to war, P2, D2 without
replacement from the 52 × decks physical cards of a full shoe (the model of
`jackpot.domain.odds`: burns and other spots' cards are unseen). numpy is the
optional `sim` extra and is imported only here.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from jackpot.domain.cards import DECK_SIZE
from jackpot.domain.outcomes import Outcome

Cards = npt.NDArray[np.int64]
#: Outcome codes: an outcome's position in docs/RULES.md §3 order.
OUTCOMES: tuple[Outcome, ...] = tuple(Outcome)
CODE = {outcome: code for code, outcome in enumerate(OUTCOMES)}
CHUNK = 1 << 20


def classify(p1: Cards, d1: Cards, p2: Cards | None = None, d2: Cards | None = None) -> Cards:
    """Outcome codes of hands given as physical card indices (0..52·decks-1).

    A physical index maps to `Card.from_index(i % 52)`; `p2`/`d2` are read only where
    P1 and D1 tie (pass them only for bets whose player went to war).
    """
    c1, e1 = p1 % DECK_SIZE, d1 % DECK_SIZE
    tie = (c1 >> 2) == (e1 >> 2)
    same1 = c1 == e1  # identical cards: same rank and suit
    codes = np.full(p1.shape, CODE[Outcome.NONE], dtype=np.int64)
    codes[tie] = CODE[Outcome.TIE]
    codes[same1] = CODE[Outcome.SUITED_TIE]
    if p2 is None or d2 is None:
        return codes
    c2, e2 = p2 % DECK_SIZE, d2 % DECK_SIZE
    war_tie = tie & ((c2 >> 2) == (e2 >> 2))
    both_same = war_tie & same1 & (c2 == e2)
    four = war_tie & ((c1 >> 2) == (c2 >> 2))
    # Assign from the weakest to the best so that the first match in docs/RULES.md §3 order wins.
    codes[war_tie] = CODE[Outcome.DOUBLE_TIE]
    codes[four] = CODE[Outcome.FOUR_OF_A_KIND]
    codes[both_same] = CODE[Outcome.SUITED_DOUBLE_TIE]
    codes[both_same & (c1 == c2)] = CODE[Outcome.SUITED_FOUR_OF_A_KIND]
    return codes


def deal_hands(
    rng: np.random.Generator, hands: int, decks: int, war: bool
) -> tuple[Cards, Cards, Cards | None, Cards | None]:
    """Physical indices of P1, D1 and, for tied hands only, P2 and D2 (index-aligned)."""
    size = DECK_SIZE * decks
    # The k-th draw is uniform over the size - k cards left: a uniform rank among them,
    # shifted past every card already drawn (taken in ascending order).
    p1 = rng.integers(0, size, hands, dtype=np.int64)
    d1 = rng.integers(0, size - 1, hands, dtype=np.int64)
    d1 += d1 >= p1
    if not war:
        return p1, d1, None, None
    tied = ((p1 % DECK_SIZE) >> 2) == ((d1 % DECK_SIZE) >> 2)
    low, high = np.minimum(p1, d1), np.maximum(p1, d1)
    p2 = np.full(hands, -1, dtype=np.int64)
    d2 = np.full(hands, -1, dtype=np.int64)
    ties = int(np.count_nonzero(tied))
    lo, hi = low[tied], high[tied]
    x = rng.integers(0, size - 2, ties, dtype=np.int64)
    x += x >= lo
    x += x >= hi
    first, last = np.minimum(lo, x), np.maximum(hi, x)
    middle = lo + hi + x - first - last
    y = rng.integers(0, size - 3, ties, dtype=np.int64)
    y += y >= first
    y += y >= middle
    y += y >= last
    p2[tied], d2[tied] = x, y
    return p1, d1, p2, d2


def simulate(
    hands: int, decks: int = 6, *, war: bool = True, seed: int | None = None
) -> dict[Outcome, int]:
    """Counts of each side-bet outcome over `hands` independent hands from full shoes."""
    if hands < 0 or not 1 <= decks <= 8:
        raise ValueError("hands must not be negative and decks must be 1..8")
    rng = np.random.default_rng(seed)
    totals = np.zeros(len(OUTCOMES), dtype=np.int64)
    done = 0
    while done < hands:
        n = min(CHUNK, hands - done)
        totals += _chunk(rng, n, decks, war)
        done += n
    return {outcome: int(totals[code]) for code, outcome in enumerate(OUTCOMES)}


def _chunk(rng: np.random.Generator, n: int, decks: int, war: bool) -> Cards:
    p1, d1, p2, d2 = deal_hands(rng, n, decks, war)
    if p2 is None or d2 is None:
        codes = classify(p1, d1)
    else:
        # Classify only the tied hands at war; every other hand is `none`.
        tied = p2 >= 0
        codes = classify(p1[tied], d1[tied], p2[tied], d2[tied])
    counts = np.bincount(codes, minlength=len(OUTCOMES))
    counts[CODE[Outcome.NONE]] += n - codes.size
    return counts.astype(np.int64)
