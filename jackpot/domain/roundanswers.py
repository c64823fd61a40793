"""What the API answers of a round: its result, each bet's pays, the jackpots it won and the
hand pays it held.

`POST /v1/rounds` answers a `RoundResult` (docs/API.md, "Response"), and `GET
/v1/rounds/{table}/{round}` answers the same result with what is void of the round. A
result is made from the round's stored record: its static part (the table, the round and
each bet as settled: jackpot/services/rounds.py `plan_round`) and its dynamic part (what
the round script did with the meters: the jackpots won, the hand pays held, the pools'
values, the stamp). Declared once (jackpot.domain.answers) for the JSON and the schema; on
the hot path, so built with positional arguments and written by the declarations' own
writer, at the cost of the dict literals it replaced.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, dataclass, replace
from typing import Any, ClassVar

from jackpot.domain.answers import (
    BOOLEAN,
    CENTS,
    MS,
    TEXT,
    ByName,
    Each,
    Given,
    Nested,
    OneOf,
    Plain,
    answer_field,
)
from jackpot.domain.outcomes import Outcome

DAY = Plain("string", "a date, YYYY-MM-DD")


def _player() -> Any:
    """The bet's player where the table named one: given in order (`of`), left out while
    None."""
    return answer_field(
        TEXT, "the player's id, as the table reported it", omitted=True, default=MISSING
    )


@dataclass(slots=True)
class BetResult:
    NAME: ClassVar[str] = "BetResult"
    DOC: ClassVar[str] = "one bet of the round as settled, amounts in cents"

    spot: int = answer_field(Plain("integer"), "the spot the bet was on")
    player: str | None = _player()
    outcome: str = answer_field(OneOf(Outcome), "its hand (docs/RULES.md §3)")
    wager: int = answer_field(CENTS, "the side wager")
    pay: int = answer_field(CENTS, "the fixed-odds pay")
    envy: int = answer_field(CENTS, "the envy bonus received")
    jackpot: int = answer_field(CENTS, "the meter's pay")


@dataclass(slots=True)
class JackpotWon:
    NAME: ClassVar[str] = "JackpotWon"
    DOC: ClassVar[str] = "a jackpot payout the round made, pending verification"

    id: str = answer_field(TEXT, "the payout: confirm it after the hand pay")
    pool: str = answer_field(TEXT, "the pool it pays from")
    spot: int = answer_field(Plain("integer"), "the bet's spot")
    player: str | None = _player()
    amount: int = answer_field(CENTS, "the bet's `jackpot`")
    status: str = answer_field(TEXT, "pending")
    level: str | None = answer_field(
        TEXT,
        "must_hit_by or mystery: won by reaching the level's hidden trigger",
        omitted=True,
    )

    @classmethod
    def of(cls, won: dict[str, Any], spots: list[dict[str, Any]]) -> JackpotWon:
        """The jackpot as the round script recorded it (`bet`: the bet's place)."""
        bet = spots[int(won["bet"])]
        return cls(
            id=won["id"], pool=won["pool"], spot=bet["spot"], player=bet.get("player"),
            amount=int(won["amount"]), status="pending", level=won.get("level") or None,
        )  # fmt: skip


@dataclass(slots=True)
class HandPayHeld:
    NAME: ClassVar[str] = "HandPayHeld"
    DOC: ClassVar[str] = (
        "a fixed or envy pay from the hand-pay threshold up, held for verification: not paid "
        "from the rack, confirmed as a hand pay like a jackpot"
    )

    id: str = answer_field(TEXT, "the payout")
    kind: str = answer_field(TEXT, "fixed or envy")
    spot: int = answer_field(Plain("integer"), "the bet's spot")
    player: str | None = _player()
    amount: int = answer_field(CENTS, "the pay held")
    status: str = answer_field(TEXT, "pending")

    @classmethod
    def of(cls, held: dict[str, Any], spots: list[dict[str, Any]]) -> HandPayHeld:
        bet = spots[int(held["bet"])]
        return cls(
            id=held["id"], kind=held["kind"], spot=bet["spot"], player=bet.get("player"),
            amount=int(held["amount"]), status="pending",
        )  # fmt: skip


@dataclass(slots=True)
class PoolValue:
    NAME: ClassVar[str] = "PoolValue"
    DOC: ClassVar[str] = "a pool the round fed, after it"

    value: int = answer_field(CENTS, "its visible meter")


# what is void of a round (GET only): the void's own answer, described with the voids
VOID = Given(
    {
        "type": "object",
        "description": "what is void of the round, once anything is or awaits approval (as "
        "POST /v1/rounds/{table}/{round}/void answers it)",
    }
)


@dataclass(slots=True)
class RoundResult:
    NAME: ClassVar[str] = "RoundResult"
    DOC: ClassVar[str] = "a round's result: the same answer to the report and to every resend"

    table: str = answer_field(TEXT)
    round: str = answer_field(TEXT)
    replayed: bool = answer_field(BOOLEAN, "a resend of a round already settled")
    spots: tuple[BetResult, ...] = answer_field(
        Each(Nested(BetResult)), "one per bet, in settlement order"
    )
    jackpots: tuple[JackpotWon, ...] = answer_field(Each(Nested(JackpotWon)))
    pools: dict[str, PoolValue] = answer_field(ByName(Nested(PoolValue)), "by pool")
    hand_pays: tuple[HandPayHeld, ...] | None = answer_field(
        Each(Nested(HandPayHeld)), "only when there are some", omitted=True
    )
    settled_at: int | None = answer_field(
        MS, "when the controller settled it (the stamp of its journal entries)", omitted=True
    )
    gaming_day: str | None = answer_field(
        DAY, "the controller's gaming day it counts in", omitted=True
    )
    void: dict[str, Any] | None = answer_field(VOID, "GET only", omitted=True)

    @classmethod
    def of(
        cls,
        static: dict[str, Any],
        dynamic: dict[str, Any],
        replayed: bool,
        day_of: Callable[[int], str],
    ) -> RoundResult:
        """The result of a round's stored record; `day_of` names the gaming day of a stamp."""
        spots = static["spots"]
        won: dict[int, int] = {}
        for jp in dynamic["jackpots"]:
            won[int(jp["bet"])] = won.get(int(jp["bet"]), 0) + int(jp["amount"])
        held = dynamic.get("hand_pays")
        at = dynamic.get("at")
        bets = [
            BetResult(b["spot"], b.get("player"), b["outcome"], b["wager"], b["pay"], b["envy"],
                      won.get(i, 0))
            for i, b in enumerate(spots)
        ]  # fmt: skip
        return cls(
            static["table"],
            static["round"],
            replayed,
            tuple(bets),
            tuple([JackpotWon.of(jp, spots) for jp in dynamic["jackpots"]]),
            {pool: PoolValue(int(v)) for pool, v in dynamic["pools"].items()},
            hand_pays=tuple([HandPayHeld.of(hp, spots) for hp in held]) if held else None,
            settled_at=at,
            gaming_day=None if at is None else day_of(at),
        )

    def with_void(self, void: dict[str, Any] | None) -> RoundResult:
        return self if void is None else replace(self, void=void)
