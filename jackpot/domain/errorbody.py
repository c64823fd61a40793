"""What the API answers when it refuses or fails: the error body of docs/API.md,
`{"error": {"code", "message", "field"?}}`, declared once (jackpot.domain.answers) for the
JSON every refusal is written as (jackpot/api/errors.py, the hot path, the sign stream) and
for the schema the document publishes for every 4xx and 5xx."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from jackpot.domain.answers import TEXT, Nested, answer_field


@dataclass(frozen=True, slots=True)
class ErrorDetail:
    NAME: ClassVar[str] = "ErrorDetail"
    DOC: ClassVar[str] = "why the request was refused or failed"

    code: str = answer_field(TEXT, "what a program matches on: e.g. invalid, payout_state")
    message: str = answer_field(TEXT, "what a person reads: what was wrong, and what to do")
    field: str | None = answer_field(
        TEXT, "the path of the field at fault (`spots[2].card`), where one is", omitted=True
    )


@dataclass(frozen=True, slots=True)
class ErrorBody:
    NAME: ClassVar[str] = "Error"
    DOC: ClassVar[str] = "a refusal or a failure: nothing was applied"

    error: ErrorDetail = answer_field(Nested(ErrorDetail))
