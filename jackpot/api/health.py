"""Liveness, readiness, metrics, the OpenAPI document and the meter display page."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify

from jackpot.api.auth import key_if_sent, require, services
from jackpot.api.metrics import accounting_exposition, exposition
from jackpot.api.openapi import document
from jackpot.domain.answers import to_json
from jackpot.domain.auth import Role
from jackpot.domain.healthanswers import Alive, Liveness, Ready
from jackpot.errors import StoreUnavailableError
from jackpot.services.faults import STORE_DOWN

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz() -> Response:
    return jsonify(to_json(Liveness(Alive.OK)))


@bp.get("/readyz")
def readyz() -> tuple[Response, int]:
    """Ready: the store answers and the self-check passed; else 503 and why."""
    built = services()
    if not built.ready():
        return jsonify(to_json(Ready.store_down())), 503
    try:
        # what rounds are settled by: another process's finding included (never a stale 200)
        health = built.health.current()
    except (*STORE_DOWN, StoreUnavailableError):
        return jsonify(to_json(Ready.store_down())), 503
    return jsonify(to_json(health.answer())), 200 if health.operable else 503


@bp.get("/metrics")
def metrics() -> Response:
    """Prometheus text of the public pools; of every pool for an operator's or auditor's key
    (the house's Prometheus: jackpot.metrics.audience)."""
    try:
        house = key_if_sent(Role.OPERATOR, Role.AUDITOR) is not None
    except (*STORE_DOWN, StoreUnavailableError):
        # the key cannot be looked up: the open view, which says so (jackpot_store_up 0) and
        # which the alerts then read, rather than a failed scrape (JackpotServiceDown)
        house = False
    return Response(exposition(services(), every_pool=house), mimetype="text/plain; version=0.0.4")


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
