"""Rounds/s of `jackpot serve` on one redis-server and on a Redis Cluster of three masters:

  A. one redis-server, AOF with `appendfsync always`;
  B. a three-master Redis Cluster (each master as A's server), the background jobs' queue on
     a redis-server of its own; the controller's keys share one hash tag, so one master
     holds them all and does all of the work (the other two idle).

    python bench/bench_cluster.py [--seconds 10] [--pairs 3] [--concurrency 16]

B/A is what the cluster client costs (it finds the slot's master from the cluster's map and
then talks to it as to one server) and what a cluster buys while every key carries one tag:
nothing in throughput, failover in availability. The stacks are measured in turn, A B A B
..., and the ratio is taken within each turn (bench/turns.py).
"""

from __future__ import annotations

import os
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.service import (  # noqa: E402
    Service,
    provision,
    start_redis,
    start_service,
)
from bench.turns import arguments, header, in_turns, summary  # noqa: E402
from tests.support.cluster import cluster_binary, start_cluster  # noqa: E402

TABLES = [f"T{i}" for i in range(1, 9)]


@dataclass
class Stack:
    name: str
    url: str
    service: Service
    secret: str
    stops: list[Any] = field(default_factory=list)

    def stop(self) -> None:
        self.service.stop()
        for stop in self.stops:
            stop()


def single(root: Path) -> Stack:
    server = start_redis(root / "A" / "redis", "always")
    service = start_service(root / "A", server.url)
    secret = provision(service, server.url, root / "A", TABLES)
    return Stack("A-one-server", server.url, service, secret, [server.stop])


def cluster(root: Path) -> Stack:
    nodes = start_cluster(root / "B" / "cluster", masters=3)
    queue = start_redis(root / "B" / "queue", "always")
    url = "redis+cluster://" + ",".join(f"127.0.0.1:{n.port}" for n in nodes.nodes)
    os.environ["JACKPOT_QUEUE_REDIS_URL"] = queue.url
    try:
        service = start_service(root / "B", url)
        secret = provision(service, url, root / "B", TABLES)
    finally:
        os.environ.pop("JACKPOT_QUEUE_REDIS_URL", None)
    return Stack("B-cluster-3-masters", url, service, secret, [nodes.stop, queue.stop])


def main() -> int:
    args = arguments(__doc__, "A, B")
    # both stacks on the same redis-server: the cluster needs 7.0 or later
    binary = cluster_binary()
    os.environ["PATH"] = f"{Path(binary).parent}{os.pathsep}{os.environ['PATH']}"
    header(binary, args)
    with tempfile.TemporaryDirectory(prefix="bench-cluster-") as tmp:
        root = Path(tmp)
        stacks: list[Stack] = []
        try:
            stacks.append(single(root))
            stacks.append(cluster(root))
            results = in_turns(
                [(s.name, s.service, s.secret) for s in stacks],
                TABLES, args.seconds, args.concurrency, args.pairs,
            )  # fmt: skip
            summary(results)
        finally:
            for stack in stacks:
                stack.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
