"""Pool and table configuration as operators set it (docs/API.md PUT /v1/pools, /v1/tables)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from jackpot.domain.fields import (
    MAX_REASON,
    Boolean,
    Choice,
    Field,
    GroupName,
    Identifier,
    Integer,
    ListOf,
    Nullable,
    Presence,
    Record,
    Rule,
    Text,
    Timestamp,
)
from jackpot.domain.names import check_label
from jackpot.domain.paytable import NOTHING, PAYTABLE, SEED_PAYTABLE, Paytable
from jackpot.domain.validate import expect_str
from jackpot.errors import ValidationError

MIN_DECKS, MAX_DECKS = 6, 8  # a table's shoe

MAX_CENTS = 10_000_000_000  # $100M: keeps exact units below 2**53 inside Lua
MAX_RATE_BP = 10_000
MAX_SPOTS = 7
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


class Layout(StrEnum):
    """The war-deal layouts the controller knows (docs/RULES.md §2)."""

    STANDARD = "standard"
    SOUTH_DAKOTA = "south_dakota"
    STADIUM = "stadium"


CENTS = Integer(0, MAX_CENTS)
RATE_BP = Integer(0, MAX_RATE_BP)
WAGER = Integer(1, MAX_WAGER)

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
# checked against the controller's clock when the change is staged (services/pools.py)
IN_THE_FUTURE = Rule(
    "effective_at",
    "must be in the future: a change for now is made by suspending the pool (a change "
    "staged without a time takes effect then)",
    "in_the_past",
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
        rate = data.get("rate_bp", base.rate_bp)
        reserve_rate = data.get("reserve_rate_bp", base.reserve_rate_bp)
        if rate + reserve_rate > MAX_RATE_BP:
            raise RATES_WITHIN_FULL.error()
        cap = data["cap"] if "cap" in data else base.cap
        if cap is not None and cap < reset:
            raise CAP_FROM_RESET.error()
        policy = Policy(data.get("policy", base.policy))
        level = LevelType(data.get("level", base.level))
        kept = level is base.level
        low = data.get("trigger_low", base.trigger_low if kept else None)
        high = data.get("trigger_high", base.trigger_high if kept else None)
        qualifying = data.get(
            "qualifying_wager", base.qualifying_wager if level in TRIGGER_LEVELS else 0
        )
        config = cls(reset, rate, reserve_rate, cap, policy, level, low, high, qualifying)
        config.check_level()
        return config

    def check_level(self) -> None:
        """The level type's own fields (400 naming the field otherwise)."""
        if self.level is LevelType.MUST_HIT_BY and (self.cap is None or self.cap <= self.reset):
            raise CEILING_ABOVE_RESET.error()
        if self.level is LevelType.MYSTERY:
            low, high = self.trigger_low, self.trigger_high
            if (
                low is None
                or high is None
                or not self.reset < low <= high
                or (self.cap is not None and high > self.cap)
            ):
                raise MYSTERY_RANGE.error()
        elif self.trigger_low is not None or self.trigger_high is not None:
            raise RANGE_ONLY_MYSTERY.error()
        if self.level in TRIGGER_LEVELS and self.rate_bp == 0:
            raise TRIGGER_FED.error()
        if self.level is LevelType.HAND and self.qualifying_wager:
            raise QUALIFYING_ONLY_TRIGGERED.error()

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


def requested_name(raw: Any) -> str | None:
    """The display name a PUT body already checked sets: its trimmed text, '' to remove it
    (null), None when the body leaves the name as it is."""
    if not isinstance(raw, dict) or "name" not in raw:
        return None
    return "" if raw["name"] is None else str(raw["name"]).strip()


