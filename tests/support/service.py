"""The real service as a user runs it: jackpot serve under gunicorn, its CLI, its keys."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path
from typing import Any

import requests

from jackpot.bootstrap import bootstrap
from jackpot.cli.runtime import services
from jackpot.domain.auth import PEOPLES_ROLES, Role
from jackpot.services.clock import now_ms
from jackpot.settings import Settings
from jackpot.store.embedded import free_port
from tests.support.people import issue, person


@dataclass
class Service:
    base: str
    process: subprocess.Popen[bytes]
    cwd: Path
    env: dict[str, str]
    log: Path
    python: str = sys.executable  # the interpreter the service and its CLI run on

    @property
    def host(self) -> str:
        return self.base.split("//", 1)[1].rsplit(":", 1)[0]

    @property
    def port(self) -> int:
        return int(self.base.rsplit(":", 1)[1])

    def stop(self) -> int:
        """Stop the service as a service manager does (SIGTERM: gunicorn's graceful stop,
        each worker finishing its requests), for a test that looks at how it stopped or
        at what it left; its exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                return self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self._kill()
        return self.process.wait()

    def halt(self) -> None:
        """Dispose of the service at a test's end, at once: SIGKILL to its process group (the
        command, gunicorn's master and its workers; start_service gave it one of its own).
        For a service nothing is checked of after: the store is the test's own, and a
        graceful stop costs a second or two a service (each gevent worker notices it at its
        next idle poll, then the processes wind down). A service on the embedded store is
        stopped instead: its store is a daemon of its own that the command shuts down as it
        leaves."""
        if not Settings.from_env(self.env).store:
            self.stop()
            return
        if self.process.returncode is None:  # not reaped: its pid still names its group
            self._kill()
        self.process.wait()

    def _kill(self) -> None:
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass  # gone already, with every process of its group


