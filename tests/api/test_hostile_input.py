"""Hostile bodies get a 4xx with the API.md error body and change nothing: a repeated key
("ambiguous and refused with 400"), a lone surrogate, nesting far deeper than any body
needs, a chunked body the server cannot decode; then generated bodies of every kind."""

from __future__ import annotations

import json
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest
import redis as redis_lib
from flask import Flask
from gunicorn.http.body import Body, ChunkedReader
from gunicorn.http.unreader import IterUnreader
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jackpot.api.body import MAX_DEPTH, parse_json, read_by_json
from jackpot.errors import ValidationError
from tests.support.api import Api, flask_only
from tests.support.checks import (
    assert_error,
    jackpot_body,
    refused,
    report_body,
    send_raw,
    snapshot,
)
from tests.support.stores import SharedApp


@pytest.fixture
def floor(api: Api, shared: SharedApp) -> dict[str, Any]:
    """Built once per store layout, restored for each test."""
    return shared.world("hostile-input", lambda: build_floor(api))


def build_floor(api: Api) -> dict[str, Any]:
    """Pool `main`, a 5-spot table T1 and a jackpot awaiting verification."""
    api.put_pool()
    api.put_table("T1", spots=5)
    hit = api.report(jackpot_body("r-hit"))
    assert hit.status_code == 200, hit.get_json()
    return {"payout": hit.get_json()["jackpots"][0]["id"]}


def refused_as(
    redis: redis_lib.Redis, send: Callable[[], Any], field: str | None, code: str
) -> dict[str, Any]:
    error = refused(redis, send, 400, field)
    assert error["code"] == code, error
    return error


ROUND = (
    '{"table": "T1", "round": "r-new", "dealer": {"card": "Qs"}, "spots": ['
    '{"spot": 1, "player": "p-1", "wager": 500, "card": "4d"}, '
    '{"spot": 2, "wager": 500, "card": "5d"}]}'
)


def round_text(old: str, new: str) -> bytes:
    assert old in ROUND
    return ROUND.replace(old, new, 1).encode()


# -- repeated keys -----------------------------------------------------------------------------

