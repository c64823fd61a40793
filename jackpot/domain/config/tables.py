"""A table's configuration (docs/API.md PUT /v1/tables), its record as held, and how it
plays the trigger levels of the pools it feeds."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from jackpot.domain.config.pools import MAX_WAGER, LevelType, PoolConfig
from jackpot.domain.fields import (
    MAX_REASON,
    Boolean,
    Choice,
    Field,
    Identifier,
    Integer,
    ListOf,
    Nullable,
    Presence,
    Record,
    Rule,
    Text,
)
from jackpot.domain.paytable import NOTHING, PAYTABLE, SEED_PAYTABLE, Paytable
from jackpot.errors import ValidationError

MIN_DECKS, MAX_DECKS = 6, 8  # a table's shoe
MAX_SPOTS = 7


class Layout(StrEnum):
    """The war-deal layouts the controller knows (docs/RULES.md §2)."""

    STANDARD = "standard"
    SOUTH_DAKOTA = "south_dakota"
    STADIUM = "stadium"


WAGER = Integer(1, MAX_WAGER)


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
        config = replace(base, **_requested_changes(data))
        if config.min_wager > config.max_wager:
            raise MIN_WAGER_TO_MAX.error()
        config.check_meter_pools()
        config.check_qualifying()
        return config

    def check_meter_pools(self) -> None:
        """A meter pay names a pool the table feeds."""
        unfed = self.paytable.meter_pools(self.pools[0]) - set(self.pools)
        if unfed:
            raise METER_POOLS_FED.error(
                message=f"pays a percentage of pool(s) the table does not feed: {sorted(unfed)}"
            )

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


def _stripped(value: str | None) -> str:
    return (value or "").strip()


# fields whose checked value becomes the attribute: field -> (attribute, from the value)
_CONVERTED_FIELDS: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "pools": ("pools", tuple),
    "profile": ("layout", Layout),
    "paytable": ("paytable", Paytable.from_checked),
    "asset": ("asset", _stripped),
    "location": ("location", _stripped),
}


def _requested_changes(data: Mapping[str, Any]) -> dict[str, Any]:
    """The attributes a checked PUT body sets, by name (none for a field it leaves out)."""
    changes = {name: data[name] for name in _PLAIN_FIELDS if name in data}
    for name, (attribute, convert) in _CONVERTED_FIELDS.items():
        if name in data:
            changes[attribute] = convert(data[name])
    return changes


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
    _check_no_line_pays_trigger_level(table, config, pools, line_field)
    _check_qualifying_wagers_taken(table, config, pools, wager_field)


def _check_no_line_pays_trigger_level(
    table: str, config: TableConfig, pools: Mapping[str, PoolConfig], line_field: str
) -> None:
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


def _check_qualifying_wagers_taken(
    table: str, config: TableConfig, pools: Mapping[str, PoolConfig], wager_field: str
) -> None:
    for pool in config.pools:
        if pool in pools and pools[pool].qualifying_wager > config.max_wager:
            raise ValidationError(
                wager_field,
                f"table {table} takes wagers up to {config.max_wager} cents: none could win "
                f"{pool}, whose qualifying wager is {pools[pool].qualifying_wager}",
                "out_of_range",
            )
