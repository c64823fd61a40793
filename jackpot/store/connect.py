"""A Redis client for a store URL: a server (`redis://`, `rediss://`, `unix://`), a master
found through Redis Sentinel (`redis+sentinel://`), or the master of a Redis Cluster that
holds one hash tag's slot (`redis+cluster://`, see jackpot/store/cluster.py).

    redis+sentinel://[[user]:password@]host:port[,host:port...]/<master name>[/<db>]
    redis+cluster://[[user]:password@]host:port[,host:port...][/]

The password (and user) is the master's and the sentinels'. The client asks the sentinels
for the master on every new connection, so after a failover the next connection reaches the
new master; a connection to an old master that became a replica fails with ReadOnlyError,
which redis-py's sentinel connection turns into a ConnectionError: the command is sent again
to the new master (safe: every write the controller makes is an idempotent script).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple
from urllib.parse import unquote

import redis
from redis.sentinel import Sentinel, SentinelManagedConnection

from jackpot.domain.linkgroups import MAIN_GROUP
from jackpot.settings import Settings, redacted
from jackpot.store.cluster import Address, slot_client
from jackpot.store.keys import Keys

SENTINEL_SCHEME = "redis+sentinel"
CLUSTER_SCHEME = "redis+cluster"

# the store did not answer (a timeout may come after a script ran): 503, and the client resends
STORE_DOWN = (redis.ConnectionError, redis.TimeoutError, redis.BusyLoadingError)


class StoreUrlError(ValueError):
    """The store URL cannot be used; the message says what is wrong with it."""


@dataclass(frozen=True, slots=True)
class SentinelTarget:
    sentinels: tuple[tuple[str, int], ...]
    master: str
    db: int
    username: str | None
    password: str | None


@dataclass(frozen=True, slots=True)
class ClusterTarget:
    nodes: tuple[Address, ...]  # any of the cluster's nodes: the client asks them for the map
    username: str | None
    password: str | None


def _hosts(url: str, netloc: str, what: str) -> tuple[list[Address], str | None, str | None]:
    userinfo, _, hosts = netloc.rpartition("@")
    username, _, password = userinfo.partition(":")
    found = []
    for host in hosts.split(","):
        name, _, port = host.rpartition(":")
        if not name or not port.isdigit():
            raise StoreUrlError(f"{redacted(url)!r}: each {what} must be host:port")
        found.append((name.strip("[]"), int(port)))
    return found, unquote(username) or None, unquote(password) or None


class _Parts(NamedTuple):
    scheme: str
    netloc: str
    path: str
    query: str


def _split(url: str) -> _Parts:
    """A URL of several hosts (`scheme://user:pass@h1:p1,[::1]:p2/path?query`), split by
    hand: urllib's urlsplit refuses a bracketed address that does not open the netloc
    (Python's fix for CVE-2024-11168, in Debian's 3.11.2 since), so a list of hosts with an
    IPv6 address after the first was "Invalid IPv6 URL"."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        return _Parts("", "", "", "")
    netloc, slash, tail = rest.partition("/")
    if not slash:  # no path: a query may follow the hosts directly
        netloc, _, query = netloc.partition("?")
        return _Parts(scheme.lower(), netloc, "", query)
    path, _, query = tail.partition("?")
    return _Parts(scheme.lower(), netloc, "/" + path, query)


def cluster_target(url: str) -> ClusterTarget | None:
    """The nodes a redis+cluster:// URL names; None for any other URL."""
    parts = _split(url)
    if parts.scheme != CLUSTER_SCHEME:
        return None
    nodes, username, password = _hosts(url, parts.netloc, "node")
    if parts.path.strip("/") not in ("", "0") or parts.query:
        raise StoreUrlError(
            f"{redacted(url)!r}: a cluster has database 0 only and takes no options"
        )
    return ClusterTarget(tuple(nodes), username, password)


