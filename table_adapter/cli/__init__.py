"""The door: `war-floor` and its commands, the one way in from a shell.

    run.py         `war-floor`: a floor dealing into a controller (started here if none is given)
    demo.py        `war-floor demo`: the DEMO floor into a controller served on its usual address
    reports.py     `war-floor reports JOURNAL`: an adapter journal's reports, requeued on demand
    controller.py  the controller started here: the one module of the table side that reaches
                   the controller's code beyond jackpot.domain

`python -m table_adapter.cli` is `war-floor`.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """`war-floor [demo|reports] ...`: the command's exit status."""
    argv = sys.argv[1:] if argv is None else argv
    # each command loads only what it needs (`reports` reads a journal: no HTTP, no screen)
    if argv[:1] == ["demo"]:
        from table_adapter.cli import demo

        return demo.main(argv[1:])
    if argv[:1] == ["reports"]:
        from table_adapter.cli import reports

        return reports.main(argv[1:])
    from table_adapter.cli import run

    return run.main(argv)
