"""Players' decisions on a tie: war or surrender (docs/RULES.md §2), and the decision timer."""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Protocol

from jackpot.domain.cards import Card


class Decision(StrEnum):
    """What a player does with a tied initial wager."""

    WAR = "war"
    SURRENDER = "surrender"


@dataclass(frozen=True, slots=True)
class Tie:
    """A tied wager awaiting its player's decision."""

    spot: int
    player: str | None
    card: Card
    dealer_card: Card
    stake: int  # the initial (or dealer) wager a war wager must match, in cents
    side_wager: int
    for_dealer: bool = False  # Stadium: the player's wager on the dealer tied


@dataclass(frozen=True, slots=True)
class Answer:
    """A decision and how long the player took to give it."""

    decision: Decision
    after_ms: int = 0


class Strategy(Protocol):
    """Decides one tie; None means the player never answers."""

    def decide(self, tie: Tie, rng: random.Random) -> Answer | None: ...


@dataclass(frozen=True, slots=True)
class Always:
    """Always the same decision, at once."""

    decision: Decision

    def decide(self, tie: Tie, rng: random.Random) -> Answer | None:
        """Answer `decision` immediately."""
        return Answer(self.decision)


@dataclass(frozen=True, slots=True)
class Mix:
    """War with probability `war_share`, drawn per decision from the game's RNG."""

    war_share: float = 0.5

    def decide(self, tie: Tie, rng: random.Random) -> Answer | None:
        """Answer war or surrender at random."""
        return Answer(Decision.WAR if rng.random() < self.war_share else Decision.SURRENDER)


@dataclass(frozen=True, slots=True)
class Slow:
    """Another strategy's decision, given after `after_ms` milliseconds."""

    inner: Strategy
    after_ms: int

    def decide(self, tie: Tie, rng: random.Random) -> Answer | None:
        """The inner answer, delayed."""
        answer = self.inner.decide(tie, rng)
        return None if answer is None else Answer(answer.decision, self.after_ms)


@dataclass(frozen=True, slots=True)
class Silent:
    """A player who never answers (walked away from the terminal)."""

    def decide(self, tie: Tie, rng: random.Random) -> Answer | None:
        """No answer."""
        return None


WAR = Always(Decision.WAR)
SURRENDER = Always(Decision.SURRENDER)
MIX = Mix()
STRATEGIES: dict[str, Strategy] = {"war": WAR, "surrender": SURRENDER, "mix": MIX}


def get_strategy(name: str) -> Strategy:
    """The strategy called `war`, `surrender` or `mix`."""
    try:
        return STRATEGIES[name]
    except KeyError:
        raise KeyError(f"unknown strategy {name!r}: one of {', '.join(STRATEGIES)}") from None


def war_share(strategy: Strategy) -> Fraction:
    """How often `strategy` takes a tie to war, when answered in time (for the exact edge)."""
    if isinstance(strategy, Always):
        return Fraction(strategy.decision is Decision.WAR)
    if isinstance(strategy, Mix):
        return Fraction(strategy.war_share).limit_denominator(1_000_000)
    if isinstance(strategy, Slow):
        return war_share(strategy.inner)
    return Fraction(0)  # silent: the timer surrenders every tie


def resolve(answer: Answer | None, timer_ms: int | None) -> tuple[Decision, bool]:
    """The decision that stands and whether the timer made it: an undecided tie surrenders."""
    if answer is None:
        return Decision.SURRENDER, True
    if timer_ms is not None and answer.after_ms > timer_ms:
        return Decision.SURRENDER, True
    return answer.decision, False
