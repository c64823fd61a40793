"""Reconciliations for accounting (POST /v1/reports/reconcile, GET /v1/reports/{id}: the
contract keeps its URLs): queued for the worker, fetched when done (jackpot.services.audit)."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from jackpot.api.auth import current_key, require, services
from jackpot.api.body import json_body
from jackpot.domain.answers import to_json
from jackpot.domain.auth import Role

bp = Blueprint("reconciliations", __name__, url_prefix="/v1/reports")


@bp.post("/reconcile")
@require(Role.AUDITOR)
def reconcile() -> tuple[Response, int]:
    queued = services().audit.request_reconciliation(json_body(), current_key().who)
    return jsonify(to_json(queued.answer())), 202


@bp.get("/<report_id>")
@require(Role.AUDITOR)
def get_reconciliation(report_id: str) -> Response:
    return jsonify(to_json(services().audit.reconciliation(report_id).answer()))
