"""Pool and table configuration as operators set it (docs/API.md PUT /v1/pools, /v1/tables)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from jackpot.domain.paytable import SEED_PAYTABLE, Paytable
from jackpot.domain.validate import (
    expect_bool,
    expect_int,
    expect_keys,
    expect_object,
    parse_identifier,
)
from jackpot.errors import ValidationError

MAX_CENTS = 10_000_000_000  # $100M: keeps exact units below 2**53 inside Lua
MAX_RATE_BP = 10_000
MAX_SPOTS = 7
MAX_WAGER = 10_000_000  # $100k


class Policy(StrEnum):
    """How simultaneous hits on one pool share its meter (docs/RULES.md §4 step 4)."""

    SEQUENTIAL = "sequential"
    SPLIT = "split"


class Layout(StrEnum):
    """The war-deal layouts the controller knows (docs/RULES.md §2)."""

    STANDARD = "standard"
    SOUTH_DAKOTA = "south_dakota"
    STADIUM = "stadium"


@dataclass(frozen=True, slots=True)
class PoolConfig:
    reset: int
    rate_bp: int
    reserve_rate_bp: int
    cap: int | None = None
    policy: Policy = Policy.SEQUENTIAL

    @classmethod
    def from_json(cls, raw: Any, current: PoolConfig | None = None) -> PoolConfig:
        """Validate a PUT body; on an update, fields left out keep `current`'s values
        (`"cap": null` removes a cap)."""
        data = expect_object(raw, None)
        required = set() if current else {"reset", "rate_bp", "reserve_rate_bp"}
        expect_keys(
            data,
            None,
            required=required,
            optional={"reset", "rate_bp", "reserve_rate_bp", "cap", "policy"},
        )
        base = current or cls(0, 0, 0)
        reset = expect_int(data.get("reset", base.reset), "reset", 0, MAX_CENTS)
        rate = expect_int(data.get("rate_bp", base.rate_bp), "rate_bp", 0, MAX_RATE_BP)
        reserve_rate = expect_int(
            data.get("reserve_rate_bp", base.reserve_rate_bp), "reserve_rate_bp", 0, MAX_RATE_BP
        )
        if rate + reserve_rate > MAX_RATE_BP:
            raise ValidationError(
                "reserve_rate_bp", "rate_bp + reserve_rate_bp must not exceed 10000 (100%)"
            )
        cap = data["cap"] if "cap" in data else base.cap
        if cap is not None:
            cap = expect_int(cap, "cap", 0, MAX_CENTS)
            if cap < reset:
                raise ValidationError("cap", "must be at least reset", "out_of_range")
        policy_raw = data.get("policy", base.policy.value)
        if not isinstance(policy_raw, str) or policy_raw not in {p.value for p in Policy}:
            raise ValidationError("policy", "must be 'sequential' or 'split'")
        return cls(reset, rate, reserve_rate, cap, Policy(policy_raw))

    def to_json(self) -> dict[str, Any]:
        return {
            "reset": self.reset,
            "rate_bp": self.rate_bp,
            "reserve_rate_bp": self.reserve_rate_bp,
            "cap": self.cap,
            "policy": self.policy.value,
        }


@dataclass(frozen=True, slots=True)
class TableConfig:
    pools: tuple[str, ...]
    decks: int = 6
    spots: int = MAX_SPOTS
    min_wager: int = 100
    max_wager: int = 2_500
    layout: Layout = Layout.STANDARD
    envy_min_wager: int = 0  # 0: every progressive wager qualifies
    paytable: Paytable = SEED_PAYTABLE
    enabled: bool = True

    @property
    def stadium(self) -> bool:
        return self.layout is Layout.STADIUM

    def qualifies_for_envy(self, wager: int) -> bool:
        return wager >= max(self.envy_min_wager, self.min_wager)

    def game_difference(self, other: TableConfig) -> str | None:
        """What makes `other` a different game, 'decks' or 'paytable', or None: linked
        tables play the same game at the same odds (RULES §4). The layout does not count:
        a community war card is one card from the same shoe, so a bet's odds are the same."""
        if self.decks != other.decks:
            return "decks"
        if self.paytable.resolved(self.pools[0]) != other.paytable.resolved(other.pools[0]):
            return "paytable"
        return None

    @classmethod
    def from_json(cls, raw: Any, current: TableConfig | None = None) -> TableConfig:
        """Validate a PUT body; fields left out keep `current`'s values (or the defaults)."""
        data = expect_object(raw, None)
        expect_keys(
            data,
            None,
            required=set() if current else {"pools"},
            optional={
                "pools",
                "decks",
                "spots",
                "min_wager",
                "max_wager",
                "profile",
                "envy_min_wager",
                "paytable",
                "enabled",
            },
        )
        base = current or cls(pools=("",))
        changes: dict[str, Any] = {}
        if "pools" in data:
            changes["pools"] = _parse_pools(data["pools"])
        if "decks" in data:
            changes["decks"] = expect_int(data["decks"], "decks", 6, 8)
        if "spots" in data:
            changes["spots"] = expect_int(data["spots"], "spots", 1, MAX_SPOTS)
        if "min_wager" in data:
            changes["min_wager"] = expect_int(data["min_wager"], "min_wager", 1, MAX_WAGER)
        if "max_wager" in data:
            changes["max_wager"] = expect_int(data["max_wager"], "max_wager", 1, MAX_WAGER)
        if "profile" in data:
            profile = data["profile"]
            if not isinstance(profile, str) or profile not in {layout.value for layout in Layout}:
                raise ValidationError("profile", "must be 'standard', 'south_dakota' or 'stadium'")
            changes["layout"] = Layout(profile)
        if "envy_min_wager" in data:
            changes["envy_min_wager"] = expect_int(
                data["envy_min_wager"], "envy_min_wager", 0, MAX_WAGER
            )
        if "paytable" in data:
            changes["paytable"] = Paytable.from_json(data["paytable"])
        if "enabled" in data:
            changes["enabled"] = expect_bool(data["enabled"], "enabled")
        config = replace(base, **changes)
        if config.min_wager > config.max_wager:
            raise ValidationError("min_wager", "must not exceed max_wager", "out_of_range")
        unfed = config.paytable.meter_pools(config.pools[0]) - set(config.pools)
        if unfed:
            raise ValidationError(
                "paytable", f"pays a percentage of pool(s) the table does not feed: {sorted(unfed)}"
            )
        return config

    def to_json(self) -> dict[str, Any]:
        return {
            "pools": list(self.pools),
            "decks": self.decks,
            "spots": self.spots,
            "min_wager": self.min_wager,
            "max_wager": self.max_wager,
            "profile": self.layout.value,
            "envy_min_wager": self.envy_min_wager,
            "paytable": self.paytable.to_json(),
            "enabled": self.enabled,
        }


def _parse_pools(raw: Any) -> tuple[str, ...]:
    if not isinstance(raw, list) or not raw:
        raise ValidationError("pools", "must be a non-empty list of pool ids")
    pools = tuple(parse_identifier(p, f"pools[{i}]") for i, p in enumerate(raw))
    if len(set(pools)) != len(pools):
        raise ValidationError("pools", "lists a pool twice")
    return pools
