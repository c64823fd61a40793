"""Entry point of the `jackpot` command."""

from __future__ import annotations

import argparse
import sys

from jackpot import __version__, logs
from jackpot.cli import accounting, archive, keys, math_cmd, serve, verify, worker
from jackpot.cli.runtime import exit_on_sigterm
from jackpot.settings import Settings, SettingsError
from jackpot.store.embedded import EmbeddedStoreError


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="jackpot", description="Casino War progressive jackpot controller"
    )
    p.add_argument("--version", action="version", version=f"jackpot {__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    for module in (serve, worker, archive, verify, accounting, keys, math_cmd):
        module.register(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    exit_on_sigterm()
    try:
        logs.configure(Settings.from_env())
        return int(args.func(args))
    except (SettingsError, EmbeddedStoreError) as exc:
        # a setting to fix, not a bug: the message names it, a traceback would bury it
        print(f"jackpot: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
