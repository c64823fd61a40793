"""What the round script costs Redis on its own, without load: one client, one round at a
time, on a redis-server started as the embedded store starts it (AOF, appendfsync always).

`python bench/run.py` measures Redis under the HTTP load, where the script shares two
CPUs with gunicorn and the load generator: its `usec` in INFO commandstats is wall-clock
time, and grows whenever the server is preempted mid-script. This benchmark measures the
same script uncontended, next to a *skeleton*: a script making the same Redis commands with
the same shapes of arguments (keys, field names, a 7-spot result) for a round without hits
or envy, and no Lua logic at all. The skeleton is the floor of what these reads and writes
cost on this machine; the ratio says what the script's own logic adds. A third kind deals each
table's rounds out of a shoe in order and names it (the shoe audit, counted in the same script
call): its cost is the ratio of the two script kinds, measured in one run. Two more feed a
second level beside the first: a hand level, and a must-hit-by level ($1,000 reset, must hit
by $5,000: a hidden trigger, drawn in Python for every round, followed bet by bet in the
script); the ratio of the two is what a must-hit-by level costs over a hand one, in Redis and
in the process's Python. A last kind is the first again on tables whose filters of forgotten
rounds (D225) hold 196,608 rounds each (two full layers): what a new round pays to be tested
against them, over a table with none.

    python bench/bench_script.py [--rounds 4000] [--slices 4] [--json]
    python bench/bench_script.py --quick     # a smoke run: one slice of 50 rounds a kind

(`--quick`'s forgotten tables hold 2,048 rounds each, not two layers: building those is most
of a full run's set-up.)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import redis
from doors import pool_state, put_pool, put_table, report_round
from reports import Shoe, deal

from jackpot.bootstrap import bootstrap
from jackpot.domain.auth import Role
from jackpot.settings import Settings
from jackpot.store.embedded import free_port, server_args, wait_ready
from jackpot.store.forgotten import ForgottenRounds
from jackpot.store.keys import Keys

TARGET_US = 50.0

# settle_round's commands for a 7-spot round without hits or envy, with fixed values
SKELETON = """
local n = ARGV[3]
redis.call('HMGET', KEYS[1], 'digest', 'static', 'dynamic')
redis.call('HMGET', KEYS[5], 'role', 'revoked')
redis.call('HMGET', KEYS[2], 'version', 'rounds')
redis.call('HMGET', KEYS[4], 'payout', 'clock', 'house_seq')
redis.call('TIME')
redis.call('HMGET', KEYS[6], 'value', 'reserve', 'reset', 'rate_bp', 'reserve_rate_bp', 'cap',
  'policy', 'seq')
redis.call('XADD', KEYS[3], n .. '-0', 'type', 'round', 'ts', '1763800000000', 'table',
  'BENCH-1', 'round', 'r1234567', 'who', 'table:0123abcd', 'bets', '7', 'wagered', '3500',
  'fixed', '0', 'envy', '0')
redis.call('XADD', KEYS[7], n .. '-0', 'type', 'contribution', 'ts', '1763800000000', 'table',
  'BENCH-1', 'round', 'r1234567', 'who', 'table:0123abcd', 'wagered', '3500', 'bets', '7',
  'to_visible_units', '1750000', 'to_reserve_units', '350000', 'overflow_units', '0',
  'value_units', '1234567890', 'reserve_units', '12345678')
redis.call('HSET', KEYS[6], 'value', '1234567890', 'reserve', '12345678', 'seq', n)
redis.call('HINCRBY', KEYS[6], 'in_cents', 3500)
redis.call('HINCRBY', KEYS[6], 'bets', 7)
redis.call('HINCRBY', KEYS[6], 'contrib_units', 2100000)
redis.call('HSET', KEYS[4], 'house_seq', n, 'clock', '1763800000000', 'payout', '0')
local dynamic = '{"jackpots":{},"pools":{"bench":123456}}'
redis.call('HSET', KEYS[1], 'digest', ARGV[1], 'static', ARGV[2], 'dynamic', dynamic,
  'ts', '1763800000000', 'who', 'table:0123abcd')
redis.call('HSET', KEYS[2], 'last_seen', '1763800000000', 'rounds', n)
return {'ok', '', dynamic}
"""


#: rounds each forgotten table's filters hold: two full layers
FORGOTTEN = 196_608


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=4000, help="rounds per kind and slice")
    p.add_argument("--slices", type=int, default=4, help="alternating slices of each kind")
    p.add_argument("--fsync", default="always", choices=["always", "everysec"])
    p.add_argument("--json", action="store_true")
    p.add_argument(
        "--quick",
        action="store_true",
        help="the same run at the smallest size (one slice of 50 rounds a kind): a smoke run",
    )
    args = p.parse_args(argv)
    args.forgotten = FORGOTTEN
    if args.quick:
        args.rounds, args.slices, args.forgotten = 50, 1, 2048
    if args.rounds < 1 or args.slices < 1:
        p.error("--rounds and --slices must be positive")
    return args


def evalsha_stats(client: redis.Redis) -> tuple[float, float, float]:
    """(calls, usec) of EVALSHA and the server's CPU seconds so far."""
    info = client.info("everything")
    stat = info.get("cmdstat_evalsha", {"calls": 0, "usec": 0})
    return float(stat["calls"]), float(stat["usec"]), info["used_cpu_sys"] + info["used_cpu_user"]


