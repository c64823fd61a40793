"""The round script's cost alone, in the fewest lines any tree of the project since 41b8605
runs (bench/compare.py): 7-spot rounds of one hand level, reported one at a time through the
service's own round entry in process (bench/doors.py), on a redis-server started as the
embedded store starts it (AOF, appendfsync always). No HTTP, no other client: what Redis
spends on a round (`EVALSHA` time, the server's CPU and the bytes its AOF grows by, per
call), and what the process spends in Python.

    python bench/bench_round_script.py [--rounds 2000] [--slices 3] [--instructions 200] [--json]
    python bench/bench_round_script.py --quick     # a smoke run: one slice of 50 rounds

`--instructions N` runs N more rounds against a redis-server under valgrind's callgrind and
counts the server's instructions per round: deterministic, where every timing moves with
whatever else the machine runs (Debian: apt-get install valgrind). `--python-instructions N`
counts this process's own (Python's) instructions per round the same way, each round posted
to the service's WSGI app as gunicorn calls it (metrics in multiprocess mode, as under
gunicorn): the work a worker does for a round between its request and its answer, less the
HTTP server's part. It runs this script twice under callgrind, with 100 and 100 + N rounds
after the same set-up, and divides the difference by N. Without valgrind on the machine,
either count is skipped, with a line that says so.

`bench/bench_script.py` measures more kinds (a shoe named, forgotten rounds, a must-hit-by
level) beside a skeleton, on the trees that have them.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import redis
from doors import http_app, post_round, put_pool, put_table, report_round
from reports import deal

from jackpot.bootstrap import bootstrap
from jackpot.domain.auth import Role
from jackpot.settings import Settings
from jackpot.store.embedded import free_port, server_args, wait_ready


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=2000, help="rounds per slice")
    p.add_argument("--slices", type=int, default=3, help="slices (the median is taken)")
    p.add_argument(
        "--instructions",
        type=int,
        default=0,
        metavar="N",
        help="also count Redis's instructions per round over N rounds under valgrind's "
        "callgrind (deterministic to a few in 10,000: no other load moves it)",
    )
    p.add_argument(
        "--python-instructions",
        type=int,
        default=0,
        metavar="N",
        help="also count this process's instructions per round over N rounds under callgrind",
    )
    p.add_argument("--json", action="store_true", help="print the figures as JSON too")
    p.add_argument(
        "--quick",
        action="store_true",
        help="the same run at the smallest size (one slice of 50 rounds): a smoke run",
    )
    # one of the two runs --python-instructions makes: set up, report ROUNDS rounds, exit
    p.add_argument("--python-child", type=int, nargs=2, metavar=("ROUNDS", "DEALT"),
                   help=argparse.SUPPRESS)  # fmt: skip
    args = p.parse_args(argv)
    if args.quick:
        args.rounds, args.slices = 50, 1
        args.instructions = min(args.instructions, 5)
        args.python_instructions = min(args.python_instructions, 5)
    if args.rounds < 1 or args.slices < 1:
        p.error("--rounds and --slices must be positive")
    return args


def stats(client: redis.Redis) -> tuple[float, float, float, float]:
    """EVALSHA's calls and usec so far, the server's CPU seconds, and the AOF's size."""
    info = client.info("everything")
    stat = info.get("cmdstat_evalsha", {"calls": 0, "usec": 0})
    cpu = info["used_cpu_sys"] + info["used_cpu_user"]
    return float(stat["calls"]), float(stat["usec"]), cpu, float(info["aof_current_size"])


class Bench:
    """A redis-server started as the embedded store starts it (under callgrind if asked),
    the service bootstrapped on it, a pool and 8 tables of 7 spots, 300 rounds of warm-up."""

    def __init__(
        self, rounds: int, callgrind: bool = False, dealt: int = 0, http: bool = False
    ) -> None:
        self.data = Path(tempfile.mkdtemp(prefix="bench-round-script-"))
        self.profile = self.data / "callgrind.out"
        command = server_args(self.data, free_port())
        if callgrind:
            command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={self.profile}",
                       *command]  # fmt: skip
        self.server = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        url = f"redis://127.0.0.1:{command[command.index('--port') + 1]}/0"
        wait_ready(url, timeout=60.0)
        self.client = redis.Redis.from_url(url, decode_responses=True)
        settings = Settings(namespace="bench")
        if dealt and hasattr(settings, "self_check_seconds"):
            # counted: no self-check but the first (every 30 s, it would fall in the longer
            # of the two runs under callgrind, not in a round)
            settings = dataclasses.replace(settings, self_check_seconds=1e9)
        self.svc = svc = bootstrap(settings, url)
        put_pool(svc, "bench", {"reset": 100_000, "rate_bp": 500, "reserve_rate_bp": 100}, "op")
        tables = [f"BENCH-{i}" for i in range(1, 9)]
        for t in tables:
            put_table(svc, t, {"pools": ["bench"], "decks": 6, "spots": 7}, "op")
        self.secret, self.key = svc.credentials.create(Role.TABLE, frozenset(tables))
        rng = random.Random(1)
        dealt = max(dealt, rounds + 300)  # the same deal whatever `rounds`, if asked
        self.reports = iter([deal(rng, tables[i % 8], f"r{i}") for i in range(dealt)])
        self.app = None
        if http:  # each round posted to the WSGI app, its body written beforehand
            self.app = http_app(settings, url, svc)
            self.reports = iter([json.dumps(r).encode() for r in self.reports])
        for _ in range(300):  # warm-up
            self.report()

    def report(self) -> None:
        if self.app is None:
            report_round(self.svc, next(self.reports), self.key, self.secret)
            return
        status = post_round(self.app, next(self.reports), self.secret)
        if not status.startswith("200"):
            raise RuntimeError(f"a round was answered {status}")

    def close(self) -> None:
        self.server.terminate()
        self.server.wait(timeout=60)
        subprocess.run(["rm", "-rf", str(self.data)], check=False)


