"""Strict checks of JSON values: no coercion, no truncation, the field always named."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta
from typing import Any

from jackpot.errors import ValidationError

IDENTIFIER = re.compile(r"[A-Za-z0-9._:-]{1,128}")
# a link group's name: part of a Redis hash tag ({namespace:group}) and of payout ids
GROUP_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
# An RFC 3339 time with its offset, its year from 1970 to 9998 (FIRST_DATE..LAST_DATE below);
# the request schemas publish the same pattern
YEAR_1970_TO_9998 = r"(19[7-9][0-9]|[2-8][0-9]{3}|9[0-8][0-9]{2}|99[0-8][0-9]|999[0-8])"
AFTER_THE_YEAR = (
    r"-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,6})?(Z|[+-][0-9]{2}:[0-9]{2})"
)
TIMESTAMP_PATTERN = YEAR_1970_TO_9998 + AFTER_THE_YEAR
TIMESTAMP = re.compile(TIMESTAMP_PATTERN)
# the same shape in any year: a time outside FIRST_DATE..LAST_DATE is out of range, not
# unreadable (docs/API.md, "Identifiers")
ANY_YEAR_TIMESTAMP = re.compile("[0-9]{4}" + AFTER_THE_YEAR)
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
DOT_SEGMENTS = frozenset({".", ".."})
# The dates the controller takes in any field (a time, a gaming day): from the epoch its times
# count from to a year before the calendar ends, so that the end of any day, in any time
# zone, still has a date (9999-12-31 was a 500).
FIRST_DATE = date(1970, 1, 1)
LAST_DATE = date(9998, 12, 31)


def check_date(day: date, field: str) -> date:
    """`day`, or a ValidationError when it is outside FIRST_DATE..LAST_DATE."""
    if not FIRST_DATE <= day <= LAST_DATE:
        raise ValidationError(field, f"must be from {FIRST_DATE} to {LAST_DATE}", "out_of_range")
    return day


MILLISECOND = timedelta(milliseconds=1)


def expect_object(raw: Any, field: str | None) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise ValidationError(field, "must be a JSON object", "not_an_object")
    return raw


def expect_keys(
    data: dict[str, Any], field: str | None, required: Iterable[str], optional: Iterable[str]
) -> None:
    """Refuse missing required keys and unknown keys."""
    allowed = set(required) | set(optional)
    for key in required:
        if key not in data:
            raise ValidationError(_join(field, key), "is required", "missing")
    for key in data:
        if key not in allowed:
            raise ValidationError(_join(field, key), "is not a known field", "unknown_field")


def expect_int(raw: Any, field: str, low: int | None = None, high: int | None = None) -> int:
    """An integer JSON number; a bool, a float (even 5.0) or a string is an error."""
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise ValidationError(field, "must be an integer", "not_an_integer")
    if low is not None and raw < low:
        raise ValidationError(field, f"must be at least {low}", "out_of_range")
    if high is not None and raw > high:
        raise ValidationError(field, f"must be at most {high}", "out_of_range")
    return raw


def expect_bool(raw: Any, field: str) -> bool:
    if not isinstance(raw, bool):
        raise ValidationError(field, "must be true or false", "not_a_boolean")
    return raw


def expect_str(raw: Any, field: str, max_len: int = 1000) -> str:
    if not isinstance(raw, str):
        raise ValidationError(field, "must be a string", "not_a_string")
    if not raw.strip():
        raise ValidationError(field, "must not be empty", "empty")
    if len(raw) > max_len:
        raise ValidationError(field, f"must be at most {max_len} characters", "too_long")
    return raw


def parse_identifier(raw: Any, field: str) -> str:
    """1-128 characters of A-Z a-z 0-9 . _ : -, other than `.` and `..` (docs/API.md)."""
    if not isinstance(raw, str) or not IDENTIFIER.fullmatch(raw):
        raise ValidationError(
            field, "must be 1-128 characters of A-Z a-z 0-9 . _ : -", "invalid_identifier"
        )
    if raw in DOT_SEGMENTS:
        # a URL path cannot hold them: every client resolves them away (RFC 3986 5.2.4)
        raise ValidationError(field, "may not be . or ..", "invalid_identifier")
    return raw


def parse_group(raw: Any, field: str = "group") -> str:
    """A link group's name: 1 to 32 of a-z 0-9 _ -, starting with a letter or digit."""
    if not isinstance(raw, str) or not GROUP_NAME.fullmatch(raw):
        raise ValidationError(
            field,
            "must be a link group name: 1 to 32 of a-z, 0-9, '_' and '-', starting with a "
            "letter or digit",
        )
    return raw


TIME_MESSAGE = (
    "must be an RFC 3339 time with its offset, such as 2026-11-24T10:34:17.123Z, "
    f"from {FIRST_DATE.year} to {LAST_DATE.year}"
)


def parse_timestamp(raw: Any, field: str) -> int:
    """An RFC 3339 time with its offset (2026-11-24T10:34:17.123Z), as epoch milliseconds."""
    ms = _epoch_ms(raw) if isinstance(raw, str) else None
    if ms is None:
        if isinstance(raw, str) and _in_another_year(raw):
            raise ValidationError(
                field, f"must be from {FIRST_DATE} to {LAST_DATE}", "out_of_range"
            )
        raise ValidationError(field, TIME_MESSAGE, "invalid_time")
    return ms


def _in_another_year(text: str) -> bool:
    """Whether `text` is a time such as TIMESTAMP reads, only in a year it does not take."""
    if not ANY_YEAR_TIMESTAMP.fullmatch(text):
        return False
    try:
        datetime.fromisoformat("2000" + text[4:])  # a leap year: 29 February reads too
    except ValueError:
        return False
    return True


@functools.lru_cache(maxsize=256)
def _epoch_ms(text: str) -> int | None:
    """A time's text as epoch ms, None if it is not one: a pure function of the text, kept
    for the texts seen last (a round's `dealt_at` is read where its report enters and again
    by the report's validator)."""
    if not TIMESTAMP.fullmatch(text):
        return None
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        return None
    return (when - EPOCH) // MILLISECOND


def _join(field: str | None, key: str) -> str:
    return f"{field}.{key}" if field else key
