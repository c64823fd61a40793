"""Exact odds of the progressive side bet (docs/RULES.md §3) and the return of a paytable.

Model: P1, D1 and, on a war, P2, D2 are four cards drawn without replacement
from a full shoe of 52 × decks cards. Burn cards and other spots' cards are
unseen, so by symmetry they do not change this distribution. Probabilities are
counted by card class (the identical card, its rank in another suit, another
rank), never simulated; every figure is an exact Fraction.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from jackpot.domain.cards import DECK_SIZE
from jackpot.domain.config import LevelType
from jackpot.domain.outcomes import Outcome
from jackpot.domain.paytable import FULL_METER_BP, PayLine, Paytable
from jackpot.domain.triggers import mean_trigger_cents

MAX_DECKS = 8
SUITS = 4
BASIS_POINTS = 10_000  # a pool's rates are basis points of each wager


def outcome_probabilities(decks: int, war: bool = True) -> dict[Outcome, Fraction]:
    """Exact probability of every outcome (in docs/RULES.md §3 order, summing to 1) for one bet."""
    if not 1 <= decks <= MAX_DECKS:
        raise ValueError(f"decks must be 1..{MAX_DECKS}, not {decks}")
    cards = DECK_SIZE * decks
    copies = decks  # of each card
    of_rank = SUITS * decks
    other_ranks = cards - of_rank
    # D1 against any P1.
    suited_tie = Fraction(copies - 1, cards - 1)
    tie = Fraction(of_rank - copies, cards - 1)
    probs = dict.fromkeys(Outcome, Fraction(0))
    probs[Outcome.NONE] = Fraction(other_ranks, cards - 1)
    if not war:
        probs[Outcome.SUITED_TIE] = suited_tie
        probs[Outcome.TIE] = tie
        return probs

    # Ordered (P2, D2) from the cards - 2 left after the tie.
    pairs = (cards - 2) * (cards - 3)

    # After a suited tie X, X: x copies of X left, s of X's rank in other suits.
    # (At one deck a suited tie cannot happen; x = 0 keeps the counts sane.)
    x, s = max(copies - 2, 0), of_rank - copies
    suited_four = x * (x - 1)
    # D2 identical to P2 when P2 is not X (P2 = X, D2 = X is the suited four).
    suited_double = (s + other_ranks) * (copies - 1)
    four = (x + s) * (x + s - 1) - suited_four - s * (copies - 1)
    double = other_ranks * (of_rank - copies)
    after_suited = pairs - suited_four - suited_double - four - double

    # After a plain tie X, Y: of_rank - 2 of the rank left; no suited pays.
    four_plain = (of_rank - 2) * (of_rank - 3)
    double_plain = other_ranks * (of_rank - 1)
    after_plain = pairs - four_plain - double_plain

    probs[Outcome.SUITED_FOUR_OF_A_KIND] = suited_tie * Fraction(suited_four, pairs)
    probs[Outcome.SUITED_DOUBLE_TIE] = suited_tie * Fraction(suited_double, pairs)
    probs[Outcome.FOUR_OF_A_KIND] = suited_tie * Fraction(four, pairs) + tie * Fraction(
        four_plain, pairs
    )
    probs[Outcome.DOUBLE_TIE] = suited_tie * Fraction(double, pairs) + tie * Fraction(
        double_plain, pairs
    )
    probs[Outcome.SUITED_TIE] = suited_tie * Fraction(after_suited, pairs)
    probs[Outcome.TIE] = tie * Fraction(after_plain, pairs)
    return probs


@dataclass(frozen=True, slots=True)
class OutcomeReturn:
    """One outcome's probability and its contributions to return, as fractions of the wager."""

    outcome: Outcome
    probability: Fraction
    fixed: Fraction
    meter: Fraction
    envy: Fraction

    @property
    def total(self) -> Fraction:
        return self.fixed + self.meter + self.envy


