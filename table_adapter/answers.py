"""The controller's answers, parsed strictly: an answer that does not parse acknowledges nothing."""

from __future__ import annotations

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


@dataclass(frozen=True, slots=True)
class ErrorAnswer:
    """The docs/API.md error body of a refusal."""

    code: str
    message: str
    field: str | None = None


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
