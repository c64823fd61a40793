"""`jackpot serve`: the HTTP service under gunicorn, with the embedded store if no URL."""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import signal
import subprocess
import sys
from importlib import resources
from pathlib import Path

from jackpot.cli.runtime import store_url, with_controller_gaming_day
from jackpot.settings import Settings, redacted

log = logging.getLogger("jackpot.cli")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("serve", help="run the HTTP service under gunicorn")
    p.add_argument("--bind", help="address:port (default JACKPOT_BIND or 127.0.0.1:8000)")
    p.set_defaults(func=run)


def gunicorn_command(
    conf_file: str = "gunicorn_conf.py", app: str = "jackpot.entrypoints.wsgi:app"
) -> list[str]:
    """gunicorn with one of the package's config files: the API's by default."""
    conf = resources.files("jackpot.entrypoints").joinpath(conf_file)
    return [sys.executable, "-m", "gunicorn", "-c", str(conf), app]


def gunicorn_env(settings: Settings, url: str) -> dict[str, str]:
    """The service's environment: the store URL and a fresh multiprocess metrics dir."""
    metrics_dir = settings.metrics_dir or settings.data_dir / "metrics"
    shutil.rmtree(metrics_dir, ignore_errors=True)
    metrics_dir.mkdir(parents=True)
    env = {**os.environ, **settings.to_env()}
    env["JACKPOT_REDIS_URL"] = url
    env["PROMETHEUS_MULTIPROC_DIR"] = str(Path(metrics_dir).resolve())
    return env


def run(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    if args.bind:
        os.environ["JACKPOT_BIND"] = args.bind
        settings = Settings.from_env()
    with store_url(settings) as url:
        settings = with_controller_gaming_day(settings, url)  # the workers close days by it
        log.info("store %s; serving on http://%s/", redacted(url), settings.bind)
        return supervise(gunicorn_command(), gunicorn_env(settings, url))


def supervise(command: list[str], env: dict[str, str]) -> int:
    """Run a child until it exits; SIGINT/SIGTERM are passed on for a graceful stop."""
    child = subprocess.Popen(command, env=env)

    def forward(signum: int, _frame: object) -> None:
        child.send_signal(signum)

    previous = {s: signal.signal(s, forward) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        return child.wait()
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
