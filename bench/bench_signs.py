"""Signs: round acknowledged -> value on N connected signs (p50/p99), the round path's
rounds/s with and without the signs connected, and the sign process's memory and CPU per
connected sign. Real streaming clients (raw HTTP/1.1 event streams, asyncio) on this machine.

    python bench/bench_signs.py [--signs 1000] [--seconds 10] [--probes 30]

Everything runs as production runs it: redis-server with the embedded store's arguments,
`jackpot serve`'s gunicorn, `jackpot signs`' gunicorn (gevent), provisioning through the API.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import statistics
import subprocess
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.loadgen import LoadGenerator, Target  # noqa: E402
from bench.service import (  # noqa: E402
    POOL,
    children_of,
    create_key,
    proc_cpu_seconds,
    provision,
    start_redis,
    start_service,
)
from jackpot.cli.local import wait_http  # noqa: E402
from jackpot.cli.signs import gunicorn_command  # noqa: E402
from jackpot.store.embedded import free_port  # noqa: E402

TABLES = [f"BENCH-{i}" for i in range(1, 5)]


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


# -- the signs: one process, asyncio, a raw event-stream reader per connection ---------------


async def _sign(host: str, port: int, sign: str, seen: list[tuple[int, float]], ready: Any) -> None:
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(f"GET /signs/{sign}/stream HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
    await writer.drain()
    status = await reader.readline()
    if b" 200 " not in status:
        raise RuntimeError(f"stream refused: {status!r}")
    while (await reader.readline()).strip():
        pass  # headers
    ready()
    event = ""
    while True:
        line = await reader.readline()
        if not line:
            return
        text = line.decode().rstrip("\r\n")
        if text.startswith("event: "):
            event = text[7:]
        elif text.startswith("data: ") and event == "meters":
            seen.append((json.loads(text[6:])["values"][POOL], time.time()))
        elif text.startswith("data: ") and event == "state":
            state = json.loads(text[6:])
            seen.extend((lv["value"], time.time()) for lv in state["levels"] if lv["pool"] == POOL)
        elif not text:
            event = ""


def signs_process(pipe: Connection, host: str, port: int, count: int) -> None:
    """Hold `count` streams open; on request send back what each one saw, and when."""

    async def main() -> None:
        seen: list[list[tuple[int, float]]] = [[] for _ in range(count)]
        connected = 0

        def one_more() -> None:
            nonlocal connected
            connected += 1

        tasks = []
        for i in range(count):
            tasks.append(asyncio.create_task(_sign(host, port, "bench", seen[i], one_more)))
            if i % 50 == 49:
                await asyncio.sleep(0.05)  # a floor's screens do not all boot in one instant
        while connected < count:
            await asyncio.sleep(0.05)
            if any(t.done() and t.exception() for t in tasks):
                raise next(t.exception() for t in tasks if t.done() and t.exception())  # type: ignore[misc]
        pipe.send(("connected", count))
        loop = asyncio.get_running_loop()
        while True:
            order = await loop.run_in_executor(None, pipe.recv)
            if order == "report":
                pipe.send(seen)
            else:
                return

    asyncio.run(main())


# -- the run --------------------------------------------------------------------------------


def probe(service: Any, secret: str, n: int) -> tuple[int, float]:
    """One round reported alone: (the pool's value it answers, when it was acknowledged)."""
    body = {"table": TABLES[0], "round": f"probe-{n}-{time.time_ns()}", "dealer": {"card": "4c"},
            "spots": [{"spot": 1, "wager": 2500, "card": "9d"}]}  # fmt: skip
    status, answer = service.call("POST", "/v1/rounds", body, secret)
    acked = time.time()
    if status != 200:
        raise RuntimeError(f"probe round: {status} {answer!r}")
    return int(json.loads(answer)["pools"][POOL]["value"]), acked


def percentile(data: list[float], p: float) -> float:
    data = sorted(data)
    return data[max(0, min(len(data) - 1, int(round(p / 100 * len(data) + 0.5)) - 1))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--signs", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=10.0, help="each rounds/s phase")
    parser.add_argument("--probes", type=int, default=30, help="rounds timed to the signs")
    parser.add_argument("--concurrency", type=int, default=16, help="round-path clients")
    args = parser.parse_args()

    run_dir = Path(tempfile.mkdtemp(prefix="bench-signs-"))
    redis_server = start_redis(run_dir / "redis")
    service = start_service(run_dir, redis_server.url)
    signs_proc = None
    try:
        secret = provision(service, redis_server.url, run_dir, TABLES)
        operator = create_key(redis_server.url, run_dir, "operator", [])
        status, body = service.call(
            "PUT", "/v1/signs/bench", {"levels": [{"pool": POOL}]}, operator
        )
        assert status in (200, 201), body
        port = free_port()
        env = {**os.environ, "JACKPOT_REDIS_URL": redis_server.url,
               "JACKPOT_SIGNS_BIND": f"127.0.0.1:{port}",
               "JACKPOT_SIGNS_MAX_CONNECTIONS": str(args.signs + 100)}  # fmt: skip
        log = open(run_dir / "signs.log", "wb")  # noqa: SIM115 - open for the process's life
        signs_proc = subprocess.Popen(gunicorn_command(), env=env, stdout=log, stderr=log,
                                      start_new_session=True)  # fmt: skip
        wait_http(f"http://127.0.0.1:{port}/healthz", timeout=60)
        target = Target(service.host, service.port, secret, TABLES, f"s{int(time.time())}")

        load = LoadGenerator(target, args.concurrency, processes=2)
        try:
            load.run("rounds", 2.0)  # warm up
            without = load.run("rounds", args.seconds)
        finally:
            load.close()

        worker = children_of(signs_proc.pid)[0]
        rss_before = rss_kib(worker)
        parent, child = mp.get_context("fork").Pipe()
        clients = mp.get_context("fork").Process(
            target=signs_process, args=(child, "127.0.0.1", port, args.signs), daemon=True
        )
        clients.start()
        assert parent.recv()[0] == "connected"
        time.sleep(2.0)
        rss_after = rss_kib(worker)

        probes = []
        for n in range(args.probes):
            probes.append(probe(service, secret, n))
            time.sleep(0.5)
        time.sleep(1.0)
        parent.send("report")
        seen = parent.recv()
        latencies_ms = []
        missed = 0
        for value, acked in probes:
            for events in seen:
                first = next((t for v, t in events if v >= value and t >= acked - 0.5), None)
                if first is None:
                    missed += 1
                else:
                    latencies_ms.append(max(0.0, (first - acked) * 1000))

        cpu_before, clients_before = proc_cpu_seconds(worker), proc_cpu_seconds(clients.pid)
        target = Target(service.host, service.port, secret, TABLES, f"w{int(time.time())}")
        load = LoadGenerator(target, args.concurrency, processes=2, seed=2)  # new round ids
        try:
            load.run("rounds", 2.0)
            with_signs = load.run("rounds", args.seconds)
        finally:
            load.close()
        cpu_per_sign_ms = (proc_cpu_seconds(worker) - cpu_before) / with_signs.elapsed * 1000
        clients_ms = (proc_cpu_seconds(clients.pid) - clients_before) / with_signs.elapsed * 1000
        parent.send("stop")
        clients.join(timeout=10)

        for phase in (without, with_signs):
            if phase.errors or phase.replayed:
                print(f"{phase.kind}: errors {phase.errors}, replayed {phase.replayed}")
        rate_without = without.ok / without.elapsed
        rate_with = with_signs.ok / with_signs.elapsed
        print(f"signs connected                {args.signs}")
        print(f"rounds/s without signs         {rate_without:,.0f}")
        print(f"rounds/s with signs            {rate_with:,.0f}  ({rate_with / rate_without:.2f}x)")
        print(f"round -> sign latency p50/p99  {statistics.median(latencies_ms):.0f} / "
              f"{percentile(latencies_ms, 99):.0f} ms  ({len(latencies_ms)} deliveries, "
              f"{missed} missed)")  # fmt: skip
        print(f"sign process memory per sign   {(rss_after - rss_before) / args.signs:.1f} KiB "
              f"({rss_before / 1024:.0f} -> {rss_after / 1024:.0f} MiB)")  # fmt: skip
        print(f"sign process CPU under load    {cpu_per_sign_ms:.0f} ms/s for all signs "
              f"({cpu_per_sign_ms / args.signs * 1000:.1f} us/s per sign)")  # fmt: skip
        print(f"the {args.signs} sign clients' CPU  {clients_ms:.0f} ms/s (on this machine here; "
              "on the screens' own hardware on a floor)")  # fmt: skip
        return 0 if missed == 0 else 1
    finally:
        if signs_proc is not None:
            signs_proc.terminate()
            signs_proc.wait(timeout=20)
        service.stop()
        redis_server.stop()


if __name__ == "__main__":
    sys.exit(main())
