"""What the API answers of a table (docs/API.md, /v1/tables): the table as read or written,
a move between link groups, the comparison of its own counts with the controller's, a
person's acknowledgement of their difference, and a heartbeat's answer. Declared once
(jackpot.domain.answers) for the JSON and the schema.

A comparison of a table's counts and an acknowledgement are what the worker and the
acknowledging script stored (jackpot/services/tablecounts.py,
jackpot/store/lua/table_counts_acknowledged.lua): they are published as given, with the keys
those write."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from jackpot.domain.answers import (
    BOOLEAN,
    CENTS,
    INTEGER,
    MS,
    TEXT,
    ByName,
    Each,
    Given,
    Nested,
    OneOf,
    OrNull,
    answer_field,
)
from jackpot.domain.config import Layout, TableRecord
from jackpot.domain.meter import LinkState
from jackpot.domain.paytable import PAYTABLE
from jackpot.domain.tablecounts import FIGURES


class Written(StrEnum):
    """What a PUT of a table did."""

    CREATED = "created"
    UPDATED = "updated"
    UNCHANGED = "unchanged"


class MoveStatus(StrEnum):
    MOVED = "moved"
    UNCHANGED = "unchanged"  # in the target group with those pools already


class Controller(StrEnum):
    """Whether the controller settles rounds now (its self-check)."""

    OPERABLE = "operable"
    INOPERABLE = "inoperable"


class AckStatus(StrEnum):
    ACKNOWLEDGED = "acknowledged"
    UNCHANGED = "unchanged"  # that difference was acknowledged before: nothing written


FIGURE_COUNTS = {
    "type": "object",
    "properties": {name: {"type": "integer"} for name in FIGURES},
}
DIFFERENCES = {
    "type": "object",
    "description": "each figure that differs: the table's count and the controller's",
    "additionalProperties": {
        "type": "object",
        "properties": {"table": {"type": "integer"}, "controller": {"type": "integer"}},
        "required": ["table", "controller"],
    },
}
ACKNOWLEDGEMENT = {
    "type": "object",
    "description": "a person's acknowledgement of a day's difference, as journaled",
    "properties": {
        "table": {"type": "string"},
        "day": {"type": "string"},
        "who": {"type": "string"},
        "reason": {"type": "string"},
        "at": {"type": "integer", "description": "ms since the epoch"},
        "seq": {"type": "integer", "description": "its house journal entry"},
        "checked_at": {"type": "integer", "description": "the comparison acknowledged"},
        "differences": DIFFERENCES,
    },
    "required": ["table", "day", "who", "reason", "at", "seq", "checked_at", "differences"],
}
CHECK = {
    "oneOf": [
        {
            "type": "object",
            "properties": {
                "table": {"type": "string"},
                "day": {"type": "string"},
                "received": {"type": "integer"},
                "through": {"type": ["integer", "null"]},
                "checked_at": {"type": "integer"},
                "table_counts": FIGURE_COUNTS,
                "controller_counts": FIGURE_COUNTS,
                "differences": DIFFERENCES,
                "acknowledged": {"oneOf": [ACKNOWLEDGEMENT, {"type": "null"}]},
                "closed": {"type": "boolean"},
                "in_sight": {"type": "boolean"},
            },
            "required": ["table", "day", "checked_at", "differences", "closed", "in_sight"],
        },
        {"type": "null"},
    ]
}


@dataclass(frozen=True, slots=True, kw_only=True)
class TableAnswer:
    NAME: ClassVar[str] = "Table"
    DOC: ClassVar[str] = "a table: its configuration, liveness and link group"

    table: str = answer_field(TEXT)
    pools: tuple[str, ...] = answer_field(Each(TEXT), "the pools it feeds, the first first")
    decks: int = answer_field(INTEGER, "decks in the shoe")
    spots: int = answer_field(INTEGER, "spots at the table")
    min_wager: int = answer_field(CENTS, "smallest progressive wager")
    max_wager: int = answer_field(CENTS, "largest progressive wager")
    profile: Layout = answer_field(OneOf(Layout), "the war-deal layout")
    envy_min_wager: int = answer_field(CENTS, "smallest wager receiving envy (0: min_wager)")
    paytable: dict[str, Any] = answer_field(Given(PAYTABLE.schema()), "what it pays")
    enabled: bool = answer_field(BOOLEAN, "a disabled table's rounds are refused")
    asset: str | None = answer_field(OrNull(TEXT), "its asset number; null: none")
    location: str | None = answer_field(OrNull(TEXT), "where it is; null: none")
    online: bool = answer_field(BOOLEAN, "heard from within the offline time")
    last_seen: int | None = answer_field(OrNull(MS), "last heard from; null: never")
    rounds: int = answer_field(INTEGER, "rounds it has reported")
    version: str = answer_field(TEXT, "the configuration version a round is settled against")
    group: str = answer_field(TEXT, "its link group")
    counts_check: dict[str, Any] | None = answer_field(
        Given(CHECK),
        "the comparison of its own counts of the earliest day whose difference is in sight, "
        "else of the latest day it reported; null: none compared (a PUT's answer: null)",
    )
    status: Written | None = answer_field(OneOf(Written), "a PUT: what it did", omitted=True)

    @classmethod
    def of(
        cls,
        record: TableRecord,
        online: bool,
        group: str,
        check: dict[str, Any] | None = None,
        status: Written | None = None,
    ) -> TableAnswer:
        config = record.config
        return cls(
            table=record.table,
            pools=config.pools,
            decks=config.decks,
            spots=config.spots,
            min_wager=config.min_wager,
            max_wager=config.max_wager,
            profile=config.layout,
            envy_min_wager=config.envy_min_wager,
            paytable=config.paytable.to_json(),
            enabled=config.enabled,
            asset=config.asset or None,
            location=config.location or None,
            online=online,
            last_seen=record.last_seen,
            rounds=record.rounds,
            version=record.version,
            group=group,
            counts_check=check,
            status=status,
        )


@dataclass(frozen=True, slots=True)
class TableList:
    NAME: ClassVar[str] = "Tables"
    DOC: ClassVar[str] = "every table"

    tables: list[TableAnswer] = answer_field(Each(Nested(TableAnswer)))


@dataclass(frozen=True, slots=True, kw_only=True)
class TableMoved:
    NAME: ClassVar[str] = "TableMoved"
    DOC: ClassVar[str] = "what a move of a table to another link group did"

    table: str = answer_field(TEXT)
    source: str = answer_field(TEXT, "the link group it left", name="from")
    to: str = answer_field(TEXT, "the link group it is in")
    status: MoveStatus = answer_field(OneOf(MoveStatus))
    move: str = answer_field(TEXT, "the move's id, journaled in both groups")
    rounds_copied: int = answer_field(INTEGER, "recent rounds copied to the target group")
    config: TableAnswer = answer_field(Nested(TableAnswer), "the table as it is now")


@dataclass(frozen=True, slots=True, kw_only=True)
class DayCheck:
    NAME: ClassVar[str] = "TableCountsDay"
    DOC: ClassVar[str] = "the controller's latest comparison of a day the table reported"

    day: str = answer_field(TEXT, "the controller's gaming day")
    matches: bool | None = answer_field(OrNull(BOOLEAN), "null: not compared yet")
    differences: dict[str, Any] = answer_field(Given(DIFFERENCES), "{} while not compared")
    checked_at: int | None = answer_field(OrNull(MS), "when compared; null: not yet")

    @classmethod
    def of(cls, day: str, check: dict[str, Any] | None) -> DayCheck:
        """The day as `check`, the worker's latest comparison of it, has it (None: none)."""
        if check is None:
            return cls(day=day, matches=None, differences={}, checked_at=None)
        differs = check["differences"]
        return cls(
            day=day, matches=not differs, differences=differs, checked_at=check["checked_at"]
        )


