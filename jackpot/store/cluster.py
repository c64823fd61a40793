"""A client of the one hash slot of a Redis Cluster that holds a set of keys.

Every key a round touches carries one hash tag, so everything the controller does with those
keys is addressed to one slot, held by one master. A `SlotRoute` knows which master that is
(from CLUSTER SLOTS, asked of any node that answers) and a `SlotConnection` connects there.
Over them, a plain `redis.Redis` client works as it does on one server: scripts, pipelines,
MULTI/EXEC, WAIT (for that master's replicas), INFO and CONFIG of the node that holds the
money. redis-py's own cluster client cannot do all of that (it refuses EVALSHA, INFO, CONFIG
and TIME in a pipeline).

When the slot moves (a failover, a resharding), the master that lost it answers MOVED: the
connection takes the new address, drops its socket and raises SlotUnavailableError, and the
client sends the command once more, to the new owner. It is resent only when it surely did
not run: after MOVED, ASK, TRYAGAIN or CLUSTERDOWN (the node refused it) or a failure to
connect (nothing was sent); a connection lost while an answer was awaited is not resent (the
API answers 503 and the table resends; the money scripts are idempotent, not every operator
step is). A node that does not answer, or times out, and every refusal mark the route stale:
the next connection asks the cluster again. A pooled connection still open to a node that
no longer holds the slot is closed at its next use once the route knows the new owner.
Whatever cannot be served reaches the API as 503 (`cluster_unavailable`, the table resends):
nothing is half-applied, because every money write is one script in that slot. (A pipeline
without MULTI is resent whole after a MOVED answer to any of its commands: it may hold at
most one write, as the controller's do: reads, or one script and WAIT.)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from typing import Any

import redis
from redis.backoff import NoBackoff
from redis.connection import Connection
from redis.crc import key_slot
from redis.exceptions import AskError, ClusterDownError, MovedError, TryAgainError
from redis.retry import Retry

Address = tuple[str, int]

# at most one CLUSTER SLOTS per this many seconds while the route is stale
REFRESH_SECONDS = 0.1


class SlotUnavailableError(redis.ConnectionError):  # type: ignore[misc]  # redis is untyped here
    """The cluster cannot serve the slot now (down, failing over, or moving the slot): a
    connection error, so the command was not run or is retried, and the API answers 503."""


class SlotRoute:
    """The master that owns one slot, as the cluster last said; asked again when stale."""

    def __init__(self, seeds: Iterable[Address], tag: str, **node_kwargs: Any) -> None:
        self.slot = key_slot(tag.encode())
        self.tag = tag
        self._nodes: list[Address] = list(dict.fromkeys(seeds))
        if not self._nodes:
            raise ValueError("a cluster needs at least one node address")
        self._node_kwargs = node_kwargs
        self._owner: Address | None = None
        self._stale = True
        self._asked = -REFRESH_SECONDS  # when the cluster was last asked (monotonic)
        self._failure = ""  # why that look failed ("" if it did not)
        self._lock = threading.Lock()

    def owner(self) -> Address:
        """The slot's master; asks the cluster first if the route is stale."""
        with self._lock:
            if self._stale or self._owner is None:
                self._refresh()  # finds the owner or raises
            assert self._owner is not None
            return self._owner

    def known(self) -> Address | None:
        """The owner as last learned, without asking the cluster."""
        return self._owner

    def moved(self, address: Address) -> None:
        """A node answered MOVED: the slot is at `address` now."""
        with self._lock:
            self._owner, self._stale = address, False
            if address not in self._nodes:
                self._nodes.append(address)

    def nodes(self) -> list[Address]:
        """Every node address the route has heard of (the URL's and those the map named)."""
        with self._lock:
            return list(self._nodes)

    def lost(self) -> None:
        """The owner failed to answer or the cluster refused: ask again before connecting."""
        self._stale = True

    def _refresh(self) -> None:
        if time.monotonic() - self._asked < REFRESH_SECONDS:
            # asked a moment ago: keep the owner found then, or fail as that look failed
            # (threads queued behind a slow look over dead nodes do not each look again)
            if self._owner is not None:
                return
            if self._failure:
                raise SlotUnavailableError(self._failure)
        try:
            self._scan()
            self._failure = ""
        except SlotUnavailableError as exc:
            self._failure = str(exc)
            raise
        finally:
            self._asked = time.monotonic()

    def _scan(self) -> None:
        errors = []
        for node in [*self._nodes]:  # the owner may be anywhere: ask each until one answers
            try:
                slots = _cluster_slots(node, self._node_kwargs)
            except redis.RedisError as exc:
                errors.append(f"{node[0]}:{node[1]}: {exc}")
                continue
            for first, last, master, *_ in slots:
                address = (_host(master[0], node[0]), int(master[1]))
                if address not in self._nodes:
                    self._nodes.append(address)
                if first <= self.slot <= last:
                    self._owner, self._stale = address, False
                    # ask this node first next time: a dead node early in the list would
                    # cost every refresh its connect timeout
                    self._nodes.remove(node)
                    self._nodes.insert(0, node)
                    return
            errors.append(f"{node[0]}:{node[1]}: slot {self.slot} is not covered")
        raise SlotUnavailableError(
            f"no node of the cluster said which master holds slot {self.slot} "
            f"(hash tag {self.tag}): {'; '.join(errors)}"
        )