class Totals:
    def __init__(self) -> None:
        self.calls = self.usec = self.cpu = 0.0

    def add(self, before: tuple[float, float, float], after: tuple[float, float, float]) -> None:
        self.calls += after[0] - before[0]
        self.usec += after[1] - before[1]
        self.cpu += after[2] - before[2]

    def as_dict(self) -> dict[str, float]:
        return {
            "calls": self.calls,
            "usec_per_call": self.usec / self.calls,
            "cpu_us_per_call": self.cpu / self.calls * 1e6,
        }


def run(args: argparse.Namespace) -> dict[str, Any]:
    data = Path(tempfile.mkdtemp(prefix="bench-script-"))
    port = free_port()
    argv = server_args(data, port)
    argv[argv.index("--appendfsync") + 1] = args.fsync
    server = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    try:
        wait_ready(url)
        client = redis.Redis.from_url(url, decode_responses=True)
        version = client.info("server")["redis_version"]
        svc = bootstrap(Settings(namespace="bench"), url)
        level = {"reset": 100_000, "rate_bp": 500, "reserve_rate_bp": 100}
        put_pool(svc, "bench", level, "op")
        put_pool(svc, "hand2", level, "op")
        put_pool(svc, "mhb", {**level, "level": "must_hit_by", "cap": 500_000}, "op")
        tables = [f"BENCH-{i}" for i in range(1, 9)]
        pairs = {"TWO": ["bench", "hand2"], "MHB": ["bench", "mhb"]}
        for t in tables:
            put_table(svc, t, {"pools": ["bench"], "decks": 6, "spots": 7}, "op")
            for prefix, pools in pairs.items():
                put_table(svc, t.replace("BENCH", prefix), {"pools": pools, "decks": 6}, "op")
        for t in tables:
            put_table(svc, t.replace("BENCH", "FORG"), {"pools": ["bench"], "decks": 6}, "op")
        everyone = [t.replace("BENCH", p) for t in tables for p in ("BENCH", "FORG", *pairs)]
        filters = ForgottenRounds(client, Keys("bench"))
        for t in tables:  # two full layers of rounds archived and trimmed long ago
            for start in range(0, args.forgotten, 2048):
                filters.call("remember", ((t.replace("BENCH", "FORG"), f"old{i}")
                                          for i in range(start, start + 2048)))  # fmt: skip
        secret, key = svc.credentials.create(Role.TABLE, frozenset(everyone))
        rng = random.Random(1)
        total = args.rounds * args.slices
        reports = [deal(rng, tables[i % 8], f"r{i}") for i in range(total + 200)]
        shoes = {t: Shoe(rng, t) for t in tables}
        forgetful = iter(
            [deal(rng, tables[i % 8].replace("BENCH", "FORG"), f"f{i}") for i in range(total)]
        )
        shod = [deal(rng, tables[i % 8], f"s{i}", shoes[tables[i % 8]]) for i in range(total)]
        fed = {
            prefix: iter(
                [
                    deal(rng, tables[i % 8].replace("BENCH", prefix), f"{prefix}{i}")
                    for i in range(total + 200)
                ]  # fmt: skip
            )
            for prefix in pairs
        }
        for body in reports[:200]:  # warm-up
            report_round(svc, body, key, secret)
        for prefix in pairs:  # ... and the first round of each kind: the process meets mhb
            for _ in range(200):
                report_round(svc, next(fed[prefix]), key, secret)

        skeleton = client.script_load(SKELETON)
        static = json.dumps(
            {
                "table": "BENCH-1",
                "round": "r1234567",
                "spots": [
                    {"spot": s, "player": f"BENCH-1-p{s}", "outcome": "dealer_wins"}
                    | {"wager": 500, "pay": 0, "envy": 0}
                    for s in range(1, 8)
                ],
            },
            separators=(",", ":"),
        )
        k = "{skeleton}"
        sk_keys = [f"{k}/table", f"{k}/journal", f"{k}/counters", f"{k}/key", f"{k}/pool"]
        client.hset(f"{k}/key", "role", "table")

        real, floor, audited, filtered = Totals(), Totals(), Totals(), Totals()
        second = {prefix: Totals() for prefix in pairs}
        second_cpu = dict.fromkeys(pairs, 0.0)
        py_cpu = 0.0
        pending = iter(reports[200:])
        pending_shod = iter(shod)
        seq = 0
        for _ in range(args.slices):
            before = evalsha_stats(client)
            t0 = time.process_time()
            for _ in range(args.rounds):
                report_round(svc, next(pending), key, secret)
            py_cpu += time.process_time() - t0
            real.add(before, evalsha_stats(client))

            before = evalsha_stats(client)
            for _ in range(args.rounds):
                report_round(svc, next(pending_shod), key, secret)
            audited.add(before, evalsha_stats(client))

            before = evalsha_stats(client)
            for _ in range(args.rounds):
                report_round(svc, next(forgetful), key, secret)
            filtered.add(before, evalsha_stats(client))

            for prefix in pairs:
                before = evalsha_stats(client)
                t0 = time.process_time()
                for _ in range(args.rounds):
                    report_round(svc, next(fed[prefix]), key, secret)
                second_cpu[prefix] += time.process_time() - t0
                second[prefix].add(before, evalsha_stats(client))

            before = evalsha_stats(client)
            for _ in range(args.rounds):
                seq += 1
                keys = [f"{k}/round/{seq}", *sk_keys[:4], sk_keys[4], f"{k}/pool/journal"]
                client.evalsha(skeleton, len(keys), *keys, "d" * 64, static, str(seq))
            floor.add(before, evalsha_stats(client))
        return {
            "redis_version": version,
            "fsync": args.fsync,
            "rounds": total,
            "script": real.as_dict(),
            "script_with_shoe": audited.as_dict(),
            "skeleton": floor.as_dict(),
            "ratio_shoe_to_script": audited.usec / audited.calls / (real.usec / real.calls),
            "script_with_forgotten_rounds": filtered.as_dict(),
            "ratio_forgotten_to_script": filtered.usec / filtered.calls / (real.usec / real.calls),
            "ratio_script_to_skeleton": real.usec / real.calls / (floor.usec / floor.calls),
            "python_cpu_us_per_report_round": py_cpu / total * 1e6,
            "two_hand_levels": second["TWO"].as_dict(),
            "hand_and_must_hit_by": second["MHB"].as_dict(),
            "ratio_must_hit_by_to_hand": second["MHB"].usec
            / second["MHB"].calls
            / (second["TWO"].usec / second["TWO"].calls),
            "python_cpu_us_two_hand_levels": second_cpu["TWO"] / total * 1e6,
            "python_cpu_us_hand_and_must_hit_by": second_cpu["MHB"] / total * 1e6,
            "must_hit_by_hits": pool_state(svc, "mhb").hits,
            "target_us": TARGET_US,
        }
    finally:
        server.terminate()
        server.wait(timeout=20)
        subprocess.run(["rm", "-rf", str(data)], check=False)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    result = run(args)
    s, f = result["script"], result["skeleton"]
    print(
        f"redis-server {result['redis_version']}, appendfsync {result['fsync']}, "
        f"{result['rounds']} rounds of 7 spots, one client, {args.slices} alternating slices"
    )
    print(f"{'':28s} {'evalsha us/call':>16s} {'INFO cpu us/call':>17s}")
    forgotten = "... 2 layers forgotten"
    if args.forgotten != FORGOTTEN:
        forgotten = f"... {args.forgotten:,} forgotten"
    rows = (
        ("settle_round.lua", s),
        ("... naming the shoe", result["script_with_shoe"]),
        (forgotten, result["script_with_forgotten_rounds"]),
        ("... feeding two hand levels", result["two_hand_levels"]),
        ("... a hand and a must-hit-by", result["hand_and_must_hit_by"]),
        ("skeleton (same commands)", f),
    )
    for name, row in rows:
        print(f"{name:28s} {row['usec_per_call']:16.1f} {row['cpu_us_per_call']:17.1f}")
    met = "MET" if s["usec_per_call"] <= TARGET_US else "NOT MET"
    print(
        f"script / skeleton: {result['ratio_script_to_skeleton']:.2f}; "
        f"target <= {TARGET_US:.0f} us per round: {met}"
    )
    print(f"with the shoe audit / without: {result['ratio_shoe_to_script']:.2f}")
    layers = "two layers" if args.forgotten == FORGOTTEN else f"{args.forgotten:,}"
    print(f"with {layers} of forgotten rounds / none: {result['ratio_forgotten_to_script']:.2f}")
    print(
        f"a must-hit-by level beside a hand one / two hand levels: "
        f"{result['ratio_must_hit_by_to_hand']:.2f} in Redis; Python CPU per report "
        f"{result['python_cpu_us_hand_and_must_hit_by']:.0f} / "
        f"{result['python_cpu_us_two_hand_levels']:.0f} us; "
        f"the must-hit-by level hit {result['must_hit_by_hits']} times"
    )
    py = result["python_cpu_us_per_report_round"]
    print(f"Python CPU per report_round (in process): {py:.0f} us")
    if args.json:
        print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    raise SystemExit(main())
