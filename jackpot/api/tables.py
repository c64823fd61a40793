"""Tables: configuration, liveness, heartbeats."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify

from jackpot.api.auth import current_key, require, services
from jackpot.api.body import json_body
from jackpot.domain.auth import Role
from jackpot.domain.config import TableRecord
from jackpot.domain.tablecounts import ACKNOWLEDGE_REQUEST, COUNTS_REQUEST
from jackpot.domain.validate import parse_identifier
from jackpot.errors import ForbiddenError

bp = Blueprint("tables", __name__, url_prefix="/v1/tables")


def serialise(record: TableRecord, check: dict[str, Any] | None = None) -> dict[str, Any]:
    """A table as read: with `counts_check`, the controller's comparison of the table's own
    counts of the earliest day whose difference is still in sight, else of the latest day it
    reported (None: none reported)."""
    return {
        "table": record.table,
        **record.config.to_json(),
        "online": services().groups.main.tables.online(record),
        "last_seen": record.last_seen,
        "rounds": record.rounds,
        "version": record.version,
        "group": services().groups.of_table(record.table).name,
        "counts_check": check,
    }


@bp.get("")
@require(Role.OPERATOR, Role.AUDITOR)
def list_tables() -> Response:
    checks = services().table_counts.shown()
    return jsonify(
        {"tables": [serialise(t, checks.get(t.table)) for t in services().config.tables()]}
    )


@bp.get("/<table>")
@require(Role.OPERATOR, Role.AUDITOR)
def get_table(table: str) -> Response:
    parse_identifier(table, "table")
    record = services().groups.tables_of(table).get(table)
    return jsonify(serialise(record, services().table_counts.shown().get(table)))


@bp.put("/<table>")
@require(Role.OPERATOR)
def put_table(table: str) -> tuple[Response, int]:
    parse_identifier(table, "table")
    status, record = services().placement.put_table(table, json_body(), current_key().who)
    return jsonify({**serialise(record), "status": status}), 201 if status == "created" else 200


@bp.post("/<table>/move")
@require(Role.OPERATOR)
def move_table(table: str) -> Response:
    """Move a disabled table to another link group, with its recent rounds (journaled in
    both groups' house journals)."""
    parse_identifier(table, "table")
    moved = services().moves.move(table, json_body(), current_key().who)
    return jsonify({**moved.to_json(), "config": serialise(moved.record)})


@bp.post("/<table>/counts")
@require(Role.TABLE)
def counts(table: str) -> Response:
    """A table's own counts of what the controller acknowledged to it, per gaming day; the
    answer is the controller's latest comparison of each day (the worker compares)."""
    parse_identifier(table, "table")
    key = current_key()
    if table not in key.tables:
        raise ForbiddenError(f"this key may not report for table {table!r}")
    days = COUNTS_REQUEST.check(json_body())["days"]
    services().groups.tables_of(table).get(table)  # 404 for a table the controller does not know
    return jsonify({"table": table, "days": services().groups.counts_of(table).report(table, days)})


@bp.post("/<table>/counts/acknowledge")
@require(Role.OPERATOR, Role.AUDITOR)
def acknowledge_counts(table: str) -> Response:
    """A person acknowledges the difference between a table's own counts of a gaming day
    and the controller's (journaled with the key and the reason; once per difference): it
    leaves the metric, the alert and the console once the day is closed too."""
    parse_identifier(table, "table")
    body = ACKNOWLEDGE_REQUEST.check(json_body())
    services().groups.tables_of(table).get(table)  # 404 for a table the controller does not know
    counts = services().groups.counts_of(table)
    who = current_key().who
    status, ack = counts.acknowledge(
        table, body["day"], body.get("checked_at"), who, body["reason"]
    )
    return jsonify({"status": status, "acknowledgement": ack})


@bp.post("/<table>/heartbeat")
@require(Role.TABLE)
def heartbeat(table: str) -> Response:
    parse_identifier(table, "table")
    record = services().groups.tables_of(table).heartbeat(table, current_key())
    # the link state of each pool the table feeds: its side bet is open only while all run
    links = {p: services().groups.pools_of(p).get(p).link.value for p in record.config.pools}
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
