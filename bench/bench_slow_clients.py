"""Slow and idle clients: 500 idle connections and 100 slowloris connections (a request head
trickled a byte a second, never finished; both kept up: a connection that is cut off is opened
again at once) against the controller, with and without the recommended nginx in front
(deploy/nginx/templates/jackpot.conf.template). Measures `/healthz`'s answer time while they
are held, and the round path's rounds/s with and without them.

    python bench/bench_slow_clients.py [--idle 500] [--slow 100] [--seconds 10]
    python bench/bench_slow_clients.py --quick   # a smoke run: 20 idle, 5 slow, one pair of 0.5 s

`--quick` also shortens the wait for the attackers to settle (2 s: 0.5 s) and the warm-up of
each phase (2 s: 0.2 s).

Everything as production runs it: redis-server with the embedded store's arguments,
`jackpot serve`'s gunicorn (gevent, jackpot/entrypoints/gunicorn_worker.py), Debian's nginx; the
attackers in a process of their own.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import selectors
import socket
import statistics
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path

from harness import nginx
from loadgen import LoadGenerator, Target
from service import (
    children_of,
    proc_cpu_seconds,
    provision,
    start_redis,
    start_service,
)

TABLES = [f"BENCH-{i}" for i in range(1, 5)]
HEAD = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: "


def attackers(pipe: Connection, host: str, port: int, idle: int, slow: int) -> None:
    """Hold `idle` silent connections and `slow` slowloris ones until told to stop; report how
    many times they had to be opened again (cut off by the server)."""
    selector = selectors.DefaultSelector()
    reopened = 0

    def open_one(kind: str) -> None:
        try:
            s = socket.create_connection((host, port), timeout=5)
        except OSError:
            return
        s.setblocking(False)
        if kind == "slow":
            try:
                s.send(HEAD)
            except OSError:
                s.close()
                return
        selector.register(s, selectors.EVENT_READ, kind)

    for _ in range(idle):
        open_one("idle")
    for _ in range(slow):
        open_one("slow")
    pipe.send("held")
    next_byte = time.monotonic() + 1.0
    while not pipe.poll():
        for key, _ in selector.select(timeout=0.5):
            s = key.fileobj
            try:
                data = s.recv(4096)  # type: ignore[union-attr]
            except OSError:
                data = b""
            if not data:  # cut off: the attacker comes back at once
                selector.unregister(s)
                s.close()  # type: ignore[union-attr]
                reopened += 1
                open_one(key.data)
        if time.monotonic() >= next_byte:
            next_byte += 1.0
            for key in list(selector.get_map().values()):
                if key.data == "slow":
                    try:
                        key.fileobj.send(b"a")  # type: ignore[union-attr]
                    except OSError:
                        pass
    pipe.recv()
    for key in list(selector.get_map().values()):
        key.fileobj.close()  # type: ignore[union-attr]
    pipe.send(reopened)


def healthz_times(host: str, port: int, probes: int) -> tuple[list[float], int]:
    """`probes` fresh requests to /healthz, 0.2 s apart: answer times (s) and how many got no
    answer within 5 s."""
    times, failed = [], 0
    for _ in range(probes):
        started = time.perf_counter()
        try:
            with socket.create_connection((host, port), timeout=5) as s:
                s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                if not s.recv(4096).startswith(b"HTTP/1.1 200"):
                    failed += 1
                    continue
            times.append(time.perf_counter() - started)
        except OSError:
            failed += 1
        time.sleep(0.2)
    return times, failed


def measure(name: str, host: str, port: int, secret: str, args: argparse.Namespace,
            pids: list[int]) -> None:  # fmt: skip
    phases = 0

    def rounds() -> float:
        nonlocal phases
        phases += 1
        target = Target(host, port, secret, TABLES, f"p{phases}-{time.time_ns()}")
        load = LoadGenerator(target, args.concurrency, processes=2, seed=phases)
        try:
            load.run("rounds", args.warmup)
            phase = load.run("rounds", args.seconds)
        finally:
            load.close()
        return phase.ok / phase.elapsed

    # quiet, attacked, quiet, ...: each attacked phase against the two quiet ones around it
    quiet, attacked, failed, reopened = [rounds()], [], 0, 0
    times: list[float] = []
    cpu = {"attackers": 0.0, "proxy": 0.0}
    elapsed = 0.0
    for pair in range(args.pairs):
        parent, child = mp.get_context("fork").Pipe()
        attack = mp.get_context("fork").Process(
            target=attackers, args=(child, host, port, args.idle, args.slow), daemon=True
        )
        attack.start()
        assert parent.recv() == "held"
        time.sleep(args.settle)
        if pair == 0:
            times, failed = healthz_times(host, port, args.probes)
        assert attack.pid is not None
        before = (proc_cpu_seconds(attack.pid), sum(proc_cpu_seconds(p) for p in pids))
        started = time.monotonic()
        attacked.append(rounds())
        elapsed += time.monotonic() - started
        cpu["attackers"] += proc_cpu_seconds(attack.pid) - before[0]
        cpu["proxy"] += sum(proc_cpu_seconds(p) for p in pids) - before[1]
        parent.send("stop")
        reopened += parent.recv()
        attack.join(timeout=10)
        quiet.append(rounds())
    ratios = [a / ((q1 + q2) / 2) for a, q1, q2 in zip(attacked, quiet, quiet[1:], strict=False)]
    answered = f"{len(times)} of {args.probes}"
    if times:
        p50, worst = statistics.median(times) * 1000, max(times) * 1000
        answered += f", median {p50:.0f} ms, slowest {worst:.0f} ms"
    print(f"{name}")
    print(f"  /healthz answered under attack    {answered} ({failed} no answer within 5 s)")
    print("  rounds/s quiet / attacked         " + "  ".join(
        f"{q:,.0f} / {a:,.0f} ({r:.2f}x)" for q, a, r in zip(quiet, attacked, ratios, strict=False)
    ) + f"  / {quiet[-1]:,.0f}")  # fmt: skip
    print(f"  attacked / quiet, median          {statistics.median(ratios):.2f}x")
    print(f"  attackers' connections reopened   {reopened} (cut off by the server)")
    print(f"  CPU while attacked: attackers {cpu['attackers'] / elapsed * 1000:.0f} ms/s, "
          f"proxy {cpu['proxy'] / elapsed * 1000:.0f} ms/s")  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--idle", type=int, default=500)
    parser.add_argument("--slow", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=10.0, help="each rounds/s phase")
    parser.add_argument("--probes", type=int, default=20, help="/healthz requests timed")
    parser.add_argument("--pairs", type=int, default=3, help="attacked phases, each between "
                        "two quiet ones")  # fmt: skip
    parser.add_argument("--concurrency", type=int, default=16, help="round-path clients")
    parser.add_argument("--direct", action="store_true", help="also attack gunicorn directly")
    parser.add_argument(
        "--quick", action="store_true", help="a smoke run: 20 idle, 5 slow, one pair of 0.5 s"
    )
    args = parser.parse_args()
    args.settle = args.warmup = 2.0
    if args.quick:
        args.idle, args.slow, args.seconds, args.probes, args.pairs = 20, 5, 0.5, 3, 1
        args.concurrency, args.settle, args.warmup = 4, 0.5, 0.2

    run_dir = Path(tempfile.mkdtemp(prefix="bench-slow-"))
    redis_server = start_redis(run_dir / "redis")
    service = start_service(run_dir, redis_server.url)
    try:
        secret = provision(service, redis_server.url, run_dir, TABLES)
        print(f"{args.idle} idle + {args.slow} slowloris connections, {args.concurrency} "
              "round-path clients")  # fmt: skip
        with nginx(run_dir / "nginx", f"{service.host}:{service.port}", "127.0.0.1:1") as front:
            host, port = front.split("//", 1)[1].split(":")
            master = int((run_dir / "nginx" / "nginx.pid").read_text())
            proxy = [master, *children_of(master)]
            measure("through nginx (the recommended deployment)", host, int(port), secret, args,
                    proxy)  # fmt: skip
        if args.direct:
            measure("gunicorn directly (no proxy)", service.host, service.port, secret, args, [])
        return 0
    finally:
        service.stop()
        redis_server.stop()


if __name__ == "__main__":
    sys.exit(main())
