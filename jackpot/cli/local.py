"""A local controller for demos and the floor simulator: store, provisioning, gunicorn, ready.

`local_controller(...)` starts (or attaches to) the store as every `jackpot` command does,
provisions the pools and tables it is given (idempotently: an existing pool keeps its
meter), makes a table key for the tables, serves the API under gunicorn exactly as
`jackpot serve` does, and yields once /readyz answers. Leaving it stops the service.
"""

from __future__ import annotations

import os
import subprocess
import time
import urllib.request
from collections.abc import Collection, Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from jackpot.bootstrap import Services, bootstrap
from jackpot.cli.runtime import store_url
from jackpot.cli.serve import gunicorn_command, gunicorn_env
from jackpot.domain.auth import Role
from jackpot.errors import NotFoundError
from jackpot.services.checkpointfiles import generate_key
from jackpot.settings import Settings

STOP_SECONDS = 30.0


@dataclass(frozen=True, slots=True)
class LocalController:
    """A running local service: its base URL and a table key for the provisioned tables."""

    base: str
    table_key: str
    store: str  # the Redis URL it serves from
    pid: int  # gunicorn's master process


def provision(
    services: Services,
    pools: Mapping[str, Mapping[str, Any]],
    tables: Mapping[str, Mapping[str, Any]],
    key_tables: Collection[str],
    who: str,
) -> str:
    """Create missing pools, put the tables, and return a new table key for `key_tables`."""
    for pool, body in pools.items():
        try:
            services.groups.pools_of(pool).get(pool)
        except NotFoundError:
            services.placement.put_pool(pool, dict(body), who)
    for table, body in tables.items():
        services.placement.put_table(table, dict(body), who)
    secret, _ = services.credentials.create(Role.TABLE, frozenset(key_tables), who)
    return secret


def wait_http(
    url: str, timeout: float = 30.0, server: subprocess.Popen[bytes] | None = None
) -> None:
    """Wait until `url` answers 2xx; fail early if `server` exits first."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:  # refused, reset, timed out, or an HTTP error status (URLError)
            if server is not None and server.poll() is not None:
                code = server.returncode
                raise RuntimeError(f"the service exited ({code}) before {url} answered") from None
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


@contextmanager
def local_controller(
    settings: Settings,
    pools: Mapping[str, Mapping[str, Any]],
    tables: Mapping[str, Mapping[str, Any]],
    *,
    key_tables: Collection[str] = (),
    who: str = "local",
    log: Path | None = None,
) -> Iterator[LocalController]:
    """Serve the controller on `settings.bind` over the (embedded) store, provisioned."""
    with store_url(settings) as url, ExitStack() as stack:
        services = bootstrap(settings, url)
        try:
            secret = provision(services, pools, tables, {*tables, *key_tables}, who)
            # a demo works out of the box: its own signing key, and a first checkpoint for
            # the signs' small print (no worker runs here to sign more: D255)
            if not settings.checkpoint_key_file.exists():
                generate_key(settings.checkpoint_key_file)
            services.checkpoints.make("request")
        finally:
            services.close()
        base = f"http://{settings.bind}"
        pid = stack.enter_context(
            _serving(gunicorn_command(), gunicorn_env(settings, url), f"{base}/readyz", log)
        )
        yield LocalController(base, secret, url, pid)


@contextmanager
def sign_process(settings: Settings, store: str, log: Path | None = None) -> Iterator[str]:
    """The sign process (`jackpot signs`' gunicorn) on `settings.signs_bind` over `store`;
    yields its base URL once it answers, stops it on leaving."""
    from jackpot.cli.signs import gunicorn_command as signs_command

    env = {**os.environ, **settings.to_env(), "JACKPOT_REDIS_URL": store}
    base = f"http://{settings.signs_bind}"
    with _serving(signs_command(), env, f"{base}/healthz", log):
        yield base


@contextmanager
def _serving(
    command: list[str], env: dict[str, str], ready: str, log: Path | None
) -> Iterator[int]:
    """A server process, once `ready` answers (its pid); terminated (then killed) on leaving."""
    with ExitStack() as stack:
        out: IO[bytes] | None = None
        if log is not None:
            log.parent.mkdir(parents=True, exist_ok=True)
            out = stack.enter_context(open(log, "ab"))
        server = subprocess.Popen(
            command, env=env, stdout=out, stderr=subprocess.STDOUT if out is not None else None
        )
        try:
            wait_http(ready, server=server)
            yield server.pid
        finally:
            server.terminate()
            try:
                server.wait(timeout=STOP_SECONDS)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
