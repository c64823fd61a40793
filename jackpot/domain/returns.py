"""The return check (issue 23, part 6): a table's paytable and the pools it feeds must return
less than 100% of the side wager over the long run, and at least the configured minimum.

The long run is `jackpot.domain.odds.long_run_return`: fixed pays, envy from the table's
other spots, and each level from its own pool (its contributions, and the resets it pays
out). A bet's return depends on its wager (below a line's qualifying wager it wins only its
part of the meter; a fixed envy amount is more of a small wager), so it is priced at every
wager where it can be highest or lowest: the table's smallest and largest, and each meter
line's qualifying wager between them. At each, the player plays the better of always going
to war and always surrendering.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from jackpot.domain.config import PoolConfig, TableConfig
from jackpot.domain.odds import LongRunReturn, PoolTerms, long_run_return
from jackpot.errors import ValidationError

FULL_BP = 10_000


@dataclass(frozen=True, slots=True)
class PricedBet:
    wager: int  # cents
    result: LongRunReturn

    @property
    def total(self) -> Fraction:
        return self.result.total


def priced(config: TableConfig, pools: Mapping[str, PoolConfig]) -> list[PricedBet]:
    """The table's bet priced at each wager where its return can be highest or lowest (the
    player's better strategy at each)."""
    terms = {
        p: PoolTerms(
            pools[p].reset,
            pools[p].rate_bp,
            pools[p].reserve_rate_bp,
            pools[p].trigger_span,
            pools[p].qualifying_wager,
            pools[p].level,
        )
        for p in config.pools
    }
    wagers = {config.min_wager, config.max_wager}
    for _, line in config.paytable.lines:
        if line.meter_bp and config.min_wager < line.qualifying_wager < config.max_wager:
            wagers.add(line.qualifying_wager)
    for p in config.pools:  # where a must-hit-by or mystery level starts to be won
        if config.min_wager < pools[p].qualifying_wager <= config.max_wager:
            wagers.add(pools[p].qualifying_wager)
    out = []
    for wager in sorted(wagers):
        results = [
            long_run_return(
                config.paytable,
                config.decks,
                terms,
                war=war,
                wager=wager,
                other_bets=config.spots - 1,
            )
            for war in (True, False)
        ]
        out.append(PricedBet(wager, max(results, key=lambda r: r.total)))
    return out


def check_return(
    table: str,
    config: TableConfig,
    pools: Mapping[str, PoolConfig],
    min_return_bp: int,
    field: str,
    note: str = "",
) -> None:
    """A 400 naming `field` when the table's bet returns 100% or more at some wager, or less
    than `min_return_bp` (0: no minimum) at some wager; the message gives the figure (and
    `note`: which terms, when not those in force)."""
    bets = priced(config, pools)
    highest = max(bets, key=lambda b: b.total)
    if highest.total >= 1:
        raise ValidationError(
            field,
            f"table {table}: a {_dollars(highest.wager)} bet would return "
            f"{_percent(highest.total)} of its wager over the long run{note} "
            f"({_parts(highest)}): "
            "a paytable and its pools must return less than 100%",
            "return_too_high",
        )
    lowest = min(bets, key=lambda b: b.total)
    if min_return_bp and lowest.total < Fraction(min_return_bp, FULL_BP):
        raise ValidationError(
            field,
            f"table {table}: a {_dollars(lowest.wager)} bet would return "
            f"{_percent(lowest.total)} of its wager over the long run{note} "
            f"({_parts(lowest)}), "
            f"below the minimum of {_percent(Fraction(min_return_bp, FULL_BP))} "
            "(JACKPOT_MIN_RETURN_BP)",
            "return_too_low",
        )


def _parts(bet: PricedBet) -> str:
    r = bet.result
    levels = ", ".join(f"pool {lv.pool} {_percent(lv.total)}" for lv in r.levels)
    return f"fixed pays {_percent(r.fixed)}, envy {_percent(r.envy)}, {levels}"


def _percent(x: Fraction) -> str:
    hundredths = x * 10_000
    return f"{int(hundredths) // 100}.{int(hundredths) % 100:02d}%"


def _dollars(cents: int) -> str:
    return f"${cents // 100:,}.{cents % 100:02d}"
