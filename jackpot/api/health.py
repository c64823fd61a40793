"""Liveness, readiness, metrics, the OpenAPI document and the meter display page."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify

from jackpot.api.auth import require, services
from jackpot.api.openapi import document
from jackpot.domain.auth import Role
from jackpot.metrics.collector import accounting_exposition, exposition

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz() -> Response:
    return jsonify({"status": "ok"})


@bp.get("/readyz")
def readyz() -> tuple[Response, int]:
    if services().ready():
        return jsonify({"status": "ready", "store": "up"}), 200
    return jsonify({"status": "unavailable", "store": "down"}), 503


@bp.get("/metrics")
def metrics() -> Response:
    return Response(exposition(services()), mimetype="text/plain; version=0.0.4")


@bp.get("/metrics/accounting")
@require(Role.OPERATOR, Role.AUDITOR)
def accounting_metrics() -> Response:
    """The reserve, contributions and liability: for Prometheus with an auditor's key."""
    return Response(accounting_exposition(services()), mimetype="text/plain; version=0.0.4")


@bp.get("/openapi.json")
def openapi() -> Response:
    return jsonify(document())


@bp.get("/")
def display() -> Response:
    """The meter sign: a page that polls the public meter read."""
    return current_app.send_static_file("display.html")
