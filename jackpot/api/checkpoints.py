"""The signed checkpoints of the journals' heads: public, like the signs (D256)."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from jackpot.api.auth import services
from jackpot.api.body import known_query, query_int
from jackpot.errors import NotFoundError

bp = Blueprint("checkpoints", __name__, url_prefix="/v1/checkpoints")


@bp.get("/latest")
def latest() -> Response:
    known_query()
    found = services().checkpoints.latest()
    if found is None:
        raise NotFoundError("checkpoint", "latest")
    return jsonify(found)


@bp.get("")
def listed() -> Response:
    """Checkpoints numbered above `after`, oldest first: an auditor's scheduled pull."""
    known_query("after", "limit")
    after = query_int("after", 0, 0, 2**62)
    limit = query_int("limit", 100, 1, 1000)
    return jsonify({"checkpoints": services().checkpoints.after(after, limit)})
