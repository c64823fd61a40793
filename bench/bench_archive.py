"""Years of operation, measured (issue 8): Redis memory stays flat while rounds are dealt and
archived, the archiver keeps up with the round rate many times over, a gaming day closes in
seconds, and reconciling an hour costs the same whatever the journal's length.

One run, one machine, every figure a ratio measured in that run:

1. **memory**: rounds are settled in process (the service's own `Rounds.report`, one script
   call each) on a redis-server started like the embedded store (AOF, appendfsync always),
   with a short retention window and the archiver running beside them as the worker runs it.
   Redis's `used_memory` after 10,000 rounds and after 200,000 must be within 10 %.
2. **archive throughput**: with the archiver stopped, a backlog of rounds is dealt at full
   speed, then archived in one run: rounds archived per second ÷ rounds settled per second.
3. **gaming day**: the day holding every round of the run is closed (the accounting report
   from the archive), timed.
4. **reconciliation**: a pool journal of 100,000 and one of 10,000,000 archived entries (a
   synthetic history written straight into the archive), an hour of each reconciled.

    python bench/bench_archive.py [--rounds 200000] [--postgres | --archive-url URL]
                                  [--small 100000] [--big 10000000]
    python bench/bench_archive.py --quick [--postgres]   # a smoke run of every phase

`--quick` runs every phase at the smallest size (memory read after 200 and 400 rounds, a
backlog of 200, a day of 200 rounds, journals of 1,000 and 5,000 entries, each reconciled
once) with a 1 s retention window: seconds, and its figures too small to hold to the targets
(the journals are shorter than the hour: no opening balance, so not `balanced`).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import redis
from doors import put_pool, put_table, report_round
from harness import redis_in
from reports import deal

from jackpot.archive.rows import ENTRY_COLUMNS
from jackpot.archive.store import Archive
from jackpot.bootstrap import Services, bootstrap
from jackpot.domain.auth import Role
from jackpot.domain.journals import (
    Span,
    pool_journal,
)
from jackpot.domain.reconcile import BALANCE, reconcile
from jackpot.services.clock import now_ms
from jackpot.settings import Settings
from jackpot.store.journal import JournalStore
from jackpot.store.keys import Keys

RETENTION_SECONDS = 2
ARCHIVE_EVERY_SECONDS = 0.5
TABLES = [f"BENCH-{i}" for i in range(1, 9)]
HOUR_MS = 3_600_000


class Offset:
    """The service's clock; moved two days on to close the run's gaming day."""

    def __init__(self) -> None:
        self.ms = 0

    def __call__(self) -> int:
        return now_ms() + self.ms


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=200_000, help="rounds of the memory phase")
    p.add_argument("--early", type=int, default=10_000, help="the first memory reading")
    p.add_argument("--backlog", type=int, default=20_000, help="rounds of the throughput phase")
    p.add_argument("--archive-url", help="SQLAlchemy URL (default: SQLite in a temp dir)")
    p.add_argument(
        "--postgres",
        action="store_true",
        help="archive to a throwaway PostgreSQL started for the run (Debian's postgresql)",
    )
    p.add_argument("--day-rounds", type=int, default=50_000, help="rounds of the gaming day")
    p.add_argument("--small", type=int, default=100_000, help="entries of the short journal")
    p.add_argument("--big", type=int, default=10_000_000, help="entries of the long journal")
    p.add_argument("--json", action="store_true")
    p.add_argument("--quick", action="store_true", help="a smoke run of every phase")
    args = p.parse_args(argv)
    args.retention, args.turns = RETENTION_SECONDS, 5
    if args.quick:
        args.rounds, args.early, args.backlog, args.day_rounds = 400, 200, 200, 200
        args.small, args.big, args.retention, args.turns = 1_000, 5_000, 1, 1
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    args.day_archive_url = None  # SQLite under the day's data dir, unless --postgres
    data = Path(tempfile.mkdtemp(prefix="bench-archive-"))
    postgres = None
    try:
        if args.postgres:
            from harness import start_postgres

            postgres = start_postgres()
            args.archive_url = postgres.create_database("bench")
            args.day_archive_url = postgres.create_database("bench_day")
        result = {
            "service": run_service(args, data),
            "day": run_day(args, data),
            "reconcile": run_reconcile(args, data),
        }
    finally:
        if postgres is not None:
            postgres.remove()
        shutil.rmtree(data, ignore_errors=True)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        show(result)
    return 0


# --- 1-3: memory, throughput, the gaming day ------------------------------------------------


def run_service(args: argparse.Namespace, data: Path) -> dict[str, Any]:
    clock = Offset()
    with redis_in(data / "redis") as url:
        client = redis.Redis.from_url(url, decode_responses=True)
        settings = Settings(
            data_dir=data,
            namespace="bench",
            retention_seconds=args.retention,
            clock_skew_seconds=0,
            archive_url=args.archive_url,
        )
        svc = bootstrap(settings, url, clock)
        put_pool(svc, "bench", {"reset": 100_000, "rate_bp": 500, "reserve_rate_bp": 100}, "op")
        for t in TABLES:
            put_table(svc, t, {"pools": ["bench"], "decks": 6, "spots": 7}, "op")
        secret, key = svc.credentials.create(Role.TABLE, frozenset(TABLES))
        rng = random.Random(8)
        counter = iter(range(10**9))

        def settle(n: int) -> float:
            """Deal and settle `n` rounds; the seconds it took."""
            bodies = [deal(rng, TABLES[i % 8], f"r{next(counter)}") for i in range(n)]
            started = time.perf_counter()
            for body in bodies:
                body["dealt_at"] = _now_iso()
                report_round(svc, body, key, secret)
            return time.perf_counter() - started

        # 1. memory, with the archiver running beside the rounds
        stop = threading.Event()
        archiving = threading.Thread(target=_archive_loop, args=(svc, stop), daemon=True)
        archiving.start()
        readings = {}
        dealt = 0
        for mark in (args.early, args.rounds):
            while dealt < mark:
                step = min(5_000, mark - dealt)
                settle(step)
                dealt += step
            readings[mark] = _steady_memory(client, svc, args.retention)
        stop.set()
        archiving.join()
        svc.archiver.run()

        # 2. the archiver against the round rate
        seconds = settle(args.backlog)
        settle_rate = args.backlog / seconds
        started = time.perf_counter()
        backlog = svc.archiver.run(trim=False)
        archive_seconds = time.perf_counter() - started
        entries = sum(backlog.archived.values())
        archive_rate = backlog.rounds / archive_seconds

        version = client.info("server")["redis_version"]
        svc.close()
    early, late = readings[args.early], readings[args.rounds]
    return {
        "redis": version,
        "archive": "postgresql" if args.archive_url else "sqlite",
        "retention_seconds": args.retention,
        "memory_bytes": {str(k): v for k, v in readings.items()},
        "memory_ratio": late / early,
        "settle_rounds_per_s": settle_rate,
        "archive_rounds_per_s": archive_rate,
        "archive_entries_per_s": entries / archive_seconds,
        "archive_ratio": archive_rate / settle_rate,
    }


def run_day(args: argparse.Namespace, data: Path) -> dict[str, Any]:
    """A gaming day of `--day-rounds` rounds, archived, then closed: the close timed."""
    clock = Offset()
    with redis_in(data / "redis-day") as url:
        settings = Settings(
            data_dir=data / "day",
            namespace="day",
            retention_seconds=args.retention,
            clock_skew_seconds=0,
            # a controller of its own needs an archive of its own
            archive_url=args.day_archive_url,
        )
        svc = bootstrap(settings, url, clock)
        put_pool(svc, "day", {"reset": 100_000, "rate_bp": 500, "reserve_rate_bp": 100}, "op")
        for t in TABLES:
            put_table(svc, t, {"pools": ["day"], "decks": 6, "spots": 7}, "op")
        secret, key = svc.credentials.create(Role.TABLE, frozenset(TABLES))
        rng = random.Random(50)
        for i in range(args.day_rounds):
            body = deal(rng, TABLES[i % 8], f"d{i}")
            body["dealt_at"] = _now_iso()
            report_round(svc, body, key, secret)
            if i % 10_000 == 9_999:
                svc.archiver.run()
        day = svc.days().of_time(clock())
        clock.ms += 2 * 86_400_000
        svc.archiver.run()
        started = time.perf_counter()
        report = svc.accounting.close(day)
        seconds = time.perf_counter() - started
        svc.close()
    return {
        "rounds": sum(t["rounds"] for t in report["tables"]),
        "close_seconds": seconds,
        "balanced": report["balanced"],
    }


def _archive_loop(svc: Services, stop: threading.Event) -> None:
    while not stop.wait(ARCHIVE_EVERY_SECONDS):
        svc.archiver.run()


def _steady_memory(client: redis.Redis, svc: Services, retention: int) -> int:
    """used_memory once the window has passed over what was dealt and a run has trimmed it,
    as a worker leaves it a few seconds after the tables pause."""
    time.sleep(retention + 1)
    svc.archiver.run()
    return int(client.info("memory")["used_memory"])


def _now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


# --- 4: reconciling an hour of a short and of a long journal ---------------------------------


def run_reconcile(args: argparse.Namespace, data: Path) -> dict[str, Any]:
    out: dict[str, Any] = {}
    with redis_in(data / "redis-empty") as url:
        client = redis.Redis.from_url(url, decode_responses=True)
        built = {}
        for size in (args.small, args.big):
            archive = Archive(f"sqlite:///{data / f'journal-{size}.sqlite3'}")
            started = time.perf_counter()
            last_ts = _synthetic_history(archive, size)
            built[size] = (archive, last_ts, time.perf_counter() - started)
        # the two journals' hours reconciled in turn, five times each (--quick: once): whatever
        # else the machine does meanwhile weighs on both alike; the best of each is compared
        timings: dict[int, list[float]] = {size: [] for size in built}
        done: dict[int, Any] = {}
        for _ in range(args.turns):
            for size, (archive, last_ts, _built) in built.items():
                journal = JournalStore(client, Keys("empty"), archive)
                started = time.perf_counter()
                done[size] = _reconcile_hour(journal, last_ts + 1 - HOUR_MS, last_ts + 1)
                timings[size].append(time.perf_counter() - started)
        for size, (archive, _last_ts, seconds) in built.items():
            out[str(size)] = {
                "entries": size,
                "build_seconds": seconds,
                "hour_entries": done[size].rounds,
                "reconcile_seconds": min(timings[size]),
                "reconcile_seconds_all": timings[size],
                "balanced": done[size].balanced,
            }
            archive.close()
    small, big = out[str(args.small)], out[str(args.big)]
    out["ratio"] = big["reconcile_seconds"] / small["reconcile_seconds"]
    return out


def _reconcile_hour(journal: JournalStore, from_ts: int, to_ts: int) -> Any:
    """What Reports.reconcile does once it has checked the pool exists."""
    start = journal.seq_at("big", from_ts)
    opening = next((e for e in journal.before("big", start) if BALANCE in e.fields), None)
    period = journal.scan("big", start - 1, span=Span(None, to_ts))
    entries = [] if opening is None else [opening.to_json()]
    return reconcile("big", [*entries, *(e.to_json() for e in period)], from_ts, to_ts)


def _synthetic_history(archive: Archive, size: int) -> int:
    """`size` contributions of a pool `big`, one every 100 ms, written straight into the
    archive (not chained: reconciliation reads balances, not hashes); the last entry's ts."""
    archive.ensure()
    base = now_ms() - size * 100
    batch = 50_000
    value = 10_000_000_000
    with archive.engine.begin() as connection:
        for first in range(1, size + 1, batch):
            rows = []
            for seq in range(first, min(first + batch, size + 1)):
                value += 175_000
                fields = {
                    "type": "contribution",
                    "ts": str(base + seq * 100),
                    "table": "BENCH-1",
                    "round": f"r{seq}",
                    "who": "bench",
                    "wagered": "3500",
                    "bets": "7",
                    "to_visible_units": "175000",
                    "to_reserve_units": "0",
                    "overflow_units": "0",
                    "value_units": str(value),
                    "reserve_units": "0",
                }
                rows.append(
                    (
                        pool_journal("big"),
                        seq,
                        base + seq * 100,
                        "contribution",
                        "BENCH-1",
                        f"r{seq}",
                        "",
                        "",
                        json.dumps(fields, separators=(",", ":")),
                    )
                )
            connection.exec_driver_sql(archive._insert("journal_entries", ENTRY_COLUMNS), rows)
    return base + size * 100


