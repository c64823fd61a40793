"""The Lua scripts, loaded from lua/*.lua and registered once per client."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from importlib import resources
from typing import Any, Protocol

from redis import Redis
from redis.commands.core import Script
from redis.connection import AbstractConnection
from redis.exceptions import ConnectionError, NoScriptError, ResponseError

from jackpot.errors import ReplicationTimeoutError


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
        "person_event",
        "link_state",
        "retire_pool",
        "stage_pool",
        "put_sign",
        "controller_state",
        "move_table",
        "gaming_day",
        "void_round",
        "day_closed",
        "table_counts_acknowledged",
    }
)
# scripts that write a journal get its hash chain's append() put before them
CHAINED = CLOCKED | {"settle_round"}
# scripts that move a pool's money get its books (BOOKS, balanced(), as_journaled())
BOOKED = frozenset({"settle_round", "void_round"})
# scripts that test or fill the tables' filters of forgotten rounds (store/forgotten.py)
FILTERED = frozenset({"settle_round", "forget_rounds"})
# the script that pays a hidden trigger gets opens() (SHA-256, to check its commitment)
COMMITTED = frozenset({"settle_round"})


def source(name: str) -> str:
    """A script's text as it is loaded: its preludes (clock, chain, books, forgotten,
    commitment), then its own."""
    preludes = (
        ("clock", CLOCKED),
        ("chain", CHAINED),
        ("books", BOOKED),
        ("forgotten", FILTERED),
        ("commitment", COMMITTED),
    )
    prelude = [_read(part) for part, uses in preludes if name in uses]
    return "\n".join([*prelude, _read(name)])


class ScriptCall(Protocol):
    """A script as the stores call it (redis-py's Script, or one held to a replica wait)."""

    def __call__(self, keys: Sequence[str] = ..., args: Sequence[Any] = ...) -> Any: ...


@dataclass(frozen=True, slots=True)
class ReplicaWait:
    """Acknowledge a write only once `replicas` replicas have it: Redis's WAIT, sent on the
    connection that wrote, right behind the script (one round trip for both). A master that
    dies after the answer then loses nothing acknowledged, provided a confirmed replica is the
    one promoted (Sentinel promotes the most up-to-date replica)."""

    replicas: int
    timeout_ms: int

    def command(self) -> tuple[str, int, int]:
        return ("WAIT", self.replicas, self.timeout_ms)

    def pipelined(self, client: Redis, stage: Callable[[Any], Any]) -> list[Any]:
        """The commands `stage` puts on a pipeline, then WAIT, on one connection; their
        answers once the replicas have them (ReplicationTimeoutError otherwise).

        A pipeline loads its scripts before it sends them; if the store's master changed
        in between (a cluster's slot moved and the pipeline followed it), the new one
        answers NOSCRIPT, which ran nothing: the pipeline is built and sent once more."""
        for attempt in range(2):
            try:
                with client.pipeline(transaction=False) as pipe:
                    stage(pipe)
                    pipe.execute_command(*self.command())
                    *answers, acknowledged = list(pipe.execute())
                break
            except NoScriptError:
                if attempt:
                    raise
        self.confirm(int(acknowledged))
        return answers

    def confirm(self, acknowledged: int) -> None:
        if acknowledged < self.replicas:
            raise ReplicationTimeoutError(
                f"the write reached {acknowledged} of {self.replicas} replica(s) within "
                f"{self.timeout_ms} ms, so it is not acknowledged; resend the same request: "
                "it is answered from what was written, once a replica has it"
            )


class HotScript:
    """A script called over a connection the call has to itself.

    A call through redis-py's client takes a connection from the pool (polling the socket
    for stray data, a system call), runs its retry and event hooks, and gives it back: as
    much CPU again as sending the call and reading its answer. The round path makes
    one script call per request, so it keeps connections of its own instead, made with the
    pool's own settings (address, timeouts, decoding, credentials): a call takes an idle one
    (or makes one) and puts it back, so there are as many as calls ever ran at once (the API's
    greenlets, or a process's threads), whatever the number of greenlets that come and go.

    Failures: a connection the server closed (e.g. after a restart) is replaced and the call
    sent once more, which is safe because the scripts are idempotent; a server that lost
    its script cache gets the script again; a timeout is raised at once, as ConnectionError
    and TimeoutError are by the client, for the API to answer 503 and the table to resend.
    """

    def __init__(self, client: Redis, script: Script, wait: ReplicaWait | None = None) -> None:
        self._client = client
        self._script = script
        self._wait = wait
        self._idle: list[AbstractConnection] = []
        self._pid = os.getpid()

    def _take(self) -> AbstractConnection:
        """An idle connection of this process, else a new one (list.pop is atomic)."""
        if self._pid != os.getpid():  # forked: the parent's connections are not ours
            self._idle, self._pid = [], os.getpid()
        try:
            return self._idle.pop()
        except IndexError:
            pool = self._client.connection_pool
            return pool.connection_class(**pool.connection_kwargs)

    def close(self) -> None:
        """Disconnect the idle connections (a call in progress keeps its own)."""
        while self._idle:
            self._idle.pop().disconnect()

    def __call__(self, keys: Sequence[str], args: Sequence[str | bytes]) -> Any:
        conn = self._take()
        try:
            return self._call(conn, keys, args)
        finally:
            self._idle.append(conn)  # disconnected after a failure: it connects again

    def _call(
        self, conn: AbstractConnection, keys: Sequence[str], args: Sequence[str | bytes]
    ) -> Any:
        packed = None
        for attempt in range(3):
            if packed is None:
                packed = conn.pack_command("EVALSHA", self._script.sha, len(keys), *keys, *args)
                if self._wait is not None:
                    packed += conn.pack_command(*self._wait.command())
            try:
                # connect() first: a sentinel-managed connection finds the master there (a
                # bare send would connect to its default address); once connected, a no-op
                conn.connect()
                conn.send_packed_command(packed, check_health=False)
                return self._answer(conn)
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

    def _answer(self, conn: AbstractConnection) -> Any:
        """The script's answer; with a replica wait, its answer read too (always, so the
        connection stays in step) and held to the wait when the script wrote."""
        if self._wait is None:
            return conn.read_response()
        try:
            answer = conn.read_response()
        except ResponseError:
            conn.read_response()  # WAIT's answer to a script that failed
            raise
        acknowledged = int(conn.read_response())
        if answer[0] in WRITES:
            self._wait.confirm(acknowledged)
        return answer


# the round script's answers that acknowledge a round: it was written (ok) or was found
# written (replay, which writes a mark so that WAIT covers the first write too)
WRITES = frozenset({"ok", "replay", b"ok", b"replay"})


class ReplicatedScript:
    """A registered script whose call returns only once the replicas have its writes: the
    script and WAIT in one pipeline, on one connection (operators' writes: not the hot path).
    """

    def __init__(self, client: Redis, script: Script, wait: ReplicaWait) -> None:
        self._client = client
        self._script = script
        self._wait = wait

    def __call__(self, keys: Sequence[str] = (), args: Sequence[Any] = ()) -> Any:
        stage = partial(self._script, keys=keys, args=args)
        return self._wait.pipelined(self._client, lambda pipe: stage(client=pipe))[0]


@dataclass(frozen=True, slots=True)
class Scripts:
    settle_round: HotScript
    put_pool: ScriptCall
    put_table: ScriptCall
    change_game: ScriptCall
    payout_status: ScriptCall
    adjust_pool: ScriptCall
    key_event: ScriptCall
    person_event: ScriptCall
    link_state: ScriptCall
    retire_pool: ScriptCall
    stage_pool: ScriptCall
    put_sign: ScriptCall
    controller_state: ScriptCall
    move_table: ScriptCall
    gaming_day: ScriptCall
    void_round: ScriptCall
    day_closed: ScriptCall
    table_counts_acknowledged: ScriptCall
    wait: ReplicaWait | None = None  # what every write waits for (None: no replica wait)

    @classmethod
    def register(cls, client: Redis, wait: ReplicaWait | None = None) -> Scripts:
        """Every script over `client`; with `wait`, each call returns once replicas have it."""
        scripts: dict[str, Any] = {
            name: client.register_script(source(name)) for name in cls.__slots__ if name != "wait"
        }
        hot = HotScript(client, scripts.pop("settle_round"), wait)
        if wait is not None:
            scripts = {n: ReplicatedScript(client, s, wait) for n, s in scripts.items()}
        return cls(settle_round=hot, wait=wait, **scripts)
