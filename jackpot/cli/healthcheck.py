"""`jackpot healthcheck`: is this container's process doing its job? For a container
runtime's health check (the image's HEALTHCHECK, compose's `healthcheck:`): exit 0 when
healthy, 1 with the reason on stderr when not. It never starts a store.

  api     the controller answers /readyz (it runs and reaches its store)
  signs   the sign process answers /healthz and reads the store
  worker  a `jackpot worker` on this host has beaten its heartbeat in the store lately
  auto    the one of these that this container runs (PID 1's command), else api
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
import time
import urllib.request
from pathlib import Path

from jackpot.settings import Settings

HEARTBEAT_SECONDS = 60  # RQ beats about every 30 s while idle (its worker TTL is 420 s)
KINDS = ("api", "signs", "worker", "auto")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "healthcheck",
        help="exit 0 when this container's serve, signs or worker process is healthy",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("kind", nargs="?", choices=KINDS, default="auto")
    p.add_argument("--timeout", type=float, default=2.0, metavar="SECONDS")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    kind = running() if args.kind == "auto" else args.kind
    try:
        if kind == "worker":
            problem = worker(settings, args.timeout)
        else:
            problem = http(settings, kind, args.timeout)
    except Exception as exc:  # noqa: BLE001 - any failure to check is unhealthy, said why
        problem = f"{type(exc).__name__}: {exc}"
    if problem:
        print(f"unhealthy {kind}: {problem}", file=sys.stderr)
        return 1
    return 0


def running() -> str:
    """What this container runs: PID 1's jackpot command."""
    try:
        argv = Path("/proc/1/cmdline").read_bytes().split(b"\0")
    except OSError:
        return "api"
    words = {a.decode(errors="replace") for a in argv}
    return "worker" if "worker" in words else "signs" if "signs" in words else "api"


def local(bind: str) -> str:
    """Where to reach a server bound to `bind` from inside its own container."""
    host, _, port = bind.rpartition(":")
    if host in ("", "0.0.0.0", "::", "[::]"):
        host = "127.0.0.1"
    return f"http://{host}:{port}"


def http(settings: Settings, kind: str, timeout: float) -> str:
    if kind == "signs":
        url = local(settings.signs_bind) + "/healthz"
    else:
        url = local(settings.bind) + "/readyz"
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:  # our own URL
            body = json.loads(answer.read() or b"{}")
    except OSError as exc:  # refused, timed out, or an HTTP error status
        return f"{url}: {exc}"
    if kind == "signs" and body.get("store") is False:
        return f"{url}: the sign process does not read the store"
    return ""


def worker(settings: Settings, timeout: float) -> str:
    url = settings.store or _embedded_url(settings)
    if url is None:
        return "no JACKPOT_REDIS_URL, and no embedded store running under JACKPOT_DATA_DIR"
    from jackpot.store.connect import connect
    from jackpot.store.queue import ReconciliationQueue

    # RQ keeps pickles: a client that does not decode replies, as the worker's own
    connection = connect(settings.queue_store(url), decode=False, timeout=timeout)
    here = socket.gethostname()
    health = ReconciliationQueue(connection, settings.queue).health(hostname=here)
    if not health.workers:
        return f"no worker of queue {settings.queue!r} registered from host {here!r}"
    age = time.time() - (health.last_heartbeat or 0.0)
    if age > HEARTBEAT_SECONDS:
        return f"the worker's last heartbeat was {age:.0f} s ago"
    return ""


def _embedded_url(settings: Settings) -> str | None:
    info = settings.data_dir / "redis.json"
    try:
        return str(json.loads(info.read_text())["url"])
    except (OSError, ValueError, KeyError):
        return None
