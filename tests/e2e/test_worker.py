"""`jackpot worker` runs the accounting reports the API queues."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import redis as redis_lib
import requests
from rq import Queue
from rq.exceptions import StopRequested

from jackpot.cli.worker import ControllerWorker, queue_clients
from jackpot.settings import Settings
from tests.support.api import Api
from tests.support.model import random_round
from tests.support.redis_server import start_server
from tests.support.service import (
    Service,
    auth,
    jackpot,
    key,
    link_main,
    start_service,
)


def test_the_worker_reconciles_a_pool_from_its_journal(
    linked: Api, redis_server: object, tmp_path: Path
) -> None:
    adjust = linked.client.post(
        "/v1/pools/main/adjustments",
        headers=linked.keys.header("operator"),
        json={"id": "adj-1", "amount": -250, "units": -5, "reason": "correction"},
    )
    assert adjust.status_code == 200, adjust.get_json()
    rng = random.Random(3)
    for n in range(60):
        assert linked.report(random_round(rng, "T1", f"w{n}", tie_bias=0.3)).status_code == 200
    hit = {
        "table": "T1",
        "round": "jackpot",
        "dealer": {"card": "9s", "war_card": "9s"},
        "spots": [{"spot": 1, "wager": 500, "card": "9s", "war": True, "war_card": "9s"}],
    }
    assert linked.report(hit).get_json()["jackpots"]

    queued = linked.client.post(
        "/v1/reports/reconcile", json={"pool": "main"}, headers=linked.keys.header("auditor")
    )
    assert queued.status_code == 202, queued.get_json()
    report_id = queued.get_json()["id"]
    pending = linked.client.get(f"/v1/reports/{report_id}", headers=linked.keys.header("auditor"))
    assert pending.get_json()["status"] == "queued"

    env = {**os.environ, "JACKPOT_REDIS_URL": redis_server.url}  # type: ignore[attr-defined]
    done = jackpot("worker", "--burst", cwd=tmp_path, env=env, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr

    report = linked.client.get(
        f"/v1/reports/{report_id}", headers=linked.keys.header("auditor")
    ).get_json()
    assert report["status"] == "finished", report
    result = report["result"]
    meters = linked.meters()
    assert result["balanced"] is True
    assert result["opening_units"] == 100_000 * 10_000
    assert result["closing_units"] == meters["value_units"] + meters["reserve_units"]
    assert result["adjustments_units"] == -2_500_005
    assert result["hits"] == 1 and result["pays"] == meters["won"]
    assert result["seed_units"] == meters["seed_funding_units"]
    assert result["rounds"] == len([e for e in linked.journal() if e["type"] == "contribution"])


def reconcile(service: Service, auditor: str) -> str:
    r = requests.post(
        f"{service.base}/v1/reports/reconcile", json={"pool": "main"}, headers=auth(auditor)
    )
    assert r.status_code == 202, r.text
    return str(r.json()["id"])


def wait_finished(service: Service, auditor: str, report_id: str, worker_log: Path) -> None:
    """Until the worker has run the report (a generous bound: it only stops a hung test)."""
    deadline = time.monotonic() + 120
    while True:
        r = requests.get(f"{service.base}/v1/reports/{report_id}", headers=auth(auditor))
        status = r.json()["status"]
        if status == "finished":
            return
        assert status in ("queued", "started"), r.text
        assert time.monotonic() < deadline, f"still {status}:\n{worker_log.read_text()}"
        time.sleep(0.2)


def test_a_running_worker_keeps_working_after_serve_restarts_the_embedded_store(
    tmp_path: Path,
) -> None:
    first = start_service(tmp_path)  # the embedded store, under tmp_path/var
    assert "JACKPOT_REDIS_URL" not in first.env
    worker_log = tmp_path / "worker.log"
    with open(worker_log, "wb") as out:
        worker = subprocess.Popen(
            [sys.executable, "-m", "jackpot.cli.main", "worker"],
            cwd=tmp_path,
            env=first.env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    second: Service | None = None
    try:
        auditor, operator = key(first, "auditor"), key(first, "operator")
        r = requests.put(
            f"{first.base}/v1/pools/main",
            headers=auth(operator),
            json={"reset": 100_000, "rate_bp": 100, "reserve_rate_bp": 0},
        )
        assert r.status_code == 201, r.text
        wait_finished(first, auditor, reconcile(first, auditor), worker_log)
        info = tmp_path / "var" / "redis.json"
        url = json.loads(info.read_text())["url"]
        assert url.startswith("unix://")

        assert first.stop() == 0
        assert info.exists(), "the worker uses the store: it outlives serve"
        # the store goes down while serve is away (a crash, a host's OOM killer): serve's
        # next start starts it again, on its AOF and at the same socket
        store_pid = int((tmp_path / "var" / "redis.pid").read_text())
        os.kill(store_pid, signal.SIGKILL)
        second = start_service(tmp_path)
        assert json.loads(info.read_text())["url"] == url
        assert int((tmp_path / "var" / "redis.pid").read_text()) != store_pid

        wait_finished(second, auditor, reconcile(second, auditor), worker_log)
        assert worker.poll() is None
    finally:
        if second is not None:
            second.stop()
        worker.send_signal(signal.SIGTERM)
        assert worker.wait(timeout=60) == 0, worker_log.read_text()
        first.stop()
    assert not info.exists(), "the last user out stops the store"
    lines = worker_log.read_text().splitlines()
    # every line in the controller's format (RQ's too: a lost store is its ERROR line), RQ's
    # routine never at INFO (DEBUG); the job's moved entries are the controller's INFO line
    shape = re.compile(r"\S+ (DEBUG|INFO|WARNING|ERROR|CRITICAL) pid=\d+ [\w.]+: ")
    assert lines and all(shape.match(line) for line in lines), lines
    assert not any(" INFO pid=" in line and " rq." in line for line in lines), lines
    assert any(" INFO pid=" in line and " jackpot.jobs: archive: " in line for line in lines)


def test_the_queue_may_live_on_a_redis_of_its_own(tmp_path: Path) -> None:
    """JACKPOT_QUEUE_REDIS_URL: RQ's keys on their own server (as on a Redis Cluster, whose
    slots RQ cannot share), the meters on the store; the API queues there, the worker runs
    from there, and the report reads the store."""
    store = start_server(tmp_path / "store")
    queue = start_server(tmp_path / "queue")
    env = {"JACKPOT_REDIS_URL": store.url, "JACKPOT_QUEUE_REDIS_URL": queue.url}
    service = start_service(tmp_path, env)
    try:
        operator, auditor = key(service, "operator"), key(service, "auditor")
        link_main(service, operator)
        report_id = reconcile(service, auditor)
        on_store = redis_lib.Redis.from_url(store.url)
        on_queue = redis_lib.Redis.from_url(queue.url)
        assert list(on_queue.scan_iter("rq:*")) and not list(on_store.scan_iter("rq:*"))
        assert not list(on_queue.scan_iter("{jackpot}*"))
        done = jackpot("worker", "--burst", cwd=tmp_path, env=service.env, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr
        wait_finished(service, auditor, report_id, tmp_path / "none.log")
        r = requests.get(f"{service.base}/v1/reports/{report_id}", headers=auth(auditor))
        assert r.json()["result"]["balanced"] is True
        on_store.close()
        on_queue.close()
    finally:
        service.halt()
        store.stop()
        queue.stop()


def test_the_workers_wait_for_a_job_never_times_out_on_the_schedules_connection(
    redis_server: Any,
) -> None:
    # RQ waits for a job with a blocking pop of minutes and raises its client's socket
    # timeout for it, but only for connections made after. Sharing one client with the
    # schedule's thread, which had made a connection with the controller's 2 s, handed that
    # connection to the pop: every wait over 2 s between jobs logged ERROR "could not
    # connect to Redis instance: Timeout reading from socket" (issue 40, 54 under load)
    settings = replace(Settings.from_env({}), redis_timeout_seconds=0.5)
    worker_client, schedule_client = queue_clients(settings, redis_server.url)
    schedule_client.ping()  # the schedule's thread ticks first, as it starts first
    worker = ControllerWorker([Queue("q", connection=worker_client)], connection=worker_client)
    assert worker.connection.blmove("empty", "elsewhere", 1) is None
    assert schedule_client.connection_pool.connection_kwargs["socket_timeout"] == 0.5


def test_a_stop_whose_exception_python_swallowed_still_ends_the_loop(redis_server: Any) -> None:
    """An idle worker stops by raising StopRequested from its SIGTERM handler; raised while
    Python runs a weakref callback (SQLAlchemy's, in CI), the exception is swallowed and the
    stop was lost for good. The flag RQ's loop checks must carry it: the loop ends at its
    next turn instead of taking the next job."""
    client = redis_lib.Redis.from_url(redis_server.url)
    client.flushall()
    queue = Queue("stop", connection=client)
    job = queue.enqueue("builtins.len", "abc")
    worker = ControllerWorker([queue], connection=client)
    handlers = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        try:
            worker.request_stop(signal.SIGTERM, None)
        except StopRequested:
            pass  # as Python does with an exception raised in a weakref callback
        assert worker.work(max_jobs=1, with_scheduler=False) is False  # ran no job
    finally:
        for s, handler in handlers.items():
            signal.signal(s, handler)
    assert worker.stop_requested
    assert job.id in queue.job_ids  # still there for the next worker
