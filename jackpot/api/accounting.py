"""Gaming-day accounting: a closed day's report as JSON, and each section as a CSV file."""

from __future__ import annotations

import csv
import io
from typing import Any

from flask import Blueprint, Response, jsonify

from jackpot.api.auth import require, services
from jackpot.api.body import known_query
from jackpot.api.journal import csv_text
from jackpot.domain.auth import Role
from jackpot.domain.gamingday import parse_day
from jackpot.errors import NotFoundError
from jackpot.services.dayclose import SECTIONS

bp = Blueprint("accounting", __name__, url_prefix="/v1/accounting")


@bp.get("/days")
@require(Role.AUDITOR)
def list_days() -> Response:
    known_query()
    return jsonify({"days": services().accounting.closed()})


@bp.get("/days/<day>")
@require(Role.AUDITOR)
def get_day(day: str) -> Response:
    known_query()
    return jsonify(services().accounting.statement(parse_day(day, "day")))


@bp.get("/days/<day>/<section>.csv")
@require(Role.AUDITOR)
def get_day_csv(day: str, section: str) -> Response:
    known_query()
    if section not in SECTIONS:
        raise NotFoundError("section", section)
    report = services().accounting.statement(parse_day(day, "day"))
    return Response(
        section_csv(report[section]),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{day}-{section}.csv"'},
    )


def section_csv(rows: list[dict[str, Any]]) -> str:
    """Rows as CSV with a header (an empty section is its header alone); text cells escaped
    against formula injection, booleans as true/false."""
    buf = io.StringIO()
    columns = list(rows[0]) if rows else []
    writer = csv.DictWriter(buf, columns, lineterminator="\r\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: _cell(v) for k, v in row.items()})
    return buf.getvalue()


def _cell(value: Any) -> Any:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    return csv_text(value)
