"""A closed gaming day's report, read and printed (issue 27, part 2): the statement and the
timeline the page reads, the page drawn in Chromium, and its PDF (the browser's print), for a
day of `--rounds` rounds, `--jackpots` jackpots and `--voids` voided rounds (issue 40: the
voids section) at 8 tables. Target: under 5 s each.

One run: the day is dealt in process (the service's own `Rounds.report`, one script call a
round), archived and closed as the worker closes it, then served by the real app on a local
port; each measure is taken `--repeat` times (median and slowest, seconds). Needs Debian's
chromium (as the tests do).

    python bench/bench_day_report.py [--rounds 50000] [--jackpots 100] [--voids 50]
        [--repeat 3] [--json]
    python bench/bench_day_report.py --quick   # a smoke run: 200 rounds, 2 jackpots, 2 voids
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import requests
from doors import put_pool, put_table, report_round
from harness import chromium, redis_in
from reports import deal
from werkzeug.serving import make_server

from jackpot.bootstrap import bootstrap
from jackpot.domain.auth import Role
from jackpot.entrypoints.app import create_app
from jackpot.services.clock import now_ms
from jackpot.services.payouts import Actor
from jackpot.settings import Settings
from jackpot.store.embedded import free_port

TABLES = [f"BENCH-{i}" for i in range(1, 9)]
DAY_MS = 86_400_000


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=50_000)
    p.add_argument("--jackpots", type=int, default=100)
    p.add_argument("--voids", type=int, default=50)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--json", action="store_true")
    p.add_argument(
        "--quick",
        action="store_true",
        help="a smoke run: 200 rounds, 2 jackpots, 2 voids, each measure once",
    )
    args = p.parse_args(argv)
    if args.quick:
        args.rounds, args.jackpots, args.voids, args.repeat = 200, 2, 2, 1
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    data = Path(tempfile.mkdtemp(prefix="bench-day-report-"))
    try:
        result = run(args, data)
    finally:
        shutil.rmtree(data, ignore_errors=True)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        show(result)
    return 0


class Ahead:
    """The service's clock, moved on to close the day."""

    def __init__(self) -> None:
        self.ms = 0

    def __call__(self) -> int:
        return now_ms() + self.ms


def hit(table: str, round_id: str) -> dict[str, Any]:
    """A suited war of aces at spot 1: the pool's jackpot."""
    return {
        "table": table,
        "round": round_id,
        "dealer": {"card": "As", "war_card": "As"},
        "spots": [{"spot": 1, "wager": 500, "card": "As", "war": True, "war_card": "As"}],
        "dealt_at": datetime.now(UTC).isoformat(timespec="milliseconds"),
    }


