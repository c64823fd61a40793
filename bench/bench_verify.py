"""`jackpot verify` measured (issue 24): a day of 50,000 rounds verified, records and closed
day included, in under 10 s, and a period's verify costing the period, not the history.

One run, one machine: gaming days of `--rounds` 7-spot rounds each (`--days`, default 3) are
settled in process (the service's own `Rounds.report`, one script call each) on a
redis-server started like the embedded store, stamped across each day (the store's clock is
moved through the day as the rounds go), archived and closed as the worker does. Then, in
turn (`--repeat` times; the best of each is reported):

* `verify --since D` for the last day, the last two days, ... all days;
* a whole `verify`.

Every run must find the history intact. Figures: seconds for one day, and each period's
seconds divided by its days (flat when the cost is the period's).

With `--checkpoints N` (default 1440, the worker's minutely job over a day) signed checkpoints
are made through each day and at each close: every verify checks them all, and they are
checked once more as checkpoints kept elsewhere (`verify --checkpoints`).

    python bench/bench_verify.py [--rounds 50000] [--days 3] [--checkpoints 1440] [--postgres]
    python bench/bench_verify.py --quick [--postgres]   # a smoke run: 2 days of 300 rounds
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import redis
from bench_archive import TABLES, Offset
from doors import put_pool, put_table, report_round
from harness import redis_in
from reports import deal

from jackpot.bootstrap import bootstrap
from jackpot.domain.auth import Role
from jackpot.services.checkpointfiles import generate_key
from jackpot.services.clock import now_ms
from jackpot.settings import Settings
from jackpot.store.keys import Keys

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
STEP = 500  # rounds stamped at one instant before the store's clock moves on


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=50_000, help="rounds of each gaming day")
    p.add_argument("--days", type=int, default=3, help="gaming days of history")
    p.add_argument("--repeat", type=int, default=3, help="runs of each verify (best kept)")
    p.add_argument(
        "--postgres",
        action="store_true",
        help="archive to a throwaway PostgreSQL started for the run (Debian's postgresql)",
    )
    p.add_argument(
        "--checkpoints",
        type=int,
        default=1440,
        help="signed checkpoints made through each day, as the worker's minutely job would "
        "(default 1440); the whole history's are checked by every verify, and timed once "
        "more as checkpoints kept elsewhere (verify --checkpoints)",
    )
    p.add_argument("--json", action="store_true")
    p.add_argument(
        "--quick",
        action="store_true",
        help="a smoke run: 2 days of 300 rounds, 10 checkpoints a day, each verify once",
    )
    args = p.parse_args(argv)
    if args.quick:
        args.rounds, args.days, args.repeat, args.checkpoints = 300, 2, 1, 10
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    data = Path(tempfile.mkdtemp(prefix="bench-verify-"))
    postgres = None
    try:
        archive_url = None
        if args.postgres:
            from harness import start_postgres

            postgres = start_postgres()
            archive_url = postgres.create_database("bench_verify")
        result = run(args, data, archive_url)
    finally:
        if postgres is not None:
            postgres.remove()
        shutil.rmtree(data, ignore_errors=True)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        show(result)
    return 0 if result["intact"] else 1


def run(args: argparse.Namespace, data: Path, archive_url: str | None) -> dict[str, Any]:
    clock = Offset()
    with redis_in(data / "redis") as url:
        client = redis.Redis.from_url(url, decode_responses=True)
        settings = Settings(
            data_dir=data / "var",
            namespace="verify",
            retention_seconds=2,
            clock_skew_seconds=0,
            archive_url=archive_url,
        )
        svc = bootstrap(settings, url, clock)
        generate_key(settings.checkpoint_key_file)
        every = max(args.rounds // max(args.checkpoints, 1), 1) if args.checkpoints else 0
        put_pool(svc, "day", {"reset": 100_000, "rate_bp": 500, "reserve_rate_bp": 100}, "op")
        for t in TABLES:
            put_table(svc, t, {"pools": ["day"], "decks": 6, "spots": 7}, "op")
        secret, key = svc.credentials.create(Role.TABLE, frozenset(TABLES))
        counters = Keys("verify").counters
        gaming = svc.days()
        first = gaming.of_time(clock()) + timedelta(days=1)
        days = [first + timedelta(days=k) for k in range(args.days)]
        rng = random.Random(24)
        started = time.perf_counter()
        for day in days:
            start, end = gaming.bounds(day)
            for i in range(args.rounds):
                if i % STEP == 0:  # the store's clock, and the service's, through the day
                    at = start + 60_000 + (end - start - 120_000) * i // args.rounds
                    clock.ms = at - now_ms()
                    client.hset(counters, "clock", at)
                body = deal(rng, TABLES[i % len(TABLES)], f"{day}-{i}")
                body["dealt_at"] = _iso(clock())
                report_round(svc, body, key, secret)
                if i % 10_000 == 9_999:
                    svc.archiver.run(trim=False)
                if every and i % every == every - 1:
                    svc.checkpoints.make("interval")
        clock.ms = gaming.bounds(days[-1])[1] + 2 * 86_400_000 - now_ms()
        svc.archiver.run()
        closed = svc.accounting.close_due()  # each close signs its checkpoint (D265)
        built = time.perf_counter() - started
        kept = list(svc.checkpoints.after(0, 10**9))
        timings: dict[str, list[float]] = {}
        found: dict[str, Any] = {}
        periods = [(f"since {d}", d) for d in reversed(days)] + [("whole", None)]
        for _ in range(args.repeat):
            for name, since in periods:
                began = time.perf_counter()
                done = svc.verifier.run(since)
                timings.setdefault(name, []).append(time.perf_counter() - began)
                found[name] = done
            began = time.perf_counter()
            against = svc.checkpoints.check(kept, None, "the controller's key")
            timings.setdefault("checkpoints kept elsewhere", []).append(time.perf_counter() - began)
        svc.close()
    out: dict[str, Any] = {
        "archive": "postgresql" if archive_url else "sqlite",
        "rounds_per_day": args.rounds,
        "days": [d.isoformat() for d in days],
        "closed": closed,
        "build_seconds": built,
        "intact": all(v.intact for v in found.values()) and not against.findings,
        "checkpoints": len(kept),
        "checkpoints_heads": against.heads,
        "checkpoints_seconds": min(timings["checkpoints kept elsewhere"]),
        "verify": {},
    }
    for n, (name, since) in enumerate(periods):
        done = found[name]
        span = n + 1 if since is not None else len(days)
        out["verify"][name] = {
            "days_of_rounds": span,
            "seconds": min(timings[name]),
            "seconds_all": timings[name],
            "seconds_per_day": min(timings[name]) / span,
            "rounds": done.rounds,
            "entries": sum(done.checked.values()),
            "closed_days": done.days,
            "recomputed": done.recomputed,
            "findings": [str(f) for f in done.findings],
        }
    return out


def _iso(ms: int) -> str:
    return (EPOCH + timedelta(milliseconds=ms)).isoformat(timespec="milliseconds")


def show(result: dict[str, Any]) -> None:
    print(
        f"archive {result['archive']}: {len(result['days'])} gaming days of "
        f"{result['rounds_per_day']:,} rounds built in {result['build_seconds']:.0f} s; "
        f"closed {', '.join(result['closed'])}"
    )
    for name, v in result["verify"].items():
        print(
            f"verify {name:>16}: {v['seconds']:6.2f} s ({v['seconds_per_day']:.2f} s a day of "
            f"rounds), {v['rounds']:,} records, {v['entries']:,} entries, "
            f"{v['closed_days']} closed days ({v['recomputed']} recomputed), "
            f"{len(v['findings'])} findings"
        )
    print(
        f"verify --checkpoints: {result['checkpoints']:,} checkpoints kept elsewhere "
        f"({result['checkpoints_heads']:,} signed heads) checked in "
        f"{result['checkpoints_seconds']:.2f} s"
    )
    one = next(iter(result["verify"].values()))
    print(
        f"one day of {result['rounds_per_day']:,} rounds: {one['seconds']:.2f} s (target < 10 s: "
        f"{'met' if one['seconds'] < 10 else 'NOT MET'}); intact: {result['intact']}"
    )


if __name__ == "__main__":
    sys.exit(main())
