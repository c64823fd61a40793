"""Slow and idle clients straight to `jackpot serve`, no proxy in front: each is held by a
greenlet, not a worker (jackpot/entrypoints/gunicorn_worker.py), and given
JACKPOT_CLIENT_DEADLINE_SECONDS to send a request's head and then its body; everyone else is
answered meanwhile."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.support.service import Service, auth, key, link_main, start_service
from tests.support.slowloris import trickling

DEADLINE = 1  # JACKPOT_CLIENT_DEADLINE_SECONDS for these tests (production: 5)


@pytest.fixture
def direct(tmp_path: Path, redis_server: Any, redis: Any) -> Iterator[Service]:
    service = start_service(
        tmp_path,
        {"JACKPOT_REDIS_URL": redis_server.url, "JACKPOT_CLIENT_DEADLINE_SECONDS": str(DEADLINE)},
    )
    try:
        yield service
    finally:
        service.halt()


def round_body(round_id: str) -> bytes:
    body = {"table": "T1", "round": round_id, "dealer": {"card": "4c"},
            "spots": [{"spot": 1, "wager": 2500, "card": "9d"}]}  # fmt: skip
    return json.dumps(body).encode()


def answer_of(s: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    data = b""
    while chunk := s.recv(65536):
        data += chunk
    return data


def cut_off(s: socket.socket) -> bool:
    """Whether the server closed `s` without an answer (a reset, when the trickle's next byte
    arrived after the close, is a close too)."""
    try:
        return answer_of(s) == b""
    except ConnectionResetError:
        return True


def test_idle_and_slow_clients_do_not_stop_the_controller(direct: Service) -> None:
    operator = key(direct, "operator")
    link_main(direct, operator)
    table = key(direct, "table", "T1")
    address = (direct.host, direct.port)
    # far more than a thread-per-request server has threads (the old gthread: 16)
    idle = [socket.create_connection(address) for _ in range(200)]
    slow = [socket.create_connection(address) for _ in range(100)]
    try:
        with trickling(slow, every=0.2):  # slowloris: a byte at a time, never finished
            health = requests.get(f"{direct.base}/healthz", timeout=5)
            assert health.status_code == 200 and health.json() == {"status": "ok"}
            for n in range(20):
                answer = requests.post(
                    f"{direct.base}/v1/rounds", data=round_body(f"r{n}"), timeout=5,
                    headers={**auth(table), "Content-Type": "application/json"},
                )  # fmt: skip
                assert answer.status_code == 200, answer.text
            # every one of them is cut off once its head is late, however often it sends
            for s in idle + slow:
                s.settimeout(DEADLINE + 10)
            assert all(cut_off(s) for s in idle + slow)
    finally:
        for s in idle + slow:
            s.close()


def test_a_late_body_is_answered_408_and_changes_nothing(direct: Service) -> None:
    operator = key(direct, "operator")
    link_main(direct, operator)
    table = key(direct, "table", "T1")
    body = round_body("late")
    head = (
        f"POST /v1/rounds HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {table}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode()
    with socket.create_connection((direct.host, direct.port), timeout=DEADLINE + 10) as s:
        s.sendall(head + body[:10])  # and the rest never comes
        started = time.monotonic()
        answer = answer_of(s)
        waited = time.monotonic() - started
    status, _, rest = answer.partition(b"\r\n")
    assert status == b"HTTP/1.1 408 Request Timeout", answer
    assert json.loads(rest.partition(b"\r\n\r\n")[2])["error"]["code"] == "request_timeout"
    assert waited >= DEADLINE - 0.2  # it was given its deadline, not cut at once
    meters = requests.get(f"{direct.base}/v1/pools/main/meters", headers=auth(operator))
    assert meters.json()["bets"] == 0

    # a client that asks before sending its body is told to go on, and is answered
    with socket.create_connection((direct.host, direct.port), timeout=DEADLINE + 10) as s:
        s.sendall(
            head.replace(b"\r\n\r\n", b"\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n")
        )
        assert s.recv(65536) == b"HTTP/1.1 100 Continue\r\n\r\n"
        s.sendall(body)
        answer = answer_of(s)
    assert answer.startswith(b"HTTP/1.1 200 "), answer
    meters = requests.get(f"{direct.base}/v1/pools/main/meters", headers=auth(operator))
    assert meters.json()["bets"] == 1
