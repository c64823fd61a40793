"""The table adapter end to end: `jackpot serve` over a real redis-server, stopped mid-run and
restarted; `war-floor` killed and restarted. The controller's meters and journal must equal a
model of every round dealt — none lost, none doubled."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import requests

from jackpot.domain.config import PoolConfig, TableConfig
from jackpot.store.embedded import free_port
from table_adapter.floor.plan import FLOOR_POOL, FloorPlan
from table_adapter.floor.simulator import Floor, FloorOptions
from table_adapter.link.backoff import Backoff
from table_adapter.link.journal import Entry, Journal, State
from table_adapter.link.status import LinkSettings
from tests.support import service as service_module
from tests.support.floorbooks import assert_house_equals_tally
from tests.support.model import MeterModel
from tests.support.service import Service, auth, key, start_service


def wait_for(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def same_address(monkeypatch: pytest.MonkeyPatch) -> int:
    """Make every start_service() bind one port, so a restarted service is where tables look."""
    port = free_port()
    monkeypatch.setattr(service_module, "free_port", lambda: port)
    return port


def provision(base: str, operator: str, plan: FloorPlan) -> None:
    r = requests.put(f"{base}/v1/pools/{plan.pool_id}", json=FLOOR_POOL, headers=auth(operator))
    assert r.status_code == 201, r.text
    for table in plan.table_ids:
        r = requests.put(
            f"{base}/v1/tables/{table}", json=plan.table_config(), headers=auth(operator)
        )
        assert r.status_code == 201, r.text


def controller_rounds(base: str, auditor: str) -> list[tuple[str, str]]:
    """(table, round) of every settled round in the house journal, in the controller's order."""
    out: list[tuple[str, str]] = []
    after = 0
    while True:
        r = requests.get(
            f"{base}/v1/journal", params={"after": after, "limit": 1000}, headers=auth(auditor)
        )
        assert r.status_code == 200, r.text
        entries = r.json()["entries"]
        out += [(e["table"], e["round"]) for e in entries if e["type"] == "round"]
        if len(entries) < 1000:
            return out
        after = entries[-1]["seq"]


def assert_controller_equals_the_model(
    base: str, auditor: str, plan: FloorPlan, entries: list[Entry]
) -> None:
    """Every journaled round settled once, in each table's order; meters equal the model."""
    assert entries and all(e.state is State.ACKED for e in entries)
    bodies = {(e.table, e.round): json.loads(e.body) for e in entries}
    settled = controller_rounds(base, auditor)
    assert len(settled) == len(set(settled)), "a round was settled twice"
    assert set(settled) == set(bodies), "a dealt round is missing at the controller"
    for table in plan.table_ids:
        assert [r for t, r in settled if t == table] == [
            e.round for e in entries if e.table == table
        ]
    model = MeterModel()
    model.add_pool(plan.pool_id, PoolConfig.from_json(FLOOR_POOL))
    config = TableConfig.from_json(plan.table_config())
    for round_key in settled:
        model.apply(bodies[round_key], config)
    expected = model.pools[plan.pool_id]
    meters = requests.get(f"{base}/v1/pools/{plan.pool_id}/meters", headers=auth(auditor)).json()
    assert meters["invariant_holds"] is True
    assert {k: meters[k] for k in METERS} == {k: getattr(expected, METERS[k]) for k in METERS}


METERS = {
    "value_units": "value_units",
    "reserve_units": "reserve_units",
    "wagered": "wagered",
    "bets": "bets",
    "hits": "hits",
    "won": "won",
    "contributions_units": "contributions_units",
    "overflow_units": "overflow_units",
    "seed_funding_units": "seed_units",
}


def wagerless(entries: list[Entry]) -> int:
    def has_wager(body: dict[str, Any]) -> bool:
        return any(s.get("wager") or s.get("bets") for s in body["spots"])

    return sum(not has_wager(json.loads(e.body)) for e in entries)


