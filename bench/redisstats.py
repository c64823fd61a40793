"""What Redis did: INFO deltas over a phase, and a MONITOR sample telling the commands the
service sent apart from the ones its Lua scripts ran (INFO commandstats counts both)."""

from __future__ import annotations

import re
import socket
import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlparse

import redis

from jackpot.store.scripts import source as script_source

MONITOR_END = "bench-monitor-end"


def script_commands(script: str = "settle_round") -> set[str]:
    """The commands a Lua script of the store can run (redis.call('NAME', ...)), with the
    preludes it is loaded with (the hash chain's XADD is in one)."""
    text = script_source(script)
    return {name.lower() for name in re.findall(r"redis\.p?call\(\s*'(\w+)'", text)}


@dataclass
class Snapshot:
    cpu_sys: float
    cpu_user: float
    cpu_main_thread: float | None
    commands: dict[str, dict[str, float]]  # name -> calls, usec, failed_calls, rejected_calls


def snapshot(client: redis.Redis) -> Snapshot:
    """One INFO call (so the benchmark adds exactly one `info` to the deltas)."""
    info = client.info("everything")
    commands = {}
    for key, value in info.items():
        if key.startswith("cmdstat_") and isinstance(value, dict):
            commands[key[len("cmdstat_") :]] = {
                k: float(value.get(k, 0))
                for k in ("calls", "usec", "failed_calls", "rejected_calls")
            }
    main = None
    if "used_cpu_sys_main_thread" in info:
        main = float(info["used_cpu_sys_main_thread"]) + float(info["used_cpu_user_main_thread"])
    return Snapshot(float(info["used_cpu_sys"]), float(info["used_cpu_user"]), main, commands)


@dataclass
class Delta:
    rounds: int
    cpu_seconds: float
    cpu_main_thread_seconds: float | None
    commands: dict[str, dict[str, float]]
    own_info_calls: int = 1

    @classmethod
    def merge(cls, parts: list[Delta]) -> Delta:
        commands: dict[str, dict[str, float]] = {}
        for p in parts:
            for name, stats in p.commands.items():
                into = commands.setdefault(name, {})
                for k, v in stats.items():
                    into[k] = into.get(k, 0.0) + v
        mains = [p.cpu_main_thread_seconds for p in parts]
        return cls(
            rounds=sum(p.rounds for p in parts),
            cpu_seconds=sum(p.cpu_seconds for p in parts),
            cpu_main_thread_seconds=None if None in mains else sum(m or 0.0 for m in mains),
            commands=commands,
            own_info_calls=sum(p.own_info_calls for p in parts),
        )

    @property
    def cpu_us_per_round(self) -> float:
        return self.cpu_seconds / self.rounds * 1e6 if self.rounds else float("nan")

    @property
    def cpu_main_us_per_round(self) -> float | None:
        if self.cpu_main_thread_seconds is None or not self.rounds:
            return None
        return self.cpu_main_thread_seconds / self.rounds * 1e6

    def per_round(self) -> dict[str, float]:
        """Calls per round of every command seen, the benchmark's own INFO taken out."""
        out = {}
        for name, stats in sorted(self.commands.items()):
            calls = stats["calls"] - (self.own_info_calls if name == "info" else 0)
            if calls > 0 and self.rounds:
                out[name] = calls / self.rounds
        return out

    def usec_per_call(self, name: str) -> float:
        stats = self.commands.get(name)
        if not stats or not stats["calls"]:
            return float("nan")
        return stats["usec"] / stats["calls"]


def delta(before: Snapshot, after: Snapshot, rounds: int) -> Delta:
    commands: dict[str, dict[str, float]] = {}
    for name, stats in after.commands.items():
        old = before.commands.get(name, {})
        d = {k: v - old.get(k, 0.0) for k, v in stats.items()}
        if d["calls"] or d["failed_calls"] or d["rejected_calls"]:
            commands[name] = d
    main = None
    if before.cpu_main_thread is not None and after.cpu_main_thread is not None:
        main = after.cpu_main_thread - before.cpu_main_thread
    cpu = (after.cpu_sys + after.cpu_user) - (before.cpu_sys + before.cpu_user)
    return Delta(rounds, cpu, main, commands)


@dataclass
class MonitorSample:
    """Commands seen by MONITOR, by sender: each client connection, and the Lua scripts."""

    by_source: dict[str, Counter[str]] = field(default_factory=dict)
    end_source: str | None = None  # the benchmark's own connection that ended the sample

    def _merged(self, scripts: bool) -> Counter[str]:
        total: Counter[str] = Counter()
        for source, counts in self.by_source.items():
            if source == self.end_source or (source == "lua") != scripts:
                continue
            total.update(counts)
        return total

    @property
    def from_clients(self) -> Counter[str]:
        return self._merged(scripts=False)

    @property
    def from_scripts(self) -> Counter[str]:
        return self._merged(scripts=True)

    def as_json(self, rounds: int) -> dict[str, Any]:
        def per(counter: Counter[str]) -> dict[str, float]:
            return {k: v / rounds for k, v in sorted(counter.items())} if rounds else {}

        clients = [s for s in self.by_source if s not in ("lua", self.end_source)]
        return {
            "rounds": rounds,
            "client_commands_per_round": per(self.from_clients),
            "script_commands_per_round": per(self.from_scripts),
            "client_connections_seen": len(clients),
        }


class Monitor:
    """MONITOR on a raw socket, read by a thread until the end marker comes by."""

    def __init__(self, url: str) -> None:
        parsed = urlparse(url)
        self.url = url
        self.sock = socket.create_connection((parsed.hostname, parsed.port), timeout=30)
        self.sock.sendall(b"MONITOR\r\n")
        self._file = self.sock.makefile("rb")
        if self._file.readline().strip() != b"+OK":
            raise RuntimeError("MONITOR refused")
        self.sample = MonitorSample()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        for raw in self._file:
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            if not line.startswith("+"):
                continue
            open_at, close_at = line.find("["), line.find("]")
            source = line[open_at + 1 : close_at].split(" ", 1)[-1]
            rest = line[close_at + 1 :].lstrip()
            name = rest[1 : rest.find('"', 1)].lower() if rest.startswith('"') else rest
            if name == "echo" and MONITOR_END in rest:
                self.sample.end_source = source
                return
            self.sample.by_source.setdefault(source, Counter())[name] += 1

    def stop(self) -> MonitorSample:
        redis.Redis.from_url(self.url).echo(MONITOR_END)
        self._thread.join(timeout=30)
        self._file.close()
        self.sock.close()
        return self.sample
