"""A pool's configuration (docs/API.md PUT /v1/pools): its parameters, level type and
what they must hold together."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from jackpot.domain.fields import (
    Boolean,
    Choice,
    Field,
    GroupName,
    Integer,
    Nullable,
    Presence,
    Record,
    Rule,
)
from jackpot.domain.names import check_label
from jackpot.domain.validate import expect_str

MAX_CENTS = 10_000_000_000  # $100M: keeps exact units below 2**53 inside Lua
MAX_RATE_BP = 10_000
MAX_WAGER = 10_000_000  # $100k
MAX_POOL_NAME = 40  # a pool's display name: a sign's level card and a console row show it whole


class Policy(StrEnum):
    """How simultaneous hits on one pool share its meter (docs/RULES.md §4 step 4)."""

    SEQUENTIAL = "sequential"
    SPLIT = "split"


class LevelType(StrEnum):
    """What wins a level (docs/RULES.md §4, jackpot/domain/triggers.py)."""

    HAND = "hand"  # won by paytable lines, as every level before issue 28
    MUST_HIT_BY = "must_hit_by"  # a hidden trigger between the reset and an advertised ceiling
    MYSTERY = "mystery"  # a hidden trigger in a configured range, nothing of it advertised


TRIGGER_LEVELS = (LevelType.MUST_HIT_BY, LevelType.MYSTERY)


CENTS = Integer(0, MAX_CENTS)
RATE_BP = Integer(0, MAX_RATE_BP)

RATES_WITHIN_FULL = Rule(
    "reserve_rate_bp", "rate_bp + reserve_rate_bp must not exceed 10000 (100%)"
)
CAP_FROM_RESET = Rule("cap", "must be at least reset", "out_of_range")
CEILING_ABOVE_RESET = Rule(
    "cap",
    'a must_hit_by level\'s cap is its advertised ceiling ("Must hit by $X"): it is '
    "required and above reset",
    "out_of_range",
)
MYSTERY_RANGE = Rule(
    "trigger_low",
    "a mystery level's hidden trigger is drawn from trigger_low to trigger_high: both are "
    "required, with reset < trigger_low <= trigger_high (<= cap, with a cap)",
    "out_of_range",
)
RANGE_ONLY_MYSTERY = Rule(
    "trigger_low", "trigger_low and trigger_high are named only for a mystery level"
)
TRIGGER_FED = Rule(
    "rate_bp",
    "a must_hit_by or mystery level is won by the wager whose contribution reaches its "
    "trigger: its rate_bp is above 0",
)
QUALIFYING_ONLY_TRIGGERED = Rule(
    "qualifying_wager", "is named only for a must_hit_by or mystery level"
)

NAME_PRINTABLE = Rule(
    "name",
    "printable text: no control, format, private-use, unassigned or default-ignorable "
    "character, and no space but U+0020 (the ends are trimmed)",
    "not_printable",
)


@dataclass(frozen=True, slots=True)
class PoolName:
    """A pool's display name (D280): 1 to MAX_POOL_NAME characters of printable text, its
    ends trimmed."""

    def check(self, raw: Any, field: str) -> str:
        return check_label(expect_str(raw, field, MAX_POOL_NAME), field)

    def schema(self) -> dict[str, Any]:
        return {"type": "string", "minLength": 1, "maxLength": MAX_POOL_NAME, "pattern": r"\S"}


#: what a pool's parameters must hold together, set at once or staged
POOL_RULES = (
    RATES_WITHIN_FULL,
    CAP_FROM_RESET,
    CEILING_ABOVE_RESET,
    MYSTERY_RANGE,
    RANGE_ONLY_MYSTERY,
    TRIGGER_FED,
    QUALIFYING_ONLY_TRIGGERED,
)

# what a pool's shown terms may change by, running or not (never staged): not parameters
NOT_PARAMETERS = ("public", "name")

#: The body of PUT /v1/pools/{pool}.
POOL_REQUEST = Record(
    {
        "reset": Field(CENTS, Presence.ON_CREATE, "the meter's starting value, cents"),
        "rate_bp": Field(RATE_BP, Presence.ON_CREATE, "share of each wager to the meter, bp"),
        "reserve_rate_bp": Field(
            RATE_BP, Presence.ON_CREATE, "share of each wager to the hidden reserve, bp"
        ),
        "cap": Field(Nullable(CENTS), description="the meter's ceiling, cents; null: no cap"),
        "policy": Field(
            Choice(tuple(p.value for p in Policy)),
            description="how simultaneous hits share the meter (default sequential)",
        ),
        "level": Field(
            Choice(tuple(t.value for t in LevelType)),
            description=(
                "what wins the level (default hand): `hand`, the paytable lines that name it; "
                "`must_hit_by`, the qualifying wager whose contribution reaches a hidden "
                "trigger drawn between reset and cap (the advertised ceiling); `mystery`, "
                "likewise, its trigger drawn from trigger_low to trigger_high"
            ),
        ),
        "trigger_low": Field(
            Nullable(CENTS), description="a mystery level's lowest trigger, cents"
        ),
        "trigger_high": Field(
            Nullable(CENTS), description="a mystery level's highest trigger, cents"
        ),
        "qualifying_wager": Field(
            Integer(0, MAX_WAGER),
            description=(
                "a must_hit_by or mystery level: the smallest wager that can win it, cents "
                "(smaller ones still feed it); 0 (default): every wager"
            ),
        ),
        "public": Field(
            Boolean(),
            description=(
                "shown on signs and the public read (default true); false for internal and "
                "test pools. Not a game parameter: it may change while the pool runs"
            ),
        ),
        "name": Field(
            Nullable(PoolName()),
            description=(
                "what signs, the meter page, the console and the CLI call the pool (e.g. "
                "`Casino War Progressive`): 1 to 40 characters of printable text, its ends "
                "trimmed; null removes it; left out on a create, none: the pool's id is shown. "
                "Not a game parameter: it may change while the pool runs, and is not staged"
            ),
        ),
        "group": Field(
            GroupName(),
            description=(
                "the link group of a new pool (default `main`): 1 to 32 of a-z, 0-9, _ and -. "
                "Rounds touch the pools of one group, whose keys share one slot on a Redis "
                "Cluster; a pool stays in its group (another group is 409 `link_group`)"
            ),
        ),
    },
    "A pool's configuration. Updating never moves money.",
    rules=(*POOL_RULES, NAME_PRINTABLE),
    notes=(
        "A cap below the meter's current value is 409 `cap_below_value`. A must_hit_by or "
        "mystery level is armed with a trigger drawn over its whole range when it has none, "
        "and only while its meter is below that range (409 `trigger_range_too_narrow` "
        "naming `reset` or `trigger_low`). An armed trigger stays armed until won: a change "
        "of the type, range or qualifying wager governs the draws from the next hit, and a "
        "cap below the armed draw's top is 409 `trigger_range_in_force` (docs/RULES.md §4).",
    ),
)


@dataclass(frozen=True, slots=True)
class PoolConfig:
    reset: int
    rate_bp: int
    reserve_rate_bp: int
    cap: int | None = None
    policy: Policy = Policy.SEQUENTIAL
    level: LevelType = LevelType.HAND
    trigger_low: int | None = None  # a mystery level's range, cents
    trigger_high: int | None = None
    qualifying_wager: int = 0  # a trigger level: the smallest wager that wins it; 0: any

    @classmethod
    def from_json(cls, raw: Any, current: PoolConfig | None = None) -> PoolConfig:
        """Validate a PUT body; on an update, fields left out keep `current`'s values
        (`"cap": null` removes a cap). A change of `level` drops the other type's fields
        it leaves out (a mystery level's range, a hand level's none)."""
        data = POOL_REQUEST.check(raw, creating=current is None)
        base = current or cls(0, 0, 0)
        reset = data.get("reset", base.reset)
        rate, reserve_rate = _rates_within_full(data, base)
        cap = _cap_from_reset(data, base, reset)
        policy = Policy(data.get("policy", base.policy))
        level = LevelType(data.get("level", base.level))
        low, high, qualifying = _level_fields(data, base, level)
        config = cls(reset, rate, reserve_rate, cap, policy, level, low, high, qualifying)
        config.check_level()
        return config

    def check_level(self) -> None:
        """The level type's own fields (400 naming the field otherwise)."""
        for rule, broken in _LEVEL_RULES:
            if broken(self):
                raise rule.error()

    @property
    def trigger_span(self) -> tuple[int, int] | None:
        """The whole cents a trigger level's trigger is drawn from, both ends included
        (must-hit-by: a cent above the reset to the ceiling; mystery: its range); None for
        a hand level."""
        if self.level is LevelType.MUST_HIT_BY and self.cap is not None:
            return self.reset + 1, self.cap
        if self.level is LevelType.MYSTERY and self.trigger_low is not None:
            return self.trigger_low, self.trigger_high or self.trigger_low
        return None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "reset": self.reset,
            "rate_bp": self.rate_bp,
            "reserve_rate_bp": self.reserve_rate_bp,
            "cap": self.cap,
            "policy": self.policy.value,
        }
        if self.level is not LevelType.HAND:  # a hand level's JSON is as it always was
            out["level"] = self.level.value
            out["qualifying_wager"] = self.qualifying_wager
        if self.level is LevelType.MYSTERY:
            out["trigger_low"] = self.trigger_low
            out["trigger_high"] = self.trigger_high
        return out

    @classmethod
    def from_stored(cls, raw: dict[str, Any]) -> PoolConfig:
        """A configuration as to_json wrote it (a staged change) or as the pool's hash holds
        it (decimal texts; cap -1 and trigger bounds '' for none)."""

        def cents(name: str) -> int | None:
            value = raw.get(name)
            if value is None or value == "" or int(value) < 0:
                return None
            return int(value)

        return cls(
            int(raw["reset"]),
            int(raw["rate_bp"]),
            int(raw["reserve_rate_bp"]),
            cents("cap"),
            Policy(raw["policy"]),
            LevelType(raw.get("level") or LevelType.HAND),
            cents("trigger_low"),
            cents("trigger_high"),
            int(raw.get("qualifying_wager") or 0),
        )


