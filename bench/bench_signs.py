"""Signs: round acknowledged -> value on N connected signs (p50/p99, with the round path idle
and at full load), the round path's rounds/s with and without the signs connected (phases
alternating, each with signs against the two around it), and the sign process's memory and
CPU per connected sign. Real streaming clients (raw HTTP/1.1 event streams, asyncio).

    python bench/bench_signs.py [--signs 1000] [--seconds 20] [--pairs 5] [--probes 30]
    python bench/bench_signs.py --quick   # a smoke run: 20 signs, one pair of 0.5 s phases

`--quick` also shortens the waits for the streams to open and close (2 s: 0.5 s) and the
warm-up of each phase (2 s: 0.2 s).

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
import threading
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from loadgen import LoadGenerator, Target
from service import (
    POOL,
    children_of,
    create_key,
    proc_cpu_seconds,
    provision,
    start_redis,
    start_service,
)

from jackpot.cli.local import wait_http
from jackpot.cli.signs import gunicorn_command
from jackpot.store.embedded import free_port

TABLES = [f"BENCH-{i}" for i in range(1, 5)]


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


# -- the signs: one process, asyncio, a raw event-stream reader per connection ---------------


class SignStream(asyncio.Protocol):
    """One screen's connection. It keeps what arrives and when, and parses it afterwards, so
    that the clients spend as little of the machine's CPU as they can while the round path
    is measured (on a floor, the screens' own hardware does this)."""

    def __init__(self, host: str, sign: str, ready: Any) -> None:
        self.request = f"GET /signs/{sign}/stream HTTP/1.1\r\nHost: {host}\r\n\r\n".encode()
        self.ready = ready
        self.chunks: list[tuple[float, bytes]] = []
        self.headers = b""
        self.transport: asyncio.BaseTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        transport.write(self.request)  # type: ignore[attr-defined]

    def data_received(self, data: bytes) -> None:
        if self.ready is not None:  # still in the response's head
            self.headers += data
            if b"\r\n\r\n" not in self.headers:
                return
            head, data = self.headers.split(b"\r\n\r\n", 1)
            if b" 200 " not in head.split(b"\r\n", 1)[0]:
                raise RuntimeError(f"stream refused: {head[:80]!r}")
            self.ready()
            self.ready = None
        self.chunks.append((time.time(), data))

    def seen(self) -> list[tuple[int, int, float]]:
        """(the pool's value, the controller's time of the read, when it arrived) for every
        event that carried the value."""
        out: list[tuple[int, int, float]] = []
        body = b""  # chunked transfer coding: frame headers are dropped with the lines below
        for at, data in self.chunks:
            body += data
            *events, body = body.split(b"\n\n")
            for event in events:
                lines = [x for x in event.split(b"\n") if x.startswith((b"event: ", b"data: "))]
                kind = next((x[7:] for x in lines if x.startswith(b"event: ")), b"")
                data_line = next((x[6:] for x in lines if x.startswith(b"data: ")), None)
                if data_line is None:
                    continue
                if kind == b"meters":
                    meters = json.loads(data_line)
                    out.append((meters["values"][POOL], meters["t"], at))
                elif kind == b"state":
                    state = json.loads(data_line)
                    out.extend(
                        (lv["value"], state["time"], at)
                        for lv in state["levels"]
                        if lv["pool"] == POOL
                    )
        return out


def signs_process(pipe: Connection, host: str, port: int, count: int) -> None:
    """On `connect`, open `count` streams; on `report`, send back what each one saw, and when;
    on `close`, close them all; on `stop`, end."""

    async def main() -> None:
        loop = asyncio.get_running_loop()
        streams: list[SignStream] = []
        connected = 0

        def one_more() -> None:
            nonlocal connected
            connected += 1

        while True:
            order = await loop.run_in_executor(None, pipe.recv)
            if order == "connect":
                connected = 0
                for i in range(count):
                    transport, stream = await loop.create_connection(
                        lambda: SignStream(host, "bench", one_more), host, port
                    )
                    stream.transport = transport
                    streams.append(stream)
                    if i % 50 == 49:
                        await asyncio.sleep(0.05)  # a floor's screens do not all boot at once
                while connected < count:
                    await asyncio.sleep(0.05)
                pipe.send("connected")
            elif order == "report":
                pipe.send([s.seen() for s in streams])
                for s in streams:
                    s.chunks.clear()  # reported: the next report covers what comes after
            elif order == "close":
                for stream in streams:
                    if stream.transport is not None:
                        stream.transport.close()
                streams = []
                pipe.send("closed")
            else:
                return

    asyncio.run(main())


# -- the run --------------------------------------------------------------------------------


def probe(service: Any, secret: str, n: int, pause: float = 0.0) -> tuple[int, float]:
    """One round reported alone: (the pool's value it answers, when it was acknowledged)."""
    body = {"table": TABLES[0], "round": f"probe-{n}-{time.time_ns()}", "dealer": {"card": "4c"},
            "spots": [{"spot": 1, "wager": 2500, "card": "9d"}]}  # fmt: skip
    status, answer = service.call("POST", "/v1/rounds", body, secret)
    acked = time.time()
    if status != 200:
        raise RuntimeError(f"probe round: {status} {answer!r}")
    time.sleep(pause)
    return int(json.loads(answer)["pools"][POOL]["value"]), acked


class Prober(threading.Thread):
    """Times a round to the signs every half second while the round path is loaded."""

    def __init__(self, service: Any, secret: str) -> None:
        super().__init__(daemon=True)
        self.service, self.secret = service, secret
        self.probes: list[tuple[int, float]] = []
        self.done = threading.Event()

    def run(self) -> None:
        n = 10_000
        while not self.done.wait(0.5):
            n += 1
            self.probes.append(probe(self.service, self.secret, n))

    def stop(self) -> None:
        self.done.set()
        self.join()


def deliveries(
    probes: list[tuple[int, float]], seen: list[list[tuple[int, int, float]]]
) -> tuple[list[float], int]:
    """How long each probe took to reach each sign (ms), and how many never did. A sign has it
    with the first event that shows at least its value, or that the sign process read from
    the store after it was acknowledged (a hit may have reset the meter in between)."""
    latencies: list[float] = []
    missed = 0
    for value, acked in probes:
        for events in seen:
            first = next(
                (
                    at
                    for v, t, at in events
                    if at >= acked - 0.5 and (v >= value or t >= acked * 1000)
                ),
                None,
            )
            if first is None:
                missed += 1
            else:
                latencies.append(max(0.0, (first - acked) * 1000))
    return latencies, missed


def percentile(data: list[float], p: float) -> float:
    data = sorted(data)
    return data[max(0, min(len(data) - 1, int(round(p / 100 * len(data) + 0.5)) - 1))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--signs", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=10.0, help="each rounds/s phase")
    parser.add_argument("--pairs", type=int, default=3, help="phases with signs, each "
                        "between two without")  # fmt: skip
    parser.add_argument("--probes", type=int, default=30, help="rounds timed to the signs")
    parser.add_argument("--concurrency", type=int, default=16, help="round-path clients")
    parser.add_argument(
        "--quick", action="store_true", help="a smoke run: 20 signs, one pair of 0.5 s phases"
    )
    args = parser.parse_args()
    settle, warmup = 2.0, 2.0  # the streams opened or closed; a phase's warm-up
    if args.quick:
        args.signs, args.seconds, args.pairs, args.probes = 20, 0.5, 1, 3
        args.concurrency, settle, warmup = 4, 0.5, 0.2

    run_dir = Path(tempfile.mkdtemp(prefix="bench-signs-"))
    redis_server = start_redis(run_dir / "redis")
    service = start_service(run_dir, redis_server.url)
    signs_proc = clients = None
    try:
        operator = create_key(redis_server.url, run_dir, "operator", [])  # pool, tables, sign
        secret = provision(service, redis_server.url, run_dir, TABLES, operator=operator)
        status, body = service.call(
            "PUT", "/v1/signs/bench", {"levels": [{"pool": POOL}]}, operator
        )
        assert status in (200, 201), body
        port = free_port()
        env = {**os.environ, "JACKPOT_REDIS_URL": redis_server.url,
               "JACKPOT_SIGNS_BIND": f"127.0.0.1:{port}",
               "JACKPOT_SIGNS_MAX_CONNECTIONS": str(args.signs + 100),
               # every screen here comes from one address: it is not one client's share
               "JACKPOT_SIGNS_MAX_PER_CLIENT": str(args.signs + 100)}  # fmt: skip
        log = open(run_dir / "signs.log", "wb")  # open for the process's life
        signs_proc = subprocess.Popen(gunicorn_command(), env=env, stdout=log, stderr=log,
                                      start_new_session=True)  # fmt: skip
        wait_http(f"http://127.0.0.1:{port}/healthz", timeout=60)
        worker = children_of(signs_proc.pid)[0]
        parent, child = mp.get_context("fork").Pipe()
        clients = mp.get_context("fork").Process(
            target=signs_process, args=(child, "127.0.0.1", port, args.signs), daemon=True
        )
        clients.start()
        assert clients.pid is not None
        clients_pid = clients.pid

        phases = 0

        def rounds_per_second() -> float:
            """One phase of the round path at full load (new round ids each time)."""
            nonlocal phases
            phases += 1
            run = f"p{phases}-{time.time_ns()}"
            target = Target(service.host, service.port, secret, TABLES, run)
            load = LoadGenerator(target, args.concurrency, processes=2, seed=phases)
            try:
                load.run("rounds", warmup)  # warm up
                phase = load.run("rounds", args.seconds)
            finally:
                load.close()
            if phase.errors or phase.replayed:
                print(f"phase {phases}: errors {phase.errors}, replayed {phase.replayed}")
            return phase.ok / phase.elapsed

        # without, with, without, with, ..., without: the store grows as the run goes on, so
        # each phase with signs is compared with the mean of the two phases around it
        without = [rounds_per_second()]
        with_signs: list[float] = []
        sign_cpu = client_cpu = elapsed = 0.0
        rss_before = rss_after = 0
        for pair in range(args.pairs):
            before = rss_kib(worker)
            parent.send("connect")
            assert parent.recv() == "connected"
            time.sleep(settle)
            if pair == 0:
                rss_before, rss_after = before, rss_kib(worker)
                probes = [probe(service, secret, n, pause=0.5) for n in range(args.probes)]
                time.sleep(1.0)
                parent.send("report")
                idle = deliveries(probes, parent.recv())
            cpu = proc_cpu_seconds(worker), proc_cpu_seconds(clients_pid), time.monotonic()
            with_signs.append(rounds_per_second())
            sign_cpu += proc_cpu_seconds(worker) - cpu[0]
            client_cpu += proc_cpu_seconds(clients_pid) - cpu[1]
            elapsed += time.monotonic() - cpu[2]
            parent.send("close")
            assert parent.recv() == "closed"
            time.sleep(settle)  # the streams closed: the sign process is idle again
            without.append(rounds_per_second())

        # rounds timed to the signs while the round path is loaded: a phase of its own, left
        # out of the rounds/s figures (the prober's own rounds and the clients' bookkeeping
        # would weigh on them)
        parent.send("connect")
        assert parent.recv() == "connected"
        time.sleep(settle)
        prober = Prober(service, secret)
        prober.start()
        rounds_per_second()
        prober.stop()
        time.sleep(1.0)
        parent.send("report")
        loaded = deliveries(prober.probes, parent.recv())
        parent.send("stop")
        clients.join(timeout=10)

        ratios = [
            w / ((a + b) / 2) for w, a, b in zip(with_signs, without, without[1:], strict=False)
        ]
        print(f"signs connected                {args.signs}")
        print("rounds/s without / with signs  " + "  ".join(
            f"{a:,.0f} / {w:,.0f} ({r:.2f}x)"
            for a, w, r in zip(without, with_signs, ratios, strict=False)
        ) + f"  / {without[-1]:,.0f}")  # fmt: skip
        print(f"with signs / without, median   {statistics.median(ratios):.2f}x "
              f"(each against the mean of the phases around it)")  # fmt: skip
        for name, (latencies_ms, missed) in (("idle", idle), ("loaded", loaded)):
            print(f"round -> sign p50/p99, {name:6s} {statistics.median(latencies_ms):.0f} / "
                  f"{percentile(latencies_ms, 99):.0f} ms  ({len(latencies_ms)} deliveries, "
                  f"{missed} missed)")  # fmt: skip
        print(f"sign process memory per sign   {(rss_after - rss_before) / args.signs:.1f} KiB "
              f"({rss_before / 1024:.0f} -> {rss_after / 1024:.0f} MiB)")  # fmt: skip
        per_second = sign_cpu / elapsed * 1000
        print(f"sign process CPU under load    {per_second:.0f} ms/s for all signs "
              f"({per_second / args.signs * 1000:.1f} us/s per sign)")  # fmt: skip
        print(f"the {args.signs} sign clients' CPU  {client_cpu / elapsed * 1000:.0f} ms/s (on "
              "this machine here; on the screens' own hardware on a floor)")  # fmt: skip
        return 0 if idle[1] == 0 and loaded[1] == 0 else 1
    finally:
        if clients is not None and clients.is_alive():
            clients.kill()
        if signs_proc is not None:
            signs_proc.terminate()
            signs_proc.wait(timeout=20)
        service.stop()
        redis_server.stop()


if __name__ == "__main__":
    sys.exit(main())