REPEATED_IN_ROUNDS = [
    ("the round id", '"round": "r-new"', '"round": "a", "round": "b"', "round"),
    ("the same value twice", '"table": "T1"', '"table": "T1", "table": "T1"', "table"),
    ("the dealer's card", '{"card": "Qs"}', '{"card": "Qs", "card": "Kd"}', "dealer.card"),
    ("a spot's card", '"card": "4d"', '"card": "4d", "card": "5h"', "spots[0].card"),
    ("a later spot's wager", '"wager": 500, "card": "5d"', '"wager": 500, "wager": 2500, '
     '"card": "5d"', "spots[1].wager"),
    ("with other spacing", '"round": "r-new"', '"round":"a" ,\n\t"round" :"a"', "round"),
    ("spelled with an escape", '"round": "r-new"', '"round": "a", "r\\u006fund": "a"', "round"),
    ("inside an unknown field", '"table": "T1"', '"table": "T1", "x": {"a": 1, "a": 2}', "x.a"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("old", "new", "field"), [pytest.param(*c[1:], id=c[0]) for c in REPEATED_IN_ROUNDS]
)
def test_a_repeated_key_in_a_round_is_400_naming_it(
    api: Api, floor: dict[str, Any], redis: redis_lib.Redis, old: str, new: str, field: str
) -> None:
    raw = round_text(old, new)
    refused_as(
        redis, lambda: send_raw(api, "POST", "/v1/rounds", raw, "table"), field, "duplicate_key"
    )
    assert api.client.get("/v1/rounds/T1/a", headers=api.keys.header("auditor")).status_code == 404


def test_the_flask_view_refuses_a_repeated_key_too(
    app: Flask, api: Api, floor: dict[str, Any], redis: redis_lib.Redis
) -> None:
    raw = round_text('"round": "r-new"', '"round": "a", "round": "b"')
    send = lambda: flask_only(app).post(  # noqa: E731
        "/v1/rounds", data=raw, headers=api.keys.header("table"), content_type="application/json"
    )
    refused_as(redis, send, "round", "duplicate_key")


@pytest.mark.parametrize(
    ("method", "path", "role", "raw", "field"),
    [
        pytest.param(
            "POST", "/v1/pools/main/adjustments", "operator",
            '{"id": "adj-1", "amount": 500, "amount": -500, "reason": "ticket 17"}', "amount",
            id="an adjustment's amount",
        ),
        pytest.param(
            "POST", "/v1/payouts/{payout}/dispute", "operator",
            '{"reason": "camera check", "reason": "no reason"}', "reason",
            id="a dispute's reason",
        ),
        pytest.param(
            "POST", "/v1/payouts/{payout}/confirm", "operator",
            '{"reason": "paid", "reason": "paid"}', "reason",
            id="a confirmation's note",
        ),
        pytest.param(
            "PUT", "/v1/pools/main", "operator",
            '{"reset": 100000, "rate_bp": 100, "rate_bp": 9000, "reserve_rate_bp": 20}', "rate_bp",
            id="a pool's rate",
        ),
        pytest.param(
            "PUT", "/v1/tables/T1", "operator",
            '{"pools": ["main"], "spots": 5, "spots": 7}', "spots",
            id="a table's spots",
        ),
        pytest.param(
            "POST", "/v1/reports/reconcile", "auditor",
            '{"pool": "main", "pool": "other"}', "pool",
            id="a reconciliation's pool",
        ),
    ],
)  # fmt: skip
def test_a_repeated_key_in_any_body_is_400_naming_it(
    api: Api,
    floor: dict[str, Any],
    redis: redis_lib.Redis,
    method: str,
    path: str,
    role: str,
    raw: str,
    field: str,
) -> None:
    url = path.format(payout=floor["payout"])
    refused_as(redis, lambda: send_raw(api, method, url, raw, role), field, "duplicate_key")


# -- lone surrogates ---------------------------------------------------------------------------

SURROGATES_IN_ROUNDS = [
    ("a lone high surrogate", '"player": "p-1"', '"player": "\\ud800"', "spots[0].player"),
    ("a lone low surrogate", '"player": "p-1"', '"player": "p\\udfff"', "spots[0].player"),
    ("a pair reversed", '"player": "p-1"', '"player": "\\udc00\\ud800"', "spots[0].player"),
    ("a high one at the end", '"card": "5d"', '"card": "5d\\uDBFF"', "spots[1].card"),
    ("in the round id", '"round": "r-new"', '"round": "\\ud800"', "round"),
    ("in an unknown field", '"table": "T1"', '"table": "T1", "x": ["\\ud800"]', "x[0]"),
    ("in a key", '"table": "T1"', '"table": "T1", "\\ud800": 1', "\\ud800"),
]


@pytest.mark.parametrize(
    ("old", "new", "field"), [pytest.param(*c[1:], id=c[0]) for c in SURROGATES_IN_ROUNDS]
)
def test_a_lone_surrogate_in_a_round_is_400_naming_the_field(
    api: Api, floor: dict[str, Any], redis: redis_lib.Redis, old: str, new: str, field: str
) -> None:
    raw = round_text(old, new)
    send = lambda: send_raw(api, "POST", "/v1/rounds", raw, "table")  # noqa: E731
    refused_as(redis, send, field, "invalid_unicode")


@pytest.mark.parametrize(
    ("path", "raw"),
    [
        pytest.param(
            "/v1/pools/main/adjustments",
            '{"id": "adj-1", "amount": 500, "reason": "meter \\ud800 fix"}',
            id="an adjustment's reason",
        ),
        pytest.param("/v1/payouts/{payout}/dispute", '{"reason": "\\udfff"}', id="a dispute"),
        pytest.param("/v1/payouts/{payout}/confirm", '{"reason": "\\ud800"}', id="a confirmation"),
    ],
)
def test_a_lone_surrogate_in_a_reason_is_400_naming_it(
    api: Api, floor: dict[str, Any], redis: redis_lib.Redis, path: str, raw: str
) -> None:
    url = path.format(payout=floor["payout"])
    refused_as(
        redis, lambda: send_raw(api, "POST", url, raw, "operator"), "reason", "invalid_unicode"
    )


def test_a_surrogate_encoded_as_utf8_bytes_is_not_utf8(
    api: Api, floor: dict[str, Any], redis: redis_lib.Redis
) -> None:
    raw = b'{"reason": "\xed\xa0\x80"}'
    url = f"/v1/payouts/{floor['payout']}/dispute"
    refused_as(redis, lambda: send_raw(api, "POST", url, raw, "operator"), None, "invalid_json")


def test_an_escaped_surrogate_pair_is_one_character_and_accepted(
    api: Api, floor: dict[str, Any]
) -> None:
    raw = '{"id": "adj-1", "amount": 500, "reason": "\\ud83c\\udfb0 ticket 17"}'
    response = send_raw(api, "POST", "/v1/pools/main/adjustments", raw, "operator")
    assert response.status_code == 200, response.get_json()
    assert api.journal()[-1]["reason"] == "\U0001f3b0 ticket 17"


# -- deep nesting ------------------------------------------------------------------------------


def nested(depth: int, kind: str = "list") -> str:
    """A value `depth` containers deep."""
    if kind == "list":
        return "[" * depth + "]" * depth
    return '{"a": ' * depth + "1" + "}" * depth


# Around 980 levels the parser still copes and the digest's encoder, a few frames deeper,
# overflowed: every depth of that band, since the band moves with the stack above.
@pytest.mark.parametrize("kind", ["list", "object"])
def test_deep_nesting_in_a_round_is_400_at_every_depth(
    api: Api, floor: dict[str, Any], redis: redis_lib.Redis, kind: str
) -> None:
    before = snapshot(redis)
    for depth in [MAX_DEPTH, *range(940, 1010), 5000]:
        raw = round_text('"player": "p-1"', f'"player": {nested(depth, kind)}')
        response = send_raw(api, "POST", "/v1/rounds", raw, "table")
        error = assert_error(response, 400, response.get_json()["error"].get("field"))
        assert error["code"] == "too_deep", (depth, error)
    assert snapshot(redis) == before


def test_the_nesting_limit_names_the_first_container_beyond_it() -> None:
    inside = json.loads(nested(MAX_DEPTH - 1))
    assert parse_json(json.dumps({"a": inside}).encode()) == {"a": inside}
    with pytest.raises(ValidationError) as caught:
        parse_json(json.dumps({"a": [inside]}).encode())
    assert caught.value.code == "too_deep"
    assert caught.value.field == "a" + "[0]" * (MAX_DEPTH - 1)


def alternating(depth: int) -> str:
    text = "1"
    for i in range(depth):
        text = f'{{"a": {text}}}' if i % 2 else f"[{text}]"
    return text


def decoyed(depth: int) -> str:
    """Lists `depth` deep, each level between strings of brackets that balance the wrong way."""
    return '["]", ' * depth + "1" + ', "["]' * depth


@pytest.mark.parametrize(
    "shape",
    [
        pytest.param(nested, id="lists"),
        pytest.param(lambda d: nested(d, "object"), id="objects"),
        pytest.param(alternating, id="alternating"),
        pytest.param(decoyed, id="between strings of brackets"),
    ],
)
@pytest.mark.parametrize(
    "pad",
    [
        pytest.param("[" + ", ".join(["[]"] * 40) + "]", id="beside many lists"),
        pytest.param('"' + "[" * 40 + '"', id="beside a string of brackets"),
    ],
)
def test_the_nesting_limit_holds_whatever_the_shape(shape: Callable[[int], str], pad: str) -> None:
    def body(depth: int) -> bytes:  # the body's own object is one level more
        return f'{{"x": 1, "pad": {pad}, "v": {shape(depth)}}}'.encode()

    for depth in (1, MAX_DEPTH - 1):
        parse_json(body(depth))
    for depth in (MAX_DEPTH, MAX_DEPTH + 1, 3 * MAX_DEPTH):
        with pytest.raises(ValidationError) as caught:
            parse_json(body(depth))
        assert caught.value.code == "too_deep"


def test_deep_nesting_hidden_under_a_repeated_key_is_refused(
    api: Api, floor: dict[str, Any], redis: redis_lib.Redis
) -> None:
    # the parsed body keeps only the last value: the deep one is in the text alone
    raw = round_text('"table": "T1"', f'"table": {nested(500)}, "table": "T1"')
    before = snapshot(redis)
    response = send_raw(api, "POST", "/v1/rounds", raw, "table")
    error = assert_error(response, 400, response.get_json()["error"].get("field"))
    assert error["code"] in ("duplicate_key", "too_deep"), error
    assert snapshot(redis) == before


# -- chunked bodies the server cannot decode ---------------------------------------------------


def gunicorn_stream(wire: bytes) -> Body:
    """gunicorn's own reader of a chunked body, over `wire` (what follows the headers)."""
    return Body(ChunkedReader(SimpleNamespace(), IterUnreader([wire])))


BAD_CHUNKS = [
    pytest.param(b"zz\r\n{}\r\n0\r\n\r\n", id="a chunk size that is not hex"),
    pytest.param(b"2\r\n{}XX0\r\n\r\n", id="a chunk without its CRLF"),
    pytest.param(b'2;a="\r\n{}\r\n0\r\n\r\n', id="a broken chunk extension"),
    pytest.param(b"40\r\n{}", id="a body cut short"),
]

BODY_ENDPOINTS = [
    pytest.param("POST", "/v1/rounds", "table", id="rounds (hot path)"),
    pytest.param("PUT", "/v1/pools/main", "operator", id="put pool"),
    pytest.param("PUT", "/v1/tables/T1", "operator", id="put table"),
    pytest.param("POST", "/v1/pools/main/adjustments", "operator", id="adjustment"),
    pytest.param("POST", "/v1/payouts/{payout}/confirm", "operator", id="confirm"),
    pytest.param("POST", "/v1/payouts/{payout}/dispute", "operator", id="dispute"),
    pytest.param("POST", "/v1/reports/reconcile", "auditor", id="reconcile"),
]


def send_chunked(client: Any, api: Api, method: str, url: str, role: str, wire: bytes) -> Any:
    return client.open(
        url,
        method=method,
        headers={**api.keys.header(role), "Transfer-Encoding": "chunked"},
        content_type="application/json",
        environ_overrides={"wsgi.input": gunicorn_stream(wire), "wsgi.input_terminated": True},
    )


@pytest.mark.parametrize("wire", BAD_CHUNKS)
@pytest.mark.parametrize(("method", "path", "role"), BODY_ENDPOINTS)
def test_a_chunked_body_the_server_cannot_decode_is_400(
    app: Flask,
    api: Api,
    floor: dict[str, Any],
    redis: redis_lib.Redis,
    method: str,
    path: str,
    role: str,
    wire: bytes,
) -> None:
    url = path.format(payout=floor["payout"])
    send = lambda: send_chunked(app.test_client(), api, method, url, role, wire)  # noqa: E731
    refused_as(redis, send, None, "unreadable_body")


@pytest.mark.parametrize("wire", BAD_CHUNKS)
def test_the_flask_round_view_refuses_an_undecodable_body_too(
    app: Flask, api: Api, floor: dict[str, Any], redis: redis_lib.Redis, wire: bytes
) -> None:
    send = lambda: send_chunked(flask_only(app), api, "POST", "/v1/rounds", "table", wire)  # noqa: E731
    refused_as(redis, send, None, "unreadable_body")


def test_a_well_formed_chunked_round_settles(app: Flask, api: Api, floor: dict[str, Any]) -> None:
    body = json.dumps(report_body("r-chunks")).encode()
    wire = b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in (body[:7], body[7:])) + b"0\r\n\r\n"
    response = send_chunked(app.test_client(), api, "POST", "/v1/rounds", "table", wire)
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["round"] == "r-chunks"


