"""The sign process's event streams over real HTTP (`jackpot signs`, gunicorn's gevent worker):
the state first and every change after it, a flood of screens refused beyond the cap, a
screen that stops reading holding back no one, and a screen that comes back missing no hit.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from jackpot.api.securityheaders import NOTHING
from tests.support.screen import Screen, value_of
from tests.support.service import Service, auth, key, start_service

CAP = 3  # JACKPOT_SIGNS_MAX_CONNECTIONS of the sign process under test


@pytest.fixture
def floor(service: Service, tmp_path: Path) -> Iterator[dict[str, Any]]:
    operator = key(service, "operator", label="Dana Reyes")
    table = key(service, "table", "T1")

    def put(path: str, body: dict[str, Any]) -> None:
        requests.put(f"{service.base}{path}", headers=auth(operator), json=body).raise_for_status()

    put("/v1/pools/main", {"reset": 500_000, "rate_bp": 400, "reserve_rate_bp": 100})
    put("/v1/tables/T1", {"pools": ["main"], "asset": "WAR-0042", "location": "Pit 3"})
    requests.post(f"{service.base}/v1/tables/T1/heartbeat", headers=auth(table)).raise_for_status()
    put("/v1/signs/lobby", {"levels": [{"pool": "main", "name": "Major"}]})
    signs = start_service(
        tmp_path,
        {
            "JACKPOT_REDIS_URL": service.env["JACKPOT_REDIS_URL"],
            "JACKPOT_SIGNS_MAX_CONNECTIONS": str(CAP),
            "JACKPOT_SIGNS_FEED_MS": "50",
        },
        command="signs",
    )
    yield {"service": service, "signs": signs, "table": table, "operator": operator}
    signs.stop()


def play(floor: dict[str, Any], round_id: str, **spot: Any) -> Any:
    body = {"table": "T1", "round": round_id, "dealer": {"card": "4c"},
            "spots": [{"spot": 1, "wager": 2500, "card": "9d", **spot}]}  # fmt: skip
    if spot.get("war"):
        body["dealer"] = {"card": "Jh", "war_card": "Jh"}
    r = requests.post(f"{floor['service'].base}/v1/rounds", json=body, headers=auth(floor["table"]))
    r.raise_for_status()
    return r.json()


def test_a_screen_gets_the_whole_state_then_each_change(floor: dict[str, Any]) -> None:
    screen = Screen(floor["signs"])
    try:
        assert screen.response.status == 200
        assert screen.response.getheader("Content-Type", "").startswith("text/event-stream")
        # what a browser may do with it: nothing but read it (D244)
        assert screen.response.getheader("Content-Security-Policy") == NOTHING
        assert screen.response.getheader("X-Frame-Options") == "DENY"
        assert screen.response.getheader("X-Content-Type-Options") == "nosniff"
        kind, state = screen.next()
        assert kind == "state"
        assert [lv["pool"] for lv in state["levels"]] == ["main"]
        assert state["levels"][0]["value"] == 500_000
        value = play(floor, "r1")["pools"]["main"]["value"]
        assert value > 500_000
        kind, data = screen.until(lambda k, d: value_of(k, d) == value)
        assert kind == "meters" and data["t"] > 0
    finally:
        screen.close()


def test_a_flood_of_screens_is_refused_beyond_the_cap(floor: dict[str, Any]) -> None:
    signs = floor["signs"]
    screens = [Screen(signs) for _ in range(CAP)]
    try:
        for screen in screens:
            assert screen.next()[0] == "state"
        refused = requests.get(f"{signs.base}/signs/lobby/stream", timeout=5)
        assert refused.status_code == 503
        assert refused.json()["error"]["code"] == "too_many_signs"
        assert refused.headers["Retry-After"] == "5"
        health = requests.get(f"{signs.base}/healthz", timeout=5)  # the process still answers
        assert health.status_code == 200 and health.json()["signs"] == CAP
        # a screen that leaves frees its place (noticed at the next write to it)
        screens.pop().close()
        deadline = time.monotonic() + 10
        while True:
            again = Screen(signs)
            if again.response.status == 200:
                screens.append(again)
                break
            again.close()
            assert time.monotonic() < deadline, "the freed place was never given back"
            time.sleep(0.5)
        assert screens[-1].next()[0] == "state"
    finally:
        for screen in screens:
            screen.close()


def test_head_requests_take_no_place_from_the_screens(floor: dict[str, Any]) -> None:
    """A HEAD of the stream is answered with its head and no place taken: 200 of them (a
    proxy's or a monitor's checks) once locked every screen out until a restart."""
    signs = floor["signs"]
    with requests.Session() as session:
        for _ in range(CAP * 10):
            head = session.head(f"{signs.base}/signs/lobby/stream", timeout=5)
            assert head.status_code == 200
            assert head.headers["Content-Type"].startswith("text/event-stream")
    assert requests.get(f"{signs.base}/healthz", timeout=5).json()["signs"] == 0
    screens = [Screen(signs) for _ in range(CAP)]
    try:
        assert all(screen.next()[0] == "state" for screen in screens)
    finally:
        for screen in screens:
            screen.close()


def test_a_screen_that_stops_reading_holds_back_no_one(floor: dict[str, Any]) -> None:
    signs = floor["signs"]
    stuck = socket.socket()
    stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    stuck.connect((signs.host, signs.port))
    stuck.sendall(f"GET /signs/lobby/stream HTTP/1.1\r\nHost: {signs.host}\r\n\r\n".encode())
    screen = Screen(signs)
    try:
        screen.next()
        last = 0
        for n in range(40):  # the stuck screen reads none of these
            last = play(floor, f"r{n}")["pools"]["main"]["value"]
            time.sleep(0.02)
        screen.until(lambda k, d: value_of(k, d) == last, seconds=2.0)
        assert requests.get(f"{signs.base}/healthz", timeout=5).json()["signs"] == 2
    finally:
        screen.close()
        stuck.close()


def test_a_screen_that_comes_back_misses_no_hit(floor: dict[str, Any]) -> None:
    screen = Screen(floor["signs"])
    screen.next()
    screen.close()
    hit = play(floor, "h1", wager=500, card="Jh", war=True, war_card="Jh")
    payout = next(j for j in hit["jackpots"] if j["pool"] == "main")
    time.sleep(1.5)  # the sign process reads the states at once after a hit, and every second
    back = Screen(floor["signs"])
    try:
        kind, state = back.until(lambda k, d: k != "ping")
        assert kind == "state"
        assert [w["id"] for w in state["winners"]] == [payout["id"]]
        assert state["winners"][0]["asset"] == "WAR-0042"
        assert state["winners"][0]["status"] == "awaiting verification"
        assert state["levels"][0]["value"] == 500_000  # the new base
    finally:
        back.close()


def test_a_screen_hears_a_ping_when_nothing_changes(floor: dict[str, Any]) -> None:
    screen = Screen(floor["signs"])
    try:
        screen.next()
        kind, data = screen.until(lambda k, d: k == "ping", seconds=4.0)
        assert data == {"up": True}
    finally:
        screen.close()


def test_a_changed_definition_reaches_the_open_screens(floor: dict[str, Any]) -> None:
    screen = Screen(floor["signs"])
    try:
        screen.next()
        requests.put(
            f"{floor['service'].base}/v1/signs/lobby",
            headers=auth(floor["operator"]),
            json={"levels": [{"pool": "main", "name": "Mega"}], "title": "Tonight's Progressive"},
        ).raise_for_status()
        kind, state = screen.until(lambda k, d: k == "state", seconds=2.5)
        assert state["sign"]["title"] == "Tonight's Progressive"
        assert state["levels"][0]["name"] == "Mega"
        requests.delete(
            f"{floor['service'].base}/v1/signs/lobby", headers=auth(floor["operator"])
        ).raise_for_status()
        kind, state = screen.until(lambda k, d: k == "state", seconds=2.5)
        assert state == {"sign": None}  # deleted: the screen shows closed
    finally:
        screen.close()


def test_a_sign_path_with_an_encoded_slash_is_400_naming_the_segment(
    floor: dict[str, Any],
) -> None:
    answer = requests.get(f"{floor['signs'].base}/signs/lobby%2Fx/stream", timeout=10)
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert (error["code"], error["field"]) == ("invalid_path", "path"), error
    assert error["message"].startswith("path segment 2 'lobby%2Fx'"), error
