"""Round reports and their stored results."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from jackpot.api.auth import bearer, controller, current_key, require
from jackpot.api.body import json_body
from jackpot.domain.auth import Role
from jackpot.domain.validate import parse_identifier
from jackpot.errors import ForbiddenError

bp = Blueprint("rounds", __name__, url_prefix="/v1/rounds")


@bp.post("")
@require(Role.TABLE, rechecked_by_store=True)  # the round script refuses a revoked key
def report() -> Response:
    return jsonify(controller().report_round(json_body(), current_key(), bearer() or ""))


@bp.get("/<table>/<round_id>")
@require(Role.TABLE, Role.OPERATOR, Role.AUDITOR)
def stored(table: str, round_id: str) -> Response:
    parse_identifier(table, "table")
    parse_identifier(round_id, "round")
    key = current_key()
    if key.role is Role.TABLE and table not in key.tables:
        raise ForbiddenError(f"this key may not read rounds of table {table!r}")
    return jsonify(controller().stored_round(table, round_id))
