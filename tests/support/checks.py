"""Checks of refusals: the error body, and that nothing in the store changed."""

from __future__ import annotations

import copy
import re
from typing import Any

import redis as redis_lib

from jackpot.store.cluster import SlotConnection, SlotRoute
from tests.support.api import Api, round_body

DELETE = object()  # a patch value: remove the key


def snapshot(client: redis_lib.Redis) -> dict[bytes, tuple[bytes, Any]]:
    """Every key of the store as (type, content): what "changes nothing" is checked against.

    Read as bytes: the store also holds binary values (the worker's queued jobs). On a Redis
    Cluster, every master's keys."""
    state: dict[bytes, tuple[bytes, Any]] = {}
    for r in _servers(client):
        _read_all(r, state)
    return state


def _servers(client: redis_lib.Redis) -> list[redis_lib.Redis]:
    """Plain clients of every server (every master of a cluster) `client` reads from."""
    pool = client.connection_pool
    where = pool.connection_kwargs
    if pool.connection_class is not SlotConnection:
        return [_server(where["host"], where["port"], where.get("db", 0))]
    route: SlotRoute = where["route"]
    route.owner()  # the route has asked the cluster for its map: it knows every node
    servers = [_server(host, port) for host, port in route.nodes()]
    return [r for r in servers if r.execute_command("ROLE")[0] == b"master"]


# A plain client of each server snapshots have read, kept for the session (one reconnects if
# its server went away): a new one each snapshot cost a connection and its handshake, ~1 ms
# of CPU, and a refusal takes two snapshots.
_KEPT: dict[tuple[str, int, int], redis_lib.Redis] = {}


def _server(host: str, port: int, db: int = 0) -> redis_lib.Redis:
    if (host, port, db) not in _KEPT:
        _KEPT[host, port, db] = redis_lib.Redis(host=host, port=port, db=db)
    return _KEPT[host, port, db]


def _read_all(r: redis_lib.Redis, state: dict[bytes, tuple[bytes, Any]]) -> None:
    # two pipelined rounds (every key's type, then every key's content) rather than two
    # round trips a key: a snapshot of a test's world (~60 keys) took ~30 ms, now ~5 ms
    names = list(r.scan_iter(count=1000))
    pipe = r.pipeline(transaction=False)
    for key in names:
        pipe.type(key)
    kinds = pipe.execute()
    for key, kind in zip(names, kinds, strict=True):
        if kind == b"string":
            pipe.get(key)
        elif kind == b"hash":
            pipe.hgetall(key)
        elif kind == b"list":
            pipe.lrange(key, 0, -1)
        elif kind == b"set":
            pipe.smembers(key)
        elif kind == b"zset":
            pipe.zrange(key, 0, -1, withscores=True)
        elif kind == b"stream":
            pipe.xrange(key)
        else:  # pragma: no cover - the controller uses no other type
            pipe.dump(key)
    for key, kind, content in zip(names, kinds, pipe.execute(), strict=True):
        if kind == b"hash" and key.endswith(b"/controller"):
            # when each scope was last checked: any process's self-check writes it, at
            # any moment, whatever the request under test did
            content = {f: v for f, v in content.items() if not f.endswith(b":checked")}
        elif kind == b"set":
            content = sorted(content)
        state[key] = (kind, content)


def assert_error(response: Any, status: int, field: str | None) -> dict[str, Any]:
    """The docs/API.md error body, with `field` naming the field at fault (absent when None)."""
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True))
    body = response.get_json()
    assert isinstance(body, dict) and set(body) == {"error"}, body
    error = body["error"]
    assert set(error) <= {"code", "message", "field"}, error
    assert isinstance(error["code"], str) and error["code"], error
    assert isinstance(error["message"], str) and error["message"], error
    assert error.get("field") == field, error
    return dict(error)


def refused(redis: redis_lib.Redis, send: Any, status: int, field: str | None) -> dict[str, Any]:
    """Send a request that must be refused; check the error body and that the store is as it was."""
    before = snapshot(redis)
    error = assert_error(send(), status, field)
    assert snapshot(redis) == before
    return error


_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def patched(body: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of `body` with each path (`spots[2].card`) set, or removed with DELETE."""
    out = copy.deepcopy(body)
    for path, value in changes.items():
        steps: list[str | int] = [
            name if name else int(index) for name, index in _STEP.findall(path)
        ]
        node: Any = out
        for step in steps[:-1]:
            node = node[step]
        last = steps[-1]
        if value is DELETE:
            del node[last]
        else:
            node[last] = value
    return out


# a hand pay's record as a confirmation needs it: a witness (not the payer, not the operator
# confirming) and the slip
HAND_PAY = {"witness": "SAM-OKAFOR", "slip": "HP-1001"}


def report_body(
    round_id: str = "r-new", changes: dict[str, Any] | None = None, **fields: Any
) -> dict[str, Any]:
    """A valid report at T1: spot 1 ties and goes to war, spot 2 loses, spot 3 has no bet."""
    body = round_body(
        round_id,
        dealer="Qs",
        dealer_war="7h",
        spots=[
            {"spot": 1, "player": "p-1", "wager": 500, "card": "Qh", "war": True, "war_card": "2c"},
            {"spot": 2, "player": "p-2", "wager": 500, "card": "4d"},
            {"spot": 3, "card": "9h"},
        ],
    )
    return patched(body, {**fields, **(changes or {})})


def jackpot_body(round_id: str) -> dict[str, Any]:
    """A suited four of a kind on spot 1: 100% of the meter, a pending payout."""
    return round_body(
        round_id,
        dealer="As",
        dealer_war="As",
        spots=[{"spot": 1, "player": "p-9", "wager": 500, "card": "As", "war": True,
                "war_card": "As"}],
    )  # fmt: skip


def post_round(api: Api, body: Any) -> Any:
    return api.client.post("/v1/rounds", json=body, headers=api.keys.header("table"))


def send_raw(api: Api, method: str, path: str, data: bytes | str, role: str) -> Any:
    return api.client.open(
        path,
        method=method,
        data=data,
        content_type="application/json",
        headers=api.keys.header(role),
    )
