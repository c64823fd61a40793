"""Debian's nginx with the project's config (deploy/nginx/templates/jackpot.conf.template),
started as a test's own server: its prefix, logs and temp files in a temporary directory,
a free port."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from string import Template

import pytest
import requests

from jackpot.store.embedded import free_port

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "deploy" / "nginx" / "templates" / "jackpot.conf.template"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)

needs_nginx = pytest.mark.skipif(
    NGINX is None,
    reason="no nginx here (./dev test installs Debian's nginx-light)",
)


def render(port: int, api: str, signs: str) -> str:
    """The template as the nginx image's envsubst writes it (only these variables)."""
    values = {"NGINX_PORT": str(port), "JACKPOT_API_UPSTREAM": api, "JACKPOT_SIGNS_UPSTREAM": signs}
    return Template(TEMPLATE.read_text()).safe_substitute(values)


@contextmanager
def nginx(directory: Path, api: str, signs: str) -> Iterator[str]:
    """nginx in front of `api` and `signs` (host:port each); yields its base URL."""
    assert NGINX is not None
    directory.mkdir(parents=True, exist_ok=True)
    port = free_port()
    (directory / "jackpot.conf").write_text(render(port, api, signs))
    temp = "\n".join(
        f"    {kind}_temp_path {directory / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    main = f"""
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
"""
    (directory / "nginx.conf").write_text(main)
    command = [NGINX, "-p", str(directory), "-e", str(directory / "error.log"),
               "-c", str(directory / "nginx.conf"), "-g", "daemon off;"]  # fmt: skip
    checked = subprocess.run([*command, "-t"], capture_output=True, text=True, timeout=30)
    assert checked.returncode == 0, checked.stderr
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            requests.get(f"{base}/healthz", timeout=2)
            break
        except requests.ConnectionError:
            assert process.poll() is None, process.stderr.read() if process.stderr else ""
            assert time.monotonic() < deadline, "nginx did not start"
            time.sleep(0.1)
    try:
        yield base
    finally:
        process.send_signal(signal.SIGQUIT)  # graceful: finish what is in flight
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stderr is not None:
            process.stderr.close()
