"""A lean closed-loop HTTP/1.1 load generator: P processes x T threads, one keep-alive
connection per thread, pre-encoded requests.

Each thread sends a request, waits for the whole response, checks it and sends the next
(closed loop: concurrency = number of connections). Requests are built before the clock
starts: a round report is a pre-dealt body with a fresh round id spliced in, so the client
spends its CPU on the socket, not on dealing cards or encoding JSON. The parent drives the
processes phase by phase over a pipe; all of them start and stop on the same
CLOCK_MONOTONIC instants (shared by every process on Linux).
"""

from __future__ import annotations

import json
import multiprocessing as mp
import random
import socket
import threading
import time
from array import array
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from reports import deal
from service import proc_cpu_seconds

ROUND_PLACEHOLDER = "@@ROUND@@"
IDLE_RECONNECT_SECONDS = 2.0  # gunicorn closes idle keep-alive connections after 5 s
TEMPLATES_PER_PROCESS = 512


class ProtocolError(Exception):
    pass


class HttpConnection:
    """One keep-alive connection speaking just enough HTTP/1.1 for this benchmark."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.sock: socket.socket | None = None
        self.buf = b""
        self.last_used = 0.0

    def _connect(self) -> socket.socket:
        sock = socket.create_connection((self.host, self.port), timeout=30)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock, self.buf = sock, b""
        return sock

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
        self.sock = None

    def request(self, payload: bytes) -> tuple[int, bytes]:
        """Send one request, return (status, body). Raises OSError/ProtocolError."""
        now = time.monotonic()
        if self.sock is None or now - self.last_used > IDLE_RECONNECT_SECONDS:
            self.close()
            self._connect()
        sock = self.sock
        assert sock is not None
        sock.sendall(payload)
        buf = self.buf
        while True:
            end = buf.find(b"\r\n\r\n")
            if end >= 0:
                break
            chunk = sock.recv(65536)
            if not chunk:
                raise ProtocolError("connection closed before a response")
            buf += chunk
        head = buf[:end]
        status = int(head[9:12])
        length = -1
        keep_alive = True
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"connection" and value.strip().lower() == b"close":
                keep_alive = False
            elif name == b"transfer-encoding":
                raise ProtocolError("chunked responses are not expected")
        if length < 0:
            raise ProtocolError("response without Content-Length")
        start = end + 4
        while len(buf) - start < length:
            chunk = sock.recv(65536)
            if not chunk:
                raise ProtocolError("connection closed inside a response body")
            buf += chunk
        body = buf[start : start + length]
        self.buf = buf[start + length :]
        self.last_used = time.monotonic()
        if not keep_alive:
            self.close()
        return status, body


@dataclass
class Target:
    host: str
    port: int
    table_secret: str
    tables: list[str]
    run_tag: str


def healthz_request(target: Target) -> bytes:
    return f"GET /healthz HTTP/1.1\r\nHost: {target.host}:{target.port}\r\n\r\n".encode()


def round_templates(target: Target, seed: int, count: int) -> list[tuple[bytes, bytes, bytes]]:
    """Pre-dealt 7-spot round reports as (request head, body before the id, body after it)."""
    rng = random.Random(seed)
    head = (
        f"POST /v1/rounds HTTP/1.1\r\nHost: {target.host}:{target.port}\r\n"
        f"Authorization: Bearer {target.table_secret}\r\n"
        "Content-Type: application/json\r\nContent-Length: "
    ).encode()
    out = []
    for i in range(count):
        table = target.tables[i % len(target.tables)]
        body = json.dumps(deal(rng, table, ROUND_PLACEHOLDER), separators=(",", ":"))
        before, after = body.split(ROUND_PLACEHOLDER)
        out.append((head, before.encode(), after.encode()))
    return out


def build_round(template: tuple[bytes, bytes, bytes], round_id: bytes) -> bytes:
    head, before, after = template
    body_len = len(before) + len(round_id) + len(after)
    return b"".join((head, str(body_len).encode(), b"\r\n\r\n", before, round_id, after))


@dataclass
class ThreadResult:
    ok: int = 0
    replayed: int = 0
    jackpot_rounds: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    latencies_us: array[int] = field(default_factory=lambda: array("I"))
    first_start: float = 0.0
    last_end: float = 0.0

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


def _run_thread(
    conn: HttpConnection,
    kind: str,
    start_at: float,
    end_at: float,
    limit: int,
    make_request: Callable[[], bytes],
    result: ThreadResult,
) -> None:
    record = result.latencies_us.append
    clock = time.perf_counter
    mono = time.monotonic
    delay = start_at - mono()
    if delay > 0:
        time.sleep(delay)
    result.first_start = mono()
    done = 0
    while done < limit and mono() < end_at:
        payload = make_request()
        t0 = clock()
        try:
            status, body = conn.request(payload)
        except (OSError, ProtocolError) as exc:
            conn.close()
            result.error(type(exc).__name__)
            done += 1
            continue
        record(int((clock() - t0) * 1e6))
        done += 1
        if status != 200:
            result.error(f"HTTP {status}")
            continue
        if kind == "rounds":
            if b'"replayed":false' in body:
                result.ok += 1
            elif b'"replayed":true' in body:
                result.replayed += 1
            else:
                result.error("unexpected body")
                continue
            if b'"jackpots":[]' not in body:
                result.jackpot_rounds += 1
        else:
            result.ok += 1
    result.last_end = mono()


class RoundSource:
    """One thread's round reports: its own sequence, kept across phases, so every id is new."""

    def __init__(
        self, templates: list[tuple[bytes, bytes, bytes]], prefix: str, offset: int
    ) -> None:
        self.templates, self.prefix, self.offset, self.seq = templates, prefix, offset, 0

    def __call__(self) -> bytes:
        seq = self.seq
        self.seq = seq + 1
        template = self.templates[(self.offset + seq) % len(self.templates)]
        return build_round(template, f"{self.prefix}-{seq}".encode())


