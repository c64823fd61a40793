"""JSON out, fast: orjson, with the standard library for what orjson refuses.

The round path writes JSON four times per report (the idempotency digest, the stored
result, the plan for the script, the answer); orjson does each an order of magnitude
faster than `json.dumps`. Both write compact JSON and the same text for the same value,
except that orjson refuses integers beyond 64 bits (only bad input carries them: the
fallback keeps such a body's digest computable, and the same body always gets the same one).
Input is still read by `json.loads`, whose strictness (no NaN, any integer for the
validator to name) the API relies on; `loads` here reads back what the controller wrote
itself (archived entries and round records), several times faster.
"""

from __future__ import annotations

import json
from typing import Any

import orjson


def dumps(value: Any) -> bytes:
    """Compact JSON, keys in the order given, non-ASCII as UTF-8."""
    try:
        return orjson.dumps(value)
    except (orjson.JSONEncodeError, TypeError):
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def canonical(value: Any) -> bytes:
    """Compact JSON with every object's keys sorted: one text per value."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except (orjson.JSONEncodeError, TypeError):
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False, sort_keys=True).encode()


def loads(text: str | bytes) -> Any:
    """The controller's own stored JSON, read back (never a client's input)."""
    return orjson.loads(text)
