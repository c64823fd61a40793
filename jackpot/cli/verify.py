"""`jackpot verify`: the journals' hash chains, ends and balances, in Redis and the archive."""

from __future__ import annotations

import argparse
import json
import sys

from jackpot import integrity
from jackpot.archive.store import ArchiveUnavailableError
from jackpot.cli.runtime import services
from jackpot.settings import Settings


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "verify",
        help="authenticate the software; check every journal's hash chain and the meters",
        description="Authenticate the controller's software against the manifest sealed when "
        "it was built (its SHA-256 and CRC-32 are printed), then walk every journal (the "
        "house's and each pool's) through the archive and Redis: seqs without gaps, each entry "
        "linked to the one before by its hash, archived entries unchanged, the newest entry the "
        "recorded head, each pool's meter and reserve equal to its journal's last balances, "
        "closed gaming days' heads still in the archive. Exits 1 and names every changed file "
        "and every place where history was edited, deleted or inserted.",
    )
    p.add_argument("--json", action="store_true", help="print the findings as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    software = integrity.check(approved=settings.approved_digest)
    with services(settings) as built:
        try:
            done = built.verifier.run()
        except ArchiveUnavailableError as exc:
            print(f"jackpot verify: the archive is unavailable: {exc}", file=sys.stderr)
            return 3
    if args.json:
        out = {**done.to_json(), "software": software.to_json()}
        print(json.dumps(out, indent=2, sort_keys=True))
    else:
        print(f"software: sha256 {software.digest} crc32 {software.crc32}")
        for problem in software.problems:
            print(f"SOFTWARE: {problem}")
        for journal, n in sorted(done.checked.items()):
            print(f"{journal}: {n} entries checked")
        print(f"closed gaming days checked: {done.days}")
        for finding in done.findings:
            print(f"TAMPERED: {finding}")
        print("intact" if done.intact else f"{len(done.findings)} problem(s) found")
    return 0 if done.intact and software.authentic else 1
