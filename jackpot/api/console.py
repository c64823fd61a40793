"""The operator console: its page, and the reads it needs beyond the rest of the API.

`/console` is one page for floor supervisors and accounting (static HTML and a little
JavaScript over this API, with the person's own operator or auditor key). Beside it:
`/v1/session` says who the key is, how the casino keeps time and which files a closed
day has; `/v1/meters` gives every pool's meters, retired ones too; `/v1/activity` the recent
operators' steps.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, current_app, jsonify

from jackpot.api.auth import current_actor, current_key, require, services
from jackpot.api.body import known_query, query_int
from jackpot.api.pools import meters
from jackpot.domain.answers import to_json
from jackpot.domain.auth import Role
from jackpot.domain.dayfiles import FILES
from jackpot.domain.journalanswers import ActivityList
from jackpot.domain.sessionanswers import Session
from jackpot.settings import Settings

bp = Blueprint("console", __name__)


@bp.get("/console")
def page() -> Response:
    """The console page; it asks for a key and keeps it only in the tab's session."""
    response = current_app.send_static_file("console.html")
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/reports/day")
def day_report() -> Response:
    """A closed gaming day's report to read and print (`?day=YYYY-MM-DD`, default the last
    closed): the statement's figures, each pool's meter and each table's handle and hold
    drawn, the hit register, the voids and corrections; with an auditor's key."""
    # read whole, not streamed: a client that never reads the body leaves no file open
    page = Path(str(current_app.static_folder), "day.html").read_bytes()
    return Response(page, mimetype="text/html", headers={"Cache-Control": "no-cache"})


@bp.get("/v1/session")
@require(Role.OPERATOR, Role.AUDITOR)
def session() -> Response:
    """The key's role and person, the casino's clock and rules the console shows, and the
    names of a closed day's files (`/v1/accounting/days/{day}/{name}.csv`)."""
    key = current_key()
    actor = current_actor()
    settings: Settings = current_app.config["JACKPOT_SETTINGS"]
    days = current_app.extensions["jackpot"].days()  # the controller's, not this process's env
    answer = Session(
        key=key.key_id,
        who=key.who,
        role=key.role,
        person=actor.name,
        person_id=actor.person_id,
        shown=actor.person,
        time_zone=days.zone.key,
        gaming_day_start=days.start.strftime("%H:%M"),
        handpay_approval_cents=settings.handpay_approval_cents,
        offline_after_seconds=settings.offline_after_seconds,
        day_files=tuple(FILES),
    )
    return jsonify(to_json(answer))


@bp.get("/v1/meters")
@require(Role.OPERATOR, Role.AUDITOR)
def all_meters() -> Response:
    """Every pool's meters, retired pools included (the public read leaves them out)."""
    return jsonify({"pools": [meters(p) for p in services().pools.all()]})


@bp.get("/v1/activity")
@require(Role.OPERATOR, Role.AUDITOR)
def activity() -> Response:
    """The recent operators' steps, newest first: configuration, link control, adjustments,
    transfers, payout steps and key events, as their journal entries say them."""
    known_query("limit")
    limit = query_int("limit", 50, 1, 500)
    return jsonify(to_json(ActivityList(services().activity.recent(limit))))
