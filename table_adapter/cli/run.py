"""`war-floor`: simulated tables dealing Casino War into a controller through their adapters.

Without `--controller` it starts the embedded controller (table_adapter.cli.controller) and
provisions the pool, tables and key it needs. With `--json` the last line of stdout is a
JSON summary. The exit status is 1 when a report was rejected or quarantined, left
undelivered, or the journal failed; 130 after Ctrl-C; 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import httpx
from rich.console import Console

from table_adapter.cli.controller import (
    ControllerError,
    exit_on_sigterm,
    local_controller,
    non_negative,
    positive,
    settings,
)
from table_adapter.cli.summary import report
from table_adapter.floor.plan import FLOOR_POOL, STRATEGIES, FloorPlan
from table_adapter.floor.simulator import Floor, FloorOptions, backlog_tables, journal_path
from table_adapter.floor.tally import FloorResult
from table_adapter.game.profiles import PROFILES
from table_adapter.game.shoe import Shuffler
from table_adapter.link.answers import RoundAnswer
from table_adapter.link.backoff import Backoff
from table_adapter.link.journal import Entry, JournalError
from table_adapter.link.status import LinkSettings
from table_adapter.screens.board import Heading
from table_adapter.screens.display import describe
from table_adapter.screens.live import LiveView
from table_adapter.screens.plain import PlainView
from table_adapter.screens.wins import WinFeed

log = logging.getLogger("table_adapter")


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="war-floor",
        description="Deal Casino War at simulated tables and report every round to a controller.",
        epilog="`war-floor demo --help`: the demo floor that `./dev run` starts.",
    )
    _add_floor_options(p)
    _add_dealing_options(p)
    _add_controller_options(p)
    _add_delivery_options(p)
    p.add_argument("--json", action="store_true", help="print a JSON summary as the last line")
    p.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="show the controller's answer to every winning round",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no live view on a terminal")
    return p


def _add_floor_options(p: argparse.ArgumentParser) -> None:
    """The floor and its game: how many tables deal how many rounds of which game."""
    p.add_argument("--tables", type=positive, default=4, help="tables on the floor (default 4)")
    p.add_argument(
        "--rounds",
        type=non_negative,
        default=100,
        help="rounds per table (default 100; 0 only delivers the journal's backlog)",
    )
    p.add_argument("--profile", choices=sorted(PROFILES), default="wisconsin")
    p.add_argument("--decks", type=int, choices=(6, 7, 8), default=6)
    p.add_argument("--strategy", choices=STRATEGIES, default="war", help="what players do on a tie")
    p.add_argument("--seed", type=int, default=None, help="deal reproducibly")
    p.add_argument(
        "--shuffler",
        choices=[s.value for s in Shuffler],
        default="none",
        help="by hand (none), two alternating batches, or a continuous shuffling machine",
    )


def _add_dealing_options(p: argparse.ArgumentParser) -> None:
    """How the rounds go: cards face up, dealers' errors and changes, slow players, kept
    stand-offs, and the pace."""
    p.add_argument(
        "--face-up-rate",
        type=float,
        default=0.0,
        help="how often a card is found face up in the shoe (default 0); a second in a shoe "
        "voids its round",
    )
    p.add_argument(
        "--irregularities",
        type=float,
        default=0.0,
        metavar="RATE",
        help="this share of rounds has a dealer's or machine's error the rules name (a card "
        "drawn in error or not dealt, a failed shuffler, a misdelivered card, a forgotten "
        "burn, Stadium's malfunction), each applied by its rule and journaled (default 0)",
    )
    p.add_argument(
        "--dealer-change-every",
        type=non_negative,
        default=0,
        metavar="N",
        help="a new dealer, who burns a card, every N rounds at each table (default 0: never)",
    )
    p.add_argument(
        "--slow-players",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="Stadium: this share of bets answer a tie too late for the decision timer, or "
        "never (default 0)",
    )
    p.add_argument(
        "--keep-standoff",
        action="store_true",
        help="Stadium: pushed antes stay on the felt for the next game (rule 8(a))",
    )
    p.add_argument(
        "--rate",
        type=float,
        default=0.0,
        help="rounds per second per table (default 0: as fast as answers come)",
    )


def _add_controller_options(p: argparse.ArgumentParser) -> None:
    """Which controller the tables report to, with which keys, pool and table ids."""
    p.add_argument(
        "--controller", metavar="URL", help="a running controller (default: start the embedded one)"
    )
    p.add_argument(
        "--key",
        default=os.environ.get("WAR_FLOOR_KEY"),
        help="table key for the floor's tables (with --controller; env WAR_FLOOR_KEY)",
    )
    p.add_argument(
        "--operator-key",
        default=os.environ.get("WAR_FLOOR_OPERATOR_KEY"),
        help="with --controller: provision the pool and tables with this key first",
    )
    p.add_argument(
        "--pool", help="the pool the tables feed (default: one per game, e.g. standard-6d)"
    )
    p.add_argument("--table-prefix", help="table ids are PREFIX1.. (default e.g. wisconsin-6d-)")
    p.add_argument(
        "--data-dir",
        type=Path,
        default=Path(os.environ.get("JACKPOT_DATA_DIR", "var")),
        help="the adapters' journal (and the embedded store) live here (default var)",
    )


def _add_delivery_options(p: argparse.ArgumentParser) -> None:
    """How the adapters deliver: grace period, timeouts, resends, the final drain."""
    p.add_argument(
        "--grace",
        type=float,
        default=10.0,
        help="seconds without the controller before side bets close (default 10)",
    )
    p.add_argument("--timeout", type=float, default=5.0, help="HTTP timeout, seconds")
    p.add_argument(
        "--retry-cap",
        type=float,
        default=5.0,
        help="longest wait between resends, seconds (default 5)",
    )
    p.add_argument(
        "--drain-timeout",
        type=float,
        default=60.0,
        help="seconds to wait for the backlog after the last round (default 60)",
    )


View = LiveView | PlainView


def main(argv: list[str]) -> int:
    """Run the floor; the process exit status."""
    p = parser()
    args = p.parse_args(argv)
    exit_on_sigterm()
    log_to_stderr(logging.INFO if args.verbose else logging.WARNING)
    plan, link = _plan_and_link(p, args)
    if args.controller and not args.key:
        p.error("--controller needs --key: a table key for the floor's tables")
    feed = WinFeed()
    options = FloorOptions(
        link=link,
        timeout=args.timeout,
        drain_seconds=args.drain_timeout,
        on_answer=answers_to(feed, verbose=args.verbose),
    )
    view = _live_view(args, plan, feed)
    try:
        result = _run(args, plan, options, view)
    except JournalError as exc:
        log.error("%s", exc)
        return 1
    except (httpx.HTTPError, RuntimeError, ControllerError) as exc:
        log.error("cannot set up the floor: %s", exc)
        return 1
    except KeyboardInterrupt:  # before the floor started: nothing was dealt
        return 130
    report(result, sys.stdout, as_json=args.json)
    return _exit_status(result)


def _live_view(args: argparse.Namespace, plan: FloorPlan, feed: WinFeed) -> LiveView | None:
    """The live view on a terminal's stderr; none with --quiet or off a terminal."""
    if args.quiet or not sys.stderr.isatty():
        return None
    heading = Heading("war-floor", f"{plan.tables} tables, pool {plan.pool_id}")
    return LiveView(Console(file=sys.stderr), feed, heading)


