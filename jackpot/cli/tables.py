"""`jackpot tables list|show|set|enable|disable`: tables over the HTTP API."""

from __future__ import annotations

import argparse
from typing import Any
from zoneinfo import ZoneInfo

from jackpot.cli.argtypes import non_negative, positive
from jackpot.cli.formatting import cell, fields, money, rate, table, when
from jackpot.cli.remote import (
    Controller,
    UsageError,
    add_command,
    emit_json,
    reply,
    segment,
    time_zone,
)
from jackpot.domain.config import Layout


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("tables", help="list, show and configure tables (over the HTTP API)")
    tables = p.add_subparsers(dest="tables_command", required=True, metavar="COMMAND")
    add_command(tables, "list", list_tables, "every table (operator or auditor)")
    show = add_command(
        tables, "show", show_table, "one table and its paytable (operator or auditor)"
    )
    show.add_argument("table", metavar="TABLE")

    put = add_command(
        tables,
        "set",
        set_table,
        "create or update a table (operator)",
        "Create a table (--pools required) or update one: fields left out keep their values.",
    )
    put.add_argument("table", metavar="TABLE")
    put.add_argument(
        "--pools",
        type=pool_list,
        metavar="P,Q",
        help="the pools it feeds, comma-separated (the first is the one meter pays name)",
    )
    put.add_argument("--decks", type=positive, metavar="N", help="decks in the shoe (6-8)")
    put.add_argument("--spots", type=positive, metavar="N", help="spots at the table (1-7)")
    put.add_argument("--min-wager", type=non_negative, metavar="CENTS")
    put.add_argument("--max-wager", type=non_negative, metavar="CENTS")
    put.add_argument("--profile", choices=[layout.value for layout in Layout])
    put.add_argument("--envy-min-wager", type=non_negative, metavar="CENTS")

    for name, action, what in (
        ("enable", enable_table, "take side bets again"),
        ("disable", disable_table, "refuse its rounds' side bets"),
    ):
        switch = add_command(tables, name, action, f"{name} a table: {what} (operator)")
        switch.add_argument("table", metavar="TABLE")


def pool_list(text: str) -> list[str]:
    pools = [p.strip() for p in text.split(",")]
    if not all(pools):
        raise argparse.ArgumentTypeError("give pool ids separated by commas: P or P,Q")
    return pools


def list_tables(api: Controller, args: argparse.Namespace) -> int:
    answer = api.get("/v1/tables")
    if args.json:
        emit_json(answer)
        return 0
    tables = answer["tables"]
    if not tables:
        print("no tables")
        return 0
    zone = time_zone()
    rows = [
        [
            t["table"],
            cell(t["pools"]),
            cell(t["enabled"]),
            cell(t["online"]),
            str(t["decks"]),
            str(t["spots"]),
            f"{money(t['min_wager'])}-{money(t['max_wager'])}",
            t["profile"],
            str(t["rounds"]),
            when(t["last_seen"], zone),
            counts_cell(t.get("counts_check")),
        ]
        for t in tables
    ]
    headers = [
        "TABLE",
        "POOLS",
        "ENABLED",
        "ONLINE",
        "DECKS",
        "SPOTS",
        "WAGERS",
        "PROFILE",
        "ROUNDS",
        "LAST SEEN",
        "OWN COUNTS",
    ]
    print(table(headers, rows, right={4, 5, 8}))
    return 0


def show_table(api: Controller, args: argparse.Namespace) -> int:
    answer = api.get(f"/v1/tables/{segment(args.table)}")
    return reply(args, answer, lambda a: table_detail(a, time_zone()))


def set_table(api: Controller, args: argparse.Namespace) -> int:
    names = ("pools", "decks", "spots", "min_wager", "max_wager", "profile", "envy_min_wager")
    body = {name: getattr(args, name) for name in names if getattr(args, name) is not None}
    if not body:
        raise UsageError(
            "nothing to set: give --pools, --decks, --spots, --min-wager, "
            "--max-wager, --profile or --envy-min-wager"
        )
    return _put(api, args, body)


