"""The return check (issue 23, part 6): a table's paytable and the pools it feeds must return
less than 100% of the side wager over the long run, and at least the configured minimum.

The long run is `jackpot.domain.odds.long_run_return`: fixed pays, envy from the table's
other spots, and each level from its own pool (its contributions, and the resets it pays
out). A bet's return depends on its wager (below a line's qualifying wager it wins only its
part of the meter; a fixed envy amount is more of a small wager), so it is priced at every
wager where it can be highest or lowest: the table's smallest and largest, and each meter
line's qualifying wager between them. At each, the player plays the better of always going
to war and always surrendering.

A line or level that smaller bets feed but cannot win (a line paying `nothing` below its
qualifying wager, a trigger level's qualifying wager) is priced for the bets that can win it:
the smaller bets are assumed to bring a stated share of its handle, which is theirs to win
too (JACKPOT_BELOW_QUALIFYING_SHARE_BP, docs/DECISIONS.md D229). The share applies where a
table feeding the pool takes wagers below such a qualifying wager.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from jackpot.domain.config import PoolConfig, TableConfig
from jackpot.domain.odds import LongRunReturn, PoolTerms, long_run_return
from jackpot.domain.paytable import NOTHING, Paytable
from jackpot.errors import ValidationError

FULL_BP = 10_000


@dataclass(frozen=True, slots=True)
class PricedBet:
    wager: int  # cents
    result: LongRunReturn
    below_share: Fraction = Fraction(0)  # assumed of the handle smaller bets bring, if any

    @property
    def total(self) -> Fraction:
        return self.result.total


def won_from(
    paytable: Paytable, table_pools: Sequence[str], pools: Mapping[str, PoolTerms]
) -> dict[str, set[int]]:
    """Per pool, the qualifying wagers below which a bet feeds it but cannot win (that part
    of) it: a line paying `nothing` below its qualifying wager, a trigger level's own."""
    out: dict[str, set[int]] = {p: set() for p in table_pools}
    for pool, wager in _lines_paying_nothing_below(paytable, table_pools):
        out.setdefault(pool, set()).add(wager)
    for pool, wager in _trigger_levels_qualifying(table_pools, pools):
        out[pool].add(wager)
    return out


def _lines_paying_nothing_below(
    paytable: Paytable, table_pools: Sequence[str]
) -> Iterator[tuple[str, int]]:
    """Each meter line paying `nothing` below its qualifying wager: its pool and that wager."""
    for _, line in paytable.lines:
        if line.meter_bp and line.below_qualifying == NOTHING:
            yield line.pool or table_pools[0], line.qualifying_wager


def _trigger_levels_qualifying(
    table_pools: Sequence[str], pools: Mapping[str, PoolTerms]
) -> Iterator[tuple[str, int]]:
    """Each of the table's trigger levels with a qualifying wager: its pool and that wager."""
    for p in table_pools:
        if p in pools and pools[p].trigger is not None and pools[p].qualifying_wager:
            yield p, pools[p].qualifying_wager


def fed_below(
    qualifying: Mapping[str, set[int]], smallest: Mapping[str, int], wager: int, share: Fraction
) -> dict[str, Fraction]:
    """The share of each pool's handle that a bet of `wager` is priced as also winning: the
    assumed `share` where a table feeding the pool takes wagers (`smallest`, its least) below a
    qualifying wager this bet meets."""
    return {
        p: share
        for p, wagers in qualifying.items()
        if share and any(smallest.get(p, wager) < q <= wager for q in wagers)
    }