@dataclass(frozen=True, slots=True)
class CountsAnswer:
    NAME: ClassVar[str] = "TableCountsChecked"
    DOC: ClassVar[str] = "the controller's latest comparison of each day a table reported"

    table: str = answer_field(TEXT)
    days: list[DayCheck] = answer_field(Each(Nested(DayCheck)), "in the order reported")


@dataclass(frozen=True, slots=True)
class CountsAcknowledged:
    NAME: ClassVar[str] = "TableCountsAcknowledged"
    DOC: ClassVar[str] = "a person's acknowledgement of a table's day's difference"

    status: AckStatus = answer_field(OneOf(AckStatus))
    acknowledgement: dict[str, Any] = answer_field(
        Given(ACKNOWLEDGEMENT), "the acknowledgement in force (unchanged: the earlier one)"
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class Heartbeat:
    NAME: ClassVar[str] = "Heartbeat"
    DOC: ClassVar[str] = "what a table is told when it beats: whether its side bet is open"

    table: str = answer_field(TEXT)
    enabled: bool = answer_field(BOOLEAN, "a disabled table's rounds are refused")
    online: bool = answer_field(BOOLEAN, "always true: it was just heard from")
    pools: dict[str, LinkState] = answer_field(
        ByName(OneOf(LinkState)), "each pool it feeds: its link state"
    )
    controller: Controller = answer_field(
        OneOf(Controller), "inoperable: the controller settles nothing now"
    )
    side_bet_open: bool = answer_field(BOOLEAN, "operable, enabled and every pool it feeds running")

    @classmethod
    def of(
        cls, table: str, enabled: bool, pools: dict[str, LinkState], operable: bool
    ) -> Heartbeat:
        """The side bet is open only while the controller settles, the table is enabled
        and every pool it feeds runs."""
        return cls(
            table=table,
            enabled=enabled,
            online=True,
            pools=pools,
            controller=Controller.OPERABLE if operable else Controller.INOPERABLE,
            side_bet_open=operable
            and enabled
            and all(state is LinkState.RUNNING for state in pools.values()),
        )
