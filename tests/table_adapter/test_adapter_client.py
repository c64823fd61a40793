"""The adapter's HTTP client: in-process through the WSGI app, error paths on a mock transport."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from flask import Flask

from table_adapter.link.client import ControllerClient, Verdict, retry_after
from tests.support.api import Api, Keys, round_body


def text(body: dict[str, Any]) -> str:
    return json.dumps(body, separators=(",", ":"))


@pytest.fixture
def wsgi(app: Flask, linked: Api, keys: Keys) -> Iterator[ControllerClient]:
    client = ControllerClient(
        "http://controller", keys.table, transport=httpx.WSGITransport(app=app)
    )
    yield client
    client.close()


def mock(handler: Callable[[httpx.Request], httpx.Response]) -> ControllerClient:
    return ControllerClient("http://controller", "k", transport=httpx.MockTransport(handler))


def test_a_report_is_acknowledged_with_the_settled_answer(wsgi: ControllerClient) -> None:
    body = round_body(
        "r1",
        spots=[
            {"spot": 1, "wager": 500, "card": "Qs", "player": "p1"},
            {"spot": 2, "wager": 500, "card": "4d"},
        ],
    )
    d = wsgi.report(text(body), "T1", "r1")
    assert d.verdict is Verdict.ACKED and d.status == 200
    assert d.answer is not None and not d.answer.replayed
    first, second = d.answer.bets
    assert (first.outcome, first.pay, first.player) == ("suited_tie", 7_500, "p1")
    assert (second.outcome, second.won) == ("none", 0)
    assert dict(d.answer.pools)["main"] == 100_000 + 10  # 1% of $10
    again = wsgi.report(text(body), "T1", "r1")
    assert again.verdict is Verdict.ACKED and again.answer is not None and again.answer.replayed


def test_another_body_under_the_same_round_is_rejected_not_retried(
    wsgi: ControllerClient,
) -> None:
    assert wsgi.report(text(round_body("r1")), "T1", "r1").verdict is Verdict.ACKED
    d = wsgi.report(text(round_body("r1", dealer="Kh")), "T1", "r1")
    assert d.verdict is Verdict.REJECTED and d.status == 409
    assert d.error is not None and d.error.code == "round_conflict"


def test_a_bad_report_is_rejected_with_the_field_at_fault(wsgi: ControllerClient) -> None:
    body = round_body("r2", spots=[{"spot": 1, "wager": 500, "card": "Zz"}])
    d = wsgi.report(text(body), "T1", "r2")
    assert d.verdict is Verdict.REJECTED and d.status == 400
    assert d.error is not None and d.error.field == "spots[0].card"


def test_refusals_of_the_table_itself_hold_delivery(
    app: Flask, wsgi: ControllerClient, linked: Api, keys: Keys
) -> None:
    linked.put_table("T1", enabled=False)
    d = wsgi.report(text(round_body("r3")), "T1", "r3")
    assert (d.verdict, d.error.code if d.error else None) == (Verdict.HELD, "table_disabled")
    unknown = wsgi.report(text(round_body("r3", table="T2")), "T2", "r3")
    assert unknown.verdict is Verdict.HELD and unknown.status == 404
    with ControllerClient(
        "http://controller", "jpk_wrong", transport=httpx.WSGITransport(app=app)
    ) as bad_key:
        d = bad_key.report(text(round_body("r3")), "T1", "r3")
        assert (d.verdict, d.status) == (Verdict.HELD, 401)
    with ControllerClient(
        "http://controller", keys.other_table, transport=httpx.WSGITransport(app=app)
    ) as other:
        assert other.report(text(round_body("r3")), "T1", "r3").status == 403


def test_heartbeats_and_the_public_meter(wsgi: ControllerClient) -> None:
    assert wsgi.heartbeat("T1").verdict is Verdict.ACKED
    assert wsgi.heartbeat("T9").verdict is Verdict.HELD  # not this key's table
    assert wsgi.pool_value("main") == 100_000
    assert wsgi.pool_value("nope") is None


def test_the_stored_text_is_sent_byte_for_byte() -> None:
    seen: list[bytes] = []
    body = '{"table":"T1","round":"r1",  "spots":[]}'

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.content)
        assert request.headers["content-type"] == "application/json"
        assert request.headers["authorization"] == "Bearer k"
        return httpx.Response(503, headers={"Retry-After": "2"}, json={"error": {}})

    with mock(handler) as client:
        for _ in range(2):
            d = client.report(body, "T1", "r1")
            assert (d.verdict, d.retry_after) == (Verdict.RETRY, 2.0)
    assert seen == [body.encode()] * 2


ANSWER = {
    "table": "T1",
    "round": "r1",
    "replayed": False,
    "jackpots": [],
    "spots": [{"spot": 1, "outcome": "none", "wager": 500, "pay": 0, "jackpot": 0, "envy": 0}],
    "pools": {"main": {"value": 100}},
}


@pytest.mark.parametrize(
    "response",
    [
        httpx.Response(200, text="<html>proxy</html>"),
        httpx.Response(200, json={"ok": True}),
        httpx.Response(200, json={**ANSWER, "round": "r2"}),  # someone else's answer
        httpx.Response(200, json={**ANSWER, "pools": {"main": {"value": 1.5}}}),  # no float cents
        httpx.Response(200, json={**ANSWER, "spots": [{"spot": 1}]}),
        httpx.Response(502, text="bad gateway"),
        httpx.Response(429, json={"error": {"code": "slow_down", "message": ""}}),
        httpx.Response(302, headers={"Location": "/elsewhere"}),
    ],
    ids=["html", "not-an-answer", "other-round", "float", "short-spot", "502", "429", "302"],
)
def test_answers_that_acknowledge_nothing_are_retried(response: httpx.Response) -> None:
    with mock(lambda request: response) as client:
        d = client.report("{}", "T1", "r1")
    assert d.verdict is Verdict.RETRY, d.reason
    assert d.answer is None


@pytest.mark.parametrize(
    "error",
    [httpx.ConnectError("refused"), httpx.ReadTimeout("slow"), httpx.RemoteProtocolError("eof")],
)
def test_transport_failures_are_retried(error: Exception) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise error

    with mock(handler) as client:
        d = client.report("{}", "T1", "r1")
        assert (d.verdict, d.status) == (Verdict.RETRY, None)
        assert type(error).__name__ in d.reason
        assert client.heartbeat("T1").verdict is Verdict.RETRY
        assert client.pool_value("main") is None


def test_a_4xx_without_the_error_body_is_still_a_rejection() -> None:
    with mock(lambda request: httpx.Response(422, text="nope")) as client:
        d = client.report("{}", "T1", "r1")
    assert d.verdict is Verdict.REJECTED
    assert d.error is not None and (d.error.code, d.error.message) == ("http_422", "nope")


def test_a_well_formed_answer_is_parsed() -> None:
    with mock(lambda request: httpx.Response(200, json=ANSWER)) as client:
        d = client.report("{}", "T1", "r1")
    assert d.verdict is Verdict.ACKED and d.answer is not None
    assert d.answer.pools == (("main", 100),)


def test_retry_after_reads_seconds_and_dates() -> None:
    assert retry_after("3") == 3.0
    assert retry_after(None) is None
    assert retry_after("soon") is None
    assert retry_after("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0  # in the past