# --- the report ------------------------------------------------------------------------------


def show(result: dict[str, Any]) -> None:
    s, r = result["service"], result["reconcile"]
    m = s["memory_bytes"]
    early, late = sorted(m, key=int)
    print(
        f"redis-server {s['redis']}, archive {s['archive']}, retention {s['retention_seconds']} s"
    )
    print(
        f"memory: {int(m[early]):,} B after {int(early):,} rounds, {int(m[late]):,} B after "
        f"{int(late):,}: ratio {s['memory_ratio']:.3f} (target <= 1.10: "
        f"{'met' if s['memory_ratio'] <= 1.10 else 'NOT MET'})"
    )
    print(
        f"archive: {s['archive_rounds_per_s']:,.0f} rounds/s ({s['archive_entries_per_s']:,.0f} "
        f"entries/s) against {s['settle_rounds_per_s']:,.0f} rounds/s settled in process: "
        f"{s['archive_ratio']:.1f}x (target >= 10x: "
        f"{'met' if s['archive_ratio'] >= 10 else 'NOT MET'})"
    )
    d = result["day"]
    print(
        f"gaming day of {d['rounds']:,} rounds closed in {d['close_seconds']:.2f} s "
        f"(target < 10 s: {'met' if d['close_seconds'] < 10 else 'NOT MET'}; "
        f"balanced: {d['balanced']})"
    )
    sizes = sorted((k for k in r if k != "ratio"), key=int)
    for k in sizes:
        v = r[k]
        print(
            f"reconcile an hour ({v['hour_entries']:,} entries) of a {v['entries']:,}-entry "
            f"journal: {v['reconcile_seconds'] * 1000:.0f} ms (balanced: {v['balanced']})"
        )
    print(f"long / short journal: {r['ratio']:.2f}")


if __name__ == "__main__":
    sys.exit(main())