def sentinel_target(url: str) -> SentinelTarget | None:
    """The sentinels and master a redis+sentinel:// URL names; None for any other URL."""
    parts = _split(url)
    if parts.scheme != SENTINEL_SCHEME:
        return None
    sentinels, username, password = _hosts(url, parts.netloc, "sentinel")
    master, db = _master_and_db(url, parts.path)
    return SentinelTarget(tuple(sentinels), master, db, username, password)


def _master_and_db(url: str, path: str) -> tuple[str, int]:
    """The master's name and the database a sentinel URL's path names (database 0 if none)."""
    named = [p for p in path.split("/") if p]
    if not named or len(named) > 2 or (len(named) == 2 and not named[1].isdigit()):
        raise StoreUrlError(f"{redacted(url)!r}: the path must be /<master name>[/<db>]")
    return unquote(named[0]), int(named[1]) if len(named) == 2 else 0


def connect(
    url: str, *, decode: bool, timeout: float, tag: str | None = None, **options: Any
) -> redis.Redis:
    """A client of the store at `url` (for a sentinel URL: of its current master; for a
    cluster URL: of the master that holds the slot of hash tag `tag`, e.g. "{jackpot}")."""
    kwargs: dict[str, Any] = {
        "decode_responses": decode,
        "socket_timeout": timeout,
        "socket_connect_timeout": timeout,
        **options,
    }
    cluster = cluster_target(url)
    if cluster is not None:
        if tag is None:
            raise StoreUrlError(
                f"{redacted(url)!r}: a Redis Cluster serves the controller's keys only; this "
                "client (e.g. the background jobs' queue) needs a server URL of its own"
            )
        return slot_client(
            cluster.nodes, tag, username=cluster.username, password=cluster.password, **kwargs
        )
    target = sentinel_target(url)
    if target is None:
        return redis.Redis.from_url(url, **kwargs)
    auth = {"username": target.username, "password": target.password}
    sentinel = Sentinel(
        list(target.sentinels),
        sentinel_kwargs={"socket_timeout": timeout, "socket_connect_timeout": timeout, **auth},
    )
    return sentinel.master_for(
        target.master, db=target.db, connection_class=SentinelConnection, **auth, **kwargs
    )


def redis_client(
    url: str, settings: Settings, decode: bool = True, group: str = MAIN_GROUP
) -> redis.Redis:
    """A client whose retried commands are safe: every money write is an idempotent script.
    On a Redis Cluster: of the master holding the link group's hash tag."""
    return connect(
        url,
        decode=decode,
        timeout=settings.redis_timeout_seconds,
        tag=Keys(settings.namespace, group).tag,
        health_check_interval=30,
    )


class SentinelConnection(SentinelManagedConnection):  # type: ignore[misc]
    """redis-py's connection to the master the sentinels name, closed when a read is cut
    short by anything at all, as redis-py's plain connection is: its own `read_response`
    keeps the connection by default, so the answer of a command cut short (RQ's worker
    stopping on SIGTERM in the middle of its blocking pop) arrived later as the answer to the
    next command sent on it (RQ's MULTI/EXEC: "Wrong number of response items")."""

    def read_response(self, *args: Any, disconnect_on_error: bool = True, **kwargs: Any) -> Any:
        return super().read_response(*args, disconnect_on_error=disconnect_on_error, **kwargs)


class Connections:
    """The main link group's client (its keys, the registry, the API keys, the signs) and the
    queue's (RQ keeps pickles: it does not decode replies): pinged, probed and closed here,
    never handed to a caller, who reaches the store through the use cases."""

    __slots__ = ("_main", "_queue")

    def __init__(self, main: redis.Redis, queue: redis.Redis) -> None:
        self._main = main
        self._queue = queue

    def ping(self) -> None:
        """PING the main store; raises when it does not answer."""
        self._main.ping()

    def read(self, key: str) -> None:
        """Read whether `key` exists (a cluster answers PING while it refuses every key)."""
        self._main.exists(key)

    def opened(self, client: redis.Redis) -> bool:
        """Whether `client` is one of these (a group on the main store shares its client)."""
        return client is self._main or client is self._queue

    def close(self) -> None:
        self._main.close()
        self._queue.close()
