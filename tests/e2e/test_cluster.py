"""The real `jackpot serve` and `jackpot worker` on a Redis Cluster started by the tests: the
controller's keys in their hash tag's slot, on the master that holds it; the background
jobs' queue on a server of its own. Faults: a cluster that answers CLUSTERDOWN, and the
master holding the meters SIGKILLed under load (its replica takes over).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis as redis_lib
import requests
from redis.crc import key_slot

from jackpot.store.keys import Keys
from tests.support.checks import snapshot
from tests.support.cluster import (
    ClusterNodeProcess,
    RedisCluster,
    need_cluster,
    start_cluster,
)
from tests.support.floor_table import RATE_BP, RESET, body, linked_floor
from tests.support.redis_server import RedisServer, start_server
from tests.support.screen import Screen, value_of
from tests.support.service import Service, auth, jackpot, key, link_main, start_service

pytestmark = pytest.mark.slow

TAG = Keys().tag


@pytest.fixture
def clusters(tmp_path: Path) -> Iterator[Callable[..., RedisCluster]]:
    """start_cluster(**options) for the test; every cluster it started is stopped after."""
    need_cluster()
    made: list[RedisCluster] = []

    def start(**options: Any) -> RedisCluster:
        made.append(start_cluster(tmp_path / f"cluster{len(made)}", **options))
        return made[-1]

    yield start
    for cluster in made:
        cluster.stop()


@pytest.fixture
def queue(tmp_path: Path) -> Iterator[RedisServer]:
    server = start_server(tmp_path / "queue")
    yield server
    server.stop()


def cluster_url(cluster: RedisCluster) -> str:
    return "redis+cluster://" + ",".join(f"127.0.0.1:{n.port}" for n in cluster.nodes)


def serve(tmp_path: Path, cluster: RedisCluster, queue: RedisServer, **extra: str) -> Service:
    return start_service(
        tmp_path,
        {
            "JACKPOT_REDIS_URL": cluster_url(cluster),
            "JACKPOT_QUEUE_REDIS_URL": queue.url,
            "JACKPOT_REDIS_TIMEOUT_SECONDS": "1",
            **extra,
        },
    )


def reconciled(tmp_path: Path, service: Service, auditor: str, pool: str) -> dict[str, Any]:
    """A reconciliation of `pool` requested, run by `jackpot worker --burst`: its result."""
    r = requests.post(
        f"{service.base}/v1/reports/reconcile", json={"pool": pool}, headers=auth(auditor)
    )
    assert r.status_code == 202, r.text
    done = jackpot("worker", "--burst", cwd=tmp_path, env=service.env, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    report = requests.get(f"{service.base}/v1/reports/{r.json()['id']}", headers=auth(auditor))
    assert report.json()["status"] == "finished", report.text
    return dict(report.json()["result"])


def test_the_service_and_its_worker_run_on_a_redis_cluster(
    tmp_path: Path, clusters: Callable[..., RedisCluster], queue: RedisServer
) -> None:
    cluster = clusters(masters=3)
    service = serve(tmp_path, cluster, queue)
    signs: Service | None = None
    try:
        operator, auditor = key(service, "operator"), key(service, "auditor")
        link_main(service, operator)
        table = key(service, "table", "T1")
        sign = {"levels": [{"pool": "main", "name": "Major"}], "title": "Casino War"}
        requests.put(
            f"{service.base}/v1/signs/lobby", json=sign, headers=auth(operator)
        ).raise_for_status()
        signs = start_service(tmp_path, service.env, command="signs")
        screen = Screen(signs)
        try:
            opening = value_of(*screen.until(lambda kind, data: kind == "state"))
            url = f"{service.base}/v1/rounds"
            first = requests.post(url, json=body("R1"), headers=auth(table))
            assert first.status_code == 200 and first.json()["replayed"] is False, first.text
            # the sign process reads the meters from the cluster too
            shown = first.json()["pools"]["main"]["value"]
            assert opening is not None and shown > opening
            screen.until(lambda kind, data: value_of(kind, data) == shown)
        finally:
            screen.close()
        again = requests.post(url, json=body("R1"), headers=auth(table))
        assert again.json() == {**first.json(), "replayed": True}
        hit = {"table": "T1", "round": "R2", "dealer": {"card": "9s", "war_card": "9s"},
               "spots": [{"spot": 1, "wager": 500, "card": "9s", "war": True,
                          "war_card": "9s"}]}  # fmt: skip
        jackpots = requests.post(url, json=hit, headers=auth(table)).json()["jackpots"]
        assert len(jackpots) == 1
        payouts = requests.get(f"{service.base}/v1/payouts?status=pending", headers=auth(auditor))
        assert [p["id"] for p in payouts.json()["payouts"]] == [jackpots[0]["id"]]
        journal = requests.get(f"{service.base}/v1/journal?pool=main", headers=auth(auditor))
        assert [e["round"] for e in journal.json()["entries"] if e["type"] == "hit"] == ["R2"]
        ready = requests.get(f"{service.base}/readyz")
        assert ready.status_code == 200 and ready.json()["state"] == "operable", ready.text

        # every key of the controller is on the master that holds the tag's slot
        owner = cluster.node_for_key(TAG)
        for node in cluster.masters:
            found = list(node.admin.scan_iter(count=1000))
            assert found if node is owner else not found, (node.port, found)
        assert all(k.startswith(TAG) for k in owner.admin.scan_iter(count=1000))

        # the reconciliation is queued on the queue's server and run by the worker
        result = reconciled(tmp_path, service, auditor, "main")
        assert result["balanced"] is True and result["hits"] == 1

        verified = jackpot("verify", cwd=tmp_path, env=service.env)
        assert verified.returncode == 0, verified.stdout + verified.stderr
    finally:
        if signs is not None:
            signs.halt()
        service.halt()


def test_a_cluster_that_answers_clusterdown_gets_503_and_nothing_half_applied(
    tmp_path: Path, clusters: Callable[..., RedisCluster], queue: RedisServer
) -> None:
    cluster = clusters(masters=3, node_timeout_ms=1000)
    service = serve(tmp_path, cluster, queue)
    try:
        operator = key(service, "operator")
        link_main(service, operator, reset=RESET, rate_bp=RATE_BP, reserve_rate_bp=0)
        table = key(service, "table", "T1")
        url = f"{service.base}/v1/rounds"
        assert requests.post(url, json=body("A"), headers=auth(table)).status_code == 200

        # another master dies and has no replica: the cluster no longer covers every slot,
        # and every node, the meters' own included, answers CLUSTERDOWN
        owner = cluster.node_for_key(TAG)
        other = next(n for n in cluster.masters if n is not owner)
        store = redis_lib.Redis(host="127.0.0.1", port=owner.port)
        before = snapshot(store)
        cluster.kill(other)
        cluster.wait_state("fail", [owner])
        r = requests.post(url, json=body("B"), headers=auth(table), timeout=60)
        assert r.status_code == 503, r.text
        assert r.json()["error"]["code"] == "cluster_unavailable"
        assert r.headers["Retry-After"] == "1"
        assert "127.0.0.1" not in r.text  # the cluster's addresses stay in the log
        assert requests.get(f"{service.base}/readyz", timeout=60).status_code == 503

        # the node comes back: nothing was written meanwhile; the resend settles the round
        cluster.restart(other)
        cluster.wait_healthy()
        assert snapshot(store) == before
        deadline = time.monotonic() + 30
        while (r := requests.post(url, json=body("B"), headers=auth(table))).status_code != 200:
            assert r.status_code == 503 and time.monotonic() < deadline, r.text
            time.sleep(0.2)
        assert r.json()["replayed"] is False
        meters = requests.get(f"{service.base}/v1/pools/main/meters", headers=auth(operator))
        assert meters.json()["bets"] == 2
        store.close()
    finally:
        service.halt()


def test_killing_the_master_of_the_meters_under_load_loses_no_acknowledged_round(
    tmp_path: Path, clusters: Callable[..., RedisCluster], queue: RedisServer
) -> None:
    """Each master has a replica, and every write waits for it (WAIT 1): SIGKILL the master
    holding the meters mid-load; the cluster promotes its replica, the controller follows
    the slot there, and every acknowledged round is on it exactly once."""
    cluster = clusters(masters=3, replicas_per_master=1)
    service = serve(
        tmp_path,
        cluster,
        queue,
        JACKPOT_REDIS_WAIT_REPLICAS="1",
        JACKPOT_REDIS_WAIT_MS="500",
        # while the slot has no replica, appendfsync always keeps the store durable
    )
    try:
        operator, table = linked_floor(service)
        with table.playing():
            table.wait_acknowledged(21)
            before = len(table.acknowledged)
            old = cluster.node_for_key(TAG)
            cluster.kill(old)  # SIGKILL, mid-load
            cluster.wait_for(
                lambda: None if cluster.node_for_key(TAG) is not old else "no failover yet",
                30,
                "failed over",
            )
            # the new master has no replica until the old one comes back as one: meanwhile
            # no round can be acknowledged (503 replication_timeout), and none is lost
            table.wait_refused()
            cluster.restart(old)
            cluster.wait_healthy(30)
            table.wait_acknowledged(20)  # the floor plays on, on the new master
        assert before > 20 and len(table.acknowledged) > before
        assert sum(table.refusals.values()) > 0

        new = cluster.node_for_key(TAG)
        # split brain: the old master came back with its AOF, believing it held the slot;
        # the cluster made it its replacement's replica, and nothing it took alone was
        # acknowledged (every acknowledgement waited for a replica)
        assert new is not old and old.admin.execute_command("ROLE")[0] == "slave"
        table.assert_settled_once_each(new.admin, operator)
    finally:
        service.halt()


def migrate_slot(cluster: RedisCluster, slot: int, source: ClusterNodeProcess,
                 target: ClusterNodeProcess) -> int:  # fmt: skip
    """Move a slot and its keys from `source` to `target` as a resharding does (IMPORTING,
    MIGRATING, MIGRATE in batches, then SETSLOT NODE everywhere); the keys moved."""
    target.admin.execute_command("CLUSTER", "SETSLOT", slot, "IMPORTING", source.node_id)
    source.admin.execute_command("CLUSTER", "SETSLOT", slot, "MIGRATING", target.node_id)
    moved = 0
    while keys := source.admin.execute_command("CLUSTER", "GETKEYSINSLOT", slot, 10):
        source.admin.execute_command(
            "MIGRATE", "127.0.0.1", target.port, "", 0, 5000, "KEYS", *keys
        )
        moved += len(keys)
        time.sleep(0.01)  # rounds keep arriving between the batches
    for node in [target, source, *(n for n in cluster.masters if n not in (source, target))]:
        node.admin.execute_command("CLUSTER", "SETSLOT", slot, "NODE", target.node_id)
    return moved


def test_the_meters_moved_to_another_shard_under_load_lose_nothing_and_pay_nothing_twice(
    tmp_path: Path, clusters: Callable[..., RedisCluster], queue: RedisServer
) -> None:
    """A resharding moves the slot of the controller's keys to another master while tables
    report: a round whose keys are mid-move is refused (TRYAGAIN / ASK: 503, resent), none
    is half-applied, and once the slot is moved the controller follows it (MOVED)."""
    cluster = clusters(masters=3)
    service = serve(tmp_path, cluster, queue)
    try:
        operator, table = linked_floor(service)
        with table.playing():
            table.wait_acknowledged(21)
            source = cluster.node_for_key(TAG)
            target = next(n for n in cluster.masters if n is not source)
            slot = key_slot(TAG.encode())
            moved = migrate_slot(cluster, slot, source, target)
            cluster.wait_healthy()
            before = table.wait_acknowledged(20)  # the controller follows the slot's move
        assert moved > 20 and len(table.acknowledged) > before > 20
        # rounds met the slot mid-move and were refused, not half-applied
        assert table.refusals["cluster_unavailable"] > 0, table.refusals

        assert cluster.node_for_key(TAG) is target
        assert source.admin.execute_command("CLUSTER", "COUNTKEYSINSLOT", slot) == 0
        table.assert_settled_once_each(target.admin, operator)
        verified = jackpot("verify", cwd=tmp_path, env=service.env)
        assert verified.returncode == 0, verified.stdout + verified.stderr
    finally:
        service.halt()


def test_a_replica_of_the_meters_master_that_falls_behind_gets_no_round_acknowledged(
    tmp_path: Path, clusters: Callable[..., RedisCluster], queue: RedisServer
) -> None:
    cluster = clusters(masters=3, replicas_per_master=1)
    service = serve(
        tmp_path, cluster, queue, JACKPOT_REDIS_WAIT_REPLICAS="1", JACKPOT_REDIS_WAIT_MS="300"
    )
    try:
        operator = key(service, "operator")
        link_main(service, operator, reset=RESET, rate_bp=RATE_BP, reserve_rate_bp=0)
        url, headers = f"{service.base}/v1/rounds", auth(key(service, "table", "T1"))
        assert requests.post(url, json=body("A"), headers=headers).status_code == 200
        owner = cluster.node_for_key(TAG)
        replica = cluster.nodes[3 + owner.index]  # replica j of master i: 3 + i
        cluster.pause(replica)  # SIGSTOP: it takes nothing more
        try:
            r = requests.post(url, json=body("B"), headers=headers)
            assert r.status_code == 503, r.text
            assert r.json()["error"]["code"] == "replication_timeout"
        finally:
            cluster.resume(replica)
        deadline = time.monotonic() + 10
        while (r := requests.post(url, json=body("B"), headers=headers)).status_code != 200:
            assert time.monotonic() < deadline, r.text
            time.sleep(0.1)
        assert r.json()["replayed"] is True  # settled once, by the first attempt
        meters = requests.get(f"{service.base}/v1/pools/main/meters", headers=auth(operator))
        assert meters.json()["bets"] == 2
    finally:
        service.halt()


def test_a_cluster_whose_master_keeps_no_aof_is_inoperable(
    tmp_path: Path, clusters: Callable[..., RedisCluster], queue: RedisServer
) -> None:
    """The self-check reads the durability of the master that holds the meters."""
    cluster = clusters(masters=3, extra_args=["--appendonly", "no"])
    service = serve(tmp_path, cluster, queue)
    try:
        ready = requests.get(f"{service.base}/readyz")
        assert ready.status_code == 503, ready.text
        assert "store_not_durable" in {p["code"] for p in ready.json()["problems"]}
        exposition = requests.get(f"{service.base}/metrics").text
        assert "jackpot_controller_operable 0.0" in exposition
        assert 'code="store_not_durable"' in exposition
        cluster.node_for_key(TAG).admin.config_set("appendonly", "yes")
        deadline = time.monotonic() + 30
        while requests.get(f"{service.base}/readyz").status_code != 200:
            assert time.monotonic() < deadline
            time.sleep(0.2)
    finally:
        service.halt()


def test_link_groups_on_their_own_masters_settle_apart_and_a_lost_master_stops_only_its_own(
    tmp_path: Path, clusters: Callable[..., RedisCluster], queue: RedisServer
) -> None:
    # a cluster that serves the slots it still covers (cluster-require-full-coverage no):
    # the deployment link groups on several shards want, so a lost shard stops only its groups
    cluster = clusters(
        masters=3, node_timeout_ms=1000, extra_args=["--cluster-require-full-coverage", "no"]
    )
    service = serve(tmp_path, cluster, queue)
    owners = cluster.slot_owners()
    main_port = owners[key_slot(TAG.encode())].port
    names: dict[int, str] = {}
    for i in range(1000):  # a group on each master other than the main group's
        port = owners[key_slot(Keys("jackpot", f"g{i}").tag.encode())].port
        if port != main_port:
            names.setdefault(port, f"g{i}")
    (a_port, a), (b_port, b) = sorted(names.items())
    try:
        operator, auditor = key(service, "operator"), key(service, "auditor")
        base = service.base
        pool = {"reset": RESET, "rate_bp": RATE_BP, "reserve_rate_bp": 0}
        for name, group, table in (("east", a, "T1"), ("west", b, "T2")):
            r = requests.put(
                f"{base}/v1/pools/{name}", json={**pool, "group": group}, headers=auth(operator)
            )
            assert r.status_code == 201, r.text
            r = requests.put(
                f"{base}/v1/tables/{table}", json={"pools": [name]}, headers=auth(operator)
            )
            assert r.status_code == 201 and r.json()["group"] == group, r.text
        table = key(service, "table", "T1", "T2")
        url = f"{base}/v1/rounds"
        for t in ("T1", "T2"):
            r = requests.post(url, json=body("R1", t), headers=auth(table))
            assert r.status_code == 200, r.text
        # each group's keys are on its own master
        for port, group in ((a_port, a), (b_port, b)):
            tag = Keys("jackpot", group).tag
            found = list(cluster.node(port).admin.scan_iter(match=f"{tag}*", count=1000))
            assert found, (port, group)
            for other in cluster.masters:
                if other.port != port:
                    assert not list(other.admin.scan_iter(match=f"{tag}*", count=1000))

        # group B's master dies (no replica): B's rounds are 503, A's settle on
        cluster.kill(cluster.node(b_port))
        deadline = time.monotonic() + 30
        while (r := requests.post(url, json=body("R2", "T2"), headers=auth(table))).ok:
            assert time.monotonic() < deadline, "the lost master's group kept settling"
            time.sleep(0.2)
        assert r.status_code == 503, r.text
        assert r.json()["error"]["code"] in ("cluster_unavailable", "store_unavailable")
        for i in range(2, 6):
            r = requests.post(url, json=body(f"R{i}", "T1"), headers=auth(table), timeout=30)
            assert r.status_code == 200, r.text

        # it comes back (its AOF holds every acknowledged round): the resend settles once
        cluster.restart(cluster.node(b_port))
        cluster.wait_healthy()
        deadline = time.monotonic() + 30
        while (
            r := requests.post(url, json=body("R2", "T2"), headers=auth(table))
        ).status_code != 200:
            assert r.status_code == 503 and time.monotonic() < deadline, r.text
            time.sleep(0.2)
        meters = {
            p: requests.get(f"{base}/v1/pools/{p}/meters", headers=auth(auditor)).json()
            for p in ("east", "west")
        }
        assert (meters["east"]["bets"], meters["west"]["bets"]) == (5, 2)

        # the worker reconciles a group's pool; every group's journals verify
        result = reconciled(tmp_path, service, auditor, "west")
        assert result["balanced"] is True and result["rounds"] == 2
        verified = jackpot("verify", cwd=tmp_path, env=service.env)
        assert verified.returncode == 0, verified.stdout + verified.stderr
    finally:
        service.halt()
