"""The controller's HTTP API as the table sees it: one attempt per call, each answer classified.

Retrying is the caller's business (sender.py): this module only says what an answer means.

    ACKED     200 with a well-formed answer for this very round (a void: 200, or 202 while
              a person's approval is awaited, naming this round)
    REJECTED  a 4xx that faults this report (400, 409 round_conflict, ...): never resent
    QUARANTINED  refused for when it was dealt (422 round_expired, 400 in_future): not
              resent, kept apart for an operator (answers.py QUARANTINE_REASONS)
    HELD      the table may not report now (401, 403, 404 unknown_table, 409 table_disabled):
              the report is sound and stays pending until an operator fixes the cause
    RETRY     nothing to trust: timeout, connection error, 5xx, 408, 429, an unparseable 200
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from enum import StrEnum
from typing import Any

import httpx

from table_adapter.link.answers import (
    AnswerFormatError,
    ErrorAnswer,
    RoundAnswer,
    parse_error_answer,
    parse_round_answer,
    quarantine_reason,
)
from table_adapter.link.meters import PoolReading, parse_pool

HOLD_STATUSES = frozenset({401, 403})
HOLD_CODES = frozenset({"unknown_table", "table_disabled"})
RETRY_STATUSES = frozenset({408, 425, 429})
USER_AGENT = "war-table-adapter/1"


class Verdict(StrEnum):
    """What an answer means for the report it answers."""

    ACKED = "acked"
    REJECTED = "rejected"
    QUARANTINED = "quarantined"
    HELD = "held"
    RETRY = "retry"


@dataclass(frozen=True, slots=True)
class Delivery:
    """One attempt's outcome: the verdict, what came back, and why."""

    verdict: Verdict
    status: int | None  # None: no HTTP answer at all
    text: str = ""
    answer: RoundAnswer | None = None
    error: ErrorAnswer | None = None
    reason: str = ""
    retry_after: float | None = None