# -- generated bodies --------------------------------------------------------------------------
#
# A body is generated as written, not as parsed: an object is a list of pairs, so a key can
# repeat, and a string may hold lone surrogates, escaped or as raw (invalid UTF-8) bytes.
# Whatever comes out, the answer is below 500 with the error body, a refusal changes
# nothing, and a body with one of the faults above is refused for one of them.


class Obj(list[tuple[str, Any]]):
    """An object as written: its pairs in order, a key perhaps twice."""


class Raw(str):
    """A value's text as written (a number, a literal)."""


SURROGATES = ["\ud800", "\udbff", "\udc00", "\udfff"]
KEYS = ["table", "round", "dealer", "spots", "spot", "card", "war_card", "war", "wager",
        "player", "bets", "community_war", "id", "amount", "units", "reason", "target"]  # fmt: skip

plain_texts = st.text(st.one_of(st.characters(codec="utf-8"), st.sampled_from("Qs:[{")), max_size=4)
texts = st.one_of(
    plain_texts,
    st.builds(lambda a, s, b: a + s + b, plain_texts, st.sampled_from(SURROGATES), plain_texts),
)
scalars = st.one_of(
    st.none().map(lambda _: Raw("null")),
    st.booleans().map(lambda b: Raw(json.dumps(b))),
    st.integers(-(2**70), 2**70).map(lambda n: Raw(str(n))),
    st.sampled_from(["0.5", "5.0", "1e400", "-0", "NaN", "Infinity"]).map(Raw),
    st.sampled_from(["Qs", "4d", "As", "p-1", "T1", "r-1", "visible", "ticket 17"]),
    texts,
)
keys = st.one_of(st.sampled_from(KEYS), texts)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.lists(st.tuples(keys, inner), max_size=3).map(Obj)
    ),
    max_leaves=8,
)
deep = st.builds(
    lambda depth, value: _wrap(value, depth),
    st.one_of(st.integers(MAX_DEPTH - 2, MAX_DEPTH + 2), st.integers(900, 1100)),
    scalars,
)


