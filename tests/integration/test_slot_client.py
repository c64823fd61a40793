"""The controller's client of a Redis Cluster (jackpot/store/cluster.py): bound to the slot of
one hash tag, it follows the slot when it moves (MOVED), turns CLUSTERDOWN into a connection
error the API answers 503, and runs the round path's script on a connection of its own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from jackpot.store.cluster import SlotUnavailableError
from jackpot.store.connect import connect
from jackpot.store.scripts import HotScript
from tests.support.cluster import (
    ClusterNodeProcess,
    RedisCluster,
    need_cluster,
    start_cluster,
    tags_on_distinct_shards,
)

need_cluster(module=True)

INCR = "return redis.call('INCR', KEYS[1])"


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[RedisCluster]:
    started = start_cluster(tmp_path / "cluster", node_timeout_ms=1000)
    yield started
    started.stop()


def url(cluster: RedisCluster, *nodes: ClusterNodeProcess) -> str:
    return "redis+cluster://" + ",".join(f"127.0.0.1:{n.port}" for n in nodes or cluster.nodes)


def close(client: redis.Redis) -> None:
    """A client over a pool of its own making: close() leaves such a pool's sockets open."""
    client.close()
    client.connection_pool.disconnect()


def move_slot(cluster: RedisCluster, slot: int, to: ClusterNodeProcess) -> None:
    """Give an empty slot to another master, as a resharding's last step does."""
    for node in cluster.masters:
        node.admin.execute_command("CLUSTER", "SETSLOT", slot, "NODE", to.node_id)
    cluster.wait_for(
        lambda: None if cluster.node_for_slot(slot) is to else "not moved yet", 10, "moved"
    )


def test_the_client_talks_to_the_master_that_holds_its_tag_whichever_node_it_was_given(
    cluster: RedisCluster,
) -> None:
    tag = "{" + tags_on_distinct_shards(cluster, 3)[2] + "}"
    owner = cluster.node_for_key(tag)
    other = next(n for n in cluster.nodes if n is not owner)
    client = connect(url(cluster, other), decode=True, timeout=2, tag=tag)
    client.set(f"{tag}/x", "1")
    with client.pipeline(transaction=True) as pipe:  # MULTI/EXEC, as on one server
        pipe.incr(f"{tag}/x")
        pipe.time()
        assert pipe.execute()[0] == 2
    assert owner.admin.get(f"{tag}/x") == "2"
    # INFO and CONFIG are the owner's: the self-check reads the durability of that master
    assert client.info("server")["tcp_port"] == owner.port
    owner.admin.config_set("appendfsync", "everysec")  # the owner alone
    assert client.config_get("appendfsync") == {"appendfsync": "everysec"}
    assert other.admin.config_get("appendfsync") == {"appendfsync": "always"}
    close(client)


def test_a_moved_slot_is_followed_and_the_command_runs_once_there(cluster: RedisCluster) -> None:
    tag = "{" + tags_on_distinct_shards(cluster, 1)[0] + "}"
    client = connect(url(cluster), decode=True, timeout=2, tag=tag)
    hot = HotScript(client, client.register_script(INCR))
    assert hot([f"{tag}/n"], []) == 1
    client.delete(f"{tag}/n")  # an empty slot moves without MIGRATE

    old = cluster.node_for_key(tag)
    new = next(n for n in cluster.masters if n is not old)
    slot = client.connection_pool.connection_kwargs["route"].slot
    move_slot(cluster, slot, new)
    # the old owner answers MOVED: the command goes to the new one, and runs there once
    assert client.incr(f"{tag}/n") == 1
    # the script's own connection follows too (and loads the script where it is missing)
    assert hot([f"{tag}/n"], []) == 2
    assert new.admin.get(f"{tag}/n") == "2"
    assert old.admin.execute_command("CLUSTER", "COUNTKEYSINSLOT", slot) == 0
    close(client)


