"""The controller checks itself (New York 5321.18(b)(2)-(3)): a tampered script file, a store
without its append-only file, and a meter edited behind the controller's back each make the
real `jackpot serve` inoperable, with the right reason on /readyz, 503 for rounds, the side bet
closed, the signs closed, a metric and a journal entry; and only fixing the cause clears it.
"""

from __future__ import annotations

import importlib.machinery
import json
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis as redis_lib
import requests

from jackpot import integrity
from jackpot.store.embedded import free_port, server_args, wait_ready
from jackpot.store.keys import Keys
from tests.support.redis_server import RedisServer
from tests.support.service import Service, auth, key, link_main, start_service

BODY = {
    "table": "T1",
    "dealer": {"card": "4c"},
    "spots": [{"spot": 1, "wager": 2500, "card": "9d"}],
}


def linked_floor(service: Service) -> tuple[str, str, str]:
    """Pool main fed by T1; the operator's, the table's and an auditor's keys."""
    operator = key(service, "operator")
    link_main(service, operator)
    return operator, key(service, "table", "T1"), key(service, "auditor")


def play(service: Service, table: str, round_id: str) -> requests.Response:
    return requests.post(
        f"{service.base}/v1/rounds", json={**BODY, "round": round_id}, headers=auth(table)
    )


def ready(service: Service) -> tuple[int, dict[str, Any]]:
    r = requests.get(f"{service.base}/readyz", timeout=10)
    return r.status_code, r.json()


def until_ready(service: Service, want: int, seconds: float = 15.0) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        status, body = ready(service)
        if status == want:
            return body
        assert time.monotonic() < deadline, body
        time.sleep(0.2)


def until_settled(service: Service, table: str, round_id: str, seconds: float = 5.0) -> None:
    """Each worker finds the fix on its own, at most a second after its last look."""
    deadline = time.monotonic() + seconds
    while (r := play(service, table, round_id)).status_code != 200:
        assert r.json()["error"]["code"] == "controller_inoperable", r.text
        assert time.monotonic() < deadline, r.text
        time.sleep(0.2)


def codes(body: dict[str, Any]) -> set[str]:
    return {p["code"] for p in body["problems"]}


def journal_types(service: Service, auditor: str) -> list[dict[str, Any]]:
    r = requests.get(f"{service.base}/v1/journal?limit=1000", headers=auth(auditor))
    r.raise_for_status()
    return [e for e in r.json()["entries"] if str(e["type"]).startswith("controller_")]


def meters(service: Service, operator: str) -> dict[str, Any]:
    r = requests.get(f"{service.base}/v1/pools/main/meters", headers=auth(operator))
    r.raise_for_status()
    return r.json()  # type: ignore[no-any-return]


def first_state(signs: Service, sign: str) -> dict[str, Any]:
    """The state a new stream of the sign's starts with, as its screen is sent it."""
    with requests.get(f"{signs.base}/signs/{sign}/stream", stream=True, timeout=10) as r:
        kind = ""
        for line in r.iter_lines(decode_unicode=True):
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: ") and kind == "state":
                return json.loads(line[6:])  # type: ignore[no-any-return]
    raise AssertionError("no state event")


def shows_closed(signs: Service, sign: str, why: str, seconds: float = 10.0) -> bool:
    """Whether the sign's first level comes to show it closed for `why` within `seconds`
    (the sign process reads the store every second): asked of a new stream each time."""
    deadline = time.monotonic() + seconds
    while (shown := first_state(signs, sign)["levels"][0]["closed"]) != why:
        if time.monotonic() > deadline:
            raise AssertionError(f"the sign shows closed={shown!r}, not {why!r}")
        time.sleep(0.2)
    return True


def metric(service: Service, name: str) -> str:
    text = requests.get(f"{service.base}/metrics", timeout=10).text
    return "\n".join(line for line in text.splitlines() if line.startswith(name))


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RedisServer]:
    (tmp_path / "redis").mkdir()
    server = RedisServer(tmp_path / "redis", free_port())
    server.start()
    yield server
    server.stop()


def sealed_build(tmp_path: Path) -> Path:
    """A sealed copy of the controller's package, under the returned directory."""
    build = tmp_path / "build"
    shutil.copytree(
        integrity.package_root(), build / "jackpot", ignore=shutil.ignore_patterns("__pycache__")
    )
    integrity.seal(build / "jackpot")
    return build