def _wrap(value: Any, depth: int) -> Any:
    for i in range(depth):
        value = [value] if i % 2 else Obj([("a", value)])
    return value


def as_written(value: Any) -> Any:
    if isinstance(value, dict):
        return Obj((k, as_written(v)) for k, v in value.items())
    if isinstance(value, list):
        return [as_written(v) for v in value]
    return value if isinstance(value, str) else Raw(json.dumps(value))


def render(value: Any, raw_bytes: bool) -> bytes:
    """The text of a body as written; lone surrogates as escapes or as UTF-8-style bytes."""
    parts: list[str] = []
    stack: list[Any] = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, Raw):
            parts.append(node)
        elif isinstance(node, str):
            parts.append(json.dumps(node, ensure_ascii=not raw_bytes))
        elif isinstance(node, Obj):
            items: list[Any] = [Raw("{")]
            for i, (k, v) in enumerate(node):
                items += [Raw(", ") if i else Raw(""), k, Raw(": "), v]
            stack.extend(reversed([*items, Raw("}")]))
        else:
            items = [Raw("[")]
            for i, v in enumerate(node):
                items += [Raw(", ") if i else Raw(""), v]
            stack.extend(reversed([*items, Raw("]")]))
    return "".join(parts).encode("utf-8", "surrogatepass")


