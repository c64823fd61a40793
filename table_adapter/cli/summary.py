"""war-floor's closing summary: JSON alone on the last line, or lines for a person."""

from __future__ import annotations

import json
from typing import Any, TextIO

from table_adapter.floor.tally import FloorResult
from table_adapter.screens.display import dollars

QUARANTINE_LINES = 10  # quarantined rounds the readable summary names one by one


def report(result: FloorResult, out: TextIO, as_json: bool) -> None:
    """Print the run's summary: readable, or JSON alone on the last line."""
    summary = result.summary()
    if as_json:
        print(json.dumps(summary, separators=(",", ":")), file=out, flush=True)
        return
    for line in readable(summary):
        print(line, file=out)
    out.flush()


def readable(s: dict[str, Any]) -> list[str]:
    """The summary for a person."""
    rate = s["rounds_per_second"]
    paid = s["paid"]
    outcomes = ", ".join(f"{name} {n:,}" for name, n in s["outcomes"].items() if n)
    lines = [
        f"war-floor: {s['rounds']:,} rounds on {s['tables']} tables in "
        f"{s['elapsed_seconds']:.1f}s ({rate or 0:,.1f} rounds/s); {s['side_bets']:,} side bets,"
        f" handle {dollars(s['handle'])}",
        f"outcomes: {outcomes or 'none yet'}",
        _base_game_line(s),
        _irregularities_line(s),
        f"paid: fixed {dollars(paid['fixed'])}, jackpot {dollars(paid['jackpot'])}, "
        f"envy {dollars(paid['envy'])} ({s['jackpots']} jackpots pending verification)",
        "meters: " + ", ".join(f"{p} {dollars(v['value'])}" for p, v in s["pools"].items()),
        f"delivery: {s['acked']:,} acknowledged ({s['replayed']} replays, {s['recovered']} from "
        f"earlier runs), {s['rejected']} REJECTED, {s['quarantined']} QUARANTINED, "
        f"{s['pending']} pending, {s['retries']} retries, {s['closed_rounds']} rounds with side "
        f"bets closed; journal {s['journal']}",
    ]
    return lines + _held_lines(s["held"]) + _quarantined_lines(s["quarantined_rounds"])


def _base_game_line(s: dict[str, Any]) -> str:
    """The base game's hold beside its exact edge, the void rounds and the cards used."""
    base = s["base_game"]
    voids = ", ".join(f"{n:,} void ({cause})" for cause, n in s["voids"].items()) or "no void"
    cards = ", ".join(f"{n:,} {pile}" for pile, n in s["cards"].items())
    return (
        f"base game: hold {base['hold_percent'] or '-'}% of {dollars(base['initial_wagered'])} "
        f"in antes (exact edge {base['edge_percent']}% for {s['profile']}, {s['decks']} decks, "
        f"{s['strategy']}); {voids}; cards {cards}"
    )


def _irregularities_line(s: dict[str, Any]) -> str:
    """The irregularities by kind, the wagers they returned, the rounds voided after report."""
    irregular = ", ".join(f"{kind} {n:,}" for kind, n in s["irregularities"].items())
    voided = s["voided_at_controller"]
    return (
        f"irregularities: {irregular or 'none'}; {s['returned_wagers']:,} spots' wagers "
        f"returned (not dealt, let out); {voided['rounds']:,} reported rounds voided at the "
        f"controller ({voided['side_bets']:,} side bets, handle {dollars(voided['handle'])})"
    )


def _held_lines(held: list[dict[str, str]]) -> list[str]:
    """The tables the controller refuses, and what a 403 most likely means."""
    lines = [f"HELD: {h['table']}: the controller refuses it ({h['reason']})" for h in held]
    if any("403" in h["reason"] for h in held):
        lines.append(
            "HELD: a table key reports only for the tables it was made for: name them with "
            "--table-prefix and --tables (tables T1..T4: --table-prefix T --tables 4)"
        )
    return lines


def _quarantined_lines(quarantined: list[dict[str, Any]]) -> list[str]:
    """The first QUARANTINE_LINES quarantined rounds one by one, then how many more."""
    shown = quarantined[:QUARANTINE_LINES]
    lines = [
        f"quarantined: {q['table']} round {q['round']} (journal seq {q['seq']}): {q['reason']}"
        for q in shown
    ]
    if len(quarantined) > len(shown):
        more = len(quarantined) - len(shown)
        lines.append(f"quarantined: {more} more, in the journal with state 'quarantined'")
    return lines