def client_process(pipe: Connection, index: int, threads: int, target: Target, seed: int) -> None:
    """Serve phase commands from the parent until it sends None."""
    conns = [HttpConnection(target.host, target.port) for _ in range(threads)]
    templates = round_templates(target, seed, TEMPLATES_PER_PROCESS)
    health = healthz_request(target)
    sources = [
        RoundSource(templates, f"{target.run_tag}-{index}-{t}", t * 97) for t in range(threads)
    ]

    def healthz() -> bytes:
        return health

    while True:
        command = pipe.recv()
        if command is None:
            break
        kind, start_at, end_at, limit = command
        results = [ThreadResult() for _ in range(threads)]
        workers = []
        for t in range(threads):
            make: Callable[[], bytes] = healthz if kind == "healthz" else sources[t]
            workers.append(
                threading.Thread(
                    target=_run_thread,
                    args=(conns[t], kind, start_at, end_at, limit, make, results[t]),
                )
            )
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        pipe.send(
            [
                {
                    "ok": r.ok,
                    "replayed": r.replayed,
                    "jackpot_rounds": r.jackpot_rounds,
                    "errors": r.errors,
                    "latencies_us": r.latencies_us.tobytes(),
                    "first_start": r.first_start,
                    "last_end": r.last_end,
                }
                for r in results
            ]
        )
    for c in conns:
        c.close()


@dataclass
class PhaseResult:
    kind: str
    requests: int  # completed with a response (any status)
    ok: int
    replayed: int
    jackpot_rounds: int
    errors: dict[str, int]
    elapsed: float
    latencies_us: list[int]

    @classmethod
    def merge(cls, parts: list[PhaseResult]) -> PhaseResult:
        """Several slices of the same kind as one phase (their durations added up)."""
        errors: dict[str, int] = {}
        for p in parts:
            for k, v in p.errors.items():
                errors[k] = errors.get(k, 0) + v
        return cls(
            kind=parts[0].kind,
            requests=sum(p.requests for p in parts),
            ok=sum(p.ok for p in parts),
            replayed=sum(p.replayed for p in parts),
            jackpot_rounds=sum(p.jackpot_rounds for p in parts),
            errors=errors,
            elapsed=sum(p.elapsed for p in parts),
            latencies_us=sorted(x for p in parts for x in p.latencies_us),
        )

    @property
    def rate(self) -> float:
        return self.ok / self.elapsed if self.elapsed > 0 else 0.0

    def percentile(self, p: float) -> float:
        """Nearest-rank percentile of the latencies, in milliseconds."""
        if not self.latencies_us:
            return float("nan")
        data = self.latencies_us
        rank = max(0, min(len(data) - 1, int(round(p / 100 * len(data) + 0.5)) - 1))
        return data[rank] / 1000


class LoadGenerator:
    """concurrency connections spread over `processes` client processes."""

    def __init__(self, target: Target, concurrency: int, processes: int, seed: int = 1) -> None:
        processes = max(1, min(processes, concurrency))
        share = [concurrency // processes + (i < concurrency % processes) for i in range(processes)]
        ctx = mp.get_context("fork")
        self.pipes: list[Connection] = []
        self.procs: list[mp.process.BaseProcess] = []
        for i, threads in enumerate(share):
            parent, child = ctx.Pipe()
            p = ctx.Process(
                target=client_process,
                args=(child, i, threads, target, seed * 1000 + i),
                daemon=True,
                name=f"bench-client-{i}",
            )
            p.start()
            child.close()
            self.pipes.append(parent)
            self.procs.append(p)

    @property
    def pids(self) -> list[int]:
        return [p.pid for p in self.procs if p.pid is not None]

    def client_cpu_seconds(self) -> float:
        return sum(proc_cpu_seconds(pid) for pid in self.pids)

    def run(self, kind: str, seconds: float, limit_per_thread: int = 2**62) -> PhaseResult:
        start_at = time.monotonic() + 0.05
        end_at = start_at + seconds
        for pipe in self.pipes:
            pipe.send((kind, start_at, end_at, limit_per_thread))
        rows: list[dict[str, Any]] = []
        for pipe in self.pipes:
            rows.extend(pipe.recv())
        errors: dict[str, int] = {}
        latencies: list[int] = []
        for r in rows:
            for k, v in r["errors"].items():
                errors[k] = errors.get(k, 0) + v
            lat = array("I")
            lat.frombytes(r["latencies_us"])
            latencies.extend(lat)
        latencies.sort()
        begin = min(r["first_start"] for r in rows)
        finish = max(r["last_end"] for r in rows)
        return PhaseResult(
            kind=kind,
            requests=len(latencies),
            ok=sum(r["ok"] for r in rows),
            replayed=sum(r["replayed"] for r in rows),
            jackpot_rounds=sum(r["jackpot_rounds"] for r in rows),
            errors=errors,
            elapsed=finish - begin,
            latencies_us=latencies,
        )

    def close(self) -> None:
        for pipe in self.pipes:
            try:
                pipe.send(None)
            except OSError:
                pass
        for p in self.procs:
            p.join(timeout=10)
            if p.is_alive():
                p.terminate()
                p.join(timeout=5)
