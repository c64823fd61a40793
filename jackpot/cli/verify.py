"""`jackpot verify`: the journals' hash chains, ends and balances, in Redis and the archive."""

from __future__ import annotations

import argparse
import json
import sys
from datetime import date
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from jackpot import integrity
from jackpot.archive.verify import Verification
from jackpot.bootstrap import Services
from jackpot.cli.argtypes import gaming_day
from jackpot.cli.runtime import services
from jackpot.domain.checkpoints import load_public
from jackpot.errors import ArchiveUnavailableError
from jackpot.services.checkpointfiles import Kept, read_kept
from jackpot.services.checkpoints import CheckpointCheck
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
    p.add_argument(
        "--checkpoints",
        type=Path,
        metavar="FILE|DIR",
        help="also hold the history to signed checkpoints kept outside the controller: a file "
        "of one JSON checkpoint, a JSON array or JSON lines, or a directory of such files "
        "named *.json or *.jsonl (any other file is skipped, and said). A line or file that "
        "cannot be read, or finding no checkpoint at all, is a finding; the rest are checked. "
        "Each signature must verify and each signed head (journal, seq, hash) be the entry "
        "the history holds at that seq",
    )
    p.add_argument(
        "--public-key",
        type=Path,
        metavar="PEM",
        help="the key the checkpoints must be signed by (default: the controller's own, "
        "from JACKPOT_CHECKPOINT_KEY)",
    )
    p.add_argument("--json", action="store_true", help="print the findings as JSON")
    p.set_defaults(func=run)


def _kept(args: argparse.Namespace) -> tuple[Kept, Ed25519PublicKey | None, str] | None:
    """The checkpoints --checkpoints names, the key --public-key names and where it came
    from; None without --checkpoints. ValueError: a path or key that cannot be read."""
    if args.checkpoints is None:
        return None
    try:
        given = read_kept(args.checkpoints)
        if args.public_key is None:
            return given, None, ""
        key = load_public(args.public_key.read_bytes())
    except OSError as exc:
        raise ValueError(str(exc)) from exc
    return given, key, f"the key given ({args.public_key})"


def run(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    try:
        kept = _kept(args)
    except ValueError as exc:
        print(f"jackpot verify: {exc}", file=sys.stderr)
        return 2
    software = integrity.check(approved=settings.approved_digest)
    with services(settings) as built:
        try:
            done, against, unchecked = _verified(built, args.since, kept)
        except ArchiveUnavailableError as exc:
            print(f"jackpot verify: the archive is unavailable: {exc}", file=sys.stderr)
            return 3
        except PeriodNotBegunError as exc:
            print(f"jackpot verify: --since {exc.day.isoformat()}: {exc}", file=sys.stderr)
            return 2
    skipped = [] if kept is None else kept[0].skipped
    show = _print_json if args.json else _print_text
    show(done, software, against, skipped, unchecked)
    return 0 if done.intact and software.authentic else 1


def _verified(
    built: Services,
    since: date | None,
    kept: tuple[Kept, Ed25519PublicKey | None, str] | None,
) -> tuple[Verification, CheckpointCheck | None, str | None]:
    """The history verified (from `since`), its findings with those of the checkpoints kept
    elsewhere, checked against it (None without --checkpoints), and why the archive's own
    could not be (None: they were, or there are none)."""
    done = built.verifier.run(since)
    against = None
    if kept is not None:
        given, key, source = kept
        against = built.checkpoints.check(given.checkpoints, key, source)
        against.findings[:0] = given.unreadable
    unchecked = built.checkpoints.stored_unchecked()
    if against is not None:
        done.findings += against.findings
    return done, against, unchecked


def _print_json(
    done: Verification,
    software: integrity.SoftwareCheck,
    against: CheckpointCheck | None,
    skipped: list[str],
    unchecked: str | None,
) -> None:
    out = {**done.to_json(), "software": software.to_json()}
    if against is not None:
        out["checkpoints"] = {**against.to_json(), "skipped": skipped}
    out["stored_checkpoints_unchecked"] = unchecked
    print(json.dumps(out, indent=2, sort_keys=True))


def _print_text(
    done: Verification,
    software: integrity.SoftwareCheck,
    against: CheckpointCheck | None,
    skipped: list[str],
    unchecked: str | None,
) -> None:
    print(f"software: sha256 {software.digest} crc32 {software.crc32}")
    for problem in software.problems:
        print(f"SOFTWARE: {problem}")
    _print_checked(done)
    if unchecked is not None:
        print(f"the archive's checkpoints were not checked: {unchecked}")
    if against is not None:
        _print_kept_elsewhere(against, skipped)
    for finding in done.findings:
        print(f"TAMPERED: {finding}")
    print("intact" if done.intact else f"{len(done.findings)} problem(s) found")


def _print_checked(done: Verification) -> None:
    """How much of the history was walked: the period, each journal's entries, the round
    records and the closed days."""
    if done.since is not None:
        print(f"from gaming day {done.since} on")
    for journal, n in sorted(done.checked.items()):
        print(f"{journal}: {n} entries checked")
    print(f"round records checked: {done.rounds}")
    print(f"closed gaming days checked: {done.days} ({done.recomputed} recomputed)")


def _print_kept_elsewhere(against: CheckpointCheck, skipped: list[str]) -> None:
    print(
        f"checkpoints kept elsewhere: {against.checked} verified with "
        f"{against.key_source}, fingerprint {against.key}; {against.heads} signed "
        "heads compared with the history"
    )
    for note in skipped:
        print(note)
