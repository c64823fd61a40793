"""`jackpot archive`: settled history into the SQL archive now, then Redis trimmed."""

from __future__ import annotations

import argparse
import json
import sys

from jackpot.cli.runtime import services
from jackpot.errors import ArchiveUnavailableError
from jackpot.settings import Settings


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "archive",
        help="archive settled history now (the worker does it on a schedule)",
        description="Copy every journal entry and round result not yet archived into the "
        "archive (JACKPOT_ARCHIVE_URL), then trim from Redis what is archived and older than "
        "the retention window. Safe to run at any time, also beside the worker's schedule.",
    )
    p.add_argument("--no-trim", action="store_true", help="archive only; leave Redis as it is")
    p.add_argument("--json", action="store_true", help="print the run's summary as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    with services(settings) as built:
        try:
            done = built.archiver.run(trim=not args.no_trim)
        except ArchiveUnavailableError as exc:
            print(
                f"jackpot archive: the archive is unavailable, nothing trimmed: {exc}",
                file=sys.stderr,
            )
            return 3
    if args.json:
        print(json.dumps(done.to_json(), indent=2, sort_keys=True))
    else:
        for journal in sorted(done.archived):
            trimmed = done.trimmed.get(journal)
            tail = "" if trimmed is None else f", {trimmed} trimmed from Redis"
            print(f"{journal}: {done.archived[journal]} entries archived{tail}")
        print(f"rounds archived: {done.rounds}; round records trimmed: {done.forgotten_rounds}")
        for problem in done.problems:
            print(f"PROBLEM: {problem}", file=sys.stderr)
    # a broken chain is never archived nor trimmed: an operator must look (jackpot verify)
    return 1 if done.problems else 0
