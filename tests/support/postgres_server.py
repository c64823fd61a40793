"""A PostgreSQL server the tests own: initdb into a fresh directory, its own port and socket
directory, trust authentication for the `postgres` superuser; tests may stop, kill and start
it again. PostgreSQL refuses to run as root: as root it runs as the `postgres` system user
(Debian's package creates it)."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from itertools import count
from pathlib import Path
from typing import Any

import psycopg

from jackpot.store.embedded import free_port

READY_SECONDS = 30


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL server binaries on this machine."""


def binaries() -> Path:
    """The directory holding initdb and postgres: on PATH, else Debian's newest."""
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
    )
    if not versions:
        raise PostgresUnavailable("no PostgreSQL server: install Debian's postgresql package")
    return versions[-1].parent


@dataclass
class PostgresServer:
    data_dir: Path
    port: int
    bin_dir: Path
    durable: bool = False  # fsync as in production (benchmarks), else not (tests)
    process: subprocess.Popen[bytes] | None = None
    _names: count[int] = field(default_factory=lambda: count(1))

    def url_for(self, database: str) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    @property
    def url(self) -> str:
        return self.url_for("postgres")

    def _dsn(self, database: str = "postgres") -> str:
        return f"host=127.0.0.1 port={self.port} user=postgres dbname={database}"

    def create_database(self, name: str | None = None) -> str:
        """A new, empty database; its SQLAlchemy URL."""
        name = name or f"test_{next(self._names)}"
        with psycopg.connect(self._dsn(), autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return self.url_for(name)

    def execute(self, sql: str, database: str = "postgres") -> None:
        with psycopg.connect(self._dsn(database), autocommit=True) as connection:
            connection.execute(sql.encode())

    def start(self) -> None:
        # a commit is written before it is answered, so a killed server keeps it; a test
        # server never fsyncs (the machine crashing is not what the tests are about)
        log = open(self.data_dir.parent / "postgres.log", "ab")  # the server's
        args = ["-D", str(self.data_dir), "-p", str(self.port), "-h", "127.0.0.1"]
        args += ["-k", str(self.data_dir), "-c", "max_connections=200"]
        if not self.durable:
            args += ["-c", "fsync=off", "-c", "full_page_writes=off"]
        self.process = subprocess.Popen(
            [str(self.bin_dir / "postgres"), *args],
            stdout=log,
            stderr=subprocess.STDOUT,
            **_as_postgres(),
        )
        log.close()
        deadline = time.monotonic() + READY_SECONDS
        while True:
            try:
                psycopg.connect(self._dsn(), connect_timeout=2).close()
                return
            except psycopg.OperationalError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(
                        f"postgres did not start: {(self.data_dir.parent / 'postgres.log')}"
                    ) from None
                time.sleep(0.1)

    def stop(self) -> None:
        """A fast shutdown (SIGINT): sessions are ended, the server stops cleanly."""
        if self.process is not None:
            self.process.send_signal(2)
            self.process.wait(timeout=60)
            self.process = None

    def kill(self) -> None:
        """SIGKILL of the postmaster; its backends notice and exit, the next start recovers."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None
            time.sleep(0.5)  # backends leave once they see their postmaster gone

    def restart(self) -> None:
        self.stop()
        self.start()

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.data_dir.parent, ignore_errors=True)


def start_postgres(durable: bool = False) -> PostgresServer:
    """initdb a new cluster in a temporary directory and start it on a free port."""
    bin_dir = binaries()
    # not under pytest's 0700 tmp dirs: the postgres user must reach its data directory
    root = Path(tempfile.mkdtemp(prefix="jackpot-pg-"))
    data = root / "data"
    data.mkdir()
    user = _user()
    if user is not None:
        os.chown(root, user.pw_uid, user.pw_gid)
        os.chown(data, user.pw_uid, user.pw_gid)
    data.chmod(0o700)
    subprocess.run(
        [
            str(bin_dir / "initdb"),
            "-D",
            str(data),
            "-U",
            "postgres",
            "--auth=trust",
            "--no-sync",
            "-E",
            "UTF8",
            "--locale=C",
        ],  # fmt: skip
        check=True,
        capture_output=True,
        **_as_postgres(),
    )
    server = PostgresServer(data, free_port(), bin_dir, durable)
    server.start()
    return server


def _user() -> pwd.struct_passwd | None:
    """The user PostgreSQL runs as when we are root (it refuses root), else None."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam("postgres")
    except KeyError:
        raise PostgresUnavailable("running as root and there is no postgres user") from None


def _as_postgres() -> dict[str, Any]:
    """Popen's arguments to run a command as the postgres user when we are root."""
    user = _user()
    if user is None:
        return {}
    return {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}
