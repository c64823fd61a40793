"""The Sentinel harness (tests/support/sentinel.py) with plain redis-py: a failover keeps an
acknowledged write, and the old master comes back as a replica of the new one."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from redis.sentinel import Sentinel

from tests.support.sentinel import SentinelSet, sentinel_available, start_sentinels

if not sentinel_available():
    message = "no redis-sentinel and no redis-server --sentinel: install Debian's redis-sentinel"
    pytest.skip(message, allow_module_level=True)


@pytest.fixture
def deployment(tmp_path: Path) -> Iterator[SentinelSet]:
    started = start_sentinels(tmp_path)
    try:
        yield started
    finally:
        started.stop()


def test_the_harness_describes_its_deployment_and_freezes_a_replica(
    deployment: SentinelSet,
) -> None:
    ports = [port for _, port in deployment.sentinel_addresses]
    assert len(ports) == 3 and 6379 not in ports
    hosts = ",".join(f"127.0.0.1:{port}" for port in ports)
    assert deployment.url == f"redis+sentinel://{hosts}/jackpot/0"
    master, replica = deployment.servers
    assert deployment.master_address() == master.address
    assert deployment.role_of(master) == "master"
    assert deployment.role_of(replica) == "slave"
    for server in deployment.servers:
        assert server.data_dir.is_relative_to(deployment.base_dir)

    with master.client() as client:
        resumed = deployment.pause(replica, 0.5)  # under down-after-milliseconds
        client.set("jackpot:meter", "1")
        assert client.wait(1, 100) == 0  # the frozen replica cannot acknowledge
        resumed.join()
        assert client.wait(1, 5000) == 1

    deployment.stop()
    deployment.stop()  # idempotent: the fixture stops it once more
    assert not any(node.running for node in [*deployment.servers, *deployment.sentinels])


def test_a_failover_keeps_an_acknowledged_write_and_the_old_master_rejoins(
    deployment: SentinelSet,
) -> None:
    name = deployment.master_name
    sentinel = Sentinel(deployment.sentinel_addresses, socket_timeout=1)
    client = sentinel.master_for(name, socket_timeout=1, decode_responses=True)
    # WAIT holds its answer up to its own timeout: its connection must wait longer than that
    # (a rejoined master may still be syncing), so writes awaited go over one of their own
    durable = sentinel.master_for(name, socket_timeout=10, decode_responses=True)
    old = deployment.master_address()
    assert sentinel.discover_master(name) == old

    durable.set("jackpot:meter", "12345")
    assert durable.wait(1, 5000) == 1  # on the replica before the master dies

    killed = deployment.kill_master()
    assert killed.address == old and not killed.running
    new = deployment.wait_for_failover(old, timeout=20)
    assert new != old
    assert sentinel.discover_master(name) == new
    # its pooled connection went down with the old master; the next one asks the sentinels
    # (each asked with a 1 s timeout, which a loaded machine can exceed once or twice)
    deadline = time.monotonic() + 15
    while True:
        try:
            value = client.get("jackpot:meter")
            break
        except (redis.ConnectionError, redis.TimeoutError):
            assert time.monotonic() < deadline, "the client never found the new master"
    assert value == "12345"

    deployment.restart(killed)
    assert deployment.wait_rejoined(killed) in {new, killed.address}
    deadline = time.monotonic() + 30
    acknowledged = 0
    while not acknowledged:  # its connection, too, went down with the old master
        try:
            durable.set("jackpot:meter", "12346")
            # the rejoined replica may still be taking its full copy (slow under CI's load):
            # asked again until it acknowledges, within the deadline
            acknowledged = durable.wait(1, 5000)
        except (redis.ConnectionError, redis.TimeoutError):
            pass
        assert acknowledged or time.monotonic() < deadline, "no replica acknowledged a write"
    assert acknowledged == 1
    with killed.client() as old_master:
        assert old_master.get("jackpot:meter") == "12346"
