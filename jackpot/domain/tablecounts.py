"""Table-side reconciliation (issue 23, part 3): what a table was told against what the
controller holds.

Each table adapter counts, per gaming day of the controller's, what the controller
acknowledged to it: rounds, side bets, handle, fixed, envy and jackpot pays (each round by
the `gaming_day` of its answer) and the voids it asked for. The controller counts the same
of the table from its journals: the house journal's round entries and the table's void
requests stamped in the day, and the pools' hit entries. A round acknowledged to a table and
then lost (a failover without replica confirmation) shows as the table's count above the
controller's; nothing else makes them differ once the table has nothing in flight, which is
when its adapter reports.

A difference stays in sight (metric, alert, console) until its day is closed *and* a person
acknowledged it (`in_sight`, docs/DECISIONS.md D227): a later day's report does not hide it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

from jackpot.domain.auth import a_tables_key
from jackpot.domain.fields import (
    MAX_REASON,
    Day,
    Field,
    Integer,
    ListOf,
    Presence,
    Record,
    Text,
)


@dataclass(frozen=True, slots=True)
class DayCounts:
    """One table's figures of one gaming day (amounts in cents)."""

    rounds: int = 0
    side_bets: int = 0
    handle: int = 0
    fixed: int = 0
    envy: int = 0
    jackpot: int = 0
    voids: int = 0  # voids the table asked for (each held for a person's approval)

    def to_json(self) -> dict[str, int]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DayCounts:
        return cls(**{name: int(data.get(name, 0)) for name in FIGURES})


FIGURES = tuple(f.name for f in fields(DayCounts))
MAX_DAYS = 7

#: The body of POST /v1/tables/{table}/counts.
COUNTS_REQUEST = Record(
    {
        "days": Field(
            ListOf(
                Record(
                    {
                        "day": Field(Day(), Presence.REQUIRED, "the controller's gaming day"),
                        **{name: Field(Integer(0, 10**15), Presence.REQUIRED) for name in FIGURES},
                        "through": Field(
                            Integer(0, 2**53),
                            description="the controller's stamp (`settled_at`, ms) of the "
                            "last thing acknowledged to the table that day: what was settled "
                            "after it is not counted",
                        ),
                    }
                ),
                "days' counts",
                min_items=1,
                max_items=MAX_DAYS,
            ),
            Presence.REQUIRED,
            "what the controller acknowledged to the table, per gaming day",
        )
    },
    "A table's own counts of what the controller acknowledged to it, per gaming day: rounds, "
    "side bets, handle, fixed, envy and jackpot pays (cents), and the voids it asked for.",
    notes=(
        "Answered with the controller's comparison of each day: `matches`, and each figure "
        "that differs with both values.",
    ),
)


def count_journal(
    house: Iterable[Mapping[str, Any]], hits: Iterable[Mapping[str, Any]]
) -> DayCounts:
    """The controller's figures of a table's day from its journal entries of that day: the
    house journal's (round summaries, void requests by a table key) and the pools' hits."""
    rounds = side_bets = handle = fixed = envy = voids = jackpot = 0
    for e in house:
        kind = e.get("type")
        if kind == "round":
            rounds += 1
            side_bets += int(e.get("bets", 0))
            handle += int(e.get("wagered", 0))
            fixed += int(e.get("fixed", 0))
            envy += int(e.get("envy", 0))
        elif kind == "void_requested" and a_tables_key(str(e.get("who", ""))):
            voids += 1
    for e in hits:
        if e.get("type") == "hit":
            jackpot += int(e.get("amount", 0))
    return DayCounts(rounds, side_bets, handle, fixed, envy, jackpot, voids)


def differences(table: DayCounts, controller: DayCounts) -> dict[str, dict[str, int]]:
    """Each figure that differs: {figure: {"table": t, "controller": c}}."""
    mine, theirs = controller.to_json(), table.to_json()
    return {
        name: {"table": theirs[name], "controller": mine[name]}
        for name in FIGURES
        if theirs[name] != mine[name]
    }


#: The body of POST /v1/tables/{table}/counts/acknowledge.
ACKNOWLEDGE_REQUEST = Record(
    {
        "day": Field(Day(), Presence.REQUIRED, "the gaming day whose difference is acknowledged"),
        "reason": Field(
            Text(MAX_REASON), Presence.REQUIRED, "the explanation, or why it is accepted"
        ),
        "checked_at": Field(
            Integer(0, 2**53),
            description="the `checked_at` of the comparison the person read: refused (409 "
            "`counts_changed`) if the worker has compared the day again since",
        ),
    },
    "A person's acknowledgement of the difference between a table's own counts of a gaming "
    "day and the controller's, as it stands: journaled with the person's key and the reason.",
    notes=(
        "The difference leaves the metric, the alert and the console once the day is closed "
        "too; a different difference found later is in sight again until acknowledged.",
    ),
)


def acknowledges(ack: Mapping[str, Any] | None, check: Mapping[str, Any]) -> bool:
    """Whether `ack` is a person's acknowledgement of exactly the difference `check` shows
    (a comparison made later that differs otherwise is not acknowledged by it)."""
    return ack is not None and ack.get("differences") == check["differences"]


def in_sight(check: Mapping[str, Any], closed: bool, ack: Mapping[str, Any] | None) -> bool:
    """Whether a comparison is shown as a difference (metric, alert, console): it differs,
    and its day is not both closed and its difference acknowledged by a person."""
    return bool(check["differences"]) and not (closed and acknowledges(ack, check))
