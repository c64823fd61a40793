"""`jackpot worker` runs the accounting reports the API queues."""

from __future__ import annotations

import os
import random
from pathlib import Path

from tests.support.api import Api
from tests.support.model import random_round
from tests.support.service import jackpot


def test_the_worker_reconciles_a_pool_from_its_journal(
    linked: Api, redis_server: object, tmp_path: Path
) -> None:
    adjust = linked.client.post(
        "/v1/pools/main/adjustments",
        headers=linked.keys.header("operator"),
        json={"id": "adj-1", "amount": -250, "units": -5, "reason": "correction"},
    )
    assert adjust.status_code == 200, adjust.get_json()
    rng = random.Random(3)
    for n in range(60):
        assert linked.report(random_round(rng, "T1", f"w{n}", tie_bias=0.3)).status_code == 200
    hit = {
        "table": "T1",
        "round": "jackpot",
        "dealer": {"card": "9s", "war_card": "9s"},
        "spots": [{"spot": 1, "wager": 500, "card": "9s", "war": True, "war_card": "9s"}],
    }
    assert linked.report(hit).get_json()["jackpots"]

    queued = linked.client.post(
        "/v1/reports/reconcile", json={"pool": "main"}, headers=linked.keys.header("auditor")
    )
    assert queued.status_code == 202, queued.get_json()
    report_id = queued.get_json()["id"]
    pending = linked.client.get(f"/v1/reports/{report_id}", headers=linked.keys.header("auditor"))
    assert pending.get_json()["status"] == "queued"

    env = {**os.environ, "JACKPOT_REDIS_URL": redis_server.url}  # type: ignore[attr-defined]
    done = jackpot("worker", "--burst", cwd=tmp_path, env=env, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr

    report = linked.client.get(
        f"/v1/reports/{report_id}", headers=linked.keys.header("auditor")
    ).get_json()
    assert report["status"] == "finished", report
    result = report["result"]
    meters = linked.meters()
    assert result["balanced"] is True
    assert result["opening_units"] == 100_000 * 10_000
    assert result["closing_units"] == meters["value_units"] + meters["reserve_units"]
    assert result["adjustments_units"] == -2_500_005
    assert result["hits"] == 1 and result["pays"] == meters["won"]
    assert result["seed_units"] == meters["seed_funding_units"]
    assert result["rounds"] == len([e for e in linked.journal() if e["type"] == "contribution"])