def faults(value: Any, raw_bytes: bool) -> set[str]:
    """The codes a body with these faults may be refused with."""
    found: set[str] = set()
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, Raw):
            if node in ("NaN", "Infinity"):
                found.add("invalid_json")
        elif isinstance(node, str):
            if any(s in node for s in SURROGATES):
                found.add("invalid_json" if raw_bytes else "invalid_unicode")
        else:
            if depth >= MAX_DEPTH:
                found.add("too_deep")
            if isinstance(node, Obj):
                names = [k for k, _ in node]
                if len(set(names)) < len(names):
                    found.add("duplicate_key")
                stack += [(k, depth + 1) for k in names]
                stack += [(v, depth + 1) for _, v in node]
            else:
                stack += [(v, depth + 1) for v in node]
    return found


def containers(value: Any) -> list[Any]:
    out, stack = [], [value]
    while stack:
        node = stack.pop()
        if isinstance(node, list):  # Obj included
            out.append(node)
            stack += [v for _, v in node] if isinstance(node, Obj) else node
    return out


@st.composite
def mutated(draw: st.DrawFn, base: dict[str, Any]) -> Any:
    """`base` as written, with one to three of: a value replaced, a pair added, a key repeated."""
    body = as_written(base)
    for _ in range(draw(st.integers(1, 3))):
        node = draw(st.sampled_from(containers(body)))
        new = draw(st.one_of(values, deep))
        how = draw(st.sampled_from(["replace", "add", "repeat"]))
        if isinstance(node, Obj):
            if how == "add" or not node:
                node.insert(draw(st.integers(0, len(node))), (draw(keys), new))
            else:
                name = node[i := draw(st.integers(0, len(node) - 1))][0]
                if how == "replace":
                    node[i] = (name, new)
                else:
                    node.insert(draw(st.integers(0, len(node))), (name, new))
        elif node and how == "replace":
            node[draw(st.integers(0, len(node) - 1))] = new
        else:
            node.append(new)
    return body


