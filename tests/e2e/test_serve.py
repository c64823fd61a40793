"""`jackpot serve` under gunicorn: real HTTP, several workers, metrics, a clean stop."""

from __future__ import annotations

import os
import re
import signal
import time
from pathlib import Path
from typing import Any

import requests
from prometheus_client.parser import text_string_to_metric_families

from tests.support.service import Service, auth, jackpot, key, link_main, start_service


def metric(text: str, name: str, labels: str = "") -> float:
    pattern = rf"^{re.escape(name)}{re.escape(labels)} (\S+)$"
    found = re.findall(pattern, text, flags=re.M)
    assert found, f"{name}{labels} not in /metrics"
    return float(found[0])


def test_rounds_settle_over_http_and_metrics_agree_across_workers(service: Service) -> None:
    operator, table = key(service, "operator"), key(service, "table", "T1")
    s = requests.Session()
    r = s.put(
        f"{service.base}/v1/pools/main",
        headers=auth(operator),
        json={"reset": 100_000, "rate_bp": 100, "reserve_rate_bp": 0},
    )
    assert r.status_code == 201
    assert (
        s.put(
            f"{service.base}/v1/tables/T1", headers=auth(operator), json={"pools": ["main"]}
        ).status_code
        == 201
    )
    rounds = 40
    for n in range(rounds):
        body = {
            "table": "T1",
            "round": f"r{n}",
            "dealer": {"card": "Kd"},
            "spots": [
                {"spot": 1, "wager": 500, "card": "2c"},
                {"spot": 2, "wager": 500, "card": "Kd", "player": "p2"},
            ],
        }
        # a fresh connection each time spreads the rounds over both workers
        r = requests.post(f"{service.base}/v1/rounds", json=body, headers=auth(table))
        assert r.status_code == 200, r.text
        assert r.json()["spots"][1]["outcome"] == "suited_tie"
    value = s.get(f"{service.base}/v1/pools/main").json()["value"]
    assert value == 100_000 + rounds * 10  # 1,000 cents a round at 1%

    text = s.get(f"{service.base}/metrics").text
    assert metric(text, "jackpot_rounds_total") == rounds
    assert metric(text, "jackpot_pool_value_cents", '{pool="main"}') == value
    assert metric(text, "jackpot_bets_total", '{outcome="suited_tie"}') == rounds
    assert metric(text, "jackpot_paid_cents_total", '{kind="fixed"}') == rounds * 7_500
    assert metric(text, "jackpot_store_up") == 1
    assert "# TYPE jackpot_http_request_duration_seconds histogram" in text

    assert service.stop() == 0


def test_the_embedded_store_is_shared_and_survives_a_restart(tmp_path: Path) -> None:
    first = start_service(tmp_path)
    try:
        operator = key(first, "operator")  # attaches to the store `serve` started
        r = requests.put(
            f"{first.base}/v1/pools/main",
            headers=auth(operator),
            json={"reset": 123_456, "rate_bp": 100, "reserve_rate_bp": 0},
        )
        assert r.status_code == 201
    finally:
        assert first.stop() == 0
    assert not (tmp_path / "var" / "redis.json").exists(), "the store stops with its owner"

    second = start_service(tmp_path)
    try:
        pool = requests.get(f"{second.base}/v1/pools/main").json()
        assert pool["value"] == 123_456
        # the key made while the first service ran still works
        r = requests.put(
            f"{second.base}/v1/pools/main",
            headers=auth(operator),
            json={"reset": 123_456, "rate_bp": 100, "reserve_rate_bp": 0},
        )
        assert r.status_code == 200
        assert r.json()["status"] == "unchanged"
    finally:
        second.stop()
    assert (tmp_path / "var").is_dir()


def test_keys_create_prints_the_key_alone_on_the_last_line(tmp_path: Path) -> None:
    import os

    env = {**os.environ}
    env.pop("JACKPOT_REDIS_URL", None)
    done = jackpot(
        "keys", "create", "--role", "table", "--table", "T1", "--table", "T2", cwd=tmp_path, env=env
    )
    assert done.returncode == 0, done.stderr
    last = done.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"jpk_[A-Za-z0-9_-]{43}", last)
    listing = jackpot("keys", "list", cwd=tmp_path, env=env).stdout
    assert "table" in listing and "T1,T2" in listing and last not in listing
    refused = jackpot(
        "keys", "create", "--role", "operator", "--table", "T1", "--person", "E1042",
        cwd=tmp_path, env=env,
    )  # fmt: skip
    assert refused.returncode == 2
    # a person's key is issued to a person of the register
    nameless = jackpot("keys", "create", "--role", "operator", cwd=tmp_path, env=env)
    assert nameless.returncode == 2 and "--person" in nameless.stderr
    assert "operator" not in jackpot("keys", "list", cwd=tmp_path, env=env).stdout


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def _samples(service: Service) -> dict[str, list[Any]]:
    text = requests.get(f"{service.base}/metrics", timeout=10).text
    out: dict[str, list[Any]] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out.setdefault(sample.name, []).append(sample)
    return out


