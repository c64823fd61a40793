"""Progressive signs, defined centrally (operator) and read by the sign screens (anyone)."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from jackpot.api.auth import current_key, require, services
from jackpot.api.body import json_body
from jackpot.domain.answers import to_json
from jackpot.domain.auth import Role
from jackpot.domain.signanswers import Deleted, SignAnswer, SignDeleted, SignList, Written
from jackpot.domain.validate import parse_identifier

bp = Blueprint("signs", __name__, url_prefix="/v1/signs")


@bp.get("")
@require(Role.OPERATOR, Role.AUDITOR)
def list_signs() -> Response:
    return jsonify(to_json(SignList([SignAnswer.of(s) for s in services().signs.all()])))


@bp.get("/<sign>")
def get_sign(sign: str) -> Response:
    """A sign's definition: public, as the screen that shows it needs no key."""
    parse_identifier(sign, "sign")
    return jsonify(to_json(SignAnswer.of(services().signs.get(sign))))


@bp.put("/<sign>")
@require(Role.OPERATOR)
def put_sign(sign: str) -> tuple[Response, int]:
    parse_identifier(sign, "sign")
    status, definition = services().signs.put(sign, json_body(), current_key().who)
    answer = SignAnswer.of(definition, Written(status))
    return jsonify(to_json(answer)), 201 if status == "created" else 200


@bp.delete("/<sign>")
@require(Role.OPERATOR)
def delete_sign(sign: str) -> Response:
    parse_identifier(sign, "sign")
    services().signs.delete(sign, current_key().who)
    return jsonify(to_json(SignDeleted(sign, Deleted.DELETED)))
