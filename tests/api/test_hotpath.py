"""POST /v1/rounds is served ahead of Flask's dispatch (jackpot.api.hotpath): it must answer
exactly as the Flask view does, leave every other request to Flask, and keep the body
limit, the error bodies and the request metrics."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Callable, Iterable
from typing import Any

import pytest
import redis as redis_lib
from flask import Flask

from jackpot.api.body import MAX_BODY_BYTES
from jackpot.bootstrap import Services
from tests.support.api import Api, Keys, flask_only, round_body
from tests.support.checks import assert_error, report_body, snapshot


def answer(response: Any) -> tuple[int, Any, dict[str, str]]:
    headers = {
        k: v
        for k, v in response.headers.items()
        if k in ("Content-Type", "WWW-Authenticate", "Retry-After")
    }
    return response.status_code, json.loads(response.get_data()), headers


CASES: list[tuple[str, Callable[[Keys], dict[str, str]], bytes | None]] = [
    ("a valid report", lambda k: k.header("table"), None),
    ("the same report again (a replay)", lambda k: k.header("table"), None),
    ("no key", lambda k: {}, None),
    ("an unknown key", lambda k: {"Authorization": "Bearer nope"}, None),
    ("the operator's key", lambda k: k.header("operator"), None),
    ("a key for another table", lambda k: k.header("other_table"), None),
    ("a body that is not JSON", lambda k: k.header("table"), b"{not json"),
    ("an empty body", lambda k: k.header("table"), b""),
    ("NaN in the body", lambda k: k.header("table"), b'{"table": NaN}'),
    ("a list", lambda k: k.header("table"), b"[]"),
    ("an unknown card", lambda k: k.header("table"), None),
    ("an unknown table", lambda k: k.header("table"), None),
]


def case_body(name: str, raw: bytes | None) -> bytes:
    if raw is not None:
        return raw
    body = report_body("r-same")
    if name == "an unknown card":
        body = report_body("r-card")
        body["spots"][0]["card"] = "Zz"
    if name == "an unknown table":
        body = round_body("r-t", table="T2")
    return json.dumps(body).encode()


@pytest.mark.parametrize(("name", "headers", "raw"), CASES, ids=[c[0] for c in CASES])
def test_the_hot_path_answers_as_the_flask_view_does(
    app: Flask,
    linked: Api,
    keys: Keys,
    name: str,
    headers: Callable[[Keys], dict[str, str]],
    raw: bytes | None,
) -> None:
    body = case_body(name, raw)
    hot, plain = app.test_client(), flask_only(app)

    def post(client: Any) -> tuple[int, Any, dict[str, str]]:
        return answer(
            client.post(
                "/v1/rounds", data=body, headers=headers(keys), content_type="application/json"
            )
        )

    if name.startswith("the same report again"):
        post(hot)  # both answers below are then replays
    first, second = post(hot), post(plain)
    if name == "a valid report":
        # the first settles, the second is its replay: the same answer but for that flag
        assert first[1].pop("replayed") is False and second[1].pop("replayed") is True
    assert first == second
    assert first[2]["Content-Type"] == "application/json"


def test_other_methods_and_paths_go_on_to_flask(app: Flask, linked: Api, keys: Keys) -> None:
    client = app.test_client()
    assert_error(client.get("/v1/rounds", headers=keys.header("table")), 405, None)
    assert_error(client.put("/v1/rounds", headers=keys.header("table")), 405, None)
    # Flask's: a path not written as the route is refused before routing (D245)
    assert_error(client.post("/v1/rounds/", headers=keys.header("table")), 400, "path")
    assert_error(client.post("/v1%2Frounds", headers=keys.header("table")), 400, "path")
    assert client.get("/healthz").status_code == 200


def test_a_body_over_the_limit_is_413_and_changes_nothing(
    app: Flask, linked: Api, keys: Keys, redis: redis_lib.Redis
) -> None:
    before = snapshot(redis)
    big = b'{"table": "T1", "pad": "' + b"x" * MAX_BODY_BYTES + b'"}'
    for client in (app.test_client(), flask_only(app)):
        response = client.post(
            "/v1/rounds", data=big, headers=keys.header("table"), content_type="application/json"
        )
        assert_error(response, 413, None)
    assert snapshot(redis) == before


def wsgi_call(app: Flask, environ: dict[str, Any]) -> tuple[str, bytes]:
    status: list[str] = []

    def start_response(s: str, headers: list[tuple[str, str]], exc: Any = None) -> None:
        status.append(s)

    out: Iterable[bytes] = app.wsgi_app(environ, start_response)  # type: ignore[arg-type]
    return status[0], b"".join(out)


def environ(body: bytes, keys: Keys, **extra: Any) -> dict[str, Any]:
    return {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": "/v1/rounds",
        "SCRIPT_NAME": "",
        "QUERY_STRING": "",
        "SERVER_NAME": "localhost",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": io.StringIO(),
        "HTTP_AUTHORIZATION": keys.header("table")["Authorization"],
        **extra,
    }


def test_a_chunked_body_is_read_to_its_end(app: Flask, linked: Api, keys: Keys) -> None:
    # gunicorn gives a chunked body without CONTENT_LENGTH, as a terminated stream
    body = json.dumps(report_body("r-chunked")).encode()
    status, out = wsgi_call(app, environ(body, keys, **{"wsgi.input_terminated": True}))
    assert status == "200 OK", out
    assert json.loads(out)["round"] == "r-chunked"
    too_big = b" " * (MAX_BODY_BYTES + 1)
    status, out = wsgi_call(app, environ(too_big, keys, **{"wsgi.input_terminated": True}))
    assert status.startswith("413"), out


def test_a_body_without_a_length_is_empty(app: Flask, linked: Api, keys: Keys) -> None:
    body = json.dumps(report_body("r-nolength")).encode()
    for extra in ({}, {"CONTENT_LENGTH": "x"}, {"CONTENT_LENGTH": "-5"}):
        status, out = wsgi_call(app, environ(body, keys, **extra))
        assert status.startswith("400"), out
        assert json.loads(out)["error"]["code"] == "not_an_object"


def test_a_fault_is_a_500_error_body_and_logged(
    app: Flask,
    linked: Api,
    keys: Keys,
    services: Services,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    def broken(*args: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(services.groups, "report_round", broken)
    with caplog.at_level(logging.ERROR, logger="jackpot.api"):
        response = app.test_client().post(
            "/v1/rounds", json=report_body("r-bug"), headers=keys.header("table")
        )
    assert_error(response, 500, None)
    assert "RuntimeError: a bug" in caplog.text


def test_round_requests_are_counted_in_the_metrics(app: Flask, linked: Api, keys: Keys) -> None:
    client = app.test_client()

    def count(status: str) -> float:
        text = client.get("/metrics").get_data(as_text=True)
        for line in text.splitlines():
            if line.startswith("jackpot_http_requests_total{") and (
                'endpoint="/v1/rounds"' in line
                and 'method="POST"' in line
                and f'status="{status}"' in line
            ):
                return float(line.rsplit(" ", 1)[1])
        return 0.0

    ok, bad = count("200"), count("401")
    assert client.post("/v1/rounds", json=report_body("r-m"), headers=keys.header("table"))
    client.post("/v1/rounds", json=report_body("r-m2"))
    assert count("200") == ok + 1
    assert count("401") == bad + 1
