"""What the API answers of a pool: its public meter, and the regulator's meters.

`PublicPool` is what anyone may read (`GET /v1/pools`, `/v1/pools/{pool}`): the visible
meter, never the hidden reserve, nor its rate beside the wagers (which /metrics counts:
together they would give the reserve away); a must-hit-by or mystery level's published
commitment, never its trigger, and the smallest wager that can win it (a rule of play,
D281); never a mystery level's range. `PoolMeters` is the regulator's (NJ 13:69E-1.39A,
NY 5320.8): every meter, exact units beside cents, for operators and auditors, and what a
step on the pool did. Declared once (jackpot.domain.answers) for the JSON and the schema.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from jackpot.domain.adjustment import Adjustment, Target
from jackpot.domain.answers import (
    BOOLEAN,
    CENTS,
    INTEGER,
    TEXT,
    Given,
    Nested,
    OneOf,
    OrNull,
    Plain,
    answer_field,
)
from jackpot.domain.config import LevelType, Policy
from jackpot.domain.meter import UNITS_PER_CENT, ArmedTrigger, LinkState, PoolState

UNITS = Plain("integer", f"exact units, {UNITS_PER_CENT:,} to the cent")
HITS = Given({"type": "array", "items": {"type": "object"}})


@dataclass(frozen=True, slots=True, kw_only=True)
class PublicPool:
    NAME: ClassVar[str] = "Pool"
    DOC: ClassVar[str] = "what anyone may read of a pool: its visible meter and its terms"

    pool: str = answer_field(TEXT)
    name: str | None = answer_field(
        OrNull(TEXT), "what signs and pages call the pool; null: none, its id is shown"
    )
    value: int = answer_field(CENTS, "the visible meter, rounded down")
    reset: int = answer_field(CENTS, "what the meter starts again from after a hit")
    cap: int | None = answer_field(OrNull(CENTS), "the meter's cap; null: none")
    rate_bp: int = answer_field(INTEGER, "of each progressive wager, basis points")
    policy: Policy = answer_field(OneOf(Policy), "how a round's several winners share")
    state: LinkState = answer_field(
        OneOf(LinkState), "suspended: every linked table's side bet is closed"
    )
    hits: int = answer_field(INTEGER, "percentage pays of the meter so far")
    level: LevelType = answer_field(OneOf(LevelType), "what wins it")
    qualifying_wager: int | None = answer_field(
        CENTS,
        "a must_hit_by or mystery level: the smallest wager that can win it (0: every wager)",
        omitted=True,
    )
    trigger: ArmedTrigger | None = answer_field(
        Nested(ArmedTrigger),
        "a must_hit_by or mystery level: the published commitment of its trigger",
        omitted=True,
    )
    last_hits: list[dict[str, Any]] | None = answer_field(
        HITS, "GET of one pool: its last 25 hits, newest first", omitted=True
    )

    @classmethod
    def of(cls, state: PoolState, hits: list[dict[str, Any]] | None = None) -> PublicPool:
        return cls(**_public(state), last_hits=hits)


def _public(state: PoolState) -> dict[str, Any]:
    config = state.config
    return {
        "pool": state.pool,
        "name": state.name or None,  # what patrons are shown (D280); null: the id
        "value": state.value,
        "reset": config.reset,
        "cap": config.cap,
        "rate_bp": config.rate_bp,
        "policy": config.policy,
        "state": state.link,
        "hits": state.hits,
        "level": config.level,
        "qualifying_wager": None if config.level is LevelType.HAND else config.qualifying_wager,
        "trigger": state.trigger,  # a hidden trigger's commitment, never the trigger
    }


@dataclass(frozen=True, slots=True, kw_only=True)
class PoolMeters(PublicPool):
    NAME: ClassVar[str] = "Meters"
    DOC: ClassVar[str] = "the regulator's meters of a pool, exact units beside cents"

    reserve_rate_bp: int = answer_field(INTEGER, "of each wager to the hidden reserve, bp")
    trigger_low: int | None = answer_field(
        CENTS, "a mystery level: the low end of its trigger's range", omitted=True
    )
    trigger_high: int | None = answer_field(
        CENTS, "a mystery level: the high end of its trigger's range", omitted=True
    )
    value_units: int = answer_field(UNITS, "the meter, exact units")
    reserve: int = answer_field(CENTS, "the hidden reserve, rounded down")
    reserve_units: int = answer_field(UNITS, "the hidden reserve, exact units")
    wagered: int = answer_field(CENTS, "progressive wagers counted in")
    bets: int = answer_field(INTEGER, "progressive wagers counted in: how many")
    contributions_units: int = answer_field(UNITS, "what the wagers put in")
    overflow_units: int = answer_field(UNITS, "contributions diverted by the cap")
    won: int = answer_field(CENTS, "paid out of the meter")
    seed_funding_units: int = answer_field(UNITS, "the house's funding of resets")
    adjustments_units: int = answer_field(UNITS, "audited manual movements, net")
    voids_units: int = answer_field(UNITS, "what voids gave back, net")
    reset_initial_units: int = answer_field(UNITS, "the reset the pool started from")
    journal_seq: int = answer_field(INTEGER, "its journal's newest entry")
    invariant_holds: bool = answer_field(BOOLEAN, "the meters balance as they must")
    staged: dict[str, Any] | None = answer_field(
        Given({"oneOf": [{"type": "object"}, {"type": "null"}]}),
        "the parameter change staged, with when it takes effect; null: none",
    )
    staged_refused: str | None = answer_field(
        OrNull(TEXT), "why the staged change was refused when it was to take effect"
    )
    public: bool = answer_field(BOOLEAN, "shown on signs and the public read")
    group: str = answer_field(TEXT, "its link group")
    status: str | None = answer_field(TEXT, "PUT: created or updated", omitted=True)
    changed: bool | None = answer_field(
        BOOLEAN,
        "a suspension, resumption or cancellation: whether it changed anything",
        omitted=True,
    )

    @classmethod
    def of_state(cls, state: PoolState, group: str, **step: Any) -> PoolMeters:
        """The meters of `state` in link group `group`; `step`: what a step on the pool did
        (`status`, `changed`, `last_hits`)."""
        config = state.config
        mystery = config.level is LevelType.MYSTERY
        return cls(
            **_public(state),
            reserve_rate_bp=config.reserve_rate_bp,
            trigger_low=config.trigger_low if mystery else None,
            trigger_high=config.trigger_high if mystery else None,
            value_units=state.value_units,
            reserve=state.reserve,
            reserve_units=state.reserve_units,
            wagered=state.wagered,
            bets=state.bets,
            contributions_units=state.contributions_units,
            overflow_units=state.overflow_units,
            won=state.won,
            seed_funding_units=state.seed_units,
            adjustments_units=state.adjustments_units,
            voids_units=state.voids_units,
            reset_initial_units=state.reset_initial_units,
            journal_seq=state.journal_seq,
            invariant_holds=state.invariant_holds(),
            staged=state.staged.to_json() if state.staged else None,
            staged_refused=state.staged_refused,
            public=state.public,
            group=group,
            **step,
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class PoolAdjusted:
    NAME: ClassVar[str] = "Adjusted"
    DOC: ClassVar[str] = "an audited manual movement of a pool's money, applied once per id"

    id: str = answer_field(TEXT, "the adjustment's id: applied once per id")
    pool: str = answer_field(TEXT)
    replayed: bool = answer_field(BOOLEAN, "applied before under this id: nothing moved now")
    value: int = answer_field(CENTS, "the visible meter now")
    target: Target = answer_field(OneOf(Target), "which balance it moved")
    amount: int = answer_field(CENTS, "what it moved, signed")
    units: int = answer_field(UNITS, "and the part of a cent, signed")

    @classmethod
    def of(cls, adjustment: Adjustment, replayed: bool, state: PoolState) -> PoolAdjusted:
        return cls(
            id=adjustment.adjustment,
            pool=adjustment.pool,
            replayed=replayed,
            value=state.value,
            target=adjustment.target,
            amount=adjustment.amount,
            units=adjustment.units,
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class PoolRetired:
    NAME: ClassVar[str] = "Retired"
    DOC: ClassVar[str] = "a pool retired, its whole balance moved to another, once per id"

    id: str = answer_field(TEXT, "the transfer's id: done once per id")
    pool: str = answer_field(TEXT, "the pool retired")
    state: LinkState = answer_field(Given({"const": LinkState.RETIRED.value}))
    to: str = answer_field(TEXT, "the pool its balance went to")
    reason: str = answer_field(TEXT, "why, as journaled")
    replayed: bool = answer_field(BOOLEAN, "done before under this id: nothing moved now")
    moved_value_units: int | None = answer_field(
        UNITS, "its visible meter moved (left out of a replay)", omitted=True
    )
    moved_reserve_units: int | None = answer_field(
        UNITS, "its hidden reserve moved (left out of a replay)", omitted=True
    )
    moved: int | None = answer_field(
        CENTS, "meter and reserve moved, rounded down (left out of a replay)", omitted=True
    )
    moved_units: int | None = answer_field(
        UNITS, "meter and reserve moved (left out of a replay)", omitted=True
    )
    to_value: int = answer_field(CENTS, "the receiving pool's visible meter now")

    @classmethod
    def of(
        cls,
        names: tuple[str, str, str, str],
        replayed: bool,
        moved: tuple[int, int] | None,
        receiving: PoolState,
    ) -> PoolRetired:
        """`names`: the transfer's id, the pool retired, the pool receiving, the reason;
        `moved`: its meter and reserve moved, exact units (None: a replay's)."""
        transfer, pool, to, reason = names
        value, reserve = moved or (None, None)
        total = None if moved is None else sum(moved)
        return cls(
            id=transfer,
            pool=pool,
            state=LinkState.RETIRED,
            to=to,
            reason=reason,
            replayed=replayed,
            moved_value_units=value,
            moved_reserve_units=reserve,
            moved=None if total is None else total // UNITS_PER_CENT,
            moved_units=total,
            to_value=receiving.value,
        )
