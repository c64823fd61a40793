"""Pool meters in exact units (docs/RULES.md §4): the state, and the reference model of one round.

How much of a bet goes to the meter (`contribute`: the rate and the reserve's rate of the
wager, in units of 1/10,000 cent), what a hit takes (`meter_share`, `scaled_share` below a
qualifying wager, several hits at once in `pay_hits`) and the reset's funding (`top_up`).
The round is applied in Redis by store/lua/settle_round.lua; these are the same arithmetic in
Python, the executable statement of the rules that tests hold the script to.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, ClassVar

from jackpot.domain.answers import INTEGER, MS, TEXT, answer_field, to_json
from jackpot.domain.config import Policy, PoolConfig, StagedChange

UNITS_PER_CENT = 10_000  # exact for contributions at basis-point rates: cents × bp = units
FULL_BP = 10_000


class LinkState(StrEnum):
    """Whether a pool's linked tables may take its side bet (New York 5321.18(b)(4): no
    parameter change while a link is in operation)."""

    RUNNING = "running"  # tables take the side bet and feed the meter
    SUSPENDED = "suspended"  # every linked table's side bet is closed until it is resumed
    RETIRED = "retired"  # for good: its balance moved to another pool, no table feeds it


@dataclass(frozen=True, slots=True)
class ArmedTrigger:
    """What anyone may know of a must-hit-by or mystery level's trigger while it is hidden:
    its commitment (jackpot/domain/triggers.py), which draw it is, and when it was armed."""

    NAME: ClassVar[str] = "ArmedTrigger"
    DOC: ClassVar[str] = "a hidden trigger's published commitment, never the trigger"

    commitment: str = answer_field(TEXT, "the SHA-256 the trigger's reveal will open")
    draw: int = answer_field(INTEGER, "which draw of the level it is")
    armed_at: int = answer_field(MS, "when it was armed")

    def to_json(self) -> dict[str, Any]:
        return to_json(self)


@dataclass(frozen=True, slots=True)
class PoolState:
    """A pool's configuration and the regulator's meters (NJ 13:69E-1.39A, NY 5320.8)."""

    pool: str
    config: PoolConfig
    value_units: int
    reserve_units: int
    reset_initial_units: int = 0
    wagered: int = 0  # progressive wagers counted ("in"), cents
    bets: int = 0
    contributions_units: int = 0
    overflow_units: int = 0
    hits: int = 0
    won: int = 0  # percentage pays, cents
    seed_units: int = 0  # the house's seed in the pool, net of the seed voids gave back
    # its two parts, each only rising (metrics' counters, D264); 0 before they were kept
    seed_in_units: int = 0
    seed_returned_units: int = 0
    adjustments_units: int = 0
    voids_units: int = 0  # net change voided rounds made: jackpots back, contributions out
    journal_seq: int = 0
    link: LinkState = LinkState.RUNNING
    staged: StagedChange | None = None  # a parameter change waiting to take effect
    staged_refused: str | None = None  # why it was refused when it was to take effect
    public: bool = True  # shown on signs and the public read
    name: str = ""  # what signs and pages call it ('': its id), D280
    trigger: ArmedTrigger | None = None  # a must-hit-by or mystery level's, as published

    @property
    def value(self) -> int:
        """The visible meter in whole cents, rounded down."""
        return self.value_units // UNITS_PER_CENT

    @property
    def reserve(self) -> int:
        return self.reserve_units // UNITS_PER_CENT

    @property
    def accounted_units(self) -> int:
        """reset_initial + Σ contributions − Σ pays + Σ seed ± adjustments ± voids: what
        visible + reserve must hold."""
        return (
            self.reset_initial_units
            + self.contributions_units
            - self.won * UNITS_PER_CENT
            + self.seed_units
            + self.adjustments_units
            + self.voids_units
        )

    def invariant_holds(self) -> bool:
        """visible + reserve = reset_initial + Σ contributions − Σ pays + Σ seed ± adjustments
        ± voids."""
        return self.value_units + self.reserve_units == self.accounted_units


def new_pool(pool: str, config: PoolConfig) -> PoolState:
    start = config.reset * UNITS_PER_CENT
    return PoolState(pool, config, start, 0, reset_initial_units=start)


def meter_share(meter_bp: int, value_units: int, hits: int = 1) -> tuple[int, int]:
    """`meter_bp` of 1/`hits` of the meter: whole cents, and the remainder over 1e8 × hits."""
    return divmod(meter_bp * value_units, FULL_BP * UNITS_PER_CENT * hits)


def contribute(state: PoolState, wagered: int, bets: int) -> PoolState:
    """Step 1: add a round's progressive wagers; above the cap they go to the reserve."""
    if not wagered:
        return state
    cfg = state.config
    to_visible = wagered * cfg.rate_bp
    overflow = 0
    if cfg.cap is not None:
        room = max(cfg.cap * UNITS_PER_CENT - state.value_units, 0)
        overflow = max(to_visible - room, 0)
        to_visible -= overflow
    to_reserve = wagered * cfg.reserve_rate_bp + overflow
    return replace(
        state,
        value_units=state.value_units + to_visible,
        reserve_units=state.reserve_units + to_reserve,
        wagered=state.wagered + wagered,
        bets=state.bets + bets,
        contributions_units=state.contributions_units
        + wagered * (cfg.rate_bp + cfg.reserve_rate_bp),
        overflow_units=state.overflow_units + overflow,
    )


