"""Benchmark of the floor simulator: war-floor's sustained rounds/s against a local controller.

    python bench/bench_floor.py [--tables 1,2,4,8] [--rounds 2000] [--json]
    python bench/bench_floor.py --quick     # a smoke run: 2 tables, 20 rounds

One local controller for the whole run, started as `war-floor` starts its own
(jackpot/cli/local.py: the embedded redis-server with AOF `appendfsync always`, gunicorn as
`jackpot serve` runs it, in a temporary data directory). For each table count, `war-floor
--controller URL --key KEY` runs as a user runs it: a subprocess, its own SQLite journal
(WAL, synchronous=FULL), every round journaled before it is sent and acknowledged before
the table deals the next one, `--rounds` rounds in total spread over the tables.

Measured per table count: rounds/s from war-floor's own JSON summary (first deal to the
last acknowledgement, the drain included); the latency from journal commit to recorded
acknowledgement (p50, p99, from the journal); CPU milliseconds per round of war-floor, of
gunicorn (master and workers) and of redis-server. Everything runs on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import redis

from jackpot.cli.local import local_controller
from jackpot.settings import Settings
from jackpot.store.embedded import free_port
from table_adapter.floor.plan import FLOOR_POOL, FloorPlan
from table_adapter.link.journal import Journal, State

CLK_TCK = os.sysconf("SC_CLK_TCK")
MAX_TABLES = 16


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", default="1,2,4,8", help="comma-separated table counts")
    p.add_argument("--rounds", type=int, default=2000, help="rounds per table count, in total")
    p.add_argument("--profile", default="wisconsin")
    p.add_argument("--strategy", default="mix")
    p.add_argument("--json", action="store_true", help="also print the results as JSON")
    p.add_argument("--quick", action="store_true", help="a smoke run: 2 tables, 20 rounds")
    args = p.parse_args(argv)
    if args.quick:
        args.tables, args.rounds = "2", 20
    return args


def tree_cpu_seconds(pid: int) -> float:
    """user + system CPU of a process and its live children, from /proc."""
    total = 0.0
    for p in [pid, *children_of(pid)]:
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += (int(fields[11]) + int(fields[12])) / CLK_TCK
    return total


def children_of(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(c) for c in f.read().split()]
    except FileNotFoundError:
        return []


def redis_cpu_seconds(url: str) -> float:
    client = redis.Redis.from_url(url)
    try:
        info = client.info("cpu")
    finally:
        client.close()
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


def children_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def quantile(values: list[int], q: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(local: Any, plan: FloorPlan, rounds: int, data_dir: Path) -> dict[str, Any]:
    """One war-floor run against the controller; its figures."""
    per_table = max(1, rounds // plan.tables)
    argv = [
        sys.executable,
        "-m",
        "table_adapter.cli",
        "--controller",
        local.base,
        "--key",
        local.table_key,
        "--tables",
        str(plan.tables),
        "--rounds",
        str(per_table),
        "--profile",
        plan.profile,
        "--strategy",
        plan.strategy,
        "--seed",
        "1",
        "--pool",
        plan.pool_id,
        "--table-prefix",
        "BENCH-",
        "--data-dir",
        str(data_dir),
        "--json",
        "-q",
    ]
    service0, redis0 = tree_cpu_seconds(local.pid), redis_cpu_seconds(local.store)
    floor0, started = children_cpu_seconds(), time.monotonic()
    done = subprocess.run(argv, capture_output=True, text=True, timeout=3600, check=False)
    wall = time.monotonic() - started
    floor_cpu = children_cpu_seconds() - floor0
    service_cpu = tree_cpu_seconds(local.pid) - service0
    redis_cpu = redis_cpu_seconds(local.store) - redis0
    if done.returncode != 0:
        raise RuntimeError(f"war-floor failed ({done.returncode}):\n{done.stderr}")
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    with Journal(data_dir / "adapter" / "journal.sqlite") as journal:
        latencies = [
            e.settled_ms - e.created_ms
            for e in journal.entries(State.ACKED)
            if e.settled_ms is not None
        ]
    n = summary["rounds"]
    return {
        "tables": plan.tables,
        "rounds": n,
        "side_bets": summary["side_bets"],
        "rounds_per_second": summary["rounds_per_second"],
        "process_wall_seconds": round(wall, 2),
        "ack_latency_ms_p50": quantile(latencies, 0.50),
        "ack_latency_ms_p99": quantile(latencies, 0.99),
        "cpu_ms_per_round": {
            "war_floor": round(floor_cpu * 1000 / n, 2),
            "gunicorn": round(service_cpu * 1000 / n, 2),
            "redis": round(redis_cpu * 1000 / n, 2),
        },
        "rejected": summary["rejected"],
        "pending": summary["pending"],
    }


def machine() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
    }


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    counts = [int(t) for t in args.tables.split(",")]
    if not all(1 <= t <= MAX_TABLES for t in counts):
        raise SystemExit(f"table counts are 1..{MAX_TABLES}")
    results = []
    with tempfile.TemporaryDirectory(prefix="bench-floor-") as tmp:
        root = Path(tmp)
        plan = FloorPlan(
            tables=max(counts),
            profile=args.profile,
            strategy=args.strategy,
            pool="bench",
            table_prefix="BENCH-",
        )
        settings = replace(
            Settings.from_env(),
            redis_url=None,
            data_dir=root / "var",
            bind=f"127.0.0.1:{free_port()}",
        )
        tables = {t: plan.table_config() for t in plan.table_ids}
        with local_controller(
            settings, {plan.pool_id: FLOOR_POOL}, tables, who="bench", log=root / "serve.log"
        ) as local:
            print(HEADER, flush=True)
            for count in counts:
                run_plan = replace(plan, tables=count)
                result = measure(local, run_plan, args.rounds, root / f"floor-{count}")
                results.append(result)
                print(row(result), flush=True)
    if args.json:
        print(json.dumps({"machine": machine(), "results": results}, indent=2))
    return 0


HEADER = (
    "| tables | rounds | rounds/s | ack latency p50 / p99 ms | war-floor CPU ms/round | "
    "gunicorn | redis |\n|---|---|---|---|---|---|---|"
)


def row(r: dict[str, Any]) -> str:
    cpu = r["cpu_ms_per_round"]
    return (
        f"| {r['tables']} | {r['rounds']:,} | {r['rounds_per_second']:,.1f} | "
        f"{r['ack_latency_ms_p50']} / {r['ack_latency_ms_p99']} | "
        f"{cpu['war_floor']:.2f} | {cpu['gunicorn']:.2f} | {cpu['redis']:.2f} |"
    )


if __name__ == "__main__":
    sys.exit(main())
