"""The Grafana dashboards (dashboards/grafana/dashboards/*.json, written by dashboards/
generate.py): every panel's query is run on a real Prometheus (Debian's) scraping a real
`jackpot serve` and `jackpot worker` fed by `war-floor`, and must return data; no panel may
read a metric the service does not export; the JSON is what the generator writes."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
import yaml  # type: ignore[import-untyped]
from prometheus_client.parser import text_string_to_metric_families

from jackpot.store.embedded import free_port
from tests.support.service import Service, auth, key, running_worker

ROOT = Path(__file__).resolve().parents[2]
DASHBOARDS = ROOT / "dashboards" / "grafana" / "dashboards"
PROMETHEUS = shutil.which("prometheus")

needs_prometheus = pytest.mark.skipif(
    PROMETHEUS is None,
    reason="no prometheus here (./dev test installs Debian's prometheus)",
)

# what Grafana puts in place of its variables when it runs a panel's query
GRAFANA = {
    "$__rate_interval": "1m",
    "$__range": "5m",
    '"$pool"': '".*"',
    '"$table"': '".*"',
}


def dashboards() -> list[dict[str, Any]]:
    return [json.loads(p.read_text()) for p in sorted(DASHBOARDS.glob("*.json"))]


def queries() -> list[tuple[str, str, str]]:
    """(dashboard, panel, expr) for every target of every panel."""
    return [
        (d["title"], p["title"], t["expr"])
        for d in dashboards()
        for p in d["panels"]
        for t in p["targets"]
    ]


def as_grafana_runs_it(expr: str) -> str:
    for variable, value in GRAFANA.items():
        expr = expr.replace(variable, value)
    assert "$" not in expr, f"a variable the test does not know: {expr}"
    return expr


def test_the_dashboards_are_what_the_generator_writes() -> None:
    spec = importlib.util.spec_from_file_location("generate", ROOT / "dashboards" / "generate.py")
    assert spec is not None and spec.loader is not None
    generate = importlib.util.module_from_spec(spec)
    sys.modules["generate"] = generate  # (its dataclasses look their module up)
    spec.loader.exec_module(generate)
    written = {p.name: p.read_text() for p in DASHBOARDS.glob("*.json")}
    assert written == generate.rendered(), "run: python dashboards/generate.py"
    uids = [d["uid"] for d in dashboards()]
    assert len(uids) == len(set(uids)) == 4
    for d in dashboards():
        ids = [p["id"] for p in d["panels"]]
        assert len(ids) == len(set(ids)), d["title"]


def scrapes(target: str, key_file: Path) -> list[dict[str, Any]]:
    """The shipped config's scrape jobs (dashboards/prometheus/prometheus.yml), pointed at
    `target` with the auditor's key in `key_file`."""
    shipped = yaml.safe_load((ROOT / "dashboards" / "prometheus" / "prometheus.yml").read_text())
    jobs = shipped["scrape_configs"]
    for job in jobs:
        job["static_configs"] = [{"targets": [target]}]
        if "authorization" in job:
            job["authorization"]["credentials_file"] = str(key_file)
    return jobs  # type: ignore[no-any-return]