@pytest.mark.slow
def test_the_floor_rides_out_a_controller_outage_with_nothing_lost_or_doubled(
    tmp_path: Path, redis_server: Any, redis: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    same_address(monkeypatch)
    store = {"JACKPOT_REDIS_URL": redis_server.url}
    service: Service = start_service(tmp_path, store)
    plan = FloorPlan(
        tables=3,
        rounds=None,
        profile="massachusetts",
        strategy="mix",
        seed=21,
        rate=30.0,
        pool="outage",
        table_prefix="OUT-",
    )
    options = FloorOptions(
        link=LinkSettings(
            grace_seconds=0.5,
            heartbeat_seconds=0.5,
            hold_seconds=1.0,
            answer_wait_seconds=2.0,
            backoff=Backoff(0.05, 0.5),
        ),
        timeout=2.0,
        drain_seconds=60.0,
    )
    path = tmp_path / "adapter" / "journal.sqlite"
    try:
        operator, auditor = key(service, "operator"), key(service, "auditor")
        provision(service.base, operator, plan)
        floor = Floor(plan, service.base, key(service, "table", *plan.table_ids), path, options)
        floor.start()
        try:
            wait_for(lambda: sum(s.acked for s in floor.statuses()) >= 45, 30, "45 answers")

            assert service.stop() == 0  # SIGTERM mid-run; the tables keep dealing
            dealt_at_stop = floor.tally.rounds
            wait_for(
                lambda: (
                    not any(s.side_bets_open for s in floor.statuses())
                    and floor.tally.rounds >= dealt_at_stop + 45
                ),
                30,
                "side bets closed at every table and rounds dealt during the outage",
            )
            backlog = sum(s.pending for s in floor.statuses())
            assert backlog >= 40
            assert {s.state.value for s in floor.statuses()} == {"down"}

            service = start_service(tmp_path, store)  # same port, same store
            dealt_at_restart = floor.tally.rounds
            wait_for(
                lambda: (
                    all(s.side_bets_open for s in floor.statuses())
                    and floor.tally.rounds >= dealt_at_restart + 30
                ),
                60,
                "the backlog delivered and side bets reopened",
            )
        finally:
            floor.stop_event.set()
            floor.drain(60)
            result = floor.finish()
        summary = result.summary()
        assert result.ok, summary
        assert summary["pending"] == summary["rejected"] == 0
        assert summary["retries"] > 0 and summary["closed_rounds"] > 0
        assert sum(summary["outcomes"].values()) == summary["side_bets"]
        with Journal(path) as journal:
            entries = journal.entries()
        assert len(entries) == summary["rounds"] == summary["acked"]
        assert wagerless(entries) >= summary["closed_rounds"]
        assert_controller_equals_the_model(service.base, auditor, plan, entries)
        value = requests.get(f"{service.base}/v1/pools/outage").json()["value"]
        assert summary["pools"] == {"outage": {"value": value}}
    finally:
        service.halt()


def war_floor(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "table_adapter.cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def last_json(done: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


@pytest.mark.slow
def test_a_killed_war_floor_replays_its_journal_exactly_once(
    tmp_path: Path, redis_server: Any, redis: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    same_address(monkeypatch)
    store = {"JACKPOT_REDIS_URL": redis_server.url}
    service = start_service(tmp_path, store)
    plan = FloorPlan(tables=2, rounds=None, pool="kill", table_prefix="KILL-")
    data = tmp_path / "floor"
    path = data / "adapter" / "journal.sqlite"
    try:
        operator, auditor = key(service, "operator"), key(service, "auditor")
        table_key = key(service, "table", *plan.table_ids)
        common = [
            "--controller",
            service.base,
            "--key",
            table_key,
            "--tables",
            "2",
            "--pool",
            "kill",
            "--table-prefix",
            "KILL-",
            "--data-dir",
            str(data),
            "--grace",
            "0.3",
            "--retry-cap",
            "0.3",
            "--timeout",
            "2",
            "--json",
            "-q",
        ]

        # 1. SIGKILL while the controller answers: at most a round in flight per table.
        with open(tmp_path / "first.log", "wb") as log:
            first = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "table_adapter.cli",
                    *common,
                    "--rounds",
                    "100000",
                    "--seed",
                    "1",
                    "--operator-key",
                    operator,
                ],
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
            try:
                wait_for(lambda: _journaled(path) >= 60, 60, "60 rounds journaled")
            finally:
                os.kill(first.pid, signal.SIGKILL)
                first.wait()

        # 2. The controller goes away; a new run deals on, keeps everything, exits 1.
        assert service.stop() == 0
        cut_off = war_floor(
            *common, "--rounds", "15", "--rate", "20", "--seed", "2", "--drain-timeout", "1"
        )
        assert cut_off.returncode == 1, cut_off.stderr
        outage = last_json(cut_off)
        assert outage["rounds"] == 30 and outage["acked"] == 0
        assert outage["pending"] >= 30 and outage["closed_rounds"] > 0
        assert not outage["ok"]

        # 3. The controller is back; the next run delivers the backlog first, then deals.
        service = start_service(tmp_path, store)
        back = war_floor(*common, "--rounds", "5", "--seed", "3")
        assert back.returncode == 0, back.stderr
        recovered = last_json(back)
        assert recovered["recovered"] == outage["pending"]
        assert recovered["pending"] == recovered["rejected"] == 0
        assert recovered["acked"] == outage["pending"] + 10

        with Journal(path) as journal:
            entries = journal.entries()
        assert len(entries) == _journaled(path)
        assert_controller_equals_the_model(service.base, auditor, plan, entries)
    finally:
        service.halt()


def _journaled(path: Path) -> int:
    if not path.exists():
        return 0
    with Journal(path) as journal:
        counts = journal.counts()
    return counts.pending + counts.acked + counts.rejected


@pytest.mark.slow
def test_war_floor_runs_its_own_controller_and_prints_a_json_summary(tmp_path: Path) -> None:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("JACKPOT_REDIS_URL", "JACKPOT_DATA_DIR", "PROMETHEUS_MULTIPROC_DIR")
    }
    argv = [
        sys.executable,
        "-m",
        "table_adapter.cli",
        "--tables",
        "2",
        "--rounds",
        "25",
        "--seed",
        "1",
        "--strategy",
        "surrender",
        "--json",
    ]
    runs = [
        subprocess.run(
            argv, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=180, check=False
        )
        for _ in range(2)
    ]
    for done in runs:
        assert done.returncode == 0, done.stderr
    first, second = (last_json(done) for done in runs)
    assert first["rounds"] == 50 and first["acked"] == 50 and first["ok"]
    assert sum(first["outcomes"].values()) == first["side_bets"]
    assert first["outcomes"]["double_tie"] == first["outcomes"]["four_of_a_kind"] == 0
    pool = "standard-6d"
    assert first["pools"][pool]["value"] == 100_000 + first["handle"] * 500 // 10_000
    # the second run continues the same meter (the store lives under ./var)
    assert second["pools"][pool]["value"] == (
        100_000 + (first["handle"] + second["handle"]) * 500 // 10_000
    )
    assert (tmp_path / "var" / "adapter" / "journal.sqlite").exists()

    port, signs_port = free_port(), free_port()
    demo = subprocess.run(
        [
            sys.executable,
            "-m",
            "table_adapter.cli",
            "demo",
            "--tables",
            "2",
            "--rounds",
            "3",
            "--rate",
            "50",
        ],
        cwd=tmp_path,
        env={
            **env,
            "JACKPOT_BIND": f"127.0.0.1:{port}",
            "JACKPOT_SIGNS_BIND": f"127.0.0.1:{signs_port}",
        },
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert demo.returncode == 0, demo.stderr
    # not a terminal: plain lines, no escape codes
    assert "\x1b" not in demo.stdout and "\r" not in demo.stdout
    lines = demo.stdout.splitlines()
    assert (
        f"war-floor DEMO: sign http://127.0.0.1:{signs_port}/signs/DEMO · console "
        f"http://127.0.0.1:{port}/console with the key in var/console.key · Ctrl-C stops"
    ) in lines
    assert not (tmp_path / "var" / "console.key").exists(), "the console key ends with the demo"
    assert "DEMO paytable: four of a kind or better wins the whole meter" in lines
    assert any(" 6/6 rounds " in line and "DEMO-main $" in line for line in lines)
    assert "war-floor demo: 6 rounds," in demo.stdout


@pytest.mark.slow
def test_war_floor_with_irregularities_keeps_a_live_controllers_books_to_the_cent(
    tmp_path: Path, redis_server: Any, redis: Any
) -> None:
    # Stadium: malfunctions found after the report are voided at the controller by the
    # tables' durable voids; a person approves them; the books equal the run's summary
    service = start_service(tmp_path, {"JACKPOT_REDIS_URL": redis_server.url})
    try:
        operator, auditor = key(service, "operator"), key(service, "auditor")
        plan = FloorPlan(tables=2, rounds=40, profile="stadium", pool="irr", table_prefix="IRR-")
        provision(service.base, operator, plan)
        done = war_floor(
            *("--controller", service.base, "--key", key(service, "table", *plan.table_ids)),
            *("--tables", "2", "--rounds", "40", "--profile", "stadium", "--seed", "4"),
            *("--pool", "irr", "--table-prefix", "IRR-", "--data-dir", str(tmp_path / "floor")),
            *("--shuffler", "batch", "--face-up-rate", "0.02", "--irregularities", "0.3"),
            "--json",
        )
        assert done.returncode == 0, done.stderr
        summary = last_json(done)
        assert summary["ok"] and summary["rounds"] == 80, summary
        voided = summary["voided_at_controller"]["rounds"]
        assert voided > 0 and summary["voids"]["malfunction"] >= voided
        with Journal(tmp_path / "floor" / "adapter" / "journal.sqlite") as journal:
            asked = [e for e in journal.entries() if e.void_of is not None]
            assert len(journal.irregularities()) == sum(summary["irregularities"].values())
        assert len(asked) == voided
        for e in asked:
            assert json.loads(e.answer or "")["result"] == "awaiting_approval"
            r = requests.post(
                f"{service.base}/v1/rounds/{e.table}/{e.void_of}/void/approve",
                headers=auth(operator),
            )
            assert r.status_code == 200, r.text
        group = requests.get(f"{service.base}/v1/pools/irr/meters", headers=auth(auditor)).json()[
            "group"
        ]
        house = requests.get(
            f"{service.base}/v1/journal",
            params={"group": group, "limit": 5000},
            headers=auth(auditor),
        ).json()["entries"]
        assert_house_equals_tally(house, summary)
    finally:
        service.halt()
