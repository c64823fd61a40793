"""What the replication wait costs per round: rounds/s and latency of `jackpot serve` on

  A. one redis-server, AOF with `appendfsync always` (the single-server production setting);
  B. the same master with one replica, each round acknowledged after WAIT 1
     (JACKPOT_REDIS_WAIT_REPLICAS=1): the high-availability setting;
  C. as B with the master's AOF at `appendfsync everysec`: the replica's confirmation
     instead of an fsync per write.

    python bench/bench_replication.py [--seconds 10] [--pairs 3] [--concurrency 16]
    python bench/bench_replication.py --quick     # a smoke run: one turn of 0.5 s phases

The three stacks run side by side (each its own redis-servers and gunicorn) and are measured
in turn, A B C A B C ..., so whatever else loads the machine weighs on all of them alike; the
ratios B/A and C/A are taken within each turn, and their medians reported. Everything is on
127.0.0.1: the replica's round trip is a loopback one, so B measures the wait's CPU and
protocol cost, not a network's latency (add the link's round trip per round for that).
"""

from __future__ import annotations

import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import redis
from harness import stop_all
from service import (
    RedisServer,
    Service,
    provision,
    start_redis,
    start_service,
)
from turns import arguments, header, in_turns, summary

TABLES = [f"T{i}" for i in range(1, 9)]


@dataclass
class Stack:
    name: str
    master: RedisServer
    replica: RedisServer | None
    service: Service
    secret: str

    def stop(self) -> None:
        self.service.stop()
        self.master.stop()
        if self.replica is not None:
            self.replica.stop()


def start_stack(name: str, root: Path, fsync: str, replica: bool) -> Stack:
    run = root / name
    master = start_redis(run / "master", fsync)
    copy = None
    if replica:
        copy = start_redis(run / "replica", "always")
        port = int(master.url.rsplit(":", 1)[1].split("/")[0])
        copy.client().replicaof("127.0.0.1", port)
        deadline = time.monotonic() + 30
        while copy.client().info("replication").get("master_link_status") != "up":
            if time.monotonic() > deadline:
                raise RuntimeError("the replica did not link to its master")
            time.sleep(0.05)
    os.environ["JACKPOT_REDIS_WAIT_REPLICAS"] = "1" if replica else "0"
    try:
        service = start_service(run, master.url)
    finally:
        os.environ.pop("JACKPOT_REDIS_WAIT_REPLICAS", None)
    secret = provision(service, master.url, run, TABLES)
    return Stack(name, master, copy, service, secret)


def main() -> int:
    args = arguments(__doc__, "A, B, C")
    header("redis-server", args)
    with tempfile.TemporaryDirectory(prefix="bench-replication-") as tmp:
        root = Path(tmp)
        stacks: list[Stack] = []
        try:
            stacks.append(start_stack("A-single-always", root, "always", replica=False))
            stacks.append(start_stack("B-replica-wait-always", root, "always", replica=True))
            stacks.append(start_stack("C-replica-wait-everysec", root, "everysec", replica=True))
            results = in_turns(
                [(s.name, s.service, s.secret) for s in stacks],
                TABLES, args.seconds, args.concurrency, args.pairs, warmup=args.warmup,
            )  # fmt: skip
            summary(results)
            for stack in stacks[1:]:
                assert stack.replica is not None
                lag = stack.master.client().info("replication")["master_repl_offset"]
                seen = stack.replica.client().info("replication")["slave_repl_offset"]
                wait = redis.Redis.from_url(stack.master.url).execute_command("WAIT", 1, 1000)
                print(f"{stack.name}: replica at offset {seen} of {lag}; WAIT 1 -> {wait}")
        finally:
            stop_all(stack.stop for stack in stacks)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
