"""`jackpot keys create|list|revoke`: API keys, shown once, stored hashed."""

from __future__ import annotations

import argparse
import sys
import time

from jackpot.bootstrap import bootstrap
from jackpot.cli.runtime import store_url
from jackpot.domain.auth import PEOPLES_ROLES, Role
from jackpot.errors import JackpotError
from jackpot.settings import Settings


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("keys", help="create, list or revoke API keys")
    keys = p.add_subparsers(dest="keys_command", required=True)
    create = keys.add_parser("create", help="print a new API key alone on the last line")
    create.add_argument("--role", required=True, choices=[r.value for r in Role])
    create.add_argument(
        "--table",
        action="append",
        default=[],
        metavar="ID",
        help="a table the key may report for (table role; repeatable)",
    )
    create.add_argument(
        "--person",
        default="",
        metavar="ID",
        help="the registered person an operator's or auditor's key is issued to (required "
        "for them: jackpot people add first); every step taken with it is theirs",
    )
    create.add_argument(
        "--label",
        default="",
        help="a note on the key: the device a table's or a sign's key sits in",
    )
    create.set_defaults(func=create_key)
    listing = keys.add_parser("list", help="list keys (never their secrets)")
    listing.set_defaults(func=list_keys)
    revoke = keys.add_parser("revoke", help="revoke a key by its id")
    revoke.add_argument("key_id")
    revoke.set_defaults(func=revoke_key)


def create_key(args: argparse.Namespace) -> int:
    if Role(args.role) in PEOPLES_ROLES and not args.person:
        print(
            f"jackpot keys create: an {args.role} key is issued to a registered person: "
            "--person ID (their employee or badge number; jackpot people add registers them)",
            file=sys.stderr,
        )
        return 2
    settings = Settings.from_env()
    with store_url(settings) as url:
        services = bootstrap(settings, url)
        try:
            secret, key = services.credentials.create(
                Role(args.role), frozenset(args.table), args.label, args.person
            )
        except JackpotError as exc:
            print(f"jackpot keys create: {exc.message}", file=sys.stderr)
            return 2
        finally:
            services.close()
    tables = f" for tables {', '.join(sorted(key.tables))}" if key.tables else ""
    holder = f" issued to {key.person}" if key.person else ""
    print(f"created {key.role.value} key {key.key_id}{holder}{tables}; it is shown only once:")
    print(secret)
    return 0


def list_keys(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    with store_url(settings) as url:
        services = bootstrap(settings, url)
        try:
            rows = services.credentials.list()
        finally:
            services.close()
    for key, revoked in rows:
        when = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(key.created / 1000))
        state = "revoked" if revoked else "active"
        print(
            f"{key.key_id}  {key.role.value:<8} {state:<7} {when}Z  "
            f"{','.join(sorted(key.tables)) or '-'}  {key.person or '-'}  {key.label}"
        )
    return 0


def revoke_key(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    with store_url(settings) as url:
        services = bootstrap(settings, url)
        try:
            done = services.credentials.revoke(args.key_id)
        finally:
            services.close()
    print(f"revoked {args.key_id}" if done else f"no key {args.key_id}")
    return 0 if done else 1