def check(
    api: Api, redis: redis_lib.Redis, send: Callable[[bytes], Any], body: Any, raw_bytes: bool
) -> None:
    raw = render(body, raw_bytes)
    expected = faults(body, raw_bytes)
    before = snapshot(redis)
    response = send(raw)
    assert response.status_code < 500, (raw[:300], response.get_data(as_text=True)[:300])
    if response.status_code >= 400:
        error = assert_error(
            response, response.status_code, response.get_json()["error"].get("field")
        )
        assert snapshot(redis) == before, (raw[:300], error)
    if expected:
        assert response.status_code == 400, (raw[:300], expected, response.get_json())
        assert response.get_json()["error"]["code"] in expected, (raw[:300], expected)


GENERATED = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@GENERATED
@given(body=mutated(report_body("r-gen")), raw_bytes=st.booleans())
def test_a_generated_round_body_never_gets_a_500_and_a_refusal_changes_nothing(
    api: Api, floor: dict[str, Any], redis: redis_lib.Redis, body: Any, raw_bytes: bool
) -> None:
    check(
        api, redis, lambda raw: send_raw(api, "POST", "/v1/rounds", raw, "table"), body, raw_bytes
    )


@GENERATED
@given(
    body=mutated({"id": "adj-gen", "amount": 500, "reason": "meter correction, ticket 17"}),
    raw_bytes=st.booleans(),
)
def test_a_generated_adjustment_never_gets_a_500_and_a_refusal_changes_nothing(
    api: Api, floor: dict[str, Any], redis: redis_lib.Redis, body: Any, raw_bytes: bool
) -> None:
    send = lambda raw: send_raw(api, "POST", "/v1/pools/main/adjustments", raw, "operator")  # noqa: E731
    check(api, redis, send, body, raw_bytes)


@GENERATED
@given(body=mutated({"reason": "camera check"}), raw_bytes=st.booleans())
def test_a_generated_dispute_never_gets_a_500_and_a_refusal_changes_nothing(
    api: Api, floor: dict[str, Any], redis: redis_lib.Redis, body: Any, raw_bytes: bool
) -> None:
    url = f"/v1/payouts/{floor['payout']}/dispute"
    check(api, redis, lambda raw: send_raw(api, "POST", url, raw, "operator"), body, raw_bytes)


