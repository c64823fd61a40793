"""`jackpot accounting close|show`: gaming days, closed on demand and read back."""

from __future__ import annotations

import argparse
import getpass
import json
import socket
import sys
from collections.abc import Iterator
from dataclasses import replace
from datetime import date
from typing import TYPE_CHECKING, Any

from jackpot.cli.argtypes import gaming_day
from jackpot.cli.formatting import money
from jackpot.cli.runtime import services
from jackpot.domain.dayclose import HAND_PAY_STEMS
from jackpot.domain.dayfiles import numbers
from jackpot.errors import ArchiveUnavailableError, JackpotError
from jackpot.services.gamingday import change_gaming_day, describe
from jackpot.settings import Settings, SettingsError

if TYPE_CHECKING:
    from jackpot.bootstrap import Services


def rolled(pool: dict[str, Any], stems: tuple[str, ...], came: str) -> str:
    """A pool's owed figures rolled over the day, `stems` in order (owed at open, came, paid,
    voided, owed at close), each as its count and money: "0 $0.00 at open + 2 ... at close"."""
    opened, new, paid, voided, closed = (
        f"{pool[k + '_count']} {money(pool[k + '_cents'])}" for k in stems
    )
    return f"{opened} at open + {new} {came} - {paid} paid - {voided} voided = {closed} at close"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("accounting", help="close a gaming day, or show a closed one")
    commands = p.add_subparsers(dest="accounting_command", required=True)
    close = commands.add_parser(
        "close",
        help="close a gaming day now (the worker closes each day shortly after it ends)",
        description="Archive what is settled, then compute and record the day's report: per "
        "pool, per table, and the hit register; then sign a checkpoint of the journals' heads at "
        "its close (with the controller's checkpoint key; without it, it says the close is not "
        "signed). A closed day never changes; closing it again prints the recorded report, and "
        "signs its close if that was not done.",
    )
    close.add_argument("--date", type=gaming_day, required=True, metavar="YYYY-MM-DD")
    close.add_argument("--json", action="store_true", help="print the whole report as JSON")
    close.set_defaults(func=run_close)
    show = commands.add_parser(
        "show",
        help="print a closed day's report and the checkpoint covering it",
        description="Exit 0 when every pool balances and no table's own counts differ from the "
        "controller's; 1 when a pool does not balance, or the day cannot be read; 4 when every "
        "pool balances but a table's own counts differ; 3 when the archive is unavailable. The "
        "last line says why (with --json, on stderr). `close` exits the same way.",
    )
    show.add_argument("--date", type=gaming_day, required=True, metavar="YYYY-MM-DD")
    show.add_argument("--json", action="store_true", help="print the whole report as JSON")
    show.set_defaults(func=run_show)
    day = commands.add_parser(
        "gaming-day",
        help="show the controller's gaming day, or change it before the first day is closed",
        description="Every process of the controller closes days by one definition, recorded "
        "with its state by its first process. Without --start and --zone this prints it; with "
        "them it changes it (journaled: gaming_day_changed, with who and why), which is "
        "refused once a gaming day is closed. Restart the controller's processes after a "
        "change, and start them without JACKPOT_GAMING_DAY_START and JACKPOT_TIME_ZONE or "
        "with the new values.",
    )
    day.add_argument("--start", metavar="HH:MM", help="the local time a gaming day begins")
    day.add_argument("--zone", metavar="ZONE", help="the casino's IANA time zone")
    day.add_argument("--reason", default="", help="why (required with a change)")
    day.set_defaults(func=run_gaming_day)


