"""The replica wait on the round script's own connection (HotScript with a ReplicaWait), on a
real redis-server without replicas: WAIT's answer is always read, so the connection stays in
step through a forgotten script, a script error and a wait that falls short."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis as redis_lib

from jackpot.errors import ReplicationTimeoutError
from jackpot.store.scripts import HotScript, ReplicaWait
from tests.support.redis_server import RedisServer

SCRIPT = """
if ARGV[1] == 'fail' then return redis.error_reply('ERR refused on purpose') end
redis.call('INCR', KEYS[1])
return {ARGV[1], redis.call('GET', KEYS[1])}
"""


MADE: list[HotScript] = []


@pytest.fixture
def client(redis_server: RedisServer, redis: redis_lib.Redis) -> Iterator[redis_lib.Redis]:
    made = redis_lib.Redis.from_url(redis_server.url, decode_responses=True, socket_timeout=5)
    yield made
    for script in MADE:  # each keeps connections of its own
        script.close()
    MADE.clear()
    made.close()


def hot(client: redis_lib.Redis, replicas: int, timeout_ms: int = 50) -> HotScript:
    made = HotScript(client, client.register_script(SCRIPT), ReplicaWait(replicas, timeout_ms))
    MADE.append(made)
    return made


def test_with_nothing_to_wait_for_the_answer_is_the_scripts(client: redis_lib.Redis) -> None:
    call = hot(client, 0)
    assert call(["n"], ["ok"]) == ["ok", "1"]
    client.script_flush()  # the script is loaded again, and WAIT's answer read once more
    assert call(["n"], ["ok"]) == ["ok", "2"]
    assert call(["n"], ["ok"]) == ["ok", "3"]


def test_a_script_error_leaves_the_connection_in_step(client: redis_lib.Redis) -> None:
    call = hot(client, 0)
    with pytest.raises(redis_lib.ResponseError, match="refused on purpose"):
        call(["n"], ["fail"])
    assert call(["n"], ["ok"]) == ["ok", "1"]  # not WAIT's answer to the failed call


def test_a_write_no_replica_confirmed_is_not_acknowledged(client: redis_lib.Redis) -> None:
    call = hot(client, 1)
    with pytest.raises(ReplicationTimeoutError, match="0 of 1 replica"):
        call(["n"], ["ok"])
    assert client.get("n") == "1"  # written: a resend is answered from it, once confirmed
    # an answer that acknowledges nothing (not ok or replay) is not held to the wait
    assert call(["n"], ["conflict"]) == ["conflict", "2"]
    with pytest.raises(ReplicationTimeoutError):
        call(["n"], ["replay"])
    assert hot(client, 0)(["n"], ["ok"]) == ["ok", "4"]
