"""Background reports for accounting: queued for the worker, fetched when done."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from jackpot.api.auth import controller, current_key, require
from jackpot.api.body import json_body
from jackpot.domain.auth import Role

bp = Blueprint("reports", __name__, url_prefix="/v1/reports")


@bp.post("/reconcile")
@require(Role.AUDITOR)
def reconcile() -> tuple[Response, int]:
    return jsonify(controller().request_reconciliation(json_body(), current_key().who)), 202


@bp.get("/<report_id>")
@require(Role.AUDITOR)
def get_report(report_id: str) -> Response:
    return jsonify(controller().report(report_id))