@pytest.fixture
def prometheus(service: Service, tmp_path: Path) -> Iterator[str]:
    """Debian's Prometheus scraping the service every second as the shipped config does
    (/metrics and /metrics/accounting, each with an auditor's key) with the project's alert
    rules."""
    assert PROMETHEUS is not None
    auditor = key(service, "auditor", label="Prometheus")
    (tmp_path / "auditor.key").write_text(auditor)
    target = service.base.split("//", 1)[1]
    config = {
        "global": {"scrape_interval": "1s", "evaluation_interval": "1s"},
        "rule_files": [str(ROOT / "dashboards" / "prometheus" / "alerts.yml")],
        "scrape_configs": scrapes(target, tmp_path / "auditor.key"),
    }
    (tmp_path / "prometheus.yml").write_text(json.dumps(config))  # JSON is YAML
    port = free_port()
    log = open(tmp_path / "prometheus.log", "wb")  # for the server's life
    server = subprocess.Popen(
        [PROMETHEUS, f"--config.file={tmp_path / 'prometheus.yml'}",
         f"--storage.tsdb.path={tmp_path / 'tsdb'}", f"--web.listen-address=127.0.0.1:{port}",
         "--log.level=warn"],
        stdout=log, stderr=log,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if requests.get(f"{base}/-/ready", timeout=2).status_code == 200:
                break
        except requests.ConnectionError:
            pass
        assert server.poll() is None, (tmp_path / "prometheus.log").read_text()
        assert time.monotonic() < deadline, "prometheus never became ready"
        time.sleep(0.2)
    yield base
    server.send_signal(signal.SIGTERM)
    server.wait(timeout=30)
    log.close()


def instant(prometheus: str, expr: str) -> list[Any]:
    r = requests.get(f"{prometheus}/api/v1/query", params={"query": expr}, timeout=10)
    assert r.status_code == 200, (expr, r.text)
    return r.json()["data"]["result"]  # type: ignore[no-any-return]


@needs_prometheus
def test_every_panel_reads_exported_metrics_and_returns_data_from_a_real_prometheus(
    service: Service, prometheus: str, redis_server: Any, tmp_path: Path
) -> None:
    operator = key(service, "operator", label="Dana Reyes")
    tables = key(service, "table", "T1", "T2", "T3")
    env = {**os.environ, "JACKPOT_REDIS_URL": redis_server.url}
    with running_worker(tmp_path, redis_server.url):
        floor = subprocess.run(
            [sys.executable, "-m", "table_adapter.cli", "--controller", service.base,
             "--key", tables, "--operator-key", operator, "--tables", "3", "--rounds", "150",
             "--rate", "25", "--pool", "main", "--table-prefix", "T", "--seed", "7",
             "--data-dir", str(tmp_path / "floor"), "-q"],
            capture_output=True, text=True, timeout=300, env=env,
        )  # fmt: skip
        assert floor.returncode == 0, floor.stdout + floor.stderr
        requests.post(f"{service.base}/v1/rounds", headers=auth(tables), json={"table": "T1"})
        spot = {"spot": 1, "wager": 500, "card": "9s", "war": True, "war_card": "9s"}
        # a jackpot left waiting for its hand pay
        hit: dict[str, Any] = {
            "table": "T1",
            "round": "hit",
            "dealer": {"card": "9s", "war_card": "9s"},
            "spots": [spot],
        }
        won = requests.post(f"{service.base}/v1/rounds", headers=auth(tables), json=hit)
        assert won.status_code == 200 and won.json()["jackpots"], won.text
        # a pool kept off the signs: out of the open /metrics, in the house's Prometheus
        internal = {"reset": 100_000, "rate_bp": 100, "reserve_rate_bp": 0, "public": False}
        requests.put(
            f"{service.base}/v1/pools/house-test", headers=auth(operator), json=internal
        ).raise_for_status()
        # a minute of scrapes is not needed: rates need two samples, so wait for a few
        deadline = time.monotonic() + 60
        while not instant(prometheus, 'count_over_time(jackpot_workers{job="jackpot"}[1m]) >= 4'):
            assert time.monotonic() < deadline, "prometheus did not scrape the service"
            time.sleep(0.5)
        assert "house-test" not in requests.get(f"{service.base}/metrics", timeout=10).text
        deadline = time.monotonic() + 30
        while not instant(prometheus, 'jackpot_pool_value_cents{job="jackpot",pool="house-test"}'):
            assert time.monotonic() < deadline, "the house's scrape does not see every pool"
            time.sleep(0.5)

        # no panel reads a metric the service does not export (with samples, on this floor)
        auditor = key(service, "auditor", label="Grafana check")
        exported: set[str] = set()
        for path, headers in (("/metrics", {}), ("/metrics/accounting", auth(auditor))):
            text = requests.get(f"{service.base}{path}", headers=headers, timeout=10).text
            for family in text_string_to_metric_families(text):
                exported.update(sample.name for sample in family.samples)
        read = {name for _, _, expr in queries() for name in re.findall(r"\bjackpot_\w+", expr)}
        assert not read - exported, f"read by a dashboard, not exported: {read - exported}"

        empty = []
        for dashboard, panel, expr in queries():
            if not instant(prometheus, as_grafana_runs_it(expr)):
                empty.append(f"{dashboard} / {panel}: {expr}")
        assert not empty, "panels without data:\n" + "\n".join(empty)

        for d in dashboards():
            for variable in d["templating"]["list"]:
                metric, label = re.fullmatch(
                    r"label_values\((\w+), (\w+)\)", variable["definition"]
                ).groups()  # type: ignore[union-attr]
                values = requests.get(
                    f"{prometheus}/api/v1/label/{label}/values",
                    params={"match[]": metric},
                    timeout=10,
                ).json()["data"]
                assert values, f"{d['title']}: the variable {variable['name']} has no values"
