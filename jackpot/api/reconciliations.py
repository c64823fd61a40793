"""Reconciliations for accounting (POST /v1/reports/reconcile, GET /v1/reports/{id}: the
contract keeps its URLs): queued for the worker, fetched when done (jackpot.services.audit)."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from jackpot.api.auth import current_key, require, services
from jackpot.api.body import json_body
from jackpot.domain.auth import Role

bp = Blueprint("reconciliations", __name__, url_prefix="/v1/reports")


@bp.post("/reconcile")
@require(Role.AUDITOR)
def reconcile() -> tuple[Response, int]:
    return jsonify(
        services().audit.request_reconciliation(json_body(), current_key().who).to_json()
    ), 202


@bp.get("/<report_id>")
@require(Role.AUDITOR)
def get_reconciliation(report_id: str) -> Response:
    return jsonify(services().audit.reconciliation(report_id).to_json())
