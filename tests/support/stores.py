"""The kinds of store the API's conformance tests run on: one redis-server, and a Redis
Cluster of three masters (with a redis-server of its own for the background jobs' queue, as
a cluster deployment must have).

    store = cluster_store(tmp_path)      # or server_store(server)
    app = create_app(Settings(queue_redis_url=store.queue_url), store.url)
    client = store.client()              # where the namespace's keys are
    store.flush()
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import redis as redis_lib
from flask import Flask
from redis.crc import key_slot
from sqlalchemy.engine import make_url

from jackpot.bootstrap import Services
from jackpot.entrypoints.app import create_app
from jackpot.settings import Settings
from jackpot.store.connect import connect
from jackpot.store.keys import Keys
from tests.support.api import Keys as ApiKeys
from tests.support.api import make_keys
from tests.support.cluster import RedisCluster, start_cluster
from tests.support.redis_server import RedisServer, start_server

T = TypeVar("T")


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


@dataclass
class SharedApp:
    """One app over a store for many tests, as good as new for each: building an app costs
    ~60 ms (its routes compiled, its archive migrated, a self-check), more than most of the
    API's tests take. `reset` empties the store and the archive, makes the process forget
    what it had read of them, and checks itself again, as a new app would at start-up;
    `capture` and `restore` do the same with a state a test module built once (its world)."""

    app: Flask
    settings: Settings
    store: Store
    keys: ApiKeys | None = None  # a key of every role, in the baseline
    baseline: State | None = None  # what each test starts from: the keys, nothing else
    worlds: dict[str, tuple[State, Any]] = field(default_factory=dict)
    # a client of each server, kept: a new one each reset cost a connection and its
    # handshake (~1 ms of CPU, more on a loaded machine), per server, twice a test or more
    kept: dict[str, redis_lib.Redis] = field(default_factory=dict)

    @property
    def services(self) -> Services:
        return self.app.extensions["jackpot"]  # type: ignore[no-any-return]

    def reset(self) -> None:
        assert self.baseline is not None
        self.restore(self.baseline)

    def world(self, name: str, build: Callable[[], T]) -> T:
        """What `build` makes on the baseline (and returns), made once: its state is captured
        and restored for every later test that asks for it by `name`."""
        if name in self.worlds:
            state, made = self.worlds[name]
            self.restore(state)
            return made  # type: ignore[no-any-return]
        made = build()
        self.worlds[name] = (self.capture(), made)
        return made

    def capture(self) -> State:
        """Every key of every server of the store (with its time to live) and the archive."""
        keys: dict[str, list[tuple[bytes, int, bytes]]] = {}
        for url in self.store.servers():
            r = self.server(url)
            names = list(r.scan_iter(count=1000))
            if not names:
                continue
            pipe = r.pipeline(transaction=False)
            for name in names:
                pipe.pttl(name)
                pipe.dump(name)
            answers = pipe.execute()
            keys[url] = [
                (name, max(int(ttl), 0), dump)
                for name, ttl, dump in zip(names, answers[::2], answers[1::2], strict=True)
                if dump is not None
            ]
        return State(keys, self._read_archive())

    def restore(self, state: State) -> None:
        services = self.services
        for url in self.store.servers():
            pipe = self.server(url).pipeline(transaction=False)
            pipe.flushall()
            for name, ttl, dump in state.keys.get(url, []):
                pipe.restore(name, ttl, dump)
            pipe.execute()
        self._write_archive(state.archive)
        services.forget()
        # a knob a test may turn on the shared app (two-person control's threshold)
        services.approval.cents = self.settings.handpay_approval_cents
        services.health.run()

    def server(self, url: str) -> redis_lib.Redis:
        """The kept client of the store's server at `url` (it reconnects if dropped)."""
        if url not in self.kept:
            self.kept[url] = redis_lib.Redis.from_url(url)
        return self.kept[url]

    def close(self) -> None:
        for client in self.kept.values():
            client.close()
        self.kept.clear()

    # The archive (SQLite) is read and written through SQLite's backup, which every other
    # connection to the file (this app's, a second app's in the same test) sees as a change
    # of the database: its WAL and shared memory stay consistent, as a file copy's would not.

    def _read_archive(self) -> bytes:
        with closing(sqlite3.connect(self._archive_file(), timeout=30)) as source:
            with closing(sqlite3.connect(":memory:")) as copy:
                source.backup(copy)
                data = bytearray(copy.serialize())
        # the header's file format bytes say WAL (2): an image deserialized with them cannot
        # be read from memory; the target keeps its own journal mode
        data[18:20] = b"\x01\x01"
        return bytes(data)

    def _write_archive(self, data: bytes) -> None:
        self.services.archive.close()  # its pooled connections: none holds a read open
        with closing(sqlite3.connect(":memory:")) as copy:
            copy.deserialize(data)
            with closing(sqlite3.connect(self._archive_file(), timeout=30)) as target:
                # a test's file, not a record to keep through a power cut: written without
                # fsync (~3 ms, not ~20 ms), as visible to every other connection as before
                target.execute("PRAGMA synchronous=OFF")
                copy.backup(target)

    def _archive_file(self) -> Path:
        return Path(make_url(self.settings.archive).database or "")


@dataclass(frozen=True)
class State:
    """What SharedApp.capture read: keys by server URL, and the archive file's bytes."""

    keys: dict[str, list[tuple[bytes, int, bytes]]]
    archive: bytes


def shared_app(store: Store, data_dir: Path) -> SharedApp:
    """An app over `store` for SharedApp's tests: the store emptied first; self-checks only
    when reset (a periodic one could run while a test empties the store)."""
    store.flush()
    settings = Settings(
        data_dir=data_dir,
        key_cache_seconds=0.0,
        queue_redis_url=store.queue_url,
        self_check_seconds=24 * 3600.0,
    )
    app = create_app(settings, store.url)
    shared = SharedApp(app, settings, store)
    shared.services.archive.ensure()
    shared.keys = make_keys(shared.services)
    shared.baseline = shared.capture()
    return shared
