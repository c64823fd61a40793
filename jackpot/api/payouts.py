"""Jackpot payouts awaiting verification: list, confirm, dispute."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request

from jackpot.api.auth import current_key, require, services
from jackpot.api.body import json_body, known_query, query_int, request_body
from jackpot.domain.auth import Role
from jackpot.domain.requests import DISPUTE_REQUEST, Confirmation
from jackpot.domain.validate import parse_identifier
from jackpot.errors import ValidationError
from jackpot.services.payouts import HandPay

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
    """Mark a jackpot paid by hand: who paid it, who witnessed it, the slip."""
    parse_identifier(payout, "payout")
    given = Confirmation.from_json(json_body()) if request_body() else Confirmation("", "", "", "")
    key = current_key()
    paid_by = given.paid_by or key.label or key.who
    given.check_witness(paid_by)
    hand_pay = HandPay(paid_by, given.witness, given.slip, given.note)
    return jsonify(services().payouts.confirm(payout, key.who, hand_pay))


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
    data = DISPUTE_REQUEST.check(json_body())
    return str(data.get("reason", ""))