def run_gaming_day(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    refused = _gaming_day_refused(args)
    if refused:
        print(f"jackpot accounting gaming-day: {refused}", file=sys.stderr)
        return 2
    # told nothing of the gaming day: this command reads the controller's, or changes it
    settings = replace(settings, gaming_day_stated=frozenset())
    who = f"cli:{getpass.getuser()}@{socket.gethostname()}"
    with services(settings) as built:
        store = built.days.store
        try:
            if args.start is not None:
                status, before = change_gaming_day(
                    store,
                    lambda: [d["day"] for d in built.accounting.closed()],
                    args.start,
                    args.zone,
                    who,
                    args.reason.strip(),
                )
                if status == "changed":  # (on a store with none yet: "recorded")
                    print(f"was: gaming days start at {describe(*before)}")
            recorded = store.record_first(settings.gaming_day_start, settings.time_zone, who)
        except SettingsError as exc:  # a malformed --start or --zone, named
            print(f"jackpot accounting gaming-day: {exc}", file=sys.stderr)
            return 2
        except JackpotError as exc:
            print(f"jackpot accounting gaming-day: {exc.message}", file=sys.stderr)
            return 1
    print(f"gaming days start at {describe(*recorded)}")
    return 0


def _gaming_day_refused(args: argparse.Namespace) -> str:
    """Why the options do not make a read or a change of the gaming day ('' when they do)."""
    if (args.start is None) != (args.zone is None):
        return "give both --start and --zone"
    if args.start is not None and not args.reason.strip():
        return "a change needs --reason"
    return ""


def run_close(args: argparse.Namespace) -> int:
    return _answer(args, close=True)


def run_show(args: argparse.Namespace) -> int:
    return _answer(args, close=False)


def _answer(args: argparse.Namespace, close: bool) -> int:
    settings = Settings.from_env()
    with services(settings) as built:
        try:
            report, covered, unsigned = _read_day(built, args.date, close)
        except JackpotError as exc:
            print(f"jackpot accounting: {exc.message}", file=sys.stderr)
            return 1
        except ArchiveUnavailableError as exc:
            print(f"jackpot accounting: the archive is unavailable: {exc}", file=sys.stderr)
            return 3
    status, why = verdict(report)
    if args.json:
        _print_json(report, covered, unsigned, why)
        return status
    for line in _report_lines(report, covered, unsigned):
        print(line)
    if why:
        print(why)
    return status


def _print_json(
    report: dict[str, Any], covered: dict[str, Any] | None, unsigned: str | None, why: str
) -> None:
    """The report as the API answers it; why it exits non-zero on stderr."""
    print(json.dumps({**numbers(report), "checkpoint": covered}, indent=2, sort_keys=True))
    if unsigned is not None:
        print(f"jackpot accounting: its close is not signed: {unsigned}", file=sys.stderr)
    if why:
        print(f"jackpot accounting: {why}", file=sys.stderr)


def _read_day(
    built: Services, day: date, close: bool
) -> tuple[dict[str, Any], dict[str, Any] | None, str | None]:
    """The day's report (closed now if `close`), the checkpoint signed at its close, as the
    API and the day page carry it (D257), and why its close is not signed (None: it is)."""
    accounting = built.accounting
    report = accounting.close(day) if close else accounting.statement(day)
    covered = built.checkpoints.of_day(report)
    unsigned = None
    if built.checkpoints.at_close(str(report["day"])) is None:
        unsigned = built.checkpoints.unsigned_why()
    return report, covered, unsigned


def _report_lines(
    report: dict[str, Any], covered: dict[str, Any] | None, unsigned: str | None
) -> Iterator[str]:
    """A closed day's report as printed, line by line: the day, whether it balanced and the
    tables' counts matched, its checkpoint, then each pool, each table, the hits and every
    void."""
    yield from _head_lines(report, covered, unsigned)
    for p in report["pools"]:
        yield from _pool_lines(p)
    for t in report["tables"]:
        yield from _table_lines(t)
    yield f"  {len(report['hits'])} hit(s) in the register"
    for v in report.get("voids", []):  # layout 5: every void, who asked, approved and why
        yield _void_line(v)


def _head_lines(
    report: dict[str, Any], covered: dict[str, Any] | None, unsigned: str | None
) -> Iterator[str]:
    """The report's head: the day, whether it balanced and the tables' counts matched, and
    its checkpoint."""
    counts, differ = _table_counts(report)
    yield f"gaming day {report['day']}: {report['start']} to {report['end']}"
    yield (
        f"closed at {report['closed_at']}; pools balanced: "
        f"{'yes' if report['balanced'] else 'NO'}; tables' own counts: {counts}"
        + (f" ({differ})" if counts == "differ" else "")
    )
    if covered is not None:
        yield f"checkpoint #{covered['id']} {covered['short']} covers it"
    if unsigned is not None:
        yield f"its close is NOT signed by a checkpoint: {unsigned}"
    if counts == "differ":
        yield f"  the tables' own counts differ from the controller's: {differ}"


def _table_counts(report: dict[str, Any]) -> tuple[str, str]:
    """Whether the tables' own counts matched the controller's (`differ`, `match`, `not
    recorded` for a day closed before the statement said it, `none sent`), and which
    tables' differ."""
    differ = ", ".join(c["table"] for c in report.get("table_counts", []) if not c["matches"])
    counts = "differ" if report.get("table_counts_balanced") is False else "match"
    if report.get("table_counts_balanced") is None:  # closed before the statement said it
        counts = "not recorded"
    elif not report.get("table_counts"):
        counts = "none sent"
    return counts, differ


def _pool_lines(p: dict[str, Any]) -> list[str]:
    lines = [
        f"  pool {p['pool']}: meter {money(p['opening_meter_cents'])} -> "
        f"{money(p['closing_meter_cents'])}, reserve {money(p['opening_reserve_cents'])} "
        f"-> {money(p['closing_reserve_cents'])}, {p['jackpots_count']} jackpot(s) "
        f"{money(p['jackpots_cents'])}, liability {money(p['liability_cents'])}"
        f"{'' if p['balanced'] else '  NOT BALANCED'}"
    ]
    if "owed_at_open_cents" in p:  # layout 5: what it owes, rolled over the day (D278)
        stems = ("owed_at_open", "jackpots", "paid_jackpots", "voided_jackpots")
        lines.append(f"    owed: {rolled(p, (*stems, 'unpaid_jackpots'), 'won')}")
    if "hand_pays_count" in p:  # layout 6: the hand pays its journal holds (D300)
        lines.append(f"    hand pays owed: {rolled(p, HAND_PAY_STEMS, 'held')}")
    return lines


def _table_lines(t: dict[str, Any]) -> list[str]:
    lines = [
        f"  table {t['table']}: {t['rounds']} rounds, handle {money(t['handle_cents'])}, "
        f"win {money(t['win_cents'])} ({t['hold_percent'] or '-'}%)"
    ]
    if t.get("voided_bets") or t.get("voided_rounds"):
        pays = sum(t[f"voided_{k}_pays_cents"] for k in ("fixed", "envy", "jackpot"))
        lines.append(
            f"    voided: {t['voided_rounds']} round(s) whole, {t['voided_bets']} bet(s), "
            f"handle {money(t['voided_handle_cents'])}, pays {money(pays)}"
        )
    return lines


def _void_line(v: dict[str, Any]) -> str:
    spots = "whole" if v["spots"] == "all" else f"spots {v['spots']}"
    what = (
        f"round {v['table']}/{v['round']} ({spots})"
        if v["kind"] == "round"
        else f"payout {v['payout']} {money(v['payout_amount_cents'])} (was {v['voided_from']})"
    )
    by = v["asked_by"] + (f", approved by {v['approved_by']}" if v["approved_by"] else "")
    return f"  void {v['time']}: {what}, asked by {by}: {v['reason']}"


#: the exit statuses of `jackpot accounting close|show` for a day it could read (D301); 1 is
#: also a day it could not (not over, not closed, unknown), 3 the archive unavailable
BALANCED, POOL_NOT_BALANCED, TABLE_COUNTS_DIFFER = 0, 1, 4


def verdict(report: dict[str, object]) -> tuple[int, str]:
    """The exit status for a closed day and, when it is not 0, the line that says why: 1 when
    a pool does not balance (whatever the tables' counts), else 4 when a table's own counts
    differ from the controller's; 0 when every pool balances and no table's counts differ."""
    if not report["balanced"]:
        off = _failing(report["pools"], "pool", "balanced")
        return POOL_NOT_BALANCED, f"exit {POOL_NOT_BALANCED}: a pool does not balance: {off}"
    if report.get("table_counts_balanced") is False:
        differ = _failing(report["table_counts"], "table", "matches")
        return TABLE_COUNTS_DIFFER, (
            f"exit {TABLE_COUNTS_DIFFER}: every pool balances, but the tables' own counts "
            f"differ from the controller's: {differ}"
        )
    return BALANCED, ""


def _failing(rows: object, name: str, check: str) -> str:
    """The names of the report's rows (pools, tables' counts) that fail `check`."""
    assert isinstance(rows, list)
    return ", ".join(str(r[name]) for r in rows if not r[check])
