"""Round reports and their stored results.

`POST /v1/rounds` is the hot path: `jackpot.api.hotpath` serves it ahead of Flask's
dispatch, through the same `report_round` below, so both answer alike.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request

from jackpot.api.auth import bearer_secret, check_role, controller, current_key, require
from jackpot.api.body import parse_json, request_body
from jackpot.domain.auth import Role
from jackpot.domain.validate import parse_identifier
from jackpot.errors import ForbiddenError
from jackpot.services import Controller

bp = Blueprint("rounds", __name__, url_prefix="/v1/rounds")

REPORTERS = (Role.TABLE,)


def report_round(ctl: Controller, authorization: str | None, raw: bytes) -> dict[str, Any]:
    """A round report from its Authorization header and raw body: the key first (401, 403),
    then the body (400), then the settlement."""
    secret = bearer_secret(authorization)
    # the round script refuses a revoked key itself, so a cached key is not looked up again
    key = ctl.authenticate(secret, rechecked_by_store=True)
    check_role(key, REPORTERS)
    return ctl.report_round(parse_json(raw), key, secret or "")


@bp.post("")
def report() -> Response:
    raw = request_body()
    return jsonify(report_round(controller(), request.headers.get("Authorization"), raw))


@bp.get("/<table>/<round_id>")
@require(Role.TABLE, Role.OPERATOR, Role.AUDITOR)
def stored(table: str, round_id: str) -> Response:
    parse_identifier(table, "table")
    parse_identifier(round_id, "round")
    key = current_key()
    if key.role is Role.TABLE and table not in key.tables:
        raise ForbiddenError(f"this key may not read rounds of table {table!r}")
    return jsonify(controller().stored_round(table, round_id))