def enable_table(api: Controller, args: argparse.Namespace) -> int:
    return _put(api, args, {"enabled": True})


def disable_table(api: Controller, args: argparse.Namespace) -> int:
    return _put(api, args, {"enabled": False})


def _put(api: Controller, args: argparse.Namespace, body: dict[str, Any]) -> int:
    answer = api.put(f"/v1/tables/{segment(args.table)}", body)
    return reply(
        args, answer, lambda a: f"table {a['table']}: {a['status']}\n{table_detail(a, time_zone())}"
    )


def table_detail(t: dict[str, Any], zone: ZoneInfo) -> str:
    """A table as `show` prints it, its paytable below."""
    out = fields(
        [
            ("table", str(t["table"])),
            ("enabled", cell(t["enabled"])),
            ("online", cell(t["online"])),
            ("last seen", when(t["last_seen"], zone)),
            ("pools", cell(t["pools"])),
            ("decks", str(t["decks"])),
            ("spots", str(t["spots"])),
            ("wagers", f"{money(t['min_wager'])} to {money(t['max_wager'])}"),
            ("envy min wager", money(t["envy_min_wager"])),
            ("profile", str(t["profile"])),
            ("rounds", str(t["rounds"])),
            ("version", str(t["version"])),
            ("own counts", counts_detail(t.get("counts_check"), zone)),
        ]
    )
    lines = t.get("paytable") or {}
    if lines:
        rows = [
            [outcome, f"{line['odds']} to 1", meter(line), envy(line.get("envy"))]
            for outcome, line in lines.items()
        ]
        out += "\n\npaytable\n" + table(["OUTCOME", "PAYS", "METER", "ENVY"], rows, right={1})
    return out


MONEY_FIGURES = ("handle", "fixed", "envy", "jackpot")  # cents; the other figures are counts


def counts_cell(check: dict[str, Any] | None) -> str:
    """The table's own counts against the controller's, in a list's cell."""
    if not check:
        return "-"
    if not check["differences"]:
        return f"{check['day']} match"
    seen = " (acknowledged)" if check.get("acknowledged") else ""
    return f"{check['day']} DIFFER{seen}"


def counts_detail(check: dict[str, Any] | None, zone: ZoneInfo) -> str:
    """The comparison `show` prints: the day, what differs (each figure as the table and the
    controller count it), and as of when: the table counts up to `through`, the stamp of
    the last thing it counted, and the controller counts its journals up to the same."""
    if not check:
        return "none reported yet"
    through = check.get("through")
    asof = f"through {when(through, zone)}" if through else "through the day so far"
    checked = f"checked {when(check['checked_at'], zone)}"
    if not check["differences"]:
        rounds = check["table_counts"].get("rounds", 0)
        return f"gaming day {check['day']}: match ({rounds:,} rounds {asof}; {checked})"
    said = "; ".join(
        f"{figure} table {_figure(figure, d['table'])} controller "
        f"{_figure(figure, d['controller'])}"
        for figure, d in check["differences"].items()
    )
    ack = check.get("acknowledged")
    acked = f"; acknowledged by {ack.get('who')}: {ack.get('reason')}" if ack else ""
    return f"gaming day {check['day']}: DIFFER: {said} ({asof}; {checked}){acked}"


def _figure(name: str, value: int) -> str:
    return money(value) if name in MONEY_FIGURES else f"{value:,}"


def meter(line: dict[str, Any]) -> str:
    bp = int(line.get("meter_bp", 0))
    if not bp:
        return "-"
    return rate(bp) + (f" of {line['pool']}" if line.get("pool") else "")


def envy(raw: dict[str, Any] | None) -> str:
    if not raw:
        return "-"
    if "amount" in raw:
        return money(raw["amount"])
    return f"{raw['multiple']} x wager" if "multiple" in raw else cell(raw)
