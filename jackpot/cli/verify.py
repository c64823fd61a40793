"""`jackpot verify`: the journals' hash chains, ends and balances, in Redis and the archive."""

from __future__ import annotations

import argparse
import json
import sys

from jackpot import integrity
from jackpot.archive.store import ArchiveUnavailableError
from jackpot.cli.argtypes import gaming_day
from jackpot.cli.runtime import services
from jackpot.services.verification import PeriodNotBegunError
from jackpot.settings import Settings


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "verify",
        help="authenticate the software; check every journal's hash chain and the meters",
        description="Authenticate the controller's software against the manifest sealed when "
        "it was built (its SHA-256 and CRC-32 are printed), then walk every journal (the "
        "house's and each pool's) through the archive and Redis: seqs without gaps, each entry "
        "linked to the one before by its hash, archived entries unchanged, the newest entry the "
        "recorded head, each pool's meter and reserve equal to its journal's last balances; "
        "every round record against the entry that settled it; every closed gaming day against "
        "its journaled digest, the day before it and its recorded heads, and its figures "
        "computed again from the archive; the archive's payouts index against the entries folded "
        "again. Exits 1 and names every changed file and every "
        "place where history was edited, deleted or inserted.",
    )
    p.add_argument(
        "--since",
        type=gaming_day,
        metavar="DAY",
        help="check the period from this gaming day (YYYY-MM-DD) on, linked to the history "
        "before it, instead of all of history: its cost is the period's. The payouts' index "
        "is checked for the payouts with an entry in the period (one begun before it folded "
        "from its earlier entries as the index lists them); rows of payouts wholly before it "
        "are left to a whole verify, but a row at a seq outside the chain is found by either. "
        "Each pool entry's meter and reserve are followed from the archived balance before the "
        "period, and the period's rounds held to the house journal and their records; the "
        "pools' counters (in, bets, contributions, hits, won, seed funding, adjustments, "
        "voids) are NOT checked: they are sums from each pool's first entry, a whole "
        "verify's job. A DAY that has not begun by the controller clock is refused (exit 2)",
    )
    p.add_argument("--json", action="store_true", help="print the findings as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    software = integrity.check(approved=settings.approved_digest)
    with services(settings) as built:
        try:
            done = built.verifier.run(args.since)
        except ArchiveUnavailableError as exc:
            print(f"jackpot verify: the archive is unavailable: {exc}", file=sys.stderr)
            return 3
        except PeriodNotBegunError as exc:
            print(f"jackpot verify: --since {exc.day.isoformat()}: {exc}", file=sys.stderr)
            return 2
    if args.json:
        out = {**done.to_json(), "software": software.to_json()}
        print(json.dumps(out, indent=2, sort_keys=True))
    else:
        print(f"software: sha256 {software.digest} crc32 {software.crc32}")
        for problem in software.problems:
            print(f"SOFTWARE: {problem}")
        if done.since is not None:
            print(f"from gaming day {done.since} on")
        for journal, n in sorted(done.checked.items()):
            print(f"{journal}: {n} entries checked")
        print(f"round records checked: {done.rounds}")
        print(f"closed gaming days checked: {done.days} ({done.recomputed} recomputed)")
        for finding in done.findings:
            print(f"TAMPERED: {finding}")
        print("intact" if done.intact else f"{len(done.findings)} problem(s) found")
    return 0 if done.intact and software.authentic else 1
