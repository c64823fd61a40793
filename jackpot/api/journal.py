"""The journal for accounting: JSON pages and a CSV export."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator

from flask import Blueprint, Response, jsonify, request, stream_with_context

from jackpot.api.auth import require, services
from jackpot.api.body import known_query, query_int
from jackpot.domain.answers import to_json
from jackpot.domain.auth import Role
from jackpot.domain.csvcells import csv_text
from jackpot.domain.journalanswers import JournalPage
from jackpot.domain.journals import Span, house_journal
from jackpot.domain.linkgroups import MAIN_GROUP, group_name
from jackpot.domain.validate import parse_identifier
from jackpot.errors import ValidationError

bp = Blueprint("journal", __name__, url_prefix="/v1")

CSV_COLUMNS = [
    "seq", "ts", "type", "who", "table", "round", "spot", "player", "outcome", "payout",
    "wagered", "bets", "to_visible_units", "to_reserve_units", "overflow_units", "meter_bp",
    "amount", "from_reserve_units", "seed_units", "adjustment", "target", "amount_units",
    "reason", "value_units", "reserve_units", "fixed", "envy", "receivers", "reset", "rate_bp",
    "reserve_rate_bp", "cap", "policy", "note", "config", "transfer", "from", "to", "paid_by",
    "witness", "slip", "person", "requested_by", "approver",
]  # fmt: skip
EXTRA = "extra"  # any field without a column, as JSON: an export never drops a field


def _pool() -> str | None:
    raw = request.args.get("pool")
    return None if raw is None else parse_identifier(raw, "pool")


def _group(pool: str | None) -> str:
    """Whose house journal: the `group` query names a link group (the main one if absent);
    a pool's journal is found by the pool alone."""
    raw = request.args.get("group")
    if raw is not None and pool is not None:
        raise ValidationError("group", "names a house journal: give a pool or a group, not both")
    return group_name(raw)


def _span() -> Span:
    return services().audit.span(
        request.args.get("from"), request.args.get("to"), request.args.get("table")
    )


@bp.get("/journal")
@require(Role.AUDITOR)
def journal() -> Response:
    known_query("pool", "group", "after", "limit", "from", "to", "table")
    pool = _pool()
    group = _group(pool)
    after = query_int("after", 0, 0, 2**62)
    limit = query_int("limit", 100, 1, 5000)
    entries = services().audit.journal(pool, after, limit, _span(), group)
    named = group if pool is None and group != MAIN_GROUP else None  # a house journal's
    answer = JournalPage(pool=pool, group=named, entries=[e.to_json() for e in entries])
    return jsonify(to_json(answer))


@bp.get("/journal.csv")
@require(Role.AUDITOR)
def journal_csv() -> Response:
    known_query("pool", "group", "after", "from", "to", "table")
    pool = _pool()
    group = _group(pool)
    after = query_int("after", 0, 0, 2**62)
    entries = services().audit.export(pool, after, _span(), group)  # 404 before streaming

    def rows() -> Iterator[str]:
        buf = io.StringIO()
        writer = csv.DictWriter(buf, [*CSV_COLUMNS, EXTRA])
        writer.writeheader()
        for entry in entries:
            row = entry.to_json()
            extra = {k: row.pop(k) for k in list(row) if k not in CSV_COLUMNS}
            cells = {k: csv_text(v) for k, v in row.items()}
            cells[EXTRA] = csv_text(json.dumps(extra, sort_keys=True)) if extra else ""
            writer.writerow(cells)
            yield buf.getvalue()
            buf.seek(0)
            buf.truncate()
        yield buf.getvalue()

    name = f"journal-{pool or house_journal(group)}.csv"
    return Response(
        stream_with_context(rows()),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )
