"""Round reports and their stored results.

`POST /v1/rounds` is the hot path: `jackpot.api.hotpath` serves it ahead of Flask's
dispatch, through the same `report_round` below, so both answer alike.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request

from jackpot import logs
from jackpot.api.auth import (
    bearer_secret,
    check_role,
    current_actor,
    current_key,
    require,
    services,
)
from jackpot.api.body import json_body, known_query, parse_json, request_body
from jackpot.bootstrap import Services
from jackpot.domain.answers import to_json
from jackpot.domain.auth import Role, a_tables_key
from jackpot.domain.payout import Payout, VoidRequest
from jackpot.domain.requests import (
    ROUND_VOID_APPROVE_REQUEST,
    ROUND_VOID_REFUSE_REQUEST,
    ROUND_VOID_REQUEST,
)
from jackpot.domain.roundanswers import RoundResult
from jackpot.domain.validate import parse_identifier
from jackpot.errors import ForbiddenError, JackpotError, NotFoundError, ValidationError

bp = Blueprint("rounds", __name__, url_prefix="/v1/rounds")
voids_bp = Blueprint("voids", __name__, url_prefix="/v1/voids")


@voids_bp.get("/awaiting")
@require(Role.OPERATOR, Role.AUDITOR)
def awaiting() -> Response:
    """Every void awaiting a person's approval, oldest first: what a supervisor on shift is
    asked to approve or refuse. Round voids in `voids`, payout voids in `payouts` (D286);
    `count` is both."""
    holders = table_labels()
    found = [{"kind": "round", **named_asker(v, holders)} for v in services().voids.awaiting()]
    asked = services().payouts.awaiting_voids()
    payouts = [payout_void(p, p.void_request) for p in asked if p.void_request]
    return jsonify({"voids": found, "payouts": payouts, "count": len(found) + len(payouts)})


@voids_bp.get("/applied")
@require(Role.OPERATOR, Role.AUDITOR)
def applied() -> Response:
    """Every round's void applied in [from, to), of every link group, oldest first, as the
    day's voids section shows each (who asked, who approved, why, what it took back): what a
    shift did that the payouts' history does not hold (issue 40). Read from the house
    journals, Redis's tail included: a shift still under way."""
    known_query("from", "to")
    if request.args.get("from") is None:
        raise ValidationError("from", "is required: when the span begins", "missing")
    audit = services().audit
    span = audit.span(request.args.get("from"), request.args.get("to"), None)
    rows = audit.applied_round_voids(span)
    return jsonify({"voids": rows, "count": len(rows)})


def payout_void(p: Payout, asked: VoidRequest) -> dict[str, Any]:
    """A payout's void awaiting approval, as the awaiting list shows it: the payout (its id,
    where it was won, its amount and status) and what its `void_request` (`asked`) says."""
    return {
        "kind": "payout",
        "payout": p.id,
        "table": p.table,
        "round": p.round,
        "spot": p.spot,
        "pool": p.pool,
        "amount": p.amount,
        "status": p.status,
        "requested_by": asked.requested_by,
        "person": asked.person or asked.requested_by,
        # the register's id of the one who asked, which a person approving must not be (D232)
        "person_id": asked.person_id or None,
        "reason": asked.reason,
        "at": int(asked.at),
        "from": asked.from_ or p.status,
    }


def named_state(state: dict[str, Any]) -> dict[str, Any]:
    """What is void of a round, with who asked in people's words (named_asker)."""
    holders = table_labels()
    held = state["awaiting_approval"]
    return {
        **state,
        "voids": [named_asker(v, holders) for v in state["voids"]],
        "awaiting_approval": named_asker(held, holders) if held else held,
    }


def table_labels() -> dict[str, str]:
    """Each table's key (its `who`) to the label it was made with: a device named as such,
    never as a person (PeopleService.keys_held leaves devices' labels out for that)."""
    return {k.who: k.label for k, _ in services().credentials.list() if a_tables_key(k.who)}


def named_asker(state: dict[str, Any], holders: dict[str, str]) -> dict[str, Any]:
    """A void's `person` as people read it: a table's key by the label it was made with
    (`pit 3 adapters (table key)`), never its bare id (D288)."""
    who = str(state.get("requested_by") or "")
    label = holders.get(who) if a_tables_key(who) else None
    if not label or state.get("person") not in (None, "", who):
        return state
    return {**state, "person": f"{label} (table key)"}


REPORTERS = (Role.TABLE,)


