"""Entry point of the `jackpot` command.

A command's module is imported only when that command runs (all of them for `--help`): the
commands that talk to a controller over HTTP start in a fraction of the time the ones that
open the store and the archive need, which matters to a script calling them in a loop.
"""

from __future__ import annotations

import argparse
import importlib
import signal
import sys
from collections.abc import Sequence

from jackpot import __version__, logs
from jackpot.settings import Settings, SettingsError

# each command and the module that declares and runs it, in the order `--help` lists them
COMMANDS = {
    "serve": "jackpot.cli.serve",
    "signs": "jackpot.cli.signs",
    "worker": "jackpot.cli.worker",
    "archive": "jackpot.cli.archive",
    "verify": "jackpot.cli.verify",
    "checkpoints": "jackpot.cli.checkpoints",
    "accounting": "jackpot.cli.accounting",
    "people": "jackpot.cli.people",
    "keys": "jackpot.cli.keys",
    "math": "jackpot.cli.math",
    "pools": "jackpot.cli.pools",
    "tables": "jackpot.cli.tables",
    "payouts": "jackpot.cli.payouts",
    "voids": "jackpot.cli.voids",
    "journal": "jackpot.cli.journal",
    "healthcheck": "jackpot.cli.healthcheck",
}


def parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser for `argv`'s command (every command's when none is named yet)."""
    p = argparse.ArgumentParser(
        prog="jackpot", description="Casino War progressive jackpot controller"
    )
    p.add_argument("--version", action="version", version=f"jackpot {__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    named = next((a for a in (argv or []) if not a.startswith("-")), None)
    wanted = [named] if named in COMMANDS else list(COMMANDS)
    for command in wanted:
        importlib.import_module(COMMANDS[command]).register(sub)
    return p


def exit_on_sigterm() -> None:
    """SIGTERM (a service manager's stop) unwinds like Ctrl-C: every `finally` runs, so the
    embedded store and any gunicorn the command started are stopped, not orphaned."""

    def stop(signum: int, _frame: object) -> None:
        sys.exit(128 + signum)

    signal.signal(signal.SIGTERM, stop)


def main(argv: list[str] | None = None) -> int:
    given = sys.argv[1:] if argv is None else argv
    args = parser(given).parse_args(given)
    exit_on_sigterm()
    from jackpot.store.embedded import EmbeddedStoreError  # see the docstring

    try:
        logs.configure(Settings.from_env())
        return int(args.func(args))
    except (SettingsError, EmbeddedStoreError) as exc:
        # a setting to fix, not a bug: the message names it, a traceback would bury it
        print(f"jackpot: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