#: The body of POST /v1/pools/{pool}/staged: a parameter change for later.
STAGE_REQUEST = Record(
    {
        **{n: f for n, f in POOL_REQUEST.fields.items() if n not in NOT_PARAMETERS},
        "effective_at": Field(
            Nullable(Timestamp()),
            description=(
                "when it takes effect, RFC 3339 (the worker applies it within seconds of it); "
                "left out or null: at the pool's next suspension"
            ),
        ),
        "reason": Field(Text(MAX_REASON), Presence.REQUIRED, "why, for the journal"),
    },
    "A change of a running pool's parameters, staged: it takes effect while the pool is "
    "suspended, or at a scheduled time, never in the middle of play.",
    rules=(*POOL_RULES, IN_THE_FUTURE),
    notes=(
        "Fields left out keep the values the pool has when the change is staged. A new "
        "staged change replaces the one waiting. The cap is checked against the meter when "
        "the change takes effect (409 `cap_below_value` then leaves it staged).",
    ),
)


@dataclass(frozen=True, slots=True)
class StagedChange:
    """A pool's parameters as they will be, once a staged change takes effect."""

    config: PoolConfig
    effective_at: int | None  # epoch ms; None: at the pool's next suspension
    reason: str
    who: str = ""

    @classmethod
    def from_request(cls, raw: Any, current: PoolConfig, who: str) -> StagedChange:
        data = STAGE_REQUEST.check(raw, creating=False)
        config = PoolConfig.from_json(
            {k: v for k, v in data.items() if k in POOL_REQUEST.fields}, current
        )
        return cls(config, data.get("effective_at"), str(data["reason"]), who)

    def to_json(self) -> dict[str, Any]:
        return {
            **self.config.to_json(),
            "effective_at": self.effective_at,
            "reason": self.reason,
            "who": self.who,
        }

    @classmethod
    def from_stored(cls, raw: dict[str, Any]) -> StagedChange:
        config = PoolConfig.from_stored(raw)
        at = raw.get("effective_at")
        return cls(config, None if at is None else int(at), str(raw["reason"]), str(raw["who"]))

    def due(self, now_ms: int) -> bool:
        """A scheduled change whose time has come (one waiting for a suspension is not)."""
        return self.effective_at is not None and self.effective_at <= now_ms


MAX_ASSET = 32
MAX_LOCATION = 64
MIN_WAGER_TO_MAX = Rule("min_wager", "must not exceed max_wager", "out_of_range")
METER_POOLS_FED = Rule("paytable", "may pay a percentage only of pools the table feeds")
QUALIFYING_WITHIN_MAX = Rule(
    "paytable",
    "a meter pay that smaller wagers win nothing of (below_qualifying: nothing) has a "
    "qualifying_wager the table takes (at most max_wager)",
    "out_of_range",
)

