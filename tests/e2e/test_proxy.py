"""The recommended deployment: Debian's nginx with deploy/nginx/templates/jackpot.conf.template
in front of a real `jackpot serve` and `jackpot signs`. Idle and slow-sending clients are held
by nginx, not by the controller's threads; what nginx refuses carries the JSON error body;
sign streams pass through unbuffered."""

from __future__ import annotations

import http.client
import json
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import requests

from jackpot.api.securityheaders import NOTHING, PAGE, SIGN_PAGE, SIGN_WORKER
from tests.support.proxy import needs_nginx, nginx
from tests.support.screen import Screen
from tests.support.service import Service, auth, key, link_main, start_service
from tests.support.slowloris import trickling

pytestmark = needs_nginx


@pytest.fixture
def workers() -> int:
    """One worker serves the service: what nginx holds and answers is under test."""
    return 1


@pytest.fixture
def proxied(service: Service, tmp_path: Path) -> Iterator[dict[str, Any]]:
    operator = key(service, "operator", label="Dana Reyes")
    table = key(service, "table", "T1")
    base = service.base
    link_main(service, operator)
    requests.put(
        f"{base}/v1/signs/lobby", headers=auth(operator), json={"levels": [{"pool": "main"}]}
    ).raise_for_status()
    signs = start_service(
        tmp_path, {"JACKPOT_REDIS_URL": service.env["JACKPOT_REDIS_URL"]}, command="signs"
    )
    try:
        api, sign_process = urlsplit(base).netloc, urlsplit(signs.base).netloc
        with nginx(tmp_path / "nginx", api, sign_process) as front:
            yield {"base": front, "table": table, "operator": operator}
    finally:
        signs.halt()


def report(base: str, table: str, round_id: str) -> requests.Response:
    body: dict[str, Any] = {"table": "T1", "round": round_id, "dealer": {"card": "4c"},
            "spots": [{"spot": 1, "wager": 2500, "card": "9d"}]}  # fmt: skip
    return requests.post(f"{base}/v1/rounds", headers=auth(table), json=body, timeout=10)


def address(base: str) -> tuple[str, int]:
    parts = urlsplit(base)
    return parts.hostname or "127.0.0.1", parts.port or 80


def test_idle_and_slow_clients_are_held_by_nginx_not_by_the_controller(
    proxied: dict[str, Any],
) -> None:
    base = proxied["base"]
    host, port = address(base)
    idle = [socket.create_connection((host, port)) for _ in range(500)]
    slow = [socket.create_connection((host, port)) for _ in range(100)]
    try:
        with trickling(slow, every=1.0):  # slowloris: a byte a second, never finished
            time.sleep(1.0)
            # the controller still answers everyone else, and settles rounds
            health = requests.get(f"{base}/healthz", timeout=5)
            assert health.status_code == 200 and health.json() == {"status": "ok"}
            for n in range(20):
                answer = report(base, proxied["table"], f"r{n}")
                assert answer.status_code == 200, answer.text
            # nginx cuts the slow ones off once their head is late (client_header_timeout 5 s)
            for s in slow:
                s.settimeout(15)
            cut = 0
            for s in slow:
                try:
                    data = s.recv(4096)
                except TimeoutError:
                    continue
                except OSError:
                    data = b""
                cut += 1 if not data or data.startswith(b"HTTP/1.1 408") else 0
            assert cut == len(slow), f"only {cut} of {len(slow)} slow clients were cut off"
            assert requests.get(f"{base}/healthz", timeout=5).status_code == 200
    finally:
        for s in idle + slow:
            s.close()


def raw(base: str, request: bytes) -> tuple[int, dict[str, Any]]:
    """Send `request` as is; the status and the JSON body of the answer (which, as nginx
    answers it itself, must carry the security headers allowing nothing)."""
    host, port = address(base)
    with socket.create_connection((host, port), timeout=10) as s:
        s.sendall(request)
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    assert b"application/json" in head, head
    lines = head.decode().split("\r\n")[1:]
    secured(dict(line.lower().split(": ", 1) for line in lines), NOTHING.lower())
    return status, json.loads(body)


def secured(headers: Any, policy: str) -> None:
    """One of each security header (two would be joined by commas), `policy` the page's."""
    assert headers.get("content-security-policy") == policy, headers
    assert headers.get("x-frame-options", "").lower() == "deny", headers
    assert headers.get("x-content-type-options") == "nosniff", headers