def test_a_killed_worker_leaves_the_totals_right(service: Service) -> None:
    """gunicorn replaces a worker killed mid-life: its counts stay in the totals (not lost,
    not doubled) and its live gauges leave with it."""
    operator = key(service, "operator", label="Dana Reyes")
    table = key(service, "table", "T1")
    link_main(service, operator)

    def play(n: int, tag: str) -> None:
        for i in range(n):
            body: dict[str, Any] = {"table": "T1", "round": f"{tag}{i}", "dealer": {"card": "4c"},
                    "spots": [{"spot": 1, "wager": 2500, "card": "9d"}]}  # fmt: skip
            r = requests.post(f"{service.base}/v1/rounds", headers=auth(table), json=body)
            assert r.status_code == 200, r.text

    play(20, "a")
    assert _samples(service)["jackpot_rounds_total"][0].value == 20
    (master,) = _children(service.process.pid)
    workers = _children(master)
    assert len(workers) == 2
    os.kill(workers[0], signal.SIGKILL)
    deadline = time.monotonic() + 30
    while sorted(_children(master)) == sorted(workers) or len(_children(master)) < 2:
        assert time.monotonic() < deadline, "gunicorn did not replace the worker"
        time.sleep(0.2)
    after = _samples(service)
    assert after["jackpot_rounds_total"][0].value == 20, "the killed worker's rounds are kept"
    assert len(after["jackpot_build_info"]) == 1 and after["jackpot_build_info"][0].value == 1
    play(5, "b")
    assert _samples(service)["jackpot_rounds_total"][0].value == 25


def test_every_process_closes_days_by_the_controllers_gaming_day(
    tmp_path: Path, redis_server: Any, redis: Any
) -> None:
    """`jackpot accounting gaming-day` shows and changes the controller's gaming day;
    `jackpot serve` told another refuses to start, naming both; told nothing, it serves the
    controller's."""
    env = {**os.environ, "JACKPOT_REDIS_URL": redis_server.url, "JACKPOT_TIME_ZONE": "UTC"}
    shown = jackpot("accounting", "gaming-day", cwd=tmp_path, env=env)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.strip() == "gaming days start at 06:00 UTC"
    nameless = jackpot(
        "accounting", "gaming-day", "--start", "05:00", "--zone", "America/Chicago",
        cwd=tmp_path, env=env,
    )  # fmt: skip
    assert nameless.returncode == 2 and "--reason" in nameless.stderr
    changed = jackpot(
        "accounting", "gaming-day", "--start", "05:00", "--zone", "America/Chicago",
        "--reason", "the casino's own zone", cwd=tmp_path, env=env,
    )  # fmt: skip
    assert changed.returncode == 0, changed.stderr
    assert changed.stdout.splitlines() == [
        "was: gaming days start at 06:00 UTC",
        "gaming days start at 05:00 America/Chicago",
    ]

    told = {**env, "JACKPOT_GAMING_DAY_START": "07:00", "JACKPOT_BIND": "127.0.0.1:1"}
    refused = jackpot("serve", cwd=tmp_path, env=told, timeout=60)
    assert refused.returncode == 2
    assert "JACKPOT_GAMING_DAY_START=07:00" in refused.stderr
    assert "JACKPOT_TIME_ZONE=UTC" in refused.stderr
    assert "starts at 05:00 America/Chicago" in refused.stderr

    service = start_service(tmp_path, {"JACKPOT_REDIS_URL": redis_server.url})
    try:
        operator = key(service, "operator")
        session = requests.get(f"{service.base}/v1/session", headers=auth(operator)).json()
        assert (session["gaming_day_start"], session["time_zone"]) == ("05:00", "America/Chicago")
    finally:
        assert service.stop() == 0