#: The body of PUT /v1/tables/{table}.
TABLE_REQUEST = Record(
    {
        "pools": Field(
            ListOf(Identifier(), "pool ids", min_items=1, unique=True, one="a pool"),
            Presence.ON_CREATE,
            "the pools the table feeds; the first is the one a meter pay names by default",
        ),
        "decks": Field(Integer(MIN_DECKS, MAX_DECKS), description="decks in the shoe (default 6)"),
        "spots": Field(Integer(1, MAX_SPOTS), description="spots at the table (default 7)"),
        "min_wager": Field(WAGER, description="smallest progressive wager, cents (default 100)"),
        "max_wager": Field(WAGER, description="largest progressive wager, cents (default 2500)"),
        "profile": Field(
            Choice(tuple(layout.value for layout in Layout)),
            description="the war-deal layout (default standard)",
        ),
        "envy_min_wager": Field(
            Integer(0, MAX_WAGER),
            description="smallest wager that receives envy, cents; 0: the table minimum",
        ),
        "paytable": Field(PAYTABLE, description="default: the seed paytable (SPEC §3)"),
        "enabled": Field(Boolean(), description="a disabled table's rounds are refused"),
        "reason": Field(
            Text(MAX_REASON),
            description="why, for the journal: journaled with the change, and what the console "
            "asks before it disables or enables a table (`table_disabled`, `table_enabled`)",
        ),
        "asset": Field(
            Nullable(Text(MAX_ASSET)),
            description="the table's asset number, shown on hit announcements; null: none",
        ),
        "location": Field(
            Nullable(Text(MAX_LOCATION)),
            description="where the table is, for patrons (e.g. 'Pit 3'); null: none",
        ),
    },
    "A table's configuration.",
    rules=(MIN_WAGER_TO_MAX, METER_POOLS_FED, QUALIFYING_WITHIN_MAX),
    notes=(
        "A paytable line paying a percentage of a must_hit_by or mystery level is 400 "
        "`trigger_level`; a max_wager below a fed trigger level's qualifying_wager is 400. "
        "A pool that does not exist is 404 `unknown_pool` naming `pools[i]`; a table linked "
        "(through a pool) to one with another deck count, paytable or layout family is 409 "
        "`linked_tables_differ`.",
    ),
)


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
    asset: str = ""  # the asset number a hit announcement names ('' : none)
    location: str = ""  # where the table is, for patrons

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
        data = TABLE_REQUEST.check(raw, creating=current is None)
        base = current or cls(pools=("",))
        changes = {name: data[name] for name in _PLAIN_FIELDS if name in data}
        if "pools" in data:
            changes["pools"] = tuple(data["pools"])
        if "profile" in data:
            changes["layout"] = Layout(data["profile"])
        if "paytable" in data:
            changes["paytable"] = Paytable.from_checked(data["paytable"])
        for name in ("asset", "location"):
            if name in data:
                changes[name] = (data[name] or "").strip()
        config = replace(base, **changes)
        if config.min_wager > config.max_wager:
            raise MIN_WAGER_TO_MAX.error()
        unfed = config.paytable.meter_pools(config.pools[0]) - set(config.pools)
        if unfed:
            raise METER_POOLS_FED.error(
                message=f"pays a percentage of pool(s) the table does not feed: {sorted(unfed)}"
            )
        config.check_qualifying()
        return config

    def check_qualifying(self) -> None:
        """A meter pay that smaller wagers win nothing of is one some bet can win."""
        for outcome, line in self.paytable.lines:
            if (
                line.meter_bp
                and line.below_qualifying == NOTHING
                and line.qualifying_wager > self.max_wager
            ):
                raise QUALIFYING_WITHIN_MAX.error(
                    message=f"{outcome.value}'s qualifying_wager {line.qualifying_wager} is "
                    f"above the table's max_wager {self.max_wager}, and smaller wagers win "
                    "nothing of it: no bet could ever win the meter"
                )

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
            "asset": self.asset or None,
            "location": self.location or None,
        }


# fields whose checked value is the attribute itself
_PLAIN_FIELDS = ("decks", "spots", "min_wager", "max_wager", "envy_min_wager", "enabled")


@dataclass(frozen=True, slots=True)
class TableRecord:
    """A table as the controller holds it: its configuration, the version a round is settled
    against, when it was last heard from and how many rounds it has reported."""

    table: str
    config: TableConfig
    version: str
    last_seen: int | None  # ms
    rounds: int


def check_levels(
    table: str,
    config: TableConfig,
    pools: Mapping[str, PoolConfig],
    line_field: str,
    wager_field: str,
) -> None:
    """That a table plays its must-hit-by and mystery levels as such (docs/DECISIONS.md
    D224): no paytable line pays a percentage of one (a hand would empty a meter a trigger is
    hidden in, and a void give it back onto the trigger), and each one's qualifying wager is
    a wager the table takes (else none of its bets could ever win it). 400 naming
    `line_field` or `wager_field`: the table's or the pool's field, whichever is changing."""
    first = config.pools[0]
    for outcome, line in config.paytable.lines:
        pool = line.pool or first
        level = pools[pool].level if pool in pools else LevelType.HAND
        if line.meter_bp and level is not LevelType.HAND:
            raise ValidationError(
                line_field,
                f"table {table}: {outcome.value} pays a percentage of {pool}, a "
                f"{level.value} level, which is won by its hidden trigger, not by a hand",
                "trigger_level",
            )
    for pool in config.pools:
        if pool in pools and pools[pool].qualifying_wager > config.max_wager:
            raise ValidationError(
                wager_field,
                f"table {table} takes wagers up to {config.max_wager} cents: none could win "
                f"{pool}, whose qualifying wager is {pools[pool].qualifying_wager}",
                "out_of_range",
            )
