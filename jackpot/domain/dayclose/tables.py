"""The tables section (`table_days`: each table's play and voids of the day, win and hold)
and the table_counts section (`table_count_row`: a table's own counts beside the
controller's)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from jackpot.domain.dayclose.amounts import percent
from jackpot.domain.dayclose.layouts import LAYOUT_VERSION, VOIDS_APART, Entry


@dataclass(slots=True)
class TableDay:
    table: str
    rounds: int = 0
    side_bets: int = 0
    handle_cents: int = 0
    fixed_pays_cents: int = 0
    envy_pays_cents: int = 0
    jackpot_pays_cents: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)
    # voids made this day, of rounds of this day or before (a correction in the day it is made)
    voided_rounds: int = 0  # rounds voided whole
    voided_bets: int = 0
    voided_handle_cents: int = 0
    voided_fixed_pays_cents: int = 0
    voided_envy_pays_cents: int = 0
    voided_jackpot_pays_cents: int = 0

    def count_void(self, v: Entry) -> None:
        """A house journal's void entry of the day: what it took back."""
        self.voided_rounds += 1 if int(v["whole"]) else 0
        self.voided_bets += int(v["bets"])
        self.voided_handle_cents += int(v["wagered"])
        self.voided_fixed_pays_cents += int(v["fixed"])
        self.voided_envy_pays_cents += int(v["envy"])
        self.voided_jackpot_pays_cents += int(v["jackpot"])

    def count_round(self, static: Mapping[str, Any], dynamic: Mapping[str, Any]) -> None:
        """A round's stored result: its bets, pays and outcomes."""
        self.rounds += 1
        for bet in static["spots"]:
            self.side_bets += 1 if int(bet["wager"]) > 0 else 0
            self.handle_cents += int(bet["wager"])
            self.fixed_pays_cents += int(bet["pay"])
            self.envy_pays_cents += int(bet["envy"])
            outcome = str(bet["outcome"])
            self.outcomes[outcome] = self.outcomes.get(outcome, 0) + 1
        self.jackpot_pays_cents += sum(int(jp["amount"]) for jp in dynamic["jackpots"])

    @property
    def win_cents(self) -> int:
        """The house's win net of the day's voids."""
        played = (
            self.handle_cents
            - self.fixed_pays_cents
            - self.envy_pays_cents
            - self.jackpot_pays_cents
        )
        voided = (
            self.voided_handle_cents
            - self.voided_fixed_pays_cents
            - self.voided_envy_pays_cents
            - self.voided_jackpot_pays_cents
        )
        return played - voided

    @property
    def net_handle_cents(self) -> int:
        return self.handle_cents - self.voided_handle_cents

    def hold_percent(self, layout: int = LAYOUT_VERSION) -> str:
        """The win over the handle net of voids; from layout 5 empty where that handle is 0 or
        less (a later day's voids beyond the day's play: no hold to speak of, D278)."""
        if layout >= VOIDS_APART and self.net_handle_cents <= 0:
            return ""
        return percent(self.win_cents, self.net_handle_cents)

    def row(self, outcome_names: Iterable[str], layout: int = LAYOUT_VERSION) -> dict[str, Any]:
        return {
            "table": self.table,
            "rounds": self.rounds,
            "side_bets": self.side_bets,
            "handle_cents": self.handle_cents,
            "fixed_pays_cents": self.fixed_pays_cents,
            "envy_pays_cents": self.envy_pays_cents,
            "jackpot_pays_cents": self.jackpot_pays_cents,
            "voided_rounds": self.voided_rounds,
            "voided_bets": self.voided_bets,
            "voided_handle_cents": self.voided_handle_cents,
            "voided_fixed_pays_cents": self.voided_fixed_pays_cents,
            "voided_envy_pays_cents": self.voided_envy_pays_cents,
            "voided_jackpot_pays_cents": self.voided_jackpot_pays_cents,
            "win_cents": self.win_cents,
            "hold_percent": self.hold_percent(layout),
            **{f"outcome_{name}": self.outcomes.get(name, 0) for name in outcome_names},
        }


def table_days(
    rounds: Iterable[tuple[Mapping[str, Any], Mapping[str, Any]]],
    voids: Iterable[Entry] = (),
) -> list[TableDay]:
    """Per table, from each round's stored result (static and dynamic parts) and the house
    journal's void entries of the day."""
    tables: dict[str, TableDay] = {}
    for v in voids:
        tables.setdefault(str(v["table"]), TableDay(str(v["table"]))).count_void(v)
    for static, dynamic in rounds:
        table = str(static["table"])
        tables.setdefault(table, TableDay(table)).count_round(static, dynamic)
    return [tables[k] for k in sorted(tables)]


def table_count_row(
    check: Mapping[str, Any], iso: Callable[[int], str], layout: int = LAYOUT_VERSION
) -> dict[str, Any]:
    """A row of the table_counts section: the table's own counts of the day, the
    controller's, and whether they match (docs/RULES.md §5). From layout 5, `counted_through`:
    the time both sides counted to (the table's last answered round when it reported; the
    controller's figures are counted to the same time, so a round after it is in neither,
    while the tables section has the whole day), empty when the table named none."""
    row: dict[str, Any] = {"table": check["table"], "matches": not check["differences"]}
    for name, value in check["table_counts"].items():
        row[f"table_{name}"] = value
    for name, value in check["controller_counts"].items():
        row[f"controller_{name}"] = value
    if layout >= VOIDS_APART:
        through = check.get("through")
        row["counted_through"] = "" if through is None else iso(int(through))
    row["checked_at"] = iso(int(check["checked_at"]))
    return row


def outcome_names(days: Iterable[TableDay]) -> list[str]:
    return sorted({name for d in days for name in d.outcomes})