@dataclass(frozen=True, slots=True)
class PaytableReturn:
    """Expected return of one bet as exact fractions of its wager (the wager is never returned).

    The player's expected net per unit wagered is `total - 1`; the house edge is `1 - total`.
    """

    decks: int
    war: bool
    wager: int
    meter_cents: int
    other_bets: int
    outcomes: tuple[OutcomeReturn, ...]

    @property
    def fixed(self) -> Fraction:
        return sum((o.fixed for o in self.outcomes), Fraction(0))

    @property
    def meter(self) -> Fraction:
        return sum((o.meter for o in self.outcomes), Fraction(0))

    @property
    def envy(self) -> Fraction:
        return sum((o.envy for o in self.outcomes), Fraction(0))

    @property
    def total(self) -> Fraction:
        return self.fixed + self.meter + self.envy

    @property
    def house_edge(self) -> Fraction:
        return 1 - self.total


def paytable_return(
    paytable: Paytable,
    decks: int,
    *,
    war: bool = True,
    wager: int = 500,
    meter: int,
    other_bets: int,
) -> PaytableReturn:
    """Exact return of a `wager`-cent bet on `paytable`: fixed pays, meter pays and envy.

    Assumptions, stated because the meter and the table are not part of the odds:

    * Meter: every percentage pay is taken of a meter standing at `meter` cents
      when it hits (`floor_to_cent(pct × meter)`, docs/RULES.md §4), whichever pool it
      names; the caller passes the meter it assumes, e.g. the pool's reset.
    * Envy: the bet sits at a table with `other_bets` other qualifying bets,
      each of another player on its own spot, every player following the same
      war/surrender policy. A spot's P1, the dealer's D1, its war card and the
      dealer's D2 are four distinct draws from the shoe, so each other spot
      hits an envy-bearing outcome with the same marginal probability as this
      bet. The other spots share the dealer's cards, so their hits are
      correlated, but expectation is linear: the expected envy received is
      exactly `other_bets × P(outcome) × envy pay` — no independence is assumed.
    """
    if wager <= 0:
        raise ValueError("wager must be a positive number of cents")
    if meter < 0 or other_bets < 0:
        raise ValueError("meter and other_bets must not be negative")
    rows = []
    for outcome, probability in outcome_probabilities(decks, war).items():
        line = paytable.line(outcome)
        fixed = meter_part = envy = Fraction(0)
        if line is not None:
            fixed = probability * line.odds
            meter_pay = line.meter_bp * meter // FULL_METER_BP
            meter_part = probability * Fraction(meter_pay, wager)
            if line.envy is not None:
                envy = other_bets * probability * Fraction(line.envy.pay_for(wager), wager)
        rows.append(OutcomeReturn(outcome, probability, fixed, meter_part, envy))
    return PaytableReturn(decks, war, wager, meter, other_bets, tuple(rows))


@dataclass(frozen=True, slots=True)
class BaseGame:
    """The base game's house edge, as exact fractions of the initial wager.

    The pays, per initial wager of 1: a spot that does not tie wins or loses 1 (even money,
    the same chance either way); a tie surrenders (−½) or goes to war (a war wager of 1
    more): the war card above the dealer's wins 1 (the war wager paid even money, the initial
    wager a push), below it loses 2, and a tie at war wins 1, or 2 with the tie-after-war
    bonus (the initial wager paid even money too; seed rules paying a war wager 2:1 and 3:1
    on a war tie after collecting the initial wager come to the same +1 / −2 / +2).
    """

    decks: int
    tie_bonus: bool
    war_edge: Fraction  # the player always goes to war
    surrender_edge: Fraction  # the player always surrenders


