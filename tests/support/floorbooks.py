"""The controller's house journal against a floor run's summary: every round the tables
reported and every void they asked for, to the cent (issue 26: voids included)."""

from __future__ import annotations

from typing import Any


def assert_house_equals_tally(house: list[dict[str, Any]], summary: dict[str, Any]) -> None:
    """`house`: the house journal's entries after the tables' voids were approved."""
    rounds = [e for e in house if e["type"] == "round"]
    voids = [e for e in house if e["type"] == "void"]

    def total(rows: list[dict[str, Any]], name: str) -> int:
        return sum(int(e[name]) for e in rows)

    paid, voided = summary["paid"], summary["voided_at_controller"]
    assert (len(rounds), total(rounds, "wagered")) == (summary["rounds"], summary["handle"])
    assert (total(rounds, "fixed"), total(rounds, "envy")) == (paid["fixed"], paid["envy"])
    assert (len(voids), total(voids, "bets"), total(voids, "wagered")) == (
        voided["rounds"],
        voided["side_bets"],
        voided["handle"],
    )
    for name in ("fixed", "envy", "jackpot"):
        assert total(voids, name) == voided[name], name
