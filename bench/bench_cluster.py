"""Rounds/s of `jackpot serve` on one redis-server and on a Redis Cluster of three masters:

  A. one redis-server, AOF with `appendfsync always`, one link group (every table feeds one
     pool);
  B. a three-master Redis Cluster (each master as A's server), the background jobs' queue on
     a redis-server of its own, one link group: one hash tag, so one master holds every key
     and does all of the work (the other two idle);
  C. the same cluster with six link groups, two on each master: a pool per group, the twelve
     tables dealt over them, so the rounds' script calls are spread over the three masters;
  D. one redis-server with the same six link groups (what the groups cost on one server).

    python bench/bench_cluster.py [--seconds 10] [--pairs 3] [--concurrency 16]
    python bench/bench_cluster.py --quick     # a smoke run: one turn of 0.5 s phases

Each phase's line also shows the Redis masters' CPU (user + system, from INFO) while it ran,
as a share of one core: the busiest master's, and all masters' together. The service and the
load generator are what fill this machine's two cores; the masters' load says how far each
stack is from Redis's own limit, one core per master, which is what a bigger deployment meets.

B/A is what the cluster client costs (it finds the slot's master from the cluster's map and
then talks to it as to one server); C/A what spreading the link groups over the shards buys
on this machine, where the service, the load generator and all three masters share two
cores. The stacks are measured in turn, A B C D A B C D ..., and each ratio is taken within
its turn (bench/turns.py).
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis
from harness import Cluster, cluster_binary, start_cluster, stop_all
from loadgen import PhaseResult
from redis.crc import key_slot
from service import (
    Service,
    provision,
    start_redis,
    start_service,
)
from turns import arguments, header, in_turns, summary

from jackpot.store.keys import Keys

TABLES = [f"T{i}" for i in range(1, 13)]
GROUPS = 6


@dataclass
class Stack:
    name: str
    url: str
    service: Service
    secret: str
    stops: list[Any] = field(default_factory=list)
    masters: list[str] = field(default_factory=list)  # redis:// URLs of the masters
    loads: list[tuple[float, float]] = field(default_factory=list)  # (busiest, all) per phase

    def watch(self) -> Callable[[PhaseResult], str]:
        """The masters' CPU from now until the phase's end, as a share of one core."""
        start, began = self._cpu(), time.monotonic()

        def done(_phase: PhaseResult) -> str:
            seconds = time.monotonic() - began
            used = [(b - a) / seconds for a, b in zip(start, self._cpu(), strict=True)]
            self.loads.append((max(used), sum(used)))
            return f"redis cpu: busiest {max(used):4.0%}, all {sum(used):4.0%}"

        return done

    def _cpu(self) -> list[float]:
        out = []
        for url in self.masters:
            with redis.Redis.from_url(url) as r:
                info = r.info("cpu")
            out.append(float(info["used_cpu_user"]) + float(info["used_cpu_sys"]))
        return out

    def stop(self) -> None:
        self.service.stop()
        for stop in self.stops:
            stop()


def single(root: Path, name: str, groups: list[str] | None = None) -> Stack:
    server = start_redis(root / name / "redis", "always")
    service = start_service(root / name, server.url)
    secret = provision(service, server.url, root / name, TABLES, groups)
    return Stack(name, server.url, service, secret, [server.stop], [server.url])


def groups_over(nodes: Cluster, count: int) -> list[str]:
    """`count` link group names dealt evenly over the masters (by their tags' slots)."""
    by_master: dict[int, list[str]] = {m.port: [] for m in nodes.masters}
    for i in range(10_000):
        name = f"g{i}"
        port = nodes.owner(key_slot(Keys("jackpot", name).tag.encode())).port
        if len(by_master[port]) < count // len(by_master):
            by_master[port].append(name)
        if sum(map(len, by_master.values())) == count:
            break
    return [g for pair in zip(*by_master.values(), strict=True) for g in pair]


def cluster(root: Path, name: str, groups: int = 0) -> Stack:
    nodes = start_cluster(root / name / "cluster", masters=3)
    queue = start_redis(root / name / "queue", "always")
    url = "redis+cluster://" + ",".join(f"127.0.0.1:{n.port}" for n in nodes.nodes)
    os.environ["JACKPOT_QUEUE_REDIS_URL"] = queue.url
    try:
        service = start_service(root / name, url)
        names = groups_over(nodes, groups) if groups else None
        secret = provision(service, url, root / name, TABLES, names)
    finally:
        os.environ.pop("JACKPOT_QUEUE_REDIS_URL", None)
    masters = [node.url for node in nodes.masters]
    return Stack(name, url, service, secret, [nodes.stop, queue.stop], masters)


def main() -> int:
    args = arguments(__doc__, "A, B, C, D")
    # both stacks on the same redis-server: the cluster needs 7.0 or later
    binary = cluster_binary()
    os.environ["PATH"] = f"{Path(binary).parent}{os.pathsep}{os.environ['PATH']}"
    header(binary, args)
    with tempfile.TemporaryDirectory(prefix="bench-cluster-") as tmp:
        root = Path(tmp)
        stacks: list[Stack] = []
        try:
            stacks.append(single(root, "A-one-server"))
            stacks.append(cluster(root, "B-cluster-one-group"))
            stacks.append(cluster(root, "C-cluster-six-groups", GROUPS))
            six = [f"g{i}" for i in range(1, GROUPS + 1)]
            stacks.append(single(root, "D-one-server-six-groups", six))
            by_name = {s.name: s for s in stacks}
            results = in_turns(
                [(s.name, s.service, s.secret) for s in stacks],
                TABLES, args.seconds, args.concurrency, args.pairs,
                lambda name: by_name[name].watch(), args.warmup,
            )  # fmt: skip
            summary(results)
            print("\nRedis CPU (median of the phases), as a share of one core:")
            for stack in stacks:
                busiest = statistics.median(b for b, _ in stack.loads)
                together = statistics.median(a for _, a in stack.loads)
                print(f"  {stack.name:28s} busiest master {busiest:4.0%}, all {together:4.0%}")
        finally:
            stop_all(stack.stop for stack in stacks)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