def _rates_within_full(data: Mapping[str, Any], base: PoolConfig) -> tuple[int, int]:
    """The meter's and the reserve's rates, together at most the whole wager."""
    rate = data.get("rate_bp", base.rate_bp)
    reserve_rate = data.get("reserve_rate_bp", base.reserve_rate_bp)
    if rate + reserve_rate > MAX_RATE_BP:
        raise RATES_WITHIN_FULL.error()
    return rate, reserve_rate


def _cap_from_reset(data: Mapping[str, Any], base: PoolConfig, reset: int) -> int | None:
    """The cap (`"cap": null` removes it), at least the reset."""
    cap = data["cap"] if "cap" in data else base.cap
    if cap is not None and cap < reset:
        raise CAP_FROM_RESET.error()
    return cap


def _level_fields(
    data: Mapping[str, Any], base: PoolConfig, level: LevelType
) -> tuple[int | None, int | None, int]:
    """A mystery level's range and a trigger level's qualifying wager: those left out are
    kept only while the level keeps its type (its qualifying wager while it is one with a
    trigger)."""
    kept = level is base.level
    low = data.get("trigger_low", base.trigger_low if kept else None)
    high = data.get("trigger_high", base.trigger_high if kept else None)
    qualifying = data.get(
        "qualifying_wager", base.qualifying_wager if level in TRIGGER_LEVELS else 0
    )
    return low, high, qualifying


