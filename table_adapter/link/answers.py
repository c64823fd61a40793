"""The controller's answers, parsed strictly: an answer that does not parse acknowledges nothing."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


class AnswerFormatError(ValueError):
    """A response body that is not the answer docs/API.md promises."""


@dataclass(frozen=True, slots=True)
class BetAnswer:
    """One bet's settlement (docs/API.md round response `spots[]`), in cents."""

    spot: int
    player: str | None
    outcome: str
    wager: int
    pay: int
    jackpot: int
    envy: int

    @property
    def won(self) -> int:
        """The bet's total win: fixed pay + meter pay + envy received."""
        return self.pay + self.jackpot + self.envy


@dataclass(frozen=True, slots=True)
class JackpotAnswer:
    """A meter pay awaiting verification (a hand pay)."""

    id: str
    pool: str
    spot: int
    player: str | None
    amount: int
    status: str


@dataclass(frozen=True, slots=True)
class RoundAnswer:
    """The controller's result for one round report."""

    table: str
    round: str
    replayed: bool
    bets: tuple[BetAnswer, ...]
    jackpots: tuple[JackpotAnswer, ...]
    pools: tuple[tuple[str, int], ...]  # (pool, visible meter in cents) after the round
    settled_at: int | None = None  # the controller's stamp of the round (ms)
    gaming_day: str | None = None  # the controller's gaming day it counts in (YYYY-MM-DD)


@dataclass(frozen=True, slots=True)
class ErrorAnswer:
    """The docs/API.md error body of a refusal."""

    code: str
    message: str
    field: str | None = None


# Refusals for *when* a round was dealt (its `dealt_at`), not for what it holds: the report is
# sound but the controller will not settle it now. Resending it as is would be refused again,
# and dropping it among ordinary rejections would lose a round whose wagers were taken, so the
# adapter quarantines it (journal state `quarantined`, the answer kept) for an operator.
#
# 422 round_expired: dealt before the controller's retention window and never settled there;
#   it is not settled late, whatever the adapter does.
# 400 in_future: dealt_at is past the controller's clock plus its allowed skew, so one of
#   the two clocks is wrong (usually the table's). This is quarantine rather than a plain
#   rejection because nothing in the report is at fault: the same bytes are accepted once
#   the clocks agree (the stamp cannot be redone: a resend must repeat its body exactly, or
#   it is a 409 round_conflict), so an operator fixes the clock and requeues it. It is not a
#   retry either: a clock that is hours off would be resent in a loop for hours.
# 409 progressive_closed: the round carries side wagers for a pool whose link an operator
#   suspended. The controller settles nothing of it; the floor decides whether its side bets
#   are returned to the players or the report is requeued once the link runs again.
ROUND_EXPIRED = "round_expired"
IN_FUTURE = "in_future"
PROGRESSIVE_CLOSED = "progressive_closed"
QUARANTINE_REASONS = {
    (422, ROUND_EXPIRED): "dealt before the controller's retention window; needs an operator",
    (400, IN_FUTURE): "dealt_at is ahead of the controller's clock: fix the table's clock, "
    "then requeue it; needs an operator",
    (409, PROGRESSIVE_CLOSED): "the progressive was closed (its link suspended) when the round "
    "came in: return its side bets, or requeue it once the link runs; needs an operator",
}


def quarantine_reason(status: int, error: ErrorAnswer) -> str | None:
    """Why this refusal quarantines its report (QUARANTINE_REASONS), or None if it does not."""
    return QUARANTINE_REASONS.get((status, error.code))


def stored_reason(status: int | None, text: str | None) -> str:
    """Why a journaled refusal (its HTTP status and error body as kept) was refused."""
    try:
        error = parse_error_answer(json.loads(text or ""))
    except (ValueError, AnswerFormatError):
        return f"HTTP {status}"
    return quarantine_reason(status or 0, error) or f"HTTP {status} {error.code}: {error.message}"


def parse_round_answer(data: Any) -> RoundAnswer:
    """A RoundAnswer from decoded JSON; AnswerFormatError when any part is missing or wrong."""
    obj = _object(data, "answer")
    pools = _object(obj.get("pools"), "pools")
    return RoundAnswer(
        table=_str(obj.get("table"), "table"),
        round=_str(obj.get("round"), "round"),
        replayed=_bool(obj.get("replayed", False), "replayed"),
        bets=tuple(_bet(b, f"spots[{i}]") for i, b in enumerate(_list(obj.get("spots"), "spots"))),
        jackpots=tuple(
            _jackpot(j, f"jackpots[{i}]")
            for i, j in enumerate(_list(obj.get("jackpots", []), "jackpots"))
        ),
        pools=tuple(
            (str(pool), _cents(_object(v, f"pools.{pool}").get("value"), f"pools.{pool}.value"))
            for pool, v in pools.items()
        ),
        # an older controller answers neither: the round is then not counted by day
        settled_at=None
        if obj.get("settled_at") is None
        else _cents(obj["settled_at"], "settled_at"),
        gaming_day=_optional_str(obj.get("gaming_day"), "gaming_day"),
    )


def parse_error_answer(data: Any) -> ErrorAnswer:
    """The error body's code, message and field; AnswerFormatError if it has none."""
    error = _object(_object(data, "body").get("error"), "error")
    field = error.get("field")
    return ErrorAnswer(
        code=_str(error.get("code"), "error.code"),
        message=_str(error.get("message", ""), "error.message"),
        field=None if field is None else _str(field, "error.field"),
    )


def _bet(data: Any, where: str) -> BetAnswer:
    obj = _object(data, where)
    return BetAnswer(
        spot=_cents(obj.get("spot"), f"{where}.spot"),
        player=_optional_str(obj.get("player"), f"{where}.player"),
        outcome=_str(obj.get("outcome"), f"{where}.outcome"),
        wager=_cents(obj.get("wager"), f"{where}.wager"),
        pay=_cents(obj.get("pay"), f"{where}.pay"),
        jackpot=_cents(obj.get("jackpot"), f"{where}.jackpot"),
        envy=_cents(obj.get("envy"), f"{where}.envy"),
    )


def _jackpot(data: Any, where: str) -> JackpotAnswer:
    obj = _object(data, where)
    return JackpotAnswer(
        id=_str(obj.get("id"), f"{where}.id"),
        pool=_str(obj.get("pool"), f"{where}.pool"),
        spot=_cents(obj.get("spot"), f"{where}.spot"),
        player=_optional_str(obj.get("player"), f"{where}.player"),
        amount=_cents(obj.get("amount"), f"{where}.amount"),
        status=_str(obj.get("status"), f"{where}.status"),
    )


def _object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise AnswerFormatError(f"{where}: expected an object")
    return value


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise AnswerFormatError(f"{where}: expected a list")
    return value


def _str(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise AnswerFormatError(f"{where}: expected a string")
    return value


def _optional_str(value: Any, where: str) -> str | None:
    return None if value is None else _str(value, where)


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise AnswerFormatError(f"{where}: expected true or false")
    return value


def _cents(value: Any, where: str) -> int:
    # bool is an int in Python; a float is never money.
    if type(value) is not int or value < 0:
        raise AnswerFormatError(f"{where}: expected a whole non-negative number")
    return value
