"""A redis-server the tests own: its own port and data dir; they may kill and restart it."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

from jackpot.store.embedded import free_port, server_args, wait_ready


@dataclass
class RedisServer:
    """A redis-server the tests own: they may kill it and start it again on its AOF."""

    data_dir: Path
    port: int
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            server_args(self.data_dir, self.port),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_ready(self.url)

    def kill(self) -> None:
        """SIGKILL: no chance to flush anything beyond what fsync already wrote."""
        assert self.process is not None
        self.process.kill()
        self.process.wait()
        self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=20)
            self.process = None


def start_server(data_dir: Path) -> RedisServer:
    data_dir.mkdir(parents=True, exist_ok=True)
    server = RedisServer(data_dir, free_port())
    server.start()
    return server
