"""What the API answers of a queued report (docs/API.md, POST /v1/reports/reconcile, GET
/v1/reports/{report_id}): the job, its status in the queue, and once finished its result (a
pool's reconciliation, jackpot.domain.reconcile, as the worker stored it). Declared once
(jackpot.domain.answers) for the JSON and the schema."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from jackpot.domain.answers import MS, TEXT, Given, answer_field

# a job's status as the queue (RQ) names it
JOB_STATUSES = (
    "created", "queued", "started", "deferred", "scheduled", "finished", "failed", "stopped",
    "canceled", "rate_limited", "ready_to_enqueue",
)  # fmt: skip


@dataclass(frozen=True, slots=True, kw_only=True)
class Report:
    NAME: ClassVar[str] = "Report"
    DOC: ClassVar[str] = "a queued report: its status, and its result once finished"

    id: str = answer_field(TEXT, "what GET /v1/reports/{report_id} asks for")
    kind: str = answer_field(Given({"enum": ["reconcile"]}), "what it reports")
    status: str = answer_field(Given({"enum": list(JOB_STATUSES)}), "its job's, in the queue")
    pool: str = answer_field(TEXT)
    from_ts: int = answer_field(MS, "the period's start, included", name="from")
    to_ts: int = answer_field(MS, "the period's end, left out", name="to")
    result: dict[str, Any] | None = answer_field(
        Given({"$ref": "#/components/schemas/Reconciliation"}),
        "finished: the reconciliation, as the worker stored it",
        omitted=True,
    )
