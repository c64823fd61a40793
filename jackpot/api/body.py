"""Request bodies and query parameters, strictly."""

from __future__ import annotations

import json
from typing import Any

from flask import request

from jackpot.errors import ValidationError

# A 7-spot round is about 1 kB and a full Stadium round a few tens of kB.
MAX_BODY_BYTES = 1 << 20


def json_body() -> Any:
    """The request's JSON; a body that is not JSON is a 400 naming no field."""
    return parse_json(request.get_data(cache=True))


def parse_json(raw: bytes) -> Any:
    """A request body as JSON, strictly (no NaN or Infinity)."""
    if not raw:
        raise ValidationError(None, "the request body must be a JSON object", "not_an_object")
    try:
        return json.loads(raw, parse_constant=_no_constant)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ValidationError(None, "the request body is not valid JSON", "invalid_json") from None


def query_int(name: str, default: int, low: int, high: int) -> int:
    raw = request.args.get(name)
    if raw is None:
        return default
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 19:
        raise ValidationError(name, "must be a non-negative integer", "not_an_integer")
    value = int(raw)
    if not low <= value <= high:
        raise ValidationError(name, f"must be within {low}..{high}", "out_of_range")
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")