def test_a_tampered_script_file_makes_the_controller_inoperable(
    tmp_path: Path, store: RedisServer
) -> None:
    # a build of the controller, sealed, then one of its Lua scripts edited on disk
    build = sealed_build(tmp_path)
    script = build / "jackpot" / "store" / "lua" / "settle_round.lua"
    original = script.read_text()
    script.write_text(original.replace("local UNIT = 10000", "local UNIT = 10001"))
    env = {"JACKPOT_REDIS_URL": store.url, "PYTHONPATH": str(build)}

    service = start_service(tmp_path, env)
    try:
        operator, table, auditor = linked_floor(service)
        status, body = ready(service)
        assert status == 503 and body["status"] == "inoperable"
        assert codes(body) == {"software_unverified"}
        assert any("store/lua/settle_round.lua changed" in p["message"] for p in body["problems"])
        assert body["software"]["authentic"] is False
        refused = play(service, table, "R1")
        assert refused.status_code == 503
        assert refused.json()["error"]["code"] == "controller_inoperable"
        assert "settle_round.lua" in refused.json()["error"]["message"]
        assert refused.headers["Retry-After"] == "10"
        beat = requests.post(f"{service.base}/v1/tables/T1/heartbeat", headers=auth(table))
        assert beat.json()["controller"] == "inoperable"
        assert beat.json()["side_bet_open"] is False
        assert metric(service, "jackpot_controller_operable ") == "jackpot_controller_operable 0.0"
        assert 'code="software_unverified"' in metric(service, "jackpot_controller_problem")
        entries = journal_types(service, auditor)
        assert entries and entries[-1]["type"] == "controller_inoperable"
        assert entries[-1]["scope"].startswith("software@")
        # nothing was settled
        assert meters(service, operator)["bets"] == 0
        # a sign process run from the same build shows the progressive closed
        requests.put(
            f"{service.base}/v1/signs/lobby",
            headers=auth(operator),
            json={"levels": [{"pool": "main", "name": "Major"}]},
        ).raise_for_status()
        signs = start_service(tmp_path, env, command="signs")
        try:
            assert shows_closed(signs, "lobby", "controller inoperable")
        finally:
            signs.stop()
    finally:
        service.stop()

    # restarting is not enough: the file is still not the build's
    service = start_service(tmp_path, env)
    try:
        assert ready(service)[0] == 503
    finally:
        service.stop()

    # the build's own file back: the controller operates, and says so in the journal
    script.write_text(original)
    service = start_service(tmp_path, env)
    try:
        status, body = ready(service)
        assert status == 200 and body["status"] == "ready", body
        assert body["software"]["digest"] == integrity.measure(build / "jackpot").digest
        assert body["software"]["digest"] in metric(service, "jackpot_build_info")
        table = key(service, "table", "T1")
        assert play(service, table, "R1").status_code == 200
        auditor = key(service, "auditor")
        assert [e["type"] for e in journal_types(service, auditor)][-1] == "controller_operable"
    finally:
        service.halt()


def test_a_store_without_its_append_only_file_makes_the_controller_inoperable(
    tmp_path: Path,
) -> None:
    data = tmp_path / "redis"
    data.mkdir()
    port = free_port()
    args = server_args(data, port)
    args[args.index("--appendonly") + 1] = "no"
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    wait_ready(url)
    service = start_service(
        tmp_path, {"JACKPOT_REDIS_URL": url, "JACKPOT_SELF_CHECK_SECONDS": "0.5"}
    )
    try:
        operator, table, auditor = linked_floor(service)
        status, body = ready(service)
        assert status == 503 and codes(body) == {"store_not_durable"}
        assert "appendonly=no" in body["problems"][0]["message"]
        assert play(service, table, "R1").json()["error"]["code"] == "controller_inoperable"
        assert 'code="store_not_durable"' in metric(service, "jackpot_controller_problem")

        # the operator fixes the store; the next check finds it durable, no restart needed
        redis_lib.Redis.from_url(url).config_set("appendonly", "yes")
        until_ready(service, 200)
        until_settled(service, table, "R1")
        kinds = [(e["type"], e["scope"]) for e in journal_types(service, auditor)]
        assert kinds == [("controller_inoperable", "store"), ("controller_operable", "store")]
    finally:
        service.halt()
        process.terminate()
        process.wait(timeout=20)


