"""What `jackpot serve` writes to its log, as an operator reads it during an outage."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import requests

from tests.support.api import round_body
from tests.support.redis_server import start_server
from tests.support.service import auth, jackpot, key, start_service

LINE = re.compile(
    r"(?P<time>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d) (?P<level>[A-Z]+) "
    r"pid=(?P<pid>\d+) (?P<logger>[\w.]+): (?P<message>.*)"
)


def test_a_store_outage_on_a_round_is_logged_with_time_level_pid_table_and_round(
    tmp_path: Path,
) -> None:
    store = start_server(tmp_path / "redis")  # this test's own: it stops it
    access = tmp_path / "access.log"
    service = start_service(
        tmp_path,
        # one worker (a second of CPU less to start): each line checked is a worker's own
        {"JACKPOT_REDIS_URL": store.url, "JACKPOT_ACCESS_LOG": str(access), "JACKPOT_WORKERS": "1"},
    )
    try:
        operator, table = key(service, "operator"), key(service, "table", "T1")
        r = requests.put(
            f"{service.base}/v1/pools/main",
            headers=auth(operator),
            json={"reset": 100_000, "rate_bp": 100, "reserve_rate_bp": 0},
        )
        assert r.status_code == 201, r.text
        r = requests.put(
            f"{service.base}/v1/tables/T1", headers=auth(operator), json={"pools": ["main"]}
        )
        assert r.status_code == 201, r.text
        ok = requests.post(f"{service.base}/v1/rounds", json=round_body("r-1"), headers=auth(table))
        assert ok.status_code == 200, ok.text

        store.stop()
        down = requests.post(
            f"{service.base}/v1/rounds", json=round_body("r-2"), headers=auth(table)
        )
        assert down.status_code == 503, down.text
    finally:
        assert service.stop() == 0
        store.stop()

    lines = service.log.read_text().splitlines()
    parsed = [m for m in map(LINE.fullmatch, lines) if m]
    outage = [m for m in parsed if "store unavailable" in m["message"]]
    assert len(outage) == 1, service.log.read_text()
    line = outage[0]
    assert line["level"] == "WARNING" and line["logger"] == "jackpot.api"
    assert line["message"].endswith(" table=T1 round=r-2")
    assert int(line["pid"]) not in (os.getpid(), service.process.pid)  # a gunicorn worker's
    # INFO lines of the app and of gunicorn are kept, in the same format
    assert any(m["level"] == "INFO" and m["logger"] == "jackpot.cli" for m in parsed)
    assert any(m["level"] == "INFO" and m["logger"] == "gunicorn.error" for m in parsed)
    # nothing else on the round path names a round, and every line has the format
    assert [m["message"] for m in parsed if "round=" in m["message"]] == [line["message"]]
    assert len(parsed) == len(lines), "\n".join(x for x in lines if not LINE.fullmatch(x))
    # the access log went to its file, in the same format
    assert not any(m["logger"] == "gunicorn.access" for m in parsed)
    requests_logged = [m for m in map(LINE.fullmatch, access.read_text().splitlines()) if m]
    assert all(m["logger"] == "gunicorn.access" for m in requests_logged)
    assert any('"POST /v1/rounds HTTP/1.1" 503' in m["message"] for m in requests_logged)


def test_a_malformed_variable_stops_a_command_with_a_message_naming_it(tmp_path: Path) -> None:
    env = {**os.environ, "JACKPOT_WORKERS": "abc"}
    done = jackpot("keys", "list", cwd=tmp_path, env=env)
    assert done.returncode == 2
    assert done.stderr == "jackpot: JACKPOT_WORKERS='abc' is not a whole number\n"
    assert not (tmp_path / "var").exists()  # refused before the store started


def test_json_lines_name_the_request_key_table_round_and_code_and_never_a_secret(
    tmp_path: Path,
) -> None:
    store = start_server(tmp_path / "redis")
    access = tmp_path / "access.log"
    service = start_service(
        tmp_path,
        {"JACKPOT_REDIS_URL": store.url, "JACKPOT_ACCESS_LOG": str(access),
         "JACKPOT_LOG_FORMAT": "json", "JACKPOT_WORKERS": "1"},
    )  # fmt: skip
    try:
        operator, table = key(service, "operator", label="Dana Reyes"), key(service, "table", "T1")
        requests.put(f"{service.base}/v1/pools/main", headers=auth(operator),
                     json={"reset": 100_000, "rate_bp": 100, "reserve_rate_bp": 0})  # fmt: skip
        requests.put(
            f"{service.base}/v1/tables/T1", headers=auth(operator), json={"pools": ["main"]}
        )
        ok = requests.post(
            f"{service.base}/v1/rounds",
            json=round_body("r-1"),
            headers={**auth(table), "X-Request-Id": "floor-req-1"},
        )
        assert ok.status_code == 200 and ok.headers["X-Request-Id"] == "floor-req-1"
        bad = dict(round_body("r-2"), spots=[])
        refused = requests.post(f"{service.base}/v1/rounds", json=bad, headers=auth(table))
        assert refused.status_code == 400
        rid = refused.headers["X-Request-Id"]
        store.stop()
        down = requests.post(
            f"{service.base}/v1/rounds", json=round_body("r-3"), headers=auth(table)
        )
        assert down.status_code == 503
    finally:
        assert service.stop() == 0
        store.stop()

    text = service.log.read_text() + access.read_text()
    assert table not in text and operator not in text, "a secret in the log"
    lines = [json.loads(x) for x in service.log.read_text().splitlines()]
    for line in lines:
        assert {"time", "level", "logger", "pid", "message"} <= set(line), line
    table_key = next(k for k in (line.get("key") for line in lines) if k)
    refusal = next(x for x in lines if x["message"].startswith("refused 400"))
    assert (refusal["message"], refusal["code"]) == ("refused 400 empty field=spots", "empty")
    assert (refusal["request_id"], refusal["table"], refusal["round"]) == (rid, "T1", "r-2")
    assert refusal["key"] == table_key
    fault = next(x for x in lines if x["message"].startswith("store unavailable"))
    assert (fault["level"], fault["round"], fault["code"]) == (
        "WARNING",
        "r-3",
        "store_unavailable",
    )
    logged = [json.loads(x) for x in access.read_text().splitlines()]
    rounds = [x for x in logged if x.get("path") == "/v1/rounds"]
    assert [(x["status"], x["round"]) for x in rounds] == [(200, "r-1"), (400, "r-2"), (503, "r-3")]
    assert rounds[0]["request_id"] == "floor-req-1" and rounds[0]["duration_ms"] > 0
    assert rounds[1]["code"] and rounds[2]["code"] == "store_unavailable"
