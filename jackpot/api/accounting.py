"""Gaming-day accounting: a closed day's report as JSON, and each section as a CSV file an
accounting system imports as it is (jackpot.domain.dayfiles), of one day or a range of days."""

from __future__ import annotations

from datetime import date, timedelta

from flask import Blueprint, Response, jsonify, request

from jackpot.api.auth import require, services
from jackpot.api.body import known_query
from jackpot.domain.auth import Role
from jackpot.domain.dayfiles import FILES, day_csv, numbers, section_rows
from jackpot.domain.gamingday import parse_day
from jackpot.errors import NotFoundError, ValidationError

bp = Blueprint("accounting", __name__, url_prefix="/v1/accounting")

#: the most days one range export holds
MAX_RANGE_DAYS = 366


@bp.get("/days")
@require(Role.AUDITOR)
def list_days() -> Response:
    known_query()
    return jsonify({"days": services().accounting.closed()})


@bp.get("/days/<day>")
@require(Role.AUDITOR)
def get_day(day: str) -> Response:
    known_query()
    statement = services().accounting.statement(parse_day(day, "day"))
    # the checkpoint signed at the day's close, beside the journaled statement (D257)
    covered = services().checkpoints.of_day(statement)
    return jsonify({**numbers(statement), "checkpoint": covered})


@bp.get("/days/<day>/timeline")
@require(Role.AUDITOR)
def get_day_timeline(day: str) -> Response:
    """What the day's printed report draws: each pool's meter over the day, the corrections."""
    known_query()
    return jsonify(services().accounting.timeline(parse_day(day, "day")))


@bp.get("/days/<day>/<section>.csv")
@require(Role.AUDITOR)
def get_day_csv(day: str, section: str) -> Response:
    known_query()
    if section not in FILES:
        raise NotFoundError("section", section)
    name = parse_day(day, "day")
    statement = services().accounting.statement(name)
    rows = section_rows(statement, section)
    return _csv(day_csv(section, [(name.isoformat(), rows)]), f"{name}-{section}")


@bp.get("/<section>.csv")
@require(Role.AUDITOR)
def get_range_csv(section: str) -> Response:
    """One section over the closed days `from`..`to` (inclusive) as one file."""
    known_query("from", "to")
    if section not in FILES:
        raise NotFoundError("section", section)
    first, last = (_day_param(name) for name in ("from", "to"))
    if last < first:
        raise ValidationError("to", "must not be before from", "out_of_range")
    if (last - first).days >= MAX_RANGE_DAYS:
        raise ValidationError("to", f"a range holds at most {MAX_RANGE_DAYS} days", "out_of_range")
    accounting = services().accounting
    days = [first + timedelta(days=n) for n in range((last - first).days + 1)]
    text = day_csv(
        section, [(d.isoformat(), section_rows(accounting.statement(d), section)) for d in days]
    )
    return _csv(text, f"{first}_{last}-{section}")


def _day_param(name: str) -> date:
    raw = request.args.get(name)
    if raw is None:
        raise ValidationError(name, "is required: a gaming day such as 2026-11-23", "missing")
    return parse_day(raw, name)


def _csv(text: str, name: str) -> Response:
    return Response(
        text,
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{name}.csv"'},
    )
