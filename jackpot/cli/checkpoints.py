"""`jackpot checkpoints`: the signing key, its public half for auditors, and the signed
checkpoints of the journals' heads (docs/DECISIONS.md D253-D259)."""

from __future__ import annotations

import argparse
import json
import sys

from jackpot.cli.runtime import services
from jackpot.domain.checkpoints import fingerprint, public_pem, short
from jackpot.services.checkpointfiles import NoCheckpointKeyError, generate_key, read_key
from jackpot.settings import Settings


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("checkpoints", help="the signed checkpoints of the journals' heads")
    commands = p.add_subparsers(dest="checkpoints_command", required=True, metavar="COMMAND")
    keygen = commands.add_parser(
        "keygen",
        help="make the controller's Ed25519 signing key (mode 0600)",
        description="Write a new Ed25519 private key to JACKPOT_CHECKPOINT_KEY (default "
        "checkpoint_key.pem in the data dir), readable by its owner only; never over an "
        "existing key. Prints the key's fingerprint.",
    )
    keygen.set_defaults(func=run_keygen)
    public = commands.add_parser(
        "public-key",
        help="print the public key (PEM) and its fingerprint, for the regulator and audit",
    )
    public.set_defaults(func=run_public_key)
    make = commands.add_parser("make", help="sign a checkpoint of the heads now")
    make.set_defaults(func=run_make)
    listed = commands.add_parser("list", help="the newest checkpoints, one a line")
    listed.add_argument("--limit", type=int, default=20, help="how many (default 20)")
    listed.set_defaults(func=run_list)
    show = commands.add_parser("show", help="one checkpoint as JSON (default: the latest)")
    show.add_argument("id", nargs="?", type=int, help="its number")
    show.set_defaults(func=run_show)


def run_keygen(args: argparse.Namespace) -> int:
    path = Settings.from_env().checkpoint_key_file
    try:
        made = generate_key(path)
    except FileExistsError:
        print(f"jackpot checkpoints: {path} exists; a key is never overwritten", file=sys.stderr)
        return 1
    print(f"wrote {path} (mode 0600); fingerprint {made}")
    return 0


def run_public_key(args: argparse.Namespace) -> int:
    try:
        key = read_key(Settings.from_env().checkpoint_key_file).public_key()
    except NoCheckpointKeyError as exc:
        print(f"jackpot checkpoints: {exc}", file=sys.stderr)
        return 1
    sys.stdout.write(public_pem(key).decode())
    print(f"fingerprint {fingerprint(key)}")
    return 0


def run_make(args: argparse.Namespace) -> int:
    with services(Settings.from_env()) as built:
        try:
            made = built.checkpoints.make("request")
        except NoCheckpointKeyError as exc:
            print(f"jackpot checkpoints: {exc}", file=sys.stderr)
            return 1
    if made is None:
        print("jackpot checkpoints: another worker is signing one now", file=sys.stderr)
        return 1
    print(json.dumps(made, indent=2, sort_keys=True))
    return 0


def run_list(args: argparse.Namespace) -> int:
    with services(Settings.from_env()) as built:
        latest = built.checkpoints.latest()
        newest = int(latest["id"]) if latest else 0
        found = built.checkpoints.after(max(newest - args.limit, 0), args.limit)
    for c in found:
        heads = ", ".join(f"{j} {p[0]}" for j, p in sorted(c["heads"].items()))
        print(f"#{c['id']} {short(c)} ts {c['ts']} {c['reason']} {c.get('day') or ''} {heads}")
    return 0


def run_show(args: argparse.Namespace) -> int:
    with services(Settings.from_env()) as built:
        found = built.checkpoints.latest() if args.id is None else built.checkpoints.get(args.id)
    if found is None:
        print("jackpot checkpoints: no such checkpoint", file=sys.stderr)
        return 1
    print(json.dumps(found, indent=2, sort_keys=True))
    return 0
