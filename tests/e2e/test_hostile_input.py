"""Hostile bodies over real HTTP, to `jackpot serve` (gunicorn's gevent workers): a chunked
body gunicorn cannot decode, and the JSON faults of tests/api/test_hostile_input.py, each a
400 with the error body that changes nothing."""

from __future__ import annotations

import http.client
import json
import socket
from typing import Any
from urllib.parse import urlsplit

import pytest
import redis as redis_lib
import requests

from tests.support.checks import snapshot
from tests.support.service import Service, auth, key


@pytest.fixture
def workers() -> int:
    """One worker serves the service: each request's own handling is what is checked here."""
    return 1


def send(service: Service, method: str, path: str, secret: str, wire: bytes) -> tuple[int, Any]:
    """One request with a chunked body of `wire` (what follows the headers) on a connection
    of its own; its status and JSON answer."""
    url = urlsplit(service.base)
    head = (
        f"{method} {path} HTTP/1.1\r\nHost: {url.netloc}\r\nAuthorization: Bearer {secret}\r\n"
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    ).encode()
    with socket.create_connection((url.hostname, url.port), timeout=30) as sock:
        sock.sendall(head + wire)
        response = http.client.HTTPResponse(sock, method=method)
        response.begin()
        return response.status, json.loads(response.read())


def chunked(body: bytes) -> bytes:
    return b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)


def floor(service: Service) -> tuple[str, str, str]:
    """Pool `main`, table T1, a jackpot awaiting verification: (operator, table, payout)."""
    operator, table = key(service, "operator"), key(service, "table", "T1")
    s = requests.Session()
    pool = {"reset": 100_000, "rate_bp": 100, "reserve_rate_bp": 0}
    assert s.put(f"{service.base}/v1/pools/main", headers=auth(operator), json=pool).ok
    assert s.put(
        f"{service.base}/v1/tables/T1", headers=auth(operator), json={"pools": ["main"]}
    ).ok
    hit = {
        "table": "T1",
        "round": "r-hit",
        "dealer": {"card": "As", "war_card": "As"},
        "spots": [{"spot": 1, "wager": 500, "card": "As", "war": True, "war_card": "As"}],
    }
    r = s.post(f"{service.base}/v1/rounds", headers=auth(table), json=hit)
    assert r.status_code == 200, r.text
    return operator, table, r.json()["jackpots"][0]["id"]


def assert_refused(answer: tuple[int, Any], code: str) -> None:
    status, body = answer
    assert status == 400, answer
    assert set(body) == {"error"} and body["error"]["code"] == code, body
    assert body["error"]["message"], body


def test_a_chunked_body_gunicorn_cannot_decode_is_400_on_every_endpoint_with_a_body(
    service: Service, redis: redis_lib.Redis
) -> None:
    operator, table, payout = floor(service)
    endpoints = [
        ("POST", "/v1/rounds", table),
        ("PUT", "/v1/pools/main", operator),
        ("PUT", "/v1/tables/T1", operator),
        ("POST", "/v1/pools/main/adjustments", operator),
        ("POST", f"/v1/payouts/{payout}/confirm", operator),
        ("POST", f"/v1/payouts/{payout}/dispute", operator),
        ("POST", "/v1/reports/reconcile", key(service, "auditor")),
    ]
    before = snapshot(redis)
    for method, path, secret in endpoints:
        for wire in (b"zz\r\n{}\r\n0\r\n\r\n", b"2\r\n{}XX0\r\n\r\n", b'2;a="\r\n{}\r\n0\r\n\r\n'):
            assert_refused(send(service, method, path, secret, wire), "unreadable_body")
    assert snapshot(redis) == before
    # the same connection handling still serves a well-formed chunked round
    round_ = {"table": "T1", "round": "r-ok", "dealer": {"card": "Qs"},
              "spots": [{"spot": 1, "wager": 500, "card": "4d"}]}  # fmt: skip
    status, body = send(service, "POST", "/v1/rounds", table, chunked(json.dumps(round_).encode()))
    assert status == 200 and body["round"] == "r-ok", body
    assert "Traceback" not in service.log.read_text()


