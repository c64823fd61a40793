"""Tables: configuration, liveness, heartbeats."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify

from jackpot.api.auth import current_key, require, services
from jackpot.api.body import json_body
from jackpot.domain.answers import to_json
from jackpot.domain.auth import Role
from jackpot.domain.config import TableRecord
from jackpot.domain.tableanswers import (
    AckStatus,
    CountsAcknowledged,
    CountsAnswer,
    Heartbeat,
    TableAnswer,
    TableList,
    Written,
)
from jackpot.domain.tablecounts import ACKNOWLEDGE_REQUEST, COUNTS_REQUEST
from jackpot.domain.validate import parse_identifier
from jackpot.errors import ForbiddenError

bp = Blueprint("tables", __name__, url_prefix="/v1/tables")


def serialise(
    record: TableRecord, check: dict[str, Any] | None = None, status: Written | None = None
) -> TableAnswer:
    """A table as read: with `counts_check`, the controller's comparison of the table's own
    counts of the earliest day whose difference is still in sight, else of the latest day it
    reported (None: none reported)."""
    online = services().groups.main.tables.online(record)
    group = services().groups.of_table(record.table).name
    return TableAnswer.of(record, online, group, check, status)


@bp.get("")
@require(Role.OPERATOR, Role.AUDITOR)
def list_tables() -> Response:
    checks = services().table_counts.shown()
    tables = [serialise(t, checks.get(t.table)) for t in services().config.tables()]
    return jsonify(to_json(TableList(tables)))


@bp.get("/<table>")
@require(Role.OPERATOR, Role.AUDITOR)
def get_table(table: str) -> Response:
    parse_identifier(table, "table")
    record = services().groups.tables_of(table).get(table)
    return jsonify(to_json(serialise(record, services().table_counts.shown().get(table))))


@bp.put("/<table>")
@require(Role.OPERATOR)
def put_table(table: str) -> tuple[Response, int]:
    parse_identifier(table, "table")
    status, record = services().placement.put_table(table, json_body(), current_key().who)
    answer = serialise(record, status=Written(status))
    return jsonify(to_json(answer)), 201 if status == "created" else 200


@bp.post("/<table>/move")
@require(Role.OPERATOR)
def move_table(table: str) -> Response:
    """Move a disabled table to another link group, with its recent rounds (journaled in
    both groups' house journals)."""
    parse_identifier(table, "table")
    moved = services().moves.move(table, json_body(), current_key().who)
    return jsonify(to_json(moved.answer(serialise(moved.record))))


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
    checked = services().groups.counts_of(table).report(table, days)
    return jsonify(to_json(CountsAnswer(table, checked)))


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
    return jsonify(to_json(CountsAcknowledged(AckStatus(status), ack)))


@bp.post("/<table>/heartbeat")
@require(Role.TABLE)
def heartbeat(table: str) -> Response:
    parse_identifier(table, "table")
    record = services().groups.tables_of(table).heartbeat(table, current_key())
    # the link state of each pool the table feeds: its side bet is open only while all run
    links = {p: services().groups.pools_of(p).get(p).link for p in record.config.pools}
    # an inoperable controller settles nothing: the side bet closes until it operates again
    operable = services().health.settles(table)
    return jsonify(to_json(Heartbeat.of(table, record.config.enabled, links, operable)))