def report_round(svc: Services, authorization: str | None, raw: bytes) -> RoundResult:
    """A round report from its Authorization header and raw body: the key first (401, 403),
    then the body (400), then the settlement. Log lines from here on name the round."""
    try:
        body, bad_body = parse_json(raw), None
    except JackpotError as exc:
        body, bad_body = None, exc
    if isinstance(body, dict):
        # known before the key lookup, so a store outage there is logged with the round
        logs.tag_round(body.get("table"), body.get("round"))
    secret = bearer_secret(authorization)
    # the round script refuses a revoked key itself, so a cached key is not looked up again
    key = svc.credentials.authenticate(secret, rechecked_by_store=True)
    logs.tag_request(key=key.key_id)
    check_role(key, REPORTERS)
    if bad_body is not None:
        svc.credentials.recheck(secret or "")  # a revoked key is answered nothing (D232)
        raise bad_body
    return svc.groups.report_round(body, key, secret or "")


@bp.post("")
def report() -> Response:
    raw = request_body()
    return jsonify(to_json(report_round(services(), request.headers.get("Authorization"), raw)))


@bp.get("/<table>/<round_id>")
@require(Role.TABLE, Role.OPERATOR, Role.AUDITOR)
def stored(table: str, round_id: str) -> Response:
    parse_identifier(table, "table")
    parse_identifier(round_id, "round")
    key = current_key()
    if key.role is Role.TABLE and table not in key.tables:
        raise ForbiddenError(f"this key may not read rounds of table {table!r}")
    found = services().groups.stored_round(table, round_id)
    if found is None:
        raise NotFoundError("round", f"{table}/{round_id}")
    void = services().groups.voids_of(table).state(table, round_id)
    if void is not None:
        void = named_state(void)
    return jsonify(to_json(found.with_void(void)))


@bp.post("/<table>/<round_id>/void")
@require(Role.OPERATOR, Role.TABLE)
def void(table: str, round_id: str) -> tuple[Response, int]:
    """Void a settled round, or the bets of some of its spots (docs/RULES.md §6). A table
    asks for a void of its own rounds, and a person approves it."""
    parse_identifier(table, "table")
    parse_identifier(round_id, "round")
    key = current_key()
    if key.role is Role.TABLE and table not in key.tables:
        raise ForbiddenError(f"this key may not void rounds of table {table!r}")
    data = ROUND_VOID_REQUEST.check(json_body())
    result, state = (
        services()
        .groups.voids_of(table)
        .void(
            table,
            round_id,
            data["reason"],
            data.get("spots"),
            current_actor(),
        )
    )
    return _voided(table, round_id, result, state)


@bp.post("/<table>/<round_id>/void/approve")
@require(Role.OPERATOR)
def approve_void(table: str, round_id: str) -> tuple[Response, int]:
    """Two-person control: another person applies the void held for approval."""
    parse_identifier(table, "table")
    parse_identifier(round_id, "round")
    data = ROUND_VOID_APPROVE_REQUEST.check(json_body()) if request_body() else {}
    result, state = (
        services()
        .groups.voids_of(table)
        .approve(table, round_id, current_actor(), str(data.get("reason", "")))
    )
    return _voided(table, round_id, result, state)


@bp.post("/<table>/<round_id>/void/refuse")
@require(Role.OPERATOR)
def refuse_void(table: str, round_id: str) -> tuple[Response, int]:
    """A person refuses the void held for approval, or its asker withdraws it."""
    parse_identifier(table, "table")
    parse_identifier(round_id, "round")
    data = ROUND_VOID_REFUSE_REQUEST.check(json_body())
    result, state = (
        services().groups.voids_of(table).refuse(table, round_id, current_actor(), data["reason"])
    )
    return _voided(table, round_id, result, state)


def _voided(table: str, round_id: str, result: str, state: dict[str, Any]) -> tuple[Response, int]:
    """What is void of the round after the step; `result` says what the step did."""
    state = named_state(state)
    body: dict[str, Any] = {"table": table, "round": round_id, "result": result, **state}
    # when the step was stamped, and so in which of the controller's gaming days it counts (a
    # table counts the voids it asked for by it)
    step = state["awaiting_approval"] if result == "awaiting_approval" else None
    if result == "voided" and state["voids"]:
        step = state["voids"][-1]
    if step is not None:
        body |= {"at": step["at"], "gaming_day": services().days().of_time(step["at"]).isoformat()}
    return jsonify(body), 202 if result == "awaiting_approval" else 200
