"""`jackpot journal export`: a pool's (or the house's) journal as JSON lines or CSV."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from jackpot.cli.argtypes import non_negative, positive
from jackpot.cli.remote import Controller, UsageError, add_command

PAGE = 5000  # the most GET /v1/journal answers at once


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("journal", help="export the journal (over the HTTP API)")
    journal = p.add_subparsers(dest="journal_command", required=True, metavar="COMMAND")
    export = add_command(
        journal,
        "export",
        export_journal,
        "write the journal as JSON lines, or CSV (auditor)",
        "Write a pool's journal (without --pool: the house journal) oldest first: one JSON "
        "object per line, read page by page until the end, or with --csv the controller's "
        "CSV export. --json changes nothing here. With -o the file appears only once the "
        "export is complete.",
    )
    export.add_argument("--pool", help="the pool (default: the house journal)")
    export.add_argument(
        "--from",
        dest="start",
        metavar="T",
        help="from this time on: RFC 3339 (2026-11-23T06:00:00-05:00) or a gaming day's "
        "start (2026-11-23)",
    )
    export.add_argument(
        "--to", dest="end", metavar="T", help="before this time, or a gaming day's end"
    )
    export.add_argument("--table", help="only this table's entries")
    export.add_argument(
        "--after", type=non_negative, default=0, metavar="SEQ", help="entries after this seq"
    )
    export.add_argument("--csv", action="store_true", help="CSV instead of JSON lines")
    export.add_argument(
        "-o", "--output", type=Path, metavar="FILE", help="write to FILE (default stdout)"
    )
    export.add_argument(
        "--page-size",
        type=positive,
        default=PAGE,
        metavar="N",
        help=f"entries asked for at a time (default and most {PAGE})",
    )


def export_journal(api: Controller, args: argparse.Namespace) -> int:
    params: dict[str, str | int] = {"after": args.after}
    for name, value in (
        ("pool", args.pool),
        ("from", args.start),
        ("to", args.end),
        ("table", args.table),
    ):
        if value is not None:
            params[name] = value
    with output(args.output) as out:
        if args.csv:
            summary = _export_csv(api, params, out)
        else:
            summary = _export_lines(api, params, min(args.page_size, PAGE), out)
    where = args.output or "stdout"
    print(
        f"jackpot journal export: {summary} of {args.pool or 'the house'} to {where}",
        file=sys.stderr,
    )
    return 0


def _export_csv(api: Controller, params: dict[str, str | int], out: IO[bytes]) -> str:
    """The controller's CSV export written as it streams; what was written."""
    with api.stream("/v1/journal.csv", params) as chunks:
        for chunk in chunks:
            out.write(chunk)
    return "the CSV export"


def _export_lines(api: Controller, params: dict[str, str | int], page: int, out: IO[bytes]) -> str:
    """Every entry as a line of JSON; what was written (how many entries, which seqs)."""
    count, first, last = 0, None, None
    for entry in entries(api, params, page):
        out.write(json.dumps(entry, ensure_ascii=False).encode() + b"\n")
        count, last = count + 1, entry["seq"]
        first = last if first is None else first
    return f"{count} entries" + (f", seq {first}..{last}" if count else "")


def entries(
    api: Controller, params: dict[str, str | int], page: int
) -> Iterator[dict[str, object]]:
    """Every entry after `params["after"]`, page by page, until a page comes back empty."""
    after = int(params["after"])
    while True:
        answer = api.get("/v1/journal", {**params, "after": after, "limit": page})
        got = answer["entries"]
        if not got:
            return
        yield from got
        after = int(got[-1]["seq"])


@contextlib.contextmanager
def output(path: Path | None) -> Iterator[IO[bytes]]:
    """Stdout, or `path` written beside it and moved into place only once complete."""
    if path is None:
        yield sys.stdout.buffer
        sys.stdout.buffer.flush()
        return
    part = path.with_name(path.name + ".part")
    try:
        try:
            out = open(part, "wb")
        except OSError as exc:
            raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None
        with out:
            yield out
        os.replace(part, path)
    finally:
        part.unlink(missing_ok=True)
