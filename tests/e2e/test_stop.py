"""A service manager stops commands with SIGTERM: nothing they started may outlive them."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import redis
import requests

from jackpot.store.embedded import free_port


def test_sigterm_stops_the_demo_its_service_and_its_embedded_store(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "JACKPOT_BIND": f"127.0.0.1:{port}"}
    env.pop("JACKPOT_REDIS_URL", None)
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    with open(tmp_path / "demo.log", "wb") as log:
        demo = subprocess.Popen(
            [sys.executable, "-m", "table_adapter.cli", "demo", "--tables", "1"],
            cwd=tmp_path,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if requests.get(f"http://127.0.0.1:{port}/v1/pools/DEMO-main", timeout=2).ok:
                    break
            except requests.RequestException:
                pass
            assert demo.poll() is None and time.monotonic() < deadline, (
                tmp_path / "demo.log"
            ).read_text()
            time.sleep(0.2)
        url = json.loads((tmp_path / "var" / "redis.json").read_text())["url"]
        # out of the box: its own checkpoint key, and a first checkpoint for the signs (D255)
        latest = requests.get(f"http://127.0.0.1:{port}/v1/checkpoints/latest", timeout=5)
        assert latest.status_code == 200 and latest.json()["id"] == 1
        assert (tmp_path / "var" / "checkpoint_key.pem").stat().st_mode & 0o777 == 0o600
        demo.send_signal(signal.SIGTERM)
        assert demo.wait(timeout=60) != 0  # it stopped on the signal, not by itself
    finally:
        if demo.poll() is None:
            demo.kill()
            demo.wait()
    assert not (tmp_path / "var" / "redis.json").exists()
    try:
        redis.Redis.from_url(url, socket_timeout=1).ping()
        raise AssertionError("the embedded store outlived the demo")
    except redis.ConnectionError:
        pass
    try:
        requests.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
        raise AssertionError("the demo's service outlived it")
    except requests.ConnectionError:
        pass
