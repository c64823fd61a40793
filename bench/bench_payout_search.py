"""The console's payout search over a long history (issue 27): every search a floor
supervisor makes answers from the archive's payouts index in well under 200 ms with 100,000
past payouts, on SQLite and on PostgreSQL.

One run: a history of `--payouts` jackpots over 60 gaming days at 40 tables and 4 pools (each
won, then confirmed with a payer, witness and slip; some disputed, voided or approved; the
last day's few still owed) is archived through the archive's own write path, which keeps the
index, and the same payouts are put in Redis as the controller keeps them. Each search is
then asked through the API (the real app, in process) `--repeat` times; the figures are the
median and the slowest. The baseline is the list the search replaces, `GET
/v1/payouts?status=void`, which scans Redis's payouts: the ratio is baseline ÷ search,
measured in the same run.

    python bench/bench_payout_search.py [--payouts 100000] [--repeat 15] [--sqlite-only] [--json]
    python bench/bench_payout_search.py --quick   # a smoke run: 300 payouts, each search once
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import redis
from harness import redis_in

from jackpot.archive.rows import entry_row
from jackpot.bootstrap import bootstrap
from jackpot.domain.auth import Role
from jackpot.domain.journals import pool_journal
from jackpot.domain.payoutrecord import fold
from jackpot.entrypoints.app import create_app
from jackpot.services.clock import now_ms
from jackpot.settings import Settings

DAYS = 60
DAY_MS = 86_400_000
TABLES = [f"T{i:02d}" for i in range(1, 41)]
POOLS = ["main", "major", "minor", "mini"]
PEOPLE = [f"{first} {last}" for first in ("Dana", "Lee", "Sam", "Ari", "Kim", "Jo", "Max", "Ray")
          for last in ("Reyes", "Chan", "Ortiz", "Novak", "Ito")]  # fmt: skip
BATCH = 10_000  # entries per archive transaction, as the archiver writes them


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--payouts", type=int, default=100_000)
    p.add_argument("--repeat", type=int, default=15)
    p.add_argument("--sqlite-only", action="store_true", help="skip the PostgreSQL archive")
    p.add_argument("--json", action="store_true")
    p.add_argument(
        "--quick", action="store_true", help="a smoke run: 300 payouts, each search once"
    )
    args = p.parse_args(argv)
    if args.quick:
        args.payouts, args.repeat = 300, 1
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    data = Path(tempfile.mkdtemp(prefix="bench-payouts-"))
    postgres = None
    results = {}
    try:
        results["sqlite"] = run(args, data / "sqlite", None)
        if not args.sqlite_only:
            from harness import start_postgres

            postgres = start_postgres()
            results["postgresql"] = run(args, data / "pg", postgres.create_database("bench"))
    finally:
        if postgres is not None:
            postgres.remove()
        shutil.rmtree(data, ignore_errors=True)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        show(args, results)
    return 0


def history(n: int, now: int) -> tuple[dict[str, list[tuple[Any, ...]]], list[dict[str, Any]]]:
    """`n` payouts' entries by pool journal, and their records as they end: over DAYS days
    before `now`, the last day's newest few still owed."""
    rng = random.Random(27)
    rows: dict[str, list[tuple[Any, ...]]] = {pool_journal(p): [] for p in POOLS}
    seqs = dict.fromkeys(rows, 0)
    records = []
    start = now - DAYS * DAY_MS
    for i in range(1, n + 1):
        pool = POOLS[rng.randrange(len(POOLS))]
        journal = pool_journal(pool)
        created = start + (i * DAYS * DAY_MS) // n
        table = TABLES[rng.randrange(len(TABLES))]
        base = {"payout": f"P{i:06d}", "table": table, "round": f"r{i}", "spot": "2",
                "amount": str(rng.randrange(10_000, 5_000_000))}  # fmt: skip

        def entry(kind: str, ts: int, who: str, **extra: str) -> dict[str, str]:
            return {"type": kind, "ts": str(ts), "who": who, **base, **extra}  # noqa: B023

        entries = [entry("hit", created, f"table:{table}", player="", outcome="suited_war",
                         meter_bp="10000")]  # fmt: skip
        payer, witness = rng.sample(PEOPLE, 2)
        operator = f"operator:{rng.randrange(12):012x}"
        paid = {"note": "", "paid_by": payer, "witness": witness, "slip": f"HP-{i}"}
        roll = rng.random()
        owed = i > n - 50  # the last few: still on the floor
        at = created + rng.randrange(60_000, 1_800_000)
        if owed and roll < 0.5:
            pass  # pending
        elif roll < 0.03:
            entries.append(entry("payout_disputed", at, operator, note="camera check"))
            if not owed:
                entries.append(entry("payout_voided", at + 600_000, operator, note="misdeal",
                                     **{"from": "disputed"}))  # fmt: skip
        elif roll < 0.08:
            entries.append(entry("payout_confirmed", at, operator, **paid))
            entries.append(entry("payout_paid", at + 300_000, "operator:approver01", **paid,
                                 confirmed_by=operator, approver="Pat Shift Manager"))  # fmt: skip
        else:
            entries.append(entry("payout_paid", at, operator, **paid))
            if roll > 0.98:
                entries.append(entry("payout_voided", at + 900_000, operator,
                                     note="wrong patron", **{"from": "paid"}))  # fmt: skip
        record = None
        for fields in entries:
            seqs[journal] += 1
            rows[journal].append(entry_row(journal, seqs[journal], "", "", fields))
            record = fold(record, pool, fields)
        assert record is not None
        records.append(record)
    return rows, records


