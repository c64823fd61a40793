"""The alert rules (dashboards/prometheus/alerts.yml): valid for Prometheus, each one unit
tested by promtool quiet and firing, each with a runbook in docs/OPERATIONS.md, and every
metric they read exported, with samples, by a real `jackpot serve` and `jackpot worker`."""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
import requests
import yaml  # type: ignore[import-untyped]
from prometheus_client.parser import text_string_to_metric_families

from tests.support.service import Service, auth, key, link_main, running_worker

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "dashboards" / "prometheus" / "alerts.yml"
RULE_TESTS = ROOT / "dashboards" / "prometheus" / "alerts.test.yml"
PROMTOOL = shutil.which("promtool")

needs_promtool = pytest.mark.skipif(
    PROMTOOL is None,
    reason="no promtool here (./dev test installs Debian's prometheus)",
)


def alerts() -> list[dict[str, Any]]:
    groups = yaml.safe_load(RULES.read_text())["groups"]
    return [rule for group in groups for rule in group["rules"] if "alert" in rule]


def metric_names(expr: str) -> set[str]:
    return set(re.findall(r"\bjackpot_[a-z0-9_]+", expr))


@needs_promtool
def test_the_rules_are_valid_and_their_unit_tests_pass() -> None:
    assert PROMTOOL is not None
    checked = subprocess.run(
        [PROMTOOL, "check", "rules", str(RULES)], capture_output=True, text=True, timeout=60
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    tested = subprocess.run(
        [PROMTOOL, "test", "rules", RULE_TESTS.name],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=RULE_TESTS.parent,
    )
    assert tested.returncode == 0, tested.stdout + tested.stderr
    assert "SUCCESS" in tested.stdout


def test_every_alert_is_tested_firing_and_quiet_and_has_a_runbook() -> None:
    tests = yaml.safe_load(RULE_TESTS.read_text())["tests"]
    cases = [case for test in tests for case in test.get("alert_rule_test", [])]
    runbook = (ROOT / "docs" / "OPERATIONS.md").read_text()
    for rule in alerts():
        name = rule["alert"]
        mine = [case for case in cases if case["alertname"] == name]
        assert any(case["exp_alerts"] for case in mine), f"{name}: never tested firing"
        assert any(not case["exp_alerts"] for case in mine), f"{name}: never tested quiet"
        assert rule["annotations"]["summary"], name
        assert rule["annotations"]["runbook"] == f"docs/OPERATIONS.md#{name.lower()}"
        assert f"\n### {name}\n" in runbook, f"{name}: no runbook section in docs/OPERATIONS.md"


def test_every_metric_the_alerts_read_is_exported_by_the_service(
    service: Service, redis_server: Any, tmp_path: Path
) -> None:
    """A rule whose metric is gone would never fire: each one must have samples on /metrics
    of a floor with a capped pool, a table, a pending jackpot and a worker."""
    operator = key(service, "operator", label="Dana Reyes")
    table = key(service, "table", "T1")
    base = service.base
    link_main(service, operator, cap=10_000_000)
    spot = {"spot": 1, "wager": 500, "card": "9s", "war": True, "war_card": "9s"}
    dealer = {"card": "9s", "war_card": "9s"}
    hit: dict[str, Any] = {"table": "T1", "round": "r1", "dealer": dealer, "spots": [spot]}
    answer = requests.post(f"{base}/v1/rounds", headers=auth(table), json=hit)
    assert answer.status_code == 200 and answer.json()["jackpots"], answer.text
    requests.post(f"{base}/v1/rounds", headers=auth(table), json={"table": "T1"})  # a refusal

    with running_worker(tmp_path, redis_server.url):
        deadline = time.monotonic() + 30
        while True:
            text = requests.get(f"{base}/metrics", timeout=10).text
            samples = {
                sample.name: sample
                for family in text_string_to_metric_families(text)
                for sample in family.samples
            }
            if samples.get("jackpot_workers") and samples["jackpot_workers"].value >= 1:
                break
            assert time.monotonic() < deadline, "the worker never showed on /metrics"
            time.sleep(0.5)

    used = set().union(*(metric_names(rule["expr"]) for rule in alerts()))
    assert used, "the rules read no jackpot metric?"
    missing = sorted(name for name in used if name not in samples)
    assert not missing, f"read by alerts.yml, not on /metrics: {missing}"
    assert samples["jackpot_store_durability_info"].labels == {
        "appendonly": "yes",
        "appendfsync": "always",
        "maxmemory_policy": "noeviction",
    }
    assert samples["jackpot_store_wait_replicas"].value == 0  # the store's fsync alone
    assert samples["jackpot_store_replicas"].value == 0
    assert samples["jackpot_pool_cap_cents"].value == 10_000_000
    assert samples["jackpot_payouts_oldest_pending_timestamp_seconds"].value > 0
    assert samples["jackpot_build_info"].labels["version"]
    refusals = [
        s
        for f in text_string_to_metric_families(text)
        for s in f.samples
        if s.name == "jackpot_refusals_total"
    ]
    assert any(s.labels["status"] == "400" for s in refusals), refusals