def jackpot(
    *args: str, cwd: Path, env: dict[str, str], timeout: float = 60, python: str = sys.executable
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [python, "-m", "jackpot.cli.main", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def start_service(
    cwd: Path,
    extra_env: dict[str, str] | None = None,
    command: str = "serve",
    port: int | None = None,
    python: str = sys.executable,
) -> Service:
    """`jackpot serve` (or `jackpot signs`, the sign process) on `port` (default a free one),
    run by `python` (default this one), once it answers."""
    port = port or free_port()
    bind = "JACKPOT_SIGNS_BIND" if command == "signs" else "JACKPOT_BIND"
    env = {
        **os.environ,
        bind: f"127.0.0.1:{port}",
        "JACKPOT_WORKERS": "2",
        "JACKPOT_KEY_CACHE_SECONDS": "0",
        **(extra_env or {}),
    }
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    log = cwd / f"{command}-{port}.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [python, "-m", "jackpot.cli.main", command],
            cwd=cwd,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            # a process group of its own, for halt() to end at once: gunicorn's master and
            # workers included (Ctrl-C reaches it through the tests' teardown)
            start_new_session=True,
        )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if requests.get(f"{base}/healthz", timeout=2).status_code == 200:
                break
        except requests.RequestException:
            pass  # not listening yet, or still booting its workers
        if process.poll() is not None or time.monotonic() > deadline:
            Service(base, process, cwd, env, log).stop()  # never leave a half-started service
            raise RuntimeError(f"jackpot {command} did not start:\n{log.read_text()}")
        time.sleep(0.1)
    return Service(base, process, cwd, env, log, python)


def key(service: Service, role: str, *tables: str, label: str = "") -> str:
    """A new API key in the service's store, made as `jackpot keys create` makes it (a
    person's key names its holder: `label`, default one made up for the role), but in this
    process: the command itself is tested in tests/e2e/test_serve.py and test_image.py,
    and a second of a subprocess a key is the e2e tier's largest cost."""
    label = label or f"{role} of {', '.join(tables) or 'the tests'}"
    settings = Settings.from_env(service.env)
    if not settings.data_dir.is_absolute():
        settings = replace(settings, data_dir=service.cwd / settings.data_dir)
    with services(settings) as built:
        secret = issue(built, Role(role), tables, label)
    return secret


def compare_counts(service: Service) -> list[dict[str, Any]]:
    """What the worker's compare-tables job does, once, now, in this process: the tables'
    own counts compared with the service's journals."""
    settings = Settings.from_env(service.env)
    if not settings.data_dir.is_absolute():
        settings = replace(settings, data_dir=service.cwd / settings.data_dir)
    with services(settings) as built:
        return built.table_counts.compare()


@contextmanager
def archiving_service(cwd: Path, redis_url: str, archive_url: str) -> Iterator[Service]:
    """`jackpot serve` on New York time over `archive_url` (PostgreSQL, say), with its worker
    archiving every second, for the length of the block."""
    svc = start_service(
        cwd,
        {
            "JACKPOT_REDIS_URL": redis_url,
            "JACKPOT_TIME_ZONE": "America/New_York",
            "JACKPOT_ARCHIVE_URL": archive_url,
            "JACKPOT_ARCHIVE_INTERVAL_SECONDS": "1",
        },
    )
    try:
        with running_worker(cwd, redis_url, svc.env):
            yield svc
    finally:
        svc.halt()


def archived(service: Service, who: str, payout: str) -> None:
    """Wait until the worker has archived the payout's every step (its record shows their
    hashes)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        r = requests.get(f"{service.base}/v1/payouts/{payout}/record", headers=auth(who))
        if r.ok and all(step["hash"] for step in r.json()["steps"]):
            return
        time.sleep(0.2)
    raise AssertionError(f"the worker did not archive {payout} within 30 s")


def close_day(service: Service, redis_url: str, day: str) -> dict[str, Any]:
    """Close a gaming day of the service's as its worker would two days later: in this
    process, on the service's store and archive, with the clock moved on (the statement)."""
    settings = Settings.from_env(service.env)
    if not settings.data_dir.is_absolute():
        settings = replace(settings, data_dir=service.cwd / settings.data_dir)
    built = bootstrap(settings, redis_url, lambda: now_ms() + 2 * 86_400_000)
    try:
        built.archiver.run()
        return built.accounting.close(date.fromisoformat(day))
    finally:
        built.close()


def cli_key(service: Service, role: str, *tables: str, label: str = "") -> str:
    """A new API key made by the service's own `jackpot keys create`, as an operator would."""
    label = label or f"{role} of {', '.join(tables) or 'the tests'}"
    args = ["keys", "create", "--role", role]
    if Role(role) in PEOPLES_ROLES:  # issued to a person of the register
        settings = Settings.from_env(service.env)
        if not settings.data_dir.is_absolute():
            settings = replace(settings, data_dir=service.cwd / settings.data_dir)
        with services(settings) as built:
            args += ["--person", person(built, label).id]
    else:
        args += ["--label", label]
    for t in tables:
        args += ["--table", t]
    done = jackpot(*args, cwd=service.cwd, env=service.env, python=service.python)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout.strip().splitlines()[-1]


def link_main(service: Service, operator: str, **pool: int) -> None:
    """Pool `main` (the given parameters over a 4 % meter, 1 % reserve) fed by table T1."""
    body = {"reset": 500_000, "rate_bp": 400, "reserve_rate_bp": 100, **pool}
    base = service.base
    requests.put(f"{base}/v1/pools/main", headers=auth(operator), json=body).raise_for_status()
    requests.put(
        f"{base}/v1/tables/T1", headers=auth(operator), json={"pools": ["main"]}
    ).raise_for_status()


def auth(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


@contextmanager
def running_worker(
    cwd: Path, redis_url: str, settings: dict[str, str] | None = None
) -> Iterator[subprocess.Popen[bytes]]:
    """`jackpot worker` on `redis_url` (and `settings`: a service's env, say) for the length
    of the block, stopped with SIGTERM as a service manager stops it; its output in
    cwd/worker.log."""
    env = {**os.environ, **(settings or {}), "JACKPOT_REDIS_URL": redis_url}
    with open(cwd / "worker.log", "wb") as log:
        worker = subprocess.Popen(
            [sys.executable, "-m", "jackpot.cli.main", "worker"],
            cwd=cwd,
            env=env,
            stdout=log,
            stderr=log,
        )
        try:
            yield worker
        finally:
            worker.send_signal(signal.SIGTERM)
            try:
                worker.wait(timeout=30)
            except subprocess.TimeoutExpired:
                # as a service manager does after its stop timeout; never left running into
                # the next test's store
                worker.kill()
                worker.wait(timeout=10)
                raise
