"""Where a round's time goes in the real service under load (issue 41): py-spy samples every
gunicorn worker while the round path runs at full load, and the samples are summed by
function.

    python bench/profile_round.py [--seconds 20] [--rate 250] [--top 30] [--svg flame.svg]
    python bench/profile_round.py --quick   # a smoke run: 1 s sampled after 0.5 s of warm-up

It starts what `bench/run.py` starts (a private redis-server with `appendfsync always`,
gunicorn as `jackpot serve` runs it, the pool and 8 tables provisioned through the API), warms
the path up, then loads `POST /v1/rounds` (7-spot rounds, 16 connections) for `--seconds`
while `py-spy record` samples each worker (`--rate` per second, idle samples left out). It
prints, over every worker's samples:

* self time by function: where the CPU is spent (the frame on top of the stack);
* inclusive time of the product's functions (`jackpot/...`): what each step of the round
  path costs with everything it calls.

`--svg` also writes a flame graph of one worker. py-spy comes with the dev dependencies
(`./dev lint` installs them); it needs ptrace, which root has.
"""

from __future__ import annotations

import argparse
import collections
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from loadgen import LoadGenerator, Target
from service import provision, start_redis, start_service


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=20.0, help="seconds sampled under load")
    p.add_argument("--rate", type=int, default=250, help="samples per second per worker")
    p.add_argument("--concurrency", type=int, default=16, help="keep-alive connections")
    p.add_argument("--tables", type=int, default=8, help="tables the rounds are spread over")
    p.add_argument("--top", type=int, default=30, help="rows of each table printed")
    p.add_argument("--svg", type=Path, help="write one worker's flame graph here")
    p.add_argument("--collapsed", type=Path, help="write every sample, collapsed, here")
    p.add_argument(
        "--quick", action="store_true", help="a smoke run: 1 s sampled, top 10 of each table"
    )
    args = p.parse_args(argv)
    args.warmup = 3.0
    if args.quick:
        args.seconds, args.top, args.warmup = 1.0, 10, 0.5
    return args


def frame_name(frame: str) -> str:
    """py-spy's `function (path/to/file.py:line)` without the line: one row a function."""
    head, _, where = frame.partition(" (")
    path = where.rsplit(":", 1)[0]
    for marker in ("/jackpot/", "/site-packages/", "/lib/python3"):
        if marker in path:
            path = path[path.index(marker) + 1 :]
            break
    return f"{head} ({path})"


def summarise(lines: list[str], top: int) -> None:
    own: collections.Counter[str] = collections.Counter()
    inclusive: collections.Counter[str] = collections.Counter()
    total = 0
    for line in lines:
        stack, _, count_text = line.rpartition(" ")
        if not stack:
            continue
        count = int(count_text)
        frames = [frame_name(f) for f in stack.split(";")]
        total += count
        own[frames[-1]] += count
        for name in set(frames):
            if "(jackpot/" in name:
                inclusive[name] += count
    if not total:
        print("no samples: was the load running?")
        return
    print(f"\n{total:,} samples (busy only) over every worker\n")
    print("self time, by function")
    for name, count in own.most_common(top):
        print(f"  {100 * count / total:5.1f}%  {name}")
    print("\ninclusive time, the product's functions")
    for name, count in inclusive.most_common(top):
        print(f"  {100 * count / total:5.1f}%  {name}")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    spy = shutil.which("py-spy")
    if spy is None:
        print("py-spy is not on PATH: install the dev dependencies (./dev lint)")
        return 2
    root = Path(tempfile.mkdtemp(prefix="jackpot-profile-"))
    store = start_redis(root / "redis", "always", None)
    service = None
    gen = None
    try:
        service = start_service(root / "service", store.url)
        tables = [f"BENCH-{i + 1}" for i in range(args.tables)]
        secret = provision(service, store.url, root / "service", tables)
        target = Target(service.host, service.port, secret, tables, f"p{int(time.time())}")
        gen = LoadGenerator(target, args.concurrency, 2)
        gen.run("rounds", args.warmup)  # warm
        spies = []
        for pid in service.worker_pids():
            out = root / f"worker-{pid}.txt"
            command = [spy, "record", "--pid", str(pid), "--rate", str(args.rate),
                       "--duration", str(int(args.seconds)), "--format", "raw", "--output",
                       str(out), "--nonblocking"]  # fmt: skip
            spies.append((out, subprocess.Popen(command, stdout=subprocess.DEVNULL,
                                                stderr=subprocess.DEVNULL)))  # fmt: skip
        if args.svg and service.worker_pids():
            pid = service.worker_pids()[0]
            command = [spy, "record", "--pid", str(pid), "--rate", str(args.rate),
                       "--duration", str(int(args.seconds)), "--output", str(args.svg),
                       "--nonblocking"]  # fmt: skip
            spies.append((args.svg, subprocess.Popen(command, stdout=subprocess.DEVNULL,
                                                     stderr=subprocess.DEVNULL)))  # fmt: skip
        time.sleep(0.5)  # py-spy attached
        done = gen.run("rounds", args.seconds)
        for _, proc in spies:
            proc.wait(timeout=args.seconds + 60)
        print(
            f"{done.ok:,} rounds acknowledged in {done.elapsed:.1f} s ({done.rate:,.0f}/s) "
            f"under py-spy at {args.rate} samples/s, {len(service.worker_pids())} workers"
        )
        lines: list[str] = []
        for out, _ in spies:
            if out.suffix == ".txt" and out.exists():
                lines += out.read_text().splitlines()
        if args.collapsed:
            args.collapsed.write_text("\n".join(lines) + "\n")
        summarise(lines, args.top)
        return 0
    finally:
        if gen is not None:
            gen.close()
        if service is not None:
            service.stop()
        store.stop()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
