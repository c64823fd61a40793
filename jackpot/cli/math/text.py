"""`jackpot math` as text: a table per deck count, the long run per pool, the base game."""

from __future__ import annotations

from fractions import Fraction

from jackpot.cli.formatting import money
from jackpot.cli.math.figures import Figures
from jackpot.domain.config import LevelType
from jackpot.domain.odds import BaseGame, LongRunReturn, OutcomeReturn, PaytableReturn, PoolTerms
from jackpot.domain.paytable import FULL_METER_BP, PayLine, Paytable


def text(figures: Figures) -> str:
    """Every table, in the order they are printed."""
    parts = [_table(r, figures.paytable) for r in figures.results]
    parts += [
        _long_run(r.decks, lr, figures.pools)
        for r, lr in zip(figures.results, figures.long_run, strict=False)
    ]
    if figures.below:
        share = next(iter(figures.below.values()))
        parts.append(
            f"assumed: bets below a qualifying wager bring {percent(share)} of the handle "
            f"of {', '.join(sorted(figures.below))} (fed, not won by them; priced for a "
            f"{money(figures.wager)} bet that can win it: --below-share)"
        )
    return "\n\n".join([*parts, _games(figures.games)])


def _table(result: PaytableReturn, paytable: Paytable) -> str:
    play = "always surrenders" if not result.war else "always goes to war"
    lines = [
        f"{result.decks} decks, player {play}; wager {money(result.wager)}, "
        f"meter {money(result.meter_cents)}, {result.other_bets} other bets",
        f"{'outcome':<22} {'1 in':>11}  {'probability':<20} {'pays':<40}"
        f" {'fixed':>8} {'meter':>8} {'envy':>8}",
    ]
    for row in result.outcomes:
        lines.append(_row(row, paytable.line(row.outcome), result.wager))
    lines += _totals(
        ("fixed-pay return", result.fixed),
        ("meter return", result.meter),
        ("envy return", result.envy),
        ("total return", result.total),
        ("house edge", result.house_edge),
    )
    return "\n".join(lines)


def _totals(*rows: tuple[str, Fraction]) -> list[str]:
    """A table's closing lines: a label and a percentage each."""
    return [f"{label:<18} {percent(value):>9}" for label, value in rows]


def _row(row: OutcomeReturn, line: PayLine | None, wager: int) -> str:
    one_in = f"{float(1 / row.probability):,.1f}" if row.probability else "never"
    return (
        f"{row.outcome.value:<22} {one_in:>11}  {exact(row.probability):<20}"
        f" {_pays(line, wager):<40} {percent(row.fixed):>8} {percent(row.meter):>8}"
        f" {percent(row.envy):>8}"
    )


def _pays(line: PayLine | None, wager: int) -> str:
    if line is None:
        return "loses"
    parts = [f"{line.odds} to 1"]
    if line.meter_bp:
        parts.append(f"+ {line.meter_bp * 100 / FULL_METER_BP:g}% meter")
    if line.envy is not None:
        parts.append(f"+ envy {money(line.envy.pay_for(wager))}")
    return " ".join(parts)


def percent(value: Fraction) -> str:
    return f"{float(value) * 100:.4f}%"


def _won_by(terms: PoolTerms) -> str:
    """A trigger level's kind and range, for its line of the table."""
    assert terms.trigger is not None
    low, high = terms.trigger
    if terms.level is LevelType.MUST_HIT_BY:
        return f"must hit by {money(high)}"
    return f"mystery {money(low)}-{money(high)}"


def _long_run(decks: int, result: LongRunReturn, pools: dict[str, PoolTerms]) -> str:
    """Each level from its own pool: how often it hits and what it gives back over time (a
    must-hit-by or mystery level: its cycle from its reset to its mean trigger)."""
    names = [
        lv.pool if terms.trigger is None else f"{lv.pool} ({_won_by(terms)})"
        for lv, terms in zip(result.levels, pools.values(), strict=True)
    ]
    width = max(14, *(len(name) for name in names))
    lines = [
        f"{decks} decks, over the long run, each level from its own pool",
        f"{'pool':<{width}} {'hits 1 in':>12} {'contributes':>12} {'resets':>9} {'returns':>9}"
        f" {'house funds':>12} {'reserve keeps':>14}",
    ]
    for lv, name in zip(result.levels, names, strict=True):
        cycle = f"{float(lv.cycle):,.1f}" if lv.cycle is not None else "never"
        lines.append(
            f"{name:<{width}} {cycle:>12} {percent(lv.contribution):>12}"
            f" {percent(lv.resets):>9} {percent(lv.total):>9}"
            f" {percent(lv.house_funding):>12} {percent(lv.reserve_surplus):>14}"
        )
    lines += _totals(
        ("fixed-pay return", result.fixed),
        ("envy return", result.envy),
        ("long-run return", result.total),
        ("house edge", result.house_edge),
    )
    return "\n".join(lines)


def _games(games: list[tuple[BaseGame, BaseGame]]) -> str:
    """The base game's house edge (the initial wager's), beside the side bet's."""
    lines = [
        "base game house edge, of the initial wager",
        f"{'decks':>5}  {'always war, tie bonus':>22} {'always war, no bonus':>21}"
        f" {'always surrender':>17}",
    ]
    for bonus, plain in games:
        lines.append(
            f"{bonus.decks:>5}  {percent(bonus.war_edge):>22} {percent(plain.war_edge):>21}"
            f" {percent(bonus.surrender_edge):>17}"
        )
    lines.append(
        "(war won +1, lost -2; a tie at war +2 with the tie-after-war bonus, +1 without; "
        "surrender -1/2)"
    )
    return "\n".join(lines)


def exact(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"
