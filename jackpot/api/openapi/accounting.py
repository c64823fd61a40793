"""The journal, the accounting days, the reconciliation reports, the signed checkpoints."""

from __future__ import annotations

from typing import Any

from jackpot.api.openapi.operations import DAY, JOURNAL_PARAMS, SPAN_PARAMS, op, query_param, ref
from jackpot.services.dayclose import SECTIONS

PATHS: dict[str, Any] = {
    "/v1/checkpoints/latest": {
        "get": op(
            "the newest signed checkpoint of the journals' heads (404 before the first)",
            [],
            ref("Checkpoint"),
        )
    },
    "/v1/checkpoints": {
        "get": op(
            "signed checkpoints numbered above `after`, oldest first: an auditor's pull",
            [],
            {
                "type": "object",
                "required": ["checkpoints"],
                "properties": {"checkpoints": {"type": "array", "items": ref("Checkpoint")}},
            },
            params=[
                query_param("after", {"type": "integer", "minimum": 0, "default": 0}),
                query_param(
                    "limit", {"type": "integer", "minimum": 1, "maximum": 1000, "default": 100}
                ),
            ],
        )
    },
    "/v1/journal": {
        "get": op(
            "journal entries after a seq, oldest first (a pool's, or the house's), from "
            "the archive and the live tail as one sequence; `from`/`to` bound the entries' "
            "times, `table` keeps one table's",
            ["auditor"],
            ref("Journal"),
            params=JOURNAL_PARAMS + SPAN_PARAMS,
        ),
    },
    "/v1/journal.csv": {
        "get": op(
            "the journal as CSV",
            ["auditor"],
            {"type": "string"},
            params=JOURNAL_PARAMS[:2] + SPAN_PARAMS,
            content="text/csv",
        ),
    },
    "/v1/reports/reconcile": {
        "post": op(
            "queue a pool's reconciliation over [from, to) ms for the worker",
            ["auditor"],
            ref("Report"),
            body="ReconcileRequest",
            ok_status="202",
        ),
    },
    "/v1/accounting/days": {
        "get": op("the closed gaming days, oldest first", ["auditor"]),
    },
    "/v1/accounting/days/{day}/timeline": {
        "get": op(
            "what a closed day's report draws: each pool's meter over the day (whole cents "
            "at slice ends and around every hit, reset, adjustment and void) and the day's "
            "corrections with who and why",
            ["auditor"],
            params=[DAY],
        ),
    },
    "/v1/accounting/days/{day}": {
        "get": op(
            "a closed gaming day's report: per pool (balances, movements, liability, "
            "balanced), per table (handle, pays, win, hold, outcomes) and the hit register, "
            "and `checkpoint`, the one signed at its close (null: not yet covered); "
            "409 day_not_over or day_not_closed, 404 unknown_day before the history",
            ["auditor"],
            params=[DAY],
        ),
    },
    "/v1/accounting/days/{day}/{section}.csv": {
        "get": op(
            "one section of a closed gaming day's report as CSV, as an accounting system "
            "imports it (pools, tables, hits or table_counts; columns in "
            "docs/OPERATIONS.md)",
            ["auditor"],
            {"type": "string"},
            params=[
                DAY,
                {
                    "name": "section",
                    "in": "path",
                    "required": True,
                    "schema": {"enum": list(SECTIONS)},
                },
            ],
            content="text/csv",
        ),
    },
    "/v1/accounting/{section}.csv": {
        "get": op(
            "one section over the closed gaming days from..to (inclusive, at most 366) as "
            "one CSV file: the header once, each day's rows and totals; 409 for a day of "
            "the range not closed",
            ["auditor"],
            {"type": "string"},
            params=[
                {
                    "name": "section",
                    "in": "path",
                    "required": True,
                    "schema": {"enum": list(SECTIONS)},
                },
                *(
                    {
                        "name": name,
                        "in": "query",
                        "required": True,
                        "schema": {"type": "string", "format": "date"},
                    }
                    for name in ("from", "to")
                ),
            ],
            content="text/csv",
        ),
    },
    "/v1/reports/{report_id}": {
        "get": op(
            "a queued report: status, and the result when finished",
            ["auditor"],
            ref("Report"),
            params=[
                {
                    "name": "report_id",
                    "in": "path",
                    "required": True,
                    "schema": {"type": "string"},
                }
            ],
        ),
    },
}
