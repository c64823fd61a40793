"""Jackpot payouts awaiting verification: list, confirm, dispute."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request

from jackpot.api.auth import current_key, require, services
from jackpot.api.body import json_body, known_query, query_int, request_body
from jackpot.domain.auth import Role
from jackpot.domain.requests import CONFIRM_REQUEST, DISPUTE_REQUEST
from jackpot.domain.validate import parse_identifier
from jackpot.errors import ValidationError

bp = Blueprint("payouts", __name__, url_prefix="/v1/payouts")

STATUSES = ("pending", "paid", "disputed")


@bp.get("")
@require(Role.OPERATOR, Role.AUDITOR)
def list_payouts() -> Response:
    known_query("status", "limit")
    status = request.args.get("status")
    if status is not None and status not in STATUSES:
        raise ValidationError("status", "must be pending, paid or disputed")
    limit = query_int("limit", 100, 1, 10_000)
    return jsonify({"payouts": services().payouts.list(status, limit)})


@bp.get("/<payout>")
@require(Role.OPERATOR, Role.AUDITOR)
def get_payout(payout: str) -> Response:
    parse_identifier(payout, "payout")
    return jsonify(services().payouts.get(payout))


@bp.post("/<payout>/confirm")
@require(Role.OPERATOR)
def confirm(payout: str) -> Response:
    parse_identifier(payout, "payout")
    note = _note(required=False)
    return jsonify(services().payouts.confirm(payout, current_key().who, note))


@bp.post("/<payout>/dispute")
@require(Role.OPERATOR)
def dispute(payout: str) -> Response:
    parse_identifier(payout, "payout")
    note = _note(required=True)
    return jsonify(services().payouts.dispute(payout, current_key().who, note))


def _note(required: bool) -> str:
    if not request_body():
        if required:
            raise ValidationError("reason", "a dispute names its reason", "missing")
        return ""
    data = (DISPUTE_REQUEST if required else CONFIRM_REQUEST).check(json_body())
    return str(data.get("reason", ""))