def top_up(state: PoolState) -> PoolState:
    """Step 3: back to `reset` from the reserve, the house funding what the reserve lacks."""
    target = state.config.reset * UNITS_PER_CENT
    if state.value_units >= target:
        return state
    need = target - state.value_units
    from_reserve = min(need, state.reserve_units)
    return replace(
        state,
        value_units=target,
        reserve_units=state.reserve_units - from_reserve,
        seed_units=state.seed_units + need - from_reserve,
        seed_in_units=state.seed_in_units + need - from_reserve,
    )


def scaled_share(meter_bp: int, value_units: int, hits: int, scale: tuple[int, int] | None) -> int:
    """A hit's share in whole cents: `meter_bp` of 1/`hits` of the meter, × wager ÷
    qualifying wager for a bet below it (`scale`), floored."""
    wager, qualifying = scale or (1, 1)
    return meter_bp * value_units * wager // (FULL_BP * UNITS_PER_CENT * hits * qualifying)


def pay_hits(
    state: PoolState,
    meter_bps: list[int],
    scales: list[tuple[int, int] | None] | None = None,
) -> tuple[PoolState, list[int]]:
    """Steps 2-4 for one pool's hits in settlement order; returns the cents each hit wins.
    `scales[k]`: (wager, qualifying wager) of a bet below its line's qualifying wager."""
    if not meter_bps:
        return state, []
    scales = scales or [None] * len(meter_bps)
    if state.config.policy is Policy.SPLIT:
        n = len(meter_bps)
        amounts = [
            scaled_share(bp, state.value_units, n, sc)
            for bp, sc in zip(meter_bps, scales, strict=True)
        ]
        whole = [k for k, sc in enumerate(scales) if sc is None]
        if whole:
            # remainder cents of the shared meter go to the first whole share in settlement
            # order (a scaled share's fraction stays on the meter)
            rems = sum(meter_share(meter_bps[k], state.value_units, n)[1] for k in whole)
            amounts[whole[0]] += rems // (FULL_BP * UNITS_PER_CENT * n)
        state = _paid(state, amounts)
        return top_up(state), amounts
    amounts = []
    for bp, sc in zip(meter_bps, scales, strict=True):
        amount = scaled_share(bp, state.value_units, 1, sc)
        amounts.append(amount)
        state = top_up(_paid(state, [amount]))
    return state, amounts


def _paid(state: PoolState, amounts: list[int]) -> PoolState:
    total = sum(amounts)
    return replace(
        state,
        value_units=state.value_units - total * UNITS_PER_CENT,
        hits=state.hits + len(amounts),
        won=state.won + total,
    )
