"""The table's own counts of the controller's gaming days: what each acknowledgement adds to
them, and what the controller says when it compares them with what it holds."""

from __future__ import annotations

import json

from jackpot.domain.tablecounts import DayCounts
from table_adapter.link.answers import BetAnswer, RoundAnswer
from table_adapter.link.client import Delivery, Verdict
from table_adapter.link.journal import DayCount, Entry


def counted(entry: Entry, delivery: Delivery) -> DayCount | None:
    """What an acknowledgement adds to the table's counts of the controller's gaming day it
    names: a round (its side bets, handle and pays), or a void the table asked for and the
    controller holds for a person; None for anything else (or an older controller's answer,
    which names no day)."""
    if delivery.verdict is not Verdict.ACKED:
        return None
    if entry.void_of is None:
        return _round_counted(delivery.answer)
    return _void_counted(delivery.text)


def _round_counted(answer: RoundAnswer | None) -> DayCount | None:
    if answer is None or answer.gaming_day is None or answer.settled_at is None:
        return None
    return DayCount(answer.gaming_day, answer.settled_at, _round_counts(answer.bets))


def _round_counts(bets: tuple[BetAnswer, ...]) -> DayCounts:
    """One round's counts: its side bets, their handle and what the controller paid."""
    side = [b for b in bets if b.wager > 0]
    return DayCounts(
        rounds=1,
        side_bets=len(side),
        handle=sum(b.wager for b in side),
        fixed=sum(b.pay for b in bets),
        envy=sum(b.envy for b in bets),
        jackpot=sum(b.jackpot for b in bets),
    )


def _void_counted(text: str) -> DayCount | None:
    try:
        body = json.loads(text)
        held = body["awaiting_approval"] if body["result"] == "awaiting_approval" else None
        if held is None or not str(held["requested_by"]).startswith("table:"):
            return None  # applied, void already, or another's request: nothing the table asked
        return DayCount(str(body["gaming_day"]), int(body["at"]), DayCounts(voids=1))
    except (ValueError, KeyError, TypeError):
        return None


def differences(text: str) -> str | None:
    """The days on which the controller's comparison (its answer to the counts) finds that
    what it holds differs from what the table was told, in words; "" when every day agrees,
    None when the answer does not parse."""
    try:
        days = json.loads(text)["days"]
        return "; ".join(
            f"{d['day']}: "
            + ", ".join(
                f"{name} {v['table']} here, {v['controller']} at the controller"
                for name, v in sorted(d["differences"].items())
            )
            for d in days
            if d.get("matches") is False
        )
    except (ValueError, KeyError, TypeError, AttributeError):
        return None
