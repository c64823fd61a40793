"""Settle a round's side bets: outcomes, fixed pays, envy, the meter plan (docs/RULES.md §3, §4).

This module decides what each bet won; what the meter pays is jackpot.domain.meter: how much
of a bet goes to the meter (`contribute`) and what several hits in one round share
(`pay_hits`, by the pool's policy) are there. The live round runs both in
store/lua/settle_round.lua, which the tests hold to these."""

from __future__ import annotations

from dataclasses import dataclass

from jackpot.domain.config import TableConfig
from jackpot.domain.outcomes import Outcome, evaluate
from jackpot.domain.paytable import Envy, PayLine, Paytable
from jackpot.domain.report import Bet, RoundReport, Spot


@dataclass(frozen=True, slots=True)
class BetResult:
    """One bet's settlement, amounts in cents; `jackpot` is filled in by the meter."""

    spot: int
    player: str | None
    outcome: Outcome
    wager: int
    pay: int
    envy: int


@dataclass(frozen=True, slots=True)
class MeterHit:
    """A percentage pay the meter must apply, in settlement order."""

    bet: int  # index into Settlement.bets
    pool: str
    meter_bp: int
    # a bet below the line's qualifying wager wins (wager, qualifying wager) of the share;
    # None: the whole share (docs/RULES.md §4)
    scale: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class EnvyTrigger:
    """One envy-bearing spot and what it paid the table's other qualifying bets."""

    spot: int
    outcome: Outcome
    receivers: int
    total: int


@dataclass(frozen=True, slots=True)
class Settlement:
    bets: tuple[BetResult, ...]
    hits: tuple[MeterHit, ...]
    envies: tuple[EnvyTrigger, ...]
    wagered: int  # cents of progressive wagers in the round (every fed pool counts them)
    fixed_paid: int  # the bets' fixed pays, cents
    envy_paid: int  # the bets' envy bonuses, cents


def bet_outcome(spot: Spot, bet: Bet, report: RoundReport) -> Outcome:
    """A bet sees the war deal only if its own player went to war (docs/RULES.md §3)."""
    if bet.war or (spot.inline and spot.war):
        return evaluate(spot.card, report.dealer_card, spot.war_card, report.dealer_war_card)
    return evaluate(spot.card, report.dealer_card)


def settle(report: RoundReport, table: TableConfig) -> Settlement:
    """Outcomes, fixed pays, envy and meter hits of every bet, in settlement order."""
    placed = report.bets()
    outcomes = [bet_outcome(spot, bet, report) for spot, bet in placed]
    lines = [table.paytable.line(outcome) for outcome in outcomes]
    envy, envies = _envy(report, table, placed, outcomes, lines)
    results = []
    hits = []
    wagered = fixed = 0
    for i, ((spot, bet), outcome, line) in enumerate(zip(placed, outcomes, lines, strict=True)):
        pay = line.odds * bet.wager if line else 0
        if line and line.meter_bp:
            scale = line.meter_scale(bet.wager)
            if scale is None or scale[0]:  # a bet that wins nothing of the meter: no hit
                hits.append(MeterHit(i, line.pool or table.pools[0], line.meter_bp, scale))
        results.append(BetResult(spot.spot, bet.player, outcome, bet.wager, pay, envy[i]))
        wagered += bet.wager
        fixed += pay
    return Settlement(
        bets=tuple(results),
        hits=tuple(hits),
        envies=tuple(envies),
        wagered=wagered,
        fixed_paid=fixed,
        envy_paid=sum(envy),
    )


def _envy(
    report: RoundReport,
    table: TableConfig,
    placed: list[tuple[Spot, Bet]],
    outcomes: list[Outcome],
    lines: list[PayLine | None],
) -> tuple[list[int], list[EnvyTrigger]]:
    """Each bet's envy pay, and each spot's envy outcome that paid the others."""
    envy = [0] * len(placed)
    envies: list[EnvyTrigger] = []
    hitters_by_spot: dict[int, list[int]] = {}
    for i, line in enumerate(lines):
        if line is not None and line.envy is not None:
            hitters_by_spot.setdefault(placed[i][0].spot, []).append(i)
    if not hitters_by_spot:
        return envy, envies
    owners = [_owner(bet, i) for i, (_, bet) in enumerate(placed)]
    for spot in report.spots:
        hitters = hitters_by_spot.get(spot.spot)
        if hitters:
            envies.append(_envy_of_spot(spot, hitters, table, placed, outcomes, owners, envy))
    return envy, envies


def _envy_of_spot(
    spot: Spot,
    hitters: list[int],
    table: TableConfig,
    placed: list[tuple[Spot, Bet]],
    outcomes: list[Outcome],
    owners: list[str],
    envy: list[int],
) -> EnvyTrigger:
    """The envy one spot's hand pays every other player's qualifying bet (added to `envy`)."""
    # Several bets on one spot may hit different envy outcomes: the spot's best one counts.
    best = min((outcomes[i] for i in hitters), key=list(Outcome).index)
    envy_pay = _envy_line(table.paytable, best)
    assert envy_pay is not None
    excluded = {owners[i] for i in hitters}
    receivers = [
        i
        for i, (_, bet) in enumerate(placed)
        if owners[i] not in excluded and table.qualifies_for_envy(bet.wager)
    ]
    total = 0
    for i in receivers:
        amount = envy_pay.pay_for(placed[i][1].wager)
        envy[i] += amount
        total += amount
    return EnvyTrigger(spot.spot, best, len(receivers), total)


def _owner(bet: Bet, index: int) -> str:
    # A bet with no player id is its own player.
    return f"p:{bet.player}" if bet.player is not None else f"bet:{index}"


def _envy_line(paytable: Paytable, outcome: Outcome) -> Envy | None:
    line = paytable.line(outcome)
    return line.envy if line is not None else None
