"""A real Redis Sentinel deployment the tests own: one master, its replicas and the sentinels
that watch them, each a process of its own on a free loopback port with its own directory
under the test's base directory.

The redis-servers are as durable as the embedded store's (AOF, fsync always, no RDB
snapshots); the sentinels notice a dead master within a second (down-after-milliseconds
1000) and fail over to a replica. Tests may kill the master, wait for the failover, start
the old master again (the sentinels turn it into a replica of the new one), and freeze a
process with SIGSTOP to make it fall behind. `stop()` ends every process; it is idempotent
and `start_sentinels` calls it itself when the deployment cannot be brought up.

Only 127.0.0.1 addresses are used, so the sentinels need neither `resolve-hostnames` nor
any announce setting.
"""

from __future__ import annotations

import atexit
import os
import shutil
import signal
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import redis

from jackpot.store.embedded import free_port, redis_server_binary, server_args, wait_ready

HOST = "127.0.0.1"
POLL = 0.05
READY_SECONDS = 30.0
STOP_SECONDS = 10.0
# How long the sentinels may take to turn a returning old master into a replica, from their
# own timers (sentinel.c): it must have been up for 4 hello periods (8 s) and reporting the
# wrong role as long, and they INFO a replica every 10 s; then the replica's full sync. A
# loaded machine stretches each of these: 25 s once fell short on CI, 60 s once on a machine
# running three suites at once.
REJOIN_SECONDS = 120.0

T = TypeVar("T")


class SentinelUnavailable(RuntimeError):
    """Neither redis-sentinel nor a redis-server (which runs as one with --sentinel) here."""


def sentinel_command() -> list[str]:
    """The command that runs a sentinel on a config file placed after it: redis-sentinel
    from PATH, else redis-server (see redis_server_binary) with --sentinel after the file."""
    found = shutil.which("redis-sentinel")
    if found:
        return [found]
    try:
        return [redis_server_binary()]
    except RuntimeError as exc:
        raise SentinelUnavailable(f"no redis-sentinel and no redis-server: {exc}") from None


def sentinel_available() -> bool:
    """Whether `start_sentinels` can run here."""
    try:
        sentinel_command()
    except SentinelUnavailable:
        return False
    return True