def test_what_nginx_refuses_carries_the_json_error_body(proxied: dict[str, Any]) -> None:
    base = proxied["base"]
    status, body = raw(base, b"NOT HTTP AT ALL\r\n\r\n")
    assert (status, body["error"]["code"]) == (400, "bad_request")
    huge_header = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20_000 + b"\r\n\r\n"
    status, body = raw(base, huge_header)
    assert (status, body["error"]["code"]) == (431, "request_header_fields_too_large")
    long_line = b"GET /" + b"a" * 20_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"
    status, body = raw(base, long_line)
    assert status in (414, 431) and body["error"]["code"].startswith("request_")
    too_big = (
        b"POST /v1/rounds HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 2000000\r\nConnection: close\r\n\r\n{"
    )
    status, body = raw(base, too_big)
    assert (status, body["error"]["code"]) == (413, "request_entity_too_large")
    # the controller's own refusals pass through untouched
    answer = requests.post(f"{base}/v1/rounds", json={"table": "T1"}, timeout=10)
    assert answer.status_code == 401 and answer.json()["error"]["code"]


def test_every_answer_carries_the_security_headers_once(proxied: dict[str, Any]) -> None:
    """The controller's and the sign process's pass through as they are, each page's policy
    its own; nginx adds none beside them (D244)."""
    base = proxied["base"]
    for path, policy in (
        ("/console", PAGE),
        ("/", PAGE),
        ("/v1/pools", NOTHING),
        ("/v1/pools/nowhere", NOTHING),
        ("/static/console.js", NOTHING),
        ("/signs/lobby", SIGN_PAGE),
        ("/signs/sw.js", SIGN_WORKER),
    ):
        answer = requests.get(f"{base}{path}", timeout=10)
        assert answer.status_code in (200, 404), path
        secured(answer.headers, policy)


def test_a_sign_stream_passes_through_unbuffered(proxied: dict[str, Any]) -> None:
    host, port = address(proxied["base"])
    conn = http.client.HTTPConnection(host, port, timeout=10)
    conn.request("GET", "/signs/lobby/stream")
    response = conn.getresponse()
    try:
        assert response.status == 200
        secured({k.lower(): v for k, v in response.getheaders()}, NOTHING)
        kinds = []
        deadline = time.monotonic() + 5
        while "state" not in kinds:
            line = response.readline().decode()
            if line.startswith("event: "):
                kinds.append(line[7:].strip())
            assert time.monotonic() < deadline, kinds
        value = report(proxied["base"], proxied["table"], "s1").json()["pools"]["main"]["value"]
        while True:
            line = response.readline().decode()
            if line.startswith("data: ") and f'"main": {value}' in line:
                break
            assert time.monotonic() < deadline + 5, "the meter never came through nginx"
    finally:
        conn.close()


def test_a_controller_that_is_down_is_a_json_503_to_resend(tmp_path: Path) -> None:
    dead = "127.0.0.1:1"  # nothing listens there
    with nginx(tmp_path / "nginx", dead, dead) as front:
        answer = requests.post(f"{front}/v1/rounds", json={}, timeout=10)
        assert answer.status_code == 503
        assert answer.headers["Retry-After"] == "1"
        assert answer.json()["error"]["code"] == "controller_unreachable"
        secured(answer.headers, NOTHING)  # a location with add_header of its own repeats them


@dataclass(frozen=True)
class Front:
    host: str
    port: int


STREAMS_PER_ADDRESS = 48  # the template's limit on one address's sign streams


def test_one_address_holds_its_share_of_sign_streams_through_nginx(
    proxied: dict[str, Any],
) -> None:
    """nginx refuses one address's stream past its limit with its JSON 429, before the sign
    process's own share of a client (64) is reached; the sign process, trusting nginx on the
    loopback, counts each address behind it apart: two addresses' streams together are more
    than one client's share, and all of them are served."""
    front = Front(*address(proxied["base"]))
    screens: list[Screen] = []
    try:
        for source in ("127.0.0.2", "127.0.0.3"):
            for _ in range(STREAMS_PER_ADDRESS):
                screens.append(Screen(front, source=source))
                assert screens[-1].response.status == 200, screens[-1].response.read()
            over = Screen(front, source=source)
            status, error, retry = over.refusal()
            over.close()
            assert (status, error["code"], retry) == (429, "too_many_connections", "1")
        assert all(screen.next()[0] == "state" for screen in screens)
    finally:
        for screen in screens:
            screen.close()