def run(args: argparse.Namespace, data: Path, archive_url: str | None) -> dict[str, Any]:
    with redis_in(data / "redis") as url:
        client = redis.Redis.from_url(url, decode_responses=True)
        settings = Settings(data_dir=data, namespace="bench", archive_url=archive_url)
        svc = bootstrap(settings, url, now_ms)
        app = create_app(settings, services=svc)
        svc.people.register("A0007", "Priya Shah")  # keys are issued to people of the register
        auditor = svc.credentials.create(Role.AUDITOR, frozenset(), "bench auditor", "A0007")[0]
        headers = {"Authorization": f"Bearer {auditor}"}
        now = now_ms()
        rows, records = history(args.payouts, now)
        began = time.perf_counter()
        for journal_rows in rows.values():
            for first in range(0, len(journal_rows), BATCH):
                svc.archive.append_rows(journal_rows[first : first + BATCH], [])
        archived_s = time.perf_counter() - began
        keys = svc.groups.main.keys
        with client.pipeline(transaction=False) as pipe:
            for first in range(0, len(records), 5000):
                pipe.hset(
                    keys.payouts,
                    mapping={r["id"]: json.dumps(r) for r in records[first : first + 5000]},
                )
            owed = [r for r in records if r["status"] == "pending"]
            if owed:
                pipe.zadd(keys.payouts_pending, {r["id"]: int(r["id"][1:]) for r in owed})
            others = [r for r in records if r["status"] in ("disputed", "awaiting_approval")]
            if others:
                pipe.zadd(keys.payouts_open, {r["id"]: int(r["id"][1:]) for r in others})
            # the store's indexes are current (the archiver left no settled payout behind)
            pipe.set(keys.payouts_open_built, "1")
            pipe.set(keys.payouts_settled_built, "1")
            pipe.execute()
        web = app.test_client()
        day = svc.days().of_time(now - 10 * DAY_MS).isoformat()
        shift_end = now - 20 * DAY_MS
        deep = web.get("/v1/payouts/history?limit=1000", headers=headers).get_json()
        depth = 1000
        while depth < len(records) // 2:  # the end of the page halfway down the history
            deep = web.get(
                f"/v1/payouts/history?limit=1000&before={deep['next']}", headers=headers
            ).get_json()
            depth += 1000
        searches = {
            "the newest 100": {},
            "one payout by id": {"payout": records[len(records) // 3]["id"]},
            "a table, all history": {"table": "T07"},
            "a person, all history": {"person": "lee chan"},
            "a gaming day": {"from": day, "to": day},
            "a shift's paid, disputed, voided": {
                "changed_from": iso(shift_end - 8 * 3_600_000),
                "changed_to": iso(shift_end),
                "status": "paid,disputed,void",
            },
            "every void (rare), with totals": {"status": "void"},
            f"a page {depth:,} deep": {"before": deep["next"]},
        }
        out: dict[str, Any] = {
            "payouts": len(records),
            "archived_seconds": round(archived_s, 1),
            "searches": {},
        }
        for name, criteria in searches.items():
            found = web.get("/v1/payouts/history", query_string=criteria, headers=headers)
            assert found.status_code == 200, found.get_json()
            out["searches"][name] = {
                **timed(web, "/v1/payouts/history", criteria, headers, args.repeat),
                "found": sum(t["payouts"] for t in found.get_json()["totals"].values()),
            }
        out["baseline"] = timed(web, "/v1/payouts", {"status": "void"}, headers, 3)
        svc.close()
        return out


def timed(web: Any, path: str, criteria: dict[str, str], headers: Any, n: int) -> dict[str, float]:
    took = []
    for _ in range(n):
        began = time.perf_counter()
        r = web.get(path, query_string=criteria, headers=headers)
        took.append((time.perf_counter() - began) * 1000)
        assert r.status_code == 200
    return {"median_ms": round(statistics.median(took), 1), "max_ms": round(max(took), 1)}


def iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).isoformat(timespec="milliseconds")


def show(args: argparse.Namespace, results: dict[str, Any]) -> None:
    for archive, r in results.items():
        base = r["baseline"]["median_ms"]
        print(
            f"\n{archive}: {r['payouts']:,} past payouts (archived with the index in "
            f"{r['archived_seconds']} s); each search asked {args.repeat} times"
        )
        print(f"  {'search':<36} {'found':>8} {'median ms':>10} {'max ms':>8} {'baseline ÷':>11}")
        for name, s in r["searches"].items():
            ratio = base / s["median_ms"] if s["median_ms"] else float("inf")
            print(
                f"  {name:<36} {s['found']:>8,} {s['median_ms']:>10} {s['max_ms']:>8} "
                f"{ratio:>10.0f}×"
            )
        print(
            f"  baseline: GET /v1/payouts?status=void (a scan of Redis's payouts) {base} ms median"
        )


if __name__ == "__main__":
    sys.exit(main())
