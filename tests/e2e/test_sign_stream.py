"""The sign process's event streams over real HTTP (`jackpot signs`, gunicorn's gevent worker):
the state first and every change after it, a flood of screens refused beyond the cap, one
client held to its share (told apart behind a trusted proxy, never by what it writes itself),
a screen that stops reading holding back no one, and a screen that comes back missing no hit.
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
SHARE = 2  # JACKPOT_SIGNS_MAX_PER_CLIENT of the one under test for shares
PROXY = "127.0.0.1"  # the proxy it trusts; screens connect from other loopback addresses


@pytest.fixture
def workers() -> int:
    """One worker serves the service: the sign process is under test, the service only takes
    its configuration and the rounds."""
    return 1


def sign_floor(service: Service, tmp_path: Path, **settings: str) -> dict[str, Any]:
    """Pool `main` fed by T1 (heard from), sign `lobby` showing it, and a sign process with
    `settings` over the service's store."""
    operator = key(service, "operator", label="Dana Reyes")
    table = key(service, "table", "T1")

    def put(path: str, body: dict[str, Any]) -> None:
        requests.put(f"{service.base}{path}", headers=auth(operator), json=body).raise_for_status()

    put("/v1/pools/main", {"reset": 500_000, "rate_bp": 400, "reserve_rate_bp": 100})
    put("/v1/tables/T1", {"pools": ["main"], "asset": "WAR-0042", "location": "Pit 3"})
    requests.post(f"{service.base}/v1/tables/T1/heartbeat", headers=auth(table)).raise_for_status()
    put("/v1/signs/lobby", {"levels": [{"pool": "main", "name": "Major"}]})
    env = {"JACKPOT_REDIS_URL": service.env["JACKPOT_REDIS_URL"], "JACKPOT_SIGNS_FEED_MS": "50"}
    signs = start_service(tmp_path, {**env, **settings}, command="signs")
    return {"service": service, "signs": signs, "table": table, "operator": operator}


@pytest.fixture
def floor(service: Service, tmp_path: Path) -> Iterator[dict[str, Any]]:
    built = sign_floor(service, tmp_path, JACKPOT_SIGNS_MAX_CONNECTIONS=str(CAP))
    yield built
    built["signs"].halt()


@pytest.fixture
def shares(service: Service, tmp_path: Path) -> Iterator[Service]:
    """A sign process holding up to 10 streams, 2 a client, trusting a proxy at 127.0.0.1."""
    built = sign_floor(
        service,
        tmp_path,
        JACKPOT_SIGNS_MAX_CONNECTIONS="10",
        JACKPOT_SIGNS_MAX_PER_CLIENT=str(SHARE),
        JACKPOT_SIGNS_TRUSTED_PROXIES=PROXY,
    )
    yield built["signs"]
    built["signs"].halt()


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


def open_screens(signs: Service, n: int, **how: Any) -> list[Screen]:
    """`n` screens connected the same way, each given its state."""
    screens = [Screen(signs, **how) for _ in range(n)]
    for screen in screens:
        assert screen.next()[0] == "state"
    return screens


def assert_refused_for_its_share(screen: Screen, client: str) -> None:
    status, error, retry = screen.refusal()
    assert (status, error["code"], retry) == (429, "too_many_streams", "5")
    assert f"the address {client} already holds {SHARE} sign streams" in error["message"]


def test_one_client_holds_its_share_of_the_streams_and_gets_a_place_back_as_one_ends(
    shares: Service,
) -> None:
    screens = open_screens(shares, SHARE, source="127.0.0.2")
    try:
        over = Screen(shares, source="127.0.0.2")
        assert_refused_for_its_share(over, "127.0.0.2")
        over.close()
        screens += open_screens(shares, 1, source="127.0.0.3")  # another address: its own share
        assert requests.get(f"{shares.base}/healthz", timeout=5).json()["signs"] == SHARE + 1
        screens.pop(0).close()  # noticed at the next write to it
        deadline = time.monotonic() + 10
        while True:
            again = Screen(shares, source="127.0.0.2")
            if again.response.status == 200:
                screens.append(again)
                break
            again.close()
            assert time.monotonic() < deadline, "the client's place was never given back"
            time.sleep(0.5)
        assert screens[-1].next()[0] == "state"
    finally:
        for screen in screens:
            screen.close()


def test_a_client_is_told_apart_by_the_trusted_proxy_never_by_its_own_word(
    shares: Service,
) -> None:
    """X-Forwarded-For is believed from the trusted proxy only, and of it only the address
    the proxy appended (the one it was connected from), not what the client wrote before."""
    spoofed = [
        Screen(shares, source="127.0.0.2", headers={"X-Forwarded-For": f"10.0.0.{n}"})
        for n in range(SHARE + 1)
    ]
    proxied = {"source": PROXY, "headers": {"X-Forwarded-For": "10.0.0.1"}}
    screens = open_screens(shares, SHARE, **proxied)
    try:
        assert [s.response.status for s in spoofed[:SHARE]] == [200] * SHARE
        assert_refused_for_its_share(spoofed[SHARE], "127.0.0.2")
        forged = {"X-Forwarded-For": "6.6.6.6, 10.0.0.1"}  # 10.0.0.1 writing a new name first
        over = Screen(shares, source=PROXY, headers=forged)
        assert_refused_for_its_share(over, "10.0.0.1")
        over.close()
        screens += open_screens(shares, 1, source=PROXY, headers={"X-Forwarded-For": "10.0.0.2"})
    finally:
        for screen in spoofed + screens:
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