def test_repeated_keys_lone_surrogates_and_deep_nesting_are_400_over_http(
    service: Service, redis: redis_lib.Redis
) -> None:
    operator, table, payout = floor(service)
    head = '{"table": "T1", "round": "r-new", "dealer": {"card": "Qs"}, "spots": '
    rounds = [
        ('{"table": "T1", "round": "a", "round": "b", "dealer": {"card": "Qs"}, "spots": '
         '[{"spot": 1, "wager": 500, "card": "4d"}]}', "duplicate_key"),
        (head + '[{"spot": 1, "wager": 500, "card": "4d", "player": "\\ud800"}]}',
         "invalid_unicode"),
    ] + [
        (head + f'[{{"spot": 1, "wager": 500, "card": "4d", "player": {"[" * n + "]" * n}}}]}}',
         "too_deep")
        for n in range(940, 1010)
    ]  # fmt: skip
    before = snapshot(redis)
    for text, code in rounds:
        assert_refused(send(service, "POST", "/v1/rounds", table, chunked(text.encode())), code)
    reasons = [
        ("/v1/pools/main/adjustments", '{"id": "adj-1", "amount": 500, "reason": "\\ud800"}'),
        (f"/v1/payouts/{payout}/dispute", '{"reason": "\\udfff"}'),
    ]
    for path, text in reasons:
        assert_refused(
            send(service, "POST", path, operator, chunked(text.encode())), "invalid_unicode"
        )
    assert snapshot(redis) == before
    assert "Traceback" not in service.log.read_text()


def exchange(service: Service, request: bytes, finish: bool = True) -> bytes:
    """`request` sent as is on a connection of its own (its sending side then shut when
    `finish`); all the server answers until it closes."""
    url = urlsplit(service.base)
    with socket.create_connection((url.hostname, url.port), timeout=30) as sock:
        sock.sendall(request)
        if finish:
            sock.shutdown(socket.SHUT_WR)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


def test_a_body_shorter_than_its_length_is_400_and_changes_nothing(
    service: Service, redis: redis_lib.Redis
) -> None:
    operator, table, _ = floor(service)
    before = snapshot(redis)
    bodies = [
        ("PUT", "/v1/pools/second", operator,
         b'{"reset": 100000, "rate_bp": 100, "reserve_rate_bp": 0}'),
        ("PUT", "/v1/tables/T2", operator, b'{"pools": ["main"]}'),
        ("POST", "/v1/rounds", table,
         b'{"table": "T1", "round": "r-short", "dealer": {"card": "Qs"}, '
         b'"spots": [{"spot": 1, "wager": 500, "card": "4d"}]}'),
    ]  # fmt: skip
    for method, path, secret, body in bodies:
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {secret}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body) + 10}\r\n\r\n"
        ).encode()
        answer = exchange(service, head + body)  # 10 bytes short, then the client is done
        status, _, rest = answer.partition(b"\r\n")
        assert status.startswith(b"HTTP/1.1 400 "), answer
        error = json.loads(rest.partition(b"\r\n\r\n")[2])["error"]
        assert error["code"] == "unreadable_body", error
    assert snapshot(redis) == before


def test_a_body_over_the_limit_is_413_and_the_answer_says_the_connection_closes(
    service: Service,
) -> None:
    operator = key(service, "operator")
    head = (
        f"PUT /v1/pools/main HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {operator}\r\n"
        "Content-Type: application/json\r\nContent-Length: 2000000\r\n\r\n{"
    ).encode()
    answer = exchange(service, head, finish=False)
    status, _, rest = answer.partition(b"\r\n")
    assert status.startswith(b"HTTP/1.1 413 "), answer
    headers = rest.partition(b"\r\n\r\n")[0].lower()
    assert b"connection: close" in headers and b"keep-alive" not in headers, headers


def test_a_path_segment_that_is_not_a_name_is_400_under_gunicorn_and_changes_nothing(
    service: Service, redis: redis_lib.Redis
) -> None:
    """gunicorn decodes %2F into PATH_INFO; the app reads the path as written (RAW_URI), so
    a slash inside a segment is refused, not routed elsewhere or redirected (D245)."""
    operator, table, _ = floor(service)
    before = snapshot(redis)
    body = json.dumps({"table": "T1", "round": "r-path", "dealer": {"card": "Qs"},
                       "spots": [{"spot": 1, "wager": 500, "card": "4d"}]}).encode()  # fmt: skip
    sends = [
        ("PUT", "/v1/pools/%2F/game", operator, b'{"reason": "x"}', 3),  # was: 308 to /game
        ("GET", "/v1/accounting/days/%2F/timeline", operator, b"", 4),
        ("GET", "/v1/pools/main%2Fmeters", operator, b"", 3),  # was: main's meters
        ("GET", "/v1/pools//meters", operator, b"", 3),
        ("GET", "/v1/pools/%2e%2e/meters", operator, b"", 3),
        ("POST", "/v1%2Frounds", table, body, 1),  # not the hot path's: refused, not settled
    ]
    for method, path, secret, sent, segment in sends:
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {secret}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(sent)}\r\n"
            "Connection: close\r\n\r\n"
        ).encode()
        answer = exchange(service, head + sent)
        status, _, rest = answer.partition(b"\r\n")
        assert status.startswith(b"HTTP/1.1 400 "), answer
        error = json.loads(rest.partition(b"\r\n\r\n")[2])["error"]
        assert (error["code"], error["field"]) == ("invalid_path", "path"), error
        assert error["message"].startswith(f"path segment {segment} "), error
    assert snapshot(redis) == before
