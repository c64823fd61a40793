"""`war-floor demo`: the controller served on its usual address and the DEMO floor (its plan:
table_adapter.floor.demo) dealing into it until Ctrl-C, with a sign, a console key and a
supervisor confirming its jackpots (docs/DECISIONS.md D208-D210).
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from rich.console import Console

from table_adapter.cli.controller import (
    CONSOLE_KEY_FILE,
    ControllerError,
    exit_on_sigterm,
    local_controller,
    operator_key,
    register_person,
    settings,
    sign_process,
)
from table_adapter.cli.run import View, answers_to, log_to_stderr, watch
from table_adapter.floor import demo
from table_adapter.floor.simulator import Floor, FloorOptions, backlog_tables, journal_path
from table_adapter.link.journal import JournalError
from table_adapter.link.supervisor import WITNESS, WITNESS_NAME, Supervisor
from table_adapter.screens.board import Heading
from table_adapter.screens.display import dollars
from table_adapter.screens.live import LiveView
from table_adapter.screens.plain import PlainView
from table_adapter.screens.wins import WinFeed

log = logging.getLogger("table_adapter")


def main(argv: list[str]) -> int:
    """`war-floor demo`: serve on JACKPOT_BIND and run the DEMO floor until Ctrl-C."""
    args = demo.parser().parse_args(argv)
    exit_on_sigterm()
    log_to_stderr(logging.WARNING)
    plan = demo.plan(args)
    served = settings(args.data_dir)
    journal = journal_path(args.data_dir)
    serve_log = args.data_dir / "demo-serve.log"
    feed = WinFeed()
    console_key = args.data_dir / CONSOLE_KEY_FILE
    view = _view(feed, served.signs_bind, served.bind, console_key)
    print(f"war-floor demo: starting the controller on {served.bind} ...", flush=True)
    try:
        with (
            local_controller(
                served,
                {plan.pool_id: demo.DEMO_POOL},
                {t: plan.table_config() for t in plan.table_ids},
                key_tables=backlog_tables(journal),
                who="war-floor demo",
                log=serve_log,
            ) as local,
            operator_key(local.store, "DEMO-SUPERVISOR", "War-floor demo supervisor") as key,
            operator_key(local.store, "DEMO-CONSOLE", "Demo floor supervisor (console)") as console,
            key_file(console_key, console),
            sign_process(served, local.store, args.data_dir / "demo-signs.log"),
        ):
            register_person(local.store, WITNESS, WITNESS_NAME)  # the hand pays' witness
            demo_sign(local.base, key, plan.pool_id)
            supervisor = Supervisor(local.base, key, [plan.pool_id], args.confirm_after)
            options = FloorOptions(on_answer=answers_to(feed, verbose=False))
            floor = Floor(plan, local.base, local.table_key, journal, options)
            supervisor.start()
            try:
                result = watch(floor, view)
            finally:
                supervisor.stop()
    except KeyboardInterrupt:  # before the floor started: nothing was dealt
        return 130
    except JournalError as exc:
        log.error("%s", exc)
        return 1
    except (httpx.HTTPError, RuntimeError, ControllerError, subprocess.SubprocessError) as exc:
        log.error("cannot start the demo (is %s free? see %s): %s", served.bind, serve_log, exc)
        return 1
    # on stderr when Ctrl-C ended the pipe's reader too (`| tee`)
    view.say(_farewell(result.summary(), journal))
    return 130 if result.interrupted else 0


def _view(feed: WinFeed, signs_bind: str, bind: str, console_key: Path) -> View:
    """The demo's view on stdout, live on a terminal, headed by where to look and how to stop."""
    heading = Heading(
        "war-floor DEMO",
        f"sign http://{signs_bind}/signs/DEMO · console http://{bind}/console "
        f"with the key in {console_key} · Ctrl-C stops",
        demo.LABEL,
    )
    if sys.stdout.isatty():
        return LiveView(Console(file=sys.stdout), feed, heading)
    return PlainView(sys.stdout, feed, heading)


def _farewell(s: dict[str, Any], journal: Path) -> str:
    """What the demo says when it stops: what it dealt, and what waits for the next start."""
    return (
        f"war-floor demo: {s['rounds']:,} rounds, {s['side_bets']:,} side bets, handle "
        f"{dollars(s['handle'])}, {s['jackpots']} jackpots\n"
        f"{s['pending']} reports wait in {journal} for the next start"
    )


def demo_sign(base: str, operator_key: str, pool: str) -> None:
    """The sign DEMO, showing the DEMO pool under its own name (defined again at each start:
    the same)."""
    body = {
        "levels": [{"pool": pool}],
        "title": "Casino War",
        "branding": "DEMO · war-floor",
    }
    headers = {"Authorization": f"Bearer {operator_key}"}
    httpx.put(f"{base}/v1/signs/DEMO", json=body, headers=headers, timeout=10).raise_for_status()


@contextmanager
def key_file(path: Path, secret: str) -> Iterator[None]:
    """The console's operator key in a file only its owner reads, removed when the demo
    ends (the `jackpot` CLI finds it there by default)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(secret + "\n")
    try:
        yield
    finally:
        path.unlink(missing_ok=True)
