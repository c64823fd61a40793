"""A Redis client for a store URL: a server (`redis://`, `rediss://`, `unix://`) or a master
found through Redis Sentinel (`redis+sentinel://`).

    redis+sentinel://[[user]:password@]host:port[,host:port...]/<master name>[/<db>]

The password (and user) is the master's and the sentinels'. The client asks the sentinels
for the master on every new connection, so after a failover the next connection reaches the
new master; a connection to an old master that became a replica fails with ReadOnlyError,
which redis-py's sentinel connection turns into a ConnectionError: the command is sent again
to the new master (safe: every write the controller makes is an idempotent script).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit

import redis
from redis.sentinel import Sentinel

SENTINEL_SCHEME = "redis+sentinel"

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


def sentinel_target(url: str) -> SentinelTarget | None:
    """The sentinels and master a redis+sentinel:// URL names; None for any other URL."""
    parts = urlsplit(url)
    if parts.scheme != SENTINEL_SCHEME:
        return None
    userinfo, _, hosts = parts.netloc.rpartition("@")
    username, _, password = userinfo.partition(":")
    sentinels = []
    for host in hosts.split(","):
        name, _, port = host.rpartition(":")
        if not name or not port.isdigit():
            raise StoreUrlError(f"{url!r}: each sentinel must be host:port")
        sentinels.append((name.strip("[]"), int(port)))
    path = [p for p in parts.path.split("/") if p]
    if not path or len(path) > 2 or (len(path) == 2 and not path[1].isdigit()):
        raise StoreUrlError(f"{url!r}: the path must be /<master name>[/<db>]")
    return SentinelTarget(
        tuple(sentinels),
        unquote(path[0]),
        int(path[1]) if len(path) == 2 else 0,
        unquote(username) or None,
        unquote(password) or None,
    )


def connect(url: str, *, decode: bool, timeout: float, **options: Any) -> redis.Redis:
    """A client of the store at `url` (for a sentinel URL: of its current master)."""
    kwargs: dict[str, Any] = {
        "decode_responses": decode,
        "socket_timeout": timeout,
        "socket_connect_timeout": timeout,
        **options,
    }
    target = sentinel_target(url)
    if target is None:
        return redis.Redis.from_url(url, **kwargs)
    auth = {"username": target.username, "password": target.password}
    sentinel = Sentinel(
        list(target.sentinels),
        sentinel_kwargs={"socket_timeout": timeout, "socket_connect_timeout": timeout, **auth},
    )
    return sentinel.master_for(target.master, db=target.db, **auth, **kwargs)