def _no_ceiling(c: PoolConfig) -> bool:
    return c.level is LevelType.MUST_HIT_BY and (c.cap is None or c.cap <= c.reset)


def _bad_mystery_range(c: PoolConfig) -> bool:
    if c.level is not LevelType.MYSTERY:
        return False
    low, high = c.trigger_low, c.trigger_high
    return (
        low is None
        or high is None
        or not c.reset < low <= high
        or (c.cap is not None and high > c.cap)
    )


def _range_off_mystery(c: PoolConfig) -> bool:
    return c.level is not LevelType.MYSTERY and (
        c.trigger_low is not None or c.trigger_high is not None
    )


def _unfed_trigger(c: PoolConfig) -> bool:
    return c.level in TRIGGER_LEVELS and c.rate_bp == 0


def _qualifying_on_hand(c: PoolConfig) -> bool:
    return c.level is LevelType.HAND and bool(c.qualifying_wager)


#: each rule of a level type's own fields, with what breaks it, in the order they are checked
_LEVEL_RULES: tuple[tuple[Rule, Callable[[PoolConfig], bool]], ...] = (
    (CEILING_ABOVE_RESET, _no_ceiling),
    (MYSTERY_RANGE, _bad_mystery_range),
    (RANGE_ONLY_MYSTERY, _range_off_mystery),
    (TRIGGER_FED, _unfed_trigger),
    (QUALIFYING_ONLY_TRIGGERED, _qualifying_on_hand),
)


def requested_name(raw: Any) -> str | None:
    """The display name a PUT body already checked sets: its trimmed text, '' to remove it
    (null), None when the body leaves the name as it is."""
    if not isinstance(raw, dict) or "name" not in raw:
        return None
    return "" if raw["name"] is None else str(raw["name"]).strip()
