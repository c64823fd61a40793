"""Tables: configuration, liveness, heartbeats."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify

from jackpot.api.auth import current_key, require, services
from jackpot.api.body import json_body
from jackpot.domain.auth import Role
from jackpot.domain.validate import parse_identifier
from jackpot.store.config import TableRecord

bp = Blueprint("tables", __name__, url_prefix="/v1/tables")


def serialise(record: TableRecord) -> dict[str, Any]:
    return {
        "table": record.table,
        **record.config.to_json(),
        "online": services().tables.online(record),
        "last_seen": record.last_seen,
        "rounds": record.rounds,
        "version": record.version,
        "group": services().tables.group_of(record.table),
    }


@bp.get("")
@require(Role.OPERATOR, Role.AUDITOR)
def list_tables() -> Response:
    return jsonify({"tables": [serialise(t) for t in services().tables.all()]})


@bp.get("/<table>")
@require(Role.OPERATOR, Role.AUDITOR)
def get_table(table: str) -> Response:
    parse_identifier(table, "table")
    return jsonify(serialise(services().tables.get(table)))


@bp.put("/<table>")
@require(Role.OPERATOR)
def put_table(table: str) -> tuple[Response, int]:
    parse_identifier(table, "table")
    status, record = services().tables.put(table, json_body(), current_key().who)
    return jsonify({**serialise(record), "status": status}), 201 if status == "created" else 200


@bp.post("/<table>/move")
@require(Role.OPERATOR)
def move_table(table: str) -> Response:
    """Move a disabled table to another link group, with its recent rounds (journaled in
    both groups' house journals)."""
    parse_identifier(table, "table")
    moved = services().moves.move(table, json_body(), current_key().who)
    return jsonify({**moved.to_json(), "config": serialise(moved.record)})


@bp.post("/<table>/heartbeat")
@require(Role.TABLE)
def heartbeat(table: str) -> Response:
    parse_identifier(table, "table")
    record = services().tables.heartbeat(table, current_key())
    # the link state of each pool the table feeds: its side bet is open only while all run
    links = {p: services().pools.get(p).link.value for p in record.config.pools}
    # an inoperable controller settles nothing: the side bet closes until it operates again
    operable = services().health.settles(table)
    return jsonify(
        {
            "table": table,
            "enabled": record.config.enabled,
            "online": True,
            "pools": links,
            "controller": "operable" if operable else "inoperable",
            "side_bet_open": operable
            and record.config.enabled
            and all(state == "running" for state in links.values()),
        }
    )