@st.composite
def chunked(draw: st.DrawFn, body: bytes) -> tuple[bytes, bool]:
    """`body` in chunks, the framing perhaps broken; (wire, broken)."""
    cuts = sorted(draw(st.lists(st.integers(0, len(body)), max_size=4)))
    pieces = [body[a:b] for a, b in zip([0, *cuts], [*cuts, len(body)], strict=True)]
    frames = [b"%x\r\n%s\r\n" % (len(p), p) for p in pieces if p] + [b"0\r\n\r\n"]
    fault = draw(st.sampled_from(["none", "size", "terminator", "cut"]))
    i = draw(st.integers(0, len(frames) - 1))
    frame = frames[i]
    if fault == "size":
        frame = (
            draw(st.sampled_from([b"zz", b"-1", b" ", b"0x5", b"5 5", b"\xff"]))
            + frame[frame.index(b"\r\n") :]
        )
    elif fault == "terminator" and frame != b"0\r\n\r\n":
        frame = frame[:-2] + draw(st.sampled_from([b"XX", b"\n", b"\r"]))
    elif fault == "cut":
        frames = frames[:i]
        frame = frame[: draw(st.integers(0, len(frame) - 1))]
    else:
        fault = "none"
    return b"".join([*frames[:i], frame, *frames[i + 1 :]]), fault != "none"


@GENERATED
@given(data=st.data())
def test_a_generated_chunked_round_either_settles_or_is_400_changing_nothing(
    app: Flask, api: Api, floor: dict[str, Any], redis: redis_lib.Redis, data: st.DataObject
) -> None:
    body = json.dumps(report_body(f"r-chunk-{data.draw(st.integers(0, 10**6))}")).encode()
    wire, broken = data.draw(chunked(body))
    before = snapshot(redis)
    response = send_chunked(app.test_client(), api, "POST", "/v1/rounds", "table", wire)
    if broken:
        assert_error(response, 400, None)
        assert snapshot(redis) == before
    else:
        assert response.status_code == 200, response.get_json()


def _answer(read: Callable[[bytes], Any], raw: bytes) -> Any:
    """What a reader makes of a body: its value (with each number's type), or its error."""
    try:
        value = read(raw)
    except ValidationError as exc:
        return ("refused", exc.code, exc.field, str(exc))
    return ("read", value, json.dumps(value, default=repr), repr(value))


# Bodies as clients send them and as they go wrong: JSON texts, spliced with the spellings
# orjson and the standard library read differently (long and signed integers, exponents,
# escapes, surrogates, a byte order mark, control characters, repeats, NaN).
_ODD = st.sampled_from(
    [
        "12345678901234567890", "-12345678901234567890", "18446744073709551616",
        "9223372036854775807", "-9223372036854775809", "1e400", "-1E400", "1e-400", "1.5e3",
        "-0", "0.1", "NaN", "Infinity", '"\\ud800"', '"\\udc00\\ud800"', '"\\ud83d\\ude00"',
        '"\\u0000"', '"a\x01b"', '"\\/"', '"é"', "\ufeff", '{"a": 1, "a": 2}', "[[[[1]]]]",
        "true", "null", "{}", "[]", '"x"',
    ]
)  # fmt: skip


@st.composite
def _bodies(draw: Any) -> bytes:
    odd: list[str] = []  # spellings put where a value goes, each behind a marker string

    def marked(spelling: str) -> str:
        odd.append(spelling)
        return f"@odd{len(odd) - 1}@"

    value = draw(
        st.recursive(
            st.one_of(
                st.integers(),
                st.floats(allow_nan=False),
                st.text(max_size=4),
                st.none(),
                _ODD.map(marked),
            ),
            lambda inner: (
                st.lists(inner, max_size=3)
                | st.dictionaries(st.text(max_size=3), inner, max_size=3)
            ),
            max_leaves=8,
        )
    )
    text = json.dumps({"table": "T1", "v": value}, ensure_ascii=draw(st.booleans()))
    for i, spelling in enumerate(odd):
        text = text.replace(f'"@odd{i}@"', spelling)
    if draw(st.booleans()):  # and one anywhere at all
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(_ODD) + text[at:]
    return text.encode("utf-8", "surrogatepass")


@settings(max_examples=600, deadline=None)
@given(raw=_bodies())
def test_the_fast_reader_answers_every_body_as_the_standard_library_does(raw: bytes) -> None:
    """parse_json reads a body with orjson where orjson reads it as `json` does, and by
    `read_by_json` elsewhere: any body gets the same value, or the same error."""
    assert _answer(parse_json, raw) == _answer(read_by_json, raw)