class ControllerClient:
    """A table key's view of the controller: round reports, heartbeats, meter reads."""

    def __init__(
        self,
        base_url: str,
        key: str,
        *,
        timeout: float = 5.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self._http = httpx.Client(
            base_url=self.base_url,
            headers={"Authorization": f"Bearer {key}", "User-Agent": USER_AGENT},
            timeout=httpx.Timeout(timeout, connect=min(timeout, 2.0)),
            transport=transport,
        )

    def close(self) -> None:
        """Close the connection pool."""
        self._http.close()

    def __enter__(self) -> ControllerClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def report(self, body: str, table: str, round_id: str) -> Delivery:
        """POST the journaled report text exactly as stored (the idempotency digest covers it)."""
        try:
            response = self._http.post(
                "/v1/rounds",
                content=body.encode(),
                headers={"Content-Type": "application/json"},
            )
        except httpx.HTTPError as exc:
            return Delivery(Verdict.RETRY, None, reason=f"{type(exc).__name__}: {exc}")
        return classify_report(response, table, round_id)

    def void(self, body: str, table: str, round_id: str) -> Delivery:
        """POST the journaled void of a round, as stored (voiding it again changes nothing)."""
        try:
            response = self._http.post(
                f"/v1/rounds/{table}/{round_id}/void",
                content=body.encode(),
                headers={"Content-Type": "application/json"},
            )
        except httpx.HTTPError as exc:
            return Delivery(Verdict.RETRY, None, reason=f"{type(exc).__name__}: {exc}")
        return classify_void(response, table, round_id)

    def counts(self, table: str, days: list[dict[str, Any]]) -> Delivery:
        """POST the table's own counts of what it was acknowledged, per gaming day; ACKED on
        200, whose answer is the controller's latest comparison of each day."""
        try:
            response = self._http.post(f"/v1/tables/{table}/counts", json={"days": days})
        except httpx.HTTPError as exc:
            return Delivery(Verdict.RETRY, None, reason=f"{type(exc).__name__}: {exc}")
        if response.status_code == 200:
            return Delivery(Verdict.ACKED, 200, response.text)
        return _refusal(response)

    def heartbeat(self, table: str) -> Delivery:
        """POST the table's heartbeat; ACKED on any 2xx."""
        try:
            response = self._http.post(f"/v1/tables/{table}/heartbeat")
        except httpx.HTTPError as exc:
            return Delivery(Verdict.RETRY, None, reason=f"{type(exc).__name__}: {exc}")
        if response.is_success:
            return Delivery(Verdict.ACKED, response.status_code, response.text)
        return _refusal(response)

    def pool_value(self, pool: str) -> int | None:
        """The pool's visible meter in cents (the public read), or None if unavailable."""
        reading = self.pool(pool)
        return None if reading is None else reading.value

    def pool(self, pool: str) -> PoolReading | None:
        """The pool as a meter sign reads it (value, last hits), or None if unavailable."""
        try:
            response = self._http.get(f"/v1/pools/{pool}")
            return parse_pool(response.json()) if response.is_success else None
        except (httpx.HTTPError, ValueError):
            return None


def classify_report(response: httpx.Response, table: str, round_id: str) -> Delivery:
    """The verdict on a round report's HTTP answer."""
    status, text = response.status_code, response.text
    if status == 200:
        try:
            answer = parse_round_answer(json.loads(text))
        except (ValueError, AnswerFormatError) as exc:
            return Delivery(Verdict.RETRY, status, text, reason=f"unparseable answer: {exc}")
        if (answer.table, answer.round) != (table, round_id):
            reason = f"answer names {answer.table}/{answer.round}, not {table}/{round_id}"
            return Delivery(Verdict.RETRY, status, text, reason=reason)
        return Delivery(Verdict.ACKED, status, text, answer=answer)
    return _refusal(response)


def classify_void(response: httpx.Response, table: str, round_id: str) -> Delivery:
    """The verdict on a void's HTTP answer: taken (applied, held for approval, or void
    already) when it names this round."""
    status, text = response.status_code, response.text
    if status in (200, 202):
        try:
            answer = json.loads(text)
            named = (answer["table"], answer["round"]) == (table, round_id)
        except (ValueError, TypeError, KeyError) as exc:
            return Delivery(Verdict.RETRY, status, text, reason=f"unparseable answer: {exc}")
        if not named:
            return Delivery(Verdict.RETRY, status, text, reason="the answer names another round")
        return Delivery(Verdict.ACKED, status, text)
    return _refusal(response)


def _refusal(response: httpx.Response) -> Delivery:
    status, text = response.status_code, response.text
    if status >= 500 or status in RETRY_STATUSES or not 400 <= status < 500:
        return Delivery(
            Verdict.RETRY,
            status,
            text,
            reason=f"HTTP {status}",
            retry_after=retry_after(response.headers.get("Retry-After")),
        )
    error = _error_answer(status, text)
    verdict, reason = _refused_as(status, error)
    return Delivery(verdict, status, text, error=error, reason=reason)


def _error_answer(status: int, text: str) -> ErrorAnswer:
    """The controller's error answer; one made of the status and text when it is not one."""
    try:
        return parse_error_answer(json.loads(text))
    except (ValueError, AnswerFormatError):
        return ErrorAnswer(code=f"http_{status}", message=text[:200])


def _refused_as(status: int, error: ErrorAnswer) -> tuple[Verdict, str]:
    """What a refusal makes of the report (held, quarantined or rejected), and why."""
    held = status in HOLD_STATUSES or error.code in HOLD_CODES
    quarantine = quarantine_reason(status, error)
    verdict = Verdict.HELD if held else Verdict.REJECTED
    at = f" at {error.field}" if error.field else ""
    reason = f"HTTP {status} {error.code}{at}: {error.message}"
    if quarantine is not None and not held:
        verdict = Verdict.QUARANTINED
        reason = f"{quarantine} ({reason})"
    return verdict, reason


def retry_after(value: str | None) -> float | None:
    """Seconds from a Retry-After header (delta-seconds or an HTTP date); None if absent."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError):
        return None