def instructions(rounds: int) -> float:
    """Redis's instructions per round (callgrind's Ir, the server's whole process: the
    script, the commands it runs, the AOF's formatting, the event loop; not the kernel)."""
    bench = Bench(rounds, callgrind=True)
    try:
        pid = str(bench.server.pid)
        subprocess.run(["callgrind_control", "--zero", pid], check=True, capture_output=True)
        for _ in range(rounds):
            bench.report()
        subprocess.run(["callgrind_control", "--dump=measured", pid], check=True,
                       capture_output=True)  # fmt: skip
        for dump in bench.data.glob("callgrind.out*"):
            text = dump.read_text(errors="replace")
            if "Trigger: dump measured" in text[:4000]:
                summary = next(x for x in text.splitlines() if x.startswith("summary:"))
                return int(summary.split()[1]) / rounds
        raise RuntimeError("callgrind wrote no dump of the measured rounds")
    finally:
        bench.close()


def python_instructions(rounds: int) -> float:
    """This process's instructions per round: (Ir(100 + rounds) - Ir(100)) / rounds, each Ir
    a whole run of this script under callgrind (imports, set-up and warm-up cancel out: the
    same in both runs, hash seed included)."""
    counts = []
    with tempfile.TemporaryDirectory(prefix="bench-python-ir-") as scratch:
        for n in (100, 100 + rounds):
            out = Path(scratch) / f"callgrind.{n}"
            subprocess.run(
                ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable,
                 __file__, "--python-child", str(n), str(100 + rounds + 300)],
                check=True, capture_output=True,
                env={**os.environ, "PYTHONHASHSEED": "0", "PROMETHEUS_MULTIPROC_DIR": scratch},
            )  # fmt: skip
            summary = next(x for x in out.read_text().splitlines() if x.startswith("summary:"))
            counts.append(int(summary.split()[1]))
    return (counts[1] - counts[0]) / rounds


def run(args: argparse.Namespace) -> dict[str, Any]:
    bench = Bench(args.rounds * args.slices)
    client, report = bench.client, bench.report
    try:
        slices = []
        for _ in range(args.slices):
            before, t0 = stats(client), time.process_time()
            for _ in range(args.rounds):
                report()
            python = time.process_time() - t0
            after = stats(client)
            calls = after[0] - before[0]
            slices.append(
                {
                    "calls": calls,
                    "usec_per_call": (after[1] - before[1]) / calls,
                    "cpu_us_per_call": (after[2] - before[2]) / calls * 1e6,
                    "python_cpu_us_per_round": python / args.rounds * 1e6,
                    "aof_bytes_per_round": (after[3] - before[3]) / calls,
                }
            )
        out: dict[str, Any] = {"rounds": args.rounds * args.slices, "slices": slices}
        figures = ("usec_per_call", "cpu_us_per_call", "python_cpu_us_per_round",
                   "aof_bytes_per_round")  # fmt: skip
        for figure in figures:
            out[figure] = sorted(s[figure] for s in slices)[len(slices) // 2]
        version = client.info("server")["redis_version"]
    finally:
        bench.close()
    if (args.instructions or args.python_instructions) and not (
        shutil.which("valgrind") and shutil.which("callgrind_control")
    ):
        print("valgrind is not installed (Debian's valgrind): no instruction counts")
        args.instructions = args.python_instructions = 0
    if args.instructions:
        out["instructions_per_round"] = instructions(args.instructions)
    if args.python_instructions:
        out["python_instructions_per_round"] = python_instructions(args.python_instructions)
    return {"script": out, "redis_version": version}


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.python_child:
        rounds, dealt = args.python_child
        bench = Bench(rounds, dealt=dealt, http=True)
        try:
            for _ in range(rounds):
                bench.report()
        finally:
            bench.close()
        return 0
    result = run(args)
    s = result["script"]
    print(
        f"redis-server {result['redis_version']}, {s['rounds']} rounds of 7 spots, one at a "
        f"time: EVALSHA {s['usec_per_call']:.1f} us, Redis CPU {s['cpu_us_per_call']:.1f} us, "
        f"Python {s['python_cpu_us_per_round']:.0f} us, AOF {s['aof_bytes_per_round']:,.0f} "
        f"bytes per round (medians of "
        f"{args.slices} slices)"
    )
    if "instructions_per_round" in s:
        print(
            f"Redis instructions per round (callgrind, {args.instructions} rounds): "
            f"{s['instructions_per_round']:,.0f}"
        )
    if "python_instructions_per_round" in s:
        print(
            f"Python instructions per round (callgrind, {args.python_instructions} rounds): "
            f"{s['python_instructions_per_round']:,.0f}"
        )
    if args.json:
        print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