def run(args: argparse.Namespace, data: Path) -> dict[str, Any]:
    clock = Ahead()
    with redis_in(data / "redis") as url:
        settings = Settings(data_dir=data, namespace="bench")
        svc = bootstrap(settings, url, clock)
        put_pool(svc, "day", {"reset": 100_000, "rate_bp": 500, "reserve_rate_bp": 100}, "op")
        for t in TABLES:
            put_table(svc, t, {"pools": ["day"], "decks": 6, "spots": 7}, "op")
        secret, key = svc.credentials.create(Role.TABLE, frozenset(TABLES))
        svc.people.register("E1042", "Dana Reyes")  # the register: keys are issued to people
        svc.people.register("A0007", "Priya Shah")
        operator, manager = svc.credentials.create(Role.OPERATOR, frozenset(), "", "E1042")
        auditor, _ = svc.credentials.create(Role.AUDITOR, frozenset(), "Internal audit", "A0007")
        rng = random.Random(27)
        every = max(args.rounds // max(args.jackpots, 1), 1)
        began = time.perf_counter()
        jackpots = 0
        for i in range(args.rounds):
            table = TABLES[i % len(TABLES)]
            if i % every == every - 1 and jackpots < args.jackpots:
                body, jackpots = hit(table, f"d{i}"), jackpots + 1
            else:
                body = deal(rng, table, f"d{i}")
            report_round(svc, body, key, secret)
            if i % 10_000 == 9_999:
                svc.archiver.run()
        dealt_s = time.perf_counter() - began
        # rounds voided on review, one person's each (below any approval threshold)
        actor = Actor(manager.who, "Dana Reyes (E1042)", "E1042")
        step = max(args.rounds // max(args.voids, 1), 1)
        for n in range(min(args.voids, args.rounds)):
            i = n * step + step // 2
            table = TABLES[i % len(TABLES)]
            voids = svc.groups.on_table(table, lambda g: g.voids)
            voids.void(table, f"d{i}", "misdeal on review", None, actor)
        day = svc.days().of_time(clock())
        clock.ms += 2 * DAY_MS
        svc.archiver.run()
        began = time.perf_counter()
        statement = svc.accounting.close(day)
        closed_s = time.perf_counter() - began
        app = create_app(settings, services=svc)
        port = free_port()
        logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
        server = make_server("127.0.0.1", port, app, threaded=True)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        base = f"http://127.0.0.1:{port}"
        headers = {"Authorization": f"Bearer {auditor}"}
        try:
            measures = measure(args, base, headers, auditor, day.isoformat())
        finally:
            server.shutdown()
            svc.close()
    return {
        "rounds": sum(t["rounds"] for t in statement["tables"]),
        "jackpots": len(statement["hits"]),
        "voids": len(statement.get("voids", [])),
        "dealt_seconds": round(dealt_s, 1),
        "close_seconds": round(closed_s, 2),
        "measures": measures,
    }


def measure(
    args: argparse.Namespace, base: str, headers: dict[str, str], auditor: str, day: str
) -> dict[str, Any]:
    def api(path: str) -> Callable[[], None]:
        def ask() -> None:
            r = requests.get(f"{base}{path}", headers=headers, timeout=60)
            r.raise_for_status()

        return ask

    out = {
        "statement (JSON)": timed(api(f"/v1/accounting/days/{day}"), args.repeat),
        "timeline (JSON)": timed(api(f"/v1/accounting/days/{day}/timeline"), args.repeat),
    }
    with chromium() as browser:
        context = browser.new_context(viewport={"width": 1180, "height": 820})
        context.add_init_script(f"sessionStorage.setItem('jackpot.console.key', '{auditor}')")
        page = context.new_page()

        def drawn() -> None:
            page.goto(f"{base}/reports/day?day={day}")
            page.wait_for_selector(f"body[data-day='{day}']", timeout=60_000)

        def printed() -> None:
            pdf = page.pdf(format="A4", landscape=True, print_background=True)
            assert pdf.startswith(b"%PDF")

        out["page drawn (HTML)"] = timed(drawn, args.repeat)
        out["printed (PDF)"] = timed(printed, args.repeat)
        out["page drawn and printed"] = timed(lambda: (drawn(), printed()), args.repeat)
    return out


def timed(work: Callable[[], Any], n: int) -> dict[str, float]:
    took = []
    for _ in range(n):
        began = time.perf_counter()
        work()
        took.append(time.perf_counter() - began)
    return {"median_s": round(statistics.median(took), 3), "max_s": round(max(took), 3)}


def show(r: dict[str, Any]) -> None:
    print(
        f"a gaming day of {r['rounds']:,} rounds, {r['jackpots']} jackpots and {r['voids']} voids "
        f"(dealt in {r['dealt_seconds']} s, closed in {r['close_seconds']} s)"
    )
    print(f"  {'measure':<26} {'median s':>9} {'max s':>8}")
    for name, m in r["measures"].items():
        print(f"  {name:<26} {m['median_s']:>9} {m['max_s']:>8}")


if __name__ == "__main__":
    sys.exit(main())