def priced(
    config: TableConfig,
    pools: Mapping[str, PoolConfig],
    below_share_bp: int = 0,
    smallest: Mapping[str, int] | None = None,
) -> list[PricedBet]:
    """The table's bet priced at each wager where its return can be highest or lowest (the
    player's better strategy at each). With `below_share_bp`, a level that smaller bets feed
    but cannot win is priced for those who can, the smaller bets bringing that share of its
    handle where a table feeding it takes them (`smallest`: per pool, the least wager a table
    feeding it takes; default this table's)."""
    terms = _pool_terms(config, pools)
    qualifying = won_from(config.paytable, config.pools, terms)
    least = {p: config.min_wager for p in config.pools} | dict(smallest or {})
    share = Fraction(below_share_bp, FULL_BP)
    out = []
    for wager in sorted(_telling_wagers(config, pools)):
        below = fed_below(qualifying, least, wager, share)
        best = _better_strategy(config, terms, wager, below)
        out.append(PricedBet(wager, best, share if below else Fraction(0)))
    return out


def _pool_terms(config: TableConfig, pools: Mapping[str, PoolConfig]) -> dict[str, PoolTerms]:
    """What each pool the table feeds does with a wager and a hit."""
    return {
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


def _telling_wagers(config: TableConfig, pools: Mapping[str, PoolConfig]) -> set[int]:
    """The wagers where the return can be highest or lowest: the table's smallest and
    largest, and each qualifying wager between them."""
    wagers = {config.min_wager, config.max_wager}
    for _, line in config.paytable.lines:
        if line.meter_bp and config.min_wager < line.qualifying_wager < config.max_wager:
            wagers.add(line.qualifying_wager)
    for p in config.pools:  # where a must-hit-by or mystery level starts to be won
        if config.min_wager < pools[p].qualifying_wager <= config.max_wager:
            wagers.add(pools[p].qualifying_wager)
    return wagers


def _better_strategy(
    config: TableConfig, terms: dict[str, PoolTerms], wager: int, below: dict[str, Fraction]
) -> LongRunReturn:
    """The long run of the player's better strategy: always war, or always surrender."""
    results = [
        long_run_return(
            config.paytable,
            config.decks,
            terms,
            war=war,
            wager=wager,
            other_bets=config.spots - 1,
            fed_below=below,
        )
        for war in (True, False)
    ]
    return max(results, key=lambda r: r.total)


def check_return(
    table: str,
    config: TableConfig,
    pools: Mapping[str, PoolConfig],
    min_return_bp: int,
    field: str,
    note: str = "",
    below_share_bp: int = 0,
    smallest: Mapping[str, int] | None = None,
) -> None:
    """A 400 naming `field` when the table's bet returns 100% or more at some wager, or less
    than `min_return_bp` (0: no minimum) at some wager; the message gives the figure (and
    `note`: which terms, when not those in force; and the share of handle assumed from bets
    below a qualifying wager, where one was)."""
    bets = priced(config, pools, below_share_bp, smallest)
    highest = max(bets, key=lambda b: b.total)
    if highest.total >= 1:
        raise ValidationError(
            field,
            f"table {table}: a {_dollars(highest.wager)} bet would return "
            f"{_percent(highest.total)} of its wager over the long run{note} "
            f"({_parts(highest)}){_assumed(highest)}: "
            "a paytable and its pools must return less than 100%",
            "return_too_high",
        )
    lowest = min(bets, key=lambda b: b.total)
    if min_return_bp and lowest.total < Fraction(min_return_bp, FULL_BP):
        raise ValidationError(
            field,
            f"table {table}: a {_dollars(lowest.wager)} bet would return "
            f"{_percent(lowest.total)} of its wager over the long run{note} "
            f"({_parts(lowest)}){_assumed(lowest)}, "
            f"below the minimum of {_percent(Fraction(min_return_bp, FULL_BP))} "
            "(JACKPOT_MIN_RETURN_BP)",
            "return_too_low",
        )


def _assumed(bet: PricedBet) -> str:
    if not bet.below_share:
        return ""
    return (
        f", assuming bets below its qualifying wager bring {_percent(bet.below_share)} of the "
        "handle of what they feed but cannot win (JACKPOT_BELOW_QUALIFYING_SHARE_BP)"
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