def base_game(decks: int, tie_bonus: bool = True) -> BaseGame:
    """Exact house edge of the base game at `decks` decks: cards drawn without replacement,
    counted by rank class (the tied rank has two cards fewer at war)."""
    if not 1 <= decks <= MAX_DECKS:
        raise ValueError(f"decks must be 1..{MAX_DECKS}, not {decks}")
    cards = DECK_SIZE * decks
    of_rank = SUITS * decks
    tie = Fraction(of_rank - 1, cards - 1)
    left = cards - 2
    war_tie = Fraction(of_rank - 2, left) * Fraction(of_rank - 3, left - 1) + Fraction(
        left - (of_rank - 2), left
    ) * Fraction(of_rank - 1, left - 1)
    war_win = (1 - war_tie) / 2  # the two war cards are exchangeable
    war_value = war_win * 1 + war_win * -2 + war_tie * (2 if tie_bonus else 1)
    return BaseGame(decks, tie_bonus, -tie * war_value, tie * Fraction(1, 2))


@dataclass(frozen=True, slots=True)
class PoolTerms:
    """What a pool does with each wager and each hit: its reset (cents) and its rates; for a
    must-hit-by or mystery level, the whole cents its trigger is drawn from and the smallest
    wager that can win it."""

    reset: int
    rate_bp: int
    reserve_rate_bp: int
    trigger: tuple[int, int] | None = None
    qualifying_wager: int = 0
    level: LevelType = LevelType.HAND


@dataclass(frozen=True, slots=True)
class LevelReturn:
    """One pool's part in a bet's long-run return, as fractions of the wager.

    Over the long run a meter pays out all that is put on it: every contribution, and every
    reset it is topped up to after a hit that empties it. So a pool returns its contribution
    rate, plus each reset once per hit that takes the whole meter. The reserve's rate funds
    those resets; the house funds what it lacks (`house_funding`), and what it gathers beyond
    them (`reserve_surplus`) is held, not returned, until an adjustment moves it.
    """

    pool: str
    hit: Fraction  # per bet: a line paying from this pool
    empties: Fraction  # per bet: a line paying all of it (the meter is reset after)
    contribution: Fraction  # of each unit wagered, onto the meter
    reserve: Fraction  # of each unit wagered, into the reserve
    resets: Fraction  # resets paid out, per unit wagered
    # the share of the meter's handle from smaller bets that cannot win it: what they put on
    # it goes to the bets that can, so each of those gets contribution / (1 - fed_below)
    fed_below: Fraction = Fraction(0)

    @property
    def cycle(self) -> Fraction | None:
        """Mean bets between two hits of this pool (None: it never pays)."""
        return 1 / self.hit if self.hit else None

    @property
    def total(self) -> Fraction:
        """What it returns: its contributions (and those of the smaller bets that cannot win
        it), if anything ever pays them, and its resets."""
        return (self.contribution / (1 - self.fed_below) if self.hit else Fraction(0)) + self.resets

    @property
    def house_funding(self) -> Fraction:
        return max(self.resets - self.reserve, Fraction(0))

    @property
    def reserve_surplus(self) -> Fraction:
        return max(self.reserve - self.resets, Fraction(0))


@dataclass(frozen=True, slots=True)
class LongRunReturn:
    """A bet's return over the long run: fixed pays, envy, and every level from its own
    pool (`LevelReturn`), as exact fractions of the wager."""

    fixed: Fraction
    envy: Fraction
    levels: tuple[LevelReturn, ...]

    @property
    def total(self) -> Fraction:
        return self.fixed + self.envy + sum((lv.total for lv in self.levels), Fraction(0))

    @property
    def house_edge(self) -> Fraction:
        return 1 - self.total


def trigger_hit(terms: PoolTerms, wager: int) -> Fraction:
    """The chance that a bet of `wager` cents wins a must-hit-by or mystery level, when every
    bet is of it: the meter climbs `wager` × rate a bet from its reset to a trigger drawn
    uniformly over the range, so a cycle lasts (mean trigger − reset) ÷ (wager × rate) bets,
    and each bet is as likely as any to be the one that reaches it (the fraction of the last
    bet's contribution past the trigger, under a cent a cycle, is left out). A wager below the
    level's qualifying wager never wins it (0)."""
    if terms.trigger is None or wager < terms.qualifying_wager or not terms.rate_bp:
        return Fraction(0)
    climb = mean_trigger_cents(terms.trigger) - terms.reset  # cents, to the mean trigger
    return Fraction(wager * terms.rate_bp, BASIS_POINTS) / climb


