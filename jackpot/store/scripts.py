"""The Lua scripts, loaded from lua/*.lua and registered once per client."""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from redis import Redis
from redis.commands.core import Script
from redis.connection import AbstractConnection
from redis.exceptions import ConnectionError, NoScriptError, ResponseError


def _read(name: str) -> str:
    return resources.files("jackpot.store").joinpath("lua", f"{name}.lua").read_text()


# scripts that stamp time get the shared controller clock put before them
CLOCKED = frozenset(
    {
        "put_pool",
        "put_table",
        "change_game",
        "payout_status",
        "adjust_pool",
        "key_event",
        "link_state",
        "retire_pool",
        "stage_pool",
        "put_sign",
    }
)
# scripts that write a journal get its hash chain's append() put before them
CHAINED = CLOCKED | {"settle_round"}


def source(name: str) -> str:
    """A script's text as it is loaded: its preludes (clock, chain), then its own."""
    prelude = [
        _read(part) for part, uses in (("clock", CLOCKED), ("chain", CHAINED)) if name in uses
    ]
    return "\n".join([*prelude, _read(name)])


class HotScript:
    """A script called over a connection that belongs to the calling thread.

    A call through redis-py's client takes a connection from the pool (polling the socket
    for stray data, a system call), runs its retry and event hooks, and gives it back: as
    much CPU again as sending the call and reading its answer. The round path makes
    one script call per request, so it keeps one connection per thread instead, made with
    the pool's own settings (address, timeouts, decoding, credentials).

    Failures: a connection the server closed (e.g. after a restart) is replaced and the call
    sent once more, which is safe because the scripts are idempotent; a server that lost
    its script cache gets the script again; a timeout is raised at once, as ConnectionError
    and TimeoutError are by the client, for the API to answer 503 and the table to resend.
    """

    def __init__(self, client: Redis, script: Script) -> None:
        self._client = client
        self._script = script
        self._local = threading.local()

    def _connection(self) -> AbstractConnection:
        conn: AbstractConnection | None = getattr(self._local, "conn", None)
        if conn is None or self._local.pid != os.getpid():
            pool = self._client.connection_pool
            conn = pool.connection_class(**pool.connection_kwargs)
            self._local.conn, self._local.pid = conn, os.getpid()
        return conn

    def __call__(self, keys: Sequence[str], args: Sequence[str | bytes]) -> Any:
        packed = None
        for attempt in range(3):
            conn = self._connection()
            if packed is None:
                packed = conn.pack_command("EVALSHA", self._script.sha, len(keys), *keys, *args)
            try:
                conn.send_packed_command(packed, check_health=False)
                return conn.read_response()
            except NoScriptError:
                if attempt == 2:
                    raise
                self._client.script_load(self._script.script)
            except ConnectionError:
                conn.disconnect()
                if attempt >= 1:
                    raise
            except ResponseError:
                raise  # an error answer, read in full: the connection is fine
            except BaseException:
                conn.disconnect()  # the answer may still be on its way: never reuse it
                raise
        raise AssertionError("unreachable")


@dataclass(frozen=True, slots=True)
class Scripts:
    settle_round: HotScript
    put_pool: Script
    put_table: Script
    change_game: Script
    payout_status: Script
    adjust_pool: Script
    key_event: Script
    link_state: Script
    retire_pool: Script
    stage_pool: Script
    put_sign: Script

    @classmethod
    def register(cls, client: Redis) -> Scripts:
        scripts = {name: client.register_script(source(name)) for name in cls.__slots__}
        return cls(**{**scripts, "settle_round": HotScript(client, scripts["settle_round"])})
