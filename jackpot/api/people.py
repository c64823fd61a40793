"""The register of people, read by operators and auditors to pick a payer and a witness.

The register is changed only on the controller's machine (`jackpot people`, D232)."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request

from jackpot.api.auth import require, services
from jackpot.api.body import known_query, query_int
from jackpot.domain.answers import to_json
from jackpot.domain.auth import Role
from jackpot.domain.people import parse_person_id
from jackpot.errors import NotFoundError, ValidationError

bp = Blueprint("people", __name__, url_prefix="/v1/people")

MAX_SEARCH = 100


@bp.get("")
@require(Role.OPERATOR, Role.AUDITOR)
def list_people() -> Response:
    """The register's people, by name: `q` searches ids and names; `active=false` lists the
    inactive too."""
    known_query("q", "active", "limit")
    text = request.args.get("q")  # given empty: refused by known_query
    if text is not None and len(text) > MAX_SEARCH:
        raise ValidationError("q", f"is longer than {MAX_SEARCH} characters", "too_long")
    active = request.args.get("active", "true")
    if active not in ("true", "false"):
        raise ValidationError("active", "must be true or false")
    limit = query_int("limit", 50, 1, 1000)
    people = services().people
    found = (
        people.search(text, active == "true", limit)
        if text is not None
        else people.everyone(active == "true")[:limit]
    )
    return jsonify({"people": [to_json(p) for p in found]})


@bp.get("/<person>")
@require(Role.OPERATOR, Role.AUDITOR)
def get_person(person: str) -> Response:
    person_id = parse_person_id(person, "person")
    found = services().people.get(person_id)
    if found is None:
        raise NotFoundError("person", person_id)
    return jsonify(to_json(found))