def test_a_meter_edited_behind_the_controllers_back_makes_it_inoperable(
    tmp_path: Path, store: RedisServer
) -> None:
    env = {"JACKPOT_REDIS_URL": store.url, "JACKPOT_SELF_CHECK_SECONDS": "0.5"}
    signs = start_service(tmp_path, {**env, "JACKPOT_SIGNS_FEED_MS": "50"}, command="signs")
    try:
        edited_meter(tmp_path, store, env, signs)
    finally:
        signs.halt()


def edited_meter(tmp_path: Path, store: RedisServer, env: dict[str, str], signs: Service) -> None:
    service = start_service(tmp_path, env)
    r = redis_lib.Redis.from_url(store.url, decode_responses=True)
    pool_key = Keys().pool("main")
    try:
        operator, table, auditor = linked_floor(service)
        requests.put(
            f"{service.base}/v1/signs/lobby",
            headers=auth(operator),
            json={"levels": [{"pool": "main", "name": "Major"}]},
        ).raise_for_status()
        assert play(service, table, "R1").status_code == 200
        before = meters(service, operator)

        r.hincrby(pool_key, "value", 10_000_000)  # $10 more on the meter, from nowhere

        # the very next round meets it in the script: nothing is settled on the edited meter
        refused = play(service, table, "R2")
        assert refused.status_code == 503, refused.text
        assert refused.json()["error"]["code"] == "controller_inoperable"
        assert "pool main" in refused.json()["error"]["message"]
        # every worker refuses rounds from now on; each says why on /readyz within its period
        for n in range(3, 7):
            assert play(service, table, f"R{n}").status_code == 503
        body = until_ready(service, 503)
        assert {"pool_invariant", "journal_tampered"} <= codes(body)
        assert meters(service, operator)["bets"] == before["bets"]
        beat = requests.post(f"{service.base}/v1/tables/T1/heartbeat", headers=auth(table))
        assert beat.json()["side_bet_open"] is False
        assert shows_closed(signs, "lobby", "controller inoperable")
        # journaled when it stopped, and again only when what was found changed (the round
        # script's own check may find the pool first, a worker's full check the journal too);
        # never back to operable
        entries = journal_types(service, auditor)
        assert entries and {e["type"] for e in entries} == {"controller_inoperable"}, entries
        assert len({str(e["problems"]) for e in entries}) == len(entries), entries
        assert "pool_invariant" in entries[0]["problems"]
    finally:
        service.stop()

    # a restart finds it again
    service = start_service(tmp_path, env)
    try:
        assert ready(service)[0] == 503
        assert play(service, table, "R2").status_code == 503
        # the operator puts the meter back to what the journal says: it operates again
        r.hincrby(pool_key, "value", -10_000_000)
        until_ready(service, 200)
        until_settled(service, table, "R2")
        kinds = [e["type"] for e in journal_types(service, auditor)]
        assert kinds == ["controller_inoperable", "controller_operable"]
    finally:
        service.halt()
        r.close()


def test_a_file_planted_while_it_runs_makes_every_process_inoperable(
    tmp_path: Path, store: RedisServer
) -> None:
    # issue 39's examiner: an extension module copied in beside a source of a running
    # controller made one gunicorn worker inoperable while the other answered ready for as
    # long as it ran: software was checked once per process, at its start
    build = sealed_build(tmp_path)
    env = {
        "JACKPOT_REDIS_URL": store.url,
        "PYTHONPATH": str(build),
        "JACKPOT_SELF_CHECK_SECONDS": "1",
        "JACKPOT_WORKERS": "2",
    }
    service = start_service(tmp_path, env)
    try:
        assert ready(service)[0] == 200
        planted = build / "jackpot" / f"jsonio{importlib.machinery.EXTENSION_SUFFIXES[0]}"
        planted.write_bytes(b"\x7fELF planted")

        def answers(n: int) -> set[int]:
            return {ready(service)[0] for _ in range(n)}

        deadline = time.monotonic() + 20
        while answers(20) != {503}:  # every process, within about a self-check period
            assert time.monotonic() < deadline, "a process still answers ready"
            time.sleep(0.5)
        body = ready(service)[1]
        assert any(planted.name in p["message"] for p in body["problems"])
        planted.unlink()
        deadline = time.monotonic() + 20
        while answers(20) != {200}:
            assert time.monotonic() < deadline, "still inoperable once the file is gone"
            time.sleep(0.5)
    finally:
        service.halt()
