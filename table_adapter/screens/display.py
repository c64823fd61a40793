"""The controller's answer as the table shows it: who won what, envy included."""

from __future__ import annotations

from table_adapter.link.answers import BetAnswer, RoundAnswer


def dollars(cents: int) -> str:
    """Whole cents as `$1,234.56` (integer arithmetic only)."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}${whole:,}.{part:02d}"


def describe(answer: RoundAnswer) -> list[str]:
    """One line per winning bet and per jackpot; nothing for a round nobody won."""
    lines = [_bet_line(answer, bet) for bet in answer.bets if bet.won]
    for jp in answer.jackpots:
        who = f" ({jp.player})" if jp.player else ""
        lines.append(
            f"{answer.table} {answer.round}: JACKPOT {dollars(jp.amount)} from {jp.pool} to "
            f"spot {jp.spot}{who}, payout {jp.id} {jp.status} (hand pay)"
        )
    return lines


def meters(answer: RoundAnswer) -> str:
    """The fed pools' meters after the round, e.g. `main $1,234.56`."""
    return "  ".join(f"{pool} {dollars(value)}" for pool, value in answer.pools)


def _bet_line(answer: RoundAnswer, bet: BetAnswer) -> str:
    who = f" ({bet.player})" if bet.player else ""
    parts = []
    if bet.pay:
        parts.append(f"{bet.outcome} pays {dollars(bet.pay)}")
    if bet.jackpot:
        parts.append(f"meter {dollars(bet.jackpot)}")
    if bet.envy:
        parts.append(f"envy {dollars(bet.envy)}")
    return (
        f"{answer.table} {answer.round}: spot {bet.spot}{who} wins {dollars(bet.won)} "
        f"on {dollars(bet.wager)}: " + ", ".join(parts)
    )