def _exit_status(result: FloorResult) -> int:
    """130 for a run stopped by Ctrl-C, else 0 if it went through, 1 if not."""
    if result.interrupted:
        return 130
    return 0 if result.ok else 1


def _plan_and_link(
    p: argparse.ArgumentParser, args: argparse.Namespace
) -> tuple[FloorPlan, LinkSettings]:
    """The floor's plan and its adapters' link settings; a usage error if they do not hold."""
    try:
        plan = FloorPlan(
            tables=args.tables,
            rounds=args.rounds,
            profile=args.profile,
            decks=args.decks,
            strategy=args.strategy,
            seed=args.seed,
            rate=args.rate,
            pool=args.pool,
            table_prefix=args.table_prefix,
            shuffler=args.shuffler,
            face_up_rate=args.face_up_rate,
            irregularities=args.irregularities,
            dealer_change_every=args.dealer_change_every,
            keep_standoff=args.keep_standoff,
            slow_players=args.slow_players,
        )
        link = LinkSettings(
            grace_seconds=args.grace,
            answer_wait_seconds=args.timeout * 2,
            backoff=Backoff(base=min(0.1, args.retry_cap), cap=args.retry_cap),
        )
    except (KeyError, ValueError) as exc:
        p.error(str(exc.args[0]) if exc.args else str(exc))
    return plan, link


def _run(
    args: argparse.Namespace, plan: FloorPlan, options: FloorOptions, view: View | None
) -> FloorResult:
    journal = journal_path(args.data_dir)
    if args.controller:
        if args.operator_key:
            provision_over_http(args.controller, args.operator_key, plan)
        return watch(Floor(plan, args.controller, args.key, journal, options), view)
    with local_controller(
        settings(args.data_dir, on_free_port=True),
        {plan.pool_id: FLOOR_POOL},
        {t: plan.table_config() for t in plan.table_ids},
        key_tables=backlog_tables(journal),
        who="war-floor",
        log=args.data_dir / "war-floor-serve.log",
    ) as local:
        return watch(Floor(plan, local.base, local.table_key, journal, options), view)


def watch(floor: Floor, view: View | None) -> FloorResult:
    """Run the floor with `view` (if any) drawn as it goes and left showing its end."""
    if view is None:
        return floor.run()
    view.start()
    try:
        return floor.run(view)
    finally:
        view.close(floor)


def provision_over_http(base: str, operator_key: str, plan: FloorPlan) -> None:
    """Create the pool if missing and put the floor's tables, with an operator key."""
    headers = {"Authorization": f"Bearer {operator_key}"}
    with httpx.Client(base_url=base.rstrip("/"), headers=headers, timeout=10.0) as http:
        if http.get(f"/v1/pools/{plan.pool_id}").status_code == 404:
            http.put(f"/v1/pools/{plan.pool_id}", json=FLOOR_POOL).raise_for_status()
        for table in plan.table_ids:
            http.put(f"/v1/tables/{table}", json=plan.table_config()).raise_for_status()


_print_lock = threading.Lock()


def answers_to(feed: WinFeed, verbose: bool) -> Callable[[Entry, RoundAnswer], None]:
    """What the floor does with each answer: feed the view, and with -v print who won."""

    def answered(entry: Entry, answer: RoundAnswer) -> None:
        feed.answered(answer)
        lines = describe(answer) if verbose else []
        if lines:
            with _print_lock:  # answers come on every table's thread: whole lines, in turn
                sys.stderr.write("".join(f"{line}\n" for line in lines))
                sys.stderr.flush()

    return answered


def log_to_stderr(level: int) -> None:
    logging.basicConfig(
        level=level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
