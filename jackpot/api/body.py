"""Request bodies and query parameters, strictly.

Flask views read a body with `request_body` and the round hot path with its own reader,
both refusing one the server cannot deliver (`UNREADABLE`) alike; both parse it with
`parse_json`.
"""

from __future__ import annotations

import json
import re
from typing import Any

import orjson
from flask import request
from gunicorn.http.errors import ParseException
from werkzeug.exceptions import ClientDisconnected

from jackpot.errors import ValidationError

# A 7-spot round is about 1 kB and a full Stadium round a few tens of kB.
MAX_BODY_BYTES = 1 << 20
# A round body nests five levels (report, spots, spot, bets, bet), a table's paytable four;
# far deeper input would only reach the recursion limit of whatever walks it next.
MAX_DEPTH = 32

# What reading a body raises when the server cannot deliver it: gunicorn's parse errors
# (a bad chunk size, chunk terminator or trailer), a socket error, timeout or early end,
# and Werkzeug's ClientDisconnected for the same under Flask's stream.
UNREADABLE = (ParseException, ClientDisconnected, OSError, ValueError)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


_DECODER = json.JSONDecoder(parse_constant=_no_constant)
_SURROGATE = re.compile("[\ud800-\udfff]")
# 19 digits: the shortest integer that may not fit in 64 bits (orjson reads it as a float),
# found by turning every digit into a 9 (bytes.translate: a tenth of a regular expression's
# time on a round's body)
_DIGITS_AS_NINES = bytes.maketrans(b"012345678", b"999999999")
_LONG_NUMBER = b"9" * 19
# a text's structure: its brackets, all written [ ], and the quotes around its strings
_BRACKETS = bytes.maketrans(b"{}", b"[]")
_NOT_BRACKETS = bytes(sorted(set(range(256)) - set(b'[]{}"')))


def request_body() -> bytes:
    """The Flask request's body; one the server cannot read is a 400 naming no field."""
    try:
        data = request.get_data(cache=True)
        expected = request.content_length
        if expected is not None and len(data) < expected:
            # gunicorn marks its input terminated, so Werkzeug reads it as it comes: a body
            # that ends before its length must be refused here, as the round path does
            raise ClientDisconnected()
    except UNREADABLE as exc:
        raise unreadable(exc) from None
    return data


def unreadable(exc: BaseException) -> ValidationError:
    why = str(exc) if isinstance(exc, ParseException) else "the connection ended or stalled"
    return ValidationError(None, f"the request body could not be read: {why}", "unreadable_body")


def json_body() -> Any:
    """The request's JSON; a body that is not JSON is a 400 naming no field."""
    return parse_json(request_body())


def parse_json(raw: bytes) -> Any:
    """A request body as JSON, strictly: UTF-8, no NaN or Infinity, no repeated key, no lone
    surrogate, at most MAX_DEPTH levels; the error names the field at fault."""
    if not raw:
        raise ValidationError(None, "the request body must be a JSON object", "not_an_object")
    if _LONG_NUMBER not in raw.translate(_DIGITS_AS_NINES):
        # orjson reads a body as `json` does, in a third of the time, but refuses some that
        # `json` reads (1e400, escapes it doubts) and reads an integer beyond 64 bits as a
        # float: what it refuses, and a body with so long a run of digits, `json` reads
        try:
            value = orjson.loads(raw)
        except orjson.JSONDecodeError:
            pass
        else:
            if not _plainly_sound(raw, value):
                _inspect(raw.decode("utf-8"))
            return value
    return read_by_json(raw)