def test_clusterdown_is_a_connection_error_and_nothing_runs(cluster: RedisCluster) -> None:
    tag = "{" + tags_on_distinct_shards(cluster, 1)[0] + "}"
    client = connect(url(cluster), decode=True, timeout=2, tag=tag)
    hot = HotScript(client, client.register_script(INCR))
    assert hot([f"{tag}/n"], []) == 1
    owner = cluster.node_for_key(tag)
    other = next(n for n in cluster.masters if n is not owner)
    cluster.kill(other)  # no replica: the cluster no longer covers every slot
    cluster.wait_state("fail", [owner])
    with pytest.raises(SlotUnavailableError, match="CLUSTERDOWN|cannot serve"):
        hot([f"{tag}/n"], [])
    with pytest.raises(redis.ConnectionError):
        client.incr(f"{tag}/n")
    cluster.restart(other)
    cluster.wait_healthy()
    assert hot([f"{tag}/n"], []) == 2  # neither refused call ran
    close(client)


def test_a_cluster_no_node_of_which_answers_is_a_connection_error(tmp_path: Path) -> None:
    from jackpot.store.embedded import free_port

    client = connect(
        f"redis+cluster://127.0.0.1:{free_port()}", decode=True, timeout=0.5, tag="{t}"
    )
    with pytest.raises(redis.ConnectionError, match="slot"):
        client.get("{t}/x")
    close(client)


def test_an_owner_that_does_not_answer_is_dropped_and_the_cluster_asked_again(
    cluster: RedisCluster,
) -> None:
    """The route believes the slot is at an address nothing answers on (a machine powered
    off: the connection times out, or is refused): the connection is tried again at the
    master the cluster names, and the command, sent nowhere before, runs there once."""
    tag = "{" + tags_on_distinct_shards(cluster, 1)[0] + "}"
    client = connect(url(cluster), decode=True, timeout=0.5, tag=tag)
    route = client.connection_pool.connection_kwargs["route"]
    route.moved(("192.0.2.1", 7000))  # TEST-NET-1: never answers
    assert client.incr(f"{tag}/n") == 1
    assert route.known() == ("127.0.0.1", cluster.node_for_key(tag).port)
    close(client)


def test_a_pooled_connection_follows_a_graceful_failover_for_key_less_commands(
    tmp_path: Path,
) -> None:
    """CLUSTER FAILOVER keeps the old master up, as a replica: a pooled socket still open to
    it is closed once the route knows the new owner, so INFO (the self-check's durability)
    and script loading go to the new master, not the old one."""
    cluster = start_cluster(tmp_path / "ha", masters=3, replicas_per_master=1)
    try:
        tag = "{" + tags_on_distinct_shards(cluster, 1)[0] + "}"
        client = connect(url(cluster), decode=True, timeout=2, tag=tag)
        pool = client.connection_pool
        idle, busy = pool.get_connection(), pool.get_connection()  # two sockets to the owner
        pool.release(idle)
        pool.release(busy)  # the next command takes `busy` (the pool is last in, first out)
        old = cluster.node_for_key(tag)
        assert (idle.port, busy.port) == (old.port, old.port)
        replica = cluster.nodes[3 + old.index]
        replica.admin.execute_command("CLUSTER", "FAILOVER")
        cluster.wait_for(
            lambda: None if cluster.node_for_key(tag) is replica else "not yet", 20, "failed over"
        )
        assert not idle.can_read()  # still open to the old master: no EOF waiting on it
        assert client.set(f"{tag}/k", "v")  # on `busy`: MOVED, and the route learns
        taken = [pool.get_connection(), pool.get_connection()]  # `busy`, then `idle`
        assert idle in taken and idle.port == replica.port  # closed and opened again there
        for conn in taken:
            pool.release(conn)
        assert client.info("replication")["role"] == "master"
        assert client.info("server")["tcp_port"] == replica.port
        script = client.register_script(INCR)
        with client.pipeline(transaction=False) as pipe:
            script(keys=[f"{tag}/n"], client=pipe)
            assert pipe.execute() == [1]
        close(client)
    finally:
        cluster.stop()
