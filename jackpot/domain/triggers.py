"""Hidden triggers of the levels no hand wins (issue 28): drawn, committed, revealed, checked.

A **must-hit-by** level advertises a ceiling ("Must hit by $5,000") and hides where below it
the meter will be won: its trigger, drawn at each reset uniformly over the whole cents above
the reset up to the ceiling. A **mystery** level hides a trigger drawn over a configured range
and advertises nothing of it. The contribution that makes the meter reach the trigger wins it.

So that nobody has to trust the controller that the trigger was fixed before play and not
chosen afterwards, each draw is **committed**: the controller publishes
SHA-256("jackpot-trigger-v1", pool, trigger, salt), never the trigger; at the hit it
reveals the trigger and the 128-bit salt. Anyone holding the published commitment checks the
reveal (`revealed`) and, from the journal's contributions, that the meter reached the trigger
exactly on the winning contribution and on no earlier one (`crossing`). The salt keeps a
commitment from being opened by trying every cent of the range, and makes every draw's
commitment its own; the journal entry that arms a draw records which draw it is.

Triggers are drawn in Python from the operating system's CSPRNG (`secrets`), never in Lua and
never from a seed anyone could guess; tests pass a generator of their own.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from random import Random

from jackpot.domain.meter import UNITS_PER_CENT

COMMITMENT_TAG = "jackpot-trigger-v1"
SALT_BYTES = 16


class LevelType(StrEnum):
    HAND = "hand"  # won by paytable lines, as every level before issue 28
    MUST_HIT_BY = "must_hit_by"  # a hidden trigger between the reset and an advertised ceiling
    MYSTERY = "mystery"  # a hidden trigger in a configured range, nothing of it advertised


@dataclass(frozen=True, slots=True)
class Trigger:
    """One draw of a level's trigger: where the meter will be won (whole cents), the salt that
    hides it, and the commitment published while it is hidden."""

    pool: str
    cents: int
    salt: str  # hex
    commitment: str  # hex

    @property
    def units(self) -> int:
        return self.cents * UNITS_PER_CENT


def trigger_range(
    kind: LevelType, reset_cents: int, ceiling_cents: int | None, low: int | None, high: int | None
) -> tuple[int, int]:
    """The whole cents a level's trigger is drawn from, both ends included: must-hit-by, from
    a cent above the reset to the ceiling; mystery, its configured `low`..`high`."""
    if kind is LevelType.MUST_HIT_BY:
        if ceiling_cents is None or ceiling_cents <= reset_cents:
            raise ValueError("a must-hit-by level's ceiling is above its reset")
        return reset_cents + 1, ceiling_cents
    if kind is LevelType.MYSTERY:
        if low is None or high is None or not reset_cents < low <= high:
            raise ValueError("a mystery level's range lies above its reset, low to high")
        return low, high
    raise ValueError("a hand level has no trigger")


def draw_trigger(pool: str, span: tuple[int, int], rng: Random | None = None) -> Trigger:
    """A trigger drawn uniformly over `span` (whole cents, both ends included) with a fresh
    salt, and its commitment. `rng`: the tests' own generator; otherwise the system's CSPRNG."""
    low, high = span
    if high < low:
        raise ValueError("an empty range")
    source = rng if rng is not None else secrets.SystemRandom()  # os.urandom underneath
    cents = low + source.randrange(high - low + 1)
    salt = source.randbytes(SALT_BYTES).hex()
    return Trigger(pool, cents, salt, commitment(pool, cents, salt))


def commitment(pool: str, cents: int, salt: str) -> str:
    """SHA-256 over the tag, the pool, the trigger and the salt, each length-prefixed so no
    two different draws hash alike."""
    digest = hashlib.sha256()
    for part in (COMMITMENT_TAG, pool, str(cents), salt):
        data = part.encode()
        digest.update(f"{len(data)}:".encode() + data)
    return digest.hexdigest()


def revealed(published: str, pool: str, cents: int, salt: str) -> bool:
    """Whether a revealed trigger and salt open the commitment published for that draw."""
    return hmac.compare_digest(published, commitment(pool, cents, salt))


def crossing(before_units: int, contributions: Iterable[int], trigger_units: int) -> int | None:
    """The index of the contribution that makes the meter reach the trigger, from the meter
    `before_units` (None when none does; 0-based). A meter already at the trigger is never
    won without a contribution."""
    meter = before_units
    for i, units in enumerate(contributions):
        meter += units
        if units > 0 and meter >= trigger_units:
            return i
    return None


def mean_trigger_cents(span: tuple[int, int]) -> Fraction:
    """The expected trigger of a uniform draw over `span` (whole cents), exactly."""
    low, high = span
    return Fraction(low + high, 2)
