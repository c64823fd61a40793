"""The kinds of store the API's conformance tests run on: one redis-server, and a Redis
Cluster of three masters (with a redis-server of its own for the background jobs' queue, as
a cluster deployment must have).

    store = cluster_store(tmp_path)      # or server_store(server)
    app = create_app(Settings(queue_redis_url=store.queue_url), store.url)
    client = store.client()              # where the namespace's keys are
    store.flush()
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import redis as redis_lib
from redis.crc import key_slot

from jackpot.store.connect import connect
from jackpot.store.keys import Keys
from tests.support.cluster import RedisCluster, start_cluster
from tests.support.redis_server import RedisServer, start_server


@dataclass
class Store:
    kind: str  # server | cluster
    url: str
    queue_url: str | None  # None: the queue shares the store
    servers: Callable[[], list[str]]  # redis:// URLs of every server that holds data
    cluster: RedisCluster | None = None
    group: str = ""  # the link group the tests' pools are made in ('': the main group)
    _stop: list[Callable[[], None]] = field(default_factory=list)

    def client(self, namespace: str = "jackpot") -> redis_lib.Redis:
        """A client where the namespace's keys are (on a cluster: their slot's master)."""
        return connect(self.url, decode=True, timeout=5, tag=Keys(namespace).tag)

    def groups_apart(self, count: int, namespace: str = "jackpot") -> list[str]:
        """`count` link group names whose keys live on different masters, none on the main
        group's (on one server: any names)."""
        if self.cluster is None:
            return [f"g{i}" for i in range(1, count + 1)]
        owners = self.cluster.slot_owners()
        taken = {owners[key_slot(Keys(namespace).tag.encode())].port}
        found: list[str] = []
        for i in range(1000):
            name = f"g{i}"
            port = owners[key_slot(Keys(namespace, name).tag.encode())].port
            if port not in taken:
                taken.add(port)
                found.append(name)
                if len(found) == count:
                    return found
        raise AssertionError(f"no {count} link groups on masters of their own")

    def node_of(self, key: str) -> int | None:
        """The port of the master that holds `key` (None on one server)."""
        return None if self.cluster is None else self.cluster.node_for_key(key).port

    def flush(self) -> None:
        for url in self.servers():
            with redis_lib.Redis.from_url(url) as r:
                r.flushall()

    def stop(self) -> None:
        for stop in reversed(self._stop):
            stop()


def server_store(server: RedisServer) -> Store:
    return Store("server", server.url, None, lambda: [server.url])


def cluster_store(base: Path) -> Store:
    """Three masters, no replicas (the failover tests start their own), and a queue server."""
    cluster = start_cluster(base / "cluster", masters=3)
    try:
        queue = start_server(base / "queue")
    except BaseException:
        cluster.stop()
        raise
    nodes = ",".join(f"127.0.0.1:{node.port}" for node in cluster.nodes)
    store = Store(
        "cluster",
        f"redis+cluster://{nodes}",
        queue.url,
        lambda: [node.url for node in cluster.masters] + [queue.url],
        cluster,
    )
    store._stop += [cluster.stop, queue.stop]
    return store