def _host(announced: Any, asked: str) -> str:
    """The address a node announces for a master (none, '' or '?' mean: the one you asked)."""
    if announced is None:
        return asked
    text = announced.decode() if isinstance(announced, bytes) else str(announced)
    return asked if text in ("", "?") else text


def _cluster_slots(node: Address, kwargs: dict[str, Any]) -> list[Any]:
    # no retry: the caller asks the next node instead
    client = redis.Redis(host=node[0], port=node[1], retry=Retry(NoBackoff(), 0), **kwargs)
    try:
        return list(client.execute_command("CLUSTER", "SLOTS"))
    finally:
        client.close()


class SlotConnection(Connection):  # type: ignore[misc]  # redis is untyped here
    """A connection to the master that owns its route's slot (see the module's text)."""

    def __init__(self, *, route: SlotRoute, **kwargs: Any) -> None:
        self.route = route
        super().__init__(**kwargs)

    def connect_check_health(
        self, check_health: bool = True, retry_socket_connect: bool = True
    ) -> None:
        # a socket still open to a node the slot has left (a resharding, a failover that
        # kept the old master up as a replica) would run key-less commands (INFO, CONFIG,
        # SCRIPT LOAD) there: closed once the route knows better
        where: Address = (self.host, self.port)  # type: ignore[has-type]
        if self._sock is not None and self.route.known() not in (None, where):
            self.disconnect()
        if self._sock is None:
            self.host, self.port = self.route.owner()
        try:
            super().connect_check_health(
                check_health=check_health, retry_socket_connect=retry_socket_connect
            )
        except (SlotUnavailableError, redis.AuthenticationError):
            raise
        except (redis.ConnectionError, redis.TimeoutError) as exc:
            # the master the map names does not answer (dead, unreachable, failing over):
            # nothing was sent, so the command may go to the owner the cluster names next
            self.route.lost()
            raise SlotUnavailableError(f"the master of slot {self.route.slot}: {exc}") from exc

    def read_response(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().read_response(*args, **kwargs)
        except MovedError as exc:
            if exc.slot_id != self.route.slot:
                raise  # a key without the route's hash tag: a fault of the caller's, not a move
            self.route.moved((exc.host or self.host, int(exc.port)))
            self.disconnect()
            raise SlotUnavailableError(
                f"slot {exc.slot_id} moved to {exc.host or self.host}:{exc.port}; nothing was run"
            ) from exc
        except (ClusterDownError, TryAgainError, AskError) as exc:
            self.route.lost()
            self.disconnect()
            raise SlotUnavailableError(f"the cluster cannot serve the slot now: {exc}") from exc
        except redis.AuthenticationError:
            raise
        except (redis.ConnectionError, redis.TimeoutError):
            self.route.lost()  # the answer may have been on its way: not resent
            raise


def slot_client(
    seeds: Iterable[Address],
    tag: str,
    *,
    username: str | None,
    password: str | None,
    **kwargs: Any,
) -> redis.Redis:
    """A client of the master holding `tag`'s slot, followed across failovers."""
    auth = {"username": username, "password": password}
    timeouts = {
        k: v for k, v in kwargs.items() if k in ("socket_timeout", "socket_connect_timeout")
    }
    route = SlotRoute(seeds, tag, **auth, **timeouts)
    kwargs.setdefault("retry", default_retry())
    pool = redis.ConnectionPool(connection_class=SlotConnection, route=route, **auth, **kwargs)
    return redis.Redis(connection_pool=pool)


def default_retry() -> Retry:
    """One more try, at once, of a command the cluster surely did not run: refused by a node
    that does not hold the slot (MOVED, ASK, TRYAGAIN, CLUSTERDOWN) or never sent (its
    master did not take the connection). After MOVED it goes to the slot's new master. A
    client of a plain server URL does not retry at all."""
    return Retry(NoBackoff(), 1, supported_errors=(SlotUnavailableError,))
