"""A path whose segment is not a name is a 400 naming it, on every route, before routing
(docs/DECISIONS.md D245): an encoded slash (`%2F`, which the server decodes), an empty
segment, `.` or `..`. Werkzeug's router would otherwise answer `PUT /v1/pools/%2F/game` with a
308 to `/v1/pools/game`, another resource. Over gunicorn: tests/e2e/test_hostile_input.py."""

from __future__ import annotations

import re
from typing import Any

import pytest
import redis as redis_lib
from flask import Flask

from jackpot.api.pathsegments import path_fault
from tests.support.api import Api, round_body
from tests.support.checks import assert_error, snapshot

pytestmark = pytest.mark.one_store  # refused before any store is read

_VARIABLE = re.compile(r"<(?:[^<>:]+:)?[^<>]+>")


def routes(app: Flask) -> list[tuple[str, str]]:
    """Every route of the app as (method, rule), HEAD and OPTIONS aside."""
    return sorted(
        (method, rule.rule)
        for rule in app.url_map.iter_rules()
        for method in rule.methods or ()
        if method not in ("HEAD", "OPTIONS")
    )


def faulty(rule: str, segment: str) -> str | None:
    """`rule` with `segment` for each variable (a route without one: `segment` added, then
    a name; the test client cannot send a path that starts with //). None where a variable
    is only part of a segment (`<section>.csv`) and `segment` holds no slash: it is no fault
    there."""
    if not _VARIABLE.search(rule):
        return (rule.rstrip("/") or "/x") + f"/{segment}/x"
    whole = all(p == "" or _VARIABLE.fullmatch(p) or "<" not in p for p in rule.split("/"))
    if not whole and "%2f" not in segment.lower():
        return None
    return _VARIABLE.sub(segment, rule)


def test_a_segment_that_is_not_a_name_is_400_on_every_route_and_changes_nothing(
    app: Flask, api: Api, redis: redis_lib.Redis
) -> None:
    api.put_pool()
    api.put_table()
    operator = api.keys.header("operator")
    before = snapshot(redis)
    for method, rule in routes(app):
        for segment in ("%2F", "%2f", "a%2Fb", "", ".", "..", "%2E%2E"):
            path = faulty(rule, segment)
            if path is None:
                continue
            answer = api.client.open(path, method=method, headers=operator, json={})
            assert answer.status_code == 400, (method, path, answer.get_data(as_text=True))
            error = assert_error(answer, 400, "path")
            assert error["code"] == "invalid_path", (method, path, error)
            assert error["message"].startswith("path segment"), error
    assert snapshot(redis) == before


def test_the_segment_is_named_as_the_client_wrote_it(api: Api) -> None:
    error = assert_error(api.client.put("/v1/pools/%2F/game", json={}), 400, "path")
    assert error["message"].startswith("path segment 3 '%2F' holds a slash"), error
    error = assert_error(api.client.get("/v1/accounting/days/%2F/timeline"), 400, "path")
    assert error["message"].startswith("path segment 4 '%2F'"), error
    error = assert_error(api.client.get("/v1/pools/"), 400, "path")
    assert error["message"] == "path segment 3 is empty (a doubled or trailing slash)"
    error = assert_error(api.client.get("/v1/pools/%2e%2E/meters"), 400, "path")
    assert error["message"] == "path segment 3 '%2e%2E' ('..' once decoded) is not a name"


def test_a_round_to_an_encoded_path_is_refused_not_settled(
    api: Api, redis: redis_lib.Redis
) -> None:
    """The hot path answers only /v1/rounds as written: /v1%2Frounds goes to Flask, refused."""
    api.put_pool()
    api.put_table()
    before = snapshot(redis)
    answer = api.client.post(
        "/v1%2Frounds", json=round_body("r1"), headers=api.keys.header("table")
    )
    assert assert_error(answer, 400, "path")["code"] == "invalid_path"
    assert snapshot(redis) == before
    assert api.report(round_body("r1")).status_code == 200  # as written, it settles


def test_names_pass_and_the_root_is_a_path(api: Api) -> None:
    api.put_pool()
    assert api.client.get("/v1/pools/main").status_code == 200
    assert api.client.get("/v1/pools/main?x=%2F").status_code == 200  # the query is not the path
    page = api.client.get("/")
    assert page.status_code == 200
    page.close()


@pytest.mark.parametrize(
    ("environ", "fault"),
    [
        ({"PATH_INFO": "/v1/pools//game"}, "path segment 3 is empty"),  # no raw target given
        ({"PATH_INFO": "/v1/pools/../game"}, "path segment 3 '..' is not a name"),
        ({"PATH_INFO": "/v1/pools/a/game"}, None),  # decoded, a %2F cannot be seen: no fault
        ({"RAW_URI": "http://h/v1/pools/%2F/game", "PATH_INFO": "/"}, "path segment 3 '%2F'"),
        ({"REQUEST_URI": "/v1/pools/x%2fy", "PATH_INFO": "/v1/pools/x/y"}, "path segment 3"),
        ({"RAW_URI": "*", "PATH_INFO": ""}, None),  # OPTIONS *
        ({"RAW_URI": "/?a=%2F", "PATH_INFO": "/"}, None),
    ],
)
def test_the_path_is_read_as_written_where_the_server_gives_it(
    environ: dict[str, Any], fault: str | None
) -> None:
    found = path_fault(environ)
    if fault is None:
        assert found is None
    else:
        assert found is not None and found.message.startswith(fault), found
        assert (found.status, found.field, found.code) == (400, "path", "invalid_path")
