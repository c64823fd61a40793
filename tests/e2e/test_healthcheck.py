"""`jackpot healthcheck`, as a container runtime calls it: each kind of process healthy while
it does its job, unhealthy (exit 1, with the reason) once it stops."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from tests.support.service import Service, jackpot, running_worker, start_service


@pytest.fixture
def workers() -> int:
    """One worker serves the service: what is checked is that it answers, then that it does
    not."""
    return 1


def check(kind: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return jackpot("healthcheck", kind, cwd=cwd, env={**os.environ, **env}, timeout=30)


def test_the_api_is_healthy_while_it_answers_ready(service: Service, tmp_path: Path) -> None:
    env = {"JACKPOT_BIND": service.base.split("//", 1)[1]}
    assert check("api", env, tmp_path).returncode == 0
    service.stop()
    down = check("api", env, tmp_path)
    assert down.returncode == 1 and "unhealthy api" in down.stderr, down.stderr


def test_the_sign_process_is_healthy_while_it_runs(redis_server: Any, tmp_path: Path) -> None:
    signs = start_service(tmp_path, {"JACKPOT_REDIS_URL": redis_server.url}, command="signs")
    env = {"JACKPOT_SIGNS_BIND": signs.base.split("//", 1)[1]}
    try:
        assert check("signs", env, tmp_path).returncode == 0
    finally:
        signs.stop()
    assert check("signs", env, tmp_path).returncode == 1


def test_a_worker_is_healthy_while_its_heartbeat_is_fresh(
    redis_server: Any, tmp_path: Path
) -> None:
    env = {"JACKPOT_REDIS_URL": redis_server.url}
    nobody = check("worker", env, tmp_path)
    assert nobody.returncode == 1 and "no worker" in nobody.stderr, nobody.stderr
    with running_worker(tmp_path, redis_server.url) as worker:
        deadline = time.monotonic() + 30
        while check("worker", env, tmp_path).returncode != 0:
            assert worker.poll() is None, (tmp_path / "worker.log").read_text()
            assert time.monotonic() < deadline, "the worker never became healthy"
            time.sleep(0.5)
    assert check("worker", env, tmp_path).returncode == 1  # it left the registry as it stopped