def read_by_json(raw: bytes) -> Any:
    """`parse_json` by the standard library's reader alone: what it answers for any body."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ValidationError(None, "the request body is not UTF-8", "invalid_json") from None
    try:
        value = _DECODER.decode(text)
    except RecursionError:
        raise _too_deep(None) from None
    except ValueError:
        raise ValidationError(None, "the request body is not valid JSON", "invalid_json") from None
    if not _plainly_sound(raw, value):
        _inspect(text)
    return value


def _plainly_sound(raw: bytes, value: Any) -> bool:
    """Cheap proofs, in C, that the body has no repeated key, no lone surrogate and is not
    nested too deep; False sends it to `_inspect`, which finds the fault or clears it.

    Without a backslash there is no escape: every colon of the text outside a string then
    separates a key from its value and every colon inside one is a colon of the parsed
    string, so the parsed value, re-serialised, has as many colons as the text unless a
    repeated key dropped a pair. Lone surrogates only come from \\u escapes (the text is
    strict UTF-8).
    """
    if b"\\" in raw:
        return False
    if raw.count(b"[") + raw.count(b"{") > MAX_DEPTH and not _shallow(raw):
        return False
    try:
        out = orjson.dumps(value)
    except orjson.JSONEncodeError:  # an integer beyond 64 bits
        return False
    return out.count(b":") == raw.count(b":")


def _shallow(raw: bytes) -> bool:
    """Whether a text without escapes nests at most MAX_DEPTH deep, read from its brackets;
    False too when a string holds a bracket."""
    shape = raw.translate(_BRACKETS, _NOT_BRACKETS).replace(b'""', b"")
    if b'"' in shape:
        return False
    for _ in range(MAX_DEPTH):
        if not shape:
            return True
        # removes exactly the innermost pairs: one level a turn
        shape = shape.replace(b"[]", b"")
    return not shape


class _Pairs(list[tuple[str, Any]]):
    """A JSON object as written: its pairs in order, repeats included."""


# a value in the body, the field path it is at, and its depth
_Node = tuple[Any, str | None, int]


def _inspect(text: str) -> None:
    """Walk the body as written, in order; raise for the first repeated key, lone surrogate
    or container nested beyond MAX_DEPTH."""
    try:
        root = json.loads(text, object_pairs_hook=_Pairs, parse_constant=_no_constant)
    except RecursionError:
        raise _too_deep(None) from None
    stack: list[_Node] = [(root, None, 0)]
    while stack:
        node, path, depth = stack.pop()
        if isinstance(node, str):
            _check_text(node, path)
        elif isinstance(node, list):
            if depth >= MAX_DEPTH:
                raise _too_deep(path)
            stack.extend(reversed(_children(node, path, depth)))


def _check_text(text: str, path: str | None) -> None:
    if _SURROGATE.search(text):
        raise ValidationError(
            path,
            "holds a lone UTF-16 surrogate (\\ud800-\\udfff), which is not a character",
            "invalid_unicode",
        )


def _children(node: list[Any], path: str | None, depth: int) -> list[_Node]:
    """A list's items, or an object's values (raising for a key repeated or not text)."""
    if not isinstance(node, _Pairs):
        return [(child, f"{path or ''}[{i}]", depth + 1) for i, child in enumerate(node)]
    children: list[_Node] = []
    seen: set[str] = set()
    for key, child in node:
        field = _join(path, _printable(key))
        if _SURROGATE.search(key):
            raise ValidationError(
                field,
                "this key holds a lone UTF-16 surrogate, which is not a character",
                "invalid_unicode",
            )
        if key in seen:
            raise ValidationError(
                field, "is given twice: a repeated key is ambiguous", "duplicate_key"
            )
        seen.add(key)
        children.append((child, field, depth + 1))
    return children


def _too_deep(path: str | None) -> ValidationError:
    return ValidationError(
        path, f"nests deeper than {MAX_DEPTH} levels of objects and lists", "too_deep"
    )


def _printable(key: str) -> str:
    """A key fit for an error body: a lone surrogate written as its escape."""
    return key.encode("utf-8", "backslashreplace").decode("utf-8")


def _join(path: str | None, key: str) -> str:
    return f"{path}.{key}" if path else key


def query_int(name: str, default: int, low: int, high: int) -> int:
    """A query parameter of decimal digits (leading zeros allowed), within low..high: any
    run of digits is an integer, and one too large is out of range however it is written
    (docs/DECISIONS.md D268)."""
    raw = request.args.get(name)
    if raw is None:
        return default
    if not (raw.isascii() and raw.isdigit()):
        raise ValidationError(name, "must be a non-negative integer", "not_an_integer")
    digits = raw.lstrip("0") or "0"
    # past 19 digits it exceeds every bound; not parsed, so no length costs more
    value = int(digits) if len(digits) <= 19 else high + 1
    if not low <= value <= high:
        raise ValidationError(name, f"must be within {low}..{high}", "out_of_range")
    return value


def known_query(*names: str) -> None:
    """Refuse a query parameter the request does not take, one given twice, or one given
    empty: a misspelt `form=` silently ignored, or a `status=` read as no status at all,
    would answer a question nobody asked (docs/DECISIONS.md D246)."""
    for name in request.args:
        if name not in names:
            known = ", ".join(names) or "none"
            raise ValidationError(
                _printable(name),
                f"is not a parameter of this request (it takes: {known})",
                "unknown_parameter",
            )
        values = request.args.getlist(name)
        if len(values) > 1:
            raise ValidationError(name, "is given more than once", "repeated_parameter")
        if not values[0].strip():
            raise ValidationError(name, "is given empty: give it a value, or leave it out", "empty")