def long_run_return(
    paytable: Paytable,
    decks: int,
    pools: dict[str, PoolTerms],
    *,
    war: bool = True,
    wager: int = 500,
    other_bets: int,
    fed_below: Mapping[str, Fraction] | None = None,
) -> LongRunReturn:
    """The long-run return of a `wager`-cent bet at a table feeding `pools` (in the table's
    order: the first is the one a line naming no pool pays from).

    `fed_below` gives, per pool, the share of its handle assumed to come from smaller bets
    that feed it but cannot win it (`jackpot.domain.returns.fed_below`): the bet is then priced
    as one of those who can, the rest of the handle being theirs too. What the others put on
    the meter is paid to them: a level returns its contribution ÷ (1 − share); a trigger
    level's cycle is that much shorter in their bets, so its resets come as much more often;
    a hand level's hit chance is its lines', its resets unchanged.

    Each level is priced from its own pool, not from one assumed meter: a level returns its
    contribution rate and, for each hit that takes the whole meter, the reset it is topped up
    to. A line paying part of a meter leaves it to the contributions: exact while such a hit
    leaves the meter at or above its reset (no top-up), as it does once the meter has grown
    past reset / (1 - the part paid). Every bet is assumed to be of `wager`: below a line's
    qualifying wager it takes only its part of the meter (so it never empties it: no reset
    is paid out), or nothing (so it never hits). Envy is as in `paytable_return`.
    """
    if not pools:
        raise ValueError("a table feeds at least one pool")
    base = paytable_return(paytable, decks, war=war, wager=wager, meter=0, other_bets=other_bets)
    hit, empties = _hand_hits(paytable, base, pools, wager)
    below = dict(fed_below or {})
    for pool, terms in pools.items():
        if terms.trigger is not None:  # won by reaching its trigger, not by a hand
            share = below.get(pool, Fraction(0))
            hit[pool] = empties[pool] = trigger_hit(terms, wager) / (1 - share)
    levels = tuple(
        LevelReturn(
            pool,
            hit[pool],
            empties[pool],
            Fraction(terms.rate_bp, BASIS_POINTS),
            Fraction(terms.reserve_rate_bp, BASIS_POINTS),
            empties[pool] * Fraction(terms.reset, wager),
            below.get(pool, Fraction(0)),
        )
        for pool, terms in pools.items()
    )
    return LongRunReturn(base.fixed, base.envy, levels)


def _hand_hits(
    paytable: Paytable, base: PaytableReturn, pools: dict[str, PoolTerms], wager: int
) -> tuple[dict[str, Fraction], dict[str, Fraction]]:
    """Per pool, the chance a bet of `wager` hits it by its hand (a line paying a percentage
    of it), and the chance it empties it (a line paying all of it, at full scale)."""
    first = next(iter(pools))
    hit = dict.fromkeys(pools, Fraction(0))
    empties = dict.fromkeys(pools, Fraction(0))
    for row in base.outcomes:
        line = paytable.line(row.outcome)
        if line is None or not line.meter_bp:
            continue
        pool = line.pool or first
        if pool not in pools:
            raise ValueError(f"the paytable pays a percentage of pool {pool!r}, not fed")
        hits, empties_it = _meter_line_at(line, wager)
        if hits:
            hit[pool] += row.probability
        if empties_it:
            empties[pool] += row.probability
    return hit, empties


def _meter_line_at(line: PayLine, wager: int) -> tuple[bool, bool]:
    """Whether a line paying a percentage of a meter hits it for a bet of `wager`, and
    whether it empties it (pays all of it, at full scale)."""
    scale = line.meter_scale(wager)
    if scale is not None and not scale[0]:
        return False, False  # below the line's qualifying wager, and it pays nothing there
    return True, line.meter_bp == FULL_METER_BP and scale is None
