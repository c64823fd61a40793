"""High availability on Redis Sentinel: the real `jackpot serve` finds its master through three
real sentinels, acknowledges a round only once a replica has it (WAIT), and loses no
acknowledged round when the master is SIGKILLed under load, the old master comes back, or the
replica falls behind.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from jackpot.store.keys import Keys
from table_adapter.game.engine import Table
from table_adapter.game.players import Players
from table_adapter.game.profiles import WISCONSIN
from table_adapter.game.strategies import MIX
from table_adapter.link.adapter import Adapter
from table_adapter.link.client import ControllerClient
from table_adapter.link.journal import Journal
from table_adapter.link.status import LinkSettings
from tests.support.floor_table import RATE_BP, RESET, body, linked_floor
from tests.support.floor_table import house_rounds as journal_rounds
from tests.support.sentinel import SentinelSet, sentinel_available, start_sentinels
from tests.support.service import Service, auth, key, link_main, start_service

pytestmark = pytest.mark.slow


@pytest.fixture
def sentinels(tmp_path: Path) -> Iterator[SentinelSet]:
    if not sentinel_available():
        pytest.skip("redis-sentinel is not installed")
    deployment = start_sentinels(tmp_path / "redis", replicas=1)
    yield deployment
    deployment.stop()


def serve(tmp_path: Path, deployment: SentinelSet, **extra: str) -> Service:
    hosts = ",".join(f"{h}:{p}" for h, p in deployment.sentinel_addresses)
    return start_service(
        tmp_path,
        {
            "JACKPOT_REDIS_SENTINELS": hosts,
            "JACKPOT_REDIS_MASTER": deployment.master_name,
            "JACKPOT_REDIS_WAIT_REPLICAS": "1",
            "JACKPOT_REDIS_WAIT_MS": "500",
            "JACKPOT_REDIS_TIMEOUT_SECONDS": "1",
            **extra,
        },
    )


def house_rounds(deployment: SentinelSet) -> Counter[str]:
    """How many times each round is in the house journal, on the current master."""
    client = deployment.master().client(timeout=5)
    try:
        return journal_rounds(client)
    finally:
        client.close()


def test_killing_the_master_under_load_loses_no_acknowledged_round(
    tmp_path: Path, sentinels: SentinelSet
) -> None:
    service = serve(tmp_path, sentinels)
    try:
        operator, table = linked_floor(service)
        with table.playing():
            table.wait_acknowledged(21)
            before = len(table.acknowledged)
            old = sentinels.master_address()
            killed = sentinels.kill_master()  # SIGKILL, mid-load
            sentinels.wait_for_failover(old)
            # the new master has no replica until the old one comes back as one: meanwhile
            # no round can be acknowledged (503 replication_timeout), and none is lost
            table.wait_refused("replication_timeout", "store_unavailable")
            sentinels.restart(killed)
            sentinels.wait_rejoined(killed)
            table.wait_acknowledged(20)  # the floor plays on, on the new master
        assert before > 20 and len(table.acknowledged) > before
        assert table.refusals["replication_timeout"] + table.refusals["store_unavailable"] > 0

        master = sentinels.master().client(timeout=5)
        table.assert_settled_once_each(master, operator)
        master.close()
    finally:
        service.halt()


def test_a_replica_that_falls_behind_gets_no_round_acknowledged(
    tmp_path: Path, sentinels: SentinelSet
) -> None:
    service = serve(tmp_path, sentinels)
    replica = next(s for s in sentinels.servers if s.address != sentinels.master_address())
    try:
        operator = key(service, "operator")
        link_main(service, operator, reset=RESET, rate_bp=RATE_BP, reserve_rate_bp=0)
        secret = key(service, "table", "T1")
        url, headers = f"{service.base}/v1/rounds", auth(secret)
        assert requests.post(url, json=body("A"), headers=headers).status_code == 200

        sentinels.stop_process(replica)  # SIGSTOP: it takes nothing more
        try:
            r = requests.post(url, json=body("B"), headers=headers)
            assert r.status_code == 503
            assert r.json()["error"]["code"] == "replication_timeout"
            assert r.headers["Retry-After"] == "1"
            # the resend while it is still behind: still not acknowledged
            assert requests.post(url, json=body("B"), headers=headers).status_code == 503
        finally:
            sentinels.continue_process(replica)
        # once the replica has it, the resend is answered from what was written: the round
        # was settled once, by the first attempt
        deadline = time.monotonic() + 10
        while (r := requests.post(url, json=body("B"), headers=headers)).status_code != 200:
            assert time.monotonic() < deadline, r.text
            time.sleep(0.1)
        assert r.json()["replayed"] is True
        meters = requests.get(f"{service.base}/v1/pools/main/meters", headers=auth(operator))
        assert meters.json()["bets"] == 2
    finally:
        service.halt()


def test_sentinels_that_name_no_reachable_master_make_every_round_a_503(
    tmp_path: Path, sentinels: SentinelSet
) -> None:
    service = serve(tmp_path, sentinels, JACKPOT_REDIS_MASTER="no-such-master")
    try:
        ready = requests.get(f"{service.base}/readyz", timeout=10)
        assert ready.status_code == 503 and ready.json()["store"] == "down"
        r = requests.post(
            f"{service.base}/v1/rounds", json=body("R1"), headers=auth("jpk_" + "x" * 43)
        )
        assert r.status_code == 503
        assert r.json()["error"]["code"] == "store_unavailable"
    finally:
        service.halt()


def test_the_old_master_coming_back_is_made_a_replica_and_loses_nothing(
    tmp_path: Path, sentinels: SentinelSet
) -> None:
    """Split brain: the old master returns believing it is the master. The controller asks
    the sentinels and writes only to the new one; the old one is turned into its replica,
    and the rounds acknowledged meanwhile are all there."""
    service = serve(tmp_path, sentinels)
    try:
        operator, table = linked_floor(service)
        deadline = time.monotonic() + 60
        for n in range(5):
            table.send(f"before-{n}", deadline)
        old = sentinels.master_address()
        killed = sentinels.kill_master()
        sentinels.wait_for_failover(old)
        sentinels.restart(killed)  # it starts as a master of its own, with its AOF
        for n in range(5):
            table.send(f"after-{n}", deadline)  # acknowledged once it is a replica again
        sentinels.wait_rejoined(killed)
        assert set(house_rounds(sentinels)) == set(table.acknowledged)
        # the old master, a replica again (or promoted since), has every acknowledged round
        client = killed.client(timeout=5)
        deadline = time.monotonic() + 10
        while client.hget(Keys().pool("main"), "bets") != "10":
            assert time.monotonic() < deadline
            time.sleep(0.1)
        client.close()
    finally:
        service.halt()


def test_the_worker_stops_cleanly_on_sigterm_after_a_failover(
    tmp_path: Path, sentinels: SentinelSet
) -> None:
    """A service manager stops `jackpot worker` with SIGTERM, which RQ turns into an exception
    in the middle of its blocking pop: the connection it cut short must not be used again
    (it was, and RQ's last write read the pop's answer and ended in a traceback)."""
    hosts = ",".join(f"{h}:{p}" for h, p in sentinels.sentinel_addresses)
    env = {
        **os.environ,
        "JACKPOT_REDIS_SENTINELS": hosts,
        "JACKPOT_REDIS_MASTER": sentinels.master_name,
        "JACKPOT_REDIS_TIMEOUT_SECONDS": "1",
        "JACKPOT_LOG_LEVEL": "debug",  # RQ's "Job OK" lines, which say a job ran, are DEBUG
    }
    log = tmp_path / "worker.log"
    with open(log, "wb") as out:
        worker = subprocess.Popen(
            [sys.executable, "-m", "jackpot.cli.main", "worker"],
            cwd=tmp_path, env=env, stdout=out, stderr=out,
        )  # fmt: skip
    try:

        def registered() -> bool:
            with sentinels.master().client() as client:
                return bool(client.smembers("rq:workers"))

        deadline = time.monotonic() + 30
        while not registered():
            assert worker.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        mark = len(log.read_bytes())
        old = sentinels.master_address()
        killed = sentinels.kill_master()
        sentinels.wait_for_failover(old)
        sentinels.restart(killed)
        sentinels.wait_rejoined(killed)
        # the worker found the new master: a scheduled job (every 10 s) runs there
        deadline = time.monotonic() + 60
        while b"Job OK" not in log.read_bytes()[mark:]:
            assert worker.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        worker.send_signal(signal.SIGTERM)
        assert worker.wait(timeout=30) == 0, log.read_text()
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait()
    # (a failover in the middle of a job ends RQ's loop, with its traceback; the worker
    # starts it again) and the stop itself is clean
    before, asked, stopping = log.read_text().partition("warm shut down requested")
    assert asked and "Traceback" not in stopping, stopping
    if "quitting" in before:
        assert "starting it again" in before, before


def test_acknowledged_rounds_a_failover_lost_are_found_by_the_tables_counts(
    tmp_path: Path, sentinels: SentinelSet
) -> None:
    """Without replica confirmation (JACKPOT_REDIS_WAIT_REPLICAS=0), rounds acknowledged
    while the replica was cut off are lost when the master dies, from the journal too: the
    table's own counts, reported once the floor plays on, show it within a minute."""
    service = serve(tmp_path, sentinels, JACKPOT_REDIS_WAIT_REPLICAS="0")
    env = {**service.env, "JACKPOT_ARCHIVE_INTERVAL_SECONDS": "3600"}
    with open(tmp_path / "worker.log", "wb") as log:
        worker = subprocess.Popen(
            [sys.executable, "-m", "jackpot.cli.main", "worker"],
            cwd=service.cwd,
            env=env,
            stdout=log,
            stderr=log,
        )
    journal = Journal(tmp_path / "T1.journal")
    try:
        operator = key(service, "operator")
        link_main(service, operator)
        client = ControllerClient(service.base, key(service, "table", "T1"))
        settings = LinkSettings(counts_seconds=2.0, heartbeat_seconds=1.0, grace_seconds=60.0)
        table = Table("T1", "wisconsin", seed=23, id_prefix="ha")
        adapter = Adapter("T1", journal, client, settings, table=table).start()
        seats = Players("T1", WISCONSIN, 7, MIX, random.Random(23), side_share=1.0)

        def deal(n: int) -> None:
            for _ in range(n):
                adapter.play_round(seats.bets(adapter.side_bets_open()))
            assert adapter.wait_idle(60), adapter.status()

        deal(10)
        check = counts_check(service, operator, lambda c: c["table_counts"]["rounds"] == 10)
        assert check["differences"] == {}, "they agree before the failover"

        master = sentinels.master()
        store = master.client(timeout=5)
        # cut the replica off: its link dropped, and the master refuses it a new one
        store.execute_command("ACL", "SETUSER", "default", "-psync", "-sync")
        store.execute_command("CLIENT", "KILL", "TYPE", "replica")
        store.close()
        deal(12)  # acknowledged at once: no replica wait
        old = sentinels.master_address()
        sentinels.kill_master()
        sentinels.wait_for_failover(old)
        deal(3)  # the floor plays on, on the new master
        reported = time.monotonic()
        found = counts_check(service, operator, lambda c: bool(c["differences"]))
        assert time.monotonic() - reported < 60
        assert found["differences"]["rounds"] == {"table": 25, "controller": 13}
        metrics = requests.get(f"{service.base}/metrics", timeout=10).text
        assert 'jackpot_table_counts_differ{table="T1"} 1.0' in metrics
        assert 'jackpot_table_count_difference{figure="rounds",table="T1"} 12.0' in metrics
        adapter.stop()
        client.close()
    finally:
        journal.close()
        worker.send_signal(signal.SIGTERM)
        worker.wait(timeout=30)
        service.halt()


def counts_check(
    service: Service, operator: str, wanted: Callable[[dict[str, Any]], bool], seconds: float = 60
) -> dict[str, Any]:
    """The controller's comparison of T1's counts, once the worker made one that is `wanted`."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            r = requests.get(f"{service.base}/v1/tables/T1", headers=auth(operator), timeout=5)
            check = r.json().get("counts_check") if r.status_code == 200 else None
        except requests.RequestException:
            check = None
        if check and wanted(check):
            return dict(check)
        assert time.monotonic() < deadline, f"no such comparison of T1's counts: {check}"
        time.sleep(0.2)
