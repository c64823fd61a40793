"""The Redis Cluster harness (tests/support/cluster.py), and what redis-py's cluster client
does there: scripts and pipelines across hash tags, script caches, and a killed or hung
master. The timings asserted are the client's own (its retries and sleeps), measured on
loopback with short timeouts, so that a change in redis-py shows up here first."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import redis
from redis.backoff import NoBackoff
from redis.crc import key_slot
from redis.exceptions import (
    ClusterCrossSlotError,
    ClusterDownError,
    ClusterError,
    ConnectionError,
    CrossSlotTransactionError,
    NoScriptError,
    RedisClusterException,
    ResponseError,
    TimeoutError,
)
from redis.retry import Retry

from tests.support import cluster as harness
from tests.support.cluster import (
    RESERVED_PORTS,
    ClusterNodeProcess,
    RedisCluster,
    need_cluster,
    start_cluster,
    tags_on_distinct_shards,
)

need_cluster(module=True)

INCR = "return redis.call('INCR', KEYS[1])"
BOTH = "return {redis.call('INCR', KEYS[1]), redis.call('INCR', KEYS[2])}"
# a cluster client that raises at the first error instead of retrying it
NO_RETRY = Retry(NoBackoff(), 0)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisCluster]:
    """Three masters, no replicas, the default 2 s node timeout; tests leave it healthy."""
    started = start_cluster(tmp_path_factory.mktemp("cluster"))
    yield started
    started.stop()


@pytest.fixture
def client(cluster: RedisCluster) -> Any:
    return cluster.client()


def timed(call: Callable[[], object]) -> tuple[BaseException, float]:
    """The exception `call` raises and the seconds it took to raise it."""
    start = time.monotonic()
    with pytest.raises(Exception) as caught:
        call()
    return caught.value, time.monotonic() - start


# --- the harness ---------------------------------------------------------------------------


def test_the_cluster_is_formed_on_private_ports_and_dirs(cluster: RedisCluster) -> None:
    assert len(cluster.nodes) == 3
    ports = {node.port for node in cluster.nodes} | {n.cluster_port for n in cluster.nodes}
    assert len(ports) == 6 and not ports & RESERVED_PORTS
    assert len({node.data_dir for node in cluster.nodes}) == 3
    for node in cluster.nodes:
        assert node.running and node.url == f"redis://127.0.0.1:{node.port}/0"
        assert (node.data_dir / "nodes.conf").exists()
        assert node.admin.config_get("appendfsync") == {"appendfsync": "always"}
        info = node.admin.execute_command("CLUSTER", "INFO")
        assert "cluster_state:ok" in info and "cluster_slots_assigned:16384" in info
    assert [node.port for node in cluster.masters] == [node.port for node in cluster.nodes]
    assert cluster.url == cluster.nodes[0].url


def test_from_url_and_startup_nodes_reach_the_whole_cluster(cluster: RedisCluster) -> None:
    for client in (
        redis.cluster.RedisCluster.from_url(cluster.url, decode_responses=True),
        redis.cluster.RedisCluster(startup_nodes=cluster.startup_nodes, decode_responses=True),
    ):
        try:
            found = {node.port for node in client.get_primaries()}
            assert found == {node.port for node in cluster.nodes}
        finally:
            client.close()


def test_node_for_key_agrees_with_the_server_and_the_client(
    cluster: RedisCluster, client: Any
) -> None:
    for key in ("a", "{g0}:pool", "{g1}:pool", "jackpot:round:42", "{}x"):
        slot = key_slot(key.encode())
        assert slot == cluster.nodes[0].admin.execute_command("CLUSTER", "KEYSLOT", key)
        node = cluster.node_for_key(key)
        assert node is cluster.node_for_slot(slot)
        assert client.get_node_from_key(key).port == node.port


def test_tags_are_dealt_over_every_master(cluster: RedisCluster) -> None:
    tags = tags_on_distinct_shards(cluster, 6)
    assert len(set(tags)) == 6 and all(tag.startswith("g") for tag in tags)
    owners = [cluster.node_for_key(f"{{{tag}}}:x").port for tag in tags]
    assert owners[:3] == owners[3:] and len(set(owners)) == 3
    assert len({cluster.node_for_key(t).port for t in tags_on_distinct_shards(cluster, 2)}) == 2
    assert tags_on_distinct_shards(cluster, 1, prefix="t")[0].startswith("t")


def test_stop_is_idempotent_and_a_failed_start_leaves_no_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spawned: list[ClusterNodeProcess] = []
    processes: list[subprocess.Popen[bytes]] = []

    def fail_to_form(cluster: RedisCluster, *args: object) -> None:
        spawned.extend(cluster.nodes)
        processes.extend(node.process for node in cluster.nodes if node.process is not None)
        cluster.pause(cluster.nodes[0])  # stop() must still get a hung node to exit
        raise RuntimeError("forming failed")

    monkeypatch.setattr(harness, "_form", fail_to_form)
    with pytest.raises(RuntimeError, match="forming failed"):
        start_cluster(tmp_path, masters=2)
    assert len(spawned) == len(processes) == 2
    assert all(node.process is None for node in spawned)
    assert [process.returncode for process in processes] == [0, 0]  # SIGTERM: a clean exit
    for node in spawned:
        with pytest.raises(redis.ConnectionError):
            redis.Redis(port=node.port, socket_connect_timeout=0.5, retry=NO_RETRY).ping()
    RedisCluster(spawned, 2000).stop()  # again: nothing left to stop, no error


# --- fact 1: scripts with keys of one hash tag, and of two -------------------------------


def test_a_script_runs_on_keys_of_one_tag_and_is_refused_across_tags(
    cluster: RedisCluster, client: Any
) -> None:
    a, b = tags_on_distinct_shards(cluster, 2, prefix="s")
    both = client.register_script(BOTH)
    assert both(keys=[f"{{{a}}}:x", f"{{{a}}}:y"]) == [1, 1]
    assert client.evalsha(both.sha, 2, f"{{{a}}}:x", f"{{{a}}}:y") == [2, 2]

    # redis-py refuses it itself, before sending: not the server's CROSSSLOT answer
    for call in (
        lambda: both(keys=[f"{{{a}}}:x", f"{{{b}}}:y"]),
        lambda: client.eval(BOTH, 2, f"{{{a}}}:x", f"{{{b}}}:y"),
    ):
        error, _ = timed(call)
        assert type(error) is RedisClusterException
        assert not isinstance(error, ResponseError)
        assert str(error) in (
            "EVALSHA - all keys must map to the same key slot",
            "EVAL - all keys must map to the same key slot",
        )
    assert client.get(f"{{{b}}}:y") is None


def test_the_server_answers_crossslot_to_a_plain_client(cluster: RedisCluster) -> None:
    a, b = tags_on_distinct_shards(cluster, 2, prefix="c")
    node = cluster.node_for_key(f"{{{a}}}:x")
    with pytest.raises(ClusterCrossSlotError) as caught:
        node.admin.eval(BOTH, 2, f"{{{a}}}:x", f"{{{b}}}:y")
    assert str(caught.value) == "Keys in request don't hash to the same slot"
    assert isinstance(caught.value, ResponseError)
    # two tags can still share a slot's owner: the server checks slots, not owners
    assert node.admin.eval(BOTH, 2, f"{{{a}}}:x", f"{{{a}}}:y") == [1, 1]


# --- fact 3: pipelines, SCRIPT LOAD, and NOSCRIPT -----------------------------------------


def test_pipelines_of_one_slot_and_of_several(cluster: RedisCluster, client: Any) -> None:
    a, b = tags_on_distinct_shards(cluster, 2, prefix="p")

    def run(transaction: bool, *keys: str) -> list[Any]:
        pipe = client.pipeline(transaction=transaction)
        for key in keys:
            pipe.incr(key)
        return list(pipe.execute())

    assert run(False, f"{{{a}}}:1", f"{{{a}}}:2") == [1, 1]
    assert run(True, f"{{{a}}}:1", f"{{{a}}}:2") == [2, 2]  # MULTI/EXEC on the tag's node
    assert run(False, f"{{{a}}}:1", f"{{{b}}}:1") == [3, 1]  # split per node, not atomic
    with pytest.raises(CrossSlotTransactionError) as caught:
        run(True, f"{{{a}}}:1", f"{{{b}}}:1")
    assert str(caught.value) == (
        "All keys involved in a cluster transaction must map to the same slot"
    )
    assert isinstance(caught.value, RedisClusterException)
    assert client.get(f"{{{b}}}:1") == "1"  # nothing of the refused transaction ran


def test_scripts_in_a_cluster_pipeline_only_as_raw_commands(
    cluster: RedisCluster, client: Any
) -> None:
    (a,) = tags_on_distinct_shards(cluster, 1, prefix="q")
    key = f"{{{a}}}:x"
    script = client.register_script(INCR)
    script(keys=[key])  # loaded now

    pipe = client.pipeline()
    with pytest.raises(RedisClusterException, match="pipelined function evalsha is blocked"):
        script(keys=[key], client=pipe)  # Script goes through pipe.evalsha: blocked
    with pytest.raises(TypeError):
        pipe.eval(INCR, 1, key)  # ClusterPipeline.eval() takes no arguments
    pipe.reset()

    for transaction in (False, True):
        pipe = client.pipeline(transaction=transaction)
        pipe.execute_command("EVALSHA", script.sha, 1, key)
        pipe.execute_command("EVAL", INCR, 1, f"{{{a}}}:y")
        first, _ = pipe.execute()
        assert first >= 2

    # no reload on NOSCRIPT inside a pipeline, and in MULTI the rest still runs
    cluster.node_for_key(key).admin.script_flush()
    for transaction in (False, True):
        pipe = client.pipeline(transaction=transaction)
        pipe.execute_command("EVALSHA", script.sha, 1, key)
        pipe.incr(f"{{{a}}}:z")
        missing, ran = pipe.execute(raise_on_error=False)
        assert isinstance(missing, NoScriptError) and ran >= 1
    pipe = client.pipeline()
    pipe.execute_command("EVALSHA", script.sha, 1, key)
    with pytest.raises(NoScriptError, match="No matching script"):
        pipe.execute()


def test_script_load_reaches_every_master_and_a_script_reloads_itself(
    cluster: RedisCluster, client: Any
) -> None:
    a, b, c = tags_on_distinct_shards(cluster, 3, prefix="l")
    sha = client.script_load("return 'loaded'")
    assert isinstance(sha, str) and len(sha) == 40
    assert [node.admin.script_exists(sha) for node in cluster.nodes] == [[True]] * 3
    assert client.script_exists(sha) == [True]  # True only if every master has it

    script = client.register_script(INCR)
    owner = cluster.node_for_key(f"{{{a}}}:x")
    owner.admin.script_flush()  # as after a restart: the script cache is not persisted
    assert owner.admin.script_exists(script.sha) == [False]
    assert client.script_exists(script.sha) == [False]
    # Script.__call__ catches NoScriptError, SCRIPT LOADs on every master, sends it again
    assert script(keys=[f"{{{a}}}:x"]) == 1
    assert owner.admin.script_exists(script.sha) == [True]
    assert script(keys=[f"{{{b}}}:x"]) == 1 and script(keys=[f"{{{c}}}:x"]) == 1

    # a bare EVALSHA does not reload
    owner.admin.script_flush()
    with pytest.raises(NoScriptError) as caught:
        client.evalsha(script.sha, 1, f"{{{a}}}:x")
    assert str(caught.value) == "No matching script. Please use EVAL."


def test_the_deprecated_retry_argument_warns(cluster: RedisCluster) -> None:
    """cluster_error_retry_attempts warns (an error under this suite's filterwarnings):
    configure retry=Retry(...) instead."""
    with pytest.warns(DeprecationWarning, match="cluster_error_retry_attempts"):
        cluster.client(cluster_error_retry_attempts=1)
    assert cluster.client(retry=NO_RETRY).retry.get_retries() == 0
    assert cluster.client().retry.get_retries() == 10  # redis-py's default
    pool = cluster.client().get_default_node().redis_connection.connection_pool
    assert pool.connection_kwargs["socket_timeout"] == 5  # redis-py 8's default: 5 s, not None


# --- fact 2: a hung master, a killed master ------------------------------------------------


def test_a_hung_master_times_out_once_per_attempt(cluster: RedisCluster) -> None:
    """SIGSTOP, shorter than the node timeout: the cluster stays ok; each attempt waits
    socket_timeout and the client retries TimeoutError (10 times by default)."""
    (a,) = tags_on_distinct_shards(cluster, 1, prefix="h")
    key = f"{{{a}}}:x"
    patient = cluster.client(socket_timeout=0.1, socket_connect_timeout=0.1)
    hasty = cluster.client(socket_timeout=0.1, socket_connect_timeout=0.1, retry=NO_RETRY)
    patient.set(key, "1")
    hasty.get(key)
    node = cluster.node_for_key(key)
    cluster.pause(node)
    try:
        once, once_took = timed(lambda: hasty.get(key))
        retried, retried_took = timed(lambda: patient.get(key))
    finally:
        cluster.resume(node)
    for error in (once, retried):
        assert type(error) is TimeoutError and str(error) == "Timeout reading from socket"
    # the lower bounds tell the behaviours apart; the upper ones only that nothing hangs (a
    # loaded machine stretches every wait, so they are generous)
    assert 0.1 <= once_took < 1.0
    assert 1.0 <= retried_took < 6.0  # 11 attempts of 0.1 s each
    cluster.wait_healthy()
    assert patient.get(key) == "1" and hasty.get(key) == "1"


def test_a_killed_master_without_replica(tmp_path: Path) -> None:
    """Its slots answer ConnectionError (refused) at once; after the node timeout the other
    masters say CLUSTERDOWN for every slot: ClusterDownError, retried with a 0.25 s sleep
    each. Restarted on its AOF and nodes.conf, it takes its slots back with their data."""
    cluster = start_cluster(tmp_path, masters=3, node_timeout_ms=500)
    try:
        patient = cluster.client(socket_timeout=0.5, socket_connect_timeout=0.5)
        hasty = cluster.client(socket_timeout=0.5, socket_connect_timeout=0.5, retry=NO_RETRY)
        dead_tag, live_tag = tags_on_distinct_shards(cluster, 2, prefix="k")
        dead_key, live_key = f"{{{dead_tag}}}:x", f"{{{live_tag}}}:x"
        patient.set(dead_key, "acknowledged")
        patient.set(live_key, "alive")
        hasty.get(dead_key)
        victim = cluster.node_for_key(dead_key)
        survivors = [node for node in cluster.nodes if node is not victim]

        cluster.kill(victim)
        for client in (hasty, patient):
            error, took = timed(partial(client.get, dead_key))
            assert type(error) is ConnectionError
            refused = f"Error 111 connecting to 127.0.0.1:{victim.port}. Connection refused."
            assert str(error) == refused
            assert took < 2.0  # refused at once, every retry included (generous: load)
        assert patient.get(live_key) == "alive"  # before the node timeout: other slots work

        killed = time.monotonic()
        cluster.wait_state("fail", survivors, timeout=10)
        assert time.monotonic() - killed < 8.0  # node timeout 0.5 s, then the FAIL vote
        assert cluster.node_for_key(dead_key) is victim  # no replica: the slots stay its

        error, took = timed(lambda: hasty.get(dead_key))
        assert type(error) is ConnectionError  # the map still names the dead node
        error, once_took = timed(lambda: hasty.get(live_key))
        assert type(error) is ClusterDownError and str(error) == "The cluster is down"
        assert isinstance(error, ClusterError) and isinstance(error, ResponseError)
        assert 0.25 <= once_took < 2.0  # it sleeps 0.25 s even with no retry left
        error, retried_took = timed(lambda: patient.get(live_key))
        assert type(error) is ClusterDownError
        assert 2.7 <= retried_took < 12.0  # 11 attempts, 0.25 s sleep and a refresh each
        with pytest.raises(ClusterDownError, match="The cluster is down"):
            cluster.node_for_key(live_key).admin.get(live_key)  # the server's own answer

        cluster.restart(victim)
        cluster.wait_healthy()
        assert cluster.node_for_key(dead_key) is victim
        assert patient.get(dead_key) == "acknowledged"  # fsynced AOF, replayed
        assert hasty.get(live_key) == "alive"
        assert victim.process is not None
        assert victim.process.pid != 0 and victim.process.poll() is None
    finally:
        cluster.stop()
        cluster.stop()
    assert all(node.process is None for node in cluster.nodes)


def test_a_killed_master_with_a_replica_fails_over(tmp_path: Path) -> None:
    """The replica takes the slots over after the node timeout; a script the masters had
    loaded is missing on it (SCRIPT LOAD goes to masters only and is not replicated), and
    the Script object loads it again. The old master comes back as a replica."""
    cluster = start_cluster(tmp_path, masters=3, replicas_per_master=1, node_timeout_ms=500)
    try:
        assert len(cluster.nodes) == 6 and len(cluster.masters) == 3
        client = cluster.client(socket_timeout=0.5, socket_connect_timeout=0.5)
        (tag,) = tags_on_distinct_shards(cluster, 1, prefix="f")
        key = f"{{{tag}}}:x"
        script = client.register_script(INCR)
        assert script(keys=[key]) == 1
        loaded = {node.port: node.admin.script_exists(script.sha)[0] for node in cluster.nodes}
        masters = {node.port for node in cluster.masters}
        assert loaded == {port: port in masters for port in loaded}

        victim = cluster.node_for_key(key)
        replica = next(
            node
            for node in cluster.nodes
            if node.admin.role()[0] == "slave" and node.admin.role()[2] == victim.port
        )
        assert victim.admin.execute_command("WAIT", 1, 5000) == 1  # the replica has it
        cluster.kill(victim)
        killed = time.monotonic()
        errors: set[type[BaseException]] = set()
        while True:
            try:
                value = script(keys=[key])
                break
            except (ConnectionError, ClusterDownError) as exc:
                errors.add(type(exc))
                assert time.monotonic() - killed < 10, errors
                time.sleep(0.05)
        assert value == 2  # no acknowledged write lost: the replica had it
        assert ConnectionError in errors and errors <= {ConnectionError, ClusterDownError}
        assert replica.admin.script_exists(script.sha) == [True]  # reloaded by Script
        cluster.wait_healthy()  # the other nodes may learn of the failover a little later
        assert cluster.node_for_key(key) is replica

        cluster.restart(victim)
        cluster.wait_healthy()
        assert victim.admin.role()[0] == "slave" and victim.admin.role()[2] == replica.port
        processes = [node.process for node in cluster.nodes]
        stopping = time.monotonic()
        cluster.stop()
        # each exits on SIGTERM, at once: no replica wait (shutdown-timeout 0), and a SIGTERM
        # dropped during a replica's first AOF rewrite is sent again, not waited out
        assert [p.returncode if p else None for p in processes] == [0] * 6
        assert time.monotonic() - stopping < 15  # at once; generous for a loaded machine
    finally:
        cluster.stop()