@dataclass
class Node:
    """One process of the deployment (a redis-server or a sentinel), with the arguments to
    start it again on the same port and directory."""

    name: str
    port: int
    data_dir: Path
    args: list[str]
    process: subprocess.Popen[bytes] | None = None

    @property
    def address(self) -> tuple[str, int]:
        return (HOST, self.port)

    @property
    def url(self) -> str:
        return f"redis://{HOST}:{self.port}/0"

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def client(self, timeout: float = 1.0) -> redis.Redis:
        """A new client to this process alone (decoded RESP2 replies); the caller closes it."""
        return redis.Redis(
            host=HOST,
            port=self.port,
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
            decode_responses=True,
            protocol=2,
        )

    def role(self) -> list[Any]:
        """The ROLE reply: ["master", offset, replicas], ["slave", host, port, state,
        offset] or ["sentinel", names]."""
        with self.client() as client:
            return list(client.execute_command("ROLE"))

    def launch(self) -> None:
        """Start the process (not waiting for it to answer)."""
        assert self.process is None, f"{self.name} is already running"
        self.process = subprocess.Popen(
            self.args,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def kill(self) -> None:
        """SIGKILL: nothing beyond what is already fsynced survives."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None

    def send(self, signum: signal.Signals) -> None:
        """Send a signal to the running process."""
        assert self.process is not None and self.process.poll() is None, f"{self.name} is down"
        os.kill(self.process.pid, signum)


@dataclass
class SentinelSet:
    """A master, its replicas and the sentinels monitoring them as `master_name`.

    `url` is `redis+sentinel://127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3/<master_name>/0`:
    every sentinel's host:port joined by commas, then the monitored name, then the database.
    """

    base_dir: Path
    master_name: str
    quorum: int
    servers: list[Node] = field(default_factory=list)
    sentinels: list[Node] = field(default_factory=list)
    _timers: list[threading.Timer] = field(default_factory=list)

    @property
    def sentinel_addresses(self) -> list[tuple[str, int]]:
        return [node.address for node in self.sentinels]

    @property
    def url(self) -> str:
        hosts = ",".join(f"{host}:{port}" for host, port in self.sentinel_addresses)
        return f"redis+sentinel://{hosts}/{self.master_name}/0"

    # -- asking the sentinels -------------------------------------------------------------

    def _ask(self, ask: Callable[[redis.Redis], T]) -> list[T]:
        """`ask` of every sentinel that answers."""
        answers = []
        for node in self.sentinels:
            if not node.running:
                continue
            try:
                with node.client() as client:
                    answers.append(ask(client))
            except redis.RedisError:
                pass
        return answers

    def _named_masters(self) -> list[tuple[str, int]]:
        return [found for found in self._ask(self._named_by) if found is not None]

    def _named_by(self, client: redis.Redis) -> tuple[str, int] | None:
        """SENTINEL GET-MASTER-ADDR-BY-NAME of one sentinel."""
        found = client.execute_command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", self.master_name)
        return None if found is None else (str(found[0]), int(found[1]))

    def _listed(self, client: redis.Redis, what: str) -> list[dict[str, str]]:
        """SENTINEL REPLICAS or SENTINELS of one sentinel: a dict of fields per instance
        (redis-py's own sentinel_* methods parse differently from one version to the next)."""
        reply = client.execute_command("SENTINEL", what, self.master_name)
        return [dict(zip(item[::2], item[1::2], strict=True)) for item in reply]

    def master_address(self) -> tuple[str, int]:
        """The master most of the answering sentinels name."""
        named = self._named_masters()
        if not named:
            raise RuntimeError(f"no sentinel names a master for {self.master_name}")
        return Counter(named).most_common(1)[0][0]

    def server_at(self, address: tuple[str, int]) -> Node:
        for node in self.servers:
            if node.address == address:
                return node
        raise KeyError(address)

    def master(self) -> Node:
        """The redis-server the sentinels name as master."""
        return self.server_at(self.master_address())

    # -- roles ----------------------------------------------------------------------------

    def role_of(self, server: Node) -> str | None:
        """ "master" or "slave" as the server itself answers ROLE; None when it does not."""
        try:
            return str(server.role()[0])
        except redis.RedisError:
            return None

    def wait_rejoined(self, server: Node, timeout: float = REJOIN_SECONDS) -> tuple[str, int]:
        """Until the sentinels agree on one master and `server`, a killed master started
        again, is back in the deployment: a connected replica of that master, or that master
        itself when a later failover promoted it (on a loaded machine a master whose fsync
        stalls past down-after-milliseconds is failed over, and Sentinel promotes only a
        replica, so either way it was made one first). The master's address."""

        def rejoined() -> tuple[str, int] | None:
            named = self._named_masters()
            running = sum(node.running for node in self.sentinels)
            if len(set(named)) != 1 or len(named) < running:
                return None
            master = named[0]
            reply = server.role()
            if server.address == master:
                return master if reply[0] == "master" else None
            linked = reply[0] == "slave" and (reply[1], int(reply[2])) == master
            return master if linked and reply[3] == "connected" else None

        return _until(rejoined, timeout, f"{server.name} to rejoin as a replica", self.events)

    def events(self) -> str:
        """The sentinels' own account of what happened (failovers, conversions, TILT), the
        last lines of each log: for the message of a wait that timed out."""
        wanted = ("switch-master", "convert-to-slave", "sdown", "odown", "tilt", "failover-end")
        lines = []
        for node in self.sentinels:
            log = node.data_dir / "sentinel.log"
            try:
                text = log.read_text()
            except OSError:
                continue
            found = [line for line in text.splitlines() if any(w in line for w in wanted)]
            lines += [f"{node.name}: {line}" for line in found[-12:]]
        return "\n".join(lines)

    # -- failures -------------------------------------------------------------------------

    def kill_master(self) -> Node:
        """SIGKILL the current master; its node, for `restart`."""
        master = self.master()
        master.kill()
        return master

    def wait_for_failover(self, old: tuple[str, int], timeout: float = 30.0) -> tuple[str, int]:
        """Until every running sentinel names one new master (not `old`) and it answers ROLE
        as master; its address."""

        def promoted() -> tuple[str, int] | None:
            named = self._named_masters()
            running = sum(node.running for node in self.sentinels)
            if len(set(named)) != 1 or len(named) < running:
                return None
            address = named[0]
            if address == old or self.role_of(self.server_at(address)) != "master":
                return None
            return address

        return _until(promoted, timeout, f"a new master in place of {old}", self.events)

    def restart(self, server: Node) -> None:
        """Start a killed server again with the same arguments (port, data dir, AOF)."""
        server.launch()
        wait_ready(server.url)

    def stop_process(self, server: Node) -> None:
        """SIGSTOP: the process freezes (a master frozen past down-after-milliseconds, one
        second, is failed over)."""
        server.send(signal.SIGSTOP)

    def continue_process(self, server: Node) -> None:
        """SIGCONT: a frozen process runs on."""
        server.send(signal.SIGCONT)

    def pause(self, server: Node, seconds: float) -> threading.Timer:
        """Freeze `server` for `seconds` without blocking the caller; join the timer to
        wait for it to run again."""
        self.stop_process(server)
        timer = threading.Timer(seconds, self._resume, (server,))
        timer.daemon = True
        self._timers.append(timer)
        timer.start()
        return timer

    def _resume(self, server: Node) -> None:
        if server.running:
            self.continue_process(server)

    # -- the whole deployment -------------------------------------------------------------

    def stop(self) -> None:
        """End every process: sentinels first, then the servers. Idempotent."""
        for timer in self._timers:
            timer.cancel()
        self._timers.clear()
        live = [node for node in [*self.sentinels, *self.servers] if node.process is not None]
        deadline = time.monotonic() + STOP_SECONDS
        while live:
            for node in live:
                assert node.process is not None
                if node.process.poll() is None:
                    node.process.send_signal(signal.SIGCONT)  # a frozen one could not stop
                    # again and again: Redis 7.0 ignores a SIGTERM that comes while it
                    # writes its first AOF (right after a replica's full sync)
                    node.process.terminate()
            time.sleep(POLL)
            for node in live:
                assert node.process is not None
                if node.process.poll() is None and time.monotonic() > deadline:
                    node.process.kill()
                if node.process.poll() is not None:
                    node.process.wait()
                    node.process = None
            live = [node for node in live if node.process is not None]
        atexit.unregister(self.stop)

    def _start_server(self, index: int, master: Node | None) -> Node:
        data_dir = self.base_dir / f"redis-{index}"
        data_dir.mkdir(parents=True, exist_ok=True)
        port = free_port()
        # a replica's full sync starts at once (Redis 7.0 would wait 5 s for more replicas)
        args = [*server_args(data_dir, port), "--repl-diskless-sync-delay", "0"]
        if master is not None:
            args += ["--replicaof", HOST, str(master.port)]
        node = Node(f"redis-{index}", port, data_dir, args)
        self.servers.append(node)
        node.launch()
        wait_ready(node.url)
        return node

    def _start_sentinel(self, index: int, master: Node) -> Node:
        data_dir = self.base_dir / f"sentinel-{index}"
        data_dir.mkdir(parents=True, exist_ok=True)
        port = free_port()
        conf = data_dir / "sentinel.conf"  # the sentinel rewrites it: in its own writable dir
        name = self.master_name
        conf.write_text(
            "\n".join(
                [
                    f"port {port}",
                    f"bind {HOST}",
                    f"dir {data_dir}",
                    f"logfile {data_dir / 'sentinel.log'}",
                    f"pidfile {data_dir / 'sentinel.pid'}",
                    f"sentinel monitor {name} {HOST} {master.port} {self.quorum}",
                    f"sentinel down-after-milliseconds {name} 1000",
                    f"sentinel failover-timeout {name} 5000",
                    f"sentinel parallel-syncs {name} 1",
                    "",
                ]
            )
        )
        command = sentinel_command()
        args = [*command, str(conf)]
        if not command[0].endswith("redis-sentinel"):
            args.append("--sentinel")
        node = Node(f"sentinel-{index}", port, data_dir, args)
        self.sentinels.append(node)
        node.launch()
        return node

    def _wait_replicas_linked(self, timeout: float) -> None:
        def linked() -> bool | None:
            for node in self.servers[1:]:
                with node.client() as client:
                    if client.info("replication").get("master_link_status") != "up":
                        return None
            return True

        _until(linked, timeout, "every replica's link to the master")

    def _wait_sentinels_agree(self, master: Node, timeout: float) -> None:
        """Until every sentinel names `master`, sees every replica up and every other
        sentinel: from then on a failover can happen."""
        replicas = len(self.servers) - 1
        others = len(self.sentinels) - 1

        def ready(client: redis.Redis) -> bool:
            if self._named_by(client) != master.address:
                return False
            up = [
                replica
                for replica in self._listed(client, "REPLICAS")
                if not {"s_down", "o_down", "disconnected"} & set(replica["flags"].split(","))
                and replica.get("master-link-status") == "ok"
            ]
            peers = self._listed(client, "SENTINELS")
            return len(up) == replicas and len(peers) == others

        def agreed() -> bool | None:
            answers = self._ask(ready)
            return True if len(answers) == len(self.sentinels) and all(answers) else None

        _until(agreed, timeout, "every sentinel to see the master, replicas and sentinels")


def start_sentinels(
    base_dir: Path, master_name: str = "jackpot", replicas: int = 1, sentinels: int = 3
) -> SentinelSet:
    """Start a master, `replicas` replicas linked to it and `sentinels` sentinels (quorum:
    a majority of them) that all see each other and every server."""
    deployment = SentinelSet(base_dir, master_name, quorum=sentinels // 2 + 1)
    atexit.register(deployment.stop)  # even a test run cut short leaves nothing behind
    started = False
    try:
        master = deployment._start_server(0, None)
        for index in range(1, replicas + 1):
            deployment._start_server(index, master)
        deployment._wait_replicas_linked(READY_SECONDS)
        for index in range(sentinels):
            deployment._start_sentinel(index, master)
        for node in deployment.sentinels:
            wait_ready(node.url, READY_SECONDS)
        deployment._wait_sentinels_agree(master, READY_SECONDS)
        started = True
        return deployment
    finally:
        if not started:
            deployment.stop()


def _until(
    check: Callable[[], T | None],
    timeout: float,
    what: str,
    explain: Callable[[], str] | None = None,
) -> T:
    """Poll `check` until it returns something other than None; that. On timeout the error
    says what was awaited and, given `explain`, what it returns."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            found = check()
        except redis.RedisError:
            found = None
        if found is not None:
            return found
        if time.monotonic() > deadline:
            detail = f"\n{explain()}" if explain is not None else ""
            raise TimeoutError(f"waited {timeout:g} s for {what}{detail}")
        time.sleep(POLL)
