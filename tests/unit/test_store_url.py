"""The store URLs the controller understands, and the ones it refuses with a reason."""

from __future__ import annotations

import pytest
import redis as redis_lib

from jackpot.settings import Settings, SettingsError, redacted
from jackpot.store.cluster import SlotConnection
from jackpot.store.connect import StoreUrlError, cluster_target, connect, sentinel_target


def test_a_cluster_url_names_its_nodes_and_credentials():
    target = cluster_target("redis+cluster://app:s%40cret@10.0.0.1:7000,[::1]:7001/")
    assert target is not None
    assert target.nodes == (("10.0.0.1", 7000), ("::1", 7001))
    assert (target.username, target.password) == ("app", "s@cret")
    assert cluster_target("redis://10.0.0.1:6379/0") is None


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("redis+cluster://10.0.0.1", "each node must be host:port"),
        ("redis+cluster://10.0.0.1:7000/3", "database 0 only"),
        ("redis+cluster://10.0.0.1:7000/?ssl=true", "database 0 only"),
    ],
)
def test_a_bad_cluster_url_is_refused_saying_why(url: str, says: str):
    with pytest.raises(StoreUrlError, match=says):
        cluster_target(url)


def test_a_sentinel_url_still_reads_as_before():
    target = sentinel_target("redis+sentinel://:pw@h1:26379,h2:26379/jackpot/2")
    assert target is not None
    assert target.sentinels == (("h1", 26379), ("h2", 26379))
    assert (target.master, target.db, target.password) == ("jackpot", 2, "pw")


def test_a_cluster_client_is_bound_to_its_hash_tag_and_connects_lazily():
    client = connect("redis+cluster://127.0.0.1:1", decode=True, timeout=1, tag="{jackpot}")
    pool = client.connection_pool
    assert pool.connection_class is SlotConnection
    assert pool.connection_kwargs["route"].slot == 5920  # CRC16("jackpot") % 16384
    client.close()


def test_a_client_without_a_hash_tag_cannot_use_a_cluster():
    with pytest.raises(StoreUrlError, match="needs a server URL of its own"):
        connect("redis+cluster://127.0.0.1:1", decode=False, timeout=1)


def test_a_cluster_store_needs_a_queue_server_of_its_own():
    cluster = "redis+cluster://10.0.0.1:7000"
    with pytest.raises(SettingsError, match="set JACKPOT_QUEUE_REDIS_URL"):
        Settings.from_env({"JACKPOT_REDIS_URL": cluster})
    with pytest.raises(SettingsError, match="^JACKPOT_QUEUE_REDIS_URL=.* needs a Redis server"):
        Settings.from_env({"JACKPOT_REDIS_URL": cluster, "JACKPOT_QUEUE_REDIS_URL": cluster})
    settings = Settings.from_env(
        {"JACKPOT_REDIS_URL": cluster, "JACKPOT_QUEUE_REDIS_URL": "redis://10.0.0.2:6379/0"}
    )
    assert settings.queue_store(settings.store or "") == "redis://10.0.0.2:6379/0"


def test_a_url_is_quoted_without_its_password():
    assert redacted("redis+cluster://app:s3cret@h1:7000,h2:7000") == (
        "redis+cluster://app:***@h1:7000,h2:7000"
    )
    assert redacted("redis://:pw@h:6379/0") == "redis://:***@h:6379/0"
    assert redacted("redis://h:6379/0") == "redis://h:6379/0"
    assert redacted("unix:///var/redis.sock?db=0") == "unix:///var/redis.sock?db=0"
    assert redacted("redis://h/0?password=s3cret&db=1") == "redis://h/0?password=***&db=1"
    assert redacted("redis://:pa/ss@h:6379/0") == "redis://(not shown)"
    with pytest.raises(SettingsError) as refused:
        Settings.from_env({"JACKPOT_REDIS_URL": "redis+cluster://:s3cret@10.0.0.1:7000"})
    assert "s3cret" not in str(refused.value)


def test_threads_behind_a_failed_look_at_the_cluster_fail_at_once(monkeypatch):
    """A look over nodes that do not answer may take each node's timeout: callers within
    the next 100 ms get that look's answer instead of each looking again."""
    from jackpot.store import cluster

    asked = []

    def unanswered(node, kwargs):
        asked.append(node)
        raise redis_lib.ConnectionError(f"{node} does not answer")

    monkeypatch.setattr(cluster, "_cluster_slots", unanswered)
    route = cluster.SlotRoute([("10.0.0.1", 7000), ("10.0.0.2", 7000)], "{jackpot}")
    for _ in range(3):
        with pytest.raises(cluster.SlotUnavailableError, match="10.0.0.2"):
            route.owner()
    assert len(asked) == 2  # one look, at both nodes


def test_a_cluster_url_with_an_ipv6_node_after_the_first_is_read_on_every_python():
    # Debian's Python 3.11.2 (deb12u6, the fix for CVE-2024-11168) has urlsplit refuse a
    # bracketed address that does not open the netloc: "Invalid IPv6 URL"
    url = "redis+cluster://10.0.0.1:7000,[::1]:7001"
    settings = Settings.from_env(
        {"JACKPOT_REDIS_URL": url, "JACKPOT_QUEUE_REDIS_URL": "redis://queue:6379/0"}
    )
    assert settings.redis_url == url
    target = cluster_target(url)
    assert target is not None and target.nodes == (("10.0.0.1", 7000), ("::1", 7001))
    sentinels = sentinel_target("redis+sentinel://h1:26379,[::1]:26380/jackpot")
    assert sentinels is not None and sentinels.sentinels == (("h1", 26379), ("::1", 26380))
